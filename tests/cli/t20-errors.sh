#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input: a clear one-line error naming the file, exit 1 (2 for usage
# errors), no crash, and no output file left behind.
. "$(dirname "$0")/../lib.sh"

trace=$TOP/traces/file-limit.dat

check_fails "missing trace file" 1 "^reclaim-replay: $TMP/nope.dat: cannot open: No such file" \
	"$RR" compare "$TMP/nope.dat"
printf 'this is not a trace\n' >"$TMP/text.dat"
check_fails "text file instead of a trace" 1 "^reclaim-replay: $TMP/text.dat: not a trace: neither a trace.dat" \
	"$RR" compare "$TMP/text.dat"
: >"$TMP/empty.dat"
check_fails "empty file" 1 "^reclaim-replay: $TMP/empty.dat: not a trace: empty" \
	"$RR" compare "$TMP/empty.dat"
check_fails "directory" 1 "^reclaim-replay: $TMP: is a directory" "$RR" compare "$TMP"
head -c 5000 "$trace" >"$TMP/truncated.dat"	# a v6 file of record
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
check_fails "policy given twice" 2 "policy 'original' given twice" \
	"$RR" compare -q "$trace" -p original -p original
# a policy spec names the policy in the JSON and the table: UTF-8 without
# control characters (a plug-in file named with a surrogate went into
# --jsonl's lines raw, exit 0; an ESC sequence recoloured the table)
check_fails "policy spec not UTF-8" 2 "policy spec '$TMP/x\\\\xed\\\\xbf\\\\xbf' is not UTF-8" \
	"$RR" compare -q "$trace" -p "$TMP/x$(printf '\xed\xbf\xbf')"
check_fails "policy spec with a control character" 2 "policy spec '$TMP/y\\\\x1b\\[31m' holds a control character" \
	"$RR" compare -q "$trace" -p "$TMP/y$(printf '\x1b')[31m"
check_fails "--jsonl --episodes top" 2 "--jsonl streams --episodes differing or all, not top" \
	"$RR" compare -q "$trace" --jsonl --episodes top
check_fails "--jsonl --top" 2 "--top ranks the table's and -o's episodes; --jsonl has neither" \
	"$RR" compare -q "$trace" --jsonl --top 3
check_fails "bad --kernel" 2 "--kernel takes a release MAJOR.MINOR\[...\] of 4.0 or later, at most 64 characters, not 'x.y'" \
	"$RR" compare -q "$trace" --kernel x.y
check_fails "output directory missing" 1 "^reclaim-replay: $TMP/no/dir/out.json: cannot create" \
	"$RR" compare -q "$trace" -o "$TMP/no/dir/out.json"
check_eq "failed write leaves no temporary file" "" "$(ls "$TMP/no" 2>/dev/null || true)"

check_fails "no trace given" 2 "no TRACE given" "$RR" compare
check_fails "unknown option" 2 "unknown option" "$RR" compare --bogus "$trace"
check_fails "bad --swap" 2 "--swap takes auto, yes or no" "$RR" compare --swap maybe "$trace"
check_fails "bad --offline-delay-ms" 2 "--offline-delay-ms takes" \
	"$RR" compare --offline-delay-ms -5 "$trace"
# regressions from a breakage hunt: each was a crash, a hang, data loss or
# a second error line
cp "$trace" "$TMP/own.dat"
check_fails "-o onto the input trace is refused" 1 "^reclaim-replay: $TMP/own.dat: is the input trace" \
	"$RR" compare -q "$TMP/own.dat" -o "$TMP/own.dat"
check_eq "the input trace is intact" "$(md5sum <"$trace")" "$(md5sum <"$TMP/own.dat")"
# (the v7 file of trace-cmd extract: libtracecmd double-frees on it)
head -c 30 "$TOP/traces/extract-file-limit.dat" >"$TMP/head30.dat"
check_fails "header cut at 30 bytes (libtracecmd double free)" 1 \
	"^reclaim-replay: $TMP/head30.dat: corrupt or truncated trace file" \
	"$RR" compare -q "$TMP/head30.dat"
if trace-cmd convert -i "$trace" --file-version 6 -o "$TMP/v6.dat" >/dev/null 2>&1; then
	head -c -1 "$TMP/v6.dat" >"$TMP/v6cut.dat"
	check_fails "v6 file short by one byte (libtracecmd SIGSEGV)" 1 \
		"^reclaim-replay: $TMP/v6cut.dat: corrupt or truncated trace file" \
		"$RR" compare -q "$TMP/v6cut.dat"
fi
mkfifo "$TMP/fifo"
check_fails "a FIFO without a writer as TRACE fails at once (reads empty)" 1 "^reclaim-replay: $TMP/fifo: not a trace: empty" \
	timeout 10 "$RR" compare -q "$TMP/fifo"
for spec in + original+ +original original++cluster-cap; do
	check_fails "policy spec '$spec' is a usage error" 2 "has an empty component" \
		"$RR" compare -q "$trace" -p "$spec"
done
check_fails "missing option argument: one message" 2 "^reclaim-replay compare: option '-o' needs an argument$" \
	"$RR" compare "$trace" -o
check_eq "missing option argument: two lines (error, hint)" 2 "$(wc -l <"$TMP/err")"
check_fails "empty -o" 2 "-o needs a file name" "$RR" compare "$trace" -o ""
check_fails "empty TRACE" 2 "empty TRACE name" "$RR" compare ""
if [ -w /dev/full ]; then
	check_fails "-o - to a full disk: one error line" 1 "^reclaim-replay: <stdout>: write failed" \
		sh -c "'$RR' compare -q '$trace' -o - >/dev/full"
	check_eq "-o - to a full disk: said once" 1 "$(wc -l <"$TMP/err")"
	check_fails "--help to a full disk fails" 1 "write failed" sh -c "'$RR' --help >/dev/full"
fi

check_fails "unknown command" 2 "'frobnicate' is not a command" "$RR" frobnicate
check_fails "no command" 2 "usage: reclaim-replay" "$RR"

# a file size limit: an error naming -o's file, exit 1, nothing left (the
# process was killed by SIGXFSZ with its temporary file behind; and the
# error named no file)
mkdir -p "$TMP/fsz"
(ulimit -f 20; "$RR" compare -q "$TOP/traces/anon-swap.dat" -o "$TMP/fsz/x.json" >/dev/null 2>"$TMP/fsz.err")
check_eq "ulimit -f: exit 1, nothing left" "1 " "$? $(ls -A "$TMP/fsz")"
check "  and the error names the file" grep -q "fsz/x.json: cannot write its temporary spool: File too large" "$TMP/fsz.err"

check_fails "report --json onto a full device: exit 1, said" 1 \
	"<stdout>: write failed: No space left on device" \
	sh -c "'$RR' report --json '$trace' >/dev/full"

# a policy that cannot load fails before the input is read: a pipe whose
# writer is still to write is not waited for (it was, whole, first)
mkfifo "$TMP/early.fifo"
sleep 30 >"$TMP/early.fifo" &
at_exit "kill $! 2>/dev/null"
timeout 10 "$RR" compare -q -p ./nosuch.so "$TMP/early.fifo" >/dev/null 2>"$TMP/early.err"
check_eq "-p ./nosuch.so with a pipe that is still open: exit 1 at once" 1 "$?"
check "  and the error names the plug-in" grep -q "nosuch.so: cannot load policy" "$TMP/early.err"

finish
