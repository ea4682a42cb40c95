#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The strict text reader and the kernel a text trace was made on: fields
# that drop an event are counted by event and field (report, JSON); numeric
# lru= and <= v4.10 file= isolates; a trace that starts or ends inside
# reclaim; -1 printed unsigned; compare and report --fidelity ask for
# --kernel (exit 2) when the formats fit releases with different rules.
. "$(dirname "$0")/../lib.sh"

fix=$TOP/tests/fixtures/text
S='nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0'

# -- which kernel -------------------------------------------------------------
check_fails "compare: 5.4 formats fit 5.2 to 5.17, rules change inside: exit 2 naming file, range and rules" 2 \
	"^reclaim-replay: $fix/linux-5.4.txt: the trace does not say which kernel made it; its event formats fit 5.2 to 5.17, .*5.4: a full memcg walk every pass.*\(1ba6fc9af35b\); 5.5: cache trim .*\(b91ac374346b\); 5.6: SCAN_FRACT rounds down for online memcgs \(76073c646f5f\); and 3 more\); give --kernel RELEASE" \
	"$RR" compare --episodes differing -q "$fix/linux-5.4.txt"
check_fails "compare: 4.19 formats fit 4.11 to 5.1 (4.20 rounds up)" 2 \
	"linux-4.19.txt: .*fit 4.11 to 5.1, .*4.20: SCAN_FRACT rounds up for every memcg" \
	"$RR" compare --episodes differing -q "$fix/linux-4.19.txt"
check_fails "compare: 6.6 formats fit 5.18 to 6.6" 2 \
	"linux-6.6.txt: .*fit 5.18 to 6.6, .*5.19: memory.reclaim exists.*6.1: .*6.2: .*6.6: " \
	"$RR" compare --episodes differing -q "$fix/linux-6.6.txt"
check_fails "report --fidelity asks too" 2 "linux-5.4.txt: .*fit 5.2 to 5.17" \
	"$RR" report -q --fidelity "$fix/linux-5.4.txt"
check "report without --fidelity proceeds" sh -c "'$RR' report -q '$fix/linux-5.4.txt' >'$TMP/r54.txt'"
check_eq "report: the header says the range" \
	"$fix/linux-5.4.txt: text trace, kernel 5.17 (assumed: its event formats fit 5.2 to 5.17)" \
	"$(head -1 "$TMP/r54.txt")"
check "report: the assumption names the rule changes" \
	grep -q "fit 5.2 to 5.17, inside which the model's rules change (5.4: a full memcg walk" "$TMP/r54.txt"
check "compare --kernel 5.4 replays it" sh -c \
	"'$RR' compare --episodes differing -q --kernel 5.4 '$fix/linux-5.4.txt' -o '$TMP/c54.json' >/dev/null"
check_eq "compare --kernel: the release is the option's" "5.4 option" \
	"$(jq -r '"\(.input.kernel_release) \(.input.kernel_release_source)"' "$TMP/c54.json")"
# <= v4.10 (file=): 4.0 to 4.10, one rule set: compare needs no --kernel
cat >"$TMP/old.txt" <<TXT
  a-1 [000] .... 1.000000: mm_vmscan_memcg_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_KERNEL
  a-1 [000] .... 1.000010: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 file=1
  a-1 [000] .... 1.000020: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=31 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
  a-1 [000] .... 1.000030: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=16 nr_scanned=16 nr_skipped=0 nr_taken=16 file=1
  a-1 [000] .... 1.000040: mm_vmscan_memcg_reclaim_end: nr_reclaimed=31
TXT
check "formats of one rule set (4.0 to 4.10): compare runs without --kernel" sh -c \
	"'$RR' compare --episodes differing -q '$TMP/old.txt' -o '$TMP/old.json' >/dev/null"
