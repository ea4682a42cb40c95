#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/make-plain-traces.sh: the benchmark's plain inputs, what users bring
# besides the tool's own recordings: traces made with tracefs and
# `trace-cmd extract` only (no recorder markers, no snapshots).  In
# BENCH_DIR/plain (kept: a second run records nothing):
#   ext-anon.dat            memcg limit reclaim of anon with swap
#                           (bench/fidelity-recordings.sh ext-anon)
#   global-file-plain.dat   global reclaim, kswapd and direct, with the
#                           .zoneinfo copy beside it
#                           (PLAIN=1 bench/global-recordings.sh file)
# bench/run.sh measures them beside t1m/t10m/t50m when they are there.
# Needs root; exit 77 (SKIP) where the scripts it runs skip.
#
#   usage: bench/make-plain-traces.sh [--force]
#   environment: BENCH_DIR (default /var/tmp/rrbench), RR, DURATION (seconds
#                of the global recording, default 5), BUF_KB (its ring buffer
#                per CPU, default 262144)

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
FORCE=0
for arg in "$@"; do
	case $arg in
	--force) FORCE=1 ;;
	-h | --help)
		sed -n '4,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) die "unknown argument '$arg' (try --help)" ;;
	esac
done
OUT=$BENCH_DIR/plain
mkdir -p -- "$OUT" || die "cannot create $OUT"

run() {	# NAME FILE CMD...: run CMD unless FILE is there (or --force)
	local name=$1 file=$2 rc=0
	shift 2
	if [[ -s $file && $FORCE -eq 0 ]]; then
		say "$file exists, not recorded again (--force does)"
		return 0
	fi
	say "recording $name ..."
	"$@" >"$OUT/$name.log" 2>&1 || rc=$?
	((rc == 77)) && { sed 's/^/    /' "$OUT/$name.log" >&2; exit 77; }
	((rc == 0)) || { sed 's/^/    /' "$OUT/$name.log" >&2; die "$name: $* exited $rc"; }
	[[ -s $file ]] || die "$name: $file was not written"
	say "$file: $(events_of "$file") events"
}

run ext-anon "$OUT/ext-anon.dat" env OUT="$OUT" RR="$RR" "$REPO/bench/fidelity-recordings.sh" ext-anon
# (a 64 MiB buffer per CPU lost an eighth of 5 s of events here)
run global-file-plain "$OUT/global-file-plain.dat" \
	env PLAIN=1 DURATION="${DURATION:-5}" BUF_KB="${BUF_KB:-262144}" OUT="$OUT" RR="$RR" \
	"$REPO/bench/global-recordings.sh" file
