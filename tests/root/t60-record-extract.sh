#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Needs root and tracefs: record a fresh file-cache reclaim trace on this
# kernel (private tracefs instance, a child memory cgroup with a 64 MiB
# limit, `trace-cmd extract`; traces/record-file-limit.sh cleans up after
# itself, also on failure), once with the recorder's filters and once with
# none, and replay both.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: cannot record a kernel trace"
	finish
fi
for filters in 1 0; do
	out=$TMP/fresh-$filters.dat
	RR_FILTERS=$filters bash "$TOP/traces/extract/record-file-limit.sh" "$out" >"$TMP/rec.log" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$(grep -o 'SKIP: .*\*' "$TMP/rec.log" | head -1)"
		continue
	fi
	check_eq "filters=$filters: recording succeeded" 0 "$rc"
	[ $rc -eq 0 ] || { sed 's/^/    | /' "$TMP/rec.log" | tail -5; continue; }
	check "filters=$filters: compare replays the fresh trace" \
		sh -c "'$RR' compare --episodes differing -q '$out' -o '$TMP/fresh-$filters.json' >/dev/null"
	begins=$(trace-cmd report "$out" 2>/dev/null | grep -c 'mm_vmscan_memcg_reclaim_begin:')
	check "filters=$filters: the workload reclaimed" test "$begins" -gt 0
	check_eq "filters=$filters: one episode per begin/end pair" "$begins" \
		"$(jq '.summary.episodes_replayed' "$TMP/fresh-$filters.json")"
	check_eq "filters=$filters: reclaim root is the test cgroup" "true" \
		"$(jq '[.episodes[].cgroup | test("/rrtrace-[0-9]+-file$")] | all' "$TMP/fresh-$filters.json")"
	check "filters=$filters: decision exact share >= 0.99 on a fresh trace" \
		jq -e '.fidelity.exact_share >= 0.99' "$TMP/fresh-$filters.json"
	jq -r '"    fresh trace, filters='"$filters"': \(.fidelity.decisions_checked) calls, exact share \(.fidelity.exact_share), trajectory exact share \(.fidelity.trajectory_exact_share)"' "$TMP/fresh-$filters.json"
	# report on the fresh trace: per-cgroup totals = awk sums over trace-cmd report
	trace-cmd report "$out" 2>/dev/null | awk -f "$TOP/tests/cli/report-sums.awk" | sort >"$TMP/sums.awk"
	"$RR" report -q --json "$out" >"$TMP/fresh-$filters.report.json"
	check_eq "filters=$filters: report per-cgroup totals = sums over trace-cmd report" \
		"$(cat "$TMP/sums.awk")" \
		"$(jq -r '.cgroups[] | "\(.cgroup_id // 0) \(.scanned_pages) \(.reclaimed_pages)"' \
		   "$TMP/fresh-$filters.report.json" | sort)"
	check_eq "filters=$filters: report counts the memcg episodes" "$begins" \
		"$(jq '.episodes_by_kind.memcg.count' "$TMP/fresh-$filters.report.json")"
	trace-cmd report "$out" 2>/dev/null >"$TMP/fresh-$filters.txt"
	check_eq "filters=$filters: its trace-cmd report text reports the same cgroups" \
		"$(jq -c '.cgroups' "$TMP/fresh-$filters.report.json")" \
		"$("$RR" report -q --json "$TMP/fresh-$filters.txt" | jq -c '.cgroups')"
	check "filters=$filters: baseline within 10% of recorded reclaim" \
		jq -e '.summary as $s | (($s.policies.kernel.nr_reclaimed - $s.recorded.nr_reclaimed)
		       | fabs) <= 0.10 * $s.recorded.nr_reclaimed' "$TMP/fresh-$filters.json"
done
# a plain extract recording of reclaim walking a removed (offline) child
out=$TMP/offline-child.dat
if bash "$TOP/traces/extract/record-offline-child.sh" "$out" >"$TMP/rec.log" 2>&1; then
	check "offline-child (plain extract): compare replays it" \
		sh -c "'$RR' compare --episodes differing -q '$out' -o '$TMP/oc.json' >/dev/null"
	check "offline-child (plain extract): decision exact share >= 0.95" \
		jq -e '.fidelity.exact_share >= 0.95' "$TMP/oc.json"
	jq -r '"    plain extract offline-child: \(.fidelity.decisions_checked) calls, exact share \(.fidelity.exact_share)"' "$TMP/oc.json"
else
	skip "offline-child extract recording failed: $(tail -1 "$TMP/rec.log")"
fi
leftover=""
for i in $(ls /sys/kernel/tracing/instances 2>/dev/null | grep '^rr-[0-9]*$'); do
	kill -0 "${i#rr-}" 2>/dev/null || leftover="$leftover $i"
done
check_eq "no recorder instance left behind" "" "$leftover"
# (cgroups of recorder scripts still running, e.g. another test run, are not ours)
leftover=""
for d in $(find /sys/fs/cgroup/memory -maxdepth 4 -name 'rrtrace-*' 2>/dev/null); do
	p=$(basename "$d" | cut -d- -f2)
	kill -0 "$p" 2>/dev/null || leftover="$leftover $d"
done
check_eq "no test cgroup left behind" "" "$leftover"
finish
