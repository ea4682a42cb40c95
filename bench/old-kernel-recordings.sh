#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/old-kernel-recordings.sh: real recordings of memcg limit reclaim
# with `reclaim-replay record --no-memcg-events` (the stand-in for a kernel
# before 6.13, which has no memcg: events; issue 14) and of the same
# workloads with the events, side by side, to measure what a replay loses
# without them.
#
#   usage: bench/old-kernel-recordings.sh [file|anon|multi]...   (default: all)
#   environment: OUT       output directory (default /var/tmp/rr14)
#                RR        the reclaim-replay binary (default ./reclaim-replay here)
#                DURATION  seconds of each recording (default 4)
#                LIMIT     the memory limit (default 64M)
#                SNAPSHOT_MS  --snapshot-interval of the recordings (default
#                          250, record's own without the memcg events; the
#                          recordings with them get it too, so that
#                          report --drop-memcg-events checks the inference
#                          on the snapshots a recording without them holds)
#
# Recordings (in OUT; NAME-nomemcg.dat without the memcg events, NAME-memcg.dat
# with them, the same workload):
#   file   a 256 MiB file written with O_DIRECT (not in the page cache) is
#          read in a loop by one `cat` in the cgroup rr-file (LIMIT):
#          page-cache limit reclaim, as traces/file-limit.dat.
#   anon   a 512 MiB swap file on; bench/anon-loop.c touches 96 MiB over
#          and over in the cgroup rr-anon (LIMIT, swappiness 60): anon
#          limit reclaim with swap, as traces/anon-swap.dat.
#   multi  the cgroup rr-multi (LIMIT) with two children: A reads a 24 MiB
#          file once and keeps a `sleep` in it (its page cache stays
#          charged to A), then B reads the 256 MiB file in a loop: B's reads
#          reclaim rr-multi's limit, and each reclaim walks A and B.
# Every recording runs for DURATION seconds (`record --duration`, which then
# stops the workload).  Every exit (success, failure, INT/TERM) turns the
# swap file off and removes it and removes the work files; the cgroups are
# record's, which removes them.  The recordings stay.
# Exit 0; 1 on failure (a recording without memcg reclaim is one); 2 usage;
# 77 (SKIP) when not root, tracefs or the memory controller is missing.
# shellcheck disable=SC2317 # cleanup runs from the trap
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rr=${RR:-$top/reclaim-replay}
OUT=${OUT:-/var/tmp/rr14}
DURATION=${DURATION:-4}
LIMIT=${LIMIT:-64M}
SNAPSHOT_MS=${SNAPSHOT_MS:-}
ALL="file anon multi"

skip() {
	printf '\n*** SKIP: bench/old-kernel-recordings.sh: %s; nothing recorded ***\n\n' "$*" >&2
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs, memory cgroups, swapon)"
for n in "$@"; do
	case " $ALL " in *" $n "*) ;; *) echo "old-kernel-recordings.sh: unknown recording '$n' (one of: $ALL)" >&2; exit 2 ;; esac
