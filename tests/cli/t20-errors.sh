#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input: a clear one-line error naming the file, exit 1 (2 for usage
# errors), no crash, and no output file left behind.
. "$(dirname "$0")/../lib.sh"

trace=$TOP/traces/file-limit.dat

check_fails "missing trace file" 1 "^reclaim-replay: $TMP/nope.dat: cannot open: No such file" \
	"$RR" compare "$TMP/nope.dat"
printf 'this is not a trace\n' >"$TMP/text.dat"
check_fails "text file instead of a trace" 1 "^reclaim-replay: $TMP/text.dat: not a trace.dat file" \
	"$RR" compare "$TMP/text.dat"
: >"$TMP/empty.dat"
check_fails "empty file" 1 "^reclaim-replay: $TMP/empty.dat: not a trace.dat file" \
	"$RR" compare "$TMP/empty.dat"
check_fails "directory" 1 "^reclaim-replay: $TMP: is a directory" "$RR" compare "$TMP"
head -c 5000 "$trace" >"$TMP/truncated.dat"
check_fails "truncated trace" 1 "^reclaim-replay: $TMP/truncated.dat: " \
	"$RR" compare "$TMP/truncated.dat" -o "$TMP/t.json"
check_eq "truncated trace: no output file" "" "$(ls "$TMP" | grep '^t.json' || true)"
# a trace with no reclaim events: convert keeps only headers of a
# different event set is not possible with trace-cmd, so cut the data off
head -c 2000000 "$TOP/traces/anon-swap.dat" >"$TMP/cut.dat"
"$RR" compare -q "$TMP/cut.dat" >"$TMP/cut.out" 2>"$TMP/cut.err"
rc=$?
check_eq "data cut mid-file: exit 0 or 1, never a crash" "ok" \
	"$([ $rc -eq 0 ] || [ $rc -eq 1 ] && echo ok || echo "exit $rc")"

check_fails "unknown policy" 1 "^reclaim-replay: bogus: unknown policy" \
	"$RR" compare -q "$trace" -p bogus
check_fails "policy given twice" 1 "policy given twice" \
	"$RR" compare -q "$trace" -p original -p original
check_fails "bad --kernel" 1 "kernel release 'x.y' is not MAJOR.MINOR" \
	"$RR" compare -q "$trace" --kernel x.y
check_fails "output directory missing" 1 "^reclaim-replay: $TMP/no/dir/out.json: cannot create" \
	"$RR" compare -q "$trace" -o "$TMP/no/dir/out.json"
check_eq "failed write leaves no temporary file" "" "$(ls "$TMP/no" 2>/dev/null || true)"

check_fails "no trace given" 2 "no TRACE given" "$RR" compare
check_fails "two traces" 2 "one TRACE at a time" "$RR" compare "$trace" "$trace"
check_fails "unknown option" 2 "unknown option" "$RR" compare --bogus "$trace"
check_fails "bad --swap" 2 "--swap takes auto, yes or no" "$RR" compare --swap maybe "$trace"
check_fails "bad --offline-delay-ms" 2 "--offline-delay-ms takes" \
	"$RR" compare --offline-delay-ms -5 "$trace"
check_fails "unknown command" 2 "'frobnicate' is not a command" "$RR" frobnicate
check_fails "no command" 2 "usage: reclaim-replay" "$RR"

finish
