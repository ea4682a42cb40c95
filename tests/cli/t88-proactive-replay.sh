#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# compare on memory.reclaim writes (issue #15): the calls between the
# recorder's proactive markers replay as one memory_reclaim() loop per
# policy; the seed's arithmetic (287d5fedb377: 8192 calls of 32 pages
# against 31 quarter-chunks for 1 GiB) under --outcome exact, derived here
# from the chunk rules; proportional-v1 == proportional; a write without
# markers inferred from its calls; the time model against an independent
# least-squares fit of the generator's ground truth; the skips that say why.
. "$(dirname "$0")/../lib.sh"

P=$TOP/tests/fixtures/proactive
if ! command -v python3 >/dev/null; then
	skip "python3 not installed"
	finish
fi
gzip -dc "$P/quarter-1g-of-4g.txt.gz" >"$TMP/q.txt"
gzip -dc "$P/quarter-1g-of-4g-nomarkers.txt.gz" >"$TMP/qn.txt"
gzip -dc "$P/three-writes.txt.gz" >"$TMP/w3.txt"
POL="-p cluster-cap -p proportional -p proportional-v1 -p whole-remainder -p roundup-all -p original"

# ---- one write, recorded kernel rules (6.18: a quarter of the remainder)
check "1 GiB write: compare exits 0" sh -c "'$RR' compare --episodes differing -q $POL '$TMP/q.txt' -o '$TMP/q.json'"
j=$TMP/q.json
check_eq "one proactive episode, its 20 calls not replayed apart" "1 0 proactive 20" \
	"$(jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped) \(.episodes[0].kind) \(.episodes[0].recorded.calls)"' "$j")"
check_eq "request 1 GiB = 262144 pages, from the marker; the path names the root" \
	"262144 memory.reclaim request /rr-proactive 1073741824" \
	"$(jq -r '.episodes[0] | "\(.nr_to_reclaim) \(.nr_to_reclaim_basis) \(.cgroup) \(.request_bytes)"' "$j")"
# the generator's ground truth: its calls, chunks and reclaim
check_eq "recorded calls: chunks and reclaim as the generator wrote them" \
	"$(jq -c '[.writes[0].calls[] | [.nr_to_reclaim, .reclaimed]]' "$P/quarter-1g-of-4g.summary.json")" \
	"$(jq -c '.episodes[0].recorded | [.call_nr_to_reclaim_pages, .call_reclaimed_pages] | transpose' "$j")"
check_eq "kernel replays the recording: 20 calls, 262150 pages, lowest priority 4" \
	"20 262150 4 met" \
	"$(jq -r '.episodes[0].results.kernel | "\(.calls) \(.nr_reclaimed) \(.lowest_priority) \(.outcome)"' "$j")"
check_eq "... and its chunks are the recorded ones" \
	"$(jq -c '.episodes[0].recorded.call_nr_to_reclaim_pages' "$j")" \
	"$(jq -c '.episodes[0].results.kernel.call_nr_to_reclaim_pages' "$j")"
check_eq "every call checked by the fidelity check, all exact" "67 67 20 20" \
	"$(jq -r '.fidelity | "\(.decisions_checked) \(.exact) \(.trajectory_checked) \(.trajectory_exact)"' "$j")"
check_eq "cluster-cap: 8192 calls of 32 pages, 262144 pages" "8192 32 32 262144" \
	"$(jq -r '.episodes[0].results["cluster-cap"] | "\(.calls) \(.call_nr_to_reclaim_pages | min) \(.call_nr_to_reclaim_pages | max) \(.nr_reclaimed)"' "$j")"
check_eq "proportional-v1 replays identically to proportional (the % 4 term is dead)" \
	"$(jq -c '.episodes[0].results.proportional' "$j")" \
	"$(jq -c '.episodes[0].results["proportional-v1"]' "$j")"
check_eq "whole-remainder: one call asking for the whole 262144 pages" "1 262144" \
	"$(jq -r '.episodes[0].results["whole-remainder"] | "\(.calls) \(.call_nr_to_reclaim_pages[0])"' "$j")"
