#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel lab's bundled recordings (traces/lab/, made by `make lab` on
# Debian's 6.1 built stock and patched, docs/lab.md), held to the guest's
# own ground truth (NAME.truth) and to the fidelity the lab measured:
#  - each opens in trace-cmd report, and compare names the release and the
#    kernel's policy the guest wrote down (the patched ones from record
#    --kernel-policy's marker);
#  - every episode replayed, every judged decision on the probe's inputs;
#    decisions and trajectories exact at the lab's bars (one reclaimer:
#    99.5 % and 99 %; siblings 99 % and 95 %; global reclaim 99 % and 90 %;
#    patched kernels under their own policy 99 % and 95 %);
#  - memory.reclaim writes: one episode per write the guest made, with its
#    request, cgroup and errno, and the pages the trace says it reclaimed
#    within 0.5 % of what memory.current fell by;
#  - replay is deterministic: two runs write the same JSON;
#  - verify on the stock and proportional proactive-file pair: calls and
#    pages reclaimed within 1 % per write (the issue's bar), over-reclaim
#    within 1 MiB, the patched recording 100 % exact under its own policy.
. "$(dirname "$0")/../lib.sh"

lab=$TOP/traces/lab
ls "$lab"/*.dat >/dev/null 2>&1 || { skip "no bundled lab recordings in $lab"; finish; }

truth() {	# FILE KEY: the value of a "KEY value" line
	sed -n "s/^$2 //p" "$1" | head -1
}
bytes_of() {	# 512M, 1G or a number: bytes
	case $1 in
	*K) echo $(( ${1%K} << 10 )) ;;
	*M) echo $(( ${1%M} << 20 )) ;;
	*G) echo $(( ${1%G} << 30 )) ;;
	*) echo "$1" ;;
	esac
}

# Under AddressSanitizer (make asan) a replay is some 30 times slower: the
# small recordings there, every one in make check
asan=0
ldd "$RR" 2>/dev/null | grep -q libasan && asan=1
for trace in "$lab"/*.dat; do
	name=$(basename "$trace" .dat)
	t=$lab/$name.truth
	json=$TMP/$name.json
	if ((asan)) && [ "$(stat -c %s "$trace")" -gt 700000 ]; then
		skip "$name under AddressSanitizer: make check replays it without"
		continue
	fi
	check "$name: its ground truth is bundled" test -s "$t"
	[ -s "$t" ] || continue
	workload=$(truth "$t" workload)
	policy=$(truth "$t" policy)
	check "$name: trace-cmd report reads it" \
		sh -c "trace-cmd report -i '$trace' 2>/dev/null | head -2000 | grep -q mm_vmscan_"
	own=kernel
	[ "$policy" = none ] || own=$policy
	check "$name: compare exits 0" \
		sh -c "'$RR' compare --episodes differing -q --all-episodes '$trace' -p '$own' -o '$json' >/dev/null"
	check_eq "$name: the release the guest ran" "$(truth "$t" kernel_release)" \
		"$(jq -r '.input.kernel_release' "$json")"
	check_eq "$name: the kernel's policy (the recording's marker)" \
		"$([ "$policy" = none ] && echo null || echo "$policy")" \
		"$(jq -r '.input.kernel_policy.name // "null"' "$json")"
	check_eq "$name: every episode replayed" 0 "$(jq '.summary.episodes_skipped' "$json")"
	check "$name: decisions judged" jq -e '.fidelity.decisions_checked > 0' "$json"
	check_eq "$name: every judged decision on the probe's inputs" \
		"$(jq '.fidelity.decisions_checked' "$json")" "$(jq '.fidelity.decisions_probed' "$json")"
	case $policy/$workload in
	none/global) dbar=0.99 tbar=0.90 ;;
	none/siblings) dbar=0.99 tbar=0.95 ;;
	none/*) dbar=0.995 tbar=0.99 ;;
	# patched kernels: the issue's bar is decisions; one call of the
	# "full" write's -EAGAIN tail (13 pages found on a pass where the
	# tape had none) splits a trajectory in 75
	*) dbar=0.99 tbar=0.95 ;;
	esac
	check "$name: decisions exact >= $dbar" jq -e ".fidelity.exact_share >= $dbar" "$json"
	check "$name: wrong decisions <= 0.5 %" \
		jq -e '.fidelity.mismatched <= 0.005 * .fidelity.decisions_checked' "$json"
	check "$name: trajectories exact >= $tbar" \
		jq -e ".fidelity.trajectory_checked > 0 and .fidelity.trajectory_exact_share >= $tbar" "$json"
	check "$name: calls not judged <= 10 %" \
		jq -e '.fidelity.decisions_unchecked <= 0.1 * (.fidelity.decisions_checked + .fidelity.decisions_unchecked)' "$json"

	# determinism
	"$RR" compare --episodes differing -q --all-episodes "$trace" -p "$own" -o "$TMP/$name.again.json" >/dev/null 2>&1
	check "$name: a second replay writes the same JSON" \
		cmp -s "$json" "$TMP/$name.again.json"

	# memory.reclaim writes against the guest's own
	nw=$(grep -c '^write ' "$t")
	[ "$nw" -gt 0 ] || continue
	page=$(truth "$t" page_size_bytes)
	check_eq "$name: one episode per memory.reclaim write" "$nw" \
		"$(jq '[.episodes[] | select(.kind == "proactive")] | length' "$json")"
	i=0
	while read -r line; do
		size=$(sed -n 's/.* bytes=\([^ ]*\) .*/\1/p' <<<"$line")
		errno=$(sed -n 's/.* errno=\([0-9]*\).*/\1/p' <<<"$line")
		before=$(sed -n 's/.* current_before_bytes=\([0-9]*\).*/\1/p' <<<"$line")
		after=$(sed -n 's/.* current_after_bytes=\([0-9]*\).*/\1/p' <<<"$line")
		cg=$(sed -n 's|.* cgroup=/sys/fs/cgroup\([^ ]*\) .*|\1|p' <<<"$line")
		ep=$(jq -c "[.episodes[] | select(.kind == \"proactive\")][$i]" "$json")
		i=$((i + 1))
		check_eq "$name: write $i: its request" "$(bytes_of "$size")" "$(jq '.request_bytes' <<<"$ep")"
		check_eq "$name: write $i: its cgroup" "$cg" "$(jq -r '.cgroup' <<<"$ep")"
		check_eq "$name: write $i: its errno" "$errno" "$(jq '.errno' <<<"$ep")"
		check "$name: write $i: reclaimed within 0.5 % of memory.current's fall" \
			jq -e --argjson d "$(( (before - after) / page ))" \
			'.recorded.nr_reclaimed as $r | (($r - $d) | fabs) <= 0.005 * $d' <<<"$ep"
	done < <(grep '^write ' "$t")
