#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# compare -o's default diff is of bounded size (issue 29): the --top
# episodes that differ most, the per-episode change as distributions; the
# old list with --episodes differing, every episode with --episodes all.
. "$(dirname "$0")/../lib.sh"

T=$TOP/traces/anon-swap.dat
S=$TOP/tests/validate-schema.py
SCHEMA=$TOP/schema/reclaim-replay-diff.schema.json

"$RR" compare -q "$T" -o "$TMP/top.json" >"$TMP/top.txt"
check_eq "default -o exits 0" 0 "$?"
"$RR" compare -q --episodes differing "$T" -o "$TMP/diff.json" >/dev/null
check_eq "--episodes differing exits 0" 0 "$?"
"$RR" compare -q --episodes all "$T" -o "$TMP/all.json" >/dev/null
check_eq "--episodes all exits 0" 0 "$?"
check "all three valid against the JSON Schema" /usr/bin/python3 "$S" "$SCHEMA" \
	"$TMP/top.json" "$TMP/diff.json" "$TMP/all.json"

check_eq "the default selection is named top" "top" "$(jq -r .episodes_selection "$TMP/top.json")"
check_eq "... it lists --top (5) episodes" 5 "$(jq '.episodes | length' "$TMP/top.json")"
check_eq "... summary.episodes_listed says so" 5 "$(jq .summary.episodes_listed "$TMP/top.json")"
# the table's list of the episodes that differ most: the same ids, in order
want=$(sed -nE 's/^  #([0-9]+) at .*/\1/p' "$TMP/top.txt" | tr '\n' ' ')
check_eq "... the table's top episodes, in its order" "$want" \
	"$(jq -r '[.episodes[].id] | map(tostring) | join(" ")' "$TMP/top.json") "
# weight: the largest over the policies of |d reclaimed| + |d scanned| + |d calls|
weights=$(jq -r '.baseline as $b | [.episodes[] | .results as $r |
	[$r | to_entries[] | ((.value.nr_reclaimed - $r[$b].nr_reclaimed) | fabs)
	 + ((.value.nr_scanned - $r[$b].nr_scanned) | fabs) + ((.value.calls - $r[$b].calls) | fabs)]
	| max] | map(tostring) | join(" ")' "$TMP/top.json")
check_eq "... by weight, most first" "111 111 111 111 108" "$weights"
# the weight of every differing episode: none above the fifth listed
most_left=$(jq -r '.baseline as $b | [.episodes[] | .results as $r |
	[$r | to_entries[] | ((.value.nr_reclaimed - $r[$b].nr_reclaimed) | fabs)
	 + ((.value.nr_scanned - $r[$b].nr_scanned) | fabs) + ((.value.calls - $r[$b].calls) | fabs)]
	| max] | sort | reverse | .[5]' "$TMP/diff.json")
check "... no episode left out differs more than the last listed ($most_left)" \
	test "$most_left" -le 108
check_eq "... each with the results of the baseline and of the policies that differ" \
	"kernel,original" "$(jq -r '[.episodes[] | .results | keys | join(",")] | unique | join(" ")' "$TMP/top.json")"
check_eq "... as its changes name them" "original" \
	"$(jq -r '[.episodes[] | .changes | keys | join(",")] | unique | join(" ")' "$TMP/top.json")"
check_eq "--episodes differing: the old list" "49 differing 49" \
	"$(jq -r '"\(.episodes | length) \(.episodes_selection) \(.summary.episodes_listed)"' "$TMP/diff.json")"
check_eq "--episodes all: every episode" "49 all" \
	"$(jq -r '"\(.episodes | length) \(.episodes_selection)"' "$TMP/all.json")"
"$RR" compare -q --top 2 "$T" -o "$TMP/top2.json" >/dev/null
check_eq "--top 2: two" 2 "$(jq '.episodes | length' "$TMP/top2.json")"
"$RR" compare -q --top 0 "$T" -o "$TMP/top0.json" >/dev/null
check_eq "--top 0: none, the totals still there" "0 49" \
	"$(jq -r '"\(.episodes | length) \(.summary.episodes_replayed)"' "$TMP/top0.json")"
check_fails "--episodes some: a usage error" 2 "--episodes takes top, differing or all" \
	"$RR" compare -q --episodes some "$T" -o "$TMP/bad.json"
