#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark of `reclaim-replay record` (not a test: it prints figures).
# A heavy reclaim workload -- reading a file several times the size of a
# small memory limit -- is recorded once by reclaim-replay and once by
# `perf record -e` of the same events; prints events recorded per second,
# lost events, the recorders' CPU time and its ratio, and the replay speed
# of `compare` on the recorded trace.  Needs root.
#   usage: scripts/bench-record.sh [FILE_MIB [LIMIT]]   (default 512 32M)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rr=$top/reclaim-replay
mib=${1:-512}
limit=${2:-32M}
[ "$(id -u)" -eq 0 ] || { echo "bench-record: needs root" >&2; exit 1; }
tmp=$(mktemp -d /var/tmp/rr-bench.XXXXXX)
own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
own=/sys/fs/cgroup/memory${own%/}
cleanup() {
	rmdir "$own/rrbench-perf" "$own/rrbench-alone" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# one file per run, written with O_DIRECT: none of them starts in the page cache
for f in alone rr perf; do
	dd if=/dev/zero of="$tmp/$f.big" bs=1M count="$mib" oflag=direct status=none
done
workload() { echo "cat '$tmp/$1.big' >/dev/null"; }

cpu_of() {	# cpu_of CMD...: user+sys seconds of CMD and its children
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
	awk '{ printf "%.2f", $1 + $2 }' "$tmp/time"
}

# reclaim-replay record: its own CPU time = total minus the workload's
mkdir "$own/rrbench-alone" "$own/rrbench-perf"
for g in rrbench-alone rrbench-perf; do
	numfmt --from=iec "$limit" >"$own/$g/memory.limit_in_bytes"
done
# the workload alone, under the same limit, for its own CPU time
wl=$(cpu_of sh -c "echo \$\$ >'$own/rrbench-alone/cgroup.procs'; $(workload alone)")
t0=$(date +%s.%N)
total=$(cpu_of "$rr" record --force -q --cgroup rrbench --memory-max "$limit" -o "$tmp/rr.dat" -- sh -c "$(workload rr)")
t1=$(date +%s.%N)
"$rr" compare -q "$tmp/rr.dat" -o "$tmp/rr.json" >/dev/null
events=$(jq '.input.stats.events' "$tmp/rr.json")
lost=$(jq '.input.stats.missed_events' "$tmp/rr.json")
rr_cpu=$(echo "$total - $wl" | bc -l)

# perf record of the same events on the same workload in the same kind of cgroup
ptotal=$(cpu_of perf record -q -o "$tmp/perf.data" -a -e 'vmscan:*' -e memcg:mod_memcg_lruvec_state \
	-e memcg:memcg_flush_stats -e memcg:count_memcg_events -e 'cgroup:*' \
	-- sh -c "echo \$\$ >'$own/rrbench-perf/cgroup.procs'; $(workload perf)")
perf_cpu=$(echo "$ptotal - $wl" | bc -l)

t2=$(date +%s.%N)
"$rr" compare -q "$tmp/rr.dat" >/dev/null
t3=$(date +%s.%N)

printf 'workload: read %d MiB under a %s limit; workload alone %.2f s CPU\n' "$mib" "$limit" "$wl"
printf 'record:  %d events in %.2f s wall = %.0f events/s; %s lost; trace %d bytes\n' \
	"$events" "$(echo "$t1 - $t0" | bc -l)" "$(echo "$events / ($t1 - $t0)" | bc -l)" "$lost" \
	"$(stat -c %s "$tmp/rr.dat")"
printf 'recorder CPU: reclaim-replay %.2f s, perf record %.2f s, ratio %.2f\n' \
	"$rr_cpu" "$perf_cpu" "$(echo "if ($perf_cpu > 0) $rr_cpu / $perf_cpu else 0" | bc -l)"
printf 'compare: %.2f s for %d events = %.0f events/s\n' "$(echo "$t3 - $t2" | bc -l)" "$events" \
	"$(echo "$events / ($t3 - $t2)" | bc -l)"
