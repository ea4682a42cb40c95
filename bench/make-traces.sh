#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/make-traces.sh: record the benchmark's large real traces with
# `reclaim-replay record`: t1m.dat, t10m.dat and t50m.dat (about 1 M, 10 M
# and 50 M events) in BENCH_DIR.  The workload is bench/anon-loop.c touching
# 96 MiB in a fresh memory cgroup limited to 64 MiB, with a 2 GiB swap file
# (made under BENCH_DIR, removed again on every exit), so it reclaims
# (swaps) all the time.  Needs root.  See bench/README.md.
#
#   usage: bench/make-traces.sh [--force] [t1m|t10m|t50m]...   (default: all three)
#   environment:
#     BENCH_DIR       output directory (default /var/tmp/rrbench)
#     RR              the reclaim-replay binary (default: ./reclaim-replay of this repo)
#     EVENTS_PER_SEC  the recording rate the durations are sized by (default 240000)
#   --force           record a trace again even if it exists
#
# A trace is recorded as NAME.dat.part and renamed when complete, so an
# existing NAME.dat is always a finished recording.  Exit status: 0; 1 on
# any failure (with a message), or when a trace has under 90% of its
# target events (it is kept; the workload died early, or the machine
# records slower than EVENTS_PER_SEC); 77 when not root (skipped).

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
EVENTS_PER_SEC=${EVENTS_PER_SEC:-240000}
MIB=96             # anon-loop's working set
MEMORY_MAX=64M     # its cgroup's limit
CGROUP=rrbench
SWAP_MIB=2048
FORCE=0
WANT=()
SHORT=()

for arg in "$@"; do
	case $arg in
	--force) FORCE=1 ;;
	t1m | t10m | t50m) WANT+=("$arg") ;;
	-h | --help)
		sed -n '4,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) die "unknown argument '$arg' (try --help)" ;;
	esac
done
((${#WANT[@]})) || WANT=(t1m t10m t50m)

if [[ $(id -u) -ne 0 ]]; then
	{
		echo "********************************************************************"
		echo "SKIP: bench/make-traces.sh needs root (tracefs, memory cgroups,"
		echo "      swapon); no trace was recorded.  Run it as root."
		echo "********************************************************************"
	} >&2
	exit 77
fi

[[ $EVENTS_PER_SEC =~ ^[1-9][0-9]*$ ]] || die "EVENTS_PER_SEC='$EVENTS_PER_SEC' is not a positive whole number"
for cmd in jq gcc mkswap swapon swapoff df; do
	command -v "$cmd" >/dev/null || die "'$cmd' not found"
done
[[ -x $RR ]] || die "RR=$RR is not an executable (build it with make, or set RR)"
mkdir -p -- "$BENCH_DIR" || die "cannot create BENCH_DIR=$BENCH_DIR"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)

target_of() {
	case $1 in
	t1m) echo 1000000 ;;
	t10m) echo 10000000 ;;
	t50m) echo 50000000 ;;
	esac
}

# The traces to record, and the disk they need: about 31 bytes an event
# measured (91 MB for 2.9 M events), twice while record merges its
# per-CPU files, plus the swap file.
TODO=()
need_mb=$SWAP_MIB
for t in "${WANT[@]}"; do
	if [[ -e $BENCH_DIR/$t.dat && $FORCE -eq 0 ]]; then
		continue
	fi
	TODO+=("$t")
	need_mb=$((need_mb + $(target_of "$t") * 35 * 2 / 1048576))
done

# ---- cleanup: on every exit path, only what this script made --------------

WORK=
SWAP=
SWAP_ON=0
RECPID=
PART=
cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [[ -n $RECPID ]]; then
		# record stops on SIGTERM: kills its command, removes its cgroup
		kill -TERM "$RECPID" 2>/dev/null || true
		wait "$RECPID" 2>/dev/null || true
	fi
	if [[ -n $PART ]]; then
		rm -f -- "$PART" "$PART".cpu*
	fi
	if ((SWAP_ON)); then
		swapoff -- "$SWAP" || say "WARNING: swapoff $SWAP failed; remove it by hand"
	fi
	if [[ -n $SWAP ]]; then
		rm -f -- "$SWAP"
	fi
	if [[ -n $WORK ]]; then
		rm -rf -- "$WORK"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM
trap 'say "hung up"; exit 129' HUP

