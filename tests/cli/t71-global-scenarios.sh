#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Global reclaim scenarios (docs/kernel-model.md 23): kswapd runs and
# direct reclaim under 68600f623d69 (`original`, SCAN_FRACT rounded up for
# everyone) and 76073c646f5f (`online-roundup`, floor for online memcgs).
# Every expected number is derived here from the scenario files with the
# kernel's formulas: scan = size >> priority, then SCAN_FRACT
# scan * fraction / denominator, floored (div64_u64) or rounded up
# (DIV64_U64_ROUND_UP); v5.6 weights 60 : 140 over 60 + 140 + 1.
. "$(dirname "$0")/../lib.sh"

S=$TOP/scenarios
AP=60 FP=140 DEN=201
fract() {	# fract SCAN WEIGHT RULE: a SCAN_FRACT target
	if [ "$3" = up ]; then echo $(( ($1 * $2 + DEN - 1) / DEN )); else echo $(( $1 * $2 / DEN )); fi
}
rule() { [ "$1" = original ] && echo up || echo floor; }
run() {	# run NAME FILE: compare -o - into $TMP/NAME.json
	"$RR" compare --episodes differing -q --all-episodes "$2" -p original -p online-roundup -o - >"$TMP/$1.json" 2>"$TMP/$1.err"
}
# memcgs with a non-zero inactive_anon target at priority $3 in episode $2
eligible() {
	jq -r --argjson e "$2" --argjson p "$3" --arg pol "$4" '[.episodes[$e].results[$pol].scan_targets[]
	    | select(.priority == $p and .lru == "inactive_anon")] | length' "$1"
}
res() { jq -r --argjson e "$2" --arg pol "$3" ".episodes[\$e].results[\$pol] | $4" "$1"; }

# ---- the seed's VMs (Gavin Shan, 76073c646f5f): kswapd, 64 KiB pages ----
f=$S/gavin-vms-kswapd.json
run vms "$f"
j=$TMP/vms.json
check_eq "schema: kswapd episodes validate" "[]" "$(jq -c -f "$TOP/tests/cli/schema.jq" "$j")"
check "kswapd episodes valid against the JSON Schema" /usr/bin/python3 "$TOP/tests/validate-schema.py" \
	"$TOP/schema/reclaim-replay-diff.schema.json" "$j"
check_eq "kind kswapd" "kswapd kswapd" "$(jq -r '[.episodes[].kind] | join(" ")' "$j")"
nvm=$(jq '[.cgroups[] | select(.path | startswith("/machine.slice/vm"))] | length' "$f")
S_VM=$(jq '.cgroups[] | select(.path == "/machine.slice/vm1") | .lru.inactive_anon' "$f")
F_VM=$(jq '.folio_pages.anon' "$f")
FI=$(jq '.cgroups[] | select(.path == "/system.slice") | .lru.inactive_file' "$f")
# the zones: nr_to_reclaim = sum of max(high, 32); balanced once one zone's
# free pages pass its high watermark: min(high + 1 - free)
NR=$(jq '[.requests[0].zones[] | select(.managed_pages > 0) | [.high_wmark_pages, 32] | max] | add' "$f")
NEED=$(jq '[.requests[0].zones[] | select(.managed_pages > 0) | .high_wmark_pages + 1 - .free_pages] | min' "$f")
check_eq "zones: nr_to_reclaim 221 + 663" 884 "$NR"
for pol in original online-roundup; do
	r=$(rule $pol)
	# the first priority at which a VM's inactive anon gets a target
	first=0
	for p in 12 11 10 9 8 7 6 5 4 3 2 1; do
		if [ "$(fract $((S_VM >> p)) $AP "$r")" -gt 0 ]; then first=$p; break; fi
	done
	want12=0
	[ "$first" = 12 ] && want12=$nvm
	check_eq "$pol: VMs eligible at priority 12" "$want12" "$(eligible "$j" 0 12 $pol)"
	check_eq "$pol: VMs eligible at priority $first" "$nvm" "$(eligible "$j" 0 "$first" $pol)"
	# at priority 12 the page cache alone gives fract(FI >> 12): less
	# than the node needs, so the run goes on until the VMs are eligible;
	# then each gives one whole THP (a 1-page batch takes a whole folio),
	# more than nr_to_reclaim scanned: the priority stays and the next
	# iteration finds the node balanced
	file12=$(fract $((FI >> 12)) $FP "$r")
	[ "$file12" -lt "$NEED" ] || echo "scenario no longer needs the VMs" >&2
	check_eq "$pol: the run ends balanced at priority $first, $nvm THPs swapped" \
		"$first $((nvm * F_VM))" "$(res "$j" 0 $pol '"\(.lowest_priority) \(.nr_reclaimed_anon)"')"
