#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/run.sh: boot one kernel-lab guest under QEMU and run one workload.
#
#   usage: lab/run.sh VARIANT WORKLOAD OUTDIR
#   VARIANT   stock, or a patch of lab/patches/ (lab/kernel.sh builds it)
#   WORKLOAD  a script of lab/workloads/ (without .sh)
#   OUTDIR    where the guest writes (made; must not hold a trace.dat):
#             trace.dat, truth.txt, guest.log, status, and console.log
#   environment: LAB_CACHE (lab/kernel.sh), LAB_MEM_MB, LAB_TIMEOUT_S
#             (override the workload's "# lab:" line), LAB_SMP (default 2),
#             LAB_DISK_DIR (where the guest's disk images go; default
#             /dev/shm when it has 8 GiB free, else TMPDIR or /var/tmp)
#
# The guest's root is this machine's, read-only over virtio-9p; OUTDIR is
# a second, read-write 9p share; a virtio-blk disk is the swap device and a
# fresh ext4 disk holds the workload's files.  KVM is used where /dev/kvm
# opens, TCG (software emulation) otherwise: then every time the guest
# measures is emulated time.  A guest that outlives the workload's timeout
# is killed and reported.
# Exit 0 when the workload ran and its trace was written; 1 when it failed
# (the guest's status line and the end of its log are printed); 2 usage;
# 3 when a package is missing (the message names it).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_CACHE=${LAB_CACHE:-/var/tmp/reclaim-replay-lab}
export LAB_CACHE

