# SPDX-License-Identifier: GPL-2.0-only
# siblings: three children of /p (memory.max 128M) at once, swap on:
# a touches 96 MiB of anon three times, b reads a 256 MiB file, c touches
# 48 MiB of anon three times while it reads a 64 MiB file.  Their anon
# alone is over the limit, so p's limit reclaim swaps as well as drops
# page cache, and each reclaim walks a, b, c (and sh, the shell's own
# cgroup).
# lab: mem_mb=1024 timeout_s=900
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	lab_subtree "$RECLAIM_REPLAY_CGROUP" a b c || exit 1
	p=$RECLAIM_REPLAY_CGROUP
	sh -c "echo \$\$ >$p/a/cgroup.procs && exec $LABTOOL hog 96 3" &
	sh -c "echo \$\$ >$p/b/cgroup.procs && exec dd if=/mnt/data/b of=/dev/null bs=1M status=none" &
	sh -c "echo \$\$ >$p/c/cgroup.procs && { $LABTOOL hog 48 3 & dd if=/mnt/data/c of=/dev/null bs=1M status=none; wait; }" &
	wait
	lab_stat end
	exit 0
fi
lab_bigfile b 256
lab_bigfile c 64
$RECORD -o "$OUT/trace.dat" --cgroup p --memory-max 128M -- sh "$0" inner
