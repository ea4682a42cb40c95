#!/bin/bash
# Record traces/offline-child.dat: hierarchical cgroup v1 limit reclaim that
# also walks an offline (rmdir'ed, "dying") child memcg still holding page
# cache.
#
#   P = <own memcg>/rrtrace-<pid>-P            memory.limit_in_bytes = 96 MiB
#   C = P/rrtrace-<pid>-C   (no limit)  `cat` of a 60 MiB file charges ~60 MiB
#                           of page cache to C; cat exits, then `rmdir C`
#                           (C goes offline, its page cache stays charged)
#   D = P/rrtrace-<pid>-D   (no limit)  `cat` of a 256 MiB file: P hits its
#                           limit and memcg reclaim iterates P's subtree,
#                           including the offline C.
# Both files are written with O_DIRECT outside the test cgroups and dropped
# from the page cache first (fadvise DONTNEED) so that reading charges them.
#
# Usage: traces/record-offline-child.sh [OUT]  (default traces/offline-child.dat)
# Exit 77 (SKIP) when not root / no tracefs / no cgroup v1 memory controller.
set -eu
# shellcheck source=record-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/record-lib.sh"
rr_init offline-child "$@"

LIMIT_MIB=${LIMIT_MIB:-96}
C_MIB=${C_MIB:-60}
D_MIB=${D_MIB:-256}

fc="$RR_TMP/c-data-${C_MIB}M"
fd="$RR_TMP/d-data-${D_MIB}M"
rr_mkfile "$fc" "$C_MIB"
rr_mkfile "$fd" "$D_MIB"

rr_instance_start
rr_mkcg P
P=$RR_CG
rr_write $((LIMIT_MIB << 20)) "$P/memory.limit_in_bytes"
rr_mkcg C "$P"
C=$RR_CG
rr_mkcg D "$P"
D=$RR_CG
rr_marker "trace=offline-child P=${P#"$RR_MEMCG_ROOT"} P_limit_mib=$LIMIT_MIB C=${C#"$RR_MEMCG_ROOT"} C_file_mib=$C_MIB D=${D#"$RR_MEMCG_ROOT"} D_file_mib=$D_MIB"

rr_marker "phase=read-in-C"
rr_run_in "$C" cat "$fc" > /dev/null
c_usage=$(cat "$C/memory.usage_in_bytes")
rr_log "C usage after read: $c_usage bytes; P usage $(cat "$P/memory.usage_in_bytes")"
# The reader has exited; make sure nothing is left in C, then remove it.
rr_evacuate "$C"
rr_marker "phase=rmdir-C C_usage=$c_usage"
rmdir "$C"
rr_log "C removed (offline); P usage $(cat "$P/memory.usage_in_bytes") bytes"

rr_marker "phase=read-in-D P_usage=$(cat "$P/memory.usage_in_bytes")"
rr_run_in "$D" cat "$fd" > /dev/null
sleep 0.5
rr_marker "phase=done P_usage=$(cat "$P/memory.usage_in_bytes") P_failcnt=$(cat "$P/memory.failcnt") D_usage=$(cat "$D/memory.usage_in_bytes")"
rr_log "P usage $(cat "$P/memory.usage_in_bytes") bytes, failcnt $(cat "$P/memory.failcnt"); D usage $(cat "$D/memory.usage_in_bytes")"

rr_extract
