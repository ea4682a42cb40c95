# SPDX-License-Identifier: GPL-2.0-only
# offline: a memcg removed while it holds pages.  In /P (memory.max 96M)
# the child C reads a 60 MiB file and is removed (offline: its page cache
# stays charged), then D reads a 160 MiB file: P's limit reclaim walks the
# offline C (the scrape and round-up rules of an offline memcg).
# lab: mem_mb=1024 timeout_s=900
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	p=$RECLAIM_REPLAY_CGROUP
	lab_subtree "$p" C D || exit 1
	sh -c "echo \$\$ >$p/C/cgroup.procs && exec dd if=/mnt/data/c of=/dev/null bs=1M status=none" || exit 1
	rmdir "$p/C" || exit 1
	truth "rmdir_ns $(date +%s%N) /P/C"
	sh -c "echo \$\$ >$p/D/cgroup.procs && exec dd if=/mnt/data/d of=/dev/null bs=1M status=none" || exit 1
	lab_stat end
	exit 0
fi
lab_bigfile c 60
lab_bigfile d 160
$RECORD -o "$OUT/trace.dat" --cgroup P --memory-max 96M -- sh "$0" inner
