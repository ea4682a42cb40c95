#!/bin/bash
# Record traces/file-limit.dat: page-cache (file) reclaim of a cgroup v1
# memory cgroup hitting memory.limit_in_bytes.
#
#   cgroup  <own memcg>/rrtrace-<pid>-file   memory.limit_in_bytes = 64 MiB
#   workload: a 256 MiB file is written with O_DIRECT outside the cgroup and
#   dropped from the page cache (fadvise DONTNEED); then `cat file >/dev/null`
#   runs twice inside the cgroup, so 2 x 256 MiB of page cache is charged
#   against the 64 MiB limit and reclaimed by memcg (limit) reclaim.
#
# Usage: traces/record-file-limit.sh [OUT]   (default traces/file-limit.dat)
# Exit 77 (SKIP) when not root / no tracefs / no cgroup v1 memory controller.
set -eu
# shellcheck source=record-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/record-lib.sh"
rr_init file-limit "$@"

LIMIT_MIB=${LIMIT_MIB:-64}
FILE_MIB=${FILE_MIB:-256}
PASSES=${PASSES:-2}

data="$RR_TMP/data-${FILE_MIB}M"
rr_mkfile "$data" "$FILE_MIB"

rr_instance_start
rr_mkcg file
cg=$RR_CG
rr_write $((LIMIT_MIB << 20)) "$cg/memory.limit_in_bytes"
rr_marker "trace=file-limit cgroup=${cg#"$RR_MEMCG_ROOT"} limit_mib=$LIMIT_MIB file_mib=$FILE_MIB passes=$PASSES"

for p in $(seq "$PASSES"); do
	rr_marker "phase=read pass=$p"
	rr_run_in "$cg" cat "$data" > /dev/null
done
rr_marker "phase=done usage=$(cat "$cg/memory.usage_in_bytes") failcnt=$(cat "$cg/memory.failcnt")"
rr_log "cgroup usage $(cat "$cg/memory.usage_in_bytes") bytes, failcnt $(cat "$cg/memory.failcnt")"

rr_extract
