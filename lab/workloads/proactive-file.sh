# SPDX-License-Identifier: GPL-2.0-only
# proactive-file: proactive reclaim of page cache.  The cgroup /fill (no
# limit) reads a 1200 MiB file, then memory.reclaim is written 512M; the
# file is read again (the page cache refills) and 1G is written; again, and
# the cgroup's whole memory.current is written ("everything").  Each write
# is timed in the guest (truth.txt: write lines).
# The ring buffer is 32 MiB a CPU: a patched kernel's thousands of small
# calls (cluster-cap) overran 8 MiB while the recorder wrote to 9p.
# lab: mem_mb=2048 timeout_s=1200
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	d=$RECLAIM_REPLAY_CGROUP
	for size in 512M 1G all; do
		lab_read big || exit 1
		sleep 1
		[ "$size" != all ] || size=$(cat "$d/memory.current")
		lab_reclaim "$d" "$size"
		sleep 1
	done
	lab_stat end
	exit 0
fi
lab_bigfile big 1200
$RECORD --buffer-kb 32768 -o "$OUT/trace.dat" --cgroup fill -- sh "$0" inner
