#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/global-recordings.sh: real recordings of global reclaim (kswapd
# and direct reclaim, issue 13) with `reclaim-replay record` (no --cgroup:
# the whole machine), as docs global-reclaim.md §5 describes them.
#
#   usage: bench/global-recordings.sh [file|anon-swap]...   (default: both)
#   environment: OUT       output directory (default /var/tmp/rr-global)
#                RR        the reclaim-replay binary (default ./reclaim-replay here)
#                DURATION  seconds recorded once the pressure is on (default
#                          0.25: `record -- sleep DURATION`; a second of this
#                          pressure is ~7 MiB of events, mostly LRU deltas)
#                NCG       anon cgroups (default 4)
#                FILE_ANON_MIB  anon per cgroup of "file" (default 3584)
#                SWAP_ANON_MIB  anon per cgroup of "anon-swap" (default 4710)
#                WS_MIB    page-cache working set of "anon-swap" (default 8000)
#                SWAP_MIB  swap file of "anon-swap" (default 8192; "file": 1024)
#                WARM_PASSES  working-set passes before "anon-swap" records (default 2)
#                PLAIN     1: a plain recording instead, as a user without
#                          reclaim-replay would make one: the vmscan, memcg and
#                          cgroup events in a tracefs instance of our own, no
#                          filter, no marker, then `trace-cmd extract`
#                          (global-NAME-plain.dat; /proc/zoneinfo copied
#                          beside it as global-NAME-plain.zoneinfo at the start)
#                BUF_KB    per-CPU buffer of PLAIN (default 65536)
#
# Recordings (NAME.dat in OUT):
#   global-file       a swap file on; NCG cgroups under ours, each holding
#                     FILE_ANON_MIB of anon memory (every other one in huge
#                     pages, MADV_HUGEPAGE); a 60 GiB sparse file read with
#                     two dd readers until free memory reaches the low
#                     watermarks, then DURATION seconds recorded: file
#                     reclaim by kswapd and direct reclaim.
#   global-anon-swap  an 8 GiB swap file on; NCG cgroups of SWAP_ANON_MIB anon;
#                     the first WS_MIB of a sparse file re-read in a loop
#                     (more than what is left), WARM_PASSES passes first, so
#                     refaults turn cache-trim mode off and anon is swapped out;
#                     then DURATION seconds recorded.
# Every exit (success, failure, INT/TERM) kills the workloads, removes the
# cgroups, turns the swap file off and removes it, removes the sparse file
# and any tracefs instance a recorder left.  The recordings stay.
# Exit 0; 1 on failure (a recording without kswapd_wake or direct reclaim is
# one); 2 usage; 77 (SKIP) when not root, tracefs or the v1/v2 memory
# controller is missing, or the machine has too little free memory or disk.
# shellcheck disable=SC2317 # cleanup runs from the trap
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rr=${RR:-$top/reclaim-replay}
OUT=${OUT:-/var/tmp/rr-global}
DURATION=${DURATION:-0.25}
NCG=${NCG:-4}
FILE_ANON_MIB=${FILE_ANON_MIB:-3584}
SWAP_ANON_MIB=${SWAP_ANON_MIB:-4710}
WS_MIB=${WS_MIB:-8000}
SWAP_MIB=${SWAP_MIB:-8192}
WARM_PASSES=${WARM_PASSES:-2}
PLAIN=${PLAIN:-0}
BUF_KB=${BUF_KB:-65536}
plain_inst=""
ALL="file anon-swap"

skip() {
	printf '\n*** SKIP: bench/global-recordings.sh: %s; nothing recorded ***\n\n' "$*" >&2
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs, memory cgroups, swapon)"
for n in "$@"; do
	case " $ALL " in *" $n "*) ;; *) echo "global-recordings.sh: unknown recording '$n' (one of: $ALL)" >&2; exit 2 ;; esac
done
[ $# -gt 0 ] || set -- $ALL
tracing=/sys/kernel/tracing
[ -w $tracing/instances ] || tracing=/sys/kernel/debug/tracing
[ -w $tracing/instances ] || skip "tracefs is not mounted (or read-only)"
[ -d $tracing/events/vmscan/mm_vmscan_kswapd_wake ] || skip "no vmscan:mm_vmscan_kswapd_wake event"
for c in cc dd truncate mkswap swapon swapoff trace-cmd; do
	command -v "$c" >/dev/null || { echo "global-recordings.sh: '$c' not found" >&2; exit 1; }
done
[ -x "$rr" ] || { echo "global-recordings.sh: $rr not built (run make)" >&2; exit 1; }

# our own memory cgroup: v1 "N:memory:/path", else v2 "0::/path"
memroot=/sys/fs/cgroup/memory
rel=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*:\(.*\)$/\1/p' /proc/self/cgroup | head -1)
if [ -z "$rel" ] || [ ! -d "$memroot$rel" ]; then
	memroot=/sys/fs/cgroup
	rel=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup | head -1)
	[ -f "$memroot$rel/memory.current" ] || skip "no memory cgroup controller found"