done

# the same recordings as `trace-cmd report` prints them: the recorder's
# probes (shrink_lruvec(), memory_reclaim()) are read from the text too,
# so the figures are the trace.dat's
for name in stock-proactive-file proportional-proactive-file stock-limit-file; do
	[ -s "$lab/$name.dat" ] || continue
	trace-cmd report -i "$lab/$name.dat" >"$TMP/$name.txt" 2>/dev/null
	"$RR" compare --episodes differing -q --all-episodes "$TMP/$name.txt" -p kernel -o "$TMP/$name.txt.json" >/dev/null 2>&1
	check_eq "$name as text: decisions checked, exact, probed, trajectories exact as the trace.dat's" \
		"$(jq -c '.fidelity | [.decisions_checked, .exact, .decisions_probed, .trajectory_exact]' "$TMP/$name.json")" \
		"$(jq -c '.fidelity | [.decisions_checked, .exact, .decisions_probed, .trajectory_exact]' "$TMP/$name.txt.json")"
	check_eq "$name as text: every write's request" \
		"$(jq -c '[.episodes[] | select(.kind == "proactive") | .request_bytes]' "$TMP/$name.json")" \
		"$(jq -c '[.episodes[] | select(.kind == "proactive") | .request_bytes]' "$TMP/$name.txt.json")"
