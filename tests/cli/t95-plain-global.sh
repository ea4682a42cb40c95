#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A plain recording of global reclaim (no recorder: the vmscan, memcg and
# cgroup events of a tracefs instance, then trace-cmd extract;
# traces/global/plain-file.dat, made by PLAIN=1 bench/global-recordings.sh
# file) with the copy of /proc/zoneinfo taken beside it (issue 27):
#  - without the copy, every kswapd run is skipped and says why, naming
#    --zoneinfo; no number is printed for them;
#  - with it, every kswapd run is replayed, its nr_to_reclaim the sum of
#    max(high, 32) over the zones of the copy (computed here from the
#    file), marked as the copy's; the judged calls stay exact;
#  - the time model counts the direct reclaim calls;
#  - a missing, unreadable or foreign --zoneinfo file is an error naming it,
#    with no output file left behind.
. "$(dirname "$0")/../lib.sh"

T=$TOP/traces/global/plain-file.dat
Z=$TOP/traces/global/plain-file.zoneinfo
[ -s "$T" ] && [ -s "$Z" ] || { skip "no plain global recording in traces/global"; finish; }

"$RR" compare --episodes differing -q "$T" -o "$TMP/no.json" >"$TMP/no.txt" 2>&1
check_eq "without the copy: compare exits 0" 0 "$?"
nk=$(jq '.summary.by_kind.kswapd.skipped' "$TMP/no.json")
check "without the copy: kswapd runs are in it" test "$nk" -gt 50
check_eq "... none replayed" 0 "$(jq '.summary.by_kind.kswapd.replayed' "$TMP/no.json")"
check "... the reason names --zoneinfo" grep -q 'give a copy of the machine.s /proc/zoneinfo with --zoneinfo' "$TMP/no.txt"

"$RR" compare --episodes differing -q --all-episodes --zoneinfo "$Z" "$T" -o "$TMP/z.json" >"$TMP/z.txt" 2>&1
check_eq "with the copy: compare exits 0" 0 "$?"
check_eq "... every kswapd run replayed" "$nk" "$(jq '.summary.by_kind.kswapd.replayed' "$TMP/z.json")"
check_eq "... none skipped" 0 "$(jq '.summary.by_kind.kswapd.skipped' "$TMP/z.json")"
check "... diff valid against the JSON Schema" /usr/bin/python3 "$TOP/tests/validate-schema.py" \
	"$TOP/schema/reclaim-replay-diff.schema.json" "$TMP/z.json"
check_eq "... every kswapd run's nr_to_reclaim marked as the copy's" "kswapd-zoneinfo-copy" \
	"$(jq -r '[.episodes[] | select(.kind == "kswapd") | .nr_to_reclaim_basis] | unique | join(",")' "$TMP/z.json")"
