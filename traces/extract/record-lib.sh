# shellcheck shell=bash
# shellcheck disable=SC2015 # "A && B || rr_skip" is intended
# Shared helpers for traces/record-*.sh: record small real kernel traces of
# memory-cgroup (cgroup v1) reclaim into a private tracefs instance and
# extract them with `trace-cmd extract`.
#
# Usage (from a record-<name>.sh script, which must use `set -eu`):
#   . "$(dirname "$0")/record-lib.sh"
#   rr_init <name> "$@"          # checks env (exit 77 = SKIP), sets RR_OUT, trap
#   rr_instance_start            # tracefs instance + events + filters + marker
#   cg=$(rr_mkcg child)          # test cgroup under our own memory cgroup
#   rr_run_in "$cg" cat file     # run a command inside a cgroup (foreground)
#   rr_mount_tmpfs DIR MIB       # private size-limited tmpfs (shmem pages)
#   rr_extract                   # stop tracing, trace-cmd extract -> $RR_OUT
# Everything created through these helpers is removed by the EXIT trap, also
# on failure.

RR_TRACEFS=/sys/kernel/tracing
RR_MEMCG_ROOT=/sys/fs/cgroup/memory
RR_TAG="rrtrace-$$"
RR_INSTANCE=""          # instance name (rr-<pid>) once created
RR_INSTANCE_DIR=""
RR_CGROUPS=()           # created cgroup dirs, in creation order
RR_PIDS=()              # background pids to kill on cleanup
RR_SWAPFILES=()         # swap files we swapon'd (and created)
RR_TMPDIRS=()           # temp dirs to rm -rf
RR_MOUNTS=()            # private tmpfs mounts (emptied + unmounted on cleanup)
RR_MOUNTED_TRACEFS=0
RR_OWN_CG=""            # our own memory cgroup dir (absolute)
RR_BUF_KB=${RR_BUF_KB:-8192}

rr_log() { printf '[%s] %s\n' "${RR_NAME:-record}" "$*" >&2; }

rr_skip() {
	printf '\n*** SKIP: %s ***\n\n' "$*" >&2
	exit 77
}

# rr_write VALUE FILE: write VALUE into a kernel control file, failing loudly.
rr_write() {
	if ! printf '%s\n' "$1" > "$2"; then
		rr_log "ERROR: cannot write '$1' to $2"
		return 1
	fi
}

rr_check_env() {
	[ "$(id -u)" -eq 0 ] || rr_skip "must run as root"
	command -v trace-cmd >/dev/null 2>&1 || rr_skip "trace-cmd not installed"
	if [ ! -d "$RR_TRACEFS/events" ]; then
		# tracefs supported but not mounted: mount it (and unmount on exit).
		if grep -qw tracefs /proc/filesystems && [ -d "$RR_TRACEFS" ] &&
		   mount -t tracefs nodev "$RR_TRACEFS" 2>/dev/null; then
			RR_MOUNTED_TRACEFS=1
			rr_log "mounted tracefs at $RR_TRACEFS (will unmount on exit)"
		else
			rr_skip "tracefs not available at $RR_TRACEFS"
		fi
	fi
	[ -d "$RR_TRACEFS/instances" ] || rr_skip "tracefs has no instances/ directory"
	[ -f "$RR_MEMCG_ROOT/memory.limit_in_bytes" ] ||
		rr_skip "cgroup v1 memory controller not mounted at $RR_MEMCG_ROOT"
	local rel
	rel=$(awk -F: '$2 == "memory" { print $3; exit }' /proc/self/cgroup)
	[ -n "$rel" ] || rr_skip "no v1 memory cgroup line in /proc/self/cgroup"
	RR_OWN_CG="$RR_MEMCG_ROOT${rel%/}"
	[ "$rel" = "/" ] && RR_OWN_CG="$RR_MEMCG_ROOT"
	[ -d "$RR_OWN_CG" ] || rr_skip "own memory cgroup $RR_OWN_CG missing"
	if [ "$RR_OWN_CG" = "$RR_MEMCG_ROOT" ]; then
		rr_skip "refusing to create test cgroups at the memory cgroup root"
	fi
	RR_MEMCG_HIER=$(awk '$1 == "memory" { print $2 }' /proc/cgroups)
	[ -n "$RR_MEMCG_HIER" ] && [ "$RR_MEMCG_HIER" != 0 ] ||
		rr_skip "memory controller has no v1 hierarchy in /proc/cgroups"
	local ev
	for ev in $RR_EVENTS; do
		[ -d "$RR_TRACEFS/events/$ev" ] || rr_skip "trace event $ev missing"
	done
}