check_eq "over-reclaim is what a policy reclaimed beyond the request" "true" \
	"$(jq '[.episodes[0] as $e | $e.changes | to_entries[] | .value.over_reclaim_pages == ($e.results[.key].nr_reclaimed - 262144)] | all' "$j")"
check_eq "original = roundup-all + whole-remainder: the chunk half decides here (file only)" \
	"$(jq -c '.episodes[0].results["whole-remainder"]' "$j")" \
	"$(jq -c '.episodes[0].results.original' "$j")"
check_eq "roundup-all asks the kernel's chunks" \
	"$(jq -c '.episodes[0].results.kernel.call_requests_pages' "$j")" \
	"$(jq -c '.episodes[0].results["roundup-all"].call_requests_pages' "$j")"
check_eq "summary.proactive: recorded 20 calls, cluster-cap 8192" "1 20 8192" \
	"$(jq -r '.summary.proactive | "\(.replayed) \(.recorded.calls) \(.policies["cluster-cap"].calls)"' "$j")"
check "the table has the memory.reclaim block" sh -c \
	"'$RR' compare --episodes differing -q $POL '$TMP/q.txt' | grep -q '^memory.reclaim writes: 1 replayed, 0 skipped'"

# ---- the seed's arithmetic: each call reclaims what it asks
# quarter rule, derived: chunk = max(remainder / 4, 32) until 262144 are met
calls=0 r=262144
while [ $r -gt 0 ]; do
	c=$((r / 4)); [ $c -lt 32 ] && c=32
	r=$((r - c)); calls=$((calls + 1))
done
check_eq "derived: the quarter rule takes 31 calls for 1 GiB of 4 KiB pages" 31 $calls
check "--outcome exact: compare exits 0" sh -c \
	"'$RR' compare --episodes differing -q --outcome exact $POL '$TMP/q.txt' -o '$TMP/qx.json'"
check_eq "--outcome exact: cluster-cap 8192, proportional $calls, proportional-v1 $calls, whole-remainder 1" \
	"8192 $calls $calls 1 $calls" \
	"$(jq -r '.episodes[0].results | "\(.["cluster-cap"].calls) \(.proportional.calls) \(.["proportional-v1"].calls) \(.["whole-remainder"].calls) \(.kernel.calls)"' "$TMP/qx.json")"
check_eq "--outcome exact: no fidelity check, and the assumption is said" "0 1" \
	"$(jq -r '"\(.fidelity.decisions_checked) \([.input.assumptions[] | select(startswith("--outcome exact"))] | length)"' "$TMP/qx.json")"
check_eq "JSON: cluster-cap's per-call arrays hold the first 4096 of 8192 calls, said so" "8192 4096 true" \
	"$(jq -r '.episodes[0].results["cluster-cap"] | "\(.calls) \(.call_requests_pages | length) \(.call_arrays_cut)"' "$TMP/qx.json")"
check_eq "--outcome exact reclaims no more than the lists hold: 16 pages, then -EAGAIN" "16 eagain 18" \
	"$("$RR" compare --episodes differing -q --outcome exact "$P/eagain.txt" -o - | jq -r '.episodes[0].results.kernel | "\(.nr_reclaimed) \(.outcome) \(.calls)"')"
check "--outcome exact and structural diffs: compare exits 0" sh -c \
	"'$RR' compare --episodes differing -q --outcome exact -p cluster-cap '$TMP/q.txt' -o '$TMP/mx1.json' >/dev/null &&
	 '$RR' compare --episodes differing -q -p cluster-cap '$TMP/q.txt' -o '$TMP/mx2.json' >/dev/null"
check_fails "merge refuses to add outcomes of two models" 1 \
	"replayed with the structural outcome model, the first diff with the exact one" \
	"$RR" merge "$TMP/mx1.json" "$TMP/mx2.json" -o "$TMP/mx.json"
check_eq "... and writes no output" "no" "$(test -e "$TMP/mx.json" && echo yes || echo no)"
check_fails "--outcome takes structural or exact" 2 "--outcome takes structural or exact" \
	"$RR" compare --episodes differing --outcome guess "$TMP/q.txt"
