# SPDX-License-Identifier: GPL-2.0-only
# Sourced by bench/make-traces.sh and bench/run.sh: strict mode, the C
# locale, where things are (REPO, BENCH_DIR, RR), and die/say messages
# prefixed with the script's name, and events_of.
set -euo pipefail
export LC_ALL=C

BENCH_NAME=$(basename "$0")
die() {
	printf '\n%s: FAILED: %s\n' "$BENCH_NAME" "$*" >&2
	exit 1
}
say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/var/tmp/rrbench}
RR=${RR:-$REPO/reclaim-replay}

# events_of TRACE: the number of events compare reads in TRACE
events_of() {
	local n
	n=$("$RR" compare -q -p kernel "$1" -o - | jq -e .input.stats.events) ||
		die "'$RR compare -q -p kernel $1 -o - | jq .input.stats.events' failed"
	[[ $n =~ ^[0-9]+$ ]] || die "$1: event count '$n' is not a number"
	echo "$n"
}
