#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Print (or with -w, write) the golden per-policy totals of the bundled
# traces.  Run after a deliberate model change, and say why in the commit.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
for trace in "$top"/traces/*.dat; do
	name=$(basename "$trace" .dat)
	out=$("$top/reclaim-replay" compare -q "$trace" -o - | jq -r -f "$top/tests/cli/totals.jq")
	if [ "${1:-}" = "-w" ]; then
		printf '%s\n' "$out" >"$top/tests/golden/$name.txt"
	else
		printf '== %s\n%s\n' "$name" "$out"
	fi
done