check_eq "... modelled as 4.10, assumed, and said so" "4.10 assumed true" \
	"$(jq -r '"\(.input.kernel_release) \(.input.kernel_release_source) \(.input.assumptions | any(test("fit 4.0 to 4.10, the same rules of the model throughout")))"' "$TMP/old.json")"
check "file= isolates: report --json" sh -c "'$RR' report -q --json '$TMP/old.txt' >'$TMP/old-r.json' 2>/dev/null"
check_eq "file=1 + shrink_inactive: inactive_file; file=1 without one: dropped, counted" \
	'inactive_file 1 32 31|mm_vmscan_lru_isolate file list_unknown 1 true|["lost_events"]' \
	"$(jq -r '[(.episodes[0].cells[] | "\(.lru) \(.batches) \(.scanned_pages) \(.reclaimed_pages)"),
		(.events.field_problems[] | select(.field == "file") | "\(.event) \(.field) \(.problem) \(.count) \(.dropped)"),
		(.episodes[0].flags | tojson)] | join("|")' "$TMP/old-r.json")"

# -- a trace cut inside reclaim, -1 printed unsigned ---------------------------
cut=$fix/cut-mid-episode.txt
check "cut trace: report exits 0" sh -c "'$RR' report -q '$cut' >'$TMP/cut.txt' 2>'$TMP/cut.err'"
check "cut trace: report --json exits 0" sh -c "'$RR' report -q --json '$cut' >'$TMP/cut.json' 2>/dev/null"
check_eq "cut trace: memcg 3 (1 no_begin, 2 no_end, 1 lost), direct 1 (no_begin)" \
	"3 0 1 2 1|1 0 1 0 0" \
	"$(jq -r '[.episodes_by_kind.memcg, .episodes_by_kind.direct] | map("\(.count) \(.complete) \(.no_begin) \(.no_end) \(.lost_events)") | join("|")' "$TMP/cut.json")"
check_eq "cut trace: the call begun before the trace: its end's 58 pages, lru=2 read as inactive_file" \
	'4242 ["no_begin"] 58 inactive_file 10 2 64 58' \
	"$(jq -r '.episodes[0] | "\(.pid) \(.flags | tojson) \(.nr_reclaimed) \(.cells[0].lru) \(.cells[0].priority) \(.cells[0].batches) \(.cells[0].scanned_pages) \(.cells[0].reclaimed_pages)"' "$TMP/cut.json")"
check_eq "cut trace: the end of 4294967295 pages is unknown, not 4.29 G pages: no nr_reclaimed" \
	'4242 ["no_end","lost_events"] null 32' \
	"$(jq -r '.episodes[2] | "\(.pid) \(.flags | tojson) \(.nr_reclaimed) \(.cells[0].reclaimed_pages)"' "$TMP/cut.json")"
check_eq "cut trace: field problems by event and field" \
	'mm_vmscan_memcg_reclaim_end nr_reclaimed minus_one_unsigned 1|mm_vmscan_lru_isolate lru missing 1' \
	"$(jq -r '[.events.field_problems[] | "\(.event) \(.field) \(.problem) \(.count)"] | join("|")' "$TMP/cut.json")"
check_eq "cut trace: 2 events dropped" 2 "$(jq '.events.text_malformed_events' "$TMP/cut.json")"
check "cut trace: report prints the counts" grep -qx \
	'  mm_vmscan_memcg_reclaim_end: nr_reclaimed -1 printed unsigned (unknown) 1' "$TMP/cut.txt"
check "cut trace: ... and the cut line's" grep -qx '  mm_vmscan_lru_isolate: lru missing 1' "$TMP/cut.txt"
check "cut trace: report names the shrink event without its isolate" grep -q \
	'^LRU batches without their mm_vmscan_lru_isolate .*: 1$' "$TMP/cut.txt"
check_fails "cut trace: compare asks for --kernel (5.2 to 6.6)" 2 "cut-mid-episode.txt: .*fit 5.2 to 6.6" \
	"$RR" compare --episodes differing -q "$cut"
