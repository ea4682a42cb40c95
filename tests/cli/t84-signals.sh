#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A replay stopped by SIGTERM (or SIGINT, SIGHUP) leaves nothing behind: not
# the temporary sibling of its -o file, not the copy of a piped trace, not
# the replays of several traces (the signal is passed on to them), and it
# ends as the signal ends a process (exit 128 + 15).  A plug-in that sleeps
# a minute at its first episode holds the replay where its -o file is begun.
. "$(dirname "$0")/../lib.sh"

SLEEPY=${RR_TEST_PLUGIN_DIR:-$BUILD/tests/plugins}/sleepy.so
[ -f "$SLEEPY" ] || { skip "no $SLEEPY (make $BUILD/tests/plugins/sleepy.so)"; finish; }

# until CMD...: until CMD succeeds, polled every 0.1 s for 10 s at most
until_true() {
	local i
	for i in $(seq 100); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
matching() { compgen -G "$1" | wc -l; }
at_least() { [ "$(matching "$2")" -ge "$1" ]; }	# at_least N GLOB
exactly() { [ "$(matching "$2")" -eq "$1" ]; }		# exactly N GLOB
no_process() { ! pgrep -f -- "$1" >/dev/null; }	# no_process PATTERN
# started PID: a sleeping replay and its children die with the test, also
# when a check fails before the test stops them
started() { at_exit "pkill -KILL -P $1 2>/dev/null; kill -KILL $1 2>/dev/null"; }

mkdir -p "$TMP/one"
"$RR" compare -q -p "$SLEEPY" "$TOP/traces/file-limit.dat" -o "$TMP/one/out.json" \
	>/dev/null 2>&1 &
pid=$!
started "$pid"
check "one trace: its -o file is begun" until_true at_least 1 "$TMP/one/out.json.tmp.*"
kill -TERM "$pid"
wait "$pid"
check_eq "one trace: SIGTERM ends it with 143" 143 "$?"
check_eq "one trace: nothing left beside -o" "" "$(ls -A "$TMP/one")"

# a piped trace is copied to TMPDIR first; a writer that never writes
# holds the copy open: this shell, whose read-write open of the FIFO does
# not block (a background writer could open it only after compare had read
# an empty pipe: "not a trace: empty", under load)
mkdir -p "$TMP/pipe"
mkfifo "$TMP/pipe.fifo"
exec 9<>"$TMP/pipe.fifo"
TMPDIR=$TMP/pipe "$RR" compare -q "$TMP/pipe.fifo" >/dev/null 2>&1 &
pid=$!
started "$pid"
check "a piped trace: its copy is begun" until_true at_least 1 "$TMP/pipe/reclaim-replay-input.*"
kill -TERM "$pid"
wait "$pid"
check_eq "a piped trace: SIGTERM ends it with 143" 143 "$?"
check_eq "a piped trace: its copy is removed" "" "$(ls -A "$TMP/pipe")"
exec 9>&-

mkdir -p "$TMP/many"
"$RR" compare -q -j 2 -p "$SLEEPY" "$TOP/traces/file-limit.dat" "$TOP/traces/anon-swap.dat" \
	"$TOP/traces/offline-child.dat" -o "$TMP/many" >/dev/null 2>&1 &
pid=$!
started "$pid"
check "several traces: both replays' -o files are begun" until_true at_least 2 "$TMP/many/*.tmp.*"
kill -TERM "$pid"
wait "$pid"
check_eq "several traces: SIGTERM ends it with 143" 143 "$?"
check "several traces: the replays are stopped too" until_true no_process "$TMP/many"
check_eq "several traces: nothing left in the -o directory" "" "$(ls -A "$TMP/many")"

# a replay killed outright (SIGKILL, the OOM killer) cannot clean up: the
# parent removes the sibling of its -o file
mkdir -p "$TMP/kill"
"$RR" compare -q -j 2 -p "$SLEEPY" "$TOP/traces/file-limit.dat" "$TOP/traces/anon-swap.dat" \
	-o "$TMP/kill" >/dev/null 2>"$TMP/kill.err" &
pid=$!
started "$pid"
check "SIGKILL: both replays' -o files are begun" until_true at_least 2 "$TMP/kill/*.tmp.*"
victim=$(pgrep -P "$pid" | head -1)
kill -KILL "$victim"
check "SIGKILL of one replay: its -o sibling is removed, the other's stays" \
	until_true exactly 1 "$TMP/kill/*.tmp.*"
kill -TERM "$pid"
wait "$pid"
check_eq "  then SIGTERM: 143, nothing left" "143 " "$? $(ls -A "$TMP/kill")"

# a plug-in that faults: the replay removes its -o sibling before it dies
# (not under AddressSanitizer, whose own SIGSEGV handler stays in charge)
SEGV=${SLEEPY%/*}/segv.so
if ldd "$RR" 2>/dev/null | grep -q libasan; then
	skip "a faulting plug-in's clean-up: $RR is built with AddressSanitizer"
else
	mkdir -p "$TMP/segv"
	(ulimit -c 0; "$RR" compare -q -p "$SEGV" "$TOP/traces/file-limit.dat" -o "$TMP/segv/x.json" \
		>/dev/null 2>&1; exit $?) 2>/dev/null
	check_eq "a plug-in's SIGSEGV: 139, nothing left beside -o" "139 " "$? $(ls -A "$TMP/segv")"
fi
finish
