#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Traces without memcg: events (kernels before 6.13; issue 14,
# docs/kernel-model.md 24): each batch's memcg inferred from the walk and
# marked, sizes from the snapshots, the replay and its fidelity; and every
# 6.13+ trace checks the inference against its own dropped events.
. "$(dirname "$0")/../lib.sh"

N=$TOP/traces/nomemcg

# -- a recording made with record --no-memcg-events (two children walked)
f=$N/multi-nomemcg.dat
"$RR" compare --episodes differing -q -o "$TMP/multi.json" "$f" >/dev/null 2>"$TMP/multi.err"
check_eq "multi-nomemcg: compare exits 0" 0 "$?"
check_eq "multi-nomemcg: every limit reclaim call replays" "477 0" \
	"$(jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped)"' "$TMP/multi.json")"
check_eq "multi-nomemcg: batches by basis (single walk ambiguous assumed)" "0 961 17 0" \
	"$(jq -r '.input.stats.attribution | "\(.single) \(.walk) \(.ambiguous) \(.assumed)"' "$TMP/multi.json")"
check_eq "multi-nomemcg: periodic snapshots read" 3 \
	"$(jq -r '.input.stats.attribution.periodic_snapshots' "$TMP/multi.json")"
check "multi-nomemcg: the inference is among the inputs listed" \
	jq -e '.input.assumptions | any(test("no memcg: events \\(kernels before 6.13 have none, record --no-memcg-events leaves them off\\): the memcg of each of 978 batches inferred"))' "$TMP/multi.json"
"$RR" report -q --json --fidelity "$f" >"$TMP/multi-r.json"
check_eq "multi-nomemcg: batches of A and B (the walk's two children)" "119 859" \
	"$(jq -r '[.cgroups[] | select(.path | test("rr-multi/[AB]$")) | .batches] | join(" ")' "$TMP/multi-r.json")"
check_eq "multi-nomemcg: judged calls, within one batch, not judged (ambiguous, stale sizes)" \
	"183 183 9 107" \
	"$(jq -r '.fidelity | "\(.decisions_checked) \(.within_one_batch) \(.unchecked_reasons.attribution_ambiguous) \(.unchecked_reasons.sizes_stale)"' "$TMP/multi-r.json")"
# the sizes are said as what they are: the last snapshot's less the batches
check_eq "multi-nomemcg: the cgroups' size source" "snapshot+batches snapshot+batches" \
	"$(jq -r '[.cgroups[] | select(.path | test("rr-multi/[AB]$")) | .lru_pages.source] | join(" ")' "$TMP/multi-r.json")"
# --drop-memcg-events on a trace that has none: nothing to check, said so
"$RR" report -q --json --drop-memcg-events "$f" >"$TMP/multi-d.json"
check_eq "multi-nomemcg --drop-memcg-events: not checked, said, no check counts" "true null" \
	"$(jq -r '"\(.inferred_inputs | any(test("--drop-memcg-events: the trace has no memcg: events; the inference is not checked"))) \(.input.stats.attribution.checked)"' "$TMP/multi-d.json")"
check "multi-nomemcg: report's JSON valid against the report schema" \
	/usr/bin/python3 "$TOP/tests/validate-schema.py" "$TOP/schema/reclaim-replay-report.schema.json" "$TMP/multi-r.json"
check "multi-nomemcg: compare's JSON valid against the diff schema" \
	/usr/bin/python3 "$TOP/tests/validate-schema.py" "$TOP/schema/reclaim-replay-diff.schema.json" "$TMP/multi.json"

# -- its twin with the memcg events: the inference checked against them
f=$N/multi-memcg.dat
"$RR" report -q --json --fidelity --drop-memcg-events "$f" >"$TMP/drop.json"
check_eq "multi-memcg --drop-memcg-events: batches, agree, wrong, ambiguous, ambiguous but right" \
	"1181 1165 0 16 12" \
	"$(jq -r '.input.stats.attribution.checked | "\(.batches) \(.agree) \(.wrong) \(.ambiguous) \(.ambiguous_agree)"' "$TMP/drop.json")"
check "multi-memcg --drop-memcg-events: >= 95 % of the batches on the memcg the events name" \
	jq -e '.input.stats.attribution.checked | (.agree + .ambiguous_agree) >= 0.95 * .batches' "$TMP/drop.json"
check_eq "multi-memcg --drop-memcg-events: judged calls, within one batch" "319 319" \
	"$(jq -r '.fidelity | "\(.decisions_checked) \(.within_one_batch)"' "$TMP/drop.json")"
# with its events the same trace attributes every batch by them
"$RR" report -q --json "$f" >"$TMP/with.json"
check_eq "multi-memcg with its events: no inference" "null 0" \
	"$(jq -r '"\(.input.stats.attribution) \(.input.stats.lru_batches_unattributed)"' "$TMP/with.json")"

