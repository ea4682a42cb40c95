#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/table.sh: the kernel lab's fidelity table, from run directories that
# lab/run.sh filled (each holds trace.dat and the guest's truth.txt).
#
#   usage: lab/table.sh RUNDIR...
#   environment: RR  the reclaim-replay binary (default ./reclaim-replay)
#
# One markdown row per run: the kernel and workload (from truth.txt), the
# episodes the trace holds and those compare replayed, the decisions
# (shrink_lruvec() calls) report --fidelity judged and how many were exact,
# within one batch (32 pages a list) and wrong, the calls it did not judge
# (share of judged + not judged), the trajectories it checked and how many
# were exact, and the pages the recording reclaimed against the kernel
# replay's.  A run whose replay fails says so in its row.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RR=${RR:-$top/reclaim-replay}
command -v jq >/dev/null || { echo "lab/table.sh: jq is missing: apt-get install jq" >&2; exit 3; }

pct() { awk -v n="$1" -v d="$2" 'BEGIN { if (d > 0) printf "%.1f %%", 100 * n / d; else printf "-" }'; }

echo "| kernel | workload | episodes (replayed) | decisions judged | exact | within one batch | wrong | not judged | trajectories exact (checked) | reclaimed pages: recorded / kernel replay |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for d in "$@"; do
	t=$d/truth.txt
	rel=$(sed -n 's/^kernel_release //p' "$t" 2>/dev/null | head -1)
	wl=$(sed -n 's/^workload //p' "$t" 2>/dev/null | head -1)
	rel=${rel:-?} wl=${wl:-$(basename "$d")}
	if ! f=$("$RR" report --fidelity --json "$d/trace.dat" 2>/dev/null) ||
	   ! c=$("$RR" compare "$d/trace.dat" -p kernel -o - 2>/dev/null); then
		echo "| $rel | $wl | replay failed: $("$RR" report --fidelity "$d/trace.dat" 2>&1 >/dev/null | head -1) | | | | | | | |"
		continue
	fi
	read -r total replayed rec_rcl kern_rcl < <(jq -r '[.summary.episodes, .summary.episodes_replayed,
		.summary.recorded.nr_reclaimed, .summary.policies.kernel.nr_reclaimed] | @tsv' <<<"$c")
	read -r judged exact within wrong unjudged tchk texact < <(jq -r '.fidelity | [.decisions_checked,
		.exact, .within_one_batch, .mismatched, .decisions_unchecked, .trajectory_checked,
		.trajectory_exact] | @tsv' <<<"$f")
	echo "| $rel | $wl | $total ($replayed) | $judged | $(pct "$exact" "$judged") | $(pct "$within" "$judged") | $(pct "$wrong" "$judged") | $(pct "$unjudged" $((judged + unjudged))) | $(pct "$texact" "$tchk") ($tchk) | $rec_rcl / $kern_rcl |"
done
