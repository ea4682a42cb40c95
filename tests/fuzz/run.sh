#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run libFuzzer targets (built by `make fuzz-build` into build-fuzz/), each
# for FUZZ_SECONDS (default 300), FUZZ_JOBS at a time (default 1).  Each
# target's corpus is build-fuzz/corpus-TARGET, seeded on the first run from
# the bundled traces, text fixtures and scenarios; a crash, leak or hang is
# saved as build-fuzz/out-TARGET/crash-*, leak-*, timeout-* or oom-*.  Prints one
# line per target: runs, coverage, corpus size, findings.  Exit 1 if any
# target found something.  Needs trace-cmd for some seeds.
#   usage: tests/fuzz/run.sh [TARGET...]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
secs=${FUZZ_SECONDS:-300}
jobs=${FUZZ_JOBS:-1}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-text fuzz-dat fuzz-scenario fuzz-markers)
supp=$top/tests/lsan.supp

seed() {	# seed TARGET DIR: the first corpus
	local t=$1 d=$2 f n=0
	case $t in
	fuzz-text)
		cp tests/fixtures/text/*.txt "$d"/
		# and a few short, real renderings of the bundled traces
		if command -v trace-cmd >/dev/null 2>&1; then
			for f in traces/file-limit.dat traces/offline-child.dat; do
				trace-cmd report "$f" 2>/dev/null | head -3000 >"$d/$(basename "$f" .dat)-report.txt"
			done
		fi ;;
	fuzz-dat)
		cp traces/file-limit.dat traces/offline-child.dat "$d"/ ;;
	fuzz-scenario)
		cp scenarios/*.json "$d"/ ;;
	fuzz-markers)
		{ grep -ho 'reclaim-replay: .*' tests/fixtures/text/*.txt
		  for f in traces/*.dat; do
			trace-cmd report "$f" 2>/dev/null | grep -o 'reclaim-replay: .*' | head -200
		  done; } | sort -u | while IFS= read -r l; do
			n=$((n + 1))
			printf '%s' "$l" >"$d/marker-$n"
		done ;;
	esac
}

run_one() {	# run_one TARGET: one line of figures on stdout
	local t=$1 bin=build-fuzz/$1 corpus=build-fuzz/corpus-$1 out=build-fuzz/out-$1 log maxlen
	[ -x "$bin" ] || { echo "$t: not built (make fuzz-build)"; return 1; }
	mkdir -p "$corpus" "$out"
	[ -n "$(ls -A "$corpus")" ] || seed "$t" "$corpus"
	log=$out/last.log
	case $t in
	fuzz-dat) maxlen=400000 ;;
	fuzz-text) maxlen=200000 ;;
	*) maxlen=8192 ;;
	esac
	# libFuzzer stops at a finding: go on with the time left, so that one
	# finding does not end the run (each is saved under $out)
	local rc=0 left=$secs start=$SECONDS total=0 r runs cov ft found
	: >"$log"
	while [ "$left" -gt 0 ]; do
		LSAN_OPTIONS=suppressions=$supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			"$bin" -max_total_time="$left" -timeout=60 -rss_limit_mb=4096 -malloc_limit_mb=8192 -max_len=$maxlen \
			-print_final_stats=1 -artifact_prefix="$out/" "$corpus" >>"$log" 2>&1 || rc=1
		r=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
		total=$((total + ${r:-0}))
		echo "stat::number_of_executed_units: 0" >>"$log"	# (counted)
		left=$((secs - (SECONDS - start)))
	done
	runs=$total
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	found=$(ls "$out" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-')
	printf '%-14s %6ss %10s runs  cov %6s  ft %7s  corpus %5s  findings %s (exit %s)\n' \
		"$t" "$secs" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$(ls "$corpus" | wc -l)" "$found" "$rc"
	[ "$found" -eq 0 ]
}

rc=0
pids=()
for t in "${targets[@]}"; do
	run_one "$t" &
	pids+=($!)
	if [ ${#pids[@]} -ge "$jobs" ]; then
		wait "${pids[0]}" || rc=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
exit $rc
