#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `report` and the text reader: per-cgroup totals equal sums over
# `trace-cmd report` output of the same file (computed apart, by awk);
# text renderings of a trace.dat report like the file; text fixtures in the
# formats of five kernel generations give one episode structure; truncated
# traces, lost events and unknown events report, flag and exit 0; files that
# are not traces exit 1 naming the file.
. "$(dirname "$0")/../lib.sh"

fix=$TOP/tests/fixtures/text

# -- totals against trace-cmd report --------------------------------------
for dat in "$TOP"/traces/*.dat; do
	name=$(basename "$dat" .dat)
	trace-cmd report "$dat" 2>/dev/null >"$TMP/$name.txt"
	awk -f "$TOP/tests/cli/report-sums.awk" "$TMP/$name.txt" | sort >"$TMP/$name.awk"
	check "$name: report --json exits 0" sh -c "'$RR' report -q --json '$dat' >'$TMP/$name.json'"
	jq -r '.cgroups[] | "\(.cgroup_id // 0) \(.scanned_pages) \(.reclaimed_pages)"' \
		"$TMP/$name.json" | sort >"$TMP/$name.rr"
	check "$name: per-cgroup totals found" test -s "$TMP/$name.rr"
	check_eq "$name: per-cgroup scanned/reclaimed = sums over trace-cmd report" \
		"$(cat "$TMP/$name.awk")" "$(cat "$TMP/$name.rr")"
	check_eq "$name: per-priority rows add up to the cgroup totals" "" \
		"$(jq -r '.cgroups[] | select(([.priorities[].scanned_pages] | add) != .scanned_pages
			or ([.priorities[].reclaimed_pages] | add) != .reclaimed_pages) | .path' "$TMP/$name.json")"
	check_eq "$name: memcg episodes = begin events in trace-cmd report" \
		"$(grep -c ' mm_vmscan_memcg_reclaim_begin: ' "$TMP/$name.txt")" \
		"$(jq '.episodes_by_kind.memcg.complete' "$TMP/$name.json")"
	check_eq "$name: episode list matches the per-kind counts" \
		"$(jq '[.episodes_by_kind[].count] | add' "$TMP/$name.json")" \
		"$(jq '.episodes | length' "$TMP/$name.json")"
done

# -- the text reader reads trace-cmd report text like the trace.dat ---------
for name in anon-swap offline-child; do
	trace-cmd report -l "$TOP/traces/$name.dat" 2>/dev/null >"$TMP/$name-l.txt"
	for v in "$name" "$name-l"; do
		check "$v.txt: report exits 0" sh -c "'$RR' report -q --json '$TMP/$v.txt' >'$TMP/$v.txt.json'"
		check_eq "$v.txt: text reports like the trace.dat (cgroups, priorities)" \
			"$(jq -c '[.cgroups, .priorities]' "$TMP/$name.json")" \
			"$(jq -c '[.cgroups, .priorities]' "$TMP/$v.txt.json")"
		check_eq "$v.txt: same episodes (times in us in text)" \
			"$(jq -c '[.episodes[] | del(.start_ns, .end_ns)]' "$TMP/$name.json")" \
			"$(jq -c '[.episodes[] | del(.start_ns, .end_ns)]' "$TMP/$v.txt.json")"
		check_eq "$v.txt: format text, kernel from the meta marker" "text trace" \
			"$(jq -r '"\(.input.format) \(.input.kernel_release_source)"' "$TMP/$v.txt.json")"
	done
	check "$name.txt: compare replays the text like the file" sh -c \
		"'$RR' compare -q '$TMP/$name.txt' -o '$TMP/$name.cmp.json' >/dev/null &&
		 '$RR' compare -q '$TOP/traces/$name.dat' -o '$TMP/$name.dcmp.json' >/dev/null"
	check_eq "$name.txt: compare summary equals the trace.dat's" \
		"$(jq -c '.summary.policies' "$TMP/$name.dcmp.json")" \
		"$(jq -c '.summary.policies' "$TMP/$name.cmp.json")"
done

# -- not a trace -------------------------------------------------------------
printf 'hello\nthis is a README: nothing to see\n' >"$TMP/readme.txt"
check_fails "a text file that is no trace: exit 1 naming it" 1 \
	"^reclaim-replay: $TMP/readme.txt: not a trace" "$RR" report -q "$TMP/readme.txt"
head -c 3000 /bin/true >"$TMP/binary"
check_fails "a binary file: exit 1 naming it" 1 \
	"^reclaim-replay: $TMP/binary: not a trace" "$RR" report -q "$TMP/binary"
: >"$TMP/empty"
check_fails "an empty file: exit 1 naming it" 1 \
	"^reclaim-replay: $TMP/empty: not a trace" "$RR" report -q "$TMP/empty"
printf '  bash-1  [000] ....   1.000000: sched_switch: prev_comm=bash\n' >"$TMP/sched.txt"
check_fails "a text trace without reclaim events: exit 1" 1 \
	"^reclaim-replay: $TMP/sched.txt: holds no vmscan or memcg events" "$RR" report -q "$TMP/sched.txt"

finish