done
check_eq "original ends at a higher priority than online-roundup" \
	"12 11" "$(res "$j" 0 original .lowest_priority) $(res "$j" 0 online-roundup .lowest_priority)"
# request 2: the node is one page short.  online-roundup's priority-12
# pass reclaims fract(FI >> 12) page-cache pages and no VM: balanced, no
# swap; original swaps one THP of every VM in the same pass.
check_eq "1 page short, online-roundup: page cache only" \
	"$(fract $((FI >> 12)) $FP floor) 0 12" "$(res "$j" 1 online-roundup '"\(.nr_reclaimed) \(.nr_reclaimed_anon) \(.lowest_priority)"')"
check_eq "1 page short, original: every VM loses a THP" \
	"$((nvm * F_VM)) 12" "$(res "$j" 1 original '"\(.nr_reclaimed_anon) \(.lowest_priority)"')"

# ---- direct reclaim over 0x1000, 0x3fff, 0x4000 inactive anon pages (v5.6) ----
f=$S/gavin-direct.json
run direct "$f"
j=$TMP/direct.json
check_eq "kind direct" direct "$(jq -r '.episodes[0].kind' "$j")"
sizes=$(jq -r '[.cgroups[] | select(.lru.inactive_anon) | .lru.inactive_anon] | join(" ")' "$f")
for pol in original online-roundup; do
	r=$(rule $pol)
	n12=0
	for s in $sizes; do [ "$(fract $((s >> 12)) $AP "$r")" -gt 0 ] && n12=$((n12 + 1)); done
	check_eq "$pol: lists eligible at priority 12" "$n12" "$(eligible "$j" 0 12 $pol)"
	# do_try_to_free_pages(): full walks (v5.4 - v6.10), every target
	# whole (each < 32: no goal check cuts it; none at priority 12), one
	# page per page asked (ratio 1); stop after the pass that brings the
	# call to 32 (SWAP_CLUSTER_MAX)
	# shellcheck disable=SC2086
	set -- $sizes
	a=$1 b=$2 c=$3 tot=0 p=12
	while :; do
		ta=$(fract $((a >> p)) $AP "$r") tb=$(fract $((b >> p)) $AP "$r") tc=$(fract $((c >> p)) $AP "$r")
		a=$((a - ta)) b=$((b - tb)) c=$((c - tc)) tot=$((tot + ta + tb + tc))
		[ $tot -ge 32 ] && break
		p=$((p - 1))
	done
	check_eq "$pol: reclaimed and last priority (derived pass by pass)" "$tot $p" \
		"$(res "$j" 0 $pol '"\(.nr_reclaimed) \(.lowest_priority)"')"
done
check_eq "3 lists eligible at priority 12 under original, 1 under online-roundup" "3 1" \
	"$(eligible "$j" 0 12 original) $(eligible "$j" 0 12 online-roundup)"