check_fails "--outcome is for traces" 1 "is a scenario: --outcome is for traces" \
	"$RR" compare --episodes differing --outcome exact "$TOP/scenarios/chunk-1gib-exact.json"

# ---- the time model, against a least-squares fit made here of the
# generator's own per-call numbers (three writes: reclaim ratios 1, 0.75,
# 0.5, so scanned and reclaimed are told apart)
check "three writes: compare exits 0" sh -c \
	"'$RR' compare --episodes differing -q -p cluster-cap '$TMP/w3.txt' -o '$TMP/w3.json'"
check_eq "three writes: 3 proactive episodes, 44 calls fitted, all three terms" "3 44 fixed,scan,reclaim" \
	"$(jq -r '"\(.summary.proactive.replayed) \(.time_model.calls) \(.time_model.terms | join(","))"' "$TMP/w3.json")"
jq -c '[.writes[].calls[] | [.scanned, .reclaimed, .duration_ns]]' "$P/three-writes.summary.json" \
	>"$TMP/w3.points.json"
check "the fit equals an independent fit of the generator's ground truth" \
	python3 "$TOP/tests/lsfit.py" "$TMP/w3.points.json" "$TMP/w3.json"
check_eq "... near the generator's cost: 20 us + 60 ns/page scanned + 250 ns/page reclaimed" \
	"true" "$(jq '.time_model | (.fixed_ns - 20000 | fabs) < 8000 and (.scan_ns_per_page - 60 | fabs) < 15 and (.reclaim_ns_per_page - 250 | fabs) < 30' "$TMP/w3.json")"
check_eq "kernel's estimated time = the recorded time of its calls (least squares with a fixed term)" "true" \
	"$(jq '(.time_model.policies.kernel.estimated_duration_ns - .summary.recorded.in_calls_ns) | fabs <= 2' "$TMP/w3.json")"
check_eq "cluster-cap: more calls, more estimated time" "true" \
	"$(jq '.time_model.policies["cluster-cap"].proactive_estimated_duration_ns > .time_model.policies.kernel.proactive_estimated_duration_ns' "$TMP/w3.json")"
check "the table prints the fit and its error" sh -c \
	"'$RR' compare --episodes differing -q -p cluster-cap '$TMP/w3.txt' | grep -q '^  error: .* us per call (RMS of the residuals'"
# merge: the writes' counts add up, no time model for the sum
check "merge of the 1 GiB write's diff and the three writes' exits 0" sh -c \
	"'$RR' compare --episodes differing -q -p cluster-cap '$TMP/q.txt' -o '$TMP/m1.json' >/dev/null &&
	 '$RR' merge '$TMP/m1.json' '$TMP/w3.json' -o '$TMP/m.json'"
check_eq "... 4 writes, 20 + 44 recorded calls, no fit for the sum" "4 64 null" \
	"$(jq -r '"\(.summary.proactive.replayed) \(.summary.proactive.recorded.calls) \(.time_model)"' "$TMP/m.json")"
# too few calls: no estimate, and why
check "eagain trace: compare exits 0" sh -c "'$RR' compare --episodes differing -q '$P/eagain.txt' -o '$TMP/e.json'"
check_eq "a write that failed with -EAGAIN: 17 calls, eagain as recorded and replayed" \
	"17 eagain 17 eagain 1" \
	"$(jq -r '.episodes[0] | "\(.recorded.calls) \(.recorded.outcome) \(.results.kernel.calls) \(.results.kernel.outcome)"' "$TMP/e.json") $(jq '.summary.proactive.recorded.eagain' "$TMP/e.json")"
check_eq "... too few calls for the time model: none, and why" "false fewer than 8 recorded reclaim calls" \
	"$("$RR" compare --episodes differing -q "$TOP/tests/fixtures/text/linux-6.18.txt" --kernel 6.18 -o - | jq -r '.time_model | "\(.fitted) \(.why_not)"')"

