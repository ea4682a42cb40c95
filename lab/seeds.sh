#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/seeds.sh: the two seed e-mails' tables (seeds/), measured on the
# lab's kernels and predicted from the stock kernel's recording, side by
# side, in markdown.
#
#   usage: lab/seeds.sh RUNBASE
#          RUNBASE holds VARIANT/WORKLOAD run directories (lab/run.sh); a
#          table whose runs are missing is left out, and says so.
#   environment: RR  the reclaim-replay binary (default ./reclaim-replay)
#
# Seed 001 (T.J. Mercier, "mm: memcg: use larger chunks for proactive
# reclaim"): pages/s, seconds and over-reclaim of a 1 GiB and of a full
# memory.reclaim write, on stock 6.1 (the whole remainder per call: "pre-
# 0388536ac291"), cluster-cap (0388536ac291: SWAP_CLUSTER_MAX a call) and
# proportional (the patch: a quarter of what is left), for page cache
# (proactive-file) and anonymous memory with swap (proactive-anon).
# Measured: the patched kernel's own recording; predicted: `reclaim-replay
# verify` of the stock recording under the kernel's policy (stock: its own
# replay, policy kernel).
#
# Seed 000 (Gavin Shan, "mm/vmscan: don't round up scan size for online
# memory cgroup"): swap used and the anon pages each memcg was asked to
# scan (the sum of its get_scan_count() targets of the anon lists over
# every kswapd and direct reclaim pass), stock 6.1 (online memcgs floor)
# and roundup-all (68600f623d69's round-up for every memcg), of the global
# workload.  Measured: each kernel's recording (swap: the guest's
# /proc/meminfo at the end, truth.txt; targets: the recorded nr_requested
# sums); predicted: the stock recording replayed under each policy (swap:
# the stock kernel's swap plus the anon pages the policy reclaims beyond
# the stock replay's).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RR=${RR:-$top/reclaim-replay}
base=${1:?usage: lab/seeds.sh RUNBASE}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-seeds.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
policy_of() {	# the policy a variant's kernel runs (lab/patches/NAME.patch)
	case $1 in
	stock) echo kernel ;;
	*) sed -n 's/.*reclaim-replay policy: \([A-Za-z0-9_+.-]*\)\..*/\1/p' \
		"$top/lab/patches/$1.patch" | head -1 ;;
	esac
}
label_of() {
	case $1 in
	stock) echo "stock 6.1 (whole remainder a call)" ;;
	cluster-cap) echo "cluster-cap (0388536ac291: 32 pages a call)" ;;
	proportional) echo "proportional (the patch: left / 4)" ;;
	roundup-all) echo "roundup-all (68600f623d69 for every memcg)" ;;
	*) echo "$1" ;;
	esac
}

