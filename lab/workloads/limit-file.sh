# SPDX-License-Identifier: GPL-2.0-only
# limit-file: memcg limit reclaim of page cache.  One dd reads a 256 MiB
# file in the cgroup /f (memory.max 64M); swap is on but there is no anon
# to speak of.
# lab: mem_mb=1024 timeout_s=900
. "$LAB_TOP/lab/guest/lib.sh"
if [ "${1:-}" = inner ]; then
	lab_read f
	rc=$?
	lab_stat end
	exit $rc
fi
lab_bigfile f 256
$RECORD -o "$OUT/trace.dat" --cgroup f --memory-max 64M -- sh "$0" inner