sed 's/result=error errno=11$/result=ok errno=11/' "$P/eagain.txt" >"$TMP/contra.txt"
check_eq "an end marker that contradicts itself (result=ok errno=11): errno unknown, not -EAGAIN" \
	"null short" \
	"$("$RR" compare --episodes differing -q "$TMP/contra.txt" -o - | jq -r '.episodes[0] | "\(.errno) \(.recorded.outcome)"')"

# ---- without markers: the write is inferred from the calls
check "no markers: compare --kernel 6.18 exits 0" sh -c \
	"'$RR' compare --episodes differing -q --kernel 6.18 -p cluster-cap '$TMP/qn.txt' -o '$TMP/qn.json'"
check_eq "one write inferred by size; 20 calls; the request range holds 262144" \
	"1 size 20 true" \
	"$(jq -r '.summary.proactive.inferred as $n | .episodes[0] | "\($n) \(.inferred.evidence) \(.recorded.calls) \(.inferred.request_low_pages <= 262144 and 262144 <= .inferred.request_high_pages)"' "$TMP/qn.json")"
check_eq "... replayed with the roundest admissible request (262144), labelled" "262144 true" \
	"$(jq -r '.episodes[0] | "\(.nr_to_reclaim) \(.inferred.request_low_pages <= .nr_to_reclaim and .nr_to_reclaim <= .inferred.request_high_pages)"' "$TMP/qn.json")"
check_eq "... each call's nr_to_reclaim then follows the rule: the generator's chunks" \
	"$(jq -c '[.writes[0].calls[] | .nr_to_reclaim]' "$P/quarter-1g-of-4g.summary.json")" \
	"$(jq -c '.episodes[0].recorded.call_nr_to_reclaim_pages' "$TMP/qn.json")"
# a writer in a cgroup of its own (a senpai-style agent in /agent writes
# /rr-proactive): the write's root is what its calls scanned, not the LCA
# with the writer's memcg (it was /, and the writes split)
python3 "$P/gen.py" -q --no-markers --file-pages 65536 --request-bytes 64M --writes 3 \
	-o "$TMP/agent0.txt"
awk 'NR == 1 { print; print "           mkdir-100   [000]  5119.000000000: cgroup_mkdir:         root=0 id=9000 level=1 path=/agent";
	print "           mkdir-100   [000]  5119.000000500: cgroup_mkdir:         root=0 id=8841 level=1 path=/rr-proactive";
	print "  reclaim-replay-30211 [001]  5119.000002000: cgroup_attach_task:   dst_root=0 dst_id=9000 dst_level=1 dst_path=/agent pid=30211 comm=senpai"; next } { print }' \
	"$TMP/agent0.txt" >"$TMP/agent.txt"
check_eq "a writer in /agent writing /rr-proactive: 3 writes of 16384 pages on /rr-proactive" \
	"3 /rr-proactive,/rr-proactive,/rr-proactive 16384,16384,16384" \
	"$("$RR" compare --episodes differing -q --kernel 6.18 "$TMP/agent.txt" -o - | jq -r '"\(.summary.proactive.replayed) \([.episodes[].cgroup] | join(",")) \([.episodes[].nr_to_reclaim] | join(","))"')"
# a write that ends in -EAGAIN without markers: its calls with no batch
# (nothing left to scan) join it, and -EAGAIN is inferred
python3 "$P/gen.py" -q --no-markers --file-pages 8192 --request-bytes 64M -o "$TMP/ea-nm.txt"
check_eq "no markers, -EAGAIN: one write of 16384 pages, 19 calls, eagain recorded and replayed" \
	"1 16384 19 11 eagain eagain" \
	"$("$RR" compare --episodes differing -q --kernel 6.18 "$TMP/ea-nm.txt" -o - | jq -r '"\(.summary.proactive.replayed) \(.episodes[0] | "\(.nr_to_reclaim) \(.recorded.calls) \(.errno) \(.recorded.outcome) \(.results.kernel.outcome)")"')"
