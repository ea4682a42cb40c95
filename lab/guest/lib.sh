# SPDX-License-Identifier: GPL-2.0-only
# lab/guest/lib.sh: what the lab's workloads share, sourced in the guest
# (by init.sh and by each workload, inside and outside the recorder).
#
# The ground truth goes to $OUT/truth.txt, one fact a line (docs/lab.md
# gives the format): "key value" lines, "write ..." lines of each
# memory.reclaim write (labtool reclaim), and "[SECTION]" blocks holding
# /proc/vmstat and every memcg's memory.stat as the kernel printed them.

RR=$LAB_TOP/reclaim-replay
# a patched kernel says which policy it runs (lab/patches/NAME.patch's
# header): the recording carries it, and the replay's baseline follows
RECORD="$RR record"
[ "${LAB_POLICY:-none}" = none ] || RECORD="$RECORD --kernel-policy $LAB_POLICY"
CG=/sys/fs/cgroup
TRUTH=$OUT/truth.txt
BIG=/mnt/data/big

truth() { printf '%s\n' "$*" >>"$TRUTH"; }

lab_header() {
	truth "# reclaim-replay kernel lab: ground truth written by the guest"
	truth "workload $LAB_WORKLOAD"
	truth "variant $LAB_VARIANT"
	truth "patch $LAB_PATCH"
	truth "policy ${LAB_POLICY:-none}"
	truth "kernel_release $(uname -r)"
	truth "kernel_version $(cat /proc/version)"
	truth "page_size_bytes $(getconf PAGESIZE)"
	truth "cpus $(grep -c ^processor /proc/cpuinfo)"
	truth "mem_total_kb $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	truth "swap_total_kb $(awk '/^SwapTotal:/ { print $2 }' /proc/meminfo)"
	truth "thp_enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	truth "swappiness $(cat /proc/sys/vm/swappiness)"
	truth "mglru $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo absent)"
}

# lab_stat LABEL: vmstat, swap used and every memcg's memory.stat and
# memory.current, under sections named by LABEL.
lab_stat() {
	truth "swap_used_kb $1 $(awk '/^SwapTotal:/ { t = $2 } /^SwapFree:/ { f = $2 } END { print t - f }' /proc/meminfo)"
	truth "[vmstat $1]"
	cat /proc/vmstat >>"$TRUTH"
	truth "[end]"
	find "$CG" -mindepth 1 -type d | sort | while read -r d; do
		[ -f "$d/memory.stat" ] || continue
		truth "[memory.stat ${d#"$CG"} $1]"
		cat "$d/memory.stat" >>"$TRUTH"
		truth "memory.current $(cat "$d/memory.current")"
		truth "[end]"
	done
}

# lab_reclaim CGROUP-DIR SIZE: one timed write to memory.reclaim.
lab_reclaim() {
	"$LABTOOL" reclaim "$1" "$2" >>"$TRUTH"
}

# lab_bigfile NAME MIB: a sparse file of MIB MiB at /mnt/data/NAME, not in
# the page cache (reading a hole fills the page cache without disk I/O).
lab_bigfile() {
	rm -f "/mnt/data/$1"
	truncate -s "$2M" "/mnt/data/$1"
}

# lab_read NAME: read /mnt/data/NAME through the page cache.
lab_read() {
	dd if="/mnt/data/$1" of=/dev/null bs=1M status=none
}

# lab_hold MIB [thp]: start labtool hog MIB hold in the background and
# wait until its memory is touched; $HOG is its pid.
lab_hold() {
	rm -f /tmp/hog.$$
	"$LABTOOL" hog "$1" hold ${2:-} >/tmp/hog.$$ &
	HOG=$!
	while ! [ -s /tmp/hog.$$ ]; do
		kill -0 "$HOG" 2>/dev/null || { echo "lab: labtool hog $1 ended early"; return 1; }
		sleep 0.2
	done
}

# lab_unhold: stop the holder lab_hold started.
lab_unhold() {
	kill "$HOG" 2>/dev/null
	wait "$HOG" 2>/dev/null
	rm -f /tmp/hog.$$
}

# lab_subtree P CHILD...: on cgroup v2 a cgroup with tasks cannot hand
# the memory controller to children, so move this shell into P/sh, enable
# +memory in P and make the children.
lab_subtree() {
	p=$1
	shift
	mkdir "$p/sh" && lab_join "$p/sh" && echo +memory >"$p/cgroup.subtree_control" || return 1
	for c in "$@"; do mkdir "$p/$c" || return 1; done
}

# lab_join CGROUP-DIR: move this shell into the cgroup.
lab_join() {
	echo $$ >"$1/cgroup.procs"
}
