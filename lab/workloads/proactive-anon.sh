# SPDX-License-Identifier: GPL-2.0-only
# proactive-anon: proactive reclaim of anonymous memory with swap.  In the
# cgroup /anon (no limit) a holder touches 1200 MiB and keeps it, then
# memory.reclaim is written 512M; a fresh holder, 1G; a fresh holder, the
# cgroup's whole memory.current ("everything").  Each write is timed in the
# guest (truth.txt: write lines).
# The ring buffer is 32 MiB a CPU: a patched kernel's thousands of small
# calls (cluster-cap) overran 8 MiB while the recorder wrote to 9p.
# lab: mem_mb=2048 timeout_s=1800
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	d=$RECLAIM_REPLAY_CGROUP
	for size in 512M 1G all; do
		lab_hold 1200 || exit 1
		sleep 1
		[ "$size" != all ] || size=$(cat "$d/memory.current")
		lab_reclaim "$d" "$size"
		sleep 1
		lab_unhold
	done
	lab_stat end
	exit 0
fi
$RECORD --buffer-kb 32768 -o "$OUT/trace.dat" --cgroup anon -- sh "$0" inner
