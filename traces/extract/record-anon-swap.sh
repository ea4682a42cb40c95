#!/bin/bash
# Record traces/anon-swap.dat: anonymous-memory reclaim (swap-out) of a
# cgroup v1 memory cgroup hitting memory.limit_in_bytes.
#
#   swap    a 512 MiB swap file /var/tmp/rrtrace-<pid>-swapfile (swapon'd for
#           the recording only; swapoff + rm afterwards)
#   cgroup  <own memcg>/rrtrace-<pid>-anon   memory.limit_in_bytes = 64 MiB,
#           memory.swappiness = 60, memsw limit left unlimited
#   workload: a small C program (compiled into the temp dir) mallocs 128 MiB,
#   writes every 4 KiB page once (the cgroup swaps out ~64 MiB under the
#   limit) and exits. PASSES=2 would add a read pass (swap-in / anon
#   refaults) but roughly doubles the trace (160 MiB x 2 passes gave > 2 MiB and lost events).
#
# Usage: traces/record-anon-swap.sh [OUT]   (default traces/anon-swap.dat)
# Exit 77 (SKIP) when not root / no tracefs / no cgroup v1 memory controller
# / no compiler / swap cannot be enabled.
set -eu
# shellcheck source=record-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/record-lib.sh"
rr_init anon-swap "$@"

LIMIT_MIB=${LIMIT_MIB:-64}
ANON_MIB=${ANON_MIB:-128}
SWAP_MIB=${SWAP_MIB:-512}
PASSES=${PASSES:-1}

command -v gcc >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || rr_skip "no C compiler"
command -v mkswap >/dev/null 2>&1 || rr_skip "mkswap missing"
command -v swapon >/dev/null 2>&1 || rr_skip "swapon missing"

cat > "$RR_TMP/anon.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* usage: anon MIB PASSES -- pass 1 writes every page, later passes read */
int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 160;
	int passes = argc > 2 ? atoi(argv[2]) : 1;
	size_t len = mib << 20, pg = (size_t)sysconf(_SC_PAGESIZE), i;
	volatile unsigned char *p = malloc(len);
	unsigned long sum = 0;
	if (!p) { perror("malloc"); return 1; }
	for (int pass = 0; pass < passes; pass++)
		for (i = 0; i < len; i += pg) {
			if (pass == 0) p[i] = (unsigned char)(i / pg) | 1;
			else sum += p[i];
		}
	printf("touched %zu MiB, %d passes, sum %lu\n", mib, passes, sum);
	return 0;
}
CEOF
${CC:-$(command -v gcc || command -v cc)} -O2 -o "$RR_TMP/anon" "$RR_TMP/anon.c"

rr_swapon "$SWAP_MIB"

rr_instance_start
rr_mkcg anon
cg=$RR_CG
rr_write $((LIMIT_MIB << 20)) "$cg/memory.limit_in_bytes"
rr_write 60 "$cg/memory.swappiness"
rr_marker "trace=anon-swap cgroup=${cg#"$RR_MEMCG_ROOT"} limit_mib=$LIMIT_MIB anon_mib=$ANON_MIB passes=$PASSES swap_mib=$SWAP_MIB swappiness=60"
rr_marker "phase=run"
rr_run_in "$cg" "$RR_TMP/anon" "$ANON_MIB" "$PASSES" >&2
rr_marker "phase=done usage=$(cat "$cg/memory.usage_in_bytes") failcnt=$(cat "$cg/memory.failcnt")"
rr_log "cgroup usage $(cat "$cg/memory.usage_in_bytes") bytes, failcnt $(cat "$cg/memory.failcnt")"

rr_extract
