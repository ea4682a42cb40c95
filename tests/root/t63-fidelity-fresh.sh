#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Fidelity on fresh recordings of this kernel (issue 16), the short version
# of bench/fidelity-recordings.sh (needs root, tracefs, the v1 memory
# controller and swapon): one file reclaimer and one anonymous reclaimer with
# swap, recorded with `record`, must give at least 99.5 % exact decisions
# and 99 % exact trajectories; three siblings reading files and one
# anonymous reclaimer under one limited parent, at the same time (checked:
# their episodes overlap), at least 95 % exact decisions counting the
# calls predicted but not recorded, and 80 % exact trajectories of those
# judged.  The script removes every cgroup, swap file, tracefs instance and
# data file it made, also when it fails.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: recording needs tracefs, cgroupfs and swapon"
	finish
fi
out=$TMP/fresh
mkdir -p "$out"
OUT=$out RR=$RR SIB_LOOPS=3 bash "$TOP/bench/fidelity-recordings.sh" rec-file rec-anon-s60 rec-siblings \
	>"$TMP/fresh.out" 2>"$TMP/fresh.err"
rc=$?
if [ $rc -eq 77 ]; then
	skip "$(grep -m1 'SKIP' "$TMP/fresh.err" | sed 's/^[* ]*//')"
	finish
fi
check_eq "bench/fidelity-recordings.sh exits 0" 0 "$rc"
[ $rc -eq 0 ] || { sed 's/^/    | /' "$TMP/fresh.err" | tail -20; finish; }
check_eq "swap is off again" "" "$(swapon --noheadings --show=NAME | grep rr || true)"

for n in rec-file rec-anon-s60; do
	"$RR" report -q --fidelity --json "$out/$n.dat" >"$TMP/$n.json"
	check "$n: decisions judged" jq -e '.fidelity.decisions_checked > 50' "$TMP/$n.json"
	check "$n: >= 99.5 % exact decisions ($(jq .fidelity.exact_share "$TMP/$n.json"))" \
		jq -e '.fidelity.exact_share >= 0.995' "$TMP/$n.json"
	check "$n: >= 99 % exact trajectories ($(jq .fidelity.trajectory_exact_share "$TMP/$n.json"))" \
		jq -e '.fidelity.trajectory_exact_share >= 0.99' "$TMP/$n.json"
done
"$RR" report -q --fidelity --json "$out/rec-siblings.dat" >"$TMP/sib.json"
check "siblings: the script saw overlapping episodes" \
	grep -q '^rec-siblings: [1-9][0-9]* of [0-9]* memcg episodes overlap' "$TMP/fresh.out"
check "siblings: some trajectories not judged for interleaved walks" \
	jq -e '.fidelity.trajectory_unchecked_interleaved > 0' "$TMP/sib.json"
check "siblings: >= 95 % exact decisions, predicted-but-unrecorded calls counted ($(jq .fidelity.exact_share "$TMP/sib.json"))" \
	jq -e '.fidelity.exact_share >= 0.95 and .fidelity.decisions_checked > 1000' "$TMP/sib.json"
check "siblings: >= 80 % exact trajectories of those judged ($(jq .fidelity.trajectory_exact_share "$TMP/sib.json"))" \
	jq -e '.fidelity.trajectory_exact_share >= 0.80' "$TMP/sib.json"
rm -rf "$out"
finish
