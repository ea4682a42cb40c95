#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `reclaim-replay record` when things go wrong (issue #17): SIGINT and
# SIGTERM, a workload that crashes, fails, ignores SIGTERM or leaves tasks
# and cgroups behind, a full disk, a file size limit, the output's
# directory removed mid-run, and each missing privilege or kernel facility
# said exactly.  Each case checks the exit status, the message naming the
# file, that what was saved opens in `reclaim-replay report` with events
# in it, and at the end that none of our instances or cgroups is left and
# the top-level tracing state and swap are as they were.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: record needs tracefs and cgroupfs"
	finish
fi
if ! grep -qw tracefs /proc/filesystems || [ ! -d /sys/kernel/tracing/instances ]; then
	skip "no tracefs at /sys/kernel/tracing"
	finish
fi
tr=/sys/kernel/tracing
own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
own=/sys/fs/cgroup/memory${own%/}
if [ ! -d "$own" ]; then
	skip "no cgroup v1 memory hierarchy at /sys/fs/cgroup/memory"
	finish
fi
cg=rrt62-$$
ulimit -c 0	# the workloads' faults leave no core files
# the top level's events (ours are vmscan, memcg, cgroup), tracing_on and
# tracer.  (Not buffer_size_kb: the kernel expands it on others' use.)
top_state() {
	cat $tr/set_event $tr/tracing_on $tr/current_tracer $tr/events/vmscan/enable \
		$tr/events/memcg/enable $tr/events/cgroup/enable 2>&1 | md5sum
}
top_before=$(top_state)
swap_before=$(swapon --show --noheadings | md5sum)
mkdir "$TMP/small" "$TMP/fallback"
at_exit "umount '$TMP/small' 2>/dev/null; for d in '$own/$cg'/*/ '$own/$cg'; do [ -d \"\$d\" ] && { cat \"\$d/cgroup.procs\" | xargs -r kill -9; sleep 0.2; rmdir \"\$d\"; }; done 2>/dev/null"

# rec ARGS...: record in the background, so that its pid (its instance's
# name) is known; stderr goes to $TMP/err.  run ARGS...: the same, waited
# for, its exit status in $rc.  (A command that sets up first must exec.)
pids=
rec() {
	"$RR" record "$@" >"$TMP/out" 2>"$TMP/rec.err" &
	last=$!
	pids="$pids $last"
}
run() {
	"$@" >"$TMP/out" 2>"$TMP/rec.err" &
	last=$!
	pids="$pids $last"
	wait $last
	rc=$?
}
# wait_until CMD...: poll CMD for up to 30 s (a recorder built with
# sanitizers on a loaded machine takes over a second to set up: a signal
# sent after a fixed sleep found CMD not yet ready)
wait_until() {
	local i
	for i in $(seq 300); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "    | waited 30 s for: $*"
	return 1
}
# recording: the instance of the recorder $last has its events on
recording() { [ "$(cat "$tr/instances/reclaim-replay-$last/tracing_on")" = 1 ] &&
	[ "$(cat "$tr/instances/reclaim-replay-$last/events/vmscan/enable")" = 1 ]; }
# in_cgroup DIR COMM: a task named COMM is in the cgroup DIR
in_cgroup() {
	local p
	for p in $(cat "$1/cgroup.procs"); do
		[ "$(cat "/proc/$p/comm")" = "$2" ] && return 0
	done
	return 1
}
said() { grep -Eq -- "$1" "$TMP/rec.err" || { sed 's/^/    | /' "$TMP/rec.err" | head -5; return 1; }; }
events() { "$RR" report --json "$1" 2>/dev/null | jq -r '.input.stats.events // 0'; }

# 1. SIGINT ends a recording of neither CMD nor --duration normally
rec -q -o "$TMP/int.dat"
wait_until recording
sleep 0.5
kill -INT $last
wait $last; rc=$?
check_eq "SIGINT with no CMD: exit 0" 0 "$rc"
check "SIGINT with no CMD: the trace has events ($(events "$TMP/int.dat"))" test "$(events "$TMP/int.dat")" -gt 0