check "cut trace: compare --kernel 6.6 runs" sh -c \
	"'$RR' compare --episodes differing -q --kernel 6.6 '$cut' -o '$TMP/cut-c.json' >/dev/null 2>&1"
check_eq "cut trace: compare's input.field_problems" \
	'minus_one_unsigned 1 true|missing 1 true' \
	"$(jq -r '[.input.field_problems[] | "\(.problem) \(.count) \(.dropped)"] | join("|")' "$TMP/cut-c.json")"
check_eq "cut trace: compare counts the shrink event without isolate" 1 \
	"$(jq '.input.stats.shrink_without_isolate' "$TMP/cut-c.json")"
check "cut trace: compare's JSON valid against the diff schema" \
	/usr/bin/python3 "$TOP/tests/validate-schema.py" "$TOP/schema/reclaim-replay-diff.schema.json" "$TMP/cut-c.json"
check "cut trace: report's JSON valid against the report schema" \
	/usr/bin/python3 "$TOP/tests/validate-schema.py" "$TOP/schema/reclaim-replay-report.schema.json" "$TMP/cut.json"

# -- fields: numeric lru, flags mismatch, missing priority, cut values --------
cat >"$TMP/fields.txt" <<TXT
  a-1 [000] .... 1.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
  a-1 [000] .... 1.000010: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=8 nr_scanned=8 nr_skipped=0 nr_taken=8 lru=0
  a-1 [000] .... 1.000020: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=8 $S nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
  a-1 [000] .... 1.000030: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=1
  a-1 [000] .... 1.000040: mm_vmscan_lru_shrink_active: nid=0 nr_taken=32 nr_active=0 nr_deactivated=32 nr_referenced=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
  a-1 [000] .... 1.000050: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32
  a-1 [000] .... 1.000060: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=3
  a-1 [000] .... 1.000070: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=3 $S nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority= flags=RECLAIM_WB_FILE
  a-1 [000] .... 1.000080: mm_vmscan_memcg_reclaim_end: nr_reclaimed=8
TXT
check "fields: report --json exits 0" sh -c "'$RR' report -q --json '$TMP/fields.txt' >'$TMP/fields.json' 2>/dev/null"
check_eq "fields: lru=0 and no priority: one inactive_anon batch of unknown priority; the rest dropped" \
	'inactive_anon null 1 8 8|["lost_events"]' \
	"$(jq -r '[(.episodes[0].cells[] | "\(.lru) \(.priority) \(.batches) \(.scanned_pages) \(.reclaimed_pages)"), (.episodes[0].flags | tojson)] | join("|")' "$TMP/fields.json")"
check_eq "fields: counted by event and field" \
	'mm_vmscan_lru_shrink_inactive priority missing_kept 1 false|mm_vmscan_lru_isolate lru flags_mismatch 1 true|mm_vmscan_lru_isolate lru missing 1 true|mm_vmscan_lru_shrink_inactive flags line_cut 1 true|mm_vmscan_lru_shrink_inactive priority unparseable 1 true' \
	"$(jq -r '[.events.field_problems[] | "\(.event) \(.field) \(.problem) \(.count) \(.dropped)"] | join("|")' "$TMP/fields.json")"
check_eq "fields: 5 events dropped (the mismatched batch's two, the isolate without lru, two cut lines)" 5 \
	"$(jq '.events.text_malformed_events' "$TMP/fields.json")"

# -- shrink events alone ------------------------------------------------------
grep shrink_inactive "$fix/linux-5.4.txt" >"$TMP/shrink-only.txt"
check "shrink_inactive lines alone are a trace: report exits 0" sh -c \
	"'$RR' report -q '$TMP/shrink-only.txt' >'$TMP/so.txt' 2>/dev/null"
check "... and says they are batches without isolates" grep -q \
	'^LRU batches without their mm_vmscan_lru_isolate .*: 4$' "$TMP/so.txt"

finish
