#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Global reclaim in real recordings (issue 13, docs/kernel-model.md 23):
# the kswapd runs and direct reclaim calls of traces/global/ are replayed,
# their recorded shrink_lruvec() calls judged, the totals split by kind.
. "$(dirname "$0")/../lib.sh"

G=${RR_GLOBAL_TRACES:-$TOP/traces/global}
for f in "$G"/global-file.dat "$G"/global-anon-swap.dat; do
	n=$(basename "$f" .dat)
	"$RR" report -q --json "$f" >"$TMP/$n.report.json" 2>"$TMP/$n.report.err"
	"$RR" report -q --fidelity --json "$f" >"$TMP/$n.fid.json" 2>"$TMP/$n.fid.err"
	"$RR" compare --episodes differing -q -o "$TMP/$n.diff.json" "$f" >"$TMP/$n.table" 2>"$TMP/$n.err"
	check_eq "$n: compare exits 0" "0" "$?"
	j=$TMP/$n.diff.json
	# the episodes report counts, by kind, are the ones compare took up
	for k in direct kswapd; do
		# (those the trace cut, without their begin or end, are not replayed)
		rk=$(jq -r --arg k "$k" '[.episodes[] | select(.kind == $k and
			(.flags | index("no_begin") or index("no_end") | not))] | length' "$TMP/$n.report.json")
		ck=$(jq -r --arg k "$k" '(.summary.by_kind[$k].replayed // 0) + (.summary.by_kind[$k].skipped // 0)' "$j")
		check "$n: $k episodes in the recording" test "$ck" -gt 0
		check_eq "$n: every $k episode of report is replayed or skipped in compare" "$rk" "$ck"
		# at least 95 % replayed (issue 13)
		check "$n: >= 95 % of the $k episodes replayed" jq -e --arg k "$k" \
			'.summary.by_kind[$k].replayed >= 0.95 * (.summary.by_kind[$k].replayed + .summary.by_kind[$k].skipped)' "$j"
		# the recording's side: what the batches scanned and reclaimed
		check "$n: $k recorded anon + file reclaimed = reclaimed by batches" jq -e --arg k "$k" \
			'.summary.by_kind[$k].recorded as $r | ($r.nr_reclaimed_anon + $r.nr_reclaimed_file) <= $r.nr_reclaimed or $k == "kswapd"' "$j"
	done
	check "$n: diff valid against the JSON Schema" /usr/bin/python3 "$TOP/tests/validate-schema.py" \
		"$TOP/schema/reclaim-replay-diff.schema.json" "$j"
	check "$n: the table splits the totals by kind" grep -q '^kswapd: [0-9]* replayed' "$TMP/$n.table"
	check "$n: ... with a top supplier" grep -Eq '^  \(recorded\) .* /' "$TMP/$n.table"
	# every judged call of both kinds is counted once, by kind
	check "$n: calls judged by kind add up" jq -e '.fidelity as $f |
		([$f.by_kind[] | .decisions_checked] | add) == $f.decisions_checked' "$TMP/$n.fid.json"
done
# their judged calls are exact (issue 13: >= 95 %), kswapd's and direct
# reclaim's each
for n in global-file global-anon-swap; do
	check "$n: calls judged" jq -e '.fidelity.decisions_checked >= 100' "$TMP/$n.fid.json"
	check "$n: >= 95 % of judged calls exact" jq -e '.fidelity.exact_share >= 0.95' "$TMP/$n.fid.json"
	for k in direct kswapd; do
		check "$n: $k calls judged, >= 95 % exact" jq -e --arg k "$k" \
			'.fidelity.by_kind[$k] | .decisions_checked > 0 and .exact_share >= 0.95' "$TMP/$n.fid.json"
	done
done
# review fixes of issue 13, each holding its value on the page-cache trace:
j=$TMP/global-file.diff.json
# kswapd stops when the node is balanced: no over-reclaim against its
# per-pass nr_to_reclaim (it was charged for all it reclaimed beyond it)
check_eq "kswapd runs carry no over-reclaim" 0 \
	"$(jq '.summary.by_kind.kswapd.policies.kernel.over_reclaim_pages' "$j")"
# the root named "/" by the snapshot, not by its stand-in "memcg_id=1" of
# the episodes before it
check_eq "the totals name the root /" "/" "$(jq -r '.summary.cgroups[0].cgroup' "$j")"
# an interleaved direct walk starts where its recorded walk began: the
# baseline reclaims within 5 % of the recording (-6.2 % before, when each
# call started where the previous recorded one had left the shared cursor)
check "the baseline reclaims within 5 % of the recording" jq -e \
	'(.summary.policies.kernel.nr_reclaimed - .summary.recorded.nr_reclaimed) /
	 .summary.recorded.nr_reclaimed | fabs < 0.05' "$j"