# 2. SIGTERM cuts a workload short: trace kept, exit 128 + 15
rec -q --cgroup "$cg" -o "$TMP/term.dat" -- sleep 30
wait_until in_cgroup "$own/$cg" sleep
sleep 0.5
kill -TERM $last
wait $last; rc=$?
check_eq "SIGTERM with CMD: exit 143" 143 "$rc"
check "SIGTERM: the message names the file and the signal" \
	said "term\.dat: recording stopped by SIGTERM after [0-9.]+ s, before CMD ended"
check "SIGTERM: the trace has events ($(events "$TMP/term.dat"))" test "$(events "$TMP/term.dat")" -gt 0
check "SIGTERM: the cgroup is gone" test ! -e "$own/$cg"

# 3. a workload that ignores SIGTERM cannot hang the recorder (SIGKILL
#    after 3 s), and one that left a task in a cgroup of its own inside
#    ours does not leave the cgroup behind (it did: rmdir failed)
rec -q --cgroup "$cg" -o "$TMP/ign.dat" -- sh -c 'trap "" TERM
	mkdir "$RECLAIM_REPLAY_CGROUP/sub"
	sh -c "echo \$\$ >\"\$RECLAIM_REPLAY_CGROUP/sub/cgroup.procs\"; trap \"\" TERM; exec sleep 60" &
	sleep 30'
# (ready when the task in sub is sleep: it ignored SIGTERM before exec)
wait_until in_cgroup "$own/$cg/sub" sleep
sleep 0.5
t0=$(date +%s%N)
kill -INT $last
wait $last; rc=$?
check_eq "SIGINT, CMD ignores SIGTERM: exit 130" 130 "$rc"
t1=$(date +%s%N)
check "it ended within 6 s ($(( (t1 - t0) / 1000000 )) ms)" test $(( (t1 - t0) / 1000000 )) -lt 6000
check "it says CMD was killed" said "ign\.dat: recording stopped by SIGINT .*outlived SIGTERM"
check "the trace has events" test "$(events "$TMP/ign.dat")" -gt 0
check "the cgroup and the one CMD made in it are gone" test ! -e "$own/$cg"

# 4. the workload crashes or fails: trace kept, exit 3, said
run "$RR" record -q -o "$TMP/segv.dat" -- sh -c 'sleep 0.3; kill -SEGV $$'
check_eq "CMD killed by SIGSEGV: exit 3" 3 "$rc"
check "it says so, naming the file" said "segv\.dat: sh was killed by SIGSEGV"
check "the trace has events" test "$(events "$TMP/segv.dat")" -gt 0
run "$RR" record -q -o "$TMP/kill.dat" -- sh -c 'sleep 0.3; kill -KILL $$'
check_eq "CMD killed by SIGKILL: exit 3" 3 "$rc"
check "it says so" said "kill\.dat: sh was killed by SIGKILL"
check "the trace has events" test "$(events "$TMP/kill.dat")" -gt 0
run "$RR" record -q -o "$TMP/exit.dat" -- sh -c 'sleep 0.3; exit 7'
check_eq "CMD exits 7: exit 3" 3 "$rc"
check "it says so" said "exit\.dat: sh failed \(exit status 7\)"
check "the trace has events" test "$(events "$TMP/exit.dat")" -gt 0
check_fails "a CMD that cannot run is an error, with nothing recorded" 1 \
	"/nonexistent-cmd: cannot run: No such file or directory" \
	"$RR" record -q -o "$TMP/nf.dat" -- /nonexistent-cmd
check "no trace for it" test ! -e "$TMP/nf.dat"

