#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The decision diff: what changed per episode, --baseline, --jsonl,
# --format markdown, and golden tables for one scenario (regenerate with
# `reclaim-replay compare -q scenarios/gavin-thresholds.json -p original
# [--format markdown] > tests/golden/gavin-thresholds.{txt,md}` after a
# deliberate change).
. "$(dirname "$0")/../lib.sh"

S=$TOP/scenarios/gavin-thresholds.json
check_eq "golden text table (Gavin's thresholds)" "$(cat "$TOP/tests/golden/gavin-thresholds.txt")" \
	"$("$RR" compare --episodes differing -q "$S" -p original)"
check_eq "golden markdown table" "$(cat "$TOP/tests/golden/gavin-thresholds.md")" \
	"$("$RR" compare --episodes differing -q "$S" -p original --format markdown)"

"$RR" compare --episodes differing -q "$S" -p original -o "$TMP/g.json" >/dev/null
check_eq "original makes the 0x1000-page list eligible at priority 12" \
	'{"cgroup":"/anon-0x1000","priority":12,"lru":"inactive_anon"}' \
	"$(jq -c '.episodes[] | select(.cgroup == "/anon-0x1000") | .changes.original.eligible_gained[]
		  | select(.priority == 12)' "$TMP/g.json")"
check_eq "and loses none" 0 \
	"$(jq '[.episodes[].changes.original.eligible_lost[]] | length' "$TMP/g.json")"
check_eq "summary: targets at priority 12, kernel vs original" "1 3" \
	"$(jq -r '.summary.policies | "\(.kernel.eligible_at_priority_12) \(.original.eligible_at_priority_12)"' "$TMP/g.json")"

"$RR" compare --episodes differing -q "$S" -p original --baseline original -o "$TMP/b.json" >/dev/null
check_eq "--baseline original: the baseline is original" "original" "$(jq -r .baseline "$TMP/b.json")"
check_eq "--baseline original: kernel differs in 3 episodes" 3 \
	"$(jq '.summary.policies.kernel.episodes_differing_from_baseline' "$TMP/b.json")"
check_fails "--baseline must be compared" 1 "bogus: --baseline names a policy that is not compared" \
	"$RR" compare --episodes differing -q "$S" --baseline bogus

# episodes where nothing differs are counted, not listed
T=$TOP/traces/file-limit.dat
"$RR" compare --episodes differing -q "$T" -o "$TMP/f.json" >/dev/null
check_eq "file-only trace: no episode differs, none listed" "0 94" \
	"$(jq -r '.summary | "\(.episodes_listed) \(.episodes)"' "$TMP/f.json")"
"$RR" compare --episodes differing -q --all-episodes "$T" -o "$TMP/fa.json" >/dev/null
check_eq "--all-episodes lists them all" 94 "$(jq '.episodes | length' "$TMP/fa.json")"

"$RR" compare --episodes differing -q --jsonl --all-episodes "$T" >"$TMP/f.jsonl"
check_eq "--jsonl: a header, 94 episodes, a summary" 96 "$(wc -l <"$TMP/f.jsonl")"
check "--jsonl: every line is JSON" sh -c "jq -e . '$TMP/f.jsonl' >/dev/null"
check_eq "--jsonl: the header names the baseline" kernel "$(head -1 "$TMP/f.jsonl" | jq -r .baseline)"
check_eq "--jsonl: the episodes equal the document's" \
	"$(jq -c '.episodes[]' "$TMP/fa.json" | md5sum)" \
	"$(sed -n '2,95p' "$TMP/f.jsonl" | jq -c '.episode' | md5sum)"
check_eq "--jsonl: the summary line" "$(jq -c .summary "$TMP/fa.json")" "$(tail -1 "$TMP/f.jsonl" | jq -c .summary)"
check_fails "--jsonl does not take -o" 2 "--jsonl streams to stdout" "$RR" compare --episodes differing -q --jsonl "$T" -o x.json
check_fails "bad --format" 2 "--format takes text or markdown" "$RR" compare --episodes differing -q --format html "$T"
check_fails "bad --top" 2 "--top takes 0..50" "$RR" compare --episodes differing -q --top 99 "$T"
"$RR" compare --episodes differing -q "$TOP/traces/anon-swap.dat" --top 3 >"$TMP/top.txt"
check_eq "--top 3 lists three episodes that differ" 3 "$(grep -c '^  #[0-9]* at ' "$TMP/top.txt")"
# memory.reclaim of more than the cgroup holds: the kernel's loop returns
# -EAGAIN after MAX_RECLAIM_RETRIES (16) more calls reclaim nothing.
E=$TOP/scenarios/proactive-eagain.json
"$RR" compare --episodes differing -q "$E" -p original -p cluster-cap --all-episodes -o "$TMP/e.json" >/dev/null
check_eq "eagain: 1000 pages, then 17 empty calls (18 in all)" "eagain 1000 18 17" \
	"$(jq -r '.episodes[0].results.kernel | "\(.outcome) \(.nr_reclaimed) \(.calls) \([.call_reclaimed_pages[] | select(. == 0)] | length)"' "$TMP/e.json")"