fi
[ "$rel" = / ] && rel=""
parent="$memroot$rel/rr-global-$$"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/rr-global.XXXXXX")
swapfile=$work/swap
sparse=$work/sparse
PIDS=()

kill_pids() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	PIDS=()
}

rm_cgroups() {
	local d p i
	[ -d "$parent" ] || return 0
	for i in $(seq 1 50); do
		for d in "$parent"/*/ "$parent/"; do
			[ -f "$d/cgroup.procs" ] || continue
			while read -r p; do kill -9 "$p" 2>/dev/null || true; done <"$d/cgroup.procs"
		done
		for d in "$parent"/*/; do [ -d "$d" ] && { rmdir "$d" 2>/dev/null || true; }; done
		rmdir "$parent" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "global-recordings.sh: warning: cannot remove $parent" >&2
}

cleanup() {
	local rc=$? i
	set +e
	trap - EXIT INT TERM HUP
	kill_pids
	rm_cgroups
	if swapon --noheadings --show=NAME | grep -qxF "$swapfile"; then
		swapoff "$swapfile" || echo "global-recordings.sh: warning: swapoff $swapfile failed" >&2
	fi
	rm -rf "$work"
	if [ -n "$plain_inst" ] && [ -d "$plain_inst" ]; then
		echo 0 >"$plain_inst/tracing_on"
		echo 0 >"$plain_inst/events/enable"
		rmdir "$plain_inst" || echo "global-recordings.sh: warning: cannot remove $plain_inst" >&2
	fi
	# a recorder killed hard leaves reclaim-replay-PID (the next one would
	# remove it too)
	for i in "$tracing"/instances/reclaim-replay-*; do
		[ -d "$i" ] || continue
		kill -0 "${i##*-}" 2>/dev/null || rmdir "$i" 2>/dev/null
	done
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# the workload: MIB of anon memory, touched once (huge pages if asked),
# then held
cat >"$work/hold.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	size_t len = strtoul(argv[1], NULL, 0) << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	if (argc > 2 && atoi(argv[2]))
		madvise(p, len, MADV_HUGEPAGE);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = (char)i | 1;
	write(1, "ok\n", 3);
	for (;;)
		pause();
}
EOF
cc -O1 -o "$work/hold" "$work/hold.c"

avail_mib() { awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo; }

need() {	# need MIB-of-memory MIB-of-disk
	local a d
	a=$(avail_mib)
	d=$(df -Pm "$work" | awk 'NR == 2 { print $4 }')
	[ "$a" -ge "$1" ] || skip "needs $1 MiB available memory, has $a MiB"
	[ "$d" -ge "$2" ] || skip "needs $2 MiB free disk in $work, has $d MiB"
}

swap_on() {	# swap_on MIB
	dd if=/dev/zero of="$swapfile" bs=1M count="$1" status=none
	chmod 600 "$swapfile"
	mkswap -q "$swapfile" >/dev/null
	swapon "$swapfile"
}

swap_off() {
	swapoff "$swapfile"
	rm -f "$swapfile"
}

# start_anon MIB: NCG cgroups vm1..vmN under $parent holding MIB each
start_anon() {
	local i out
	mkdir -p "$parent"
	for i in $(seq 1 "$NCG"); do
		mkdir -p "$parent/vm$i"
		out=$work/vm$i.ok
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" "$4"' sh \
			"$parent/vm$i" "$work/hold" "$1" $((i % 2)) >"$out" &
		PIDS+=($!)
	done
	for i in $(seq 1 "$NCG"); do
		while ! grep -q ok "$work/vm$i.ok" 2>/dev/null; do
			kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null ||
				{ echo "global-recordings.sh: anon workload vm$i died" >&2; exit 1; }
			sleep 0.2
		done
	done
}

# reader CMD...: run in cgroup $parent/io
reader() {
	mkdir -p "$parent/io"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$parent/io" "$@" &
	PIDS+=($!)
}