# Events recorded in every trace (subsystem/event).
RR_EVENTS="
vmscan/mm_vmscan_memcg_reclaim_begin
vmscan/mm_vmscan_memcg_reclaim_end
vmscan/mm_vmscan_memcg_softlimit_reclaim_begin
vmscan/mm_vmscan_memcg_softlimit_reclaim_end
vmscan/mm_vmscan_direct_reclaim_begin
vmscan/mm_vmscan_direct_reclaim_end
vmscan/mm_vmscan_kswapd_wake
vmscan/mm_vmscan_kswapd_sleep
vmscan/mm_vmscan_wakeup_kswapd
vmscan/mm_vmscan_node_reclaim_begin
vmscan/mm_vmscan_node_reclaim_end
vmscan/mm_vmscan_lru_isolate
vmscan/mm_vmscan_lru_shrink_inactive
vmscan/mm_vmscan_lru_shrink_active
vmscan/mm_vmscan_write_folio
vmscan/mm_shrink_slab_start
vmscan/mm_vmscan_throttled
vmscan/mm_vmscan_reclaim_pages
memcg/mod_memcg_lruvec_state
memcg/memcg_flush_stats
memcg/count_memcg_events
cgroup/cgroup_mkdir
cgroup/cgroup_rmdir
cgroup/cgroup_release
cgroup/cgroup_attach_task
"

# rr_vmstat_index FIRST NAME: 0-based position of NAME in /proc/vmstat
# counted from the line FIRST (node stat items start at nr_inactive_anon =
# enum node_stat_item 0; vm event items start at pgpgin = enum vm_event_item 0).
rr_vmstat_index() {
	awk -v first="$1" -v name="$2" '
		$1 == first { base = NR }
		base && $1 == name { print NR - base; found = 1; exit }
		END { if (!found) exit 1 }' /proc/vmstat
}

rr_compute_filters() {
	local n i
	# node_stat_item: LRU lists 0..4, workingset_refault_anon..restore_file.
	for n in nr_inactive_anon:0 nr_active_anon:1 nr_inactive_file:2 \
		 nr_active_file:3 nr_unevictable:4; do
		i=$(rr_vmstat_index nr_inactive_anon "${n%%:*}") ||
			rr_skip "cannot locate ${n%%:*} in /proc/vmstat"
		[ "$i" = "${n##*:}" ] ||
			rr_skip "unexpected /proc/vmstat order (${n%%:*}=$i)"
	done
	local wr_lo wr_hi
	wr_lo=$(rr_vmstat_index nr_inactive_anon workingset_refault_anon) ||
		rr_skip "no workingset_refault_anon in /proc/vmstat"
	wr_hi=$(rr_vmstat_index nr_inactive_anon workingset_restore_file) ||
		rr_skip "no workingset_restore_file in /proc/vmstat"
	[ $((wr_hi - wr_lo)) -eq 5 ] || rr_skip "unexpected workingset item layout"
	RR_LRUVEC_FILTER="item < 5 || (item >= $wr_lo && item <= $wr_hi)"

	# vm_event_item: pgactivate, pgdeactivate, pgrefill, pgsteal_*, pgscan_*.
	local act deact refill lo hi
	act=$(rr_vmstat_index pgpgin pgactivate) &&
	deact=$(rr_vmstat_index pgpgin pgdeactivate) &&
	refill=$(rr_vmstat_index pgpgin pgrefill) &&
	lo=$(rr_vmstat_index pgpgin pgsteal_kswapd) &&
	hi=$(rr_vmstat_index pgpgin pgsteal_file) || {
		rr_log "cannot compute count_memcg_events items; recording unfiltered"
		RR_EVENTS_FILTER=""
		return 0
	}
	RR_EVENTS_FILTER="item == $act || item == $deact || item == $refill || (item >= $lo && item <= $hi)"
}