# every call reclaimed nothing: no request can be inferred, said so
grep -v 'reclaim-replay: proactive ' "$P/eagain.txt" >"$TMP/ea0.txt"
check_eq "no markers, nothing reclaimed at all: skipped, the request cannot be inferred" "0 true" \
	"$("$RR" compare --episodes differing -q "$TMP/ea0.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("cannot be inferred"))"')"
# an MGLRU batch in an inferred write: no verdict, as for a plain call
sed '0,/nr_requested=32 /s//nr_requested=64 /' "$TMP/agent0.txt" >"$TMP/mglru.txt"
check_eq "an inferred write with an MGLRU batch is skipped as MGLRU" "2 1 true" \
	"$("$RR" compare --episodes differing -q --kernel 6.18 "$TMP/mglru.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped) \([.episodes[].skip_reason | select(. != null) | test("Multi-Gen LRU")] | all)"')"
# calls that follow no chunk rule of the release are not a write: the
# 6.8 rule (32 pages a call) cannot give these calls
check "no markers, modelled as 6.8: compare exits 0" sh -c \
	"'$RR' compare --episodes differing -q --kernel 6.8 '$TMP/qn.txt' -o '$TMP/qn68.json'"
check_eq "... the inferred write is skipped, saying its calls follow no chunk rule" \
	"0 1 1" \
	"$(jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped) \([.episodes[].skip_reason | select(test("chunk rule"))] | length)"' "$TMP/qn68.json")"

check_eq "modelled as 5.15 (no memory.reclaim before 5.19): no write inferred, 20 calls replayed" \
	"20 0 memcg" \
	"$("$RR" compare --episodes differing -q --all-episodes --kernel 5.15 "$TMP/qn.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.summary.proactive.replayed) \([.episodes[].kind] | unique | join(","))"')"
check "... and the table says why, with no row of zeros" sh -c \
	"'$RR' compare --episodes differing -q --kernel 6.8 '$TMP/qn.txt' >'$TMP/qn68.table' &&
	 grep -q '^       1  memory.reclaim write inferred from plain calls: their nr_to_reclaim does not follow' '$TMP/qn68.table' &&
	 grep -q '^no episode was replayed: no policy results (the reasons above)' '$TMP/qn68.table' &&
	 ! grep -q '^kernel ' '$TMP/qn68.table'"

# chunks that floor alike are the same call: 1-page writes ask 0 (a
# quarter) or 1 (the cluster cap), try_to_free_mem_cgroup_pages() 32 for both
python3 "$P/gen.py" -q --writes 3 --request-bytes 4K --file-pages 4096 -o "$TMP/tiny.txt"
check_eq "three 4 KiB writes: cluster-cap does not differ from the quarter rule" "3 0" \
	"$("$RR" compare --episodes differing -q -p cluster-cap "$TMP/tiny.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.summary.policies["cluster-cap"].episodes_differing_from_baseline)"')"

# ---- what cannot be replayed says why
check_eq "a write on a modelled 5.10 (no memory.reclaim before 5.19): skipped, saying so" "0 true" \
	"$("$RR" compare --episodes differing -q --kernel 5.10 "$TMP/q.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("has no memory.reclaim"))"')"
python3 "$P/gen.py" -q --writes 2 --request-bytes 512K --file-pages 4096 --reclaim-ratio 0.7 \
	-o "$TMP/two.txt"
sed '0,/proactive end bytes=524288 result=ok errno=0/{/proactive end bytes=524288 result=ok errno=0/d}' \
	"$TMP/two.txt" >"$TMP/noend.txt"
check_eq "a write without its end marker: skipped with the reason, not dropped silently" \
	"1 1 true" \
	"$("$RR" compare --episodes differing -q "$TMP/noend.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.summary.proactive.skipped) \([.episodes[] | select(.results == null) | .skip_reason | test("without its end marker")] | all)"')"
check_eq "... and the recorded totals are those of the replayed write only" "4" \
	"$("$RR" compare --episodes differing -q "$TMP/noend.txt" -o - | jq -r '.summary.recorded.calls')"

