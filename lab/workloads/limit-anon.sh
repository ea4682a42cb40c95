# SPDX-License-Identifier: GPL-2.0-only
# limit-anon: memcg limit reclaim of anonymous memory with swap.  One
# process touches 160 MiB twice in the cgroup /a (memory.max 64M): every
# pass swaps most of it out and faults it back.
# lab: mem_mb=1024 timeout_s=900
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	"$LABTOOL" hog 160 2
	rc=$?
	lab_stat end
	exit $rc
fi
$RECORD -o "$OUT/trace.dat" --cgroup a --memory-max 64M -- sh "$0" inner
