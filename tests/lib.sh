# SPDX-License-Identifier: GPL-2.0-only
# Shell test helpers (sourced).  Each test script runs named steps with
# `check NAME CMD...` / `check_eq NAME EXPECTED ACTUAL` (each returns 1 when
# it fails, for a caller to print more), cleans up through
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

# jq -e on an empty file exits 0 (jq 1.6): a check on an output that was
# never written would pass.  With -e (alone, in a cluster such as -re, or
# --exit-status) and an empty file last, it fails.  (Not caught: jq -e on
# an empty pipe, and jq inside sh -c, where this function is not seen.)
jq() {
	local a last= e=false
	for a in "$@"; do
		last=$a
		[[ $a =~ ^-[a-zA-Z]*e[a-zA-Z]*$ || $a == --exit-status ]] && e=true
	done
	if $e && [ -f "$last" ] && [ ! -s "$last" ]; then
		echo "jq: $last is empty" >&2
		return 5
	fi
	command jq "$@"
}

check() {
	local name=$1
	shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		pass "$name"
	else
		fail "$name (exit $?)"
		sed 's/^/    | /' "$TMP/out" "$TMP/err" | head -20
		return 1
	fi
}

check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: expected '$2', got '$3'"
		return 1
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

# ---- for the root tests that record ----

# need_root_tracefs: a loud SKIP, and the test ends, where this is not root
# or the kernel has no tracefs (record needs both, and cgroupfs).
need_root_tracefs() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "not root: record needs tracefs and cgroupfs"
		finish
	fi
	if ! grep -qw tracefs /proc/filesystems; then
		skip "no tracefs in this kernel"
		finish
	fi
}

# own_memcg: the directory of our own memory cgroup (v1 "N:memory:/path",
# else v2 "0::/path"); test cgroups go below it, never at the root.
own_memcg() {
	local own
	own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	if [ -n "$own" ]; then
		echo "/sys/fs/cgroup/memory${own%/}"
	else
		own=/sys/fs/cgroup$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
		echo "${own%/}"
	fi
}

# stale_instances: the tracefs instances of recorders that are not running
# (other recorders may be).
stale_instances() {
	local i
	for i in $(ls /sys/kernel/tracing/instances 2>/dev/null | grep '^reclaim-replay-'); do
		kill -0 "${i#reclaim-replay-}" 2>/dev/null || echo "$i"
	done
}

# probe_record ARGS...: `record -q ARGS -o $TMP/probe.dat`; where it fails,
# a missing facility (tracefs, an instance, cgroups, root) is a loud SKIP
# and anything else a FAIL, and the test ends.
probe_record() {
	"$RR" record -q "$@" -o "$TMP/probe.dat" >"$TMP/probe.out" 2>&1 && return 0
	if grep -q '^reclaim-replay: .*\(tracefs\|instance\|cgroup\|root\)' "$TMP/probe.out"; then
		skip "record cannot run here: $(grep -m1 '^reclaim-replay:' "$TMP/probe.out")"
	else
		fail "record $* failed"
		sed 's/^/    | /' "$TMP/probe.out" | head -20
	fi
	finish
}
