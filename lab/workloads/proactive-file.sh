# SPDX-License-Identifier: GPL-2.0-only
# proactive-file: proactive reclaim of page cache.  The cgroup /fill (no
# limit) reads a 1200 MiB file, then memory.reclaim is written 512M; the
# file is made anew (its old page cache is dropped with it, no reclaim) and
# read again, and 1G is written; again, and the cgroup's whole
# memory.current is written ("everything").  Each write starts from the
# same state, a fresh file's cache on the inactive list, whatever the
# write before it left: kernels of different policies meet the same
# cgroup at each write, as verify assumes.  Each write is timed in the
# guest (truth.txt: write lines).
# The ring buffer is 32 MiB a CPU: a patched kernel's thousands of small
# calls (cluster-cap) overran 8 MiB while the recorder wrote to 9p.
# lab: mem_mb=2048 timeout_s=1200
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	d=$RECLAIM_REPLAY_CGROUP
	for size in 512M 1G all; do
		lab_bigfile big 1200
		lab_read big || exit 1
		sleep 1
		[ "$size" != all ] || size=$(cat "$d/memory.current")
		lab_reclaim "$d" "$size"
		sleep 1
	done
	lab_stat end
	exit 0
fi
$RECORD --buffer-kb 32768 -o "$OUT/trace.dat" --cgroup fill -- sh "$0" inner