rr_cleanup() {
	local rc=$?
	set +e
	trap - EXIT INT TERM HUP
	local p cg i f
	for p in "${RR_PIDS[@]}"; do
		[ -n "$p" ] || continue
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	if [ -n "$RR_INSTANCE_DIR" ] && [ -d "$RR_INSTANCE_DIR" ]; then
		echo 0 > "$RR_INSTANCE_DIR/tracing_on" 2>/dev/null
		echo 0 > "$RR_INSTANCE_DIR/events/enable" 2>/dev/null
		rmdir "$RR_INSTANCE_DIR" || rr_log "WARNING: could not rmdir $RR_INSTANCE_DIR"
	fi
	# Free shmem (tmpfs) pages before the cgroups go and before swapoff, so
	# swapoff does not have to swap them back in.
	for ((i = ${#RR_MOUNTS[@]} - 1; i >= 0; i--)); do
		rr_umount "${RR_MOUNTS[$i]}"
	done
	# Remove cgroups children first (reverse creation order).
	for ((i = ${#RR_CGROUPS[@]} - 1; i >= 0; i--)); do
		rr_rmcg "${RR_CGROUPS[$i]}" || rr_log "WARNING: could not rmdir ${RR_CGROUPS[$i]}"
	done
	for f in "${RR_SWAPFILES[@]}"; do
		if grep -q "^$f " /proc/swaps; then
			swapoff "$f" || rr_log "WARNING: swapoff $f failed"
		fi
		rm -f "$f"
	done
	for f in "${RR_TMPDIRS[@]}"; do
		rm -rf "$f"
	done
	if [ "$RR_MOUNTED_TRACEFS" = 1 ]; then
		umount "$RR_TRACEFS" || rr_log "WARNING: could not umount $RR_TRACEFS"
	fi
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
		rr_log "FAILED (exit $rc); temporary ${RR_OUT:-}.tmp removed"
		[ -n "${RR_OUT:-}" ] && rm -f "$RR_OUT.tmp"
	fi
	exit "$rc"
}

# rr_rmcg CG: move CG's tasks to our own memory cgroup and remove it (a
# few tries: a css goes away asynchronously); 1 if it is still there.
rr_rmcg() {
	[ -d "$1" ] || return 0
	rr_evacuate "$1"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	[ ! -d "$1" ]
}

# rr_evacuate CG: move every task of CG back to our own memory cgroup.
rr_evacuate() {
	local t
	for _ in 1 2 3; do
		[ -s "$1/cgroup.procs" ] || return 0
		while read -r t; do
			echo "$t" > "$RR_OWN_CG/cgroup.procs" 2>/dev/null
		done < "$1/cgroup.procs"
	done
}

# rr_init NAME [OUT]: environment checks, output path, cleanup trap.
rr_init() {
	RR_NAME=$1
	shift
	RR_SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	RR_OUT=${1:-$RR_SRCDIR/$RR_NAME.dat}
	case $RR_OUT in /*) ;; *) RR_OUT="$PWD/$RR_OUT" ;; esac
	trap rr_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	rr_check_env
	rr_compute_filters
	RR_TMP=$(mktemp -d /var/tmp/rrtrace-"$RR_NAME".XXXXXX)
	RR_TMPDIRS+=("$RR_TMP")
	RR_KERNEL=$(uname -r)
	rr_log "kernel $RR_KERNEL, own memcg $RR_OWN_CG, memory hierarchy $RR_MEMCG_HIER"
	rr_log "output $RR_OUT"
}

# rr_mkfile PATH MIB: create a file of MIB MiB outside any test cgroup and
# make sure none of it stays in the page cache (so reading it later charges
# the reading cgroup).
rr_mkfile() {
	dd if=/dev/zero of="$1" bs=1M count="$2" oflag=direct status=none
	sync "$1"
	# count=0 + iflag=nocache => posix_fadvise(POSIX_FADV_DONTNEED) on whole file
	dd if="$1" iflag=nocache count=0 status=none
}

rr_instance_start() {
	RR_INSTANCE="rr-$$"
	RR_INSTANCE_DIR="$RR_TRACEFS/instances/$RR_INSTANCE"
	mkdir "$RR_INSTANCE_DIR"
	local d=$RR_INSTANCE_DIR ev
	rr_write 0 "$d/tracing_on"
	rr_write "$RR_BUF_KB" "$d/buffer_size_kb"
	# RR_FILTERS=0: no kernel-side filters at all, like a plain
	# `trace-cmd record -e vmscan -e memcg -e cgroup` (used by the tests)
	if [ "${RR_FILTERS:-1}" != 0 ]; then
		rr_write "$RR_LRUVEC_FILTER" "$d/events/memcg/mod_memcg_lruvec_state/filter"
		if [ -n "$RR_EVENTS_FILTER" ]; then
			rr_write "$RR_EVENTS_FILTER" "$d/events/memcg/count_memcg_events/filter"
		fi
		for ev in cgroup_mkdir cgroup_rmdir cgroup_release; do
			rr_write "root == $RR_MEMCG_HIER" "$d/events/cgroup/$ev/filter"
		done
		rr_write "dst_root == $RR_MEMCG_HIER" "$d/events/cgroup/cgroup_attach_task/filter"
	fi
	for ev in $RR_EVENTS; do
		rr_write 1 "$d/events/$ev/enable"
	done
	rr_write 1 "$d/tracing_on"
	rr_write "rr-meta: recorded-by=${RR_RECORDED_BY:-traces/record-$RR_NAME.sh} kernel=$RR_KERNEL" "$d/trace_marker"
	rr_log "tracing into instance $RR_INSTANCE (buffer ${RR_BUF_KB} KiB/cpu)"
}

# rr_mkcg NAME [PARENT]: create a test memory cgroup; prints its path.
# Must not be called in a subshell (it records the cgroup for cleanup), so
# the path is returned in RR_CG instead of stdout.
rr_mkcg() {
	local parent=${2:-$RR_OWN_CG}
	case $parent in "$RR_OWN_CG"|"$RR_OWN_CG"/*) ;; *)
		rr_log "ERROR: refusing to create cgroup outside $RR_OWN_CG"; return 1 ;;
	esac
	RR_CG="$parent/$RR_TAG-$1"
	mkdir "$RR_CG"
	RR_CGROUPS+=("$RR_CG")
}

# rr_run_in CG CMD...: run CMD inside memory cgroup CG and wait for it.
# It runs as a background job so that a signal to the script interrupts the
# wait at once; the EXIT trap then kills it.
rr_run_in() {
	local cg=$1 p rc=0
	shift
	bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' rr-run "$cg" "$@" &
	p=$!
	RR_PIDS+=("$p")
	wait "$p" || rc=$?
	local q keep=()
	for q in "${RR_PIDS[@]}"; do [ "$q" = "$p" ] || keep+=("$q"); done
	RR_PIDS=("${keep[@]}")
	if [ "$rc" -ne 0 ]; then
		rr_log "ERROR: '$*' in ${cg#"$RR_MEMCG_ROOT"} failed (exit $rc)"
		return "$rc"
	fi
}

rr_marker() {
	rr_write "rr-meta: $*" "$RR_INSTANCE_DIR/trace_marker"
}

# rr_extract: stop tracing, write $RR_OUT, remove the instance.
# (trace-cmd 3.1.6 `extract -B` removes the instance itself afterwards; we
# only clean up if it is still there.)
rr_extract() {
	local d=$RR_INSTANCE_DIR
	rr_write 0 "$d/tracing_on"
	rm -f "$RR_OUT.tmp"
	# shellcheck disable=SC2086 # RR_EXTRACT_OPTS: extra trace-cmd options, word-split on purpose
	trace-cmd extract -B "$RR_INSTANCE" -o "$RR_OUT.tmp" ${RR_EXTRACT_OPTS:-} >&2
	mv -f "$RR_OUT.tmp" "$RR_OUT"
	if [ -d "$d" ]; then
		echo 0 > "$d/events/enable"
		rmdir "$d"
	fi
	RR_INSTANCE_DIR=""
	rr_log "wrote $RR_OUT ($(stat -c %s "$RR_OUT") bytes)"
	local n lost size
	n=$(trace-cmd report "$RR_OUT" 2>/dev/null | grep -c ' mm_vmscan_memcg_reclaim_begin:' || true)
	lost=$(trace-cmd report "$RR_OUT" 2>/dev/null | grep -ciE 'events (lost|dropped)' || true)
	rr_log "mm_vmscan_memcg_reclaim_begin events: $n; lost/dropped-event lines: $lost"
	[ "$lost" = 0 ] || rr_log "WARNING: ring buffer overflowed; raise RR_BUF_KB or shrink the workload"
	size=$(stat -c %s "$RR_OUT")
	[ "$size" -lt 2097152 ] || rr_log "WARNING: $RR_OUT is $size bytes (>= 2 MiB); shrink the workload"
}

# rr_mount_tmpfs DIR MIB: mount a private tmpfs of at most MIB MiB at DIR
# (created if missing). Pages written there are shmem: they sit on the anon
# LRU, are charged to the writer's memcg and outlive the writer. The EXIT
# trap empties and unmounts it (before cgroup removal and swapoff).
rr_mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=${2}m,nr_inodes=64,mode=0700,huge=never" \
		"$RR_TAG-tmpfs" "$1" 2>/dev/null || rr_skip "cannot mount a tmpfs at $1"
	RR_MOUNTS+=("$1")
	rr_log "tmpfs $1 (${2} MiB, huge=never) mounted"
}

# rr_umount DIR: delete everything in the tmpfs DIR mounted by
# rr_mount_tmpfs and unmount it (lazily if it is still busy).
rr_umount() {
	local d=$1 m keep=()
	if mountpoint -q "$d"; then
		find "$d" -mindepth 1 -delete || rr_log "WARNING: could not empty $d"
		umount "$d" || {
			rr_log "WARNING: umount $d failed; detaching it lazily"
			umount -l "$d" || rr_log "WARNING: could not umount $d"
		}
	fi
	for m in "${RR_MOUNTS[@]}"; do [ "$m" = "$d" ] || keep+=("$m"); done
	RR_MOUNTS=("${keep[@]}")
}

# rr_swapon MIB: create a swap file of MIB MiB and enable it (swapoff and
# deletion happen in the EXIT trap).
rr_swapon() {
	local f="/var/tmp/$RR_TAG-swapfile"
	RR_SWAPFILES+=("$f")
	dd if=/dev/zero of="$f" bs=1M count="$1" status=none
	chmod 600 "$f"
	mkswap "$f" > /dev/null
	swapon "$f"
	rr_log "swap file $f ($1 MiB) enabled"
}
