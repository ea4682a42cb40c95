#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `reclaim-replay record` on this kernel (needs root and tracefs): a file
# read and an anonymous workload with a swap file under a small limit in a
# cgroup of its own; the trace opens in trace-cmd report, holds the
# snapshot markers, replays, and scores; SIGINT and SIGKILL mid-run leave
# nothing behind once the next run has started.
. "$(dirname "$0")/../lib.sh"

need_root_tracefs
probe_record --duration 1
own=$(own_memcg)
cg=rrtest-$$
at_exit "rmdir '$own/$cg' 2>/dev/null; swapoff '$TMP/swap' 2>/dev/null"

# a file that is not in the page cache: written with O_DIRECT
dd if=/dev/zero of="$TMP/big" bs=1M count=160 oflag=direct status=none
check "file read under a 32M limit is recorded" \
	"$RR" record -q --cgroup "$cg" --memory-max 32M -o "$TMP/file.dat" -- sh -c "cat '$TMP/big' >/dev/null"
trace-cmd report "$TMP/file.dat" >"$TMP/file.txt" 2>"$TMP/file.err"
check "trace-cmd report opens it" test -s "$TMP/file.txt"
check "it shows memcg reclaim" grep -q 'mm_vmscan_memcg_reclaim_begin' "$TMP/file.txt"
check "it shows the snapshot markers" grep -q 'reclaim-replay: memcg id=' "$TMP/file.txt"
check "it shows the cgroup's mkdir" grep -q "cgroup_mkdir:.*$cg" "$TMP/file.txt"
check "it stores the events lost per CPU" grep -q 'reclaim-replay: lost cpu0=0' "$TMP/file.txt"
check "it stores the enabled events" grep -q 'reclaim-replay: events enabled=vmscan:\*,memcg:mod_memcg_lruvec_state' "$TMP/file.txt"
check "compare replays it" sh -c "'$RR' compare --episodes differing -q '$TMP/file.dat' -o '$TMP/file.json' >/dev/null"
check_eq "the replay read the recorder's markers" "true" "$(jq '.input.recorder_markers' "$TMP/file.json")"
check "decision exact share >= 0.99" jq -e '.fidelity.exact_share >= 0.99' "$TMP/file.json"
check "the cgroup is gone" test ! -e "$own/$cg"
check_eq "no instance left" "" "$(stale_instances)"
# regression: --duration counted whole seconds of the clock, not elapsed time
t0=$(date +%s%N)
"$RR" record -q --duration 1 -o "$TMP/dur.dat"
t1=$(date +%s%N)
check "--duration 1 records for at least 0.95 s" test $(( (t1 - t0) / 1000000 )) -ge 950
check "--snapshot-interval adds periodic snapshots" \
	"$RR" record -q --duration 1 --snapshot-interval 200 -o "$TMP/periodic.dat"
periodic=$(trace-cmd report "$TMP/periodic.dat" 2>/dev/null | grep -c 'snapshot begin when=periodic')
check "the periodic snapshots are in it ($periodic)" test "$periodic" -ge 2
check_fails "an existing output is not overwritten" 1 "exists \(use --force" \
	"$RR" record -q --duration 1 -o "$TMP/file.dat"

# anonymous memory with a swap file: tail buffers its one endless line
if fallocate -l 256M "$TMP/swap" 2>/dev/null && chmod 600 "$TMP/swap" &&
   mkswap "$TMP/swap" >/dev/null 2>&1 && swapon "$TMP/swap" 2>/dev/null; then
	check "anon workload with swap is recorded" \
		"$RR" record -q --cgroup "$cg" --memory-max 32M --swappiness 100 -o "$TMP/anon.dat" \
		-- sh -c 'head -c 96M /dev/zero | tail -n 1 >/dev/null'
	check "compare replays it" sh -c "'$RR' compare --episodes differing -q '$TMP/anon.dat' -o '$TMP/anon.json' >/dev/null"
	check "anon pages were scanned" \
		jq -e '[.episodes[].recorded.scan_targets[] | select(.lru == "inactive_anon")] | length > 0' "$TMP/anon.json"
	check "swappiness 100 from the snapshot: decision exact share >= 0.99" \
		jq -e '.fidelity.exact_share >= 0.99' "$TMP/anon.json"
	swapoff "$TMP/swap"
else
	skip "cannot enable a swap file here"
fi

# SIGINT: a normal stop with an output; SIGKILL: the next run cleans up
"$RR" record -q --cgroup "$cg" -o "$TMP/int.dat" -- sleep 30 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
check_eq "SIGINT before CMD ended: exit 130 (t62 has the other cases)" 130 "$?"
check "SIGINT: the trace was written" test -s "$TMP/int.dat"
check "SIGINT: the cgroup is gone" test ! -e "$own/$cg"
check_eq "SIGINT: no instance left" "" "$(stale_instances)"
check "SIGINT: no temporary files left" sh -c "! ls '$TMP' | grep -q '\.cpu[0-9]*\.\|\.tmp\.'"
"$RR" record -q --cgroup "$cg" -o "$TMP/kill.dat" -- sleep 30 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL: its instance is still there" test -d "/sys/kernel/tracing/instances/reclaim-replay-$pid"
check "the next run starts and stops" "$RR" record -q --duration 1 -o "$TMP/next.dat"
check_eq "after the next run: no instance left" "" "$(stale_instances)"
check "after the next run: the killed recorder's cgroup is gone" test ! -e "$own/$cg"
check "the top-level buffer was not touched" sh -c "test \"\$(cat /sys/kernel/tracing/tracing_on)\" = 1 -o \"\$(cat /sys/kernel/tracing/tracing_on)\" = 0"

check_fails "record as a user fails clearly" 1 "record needs root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RR" record --duration 1 -o "$TMP/user.dat"
finish
