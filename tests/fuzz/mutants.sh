#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One-byte mutants of the bundled traces, each through `report`, sorted by
# what the product did: "error" (exit 1 with a message), "warned" (exit 0
# with a warning), "same" (exit 0, silent, the same episode count), and
# the two that must never happen: "SILENT" (exit 0, no word, another
# episode count) and "CRASH" (exit above 1, or a timeout).  Those are kept
# as $OUT/silent-* and $OUT/crash-* (TRACE-OFFSET-BYTE.dat).  Prints one
# line per mutant, then the counts.  Not a test: random offsets.
#   usage: tests/fuzz/mutants.sh [N per trace, default 100]
#   environment: RR (default ./reclaim-replay), OUT (default $TMPDIR/rr-mutants)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
RR=${RR:-$top/reclaim-replay}
OUT=${OUT:-${TMPDIR:-/tmp}/rr-mutants}
n=${1:-100}
mkdir -p "$OUT"
m=$OUT/m.dat
episodes() { sed -nE 's/^episodes the replay models [^:]*: ([0-9]+) .*/\1/p' "$1"; }
for f in "$top"/traces/*.dat; do
	t=$(basename "$f" .dat)
	size=$(stat -c %s "$f")
	"$RR" report "$f" >"$OUT/out" 2>/dev/null
	base=$(episodes "$OUT/out")
	for _ in $(seq 1 "$n"); do
		off=$(( (RANDOM * 32768 + RANDOM) % size ))
		byte=$(( RANDOM % 256 ))
		cp "$f" "$m"
		printf "\\$(printf %03o "$byte")" | dd of="$m" bs=1 seek="$off" conv=notrunc 2>/dev/null
		timeout 60 "$RR" report "$m" >"$OUT/out" 2>"$OUT/err"
		rc=$?
		ep=$(episodes "$OUT/out")
		if [ $rc -gt 1 ]; then
			cls=CRASH
			cp "$m" "$OUT/crash-$t-$off-$byte.dat"
		elif [ $rc -eq 1 ]; then
			cls=error
		elif [ -s "$OUT/err" ]; then
			cls=warned
		elif [ "$ep" != "$base" ]; then
			cls=SILENT
			cp "$m" "$OUT/silent-$t-$off-$byte.dat"
		else
			cls=same
		fi
		echo "$t $off $byte $cls ${ep:-}/$base"
	done
done | tee "$OUT/results.txt"
echo
awk '{ print $4 }' "$OUT/results.txt" | sort | uniq -c
! grep -qE ' (SILENT|CRASH) ' "$OUT/results.txt"
