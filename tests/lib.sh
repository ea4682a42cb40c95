# SPDX-License-Identifier: GPL-2.0-only
# Shell test helpers (sourced).  Each test script runs named steps with
# `check NAME CMD...` / `check_eq NAME EXPECTED ACTUAL`, cleans up through
# `at_exit`, and ends with `finish`, which prints "NAME: N passed, N failed"
# and exits 1 if anything failed.  `skip REASON` prints a loud SKIP.
set -u

T_NAME=$(basename "$0" .sh)
T_PASS=0
T_FAIL=0
T_SKIP=0
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RR=${RR_BIN:-$TOP/reclaim-replay}
case $RR in /*) ;; *) RR=$TOP/$RR ;; esac
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rr-test.XXXXXX")
T_CLEANUP="rm -rf '$TMP'"

at_exit() { T_CLEANUP="$1; $T_CLEANUP"; }
trap 'eval "$T_CLEANUP"' EXIT
trap 'exit 130' INT TERM

pass() { T_PASS=$((T_PASS + 1)); echo "ok   - $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL - $*"; }

check() {
	local name=$1
	shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		pass "$name"
	else
		fail "$name (exit $?)"
		sed 's/^/    | /' "$TMP/out" "$TMP/err" | head -20
	fi
}

check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: expected '$2', got '$3'"
	fi
}

# check_fails NAME EXIT_CODE STDERR_PATTERN CMD...: CMD must exit with
# EXIT_CODE and say STDERR_PATTERN (grep -E) on stderr, without crashing.
check_fails() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, expected $want"
		sed 's/^/    | /' "$TMP/err" | head -5
	elif ! grep -Eq -- "$pat" "$TMP/err"; then
		fail "$name: stderr does not match '$pat'"
		sed 's/^/    | /' "$TMP/err" | head -5
	else
		pass "$name"
	fi
}

skip() {
	T_SKIP=$((T_SKIP + 1))
	printf '\n*** SKIP %s: %s ***\n\n' "$T_NAME" "$*"
}

finish() {
	echo "$T_NAME: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
	exit $?
}
