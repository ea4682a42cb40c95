#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Many traces at once: compare -j N replays each trace in a process of its
# own, prints in argument order and writes per-trace JSON byte-identical to
# one-trace runs; merge folds those diffs into one whose totals are the sums
# of the parts (computed here with jq), valid against the schema.
. "$(dirname "$0")/../lib.sh"

traces=("$TOP"/traces/*.dat)
mkdir -p "$TMP/seq"
for t in "${traces[@]}"; do
	n=$(basename "$t" .dat)
	"$RR" compare --episodes differing -q "$t" -o "$TMP/seq/$n.json" >"$TMP/seq/$n.table" 2>/dev/null
done
check "compare -j 2 on ${#traces[@]} traces" \
	sh -c "'$RR' compare --episodes differing -q -j 2 ${traces[*]} -o '$TMP/par' >'$TMP/par.out'"
same=0
for t in "${traces[@]}"; do
	n=$(basename "$t" .dat)
	cmp -s "$TMP/seq/$n.json" "$TMP/par/$n.json" && same=$((same + 1))
done
check_eq "every per-trace JSON is byte-identical to a one-trace run" "${#traces[@]}" "$same"
expect=$(for t in "${traces[@]}"; do
	[ "$t" = "${traces[0]}" ] || echo
	echo "==> $t <=="
	cat "$TMP/seq/$(basename "$t" .dat).table"
done)
check_eq "tables in argument order, each as a one-trace run prints it" "$expect" "$(cat "$TMP/par.out")"
"$RR" compare --episodes differing -q -j 1 "${traces[@]}" -o "$TMP/one" >"$TMP/one.out"
check "and -j 1 prints the same" cmp "$TMP/one.out" "$TMP/par.out"

check "merge the diffs" "$RR" merge "$TMP"/par/*.json -o "$TMP/merged.json"
check "the merge is valid against the JSON Schema" \
	/usr/bin/python3 "$TOP/tests/validate-schema.py" "$TOP/schema/reclaim-replay-diff.schema.json" "$TMP/merged.json"
# the totals of the parts, summed by jq
sums=$(jq -s -c '. as $all | {
	episodes: (map(.summary.episodes) | add),
	replayed: (map(.summary.episodes_replayed) | add),
	recorded: (map(.summary.recorded.nr_reclaimed) | add),
	events: (map(.input.stats.events) | add),
	policies: (.[0].summary.policies | keys_unsorted | map(. as $p | {($p): {
		nr_scanned: ([$all[] | .summary.policies[$p].nr_scanned] | add),
		nr_reclaimed: ([$all[] | .summary.policies[$p].nr_reclaimed] | add),
		calls: ([$all[] | .summary.policies[$p].calls] | add),
		over: ([$all[] | .summary.policies[$p].over_reclaim_pages] | add),
		lowest: ([$all[] | .summary.policies[$p].lowest_priority] | min)}}) | add),
	checked: (map(.fidelity.decisions_checked) | add),
	exact: (map(.fidelity.exact) | add)}' "$TMP"/par/*.json)
merged=$(jq -c '{
	episodes: .summary.episodes, replayed: .summary.episodes_replayed,
	recorded: .summary.recorded.nr_reclaimed, events: .input.stats.events,
	policies: (.summary.policies | map_values({nr_scanned, nr_reclaimed, calls,
		over: .over_reclaim_pages, lowest: .lowest_priority})),
	checked: .fidelity.decisions_checked, exact: .fidelity.exact}' "$TMP/merged.json")
check_eq "the merge's totals are the sums of the parts" "$sums" "$merged"
check_eq "its exact share is computed from the summed counts" \
	"$(jq -s '(map(.fidelity.exact) | add) / (map(.fidelity.decisions_checked) | add)' "$TMP"/par/*.json)" \
	"$(jq '.fidelity.exact_share' "$TMP/merged.json")"
check_eq "per-cgroup totals add up by path" \
	"$(jq -s -c '[.[].summary.cgroups[]] | group_by(.cgroup) | map({cgroup: .[0].cgroup,
		episodes: (map(.episodes) | add), r: (map(.policies.kernel.nr_reclaimed) | add)})' "$TMP"/par/*.json)" \
	"$(jq -c '[.summary.cgroups[] | {cgroup, episodes, r: .policies.kernel.nr_reclaimed}]' "$TMP/merged.json")"
check_eq "it names its parts" "${#traces[@]}" "$(jq '.input.merged_from | length' "$TMP/merged.json")"

check_fails "a part that is no JSON is named" 1 "anon-swap.dat: not JSON" "$RR" merge "$TMP/par/anon-swap.json" "${traces[0]}"
# worst episodes: the bundled traces replay exactly, so give two parts some
w='{episode: $e, cgroup: "/w", decisions_checked: 9, not_exact: $n, first_mismatch: null, likely_cause: null}'
jq --argjson e 3 --argjson n 2 ".fidelity.worst_episodes = [$w]" "$TMP/par/anon-swap.json" >"$TMP/w0.json"
jq --argjson e 7 --argjson n 5 ".fidelity.worst_episodes = [$w, ($w | .episode = 8 | .not_exact = 1)]" \
	"$TMP/par/file-limit.json" >"$TMP/w1.json"
"$RR" merge "$TMP/w0.json" "$TMP/w1.json" -o "$TMP/w.json"
check_eq "the worst episodes of all parts, worst first, each naming its part" \
	'[[1,7,5],[0,3,2],[1,8,1]]' "$(jq -c '[.fidelity.worst_episodes[] | [.part, .episode, .not_exact]]' "$TMP/w.json")"
jq '.summary.policies.kernel.nr_scanned = 9223372036854775000' "$TMP/par/file-limit.json" >"$TMP/huge.json"
check_fails "counts that overflow when added are refused, no output left" 1 \
	"huge.json: counts too large" "$RR" merge "$TMP/par/anon-swap.json" "$TMP/huge.json" -o "$TMP/huge-m.json"
check "  (no half-written merge)" test ! -e "$TMP/huge-m.json"
# parts edited or cut: named with the first wrong value, nothing written
A=$TMP/par/anon-swap.json
F=$TMP/par/file-limit.json
bad() {	# bad NAME JQ-EDIT STDERR-PATTERN
	jq "$2" "$F" >"$TMP/bad.json"
	check_fails "a part with $1 is refused" 1 "$3" "$RR" merge "$A" "$TMP/bad.json" -o "$TMP/bad-m.json"
}
bad "a count that is a string" '.summary.policies.kernel.nr_scanned = "12"' \
	'bad.json: summary.policies.kernel.nr_scanned: a count'
bad "a negative count" '.input.stats.events = -1' 'input.stats.events: a count'
bad "a count missing" 'del(.summary.policies.kernel.nr_scanned)' \
	'summary.policies.kernel.nr_scanned: missing'
bad "more exact decisions than checked" '.fidelity.exact = 999999' \
	'fidelity.exact: more than within_one_batch'
bad "more concurrent trajectories exact than concurrent" \
	'.fidelity.trajectory_concurrent_exact = .fidelity.trajectory_concurrent + 1' \
	'fidelity.trajectory_concurrent_exact: more than trajectory_concurrent'
bad "a cgroup that is a number" '.summary.cgroups[0].cgroup = 5' 'summary.cgroups.0.cgroup: a path or null'
bad "a priority out of range" '.summary.policies.kernel.lowest_priority = 13' 'a priority'
bad "cgroups that are no objects" '.summary.cgroups = [1]' 'summary.cgroups.0'
bad "a cgroup of a policy not compared" '.summary.cgroups[0].policies.bogus = {}' \
	'policies.bogus: a policy the diff does not compare'
bad "assumptions that are no strings" '.input.assumptions = [1]' 'input.assumptions'
bad "a cgroup listed twice (it was counted twice)" '.summary.cgroups += [.summary.cgroups[0]]' \
	'summary.cgroups: a cgroup \(the same cgroup_id and path\) listed twice'
bad "recorded null in a trace's diff (the other part's alone were kept)" '.summary.recorded = null' \
	'summary.recorded: null where fidelity is not'
bad "fidelity null in a trace's diff" '.fidelity = null' 'summary.recorded: null where fidelity is not'
bad "a page size of 3 bytes" '.input.page_size_bytes = 3' 'input.page_size_bytes: a power of two'
check "  (and no merge was written)" test ! -e "$TMP/bad-m.json"
cp "$A" "$TMP/a.json"
check_fails "-o onto one of the parts is refused" 1 "a.json: is one of the diffs merged" \
	"$RR" merge "$TMP/a.json" "$F" -o "$TMP/a.json"
check_eq "  and the part is intact" "$(md5sum <"$A")" "$(md5sum <"$TMP/a.json")"
check_fails "a part given twice is refused" 1 "the diff of the same trace" \
	"$RR" merge "$A" "$TMP/par/../par/anon-swap.json"
cp "$A" "$TMP/copy.json"
check_fails "... and a copy of it under another name" 1 "copy.json: the diff of the same trace" \
	"$RR" merge "$A" "$F" "$TMP/copy.json"
check_fails "a missing part: cannot open" 1 "nope.json: cannot open: No such file" \
	"$RR" merge "$A" "$TMP/nope.json"
check_fails "a directory" 1 "is a directory" "$RR" merge "$A" "$TMP"
check_eq "'-' reads a part from standard input" \
	"$(jq -s 'map(.summary.episodes) | add' "$A" "$F")" \
	"$("$RR" merge "$A" - <"$F" | jq .summary.episodes)"
"$RR" merge "$A" "$F" -o "$TMP/af.json"
"$RR" merge "$TMP/af.json" "$TMP/par/offline-anon.json" -o "$TMP/af-o.json"
"$RR" merge "$A" "$F" "$TMP/par/offline-anon.json" -o "$TMP/afo.json"
check "a merged part's parts are listed one by one: merge(merge(A,F),O) = merge(A,F,O)" \
	cmp "$TMP/af-o.json" "$TMP/afo.json"
check_fails "a part that is also inside a merged part is refused" 1 "anon-swap.json: the diff of the same trace" \
	"$RR" merge "$TMP/af.json" "$A"
cp "$TMP/af.json" "$TMP/af2.json"
check_fails "... and two merged parts sharing a part name the files given" 1 \
	"anon-swap.json \(in $TMP/af2.json\): the diff of the same trace .* as $TMP/par/anon-swap.json \(in $TMP/af.json\)" \
	"$RR" merge "$TMP/af.json" "$TMP/af2.json"
jq '.input.page_size_bytes = 65536' "$F" >"$TMP/f64k.json"
"$RR" merge "$A" "$TMP/f64k.json" -o "$TMP/af64.json"
"$RR" merge "$TMP/af64.json" "$TMP/par/offline-anon.json" -o "$TMP/af64-o.json"
"$RR" merge "$A" "$TMP/f64k.json" "$TMP/par/offline-anon.json" -o "$TMP/af64o.json"
check "... also with parts of two page sizes (the assumption once)" \
	cmp "$TMP/af64-o.json" "$TMP/af64o.json"
check_eq "  page_size_bytes 0 and one assumption on page sizes" "0 1" \
	"$(jq -r '[.input.page_size_bytes, ([.input.assumptions[] | select(test("page sizes"))] | length)] | join(" ")' "$TMP/af64o.json")"
"$RR" compare --episodes differing -q "$TOP/scenarios/gavin-thresholds.json" -o "$TMP/scen.json" >/dev/null
check_fails "a scenario's diff and a trace's do not merge" 1 "a scenario's diff, the first diff a trace's" \
	"$RR" merge "$A" "$TMP/scen.json"

"$RR" compare --episodes differing -q -p original "${traces[0]}" -o "$TMP/other.json" >/dev/null
check_fails "diffs of other policies do not merge" 1 "other.json: compares other policies" \
	"$RR" merge "$TMP/par/anon-swap.json" "$TMP/other.json"
check_fails "--jsonl takes one trace" 2 "--jsonl and --html take one TRACE" \
	"$RR" compare --episodes differing --jsonl "${traces[0]}" "${traces[1]}"
check_fails "-o - takes one trace" 2 "-o - takes one TRACE" \
	"$RR" compare --episodes differing -o - "${traces[0]}" "${traces[1]}"
cp "${traces[0]}" "$TMP/anon-swap.dat"
check_fails "two traces of one name would clash in the -o directory" 2 "would both write" \
	"$RR" compare --episodes differing "${traces[0]}" "$TMP/anon-swap.dat" -o "$TMP/clash"
check "  (and the directory was not made)" test ! -e "$TMP/clash"
"$RR" compare --episodes differing -q -j 2 "${traces[0]}" "$TMP/missing.dat" "${traces[1]}" >"$TMP/f.out" 2>"$TMP/f.err"
check_eq "a missing trace among others: exit 1, the others still replayed" "1 2 2" \
	"$? $(grep -c '^==> ' "$TMP/f.out") $(grep -c '^kernel against the recording' "$TMP/f.out")"
check "no header above the missing one" sh -c "! grep -q 'missing.dat' '$TMP/f.out'"
check "and its error is named" grep -q "missing.dat: cannot open" "$TMP/f.err"
"$RR" compare --episodes differing -q -p original "${traces[0]}" "${traces[1]}" -o "$TMP/deep/er/dir" >/dev/null
check_eq "-o DIR is made with its parents" 2 "$(ls "$TMP/deep/er/dir" | wc -l)"
"$RR" compare --episodes differing -q -p "$BUILD/tests/plugins/einval.so" "${traces[0]}" "$TOP/traces/offline-anon.dat" \
	-o "$TMP/none" >/dev/null 2>&1
check_eq "a directory made for traces that all failed is not left behind" "1 no" \
	"$? $(test -e "$TMP/none" && echo yes || echo no)"

# no replay can start at all (4 file descriptors: no room for a scratch
# file): each trace is named with the reason, exit 1 (it used to end
# silently with 0)
(ulimit -n 4 && "$RR" compare --episodes differing -q "${traces[0]}" "${traces[1]}" >"$TMP/nofd.out" 2>"$TMP/nofd.err")
check_eq "no replay can start: exit 1, both traces named" "1 2" \
	"$? $(grep -c 'cannot make a scratch file' "$TMP/nofd.err")"

# traces done while an earlier one still runs hold no file open, a replay
# holds none of the others', and one that cannot start for want of them
# waits for a running one to end: 60 small traces behind a big one, 16 at
# a time, with 30 file descriptors
mkdir -p "$TMP/many"
for i in $(seq -w 1 60); do ln -s "$TOP/traces/offline-child.dat" "$TMP/many/s$i.dat"; done
(ulimit -n 30 && "$RR" compare --episodes differing -q -j 16 -p original "$TOP/traces/anon-swap.dat" "$TMP"/many/s*.dat \
	>"$TMP/many.out" 2>"$TMP/many.err")
check_eq "61 traces, -j 16, 30 file descriptors: exit 0, 61 tables" "0 61" \
	"$? $(grep -c '^kernel against the recording' "$TMP/many.out")"
finish
