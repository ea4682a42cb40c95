#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What-if scenarios through compare: the seed threads' and the spec's
# numbers (docs/kernel-model.md 16.1 - 16.3) end to end, and clear
# errors for malformed scenario files.
. "$(dirname "$0")/../lib.sh"

S=$TOP/scenarios
run() {	# run NAME ARGS...: compare -o - into $TMP/NAME.json
	local name=$1
	shift
	"$RR" compare --episodes differing -q --all-episodes "$@" -o - >"$TMP/$name.json" 2>"$TMP/$name.err"
}
# p12 FILE CGROUP POLICY: the priority-12 inactive_anon target
p12() {
	jq -r --arg c "$2" --arg p "$3" '.episodes[] | select(.cgroup == $c) | .results[$p]
	    | ([.scan_targets[] | select(.priority == 12 and .lru == "inactive_anon") | .nr_pages] | first // 0)' "$1"
}

for f in "$S"/*.json; do
	n=$(basename "$f" .json)
	run "schema-$n" "$f"
	check_eq "$n: valid schema-1 JSON" "[]" "$(jq -c -f "$TOP/tests/cli/schema.jq" "$TMP/schema-$n.json")"
	check "$n: valid against the JSON Schema" /usr/bin/python3 "$TOP/tests/validate-schema.py" \
		"$TOP/schema/reclaim-replay-diff.schema.json" "$TMP/schema-$n.json"
done

# Gavin Shan, 76073c646f5f: swappiness 60, priority 12, 60/140/201
run gavin "$S/gavin-thresholds.json" -p original -p online-roundup
j=$TMP/gavin.json
check_eq "0x1000 pages: online-roundup scans 0" 0 "$(p12 "$j" /anon-0x1000 online-roundup)"
check_eq "0x1000 pages: original (68600f623d69) scans 1" 1 "$(p12 "$j" /anon-0x1000 original)"
check_eq "0x3fff pages: online-roundup scans 0" 0 "$(p12 "$j" /anon-0x3fff online-roundup)"
check_eq "0x4000 pages: online-roundup scans 1" 1 "$(p12 "$j" /anon-0x4000 online-roundup)"
check_eq "v5.6 kernel baseline is online-roundup" 0 \
	"$(jq '.summary.policies["online-roundup"].episodes_differing_from_baseline' "$j")"

# the offline one-page list: 0 without round-up (v4.19 floor), 1 with
run offline "$S/offline-one-page.json" -p original -p online-roundup
j=$TMP/offline.json
check_eq "offline 1-page list, v4.19 floor: 0" 0 "$(p12 "$j" /dying kernel)"
check_eq "offline 1-page list, original: 1" 1 "$(p12 "$j" /dying original)"
check_eq "offline 1-page list, online-roundup: 1" 1 "$(p12 "$j" /dying online-roundup)"

# before v5.5 (docs/kernel-model.md 6.5), targets derived by hand there and
# in tests/unit/test-sim.c: get_scan_count() trims cache per lruvec (a:
# SCAN_FILE 40960 >> 12 = 10, 8192 >> 12 = 2; b's inactive file is low:
# SCAN_FRACT 60/140/201, floor on 4.19, ceil on 5.4), from 5.5 once at the
# root (file 45056 vs 28672 not low: SCAN_FILE for b too: 1 and 5); limit
# reclaim of /files (two children of 131072 inactive file pages, one
# 32-page batch each at priority 12) stops after c before 5.4, walks both
# in 5.4 - 6.10
# p12t FILE N: episode N's priority-12 targets, "cgroup lru pages;..."
p12t() {
	jq -r --argjson n "$2" '[.episodes[$n].results.kernel.scan_targets[] | select(.priority == 12)
	    | "\(.cgroup) \(.lru) \(.nr_pages)"] | join(";")' "$1"
}
for row in "4.19|/job/a inactive_file 10;/job/a active_file 2;/job/b inactive_anon 2;/job/b active_file 3|32 /files/c" \
	   "5.4|/job/a inactive_file 10;/job/a active_file 2;/job/b inactive_anon 3;/job/b inactive_file 1;/job/b active_file 4|64 /files/c /files/d" \
	   "5.5|/job/a inactive_file 10;/job/a active_file 2;/job/b inactive_file 1;/job/b active_file 5|64 /files/c /files/d"; do
	IFS='|' read -r k targets walk <<<"$row"
	run "pre55-$k" "$S/before-v5.5.json" --kernel "$k"
	j=$TMP/pre55-$k.json
	check_eq "$k: the priority-12 scan balance of each lruvec" "$targets" "$(p12t "$j" 0)"
	check_eq "$k: limit reclaim of /files: reclaimed, cgroups walked" "$walk" \
		"$(jq -r '.episodes[1].results.kernel | "\(.nr_reclaimed) \([.scan_targets[].cgroup] | unique | join(" "))"' "$j")"
done

# 1 GiB memory.reclaim, every call reclaiming exactly its nr_to_reclaim
run exact "$S/chunk-1gib-exact.json" -p original -p cluster-cap -p proportional -p proportional-v1
j=$TMP/exact.json
calls() { jq -r ".episodes[0].results[\"$2\"] | \"\(.calls) \(.nr_reclaimed)\"" "$1"; }
check_eq "whole remainder: 1 call" "1 262144" "$(calls "$j" original)"
check_eq "cluster-cap: 8192 calls" "8192 262144" "$(calls "$j" cluster-cap)"
check_eq "proportional: 31 calls, 16 pages over" "31 262160" "$(calls "$j" proportional)"
check_eq "proportional: the request sequence" \
	"65536 49152 36864 27648 20736 15552 11664 8748 6561 4920 3690 2768 2076 1557 1168 876 657 492 369 277 208 156 117 88 66 49 37 32 32 32 32" \
	"$(jq -r '.episodes[0].results.proportional.call_nr_to_reclaim_pages | join(" ")' "$j")"
check_eq "proportional-v1 decides exactly as proportional" \
	"$(jq -c '.episodes[0].results.proportional' "$j")" \
	"$(jq -c '.episodes[0].results["proportional-v1"]' "$j")"
run c1 "$S/chunk-1gib-plus-batch.json" -p original -p cluster-cap -p proportional
check_eq "C1 (+32 per call): whole, cap, quarter" "1 262176|4096 262144|27 262201" \
	"$(calls "$TMP/c1.json" original)|$(calls "$TMP/c1.json" cluster-cap)|$(calls "$TMP/c1.json" proportional)"

# C2: four children of 4 GiB cold page cache, through the whole simulator
for row in "6.5 1 501916 4" "6.8 2048 262144 12" "6.10 12 262164 6" "6.11 27 262147 6"; do
	set -- $row
	run "c2-$1" "$S/c2-overreclaim.json" --kernel "$1" -p original
	check_eq "C2 on $1: calls, reclaimed, lowest priority" "$2 $3 $4" \
		"$(jq -r '.episodes[0].results.kernel | "\(.calls) \(.nr_reclaimed) \(.lowest_priority)"' "$TMP/c2-$1.json")"
done
check_eq "C2 6.10: the first call asks 65536 pages and gets 128712" "65536 128712" \
	"$(jq -r '.episodes[0].results.kernel | "\(.call_requests_pages[0]) \(.call_reclaimed_pages[0])"' "$TMP/c2-6.10.json")"
check_eq "C2 6.11: the first call gets 80313 (partial walk)" 80313 \
	"$(jq -r '.episodes[0].results.kernel.call_reclaimed_pages[0]' "$TMP/c2-6.11.json")"

# malformed scenarios: one clear line naming the file and the element
bad() {	# bad NAME PATTERN JSON
	printf '%s\n' "$3" >"$TMP/$1.json"
	check_fails "bad scenario: $1" 1 "^reclaim-replay: $TMP/$1.json: $2" "$RR" compare --episodes differing -q "$TMP/$1.json"
}
bad syntax "not valid JSON: .* \(line 2, column 0\)" '{"scenario": 1, '
bad version "scenario: unsupported version" '{"scenario": 2, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/"}]}'
bad unknown-key "top level: unknown key 'cgroup'" '{"scenario": 1, "kernel": "6.18", "cgroup": []}'
bad no-kernel "kernel: missing" '{"scenario": 1, "cgroups": [{"path": "/"}]}'
bad orphan "cgroups\[1\]: parent cgroup must be listed before its children" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a/b"}], "requests": [{"kind": "limit", "cgroup": "/"}]}'
bad negative "cgroups\[1\].lru.inactive_anon: not a whole number" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a", "lru": {"inactive_anon": -5}}], "requests": [{"kind": "limit", "cgroup": "/a"}]}'
bad lru-typo "cgroups\[1\].lru: unknown key 'inactive_anonn'" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a", "lru": {"inactive_anonn": 5}}], "requests": [{"kind": "limit", "cgroup": "/a"}]}'
bad no-such-cgroup "requests\[0\]: cgroup is not in the cgroups list" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/x"}]}'
bad kind "requests\[0\]: kind must be limit, proactive, direct, kswapd or node" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "kswapd2", "cgroup": "/"}]}'
bad page-size "page_size: must be a power of two" \
	'{"scenario": 1, "kernel": "6.18", "page_size": 5000, "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/"}]}'
bad old-kernel "kernel: '3.10' is not a release" \
	'{"scenario": 1, "kernel": "3.10", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/", "nr_pages": 1}]}'

# The memory.reclaim swappiness= key (68cd9050d871, v6.11; "max" v6.16)
# in get_scan_count(), 6.18: 0x4000 inactive pages per list give 4 at
# priority 12; costs 0 give fractions sw/200 and (200 - sw)/200, floored
# for an online memcg. /fract's active file list (0x4001 > 0x4000) makes
# inactive file low, so no cache_trim_mode; /trim has it.
cat >"$TMP/sw-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": true,
  "cgroups": [ { "path": "/" },
    { "path": "/fract", "lru": { "inactive_anon": 16384, "inactive_file": 16384, "active_file": 16385 } },
    { "path": "/trim", "lru": { "inactive_anon": 16384, "inactive_file": 16384 } } ],
  "requests": [
    { "kind": "proactive", "cgroup": "/fract", "nr_pages": 32 },
    { "kind": "proactive", "cgroup": "/fract", "nr_pages": 32, "swappiness": 0 },
    { "kind": "proactive", "cgroup": "/fract", "nr_pages": 32, "swappiness": 200 },
    { "kind": "proactive", "cgroup": "/fract", "nr_pages": 32, "swappiness": "max" },
    { "kind": "proactive", "cgroup": "/trim", "nr_pages": 32, "swappiness": 200 },
    { "kind": "proactive", "cgroup": "/trim", "nr_pages": 32, "swappiness": "max" } ] }
JSON
run sw "$TMP/sw-in.json"
# inactive anon and inactive file targets of the first priority-12 pass of episode $2
sw12() {
	jq -r --argjson i "$2" '.episodes[$i].results.kernel.scan_targets as $t
	    | [("inactive_anon", "inactive_file") as $l
	       | ([$t[] | select(.priority == 12 and .lru == $l) | .nr_pages] | first // 0)]
	    | join(" ")' "$1"
}
j=$TMP/sw.json
check_eq "swappiness 60 (no key): 4 * 60/200 = 1 anon, 4 * 140/200 = 2 file" "1 2" "$(sw12 "$j" 0)"
check_eq "swappiness=0: SCAN_FILE, 0 anon, 4 file" "0 4" "$(sw12 "$j" 1)"
check_eq "swappiness=200: 4 * 200/200 anon, 4 * 0/200 file" "4 0" "$(sw12 "$j" 2)"
check_eq "swappiness=max: SCAN_ANON, 4 anon, no file" "4 0" "$(sw12 "$j" 3)"
check_eq "cache_trim_mode: swappiness=200 still scans file only" "0 4" "$(sw12 "$j" 4)"
check_eq "cache_trim_mode: swappiness=max comes first, anon only" "4 0" "$(sw12 "$j" 5)"
sed 's/"swap": true/"swap": false/' "$TMP/sw-in.json" >"$TMP/sw-noswap-in.json"
run sw-noswap "$TMP/sw-noswap-in.json"
check_eq "no swap: swappiness=max scans file (the no-swap test comes first)" "0 4" \
	"$(sw12 "$TMP/sw-noswap.json" 3)"
check_fails "6.10 has no swappiness= key (the kernel answers EINVAL)" 1 \
	"sw-in.json: policy kernel, requests\[1\]: kernel 6.10, memory.reclaim swappiness=[0-9]+: the release has no swappiness= key in memory.reclaim" \
	"$RR" compare --episodes differing -q "$TMP/sw-in.json" --kernel 6.10
jq '.requests |= [.[3]]' "$TMP/sw-in.json" >"$TMP/sw-max.json"
check_fails "6.15 has no swappiness=max" 1 "kernel 6.15, memory.reclaim swappiness=201: the release has no swappiness=max in memory.reclaim" \
	"$RR" compare --episodes differing -q "$TMP/sw-max.json" --kernel 6.15
jq '.requests |= [.[0]]' "$TMP/sw-in.json" >"$TMP/sw-nokey.json"
check "6.10 replays a write without the key" "$RR" compare --episodes differing -q "$TMP/sw-nokey.json" --kernel 6.10 -o "$TMP/nokey.out"
bad swappiness-201 "requests\[0\].swappiness: must be 0..200 or \"max\"" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "proactive", "cgroup": "/", "nr_pages": 32, "swappiness": 201}]}'
bad swappiness-str "requests\[0\].swappiness: must be 0..200 or \"max\"" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "proactive", "cgroup": "/", "nr_pages": 32, "swappiness": "60"}]}'
bad swappiness-limit "requests\[0\].swappiness: only a proactive request" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/", "nr_pages": 32, "swappiness": 0}]}'

# ---- the what-if outcome model (docs/kernel-model.md 20; issue 16) ----

# shrink_active_list() moves what an active batch takes to the inactive
# list, where later inactive batches reclaim it.  A 64 MiB memory.reclaim
# (16384 pages) of a cgroup with 1,000 inactive and 100,000 active file
# pages, 6.18, no swap (SCAN_FILE).  inactive_is_low(1000, 100000) holds
# (under 1 GiB: ratio 1), so may_deactivate file is set; every taken
# inactive page is reclaimed (ratio 1), every taken active page moved.
# The chunk is a quarter of what is left, at least 32 (287d5fedb377).  Call
# 1 asks 4096: per priority p the targets are size >> p,
#   p12: active 24 moved; p11: 48 moved; p10: 1 reclaimed, 97 moved;
#   p9: 2, 194; p8: 5, 389; p7: 13, 775; p6: 39, 1538; p5: 125, 3029;
#   p4: 431, 5869; p3: 1543, 11004 (call total 2159);
#   p2: inactive 21808 >> 2 = 5452: the goal check after the round that
#   brings this lruvec's own reclaim to 4096 ends it (no anon): 6255.
# Calls 2..14, the same way (asked -> got, lowest priority): 2532 -> 2969
# (4), 1790 -> 3549 (4), 902 -> 928 (6), 670 -> 952 (6), 432 -> 481 (7),
# 312 -> 487 (7), 190 -> 240 (8), 130 -> 242 (8), 70 -> 116 (9), 41 -> 53
# (10), then 32 -> 53 (10) three times: 16431 pages, met.  Active batches
# used to move nothing: 1000 pages, then -EAGAIN after 17 empty calls.
run deact "$S/active-cache.json"
j=$TMP/deact.json
check_eq "deactivation: 64 MiB of 100,000 active file pages: 14 calls, 16431 pages, met" \
	"14 16431 met" "$(jq -r '.episodes[0].results.kernel | "\(.calls) \(.nr_reclaimed) \(.outcome)"' "$j")"
check_eq "deactivation: each call's reclaim" "6255 2969 3549 928 952 481 487 240 242 116 53 53 53 53" \
	"$(jq -r '.episodes[0].results.kernel.call_reclaimed_pages | join(" ")' "$j")"

# --outcome exact / "model": "exact" never reclaims more than the walk's
# lists hold: a cgroup of 4,000 inactive and 6,000 active file pages (the
# active ones reachable by deactivation) and 5,000 anon pages that no swap
# makes reclaimable holds 10,000.  A 50,000-page limit reclaim (+8 extra
# pages) gets 10,000, short of its goal (issue 16 saw 50,008, "met", before
# f336ee9); a 1 GiB
# memory.reclaim gets 10,000 in its first call, then 17 empty calls and
# -EAGAIN (MAX_RECLAIM_RETRIES 16).
cat >"$TMP/exact10k-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [ { "path": "/" },
    { "path": "/c", "lru": { "inactive_file": 4000, "active_file": 6000, "inactive_anon": 5000 } } ],
  "requests": [ { "kind": "limit", "cgroup": "/c", "nr_pages": 50000 },
    { "kind": "proactive", "cgroup": "/c", "bytes": 1073741824 } ],
  "outcome": { "model": "exact", "extra_pages": 8 } }
JSON
run exact10k "$TMP/exact10k-in.json"
j=$TMP/exact10k.json
check_eq "exact: 50,000 pages asked of 10,000: 10000, short" "10000 short" \
	"$(jq -r '.episodes[0].results.kernel | "\(.nr_reclaimed) \(.outcome)"' "$j")"
check_eq "exact: 1 GiB asked of 10,000: 10000 in 18 calls, -EAGAIN" "10000 18 eagain" \
	"$(jq -r '.episodes[1].results.kernel | "\(.nr_reclaimed) \(.calls) \(.outcome)"' "$j")"

# folio_pages: isolate_lru_folios() counts every page of a folio against
# the batch's nr_to_scan (scan += folio_nr_pages(), since 2019; v6.6 and
# v6.18 alike), so a batch asking for 32 pages takes ceil(32 / f) whole folios.
# A 32-page limit reclaim of 4 GiB of inactive file pages, 6.18, no swap:
# priority 12 targets 1048576 >> 12 = 256 and the goal is met after the
# first batch: 512 pages with 512-page folios (the scenario's default),
# 32 with single pages, 64 with 64-page folios.
cat >"$TMP/folio-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false, "folio_pages": { "file": 512 },
  "cgroups": [ { "path": "/" },
    { "path": "/thp", "lru": { "inactive_file": 1048576 } },
    { "path": "/small", "lru": { "inactive_file": 1048576 }, "folio_pages": { "file": 1 } },
    { "path": "/mid", "lru": { "inactive_file": 1048576 }, "folio_pages": { "file": 64 } } ],
  "requests": [ { "kind": "limit", "cgroup": "/thp", "nr_pages": 32 },
    { "kind": "limit", "cgroup": "/small", "nr_pages": 32 },
    { "kind": "limit", "cgroup": "/mid", "nr_pages": 32 } ] }
JSON
run folio "$TMP/folio-in.json"
check_eq "folio_pages 512, 1, 64: scanned, reclaimed, batches" "512 512 1|32 32 1|64 64 1" \
	"$(jq -r '[.episodes[].results.kernel | "\(.nr_scanned) \(.nr_reclaimed) \(.batches)"] | join("|")' "$TMP/folio.json")"
bad folio-3 "cgroups\[1\].folio_pages.file: must be a power of two from 1 to 512 pages" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a", "folio_pages": {"file": 3}}], "requests": [{"kind": "limit", "cgroup": "/a"}]}'
bad folio-1024 "folio_pages.anon: must be a power of two from 1 to 512 pages" \
	'{"scenario": 1, "kernel": "6.18", "folio_pages": {"anon": 1024}, "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/"}]}'
bad folio-0 "cgroups\[1\].folio_pages.anon: must be a power of two" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a", "folio_pages": {"anon": 0}}], "requests": [{"kind": "limit", "cgroup": "/a"}]}'
bad folio-key "cgroups\[1\].folio_pages: unknown key 'fil'" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}, {"path": "/a", "folio_pages": {"fil": 2}}], "requests": [{"kind": "limit", "cgroup": "/a"}]}'
bad folio-bytes "folio_pages: not an object" \
	'{"scenario": 1, "kernel": "6.18", "folio_pages": 2097152, "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/"}]}'

# outcome.activate_ratio: shrink_folio_list() puts that share of the pages
# taken on the active list.  A 64-page limit reclaim of a 64-page inactive
# file list, 6.18, no swap, reclaim_ratio 0.5; the rstat view (64
# inactive, 0 active) leaves deactivation off, so activated pages stay
# active.  Without activation the pages not reclaimed go back and are
# taken again: targets 1, 2, 3, 7, 14, 25, 38 at priorities 6..0 reclaim
# 0, 1, 2, 3, 7, 13, 19 = 45 of 90 taken.  With activate_ratio 0.5 every
# page not reclaimed is activated: targets 1, 1, 3, 7, 13, 19, 20 reclaim
# 0, 1, 1, 4, 6, 10, 10 = 32 of 64: half the list, the rest active.
for a in "0 90 45" "0.5 64 32"; do
	set -- $a
	jq --argjson a "$1" '.outcome.activate_ratio = $a' >"$TMP/act-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [ { "path": "/" }, { "path": "/c", "lru": { "inactive_file": 64 } } ],
  "requests": [ { "kind": "limit", "cgroup": "/c", "nr_pages": 64 } ],
  "outcome": { "reclaim_ratio": 0.5 } }
JSON
	run act "$TMP/act-in.json"
	check_eq "activate_ratio $1: scanned, reclaimed" "$2 $3" \
		"$(jq -r '.episodes[0].results.kernel | "\(.nr_scanned) \(.nr_reclaimed)"' "$TMP/act.json")"
done
# a path with a control character: the episode's cgroup is the name its
# scan targets use ("\xNN", as in a trace); it was the raw path
cat >"$TMP/esc-in.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [ { "path": "/" }, { "path": "/a\u001bb", "lru": { "inactive_file": 8192 } } ],
  "requests": [ { "kind": "limit", "cgroup": "/a\u001bb", "nr_pages": 32 } ] }
JSON
run esc "$TMP/esc-in.json"
check_eq "a control character in a path: the episode's cgroup and its targets' agree" \
	'"/a\\x1bb" ["/a\\x1bb"]' \
	"$(jq -c '.episodes[0] | .cgroup, ([.results.kernel.scan_targets[].cgroup] | unique)' "$TMP/esc.json" | tr '\n' ' ' | sed 's/ $//')"
bad activate-sum "outcome.activate_ratio: reclaim_ratio \+ activate_ratio is above 1" \
	'{"scenario": 1, "kernel": "6.18", "cgroups": [{"path": "/"}], "requests": [{"kind": "limit", "cgroup": "/", "nr_pages": 32}], "outcome": {"reclaim_ratio": 0.75, "activate_ratio": 0.5}}'

finish
