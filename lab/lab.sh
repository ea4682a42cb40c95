#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/lab.sh (make lab): the kernel lab.  Builds Debian's 6.1 kernel stock
# and patched (lab/kernel.sh, cached), boots each under QEMU and records
# each workload with this checkout's reclaim-replay (lab/run.sh), checks
# every recording opens in trace-cmd report, prints the fidelity table
# (lab/table.sh) and the seeds' tables, measured and predicted
# (lab/seeds.sh), writes them to bench/lab/RESULTS.md, and re-makes the
# recordings bundled in traces/lab/ (docs/lab.md).
#
#   usage: lab/lab.sh [--no-bundle] [VARIANT/WORKLOAD...]
#          (default: the matrix below; --no-bundle leaves traces/lab/ alone)
#   environment: LAB_CACHE  kernels, disks and runs (default
#                           /var/tmp/reclaim-replay-lab); runs go to
#                           LAB_CACHE/runs/DATE/VARIANT/WORKLOAD, and
#                           LAB_CACHE/runs/latest points at the newest
#                LAB_ACCEL, LAB_MEM_MB, LAB_TIMEOUT_S: see lab/run.sh
#
# Exit 0 when every run recorded its trace; 1 when one failed (the others
# still run, and the table says which); 2 usage; 3 a package is missing.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_CACHE=${LAB_CACHE:-/var/tmp/reclaim-replay-lab}
export LAB_CACHE
cd "$top" || exit 1

# The matrix: every workload on the stock kernel; the proactive workloads
# on each patched kernel, and the global one where the patch changes
# get_scan_count() (seeds/000).
MATRIX="stock/limit-anon stock/limit-file stock/siblings stock/offline
stock/proactive-file stock/proactive-anon stock/global
cluster-cap/proactive-file cluster-cap/proactive-anon
proportional/proactive-file proportional/proactive-anon
roundup-all/proactive-file roundup-all/proactive-anon roundup-all/global"

# Bundled in traces/lab/ as NAME.dat (zstd-compressed trace.dat v7) and
# NAME.truth: small enough for the repository, one of each kind.
BUNDLE="stock/limit-anon stock/limit-file stock/siblings stock/proactive-file
stock/global cluster-cap/proactive-file proportional/proactive-file"

bundle=1
runs=()
for a in "$@"; do
	case $a in
	--no-bundle) bundle=0 ;;
	-h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*/*) [ -f "lab/workloads/${a#*/}.sh" ] || { echo "lab: no workload '${a#*/}'" >&2; exit 2; }
	     runs+=("$a") ;;
	*) echo "lab: usage: lab/lab.sh [--no-bundle] [VARIANT/WORKLOAD...]" >&2; exit 2 ;;
	esac
done
[ ${#runs[@]} -gt 0 ] || read -r -d '' -a runs <<<"$MATRIX"

for c in qemu-system-x86_64:qemu-system-x86 trace-cmd:trace-cmd jq:jq mkfs.ext4:e2fsprogs; do
	command -v "${c%%:*}" >/dev/null ||
		{ echo "lab: ${c%%:*} is missing: apt-get install ${c#*:}" >&2; exit 3; }
done

t0=$(date +%s)
make -s --no-print-directory reclaim-replay lab-tools || exit 1

variants=$(printf '%s\n' "${runs[@]}" | cut -d/ -f1 | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
lab/kernel.sh $variants || exit $?
t_built=$(date +%s)

stamp=$(date -u +%Y%m%dT%H%M%SZ)
base=$LAB_CACHE/runs/$stamp
mkdir -p "$base"
ln -sfn "$stamp" "$LAB_CACHE/runs/latest"
failed=0 done_dirs=()
for r in "${runs[@]}"; do
	if lab/run.sh "${r%%/*}" "${r#*/}" "$base/$r"; then
		# every recording must open in trace-cmd report (its first
		# events decoded: reading all of a big one takes minutes; the
		# table's replay reads all of it)
		n=$( (trace-cmd report -i "$base/$r/trace.dat" 2>/dev/null || true) | head -20000 |
		    grep -c 'mm_vmscan_')
		if [ "${n:-0}" -eq 0 ]; then
			echo "lab: $r: trace-cmd report cannot read $base/$r/trace.dat" >&2
			failed=$((failed + 1))
			continue
		fi
		echo "lab: $r: trace-cmd report reads it ($n vmscan events in its first 20000 lines)" >&2
		done_dirs+=("$base/$r")
	else
		failed=$((failed + 1))
	fi
done
t_ran=$(date +%s)

table=$(lab/table.sh "${done_dirs[@]}")
seeds=$(lab/seeds.sh "$base")
echo
echo "$table"
echo
echo "$seeds"
accel=$(sed -n 's/^accel //p' "${done_dirs[0]:-/dev/null}/truth.txt" 2>/dev/null | head -1)
mkdir -p bench/lab
{
	echo "# Kernel lab results"
	echo
	echo "Made by \`make lab\` (lab/lab.sh) on $(date -u +%F), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"
	echo "$(nproc) host CPUs, QEMU ${accel:-?}$([ "$accel" = tcg ] && echo ' (software emulation: every time the guest measured is emulated time)');"
	echo "kernels built in $((t_built - t0)) s, ${#done_dirs[@]} of ${#runs[@]} runs recorded in $((t_ran - t_built)) s."
	echo "Columns: lab/table.sh; the figures are \`reclaim-replay report --fidelity\`"
	echo "and \`compare -p kernel\` of each recording."
	echo
	echo "$table"
	echo
	echo "## The seeds' tables"
	echo
	echo "\`lab/seeds.sh\` (\`reclaim-replay verify\` and \`compare\` of the runs above);"
	echo "times are emulated (TCG) where the line above says so."
	echo
	echo "$seeds"
} >bench/lab/RESULTS.md

if [ "$bundle" = 1 ]; then
	mkdir -p traces/lab
	for r in $BUNDLE; do
		d=$base/$r
		[ -s "$d/trace.dat" ] || continue
		name=$(echo "$r" | tr / -)
		# a v7 file compressed with zstd, as traces/global/ (trace-cmd convert)
		if trace-cmd convert -i "$d/trace.dat" -o "traces/lab/$name.dat.tmp" --file-version 7 \
			--compression zstd >/dev/null 2>&1; then
			mv "traces/lab/$name.dat.tmp" "traces/lab/$name.dat"
			cp "$d/truth.txt" "traces/lab/$name.truth"
			echo "lab: bundled traces/lab/$name.dat ($(stat -c %s "traces/lab/$name.dat") bytes)" >&2
		else
			rm -f "traces/lab/$name.dat.tmp"
			echo "lab: $r: trace-cmd convert failed; traces/lab/$name.dat left as it was" >&2
			failed=$((failed + 1))
		fi
	done
fi
echo "lab: ${#done_dirs[@]} of ${#runs[@]} runs recorded; $(( $(date +%s) - t0 )) s in all; table in bench/lab/RESULTS.md; runs in $base" >&2
[ "$failed" -eq 0 ]
