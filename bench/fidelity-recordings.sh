#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/fidelity-recordings.sh: make fresh real recordings of memcg
# reclaim on this machine and print what `reclaim-replay report
# --fidelity` says of each (how exactly the model of the recording kernel
# reproduces every recorded shrink_lruvec() call and every episode).
#
#   usage: bench/fidelity-recordings.sh [NAME...]     (default: all)
#   environment: OUT        output directory (default /var/tmp/rr16)
#                RR         the reclaim-replay binary (default ./reclaim-replay here)
#                SIB_LOOPS  passes of each sibling's workload (default 10)
#                SIB_BUF_KB ring buffer per CPU of ext-siblings (default 131072)
#
# Recordings (NAME.dat in OUT; `report --fidelity` text in NAME.fidelity.txt):
#   rec-file       swap off; record --cgroup rr-f --memory-max 64M -- cat a
#                  256 MiB file
#   rec-anon-s60   swap on; --memory-max 64M --swappiness 60 -- anon 96
#   rec-anon-s0    swap on; --memory-max 64M --swappiness 0: v1 memcg reclaim
#                  with swappiness 0 scans file only (anon would OOM), so the
#                  workload reads a 64 MiB file, then touches 48 MiB of anon
#   rec-anon-s100  swap on; --memory-max 64M --swappiness 100 -- anon 96
#   rec-siblings   swap on; record --cgroup rr-sib --memory-max 96M: children
#                  A, B, C each cat their own 128 MiB file SIB_LOOPS times, D
#                  touches 64 MiB of anon SIB_LOOPS times, all at once; the
#                  episodes must overlap in time (checked, the count printed)
#   ext-file       like rec-file (swap off), plain trace-cmd extract (no markers)
#   ext-anon       like rec-anon-s60 (swap on), plain trace-cmd extract
#   ext-siblings   like rec-siblings (swap on), plain trace-cmd extract
# The trace-cmd recordings use traces/extract/record-lib.sh; swap, cgroups,
# tracefs instances and the data files made here are removed on every exit,
# also on failure and on INT/TERM (the recordings stay).  Files are written
# with O_DIRECT and dropped from the page cache, so reading them charges the
# reader's cgroup; every recording reads files of its own.
# Exit 0; 1 on failure (a recording without reclaim, or rec-siblings or
# ext-siblings without overlapping episodes, is a failure); 2 usage; 77
# (SKIP) when not root, or tracefs or the v1 memory controller is missing.
# shellcheck disable=SC2016 # sh -c scripts: expanded by the inner shell
# shellcheck disable=SC2317 # functions called through "${n//-/_}" and traps
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rr=${RR:-$top/reclaim-replay}
OUT=${OUT:-/var/tmp/rr16}
ALL="rec-file rec-anon-s60 rec-anon-s0 rec-anon-s100 rec-siblings ext-file ext-anon ext-siblings"
SWAP_MIB=1024
SIB_LOOPS=${SIB_LOOPS:-10}
SIB_BUF_KB=${SIB_BUF_KB:-131072}

if [ "$(id -u)" -ne 0 ]; then
	printf '\n*** SKIP: bench/fidelity-recordings.sh needs root (tracefs, memory cgroups, swapon); nothing recorded ***\n\n' >&2
	exit 77
fi
for n in "$@"; do
	case " $ALL " in *" $n "*) ;; *) echo "fidelity-recordings.sh: unknown recording '$n' (one of: $ALL)" >&2; exit 2 ;; esac
done
for c in jq cc trace-cmd mkswap swapon swapoff; do
	command -v "$c" >/dev/null || { echo "fidelity-recordings.sh: '$c' not found" >&2; exit 1; }
done
[ -x "$rr" ] || { echo "fidelity-recordings.sh: $rr not built (run make)" >&2; exit 1; }

# record-lib.sh: environment checks (exit 77 with a SKIP line when tracefs or
# the v1 memory controller is missing), the cleanup trap, the extract helpers
# shellcheck source=../traces/extract/record-lib.sh source-path=SCRIPTDIR
. "$top/traces/extract/record-lib.sh"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RR_RECORDED_BY=bench/fidelity-recordings.sh	# (the marker of the extract recordings)
rr_init fidelity "$OUT/ext-file.dat"

REC_PID=""        # a running `reclaim-replay record`
REC_CGROUP=""     # the cgroup it made (under ours)
REC_OUT=""        # the file it writes
REC_ALL=()        # every recorder started (its tracefs instance is reclaim-replay-PID)