done
[ $# -gt 0 ] || set -- $ALL
[ -d /sys/kernel/tracing/events/vmscan ] || skip "no tracefs with vmscan events at /sys/kernel/tracing"
grep -qw memory /proc/cgroups || skip "no memory cgroup controller"
for c in cc dd mkswap swapon swapoff trace-cmd; do
	command -v "$c" >/dev/null || { echo "old-kernel-recordings.sh: '$c' not found" >&2; exit 1; }
done
[ -x "$rr" ] || { echo "old-kernel-recordings.sh: $rr not built (run make)" >&2; exit 1; }

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/rr-old-kernel.XXXXXX")
swapfile=$work/swap

cleanup() {
	local rc=$?
	set +e
	trap - EXIT INT TERM HUP
	if swapon --noheadings --show=NAME | grep -qxF "$swapfile"; then
		swapoff "$swapfile" || echo "old-kernel-recordings.sh: warning: swapoff $swapfile failed" >&2
	fi
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

cc -O2 -o "$work/anon-loop" "$top/bench/anon-loop.c"
# files that are not in the page cache (written with O_DIRECT)
dd if=/dev/zero of="$work/big" bs=1M count=256 oflag=direct status=none
dd if=/dev/zero of="$work/small" bs=1M count=24 oflag=direct status=none

# record NAME-SUFFIX [record options] -- CMD...: one recording, and a line
# of what it holds
record() {
	local name=$1 f=$OUT/$1.dat
	shift
	"$rr" record --force -q --duration "$DURATION" -o "$f" "$@"
	trace-cmd report "$f" 2>/dev/null | awk -v name="$name" -v size="$(stat -c %s "$f")" '
		/ mm_vmscan_memcg_reclaim_begin: / { r++ } / mm_vmscan_lru_isolate: / { b++ }
		/ memcg:| mod_memcg_lruvec_state: | count_memcg_events: | memcg_flush_stats: / { m++ }
		/reclaim-replay: snapshot begin when=periodic/ { p++ } /reclaim-replay: tasks / { t++ } / sched_process_fork: / { k++ }
		END { printf "%s: %d bytes, memcg reclaim calls %d, isolate batches %d, memcg events %d, periodic snapshots %d, tasks lines %d, forks %d\n", name, size, r, b, m, p, t, k
		      if (!r) exit 1 }' ||
		{ echo "old-kernel-recordings.sh: $name: no memcg reclaim recorded" >&2; exit 1; }
	# reclaim of another's workload (a test suite recording meanwhile)
	# spoils the comparison: said, not hidden
	foreign "$name" "$f"
}

# foreign NAME FILE: warn when a memcg reclaim call of FILE is not our
# workload's: with the memcg events, a cgroup other than rr-* in report's
# table; without them, a task that neither moved into rr-* (attach), nor
# is listed in a tasks line of an rr-* memcg, nor forked from one of those
foreign() {
	local n
	if [ "${1%-nomemcg}" = "$1" ]; then
		n=$("$rr" report "$2" 2>/dev/null | awk '/^(\.\.\.|\/)/ && !/: trace\.dat/ && !/\/rr-[a-z]+(\/[AB])?  / { n++ } END { print n + 0 }')
	else
		n=$(trace-cmd report "$2" 2>/dev/null | awk '
			/reclaim-replay: memcg id=.* path=.*\/rr-[a-z]+(\/[AB])?$/ { sub(/.*memcg id=/, ""); sub(/ .*/, ""); ours_cg[$0] = 1; next }
			/reclaim-replay: tasks memcg=/ {
				id = $0; sub(/.*tasks memcg=/, "", id); sub(/ .*/, "", id)
				if (id in ours_cg && match($0, /pids=[0-9,]+/)) {
					k = split(substr($0, RSTART + 5, RLENGTH - 5), p, ",")
					for (i = 1; i <= k; i++) ours[p[i]] = 1
				}
				next
			}
			/ cgroup_attach_task: .*dst_path=.*\/rr-[a-z]+/ { if (match($0, / pid=[0-9]+/)) ours[substr($0, RSTART + 5, RLENGTH - 5)] = 1; next }
			/ sched_process_fork: / {
				match($0, / pid=[0-9]+/); parent = substr($0, RSTART + 5, RLENGTH - 5)
				match($0, /child_pid=[0-9]+/); child = substr($0, RSTART + 10, RLENGTH - 10)
				if (parent in ours) ours[child] = 1
				next
			}
			/ mm_vmscan_memcg_reclaim_begin: / { k = split($1, a, "-"); if (!(a[k] in ours)) n++ }
			END { print n + 0 }')
	fi
	[ "$n" = 0 ] ||
		echo "old-kernel-recordings.sh: warning: $1: $n reclaim calls or cgroups are not the workload's (another recording ran meanwhile?)" >&2
}

# both recordings of one workload: without the memcg events, then with
both() {
	local name=$1
	shift
	record "$name-nomemcg" --no-memcg-events ${SNAPSHOT_MS:+--snapshot-interval "$SNAPSHOT_MS"} "$@"
	# (periodic snapshots with the events too: their tasks lines and forks
	# let report --drop-memcg-events check the inference on what a
	# recording without them holds)
	record "$name-memcg" --snapshot-interval "${SNAPSHOT_MS:-250}" "$@"
}

rec_file() {
	both file --cgroup rr-file --memory-max "$LIMIT" -- \
		sh -c 'while :; do cat "$1" >/dev/null; done' sh "$work/big"
}

rec_anon() {
	dd if=/dev/zero of="$swapfile" bs=1M count=512 status=none
	chmod 600 "$swapfile"
	mkswap -q "$swapfile" >/dev/null
	swapon "$swapfile"
	both anon --cgroup rr-anon --memory-max "$LIMIT" --swappiness 60 -- "$work/anon-loop" 96
	swapoff "$swapfile"
	rm -f "$swapfile"
}

rec_multi() {
	# (the cgroup's children are removed by record with the cgroup)
	both multi --cgroup rr-multi --memory-max "$LIMIT" -- sh -c '
		P=$RECLAIM_REPLAY_CGROUP
		mkdir "$P/A" "$P/B"
		sh -c "echo \$\$ >\"$P/A/cgroup.procs\"; cat \"$1\" >/dev/null; exec sleep 3600" &
		sleep 0.5
		echo $$ >"$P/B/cgroup.procs"
		while :; do cat "$2" >/dev/null; done' sh "$work/small" "$work/big"
}

for n in "$@"; do
	"rec_$n"
done
# (success: the last step's status is not the script's)
exit 0