# kswapd_shrink_node(): sum over the zones up to the run's highest zone of
# max(high_wmark_pages(), SWAP_CLUSTER_MAX), of managed zones; the prefix
# sums in zone order, from the copy itself
sums=$(awk '
	/^Node [0-9]+, zone/ { if (z) { if (m > 0) s += (h > 32 ? h : 32); print s }; z = 1; m = 0; h = 0; next }
	$1 == "high" && NF == 2 { h = $2 }
	$1 == "managed" && NF == 2 { m = $2 }
	END { if (z) { if (m > 0) s += (h > 32 ? h : 32); print s } }' "$Z" | sort -u | tr '\n' ' ')
got=$(jq -r '[.episodes[] | select(.kind == "kswapd") | .nr_to_reclaim] | unique | .[]' "$TMP/z.json" | tr '\n' ' ')
check "... its values are sums of the copy's zones' max(high, 32) ($got in $sums)" \
	sh -c "for v in $got; do case ' $sums' in *\" \$v \"*) ;; *) exit 1 ;; esac; done"
check "... judged calls exact" jq -e '.fidelity.decisions_checked > 100 and .fidelity.mismatched == 0' "$TMP/z.json"
# every memcg is older than the trace and no snapshot read it: every
# judged call rests on lower bounds of its sizes, and the output says so
check_eq "... every judged call counted as on lower-bound sizes" \
	"$(jq '.fidelity.decisions_checked' "$TMP/z.json")" \
	"$(jq '.fidelity.decisions_on_lower_bound_sizes' "$TMP/z.json")"
check "... the time model counts the direct calls" \
	jq -e '.time_model.calls_direct_or_node == .summary.by_kind.direct.replayed and .time_model.fitted' "$TMP/z.json"
check "... and says so" grep -q 'of them try_to_free_pages() or __node_reclaim()' "$TMP/z.txt"

"$RR" report -q --fidelity --zoneinfo "$Z" "$T" >"$TMP/r.txt" 2>&1
check_eq "report --fidelity --zoneinfo exits 0" 0 "$?"
check "... replays every episode" grep -q '(0 skipped)' "$TMP/r.txt"
check "... its notes name the copy" grep -q "zone watermarks of $Z (--zoneinfo" "$TMP/r.txt"
check "... it says the judged calls rest on lower-bound sizes" grep -q 'on lower-bound sizes  *[0-9]' "$TMP/r.txt"

# bad copies: the file named, no output file
check_fails "a missing --zoneinfo file" 1 "$TMP/nope: cannot open" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/nope" "$T" -o "$TMP/bad.json"
check "... no output file" test ! -e "$TMP/bad.json"
printf 'MemTotal: 1 kB\n' >"$TMP/foreign"
check_fails "a file that is no zoneinfo" 1 "$TMP/foreign: not a copy of /proc/zoneinfo" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/foreign" "$T" -o "$TMP/bad.json"
check "... no output file" test ! -e "$TMP/bad.json"
check_fails "a directory" 1 "$TMP: not a regular file" \
	"$RR" report -q --zoneinfo "$TMP" "$T"
mkfifo "$TMP/fifo"
check_fails "a FIFO (no writer): refused at once, no wait" 1 "$TMP/fifo: not a regular file" \
	timeout 20 "$RR" report -q --zoneinfo "$TMP/fifo" "$T"
# values the replay cannot use: the copy named, with the zone and the line
sed '0,/^ *high /s/high .*/high -5/' "$Z" >"$TMP/neg"
check_fails "a negative high watermark: the copy and its zone named" 1 \
	"$TMP/neg: node 0, zone DMA: high is not a number in range" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/neg" "$T" -o "$TMP/bad.json"
check "... no output file" test ! -e "$TMP/bad.json"
grep -v '^ *high ' "$Z" >"$TMP/nohigh"
check_fails "no high line" 1 "$TMP/nohigh: node 0, zone DMA: no high line" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/nohigh" "$T"
sed 's/^Node 0,/Node -5,/' "$Z" >"$TMP/negnode"
check_fails "a negative node id" 1 "$TMP/negnode: line 1: a node id out of range" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/negnode" "$T"
{ printf '%01023d%s\n' 0 'Node 0, zone Normal'; cat "$Z"; } >"$TMP/long"
check_fails "a line longer than any zoneinfo prints" 1 "$TMP/long: line 1: a line longer than 1023 bytes" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/long" "$T"
# hostile: a cut copy, a node id beyond any machine's, huge numbers
head -c 700 "$Z" >"$TMP/cut"
check_fails "a copy cut before its first managed zone" 1 "$TMP/cut: not a copy of /proc/zoneinfo" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/cut" "$T" -o "$TMP/cut.json"
head -c 4000 "$Z" >"$TMP/cut2"
"$RR" compare --episodes differing -q --zoneinfo "$TMP/cut2" "$T" -o "$TMP/cut2.json" >/dev/null 2>&1
rc=$?
check "a copy cut in a later zone: exit 0 or 1, never a crash ($rc)" test "$rc" -le 1
sed 's/^Node 0,/Node 99999999,/' "$Z" >"$TMP/far"
check_fails "a node id of 99999999" 1 "$TMP/far: line 1: a node id out of range" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/far" "$T" -o "$TMP/far.json"
sed 's/^\( *high\) .*/\1 99999999999999999999999/' "$Z" >"$TMP/huge"
check_fails "watermarks past 2^64" 1 "$TMP/huge: node 0, zone DMA: high is not a number in range" \
	"$RR" compare --episodes differing -q --zoneinfo "$TMP/huge" "$T" -o "$TMP/huge.json"
finish