echo "### Seed 001: chunk size of memory.reclaim"
echo
for wl in proactive-file proactive-anon; do
	stock=$base/stock/$wl/trace.dat
	if [ ! -s "$stock" ]; then
		echo "($wl: no stock recording in $base)"
		echo
		continue
	fi
	rows=()
	for v in stock cluster-cap proportional; do
		t=$base/$v/$wl/trace.dat
		[ -s "$t" ] || continue
		p=$(policy_of "$v")
		if ! "$RR" verify -q "$stock" "$t" -p "$p" -o "$tmp/$v-$wl.json" >/dev/null 2>"$tmp/err"; then
			rows+=("| $(label_of "$v") | verify failed: $(head -1 "$tmp/err") | | | | | |")
			continue
		fi
		# write 2 is the 1 GiB one, write 3 the full one (lab/workloads)
		for w in 2 3; do
			rows+=("$(jq -r --arg l "$(label_of "$v")" --argjson w "$w" '
				def f1: if . == null then "-" else (. * 10 | round / 10 | tostring) end;
				def f2: if . == null then "-" else (. * 100 | round / 100 | tostring) end;
				def f0: if . == null then "-" else (. | round | tostring) end;
				(.rows[] | select(.episodes | startswith("write \($w):"))) as $r |
				"| \($l) | \(if $w == 2 then "1 GiB" else "full" end) | \($r.measured.calls) / \($r.predicted.calls) | " +
				"\($r.measured.pages_per_second | f0) / \($r.predicted.pages_per_second | f0) | " +
				"\($r.measured.seconds | f2) / \($r.predicted.seconds | f2) | " +
				"\($r.measured.over_reclaim_bytes / 1048576 | f1) / \($r.predicted.over_reclaim_bytes / 1048576 | f1) | " +
				"\($r.measured.nr_reclaimed) / \($r.predicted.nr_reclaimed) |"' "$tmp/$v-$wl.json")")
		done
	done
	echo "$wl (measured / predicted from the stock recording):"
	echo
	echo "| kernel | write | calls | pages/s | seconds | over-reclaim MiB | pages reclaimed |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	printf '%s\n' "${rows[@]}"
	echo
done

echo "### Seed 000: rounding up the scan size of online memcgs"
echo
stock=$base/stock/global/trace.dat
ra=$base/roundup-all/global/trace.dat
if [ ! -s "$stock" ] || [ ! -s "$ra" ]; then
	echo "(global: no stock or roundup-all recording in $base)"
	exit 0
fi
"$RR" compare -q --all-episodes "$stock" -p roundup-all -o "$tmp/s.json" >/dev/null 2>"$tmp/err" ||
	{ echo "(compare of $stock failed: $(head -1 "$tmp/err"))"; exit 1; }
"$RR" compare -q --all-episodes "$ra" -p roundup-all -o "$tmp/r.json" >/dev/null 2>"$tmp/err" ||
	{ echo "(compare of $ra failed: $(head -1 "$tmp/err"))"; exit 1; }
swap() { sed -n 's/^swap_used_kb end //p' "$1" | head -1; }
s_swap=$(swap "$base/stock/global/truth.txt")
r_swap=$(swap "$base/roundup-all/global/truth.txt")
page=$(jq '.input.page_size_bytes' "$tmp/s.json")
# anon scan targets per memcg: recorded (the nr_requested sums) or a policy's
anon_targets() {	# JSON WHICH(recorded|POLICY)
	jq -r --arg w "$2" '
		[.episodes[] | (if $w == "recorded" then .recorded else .results[$w] end) | .scan_targets[]?
		 | select(.lru == "inactive_anon")] | group_by(.cgroup)
		| map("\(.[0].cgroup) \(map(.nr_pages) | add)") | .[]' "$1"
}
anon_targets "$tmp/s.json" recorded >"$tmp/s.rec"
anon_targets "$tmp/s.json" kernel >"$tmp/s.kernel"
anon_targets "$tmp/s.json" roundup-all >"$tmp/s.ra"
anon_targets "$tmp/r.json" recorded >"$tmp/r.rec"
# the memcgs with 100 pages of targets or more in one of the columns
cgs=$(cat "$tmp"/s.rec "$tmp"/r.rec "$tmp"/s.ra "$tmp"/s.kernel | awk '$2 >= 100 { print $1 }' | sort -u)
get() { awk -v c="$1" '$1 == c { v = $2 } END { print v + 0 }' "$2"; }
s_anon_k=$(jq '.summary.policies.kernel.nr_reclaimed_anon' "$tmp/s.json")
s_anon_r=$(jq '.summary.policies["roundup-all"].nr_reclaimed_anon' "$tmp/s.json")
mib() { awk -v k="$1" 'BEGIN { if (k == "") print "-"; else printf "%.0f", k / 1024 }'; }
pred_swap=$(awk -v s="$s_swap" -v a="$s_anon_r" -v b="$s_anon_k" -v p="$page" \
	'BEGIN { if (s == "") print ""; else printf "%.0f", s + (a - b) * p / 1024 }')
hdr="| kernel | swap used MiB: measured / predicted"
sep="|---|---:"
for c in $cgs; do
	hdr="$hdr | $c inactive anon scan targets, pages"
	sep="$sep|---:"
done
echo "global (measured / predicted from the stock recording):"
echo
echo "$hdr |"
echo "$sep|"
line="| stock 6.1 (online memcgs: floor) | $(mib "$s_swap") / $(mib "$s_swap")"
for c in $cgs; do line="$line | $(get "$c" "$tmp/s.rec") / $(get "$c" "$tmp/s.kernel")"; done
echo "$line |"
line="| $(label_of roundup-all) | $(mib "$r_swap") / $(mib "$pred_swap")"
for c in $cgs; do line="$line | $(get "$c" "$tmp/r.rec") / $(get "$c" "$tmp/s.ra")"; done
echo "$line |"
echo
echo "(predicted swap: the stock kernel's, plus the anon pages roundup-all reclaims beyond"
echo "the stock replay's: $s_anon_r against $s_anon_k pages; TCG-emulated guests)"