if ((${#TODO[@]})); then
	avail_mb=$(df -Pm -- "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
	((avail_mb >= need_mb)) ||
		die "$BENCH_DIR has $avail_mb MiB free, recording ${TODO[*]} needs about $need_mb MiB"

	WORK=$(mktemp -d "${TMPDIR:-/tmp}/rrbench-make.XXXXXX") || die "mktemp -d"
	gcc -O2 -o "$WORK/anon-loop" "$REPO/bench/anon-loop.c" || die "building bench/anon-loop.c"

	# The workload: anon-loop, started again if the memcg's OOM killer ends
	# it (swap-in readahead can push the 64M cgroup into OOM after a
	# minute or so, and record stops when its command exits).  On
	# SIGTERM from record (at --duration) it ends anon-loop and waits for
	# it, so the cgroup is empty when record removes it.
	cat >"$WORK/workload" <<-'EOF'
		#!/bin/sh
		# usage: workload ANON-LOOP MIB
		# anon-loop is killed if this shell dies (e.g. SIGKILL), so it is
		# never left behind in record's cgroup
		PDEATH=
		setpriv --pdeathsig KILL true 2>/dev/null && PDEATH="setpriv --pdeathsig KILL --"
		c=
		quick=0
		trap '[ -n "$c" ] && kill "$c" 2>/dev/null; [ -n "$c" ] && wait "$c" 2>/dev/null; exit 0' TERM INT HUP
		while :; do
			t0=$(date +%s)
			$PDEATH "$1" "$2" &
			c=$!
			wait "$c"
			s=$?
			c=
			# one that keeps dying at once would only spin: after 3 deaths
			# in a row within 2 s of their start, give up (record stops)
			if [ $(($(date +%s) - t0)) -lt 2 ]; then quick=$((quick + 1)); else quick=0; fi
			if [ "$quick" -ge 3 ]; then
				echo "make-traces.sh: anon-loop $2 ended with status $s, the 3rd time in a row within 2 s: giving up" >&2
				exit 1
			fi
			echo "make-traces.sh: anon-loop $2 ended with status $s (memcg OOM kill?), started again" >&2
		done
	EOF
	chmod +x "$WORK/workload"

	SWAP=$(mktemp "$BENCH_DIR/.make-traces-swap.XXXXXX") || die "mktemp in $BENCH_DIR"
	say "making a $SWAP_MIB MiB swap file $SWAP"
	chmod 600 -- "$SWAP"
	if ! fallocate -l "${SWAP_MIB}M" -- "$SWAP" 2>/dev/null; then
		dd if=/dev/zero of="$SWAP" bs=1M count="$SWAP_MIB" status=none || die "writing $SWAP"
	fi
	mkswap -- "$SWAP" >/dev/null || die "mkswap $SWAP"
	swapon -- "$SWAP" || die "swapon $SWAP (a file system that cannot hold swap? set BENCH_DIR)"
	SWAP_ON=1
fi

for t in "${WANT[@]}"; do
	out=$BENCH_DIR/$t.dat
	target=$(target_of "$t")
	if [[ -e $out && $FORCE -eq 0 ]]; then
		say "$out exists, not recorded again (--force does)"
		n=$(events_of "$out")
		echo "$t.dat: $n events (existing)"
		if ((n * 10 < target * 9)); then
			say "WARNING: $t.dat has $n events, under 90% of $target"
			SHORT+=("$t.dat ($n events)")
		fi
		continue
	fi
	secs=$(((target + EVENTS_PER_SEC - 1) / EVENTS_PER_SEC))
	PART=$out.part
	log=$WORK/$t.log
	say "recording $out: anon-loop $MIB under --memory-max $MEMORY_MAX for $secs s (~$target events at $EVENTS_PER_SEC/s)"
	"$RR" record --force -o "$PART" --cgroup "$CGROUP" --memory-max "$MEMORY_MAX" \
		--duration "$secs" -- "$WORK/workload" "$WORK/anon-loop" "$MIB" 2>"$log" &
	RECPID=$!
	rc=0
	wait "$RECPID" || rc=$?
	RECPID=
	sed 's/^/    /' "$log" >&2
	# 3: the trace is written, but the workload failed before --duration
	((rc == 0 || rc == 3)) || die "'$RR record ... -o $PART' exited with status $rc"
	[[ -s $PART ]] || die "record wrote no $PART"
	if ((rc == 3)); then
		say "WARNING: the workload ended before --duration; $t.dat is shorter than planned"
	fi
	mv -f -- "$PART" "$out"
	PART=
	n=$(events_of "$out")
	restarts=$(grep -c 'started again' "$log" || true)
	echo "$t.dat: $n events, $(du -m -- "$out" | cut -f1) MiB, recorded for $secs s, anon-loop restarts: $restarts"
	if ((n * 10 < target * 9)); then
		say "WARNING: $t.dat has $n events, under 90% of $target: this run recorded about $((n / secs)) events/s"
		SHORT+=("$t.dat ($n events)")
	fi
done
if ((${#SHORT[@]})); then
	{
		echo "********************************************************************"
		echo "make-traces.sh: under 90% of their target event count (kept):"
		printf '    %s\n' "${SHORT[@]}"
		echo "Record them again with --force NAME (with a lower EVENTS_PER_SEC if"
		echo "the workload ran its full duration: a slower machine or load)."
		echo "********************************************************************"
	} >&2
	exit 1
fi
say "done."
