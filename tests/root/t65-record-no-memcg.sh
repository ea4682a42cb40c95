#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `reclaim-replay record --no-memcg-events` on this kernel (needs root and
# tracefs): a second of page-cache limit reclaim in a cgroup of its own
# recorded as a kernel before 6.13 would give it: no memcg: events, periodic
# snapshots with "tasks" lines naming the reclaiming task's memcg, and
# `report` reads it.  Then the same without the option on a kernel whose
# tracefs has no events/memcg (an empty tmpfs over it, in a mount namespace
# of this test alone): record falls back by itself and says so.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: record needs tracefs and cgroupfs"
	finish
fi
if [ ! -d /sys/kernel/tracing/events/vmscan ]; then
	skip "no tracefs with vmscan events at /sys/kernel/tracing"
	finish
fi
probe_record --no-memcg-events --duration 1
own=$(own_memcg)
cg=rrt65-$$
at_exit "rmdir '$own/$cg' 2>/dev/null"

# a file that is not in the page cache: written with O_DIRECT
dd if=/dev/zero of="$TMP/big" bs=1M count=160 oflag=direct status=none
check "a second of file limit reclaim is recorded without the memcg events" \
	"$RR" record --no-memcg-events --duration 1 --cgroup "$cg" --memory-max 32M -o "$TMP/f.dat" \
	-- sh -c 'while :; do cat "$1" >/dev/null; done' sh "$TMP/big"
cp "$TMP/err" "$TMP/f.err"	# (each check writes $TMP/out and $TMP/err anew)
check "the summary says the periodic snapshots" \
	grep -Eq '^reclaim-replay: memcg events off \(--no-memcg-events\): periodic snapshots every 250 ms: [0-9]+ taken' "$TMP/f.err"
trace-cmd report "$TMP/f.dat" >"$TMP/f.txt" 2>/dev/null
check "trace-cmd report opens it" test -s "$TMP/f.txt"
check "it shows memcg reclaim" grep -q ' mm_vmscan_memcg_reclaim_begin:' "$TMP/f.txt"
check_eq "it has no memcg: events" 0 \
	"$(grep -Ec ' (mod_memcg_lruvec_state|memcg_flush_stats|count_memcg_events|mod_memcg_state):' "$TMP/f.txt")"
check "the events line lists no memcg event" \
	sh -c "grep 'reclaim-replay: events enabled=' '$TMP/f.txt' | grep -v memcg: | grep -q cgroup:cgroup_attach_task"
check "sched_process_fork is recorded, and trace-cmd knows its format" \
	grep -q ' sched_process_fork: *comm=.* child_pid=' "$TMP/f.txt"
check "the meta line says memcg_events=off snapshot_interval_ms=250" \
	grep -q 'reclaim-replay: meta .* memcg_events=off snapshot_interval_ms=250' "$TMP/f.txt"
check_eq "no filters lines" 0 "$(grep -c 'reclaim-replay: filters ' "$TMP/f.txt")"
periodic=$(grep -c 'reclaim-replay: snapshot begin when=periodic' "$TMP/f.txt")
check "periodic snapshots are in it ($periodic)" test "$periodic" -ge 2
check "tasks lines are in it" grep -q 'reclaim-replay: tasks memcg=[0-9]* threads=' "$TMP/f.txt"
# the workload's memcg: its id from the snapshot's memcg line of its path
id=$(sed -n "s/.*reclaim-replay: memcg id=\([0-9]*\) .* path=.*\/$cg\$/\1/p" "$TMP/f.txt" | sort -u)
check "the workload cgroup has one id in the snapshots ($id)" test "$(echo "$id" | wc -w)" = 1
# the tasks that reclaimed its limit (common_pid of the begin events)
reclaimers=$(awk '/ mm_vmscan_memcg_reclaim_begin:/ { n = split($1, a, "-"); print a[n] }' "$TMP/f.txt" | sort -u)
listed=$(sed -n "s/.*reclaim-replay: tasks memcg=$id .* pids=\([0-9,]*\)\$/\1/p" "$TMP/f.txt" | tr ',' '\n' | sort -u)
both=$(comm -12 <(echo "$reclaimers") <(echo "$listed") | wc -l)
check "a reclaiming task is listed in the workload memcg's tasks lines ($both)" test "$both" -ge 1
check "report reads it" "$RR" report "$TMP/f.dat"
cp "$TMP/out" "$TMP/report.txt"
check "report counts its memcg episodes" grep -Eq '^memcg +[1-9]' "$TMP/report.txt"
check "the cgroup is gone" test ! -e "$own/$cg"
check_eq "no instance left" "" "$(stale_instances)"

# (a bug fixed: the formats of -e's systems were not stored, and trace-cmd
# showed their records as [UNKNOWN EVENT])
check "-e sched:sched_process_exec is recorded" \
	"$RR" record -q --duration 1 -e sched:sched_process_exec -o "$TMP/e.dat" -- sh -c '/bin/true; sleep 0.2'
trace-cmd report "$TMP/e.dat" >"$TMP/e.txt" 2>&1
check "trace-cmd reads its records" grep -q ' sched_process_exec: *filename=/bin/true' "$TMP/e.txt"
check_eq "no unknown event" 0 "$(grep -c 'UNKNOWN EVENT' "$TMP/e.txt")"
check_fails "-e memcg with --no-memcg-events is a usage error" 2 "\-e memcg:count_memcg_events asks for one" \
	"$RR" record --no-memcg-events -e memcg:count_memcg_events --duration 1 -o "$TMP/x.dat"

# a kernel without memcg events: events/memcg hidden under an empty tmpfs
# in a mount namespace of this test alone (nothing outside it changes)
if ! unshare -m --propagation private true 2>/dev/null; then
	skip "no private mount namespace (unshare -m): the fallback is not tested"
	finish
fi
check "with events/memcg hidden, record runs" unshare -m --propagation private sh -c '
	mount -t tmpfs -o size=4k,mode=0755 rrt65 /sys/kernel/tracing/events/memcg &&
	exec "$1" record --duration 1 -o "$2"' sh "$RR" "$TMP/absent.dat"
cp "$TMP/err" "$TMP/absent.err"
check "it says so" grep -q '^reclaim-replay: note: this kernel has no memcg: events' "$TMP/absent.err"
check "the summary says why" \
	grep -q 'memcg events off (this kernel has none): periodic snapshots every 250 ms' "$TMP/absent.err"
trace-cmd report "$TMP/absent.dat" >"$TMP/absent.txt" 2>/dev/null
check "the meta line says memcg_events=absent" grep -q 'reclaim-replay: meta .* memcg_events=absent' "$TMP/absent.txt"
check_eq "it has no memcg: events" 0 \
	"$(grep -Ec ' (mod_memcg_lruvec_state|memcg_flush_stats|count_memcg_events|mod_memcg_state):' "$TMP/absent.txt")"
check "it has tasks lines" grep -q 'reclaim-replay: tasks memcg=' "$TMP/absent.txt"
check "events/memcg is back outside the namespace" test -d /sys/kernel/tracing/events/memcg/mod_memcg_lruvec_state
check_eq "no instance left" "" "$(stale_instances)"
finish