[ $# -eq 3 ] || { echo "usage: lab/run.sh VARIANT WORKLOAD OUTDIR" >&2; exit 2; }
variant=$1 workload=$2 out=$3
wl=$top/lab/workloads/$workload.sh
[ -f "$wl" ] || { echo "lab/run.sh: no workload '$workload' (lab/workloads/*.sh)" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null ||
	{ echo "lab/run.sh: qemu-system-x86_64 is missing: apt-get install qemu-system-x86" >&2; exit 3; }
command -v mkfs.ext4 >/dev/null ||
	{ echo "lab/run.sh: mkfs.ext4 is missing: apt-get install e2fsprogs" >&2; exit 3; }
[ -x "$top/reclaim-replay" ] || { echo "lab/run.sh: $top/reclaim-replay is not built (make)" >&2; exit 1; }
[ -x "$top/build/lab/labtool" ] || { echo "lab/run.sh: $top/build/lab/labtool is not built (make lab-tools)" >&2; exit 1; }

line=$("$top/lab/kernel.sh" "$variant") || exit $?
release=$(echo "$line" | cut -d' ' -f2)
image=$(echo "$line" | cut -d' ' -f3)
patch=none policy=none
if [ "$variant" != stock ]; then
	patch=$(sha256sum <"$top/lab/patches/$variant.patch" | cut -c1-16)
	# the patch's header names the policy it makes the kernel run
	policy=$(sed -n 's/.*reclaim-replay policy: *\([a-z0-9+_-]*\)\.*$/\1/p' \
		 "$top/lab/patches/$variant.patch" | head -1)
	policy=${policy:-none}
fi

# "# lab: mem_mb=N timeout_s=N" in the workload's header
mem=$(sed -n 's/^# lab:.*mem_mb=\([0-9]*\).*/\1/p' "$wl")
tmo=$(sed -n 's/^# lab:.*timeout_s=\([0-9]*\).*/\1/p' "$wl")
mem=${LAB_MEM_MB:-${mem:-1024}}
tmo=${LAB_TIMEOUT_S:-${tmo:-900}}

mkdir -p "$out"
out=$(cd "$out" && pwd)
[ ! -e "$out/trace.dat" ] || { echo "lab/run.sh: $out/trace.dat exists (use a new OUTDIR)" >&2; exit 2; }
rm -f "$out/status" "$out/truth.txt" "$out/guest.log" "$out/console.log"

# The ext4 data disk, made once (its files are made by the workload).
data=$LAB_CACHE/data-4G.ext4
if [ ! -f "$data" ]; then
	truncate -s 4G "$data.tmp"
	mkfs.ext4 -q -F -L labdata "$data.tmp"
	mv "$data.tmp" "$data"
fi
# The guest's disks in memory where the host has room (/dev/shm, 8 GiB
# free): a swap device whose writes cost the same from run to run (a sparse
# file on disk allocates its blocks on first write, and the host's
# write-back stalls the guest at random), so that the times the lab
# measures compare across kernels.
shm=/dev/shm
if [ -z "${LAB_DISK_DIR:-}" ] && [ -d "$shm" ] &&
	[ "$(df -Pk "$shm" 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge $((8 * 1024 * 1024)) ] 2>/dev/null; then
	LAB_DISK_DIR=$shm
fi
work=$(mktemp -d "${LAB_DISK_DIR:-${TMPDIR:-/var/tmp}}/rr-lab.XXXXXX")
trap 'rm -rf "$work"' EXIT
truncate -s 2G "$work/swap.img"
cp --sparse=always "$data" "$work/data.img"

append="console=ttyS0 loglevel=4 panic=-1 root=rootfs rootfstype=9p"
append="$append rootflags=trans=virtio,version=9p2000.L,cache=loose ro"
append="$append init=$top/lab/guest/init.sh LAB_TOP=$top LAB_WORKLOAD=$workload"
append="$append LAB_VARIANT=$variant LAB_PATCH=$patch LAB_POLICY=$policy"

boot() {	# ACCEL CPU
	echo "lab: $variant/$workload: booting $release ($1, ${mem} MiB, timeout ${tmo} s)" >&2
	rc=0
	# (in a subshell whose stderr is dropped: bash's own "Aborted" line
	# when QEMU dies of a signal; QEMU's output is in qemu.log)
	( timeout --kill-after=10 "$tmo" qemu-system-x86_64 \
		-machine q35 -accel "$1" -cpu "$2" -m "$mem" -smp "${LAB_SMP:-2}" \
		-display none -monitor none -serial "file:$out/console.log" -no-reboot \
		-kernel "$image" -append "$append" \
		-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=root,mount_tag=rootfs \
		-fsdev local,id=out,path="$out",security_model=none \
		-device virtio-9p-pci,fsdev=out,mount_tag=labout \
		-drive file="$work/swap.img",format=raw,if=virtio \
		-drive file="$work/data.img",format=raw,if=virtio \
		</dev/null >"$work/qemu.log" 2>&1; exit $? ) 2>/dev/null || rc=$?
}

# LAB_ACCEL: auto (KVM where /dev/kvm opens and works, else TCG), kvm, tcg.
# A nested /dev/kvm can open and still fail (QEMU aborts setting an MSR):
# auto then boots again under TCG, says so, and remembers it for this
# QEMU and host kernel (LAB_CACHE/kvm-failed).
accel=${LAB_ACCEL:-auto}
case $accel in auto|kvm|tcg) ;; *) echo "lab/run.sh: LAB_ACCEL must be auto, kvm or tcg" >&2; exit 2 ;; esac
kvm_key="$(qemu-system-x86_64 --version | head -1) on $(uname -r)"
if [ "$accel" = auto ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then accel=kvm; fi
	if [ "$accel" = kvm ] && [ "$(head -1 "$LAB_CACHE/kvm-failed" 2>/dev/null)" = "$kvm_key" ]; then
		accel=tcg
	fi
fi
t0=$(date +%s)
if [ "$accel" = kvm ]; then
	boot kvm host
	if [ $rc -ne 0 ] && [ "${LAB_ACCEL:-auto}" = auto ] && [ ! -s "$out/guest.log" ] &&
	   grep -qi kvm "$work/qemu.log"; then
		echo "lab: KVM failed ($(grep -i -m1 kvm "$work/qemu.log")); using TCG" >&2
		{ echo "$kvm_key"; grep -i -m1 kvm "$work/qemu.log"; } >"$LAB_CACHE/kvm-failed"
		accel=tcg
	fi
fi
if [ "$accel" = tcg ]; then
	rm -f "$out/console.log"
	t0=$(date +%s)
	boot tcg max
fi
secs=$(( $(date +%s) - t0 ))
{
	echo "accel $accel"
	echo "guest_mem_mb $mem"
	echo "host_elapsed_s $secs"
} >>"$out/truth.txt" 2>/dev/null || true

status=$(cat "$out/status" 2>/dev/null || echo "fail: the guest wrote no status (see $out/console.log)")
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	status="fail: the guest did not end within ${tmo} s and was killed"
elif [ $rc -ne 0 ]; then
	status="fail: qemu exited with status $rc: $(tail -3 "$work/qemu.log" | tr '\n' ' ')"
fi
if [ "$status" != ok ] || [ ! -s "$out/trace.dat" ]; then
	[ "$status" != ok ] || status="fail: no trace.dat was written"
	echo "lab: $variant/$workload: $status" >&2
	for f in guest.log console.log; do
		[ -s "$out/$f" ] && { echo "--- the end of $out/$f:" >&2; tail -15 "$out/$f" >&2; }
	done
	exit 1
fi
echo "lab: $variant/$workload: ok in $secs s ($out)" >&2
