# SPDX-License-Identifier: GPL-2.0-only
# global: kswapd and direct reclaim, seeds/000's eight VMs in small.  In
# /g (no limit), while io reads a 1024 MiB file, three "VMs" vm1..vm3
# start at once and each touches and holds 300 MiB of anon memory with
# transparent huge pages (MADV_HUGEPAGE); then io reads the file again.
# With 1 GiB of guest RAM the node falls to its watermarks: kswapd wakes,
# the VMs and the reader enter direct reclaim, and anon goes to swap (swap
# on, THP madvise).  truth.txt's swap_used_kb lines say how much.
# The ring buffer is 32 MiB a CPU: with the guest's disks in memory the
# 8 MiB default lost 150,000 events.
# lab: mem_mb=1024 timeout_s=1200
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	p=$RECLAIM_REPLAY_CGROUP
	lab_subtree "$p" vm1 vm2 vm3 io || exit 1
	sh -c "echo \$\$ >$p/io/cgroup.procs && exec dd if=/mnt/data/big of=/dev/null bs=1M status=none" &
	reader=$!
	for v in vm1 vm2 vm3; do
		sh -c "echo \$\$ >$p/$v/cgroup.procs && exec $LABTOOL hog 300 hold thp >/tmp/$v.ready" &
		eval "pid_$v=\$!"
	done
	for v in vm1 vm2 vm3; do
		while ! [ -s /tmp/$v.ready ]; do sleep 0.2; done
	done
	wait "$reader"
	lab_stat vms_ready
	sh -c "echo \$\$ >$p/io/cgroup.procs && exec dd if=/mnt/data/big of=/dev/null bs=1M status=none"
	lab_stat end
	# shellcheck disable=SC2154
	kill "$pid_vm1" "$pid_vm2" "$pid_vm3"
	wait
	exit 0
fi
echo madvise >/sys/kernel/mm/transparent_hugepage/enabled
lab_bigfile big 1024
$RECORD --buffer-kb 32768 -o "$OUT/trace.dat" --cgroup g -- sh "$0" inner