sed 's/proactive end bytes=1073741824 result=ok errno=0/proactive end bytes=1073741824 result=error errno=4/' \
	"$TMP/q.txt" >"$TMP/eintr.txt"
check_eq "a write interrupted by a signal: skipped with the reason" "0 1 true" \
	"$("$RR" compare --episodes differing -q "$TMP/eintr.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.summary.episodes_skipped) \(.episodes[0].skip_reason | test("EINTR"))"')"
sed 's/proactive begin bytes=1073741824/& swappiness=60/' "$TMP/q.txt" >"$TMP/swp.txt"
check_eq "swappiness= on a modelled 6.10 (the key came in 6.11): skipped with the reason" "0 true" \
	"$("$RR" compare --episodes differing -q --kernel 6.10 "$TMP/swp.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("swappiness= key: the release has no swappiness= key"))"')"
check_eq "... and replayed on 6.18, the key in the JSON" "1 60" \
	"$("$RR" compare --episodes differing -q "$TMP/swp.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].swappiness)"')"
sed 's/proactive begin bytes=1073741824/& swappiness=300/' "$TMP/q.txt" >"$TMP/badswp.txt"
check_eq "swappiness=300 (no kernel accepts it): the write skipped, saying so, and a warning" \
	"0 true 1" \
	"$("$RR" compare --episodes differing -q "$TMP/badswp.txt" -o - 2>"$TMP/badswp.err" | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("swappiness= is no value a kernel accepts"))"') $(grep -c 'marker line refused: .*proactive begin: swappiness not 0..200 or max' "$TMP/badswp.err")"
sed 's/proactive begin bytes=1073741824/proactive begin bytes=9000000000000000/' "$TMP/q.txt" >"$TMP/huge.txt"
check_eq "a write of 8 PB: skipped, beyond what the replay simulates (not a failed run)" "0 true" \
	"$("$RR" compare --episodes differing -q "$TMP/huge.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("beyond what the replay simulates"))"')"
sed 's/proactive begin bytes=1073741824/proactive begin bytes=lots/' "$TMP/q.txt" >"$TMP/nobytes.txt"
check_eq "a begin marker without a byte count: skipped, saying so" "0 true" \
	"$("$RR" compare --episodes differing -q "$TMP/nobytes.txt" -o - | jq -r '"\(.summary.episodes_replayed) \(.episodes[0].skip_reason | test("gives no byte count"))"')"

sed '/proactive begin/s/$/ path=\/nowhere/' "$TMP/q.txt" >"$TMP/nowhere.txt"
"$RR" compare --episodes differing -q "$TMP/nowhere.txt" -o "$TMP/nowhere.json" >/dev/null 2>"$TMP/nowhere.err"
check_eq "a path= the trace does not know: warned, the root from the calls, the same replay" \
	"1 $(jq -c '.episodes[0].results.kernel.calls' "$j")" \
	"$(grep -c 'names a cgroup the trace does not know (first: /nowhere)' "$TMP/nowhere.err") $(jq -c '.episodes[0].results.kernel.calls' "$TMP/nowhere.json")"

# the generator's markers name no cgroup (as recorders before 0.3): the root
# came from the calls; a marker's path= names it
sed '/proactive begin/s/$/ path=\/rr-proactive/' "$TMP/q.txt" >"$TMP/path.txt"
check_eq "a marker with path= naming the written cgroup: the same replay" \
	"$(jq -c '.episodes[0].results.kernel' "$j")" \
	"$("$RR" compare --episodes differing -q $POL "$TMP/path.txt" -o - | jq -c '.episodes[0].results.kernel')"
sed '/proactive begin/s/$/ path=\//' "$TMP/q.txt" >"$TMP/rootpath.txt"
check_eq "path=/ (a write to the parent): the root is /, its own pages are in the walk" \
	"/ true" \
	"$("$RR" compare --episodes differing -q "$TMP/rootpath.txt" -o - | jq -r '.episodes[0] | "\(.cgroup) \([.results.kernel.scan_targets[] | select(.cgroup == "/")] | length > 0)"')"
finish