# On every exit: stop a running recorder (it removes its own cgroup and
# instance), then remove what it could not, then record-lib's cleanup
# (instance, cgroups, swap file, temporary directory).
cleanup() {
	local rc=$? d
	set +e
	trap - EXIT INT TERM HUP
	if [ -n "$REC_PID" ]; then
		kill -TERM "$REC_PID" 2>/dev/null
		wait "$REC_PID" 2>/dev/null
		rm -f "$REC_OUT"
		rr_log "removed the unfinished $REC_OUT"
	fi
	if [ -n "$REC_CGROUP" ] && [ -d "$REC_CGROUP" ]; then
		# children first; what runs there is killed, not moved to us
		for d in $(find "$REC_CGROUP" -mindepth 1 -type d | sort -r) "$REC_CGROUP"; do
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				xargs -r kill -KILL < "$d/cgroup.procs" 2>/dev/null
				rmdir "$d" 2>/dev/null && break
				sleep 0.2
			done
			[ -d "$d" ] && rr_log "WARNING: could not rmdir $d"
		done
	fi
	for d in "${REC_ALL[@]}"; do
		d=$RR_TRACEFS/instances/reclaim-replay-$d
		[ -d "$d" ] || continue
		echo 0 > "$d/tracing_on"
		echo 0 > "$d/events/enable"
		rmdir "$d" || rr_log "WARNING: could not rmdir $d"
	done
	rr_return "$rc"
	rr_cleanup
}
rr_return() { return "$1"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

tmp=$RR_TMP
cc -O2 -o "$tmp/anon" "$top/traces/workloads/anon.c"

swap_on() {
	grep -q "^/var/tmp/$RR_TAG-swapfile " /proc/swaps && return 0
	rr_swapon "$SWAP_MIB"
}
swap_off() {
	local f
	for f in "${RR_SWAPFILES[@]}"; do
		grep -q "^$f " /proc/swaps && swapoff "$f"
		rm -f "$f"
	done
	RR_SWAPFILES=()
}
# bigfile NAME MIB: a new file $tmp/NAME of MIB MiB, in no page cache.  Each
# recording reads files of its own, removed after it (drop_files), so no
# page cache or workingset shadow of an earlier recording is seen.
bigfile() {
	rm -f "$tmp/$1"
	rr_mkfile "$tmp/$1" "$2"
}
drop_files() { rm -f "$tmp"/f*; }

# rec NAME RECORD-OPTIONS... -- CMD...: `reclaim-replay record` in the
# background (so a signal reaches the trap at once, which stops it)
rec() {
	local name=$1 cg="" a prev="" rc=0
	shift
	for a in "$@"; do
		[ "$prev" = --cgroup ] && cg=$a
		prev=$a
	done
	REC_CGROUP=${cg:+$RR_OWN_CG/$cg}
	REC_OUT=$OUT/$name.dat
	"$rr" record --force -q -o "$REC_OUT" "$@" &
	REC_PID=$!
	REC_ALL+=("$REC_PID")
	wait "$REC_PID" || rc=$?
	REC_PID=""
	if [ "$rc" -ne 0 ]; then
		rr_log "ERROR: record of $name exited $rc; $REC_OUT removed"
		rm -f "$REC_OUT"
		return "$rc"
	fi
	REC_CGROUP=""
}

# drop_cgroups: remove the cgroups made by rr_mkcg so far (children first)
drop_cgroups() {
	local i cg
	for ((i = ${#RR_CGROUPS[@]} - 1; i >= 0; i--)); do
		cg=${RR_CGROUPS[$i]}
		rr_rmcg "$cg" || { rr_log "ERROR: could not rmdir $cg"; return 1; }
	done
	RR_CGROUPS=()
}

# bg_in CG CMD...: start CMD inside memory cgroup CG in the background
# (its pid is appended to RR_PIDS, which the trap kills)
bg_in() {
	local cg=$1
	shift
	bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' rr-run "$cg" "$@" &
	RR_PIDS+=("$!")
}
# wait_bg: wait for every RR_PIDS job; fails if one failed
wait_bg() {
	local p rc=0
	for p in "${RR_PIDS[@]}"; do
		wait "$p" || rc=$?
	done
	RR_PIDS=()
	return "$rc"
}

# the sibling workload, for both recorders: sh -c "$SIB_WORKLOAD" sh P FA FB
# FC ANON LOOPS (children A B C D of P must exist): A, B and C each cat their
# file LOOPS times, D touches 64 MiB of anon LOOPS times, all at once
SIB_WORKLOAD='
	P=$1
	pids=
	for c in A B C; do
		f=$2; [ $c = B ] && f=$3; [ $c = C ] && f=$4
		sh -c '\''echo $$ >"$1/cgroup.procs"; for i in $(seq $3); do cat "$2" >/dev/null || exit 1; done'\'' sh "$P/$c" "$f" "$6" &
		pids="$pids $!"
	done
	sh -c '\''echo $$ >"$1/cgroup.procs"; for i in $(seq $3); do "$2" 64 || exit 1; done'\'' sh "$P/D" "$5" "$6" &
	rc=0
	for p in $pids $!; do wait $p || rc=1; done
	exit $rc'

# --- the recordings ---------------------------------------------------------

rec_file() {
	swap_off	# file pages only, as traces/file-limit.dat
	bigfile f256 256
	rec rec-file --cgroup rr-f --memory-max 64M -- sh -c 'exec cat "$1" >/dev/null' sh "$tmp/f256"
}
rec_anon_s60() {
	swap_on
	rec rec-anon-s60 --cgroup rr-a60 --memory-max 64M --swappiness 60 -- "$tmp/anon" 96
}
rec_anon_s0() {
	swap_on
	bigfile f64 64
	rec rec-anon-s0 --cgroup rr-a0 --memory-max 64M --swappiness 0 -- \
		sh -c 'cat "$1" >/dev/null && exec "$2" 48' sh "$tmp/f64" "$tmp/anon"
}
rec_anon_s100() {
	swap_on
	rec rec-anon-s100 --cgroup rr-a100 --memory-max 64M --swappiness 100 -- "$tmp/anon" 96
}
rec_siblings() {
	swap_on
	bigfile fa 128
	bigfile fb 128
	bigfile fc 128
	rec rec-siblings --cgroup rr-sib --memory-max 96M -- sh -c '
		P=$RECLAIM_REPLAY_CGROUP
		mkdir "$P/A" "$P/B" "$P/C" "$P/D"
		sh -c "$1" sh "$P" "$2" "$3" "$4" "$5" "$6"' sh "$SIB_WORKLOAD" \
		"$tmp/fa" "$tmp/fb" "$tmp/fc" "$tmp/anon" "$SIB_LOOPS"
	# (record removes A..D with rr-sib after its end snapshot)
}

ext_file() {
	local f=$tmp/f256
	swap_off	# (a plain trace shows no swap: the replay infers it from anon scanning)
	bigfile f256 256
	RR_OUT=$OUT/ext-file.dat
	rr_instance_start
	rr_mkcg file
	rr_write $((64 << 20)) "$RR_CG/memory.limit_in_bytes"
	rr_marker "trace=ext-file cgroup=${RR_CG#"$RR_MEMCG_ROOT"} limit_mib=64 file_mib=256"
	rr_run_in "$RR_CG" cat "$f" >/dev/null
	rr_extract
	drop_cgroups
}
ext_anon() {
	swap_on
	RR_OUT=$OUT/ext-anon.dat
	rr_instance_start
	rr_mkcg anon
	rr_write $((64 << 20)) "$RR_CG/memory.limit_in_bytes"
	rr_write 60 "$RR_CG/memory.swappiness"
	rr_marker "trace=ext-anon cgroup=${RR_CG#"$RR_MEMCG_ROOT"} limit_mib=64 anon_mib=96 swappiness=60"
	rr_run_in "$RR_CG" "$tmp/anon" 96
	rr_extract
	drop_cgroups
}
ext_siblings() {
	local P c buf_kb=$RR_BUF_KB
	swap_on
	bigfile fa 128
	bigfile fb 128
	bigfile fc 128
	RR_OUT=$OUT/ext-siblings.dat  # (read by rr_extract)
	RR_BUF_KB=$SIB_BUF_KB	# the whole run must fit: extract reads the buffer at the end
	rr_instance_start
	rr_mkcg P
	P=$RR_CG
	rr_write $((96 << 20)) "$P/memory.limit_in_bytes"
	for c in A B C D; do
		mkdir "$P/$c"
		RR_CGROUPS+=("$P/$c")
	done
	rr_marker "trace=ext-siblings P=${P#"$RR_MEMCG_ROOT"} limit_mib=96 A,B,C=${SIB_LOOPS}x128MiB-cat D=${SIB_LOOPS}x64MiB-anon"
	bg_in "$P" sh -c "$SIB_WORKLOAD" sh "$P" "$tmp/fa" "$tmp/fb" "$tmp/fc" "$tmp/anon" "$SIB_LOOPS"
	wait_bg
	rr_extract
	RR_BUF_KB=$buf_kb
	drop_cgroups
}

# --- the figures ---------------------------------------------------------------

# overlap FILE: episodes (memcg, outermost) that overlap another task's in time
overlap() {
	"$rr" report -q --json "$1" |
		jq -r '.episodes[] | select(.kind == "memcg" and .depth == 0 and .end_ns != null)
		       | "\(.start_ns) \(.end_ns) \(.pid)"' |
		sort -n -k1,1 |
		awk '{ s[NR] = $1; e[NR] = $2; p[NR] = $3 }
		END {
			n = NR; m = 0; first = n ? s[1] : 0; last = 0
			for (i = 1; i <= n; i++) {
				if (e[i] > last) last = e[i]
				# open: earlier episodes still running at s[i]
				k = 0
				for (j in open) {
					if (e[j] <= s[i]) { delete open[j]; continue }
					if (p[j] != p[i]) { ov[i] = 1; ov[j] = 1; k++; pids[p[i]] = 1; pids[p[j]] = 1 }
				}
				if (k + 1 > m) m = k + 1
				open[i] = 1
			}
			c = 0; for (i in ov) c++
			np = 0; for (q in pids) np++
			printf "%d %d %d %d %.3f\n", c, n, m, np, n ? (last - first) / 1e9 : 0
		}'
}

figures() {
	local f=$OUT/$1.dat j
	"$rr" report -q --fidelity "$f" > "$OUT/$1.fidelity.txt"
	j=$("$rr" report -q --fidelity --json "$f")
	jq -e '(.episodes_by_kind.memcg.count // 0) > 0' <<< "$j" >/dev/null || {
		rr_log "ERROR: $1.dat holds no memcg reclaim"
		return 1
	}
	jq -r --arg n "$1" --arg size "$(stat -c %s "$f")" '
		def pct(a; b): if b > 0 then (1000 * a / b | round) / 10 else 0 end;
		.fidelity as $f | .episodes_by_kind.memcg as $m |
		"| \($n) | \($size) | \(.events.missed_events) | \($m.count) | \($m.reclaimed_pages) | \($f.decisions_checked) | \(pct($f.exact; $f.decisions_checked)) % | \($f.off_by_one) | \($f.within_one_batch) | "
		+ ([$f.unchecked_reasons | to_entries[] | "\(.value) \(.key)"] | if length > 0 then join(", ") else "0" end)
		+ " | \($f.trajectory_checked)/\($f.episodes_total) | \(pct($f.trajectory_exact; $f.trajectory_checked)) % | \($f.trajectory_concurrent) (\($f.trajectory_concurrent_exact) exact) | \($f.trajectory_unchecked_interleaved) | \($f.predicted_unrecorded) |"' <<< "$j"
}

names=${*:-$ALL}
for n in $names; do
	rr_log "== $n"
	"${n//-/_}"
	drop_files
	ls -l "$OUT/$n.dat" >&2
done
swap_off

: > "$tmp/rows"
for n in $names; do
	figures "$n" >> "$tmp/rows"
done
echo
echo "## fidelity of fresh recordings ($(uname -r), $(date -u +%Y-%m-%dT%H:%MZ), $OUT)"
echo
echo "| recording | bytes | lost events | memcg episodes | pages reclaimed | decisions checked | exact | off by one | within one batch | not judged | trajectories checked/episodes | exact | overlapping (concurrent) trajectories | trajectories not judged: interleaved walks | predicted but unrecorded calls (in checked) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
cat "$tmp/rows"
rc=0
for n in $names; do
	lost=$("$rr" report -q --json "$OUT/$n.dat" | jq '.events.missed_events')
	[ "$lost" = 0 ] || echo "WARNING: $n.dat lost $lost events (ring buffer overflow): its figures are incomplete" >&2
done
for n in $names; do
	case $n in *siblings) ;; *) continue ;; esac
	read -r ov total maxc npids span <<< "$(overlap "$OUT/$n.dat")"
	echo
	echo "$n: $ov of $total memcg episodes overlap another task's reclaim in time" \
	     "(up to $maxc at once, $npids reclaiming tasks involved; reclaim spans ${span} s)"
	if [ "$ov" -eq 0 ] || [ "$total" -lt 2 ]; then
		echo "$n: FAIL: no episodes overlap; the siblings did not reclaim concurrently" >&2
		rc=1
	fi
done
for n in $names; do
	grep -q 'worst episodes' "$OUT/$n.fidelity.txt" || continue
	echo
	echo "### $n: $(sed -n 's/^ *decisions.*checked: //p' "$OUT/$n.fidelity.txt") calls checked; worst episodes"
	sed -n '/worst episodes/,$p' "$OUT/$n.fidelity.txt" | sed 1d
done
exit "$rc"