# a kswapd run whose replayed total reached the recorded run's balance
# interval (more than it had before its lowest priority, less than it
# reclaimed) cannot know whether the node was balanced there: said per
# run and counted (0.4.1); here 2 of 285, each of which went on to a
# lower priority than the recording and reclaimed more than it
"$RR" compare --episodes differing -q --all-episodes -p kernel -o "$TMP/und.json" "$G/global-file.dat" >/dev/null 2>&1
check_eq "kswapd runs with an undecidable balance: 2, by the summary and by the runs" "2 2" \
	"$(jq -r '"\(.summary.by_kind.kswapd.policies.kernel.balance_undecidable) \([.episodes[] |
		select(.results.kernel.balance_undecidable == true)] | length)"' "$TMP/und.json")"
check_eq "... each went below the recorded priority and reclaimed more" "" \
	"$(jq -r '.episodes[] | select(.results.kernel.balance_undecidable == true) |
		select(.results.kernel.lowest_priority >= .recorded.lowest_priority or
		       .results.kernel.nr_reclaimed <= .recorded.nr_reclaimed) | .id' "$TMP/und.json")"
check "... every replayed kswapd run says whether" jq -e '[.episodes[] | select(.kind == "kswapd" and .results != null) |
	.results.kernel.balance_undecidable | type == "boolean"] | all' "$TMP/und.json"
check "the table counts them under kswapd" \
	grep -q '^  balance undecidable (runs): kernel 2, original 2,' "$TMP/global-file.table"
# the episode the trace cut (a kswapd run still going at its end) is said
check "the table says which episodes the trace cut" \
	grep -q '^1 episode the trace cut (begun before it or not ended in it) is not replayed$' \
	"$TMP/global-file.table"
# the anon recording: anonymous memory swapped out, in the recording and
# the baseline's replay
check "global-anon-swap: anon reclaimed by the recording" jq -e \
	'[.summary.by_kind[] | .recorded.nr_reclaimed_anon] | add > 0' "$TMP/global-anon-swap.diff.json"
check "global-anon-swap: anon reclaimed by the baseline" jq -e \
	'[.summary.by_kind[] | .policies.kernel.nr_reclaimed_anon] | add > 0' "$TMP/global-anon-swap.diff.json"
# without the memcg events (kernels before 6.13) the builder infers each
# batch's memcg from the walk: the text rendering without memcg: lines and
# --drop-memcg-events give the same attribution, which the dropped events
# check: every global episode replays, no batch is attributed wrong, and the
# ones more than one memcg fits are marked ambiguous
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$G/global-file.dat" 2>/dev/null | grep -v -E ' (mod_memcg_lruvec_state|count_memcg_events|memcg_flush_stats):' \
		>"$TMP/nomemcg.txt"
	"$RR" compare --episodes differing -q --kernel 6.18 "$TMP/nomemcg.txt" -o "$TMP/nomemcg.json" >/dev/null 2>&1
	"$RR" compare --episodes differing -q --drop-memcg-events "$G/global-file.dat" -o "$TMP/dropped.json" >/dev/null 2>&1
	check_eq "without memcg: events, every global episode after the start snapshot replays" "406 2" \
		"$(jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped)"' "$TMP/nomemcg.json")"
	# an episode that began before the recorder's start snapshot read
	# sizes the trace gives only later: not replayed (0.4.1; on a slow
	# machine such runs were replayed on lower bounds, went to priority
	# 11 and reclaimed three times what the recording did, at priority 12)
	"$RR" compare --episodes differing -q --all-episodes -p kernel -o "$TMP/all.json" "$G/global-file.dat" >/dev/null 2>&1
	snap_ns=$(trace-cmd report -t "$G/global-file.dat" 2>/dev/null |
		sed -n 's/.* \([0-9]*\)\.\([0-9]\{9\}\): print: .*reclaim-replay: snapshot end when=start .*/\1\2/p' | head -1)
	check_eq "global-file: 2 episodes began before the start snapshot, not replayed" 2 \
		"$(jq '[.episodes[] | select(.skip_reason // "" | startswith("began before the recorder"))] | length' "$TMP/all.json")"
	check_eq "... each of them began before the snapshot ended, every other after" "" \
		"$(jq -r --argjson s "${snap_ns:-0}" '.episodes[] | select((.skip_reason // "" |
			startswith("began before the recorder")) != (.start_ns < $s)) | .id' "$TMP/all.json")"
	check_eq "... the same without memcg: events" \
		"$(jq -c '[.episodes[] | select(.skip_reason // "" | startswith("began before the recorder")) | .id]' "$TMP/all.json")" \
		"$("$RR" compare --episodes differing -q --all-episodes -p kernel --drop-memcg-events -o - "$G/global-file.dat" 2>/dev/null |
			jq -c '[.episodes[] | select(.skip_reason // "" | startswith("began before the recorder")) | .id]')"
	check_eq "text without memcg: lines and --drop-memcg-events infer alike" \
		"$(jq -c '.input.stats.attribution | del(.checked)' "$TMP/nomemcg.json")" \
		"$(jq -c '.input.stats.attribution | del(.checked)' "$TMP/dropped.json")"
	check_eq "global-file without memcg: events: batches agree, wrong, ambiguous" "7235 5833 1 1401" \
		"$(jq -r '.input.stats.attribution.checked | "\(.batches) \(.agree) \(.wrong) \(.ambiguous)"' "$TMP/dropped.json")"
else
	skip "trace-cmd missing: the text rendering without memcg events is not checked"
fi
finish