check "... no output file" test ! -e "$TMP/bad.json"
check_eq "the totals are those of the full list" \
	"$(jq -c '.summary | del(.episodes_listed)' "$TMP/diff.json")" \
	"$(jq -c '.summary | del(.episodes_listed)' "$TMP/top.json")"

# the distributions: every replayed episode in one bucket, per policy
check_eq "delta_distributions: each policy's buckets add up to the episodes replayed" \
	"49 49 49 49 49 49 49 49" \
	"$(jq -r '[.summary.delta_distributions[] | .[] | [.[]] | add] | map(tostring) | join(" ")' "$TMP/top.json")"
check_eq "... no entry for the baseline" "false" \
	"$(jq '.summary.delta_distributions | has("kernel")' "$TMP/top.json")"
# original reclaims less than kernel in the episodes where it differs: the
# buckets hold the per-episode change the full list shows
want=$(jq -r '.baseline as $b | [.episodes[] | .results.original.nr_reclaimed - .results[$b].nr_reclaimed
	| if . == 0 then "0" elif . > 0 then (pow(2; (log2 | floor)) | tostring) else "-" end] |
	map(select(. != "-")) | group_by(.) | map("\(.[0]):\(length)") | join(" ")' "$TMP/all.json")
got=$(jq -r '.summary.delta_distributions.original.nr_reclaimed_pages | to_entries |
	map(select(.key | startswith("-") | not)) | map("\(.key | split("..")[0]):\(.value)") | join(" ")' "$TMP/top.json")
check_eq "... original's non-negative buckets match the episodes' own changes" "$want" "$got"
neg_want=$(jq '[.episodes[] | select(.results.original.nr_reclaimed < .results.kernel.nr_reclaimed)] | length' "$TMP/all.json")
neg_got=$(jq '[.summary.delta_distributions.original.nr_reclaimed_pages | to_entries[] |
	select(.key | startswith("-")) | .value] | add' "$TMP/top.json")
check_eq "... and its negative ones count the episodes that reclaim less" "$neg_want" "$neg_got"
check_eq "... an unchanged policy: every episode in \"0\"" '{"0":49}' \
	"$(jq -c '.summary.delta_distributions."cluster-cap".nr_reclaimed_pages' "$TMP/top.json")"

# merge adds the buckets up, lowest first
"$RR" compare -q "$TOP/traces/file-limit.dat" -o "$TMP/file.json" >/dev/null
"$RR" merge "$TMP/top.json" "$TMP/file.json" -o "$TMP/merged.json"
check_eq "merge exits 0" 0 "$?"
a=$(jq '.summary.delta_distributions.original.nr_reclaimed_pages."0" // 0' "$TMP/top.json")
b=$(jq '.summary.delta_distributions.original.nr_reclaimed_pages."0" // 0' "$TMP/file.json")
check_eq "... the \"0\" buckets added" $((a + b)) \
	"$(jq '.summary.delta_distributions.original.nr_reclaimed_pages."0"' "$TMP/merged.json")"
check_eq "... the buckets in order" \
	"$(jq -c '.summary.delta_distributions.original.nr_reclaimed_pages | keys_unsorted |
		map(split("..")[0] | tonumber)' "$TMP/merged.json")" \
	"$(jq -c '.summary.delta_distributions.original.nr_reclaimed_pages | keys_unsorted |
		map(split("..")[0] | tonumber) | sort' "$TMP/merged.json")"
check "... valid against the JSON Schema" /usr/bin/python3 "$S" "$SCHEMA" "$TMP/merged.json"

# the size: bounded by --top, not by the trace (the lab's largest recording)
L=$TOP/traces/lab/stock-limit-anon.dat
if [ -e "$L" ]; then
	"$RR" compare -q "$L" -o "$TMP/l-top.json" >/dev/null
	"$RR" compare -q --episodes differing "$L" -o "$TMP/l-diff.json" >/dev/null
	st=$(stat -c %s "$TMP/l-top.json")
	sd=$(stat -c %s "$TMP/l-diff.json")
	check "a long recording's default diff is a small part of the full list ($st of $sd bytes)" \
		test $((st * 20)) -lt "$sd"
fi
finish
