#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark of the readers behind `report` (not a test: it prints figures).
# Renders traces/anon-swap.dat with `trace-cmd report`, repeats it N times
# shifted in time into one big text trace, and times `report` on the
# trace.dat and on the text: lines or events per second and peak RSS.
#   usage: scripts/bench-report.sh [COPIES]   (default 25)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rr=$top/reclaim-replay
copies=${1:-25}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-bench-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

trace-cmd report "$top/traces/anon-swap.dat" 2>/dev/null >"$tmp/one.txt"
for i in $(seq 0 $((copies - 1))); do
	# shift every timestamp by 100 s per copy; drop the repeated preamble
	awk -v off=$((i * 100)) -v first=$i '
		/^cpus=/ { if (first == 0) print; next }
		match($0, / [0-9]+\.[0-9]+: /) {
			ts = substr($0, RSTART + 1, RLENGTH - 3) + off
			printf "%s %.6f: %s\n", substr($0, 1, RSTART - 1), ts, substr($0, RSTART + RLENGTH)
			next
		}
		{ print }' "$tmp/one.txt"
done >"$tmp/big.txt"
lines=$(wc -l <"$tmp/big.txt")
mb=$(( $(stat -c %s "$tmp/big.txt") / 1048576 ))

measure() {	# measure LABEL UNITS FILE: wall seconds, units/s, peak RSS
	local label=$1 units=$2 file=$3 out
	out=$( { /usr/bin/time -f '%e %M' "$rr" report -q "$file" >/dev/null; } 2>&1 | tail -1)
	set -- $out
	awk -v l="$label" -v u="$units" -v s="$1" -v kb="$2" 'BEGIN {
		printf "%-34s %8.2f s %12.0f /s %8.1f MiB peak RSS\n", l, s, (s > 0 ? u / s : 0), kb / 1024 }'
}
events=$(trace-cmd report "$top/traces/anon-swap.dat" 2>/dev/null | grep -c ': ')
echo "anon-swap.dat: $events events; text trace: $copies copies, $lines lines, $mb MiB"
measure "report anon-swap.dat (events)" "$events" "$top/traces/anon-swap.dat"
measure "report text x$copies (lines)" "$lines" "$tmp/big.txt"
