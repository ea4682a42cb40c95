#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/guest/init.sh: PID 1 of a kernel-lab guest (lab/run.sh boots it with
# init= pointing here; the host root is the guest's, read-only over 9p).
# It mounts what a recording needs, turns the swap disk on, mounts the data
# disk, runs one workload (lab/workloads/NAME.sh) and powers off.  Every path
# ends in a power-off: a PID 1 that exits panics the kernel.
#
# From the kernel command line (KEY=VALUE words reach init as environment):
#   LAB_TOP       this checkout (the host's path; the same in the guest)
#   LAB_WORKLOAD  the workload's name (lab/workloads/NAME.sh)
#   LAB_VARIANT   the kernel variant (stock, or a patch of lab/patches/)
#   LAB_PATCH     the patch's sha256 prefix, or "none"
# The outputs go to the read-write 9p share "labout", mounted at /mnt/out:
# trace.dat, truth.txt (the guest's own ground truth), guest.log and
# status ("ok", or "fail: WHY"), which lab/run.sh reads.

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
TMPDIR=/tmp
export PATH TMPDIR
LABTOOL=$LAB_TOP/build/lab/labtool
export LABTOOL

off() {
	sync
	exec "$LABTOOL" poweroff
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs -o size=64m,mode=1777 tmpfs /tmp
mount -t tmpfs -o size=1m tmpfs /mnt
mkdir -p /mnt/out /mnt/data
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none labout /mnt/out; then
	echo "lab-guest: cannot mount the output share (9p tag labout)"
	off
fi
OUT=/mnt/out
export OUT
exec >"$OUT/guest.log" 2>&1
status() { printf '%s\n' "$*" >"$OUT/status"; }
fail() {
	echo "lab-guest: $*"
	status "fail: $*"
	off
}
status "fail: the guest stopped before the workload ended"

mount -t tracefs nodev /sys/kernel/tracing || fail "cannot mount tracefs"
mount -t cgroup2 nodev /sys/fs/cgroup || fail "cannot mount cgroup2"
echo +memory >/sys/fs/cgroup/cgroup.subtree_control || fail "cannot enable the memory controller"
mkswap /dev/vda >/dev/null && swapon /dev/vda || fail "cannot turn swap on /dev/vda"
mount -t ext4 /dev/vdb /mnt/data || fail "cannot mount the data disk /dev/vdb"
[ -x "$LAB_TOP/reclaim-replay" ] || fail "$LAB_TOP/reclaim-replay is not built"
[ -f "$LAB_TOP/lab/workloads/$LAB_WORKLOAD.sh" ] || fail "no workload $LAB_WORKLOAD"

. "$LAB_TOP/lab/guest/lib.sh"
lab_header
lab_stat before
start=$(date +%s%N)
sh "$LAB_TOP/lab/workloads/$LAB_WORKLOAD.sh"
rc=$?
truth "workload_exit $rc"
truth "workload_elapsed_ns $(( $(date +%s%N) - start ))"
lab_stat after
swapoff /dev/vda
umount /mnt/data
if [ "$rc" -eq 0 ]; then
	status ok
else
	status "fail: the workload exited with status $rc"
fi
off