# record_plain FILE: DURATION seconds into an instance of our own, then
# trace-cmd extract (what `trace-cmd record -e vmscan -e memcg -e cgroup`
# would hold; trace-cmd record itself fails on this machine)
record_plain() {
	local f=$1 g
	plain_inst=$tracing/instances/rr-global-plain-$$
	mkdir "$plain_inst"
	echo "$BUF_KB" >"$plain_inst/buffer_size_kb"
	cp /proc/zoneinfo "${f%.dat}.zoneinfo"
	for g in vmscan memcg cgroup; do
		[ -d "$plain_inst/events/$g" ] && echo 1 >"$plain_inst/events/$g/enable"
	done
	echo 1 >"$plain_inst/tracing_on"
	sleep "$DURATION"
	echo 0 >"$plain_inst/tracing_on"
	rm -f "$f.tmp"
	trace-cmd extract -B "${plain_inst##*/}" -o "$f.tmp" >/dev/null 2>&1
	mv -f "$f.tmp" "$f"
	if [ -d "$plain_inst" ]; then
		echo 0 >"$plain_inst/events/enable"
		rmdir "$plain_inst"
	fi
	plain_inst=""
}

# record NAME: DURATION seconds of the whole machine
record() {
	local f=$OUT/global-$1.dat
	if [ "$PLAIN" = 1 ]; then
		f=$OUT/global-$1-plain.dat
		record_plain "$f"
	else
		"$rr" record --force -q -o "$f" -- sleep "$DURATION"
	fi
	printf '%s: %s bytes' "${f##*/}" "$(stat -c %s "$f")"
	trace-cmd report "$f" 2>/dev/null | awk '
		/ mm_vmscan_kswapd_wake: / { w++ } / mm_vmscan_direct_reclaim_begin: / { d++ }
		/ mm_vmscan_lru_shrink_inactive: / { b++ } / mm_vmscan_write_folio: / { s++ }
		/reclaim-replay: zone / { z++ } /reclaim-replay: node / { n++ }
		END { printf ", kswapd_wake %d, direct calls %d, inactive batches %d, write_folio %d, zone lines %d, node lines %d\n", w, d, b, s, z, n }'
	trace-cmd report "$f" 2>/dev/null | grep -q ' mm_vmscan_kswapd_wake: ' ||
		{ echo "global-recordings.sh: ${f##*/}: no kswapd_wake" >&2; exit 1; }
	trace-cmd report "$f" 2>/dev/null | grep -q ' mm_vmscan_direct_reclaim_begin: ' ||
		echo "global-recordings.sh: warning: ${f##*/}: no direct reclaim" >&2
}

# until kswapd reclaims: pgscan_kswapd grew by 20000 pages (free memory
# itself hovers between the watermarks, at times above twice the low ones)
scanned() { awk '$1 == "pgscan_kswapd" { print $2 }' /proc/vmstat; }
wait_reclaim() {
	local t=0 start
	start=$(scanned)
	while [ $(( $(scanned) - start )) -lt 20000 ]; do
		sleep 0.1
		t=$((t + 1))
		[ $t -lt 3000 ] || { echo "global-recordings.sh: kswapd did not start within 300 s" >&2; exit 1; }
	done
}

rec_file() {
	need $((NCG * FILE_ANON_MIB + 2048)) 1200
	swap_on 1024
	start_anon "$FILE_ANON_MIB"
	truncate -s 60G "$sparse"
	reader dd if="$sparse" of=/dev/null bs=1M status=none
	reader dd if="$sparse" of=/dev/null bs=1M skip=30720 status=none
	wait_reclaim
	record file
	kill_pids
	rm_cgroups
	rm -f "$sparse"
	swap_off
}

rec_anon_swap() {
	need $((NCG * SWAP_ANON_MIB + 1024)) $((SWAP_MIB + 200))
	swap_on "$SWAP_MIB"
	start_anon "$SWAP_ANON_MIB"
	truncate -s $((WS_MIB + 1))M "$sparse"
	reader sh -c 'p=0; while :; do dd if="$1" of=/dev/null bs=1M count="$2" status=none
		p=$((p + 1)); echo $p >"$3"; done' sh "$sparse" "$WS_MIB" "$work/passes"
	# (the file is empty for a moment while a pass writes it)
	while p=$(cat "$work/passes" 2>/dev/null); [ "${p:-0}" -lt "$WARM_PASSES" ]; do
		sleep 0.2
	done
	record anon-swap
	kill_pids
	rm_cgroups
	rm -f "$sparse"
	swap_off
}

for n in "$@"; do
	"rec_${n//-/_}"
done
# (success: the last step's status is not the script's)
exit 0