# 5. the disk fills (a 1 MiB tmpfs): the recording stops at once, the
#    trace keeps what fits, no temporary file is left
#    The workload makes the events itself (page cache read again and again
#    under an 8 MiB limit): a quiet machine gives too few to fill anything.
truncate -s 64M "$TMP/big"
churn="while :; do cat '$TMP/big' >/dev/null; done"
at_exit "for d in '$own/$cg-full' '$own/$cg-fsize'; do [ -d \"\$d\" ] && { cat \"\$d/cgroup.procs\" | xargs -r kill -9; sleep 0.2; rmdir \"\$d\"; }; done 2>/dev/null"
if mount -t tmpfs -o size=1m rrt62 "$TMP/small"; then
	t0=$(date +%s%N)
	run "$RR" record -q --duration 15 --cgroup "$cg-full" --memory-max 8M -o "$TMP/small/full.dat" -- sh -c "$churn"
	check_eq "disk full: exit 3" 3 "$rc"
	t1=$(date +%s%N)
	check "it stopped at once (CMD never ends by itself)" test $(( (t1 - t0) / 1000000 )) -lt 8000
	check "it says so, naming the file" \
		said "small/full\.dat: recording stopped after [0-9.]+ s: the disk is full \(No space left on device\)"
	check "the trace has events ($(events "$TMP/small/full.dat"))" test "$(events "$TMP/small/full.dat")" -gt 0
	check_eq "only the trace is left on the disk" "full.dat" "$(ls -A "$TMP/small")"
	umount "$TMP/small"
else
	skip "cannot mount a tmpfs"
fi
# a file size limit is the same (the trace itself stays within it)
run sh -c "ulimit -f 512; exec '$RR' record -q --duration 15 --cgroup '$cg-fsize' --memory-max 8M -o '$TMP/fsize.dat' -- sh -c \"$churn\""
check_eq "ulimit -f: exit 3" 3 "$rc"
check "it says so" said "fsize\.dat: recording stopped .*file size limit"
check "the trace is within the limit" test "$(stat -c %s "$TMP/fsize.dat")" -le $((512 * 1024))
check "the trace has events" test "$(events "$TMP/fsize.dat")" -gt 0

# 6. the output's directory is removed mid-run: the trace is saved in
#    $TMPDIR instead, and the exit is 1 (FILE was not written)
mkdir "$TMP/gone"
run env TMPDIR="$TMP/fallback" "$RR" record -q -o "$TMP/gone/x.dat" -- \
	sh -c "sleep 0.5; rm -rf '$TMP/gone'; sleep 0.5"
check_eq "directory removed: exit 1" 1 "$rc"
check "it names the file and where the trace went" \
	said "gone/x\.dat: cannot be written \(No such file or directory.*saved as $TMP/fallback/reclaim-replay-[0-9]+-.*\.dat"
saved=$(ls "$TMP"/fallback/reclaim-replay-*.dat 2>/dev/null | head -1)
check "the saved trace has events" test "$(events "${saved:-/nonexistent}")" -gt 0

# 7. what is missing is said exactly
check_fails "not root" 1 "record needs root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RR" record --duration 1 -o "$TMP/user.dat"
if unshare -m true 2>/dev/null; then
	check_fails "read-only tracefs" 1 "$tr/instances: tracefs is mounted read-only" \
		unshare -m sh -c "mount -o remount,bind,ro $tr && exec '$RR' record -q --duration 1 -o '$TMP/ro.dat'"
	check_fails "tracefs not mounted (and not mounted by us)" 1 "tracefs is not mounted" \
		unshare -m sh -c "awk '\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }' /proc/self/mounts |
			sort -r | xargs -r -n1 umount -l; exec '$RR' record -q --duration 1 -o '$TMP/nomnt.dat'"
	check_fails "memory cgroup not mounted" 1 "/proc/mounts: the memory cgroup controller is not mounted" \
		unshare -m sh -c "umount -l /sys/fs/cgroup/memory && exec '$RR' record -q --duration 1 -o '$TMP/nomem.dat'"
	check "none of them wrote a trace" test ! -e "$TMP/ro.dat" -a ! -e "$TMP/nomnt.dat" -a ! -e "$TMP/nomem.dat"
else
	skip "no unshare -m: read-only and unmounted tracefs and cgroupfs not tried"
fi

# 8. nothing of ours is left, nothing else changed
left=
for p in $pids; do
	[ -e "$tr/instances/reclaim-replay-$p" ] && left="$left reclaim-replay-$p"
done
check_eq "no instance of ours left in $tr/instances" "" "$left"
check_eq "the top-level events, tracing_on and tracer are unchanged" \
	"$top_before" "$(top_state)"
check "no cgroup of ours left" test ! -e "$own/$cg"
check_eq "swap unchanged" "$swap_before" "$(swapon --show --noheadings | md5sum)"
finish
