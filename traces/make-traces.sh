#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Re-make the bundled traces with `reclaim-replay record` (root, tracefs,
# cgroup v1 or v2 memory controller).  Each trace runs its workload in a
# cgroup that record creates under our own memory cgroup and removes; swap
# files and tmpfs mounts made here are removed on exit, also on failure.
#
#   traces/make-traces.sh [NAME...]   NAME: file-limit anon-swap offline-child offline-anon
#   environment: OUT (default traces/), RECORD_OPTS (more record options,
#   e.g. "--snapshot-interval 250": periodic snapshots, tasks lines and
#   forks, for report --drop-memcg-events)
#
# Exits 77 with a SKIP line when not root.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rr=$top/reclaim-replay
out=${OUT:-$top/traces}
[ "$(id -u)" -eq 0 ] || { echo "*** SKIP: make-traces.sh needs root ***" >&2; exit 77; }
tmp=$(mktemp -d /var/tmp/rr-traces.XXXXXX)
swap=""
cleanup() {
	[ -n "$swap" ] && swapoff "$swap" 2>/dev/null
	mountpoint -q "$tmp/shm" 2>/dev/null && umount "$tmp/shm"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$tmp/anon" "$top/traces/workloads/anon.c"

# a file that is not in the page cache (written with O_DIRECT)
bigfile() { dd if=/dev/zero of="$tmp/$1" bs=1M count="$2" oflag=direct status=none; }
swap_on() {
	swap=$tmp/swapfile
	fallocate -l 512M "$swap" && chmod 600 "$swap" && mkswap "$swap" >/dev/null && swapon "$swap"
}
swap_off() { swapoff "$swap"; rm -f "$swap"; swap=""; }
record() {	# record NAME RECORD-OPTIONS... -- CMD...
	local name=$1
	shift
	# (RECORD_OPTS: more record options, e.g. --snapshot-interval 250)
	# shellcheck disable=SC2086
	"$rr" record --force -o "$out/$name.dat" ${RECORD_OPTS:-} "$@"
}

file_limit() {
	bigfile f 256
	record file-limit --cgroup rr-file --memory-max 64M -- sh -c "cat '$tmp/f' >/dev/null"
}

anon_swap() {
	swap_on
	record anon-swap --cgroup rr-anon --memory-max 64M --swappiness 60 -- "$tmp/anon" 72
	swap_off
}

offline_child() {
	bigfile c 60
	bigfile d 160
	# in P: C reads 60 MiB, is removed (offline, its page cache still
	# charged), then D reads 160 MiB against P's 96 MiB limit
	record offline-child --cgroup rr-P --memory-max 96M -- sh -c '
		P=$RECLAIM_REPLAY_CGROUP
		mkdir "$P/C" "$P/D"
		echo $$ >"$P/C/cgroup.procs"; cat "$1" >/dev/null
		echo $$ >"$P/cgroup.procs"; rmdir "$P/C"
		echo $$ >"$P/D/cgroup.procs"; cat "$2" >/dev/null
		echo $$ >"$P/cgroup.procs"; rmdir "$P/D"' sh "$tmp/c" "$tmp/d"
}

offline_anon() {
	swap_on
	bigfile c 20
	mkdir "$tmp/shm"
	mount -t tmpfs -o size=48M,huge=never,mode=0700 tmpfs "$tmp/shm"
	# C holds 40 MiB of shmem (anon LRU, survives its writer) and 20 MiB
	# of page cache, and is removed; D then needs 64 MiB of anon in P
	record offline-anon --cgroup rr-P --memory-max 96M --swappiness 60 -- sh -c '
		P=$RECLAIM_REPLAY_CGROUP
		mkdir "$P/C" "$P/D"
		echo $$ >"$P/C/cgroup.procs"
		dd if=/dev/zero of="$2/shm" bs=1M count=40 status=none; cat "$1" >/dev/null
		echo $$ >"$P/cgroup.procs"; rmdir "$P/C"
		echo $$ >"$P/D/cgroup.procs"
		"$3" 64
		echo $$ >"$P/cgroup.procs"; rmdir "$P/D"' sh "$tmp/c" "$tmp/shm" "$tmp/anon"
	rm -f "$tmp/shm/shm"
	umount "$tmp/shm"
	swap_off
}

names=${*:-file-limit anon-swap offline-child offline-anon}
for n in $names; do
	echo "== $n" >&2
	"${n//-/_}"
	ls -l "$out/$n.dat" >&2
done