# ---- request errors ----
bad() {	# bad NAME PATTERN JSON
	printf '%s\n' "$3" >"$TMP/$1.json"
	check_fails "bad scenario: $1" 1 "^reclaim-replay: $TMP/$1.json: $2" "$RR" compare --episodes differing -q "$TMP/$1.json"
}
bad kswapd-none "requests\[0\]: a kswapd request gives zones or reclaim_pages" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "kswapd"}]}'
bad kswapd-cgroup "requests\[0\]: kswapd reclaim is global" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a"}], "requests": [{"kind": "kswapd", "cgroup": "/a", "reclaim_pages": 1}]}'
bad kswapd-zone "requests\[0\].zones\[0\]: free_pages and high_wmark_pages must be at most managed_pages" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "kswapd", "zones": [{"managed_pages": 10, "free_pages": 20, "high_wmark_pages": 5}]}]}'
bad order-limit "requests\[0\]: order is for direct, kswapd and node requests" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/", "order": 2}]}'
bad order-14 "requests\[0\]: order must be 0..13" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "direct", "order": 14}]}'
# (a bug fixed: a direct request's nr_pages was accepted, reported as its
# nr_to_reclaim, and not used; try_to_free_pages() asks for 32 pages)
bad direct-nr-pages "requests\[0\]: a direct request reclaims SWAP_CLUSTER_MAX \\(32\\) pages: no nr_pages" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "direct", "nr_pages": 1000000}]}'
bad folio-64k "folio_pages.anon: must be a power of two from 1 to 8192 pages" \
	'{"scenario": 1, "kernel": "6.18", "page_size": 65536, "folio_pages": {"anon": 16384}, "cgroups": [{"path": "/"}], "requests": [{"kind": "direct"}]}'

# ---- kswapd from reclaim_pages: the ladder without balance ----
# 6.18, one memcg of 2^20 inactive file pages, no swap: the kswapd goal
# check (nr_to_reclaim 32, not proportional) ends each shrink_lruvec()
# after its first 32-page round; 32 >= 32 scanned keeps priority 12, so
# a 1000-page balance takes ceil(1000 / 32) passes at priority 12.
cat >"$TMP/ladder-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [ { "path": "/" }, { "path": "/c", "lru": { "inactive_file": 1048576 } } ],
  "requests": [ { "kind": "kswapd", "reclaim_pages": 1000, "nr_pages": 32 },
    { "kind": "node", "order": 3 } ] }
JSON
"$RR" compare --episodes differing -q --all-episodes "$TMP/ladder-in.json" -o - >"$TMP/ladder.json"
check_eq "kswapd: ceil(1000 / 32) passes of 32 pages at priority 12" \
	"$(( (1000 + 31) / 32 * 32 )) 12 kswapd" \
	"$(jq -r '.episodes[0] | "\(.results.kernel.nr_reclaimed) \(.results.kernel.lowest_priority) \(.kind)"' "$TMP/ladder.json")"
# node reclaim, order 3: priority 4 (NODE_RECLAIM_PRIORITY), nr_to_reclaim
# max(8, 32); the v6.11+ partial walk starts at the root (empty), then /c:
# 2^20 >> 4 pages in 32-page rounds until its own reclaim reaches 32
check_eq "node reclaim: one pass at priority 4, 32 pages" "32 4 node" \
	"$(jq -r '.episodes[1] | "\(.results.kernel.nr_reclaimed) \(.results.kernel.lowest_priority) \(.kind)"' "$TMP/ladder.json")"

# ---- node reclaim: nr_to_reclaim = max(1 << order, 32) (__node_reclaim()) ----
# (a bug fixed: a node request reported nr_to_reclaim 32 whatever its order,
# and its reclaim of 1 << order pages as over-reclaim)
cat >"$TMP/node.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [{"path": "/"}, {"path": "/a", "lru": {"inactive_file": 100000, "inactive_anon": 50000}}],
  "requests": [{"kind": "node", "order": 10}, {"kind": "node", "order": 2}] }
JSON
"$RR" compare --episodes differing -q --all-episodes "$TMP/node.json" -o - >"$TMP/node.out" 2>"$TMP/node.err"
check_eq "node order 10: nr_to_reclaim 1 << 10" 1024 "$(jq '.episodes[0].nr_to_reclaim' "$TMP/node.out")"
check_eq "node order 2: nr_to_reclaim 32" 32 "$(jq '.episodes[1].nr_to_reclaim' "$TMP/node.out")"
finish