check_eq "eagain counted per policy" "1 1 1" \
	"$(jq -r '.summary.policies | "\(.kernel.eagain) \(.original.eagain) \(."cluster-cap".eagain)"' "$TMP/e.json")"
check_eq "the first chunk that differs: 1/4 of 1 GiB against all of it (original) and 32 (cluster-cap)" \
	'{"call":1,"nr_pages":262144,"baseline_nr_pages":65536} {"call":1,"nr_pages":32,"baseline_nr_pages":65536}' \
	"$(jq -c '.episodes[0].changes | [.original.chunk_change, ."cluster-cap".chunk_change] | .[]' "$TMP/e.json" | paste -sd' ')"
check_eq "a request that is met is not eagain" "met met 0" \
	"$("$RR" compare --episodes differing -q "$TOP/scenarios/chunk-1gib-exact.json" --all-episodes -o - 2>/dev/null |
	  jq -r '"\(.episodes[0].results.kernel.outcome) \(.episodes[0].results.proportional.outcome) \(.summary.policies.kernel.eagain)"')"
"$RR" compare --episodes differing -q --all-episodes "$TOP/traces/anon-swap.dat" -o "$TMP/as.json" >/dev/null
check_eq "anon + file = total, scanned and reclaimed, in every episode of a real trace" '[true]' \
	"$(jq -c '[.episodes[].results[] | (.nr_scanned_anon + .nr_scanned_file == .nr_scanned)
		   and (.nr_reclaimed_anon + .nr_reclaimed_file == .nr_reclaimed)] | unique' "$TMP/as.json")"
check_eq "anon-swap: the kernel scans anon pages" true \
	"$(jq '[.episodes[].results.kernel.nr_scanned_anon] | add > 0' "$TMP/as.json")"

# totals per reclaim root: Gavin's three cgroups, each made eligible by original
check_eq "per-cgroup totals: kernel/original pages reclaimed, episodes differing" \
	"/anon-0x1000 34 40 1,/anon-0x3fff 33 38 1,/anon-0x4000 34 39 1" \
	"$(jq -r '[.summary.cgroups[] | "\(.cgroup) \(.policies.kernel.nr_reclaimed) \(.policies.original.nr_reclaimed) \(.policies.original.episodes_differing_from_baseline)"] | join(",")' "$TMP/g.json")"
"$RR" compare --episodes differing -q "$TOP/traces/anon-swap.dat" -o "$TMP/a.json" >/dev/null
check_eq "per-cgroup totals add up to the policy totals (real trace)" \
	"$(jq -c '[.summary.policies[] | [.nr_reclaimed, .nr_scanned, .calls]]' "$TMP/a.json")" \
	"$(jq -c '[.policies[].name] as $n | [$n[] as $p | [(.summary.cgroups | map(.policies[$p].nr_reclaimed) | add), (.summary.cgroups | map(.policies[$p].nr_scanned) | add), (.summary.cgroups | map(.policies[$p].calls) | add)]]' "$TMP/a.json")"

# the --top list and the markdown table with awkward names (regressions)
long=/$(printf 'L%.0s' $(seq 150))
jq --arg l "$long" '.cgroups[1].path = $l | .requests[0].cgroup = $l' "$S" >"$TMP/long.json"
check_eq "--top shows a 151-character cgroup path whole" 1 \
	"$("$RR" compare --episodes differing -q "$TMP/long.json" -p original | grep -c -- " $long, original:")"
cp "$BUILD/tests/plugins/ceil-file.so" "$TMP/a|b.so"
check_eq "markdown: a | in a policy name is escaped, the row keeps its 10 columns" "$TMP/a\\|b.so 10" \
	"$("$RR" compare --episodes differing -q "$S" -p "$TMP/a|b.so" --format markdown | grep '^| .*b\.so' |
	   awk -F' [|] ' '{ print $1 " " NF }' | sed 's/^| //')"

finish