done
if [ -s "$TMP/proportional-proactive-file.txt" ]; then
	# a probe line with a value no kernel writes is dropped and counted
	t=$TMP/proportional-proactive-file.txt
	sed '0,/ shrink_lruvec: .*priority=[0-9]*/s//&9/' "$t" >"$TMP/bad-probe.txt"
	"$RR" report -q --json "$TMP/bad-probe.txt" >"$TMP/bad-probe.json" 2>/dev/null
	check "a shrink_lruvec probe line with priority out of range: counted, dropped" \
		jq -e '[.. | objects | select(.event? == "shrink_lruvec" and .field? == "priority")] | length >= 1' \
		"$TMP/bad-probe.json"
	# (regressions of a review: each bad probe line counted under its fault)
	probe_problem() {	# FILE FIELD PROBLEM: how many shrink_lruvec lines dropped so
		"$RR" report -q --json "$1" 2>/dev/null | jq --arg f "$2" --arg p "$3" \
			'[[.. | objects | select(has("field_problems"))][0].field_problems[] |
			  select(.event == "shrink_lruvec" and .field == $f and .problem == $p) | .count] | add // 0'
	}
	n=$(grep -c ' shrink_lruvec: ' "$t")
	sed 's/ shrink_lruvec: *(\([0-9a-f]*\))/ shrink_lruvec: (\1/' "$t" >"$TMP/p-addr.txt"
	check_eq "an address without its ')': every probe line counted, not passed over" "$n" \
		"$(probe_problem "$TMP/p-addr.txt" address unparseable)"
	awk '/ shrink_lruvec: / && /priority=12 / { sub(/priority=12 .*/, "priority=1") } { print }' "$t" >"$TMP/p-cut.txt"
	check_eq "probe lines cut after priority=1(2): counted as cut" \
		"$(grep -c ' shrink_lruvec: .*priority=12 ' "$t")" "$(probe_problem "$TMP/p-cut.txt" fields line_cut)"
	sed 's/ priority=\([0-9]*\) reclaim_idx/ priority=\1 priority=3 reclaim_idx/' "$t" >"$TMP/p-dup.txt"
	check_eq "a key twice: counted" "$n" "$(probe_problem "$TMP/p-dup.txt" priority unparseable)"
	sed '0,/ shrink_lruvec: .*/s/priority=12/priority=abc/' "$t" >"$TMP/p-abc.txt"
	check_eq "priority=abc: counted as unparseable, not missing" 1 \
		"$(probe_problem "$TMP/p-abc.txt" priority unparseable)"
	# without the recorder's events marker, a kprobe of that name is not
	# the recorder's: passed over, nothing flagged lost
	grep -v 'reclaim-replay: events enabled' "$t" >"$TMP/p-foreign.txt"
	"$RR" report -q --json "$TMP/p-foreign.txt" >"$TMP/p-foreign.json" 2>/dev/null
	check_eq "without the events marker: probe lines not read, none dropped" 0 \
		"$(probe_problem "$TMP/p-foreign.txt" cgroup_id missing)"
fi

