#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every test: the CUnit unit tests, then each tests/cli and tests/root
# script.  Ends with one line "N passed, N failed, N skipped" over all
# checks, and exits 1 if any failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
export BUILD RR_BIN=${RR_BIN:-$top/reclaim-replay}
export RR_TEST_PLUGIN_DIR=$top/$BUILD/tests/plugins
passed=0 failed=0 skipped=0 broken=0

tally() {	# tally LOGFILE: add the "N passed, N failed[, N skipped]" line
	local line
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	if [ -z "$line" ]; then
		broken=$((broken + 1))
		return
	fi
	passed=$((passed + $(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')))
	failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
	if echo "$line" | grep -q skipped; then
		skipped=$((skipped + $(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/')))
	fi
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== unit"
(cd "$top" && "$top/$BUILD/tests/unit/run-unit") >"$log" 2>&1
rc=$?
grep -Ev '^ *(Test: .*passed|Suite: )' "$log" | sed '/^$/d'
tally "$log"
[ $rc -eq 0 ] || [ "$failed" -gt 0 ] || broken=$((broken + 1))

echo "== unit: the simulator alone (src/sim, src/policies, src/release, src/common)"
(cd "$top" && "$top/$BUILD/tests/unit/run-sim") >"$log" 2>&1
rc=$?
grep -Ev '^ *(Test: .*passed|Suite: )' "$log" | sed '/^$/d'
tally "$log"
[ $rc -eq 0 ] || grep -q ' [1-9][0-9]* failed' "$log" || broken=$((broken + 1))

for t in "$top"/tests/cli/t*.sh "$top"/tests/root/t*.sh; do
	[ -e "$t" ] || continue
	echo "== $(basename "$t" .sh)"
	bash "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	tally "$log"
	if [ $rc -ne 0 ] && ! grep -q 'FAIL' "$log"; then
		echo "!! $(basename "$t") exited $rc without a FAIL line"
		broken=$((broken + 1))
	fi
done

failed=$((failed + broken))
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