# -- anon limit reclaim with swap, without the memcg events
f=$N/anon-nomemcg.dat
"$RR" report -q --json --fidelity "$f" >"$TMP/anon.json"
check_eq "anon-nomemcg: one memcg holds the pages: every batch exact" "10145 0 0" \
	"$(jq -r '.input.stats.attribution | "\(.single) \(.walk) \(.ambiguous)"' "$TMP/anon.json")"
check "anon-nomemcg: >= 90 % of the judged calls within one batch" \
	jq -e '.fidelity.within_one_batch_share >= 0.9' "$TMP/anon.json"

# -- the bundled 6.18 traces read as a kernel without memcg events
"$RR" report -q --json --drop-memcg-events "$TOP/traces/file-limit.dat" >"$TMP/fl.json"
check_eq "file-limit --drop-memcg-events: 189 batches, all agree" "189 189 0 0" \
	"$(jq -r '.input.stats.attribution.checked | "\(.batches) \(.agree) \(.wrong) \(.ambiguous)"' "$TMP/fl.json")"
# a trace-cmd extract: no markers, the v1 hierarchy from the cgroup events
"$RR" report -q --json --drop-memcg-events "$TOP/traces/extract-file-limit.dat" >"$TMP/ex.json"
check_eq "extract-file-limit --drop-memcg-events: the only hierarchy taken, 405 batches agree" \
	"true 405 405 0" \
	"$(jq -r '.input.stats.attribution | "\(.hierarchy_inferred) \(.checked.batches) \(.checked.agree) \(.checked.wrong)"' "$TMP/ex.json")"
for t in offline-anon offline-child; do
	"$RR" compare --episodes differing -q --drop-memcg-events -o "$TMP/$t.json" "$TOP/traces/$t.dat" >/dev/null 2>&1
	check_eq "$t --drop-memcg-events: every episode replays, no batch wrong" "0 0" \
		"$(jq -r '"\(.summary.episodes_skipped) \(.input.stats.attribution.checked.wrong)"' "$TMP/$t.json")"
done

# -- the text fixtures of kernels before 6.13 replay under compare: the
# limit and direct reclaim calls on stand-ins (the traces name no memcg);
# the kswapd run says why not (no zone watermarks in a text trace)
for gen in 4.19 5.4 5.15 6.6; do
	"$RR" compare --episodes differing -q --kernel "$gen" -o "$TMP/fx-$gen.json" \
		"$TOP/tests/fixtures/text/linux-$gen.txt" >/dev/null 2>&1
	check_eq "linux-$gen: compare replays the memcg and direct episodes" "2 1" \
		"$(jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped)"' "$TMP/fx-$gen.json")"
	check_eq "linux-$gen: every batch on a stand-in, said" "5" \
		"$(jq -r '.input.stats.attribution.assumed' "$TMP/fx-$gen.json")"
	"$RR" report -q --json --kernel "$gen" "$TOP/tests/fixtures/text/linux-$gen.txt" >"$TMP/fr-$gen.json"
	check_eq "linux-$gen: sizes from the batches alone (no snapshot, no deltas)" "batches batches" \
		"$(jq -r '[.cgroups[] | .lru_pages.source] | join(" ")' "$TMP/fr-$gen.json")"
done
# an event variant that names the memcg (memcg_id= on the isolate and the
# begin event, as some kernels print): those batches are attributed by it;
# the global ones may be the root's or that memcg's: ambiguous
sed -E '/stress-4242.*mm_vmscan_(lru_isolate|memcg_reclaim_begin)/ s/$/ memcg_id=77/' \
	"$TOP/tests/fixtures/text/linux-6.6.txt" >"$TMP/m77.txt"
"$RR" report -q --json --kernel 6.6 "$TMP/m77.txt" >"$TMP/m77.json"
check_eq "memcg_id= on the isolates: their 3 batches on memcg 77, the 2 global ones ambiguous" \
	"77 5|0 2" \
	"$(jq -r '"\([.cgroups[] | "\(.cgroup_id) \(.batches)"] | join(","))|\(.input.stats.attribution.walk) \(.input.stats.attribution.ambiguous)"' "$TMP/m77.json")"
# on a scenario it means nothing: a one-line error naming the file, exit 1
"$RR" compare --episodes differing -q --drop-memcg-events "$TOP/scenarios/before-v5.5.json" >"$TMP/sc.out" 2>"$TMP/sc.err"
check_eq "--drop-memcg-events on a scenario: exit 1" 1 "$?"
check_eq "--drop-memcg-events on a scenario: the error" \
	"reclaim-replay: $TOP/scenarios/before-v5.5.json: is a scenario: --drop-memcg-events is for traces (a scenario has no events)" \
	"$(cat "$TMP/sc.err")"
check_eq "--drop-memcg-events on a scenario: nothing on stdout" "" "$(cat "$TMP/sc.out")"
finish