# the policy's prediction against the kernel that runs it
s=$lab/stock-proactive-file.dat p=$lab/proportional-proactive-file.dat
if [ -s "$s" ] && [ -s "$p" ]; then
	check "verify stock against proportional exits 0" \
		sh -c "'$RR' verify -q '$s' '$p' -o '$TMP/v.json' >'$TMP/v.txt'"
	check "... its JSON valid against the JSON Schema" \
		/usr/bin/python3 "$TOP/tests/validate-schema.py" \
		"$TOP/schema/reclaim-replay-verify.schema.json" "$TMP/v.json"
	check_eq "... the policy from the patched recording's marker" proportional-v1 \
		"$(jq -r '.policy' "$TMP/v.json")"
	check_eq "... the patched recording 100 % exact under its own policy" \
		"$(jq '.patched_decisions_checked' "$TMP/v.json")" \
		"$(jq '.patched_decisions_exact' "$TMP/v.json")"
	for w in 1 2 3; do
		row=$(jq -c ".rows[] | select(.episodes | startswith(\"write $w:\"))" "$TMP/v.json")
		check "... write $w: calls within 1 %" \
			jq -e '.error.calls | fabs <= 0.01' <<<"$row"
		check "... write $w: pages reclaimed within 1 %" \
			jq -e '.error.nr_reclaimed | fabs <= 0.01' <<<"$row"
		check "... write $w: over-reclaim within 1 MiB" \
			jq -e '.error.over_reclaim_bytes | fabs <= 1048576' <<<"$row"
	done
	check_eq "... each write's errno, as the patched guest saw it" \
		"$(sed -n 's/^write .* errno=\([0-9]*\).*/\1/p' "$lab/proportional-proactive-file.truth" | tr '\n' ' ')" \
		"$(jq -r '[.rows[] | select(.write) | .measured_errno] | map(tostring) | join(" ")' "$TMP/v.json") "
	check_eq "... each write's request, as the guest wrote it" \
		"$(jq -c '[.episodes[] | select(.kind == "proactive") | .request_bytes]' "$TMP/stock-proactive-file.json")" \
		"$(jq -c '[.rows[] | select(.write) | .request_bytes]' "$TMP/v.json")"
	check "... the table says how the times were predicted" grep -q 'measured time times the batch model' "$TMP/v.txt"
	# the policy module against the patched kernel: its chunk rule asks
	# what each recorded call asked (issue 28's review: decisions alone
	# do not depend on a chunk policy)
	check_eq "... every recorded memory.reclaim call's nr_to_reclaim asked by the replay" \
		"$(jq '.patched_write_calls' "$TMP/v.json")" \
		"$(jq '.patched_write_calls_same_nr_to_reclaim' "$TMP/v.json")"
	check_eq "... ... of all 75 calls" 75 "$(jq '.patched_write_calls' "$TMP/v.json")"
	check_eq "... the policy from the trace" trace "$(jq -r '.policy_source' "$TMP/v.json")"
	check "... the table says so" grep -q 'calls asking the recorded nr_to_reclaim.*: 75 of 75' "$TMP/v.txt"
	# a workload that differs is refused, with its reason
	check_fails "verify of two different workloads is refused, saying how" 1 \
		'the workloads differ' "$RR" verify -q "$s" "$lab/stock-limit-file.dat" -p kernel
	# (regressions of the review of verify, with their reasons)
	check_fails "limit reclaim of other cgroups is refused" 1 \
		'limit reclaim in /a in .*, in /f in' \
		"$RR" verify -q "$lab/stock-limit-anon.dat" "$lab/stock-limit-file.dat" -p cluster-cap
	check_fails "a -p that contradicts the patched recording's marker is refused" 1 \
		'marker says its kernel ran proportional-v1: -p cluster-cap contradicts it' \
		"$RR" verify -q "$s" "$p" -p cluster-cap
	check_fails "a STOCK recorded on a patched kernel is refused" 1 \
		'kernel ran cluster-cap: STOCK must be a stock' \
		"$RR" verify -q "$lab/cluster-cap-proactive-file.dat" "$p"
	check_fails "the same file twice is refused" 1 'is STOCK too' \
		"$RR" verify -q "$s" "$s" -p proportional-v1
	check "... but with -p kernel it is the replay's check against the stock kernel" \
		sh -c "'$RR' verify -q '$s' '$s' -p kernel -o '$TMP/self.json' >/dev/null"
	check_eq "... ... whose writes' calls and pages match" 0 \
		"$(jq '[.rows[] | select(.write) | .error.calls, .error.nr_reclaimed | select(. != 0)] | length' "$TMP/self.json")"
	check_fails "-p of an unknown policy says -p" 2 'verify: -p: nosuch: unknown policy' \
		"$RR" verify -q "$s" "$p" -p nosuch
	rm -f "$TMP/never.json"
	"$RR" verify -q "$s" "$p" -p cluster-cap -o "$TMP/never.json" >/dev/null 2>&1
	check "... and no output file is left" test ! -e "$TMP/never.json"
else
	skip "the stock and proportional proactive-file recordings are not bundled"
fi
finish
