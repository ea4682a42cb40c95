#!/bin/bash
# Record traces/offline-anon.dat: hierarchical cgroup v1 limit reclaim with
# swap enabled, walking an offline (rmdir'ed) child memcg that still holds
# anon-LRU (shmem) pages and page cache -- so get_scan_count() balances anon
# and file with SCAN_FRACT, and its rounding matters for the offline child.
#
#   swap    a 512 MiB swap file /var/tmp/rrtrace-<pid>-swapfile (swapon'd for
#           the recording only; swapoff + rm afterwards)
#   tmpfs   a private tmpfs (size-limited, huge=never) mounted in the temp dir
#   P = <own memcg>/rrtrace-<pid>-P   memory.limit_in_bytes = 96 MiB,
#                                     memory.swappiness = 60
#   C = P/rrtrace-<pid>-C  (no limit, swappiness 60)
#           `dd` writes a 40 MiB file into the tmpfs (shmem: anon LRU, charged
#           to C, survives the writer) and `cat` reads a 20 MiB regular file
#           (page cache charged to C); then `rmdir C` -- C goes offline but
#           keeps both charges.
#   D = P/rrtrace-<pid>-D  (no limit, swappiness 60)
#           a small C program mallocs 100 MiB and writes every 4 KiB page:
#           P hits its limit and memcg reclaim iterates P's subtree (offline
#           C and D), scanning anon (swap) and file lists.
# The regular file is written with O_DIRECT outside the test cgroups and
# dropped from the page cache first (fadvise DONTNEED). After extraction the
# shmem file is deleted and the tmpfs unmounted, which frees the offline C;
# the EXIT trap does the same on failure.
#
# Usage: traces/record-offline-anon.sh [OUT]  (default traces/offline-anon.dat)
# Parameters (environment): LIMIT_MIB=96 SHM_MIB=40 FILE_MIB=20 ANON_MIB=100
# SWAP_MIB=512.
# Exit 77 (SKIP) when not root / no tracefs / no cgroup v1 memory controller
# / no compiler / swap or tmpfs cannot be set up.
set -eu
# shellcheck source=record-lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/record-lib.sh"
rr_init offline-anon "$@"

LIMIT_MIB=${LIMIT_MIB:-96}
SHM_MIB=${SHM_MIB:-40}
FILE_MIB=${FILE_MIB:-20}
ANON_MIB=${ANON_MIB:-100}
SWAP_MIB=${SWAP_MIB:-512}

command -v gcc >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || rr_skip "no C compiler"
command -v mkswap >/dev/null 2>&1 || rr_skip "mkswap missing"
command -v swapon >/dev/null 2>&1 || rr_skip "swapon missing"
command -v mountpoint >/dev/null 2>&1 || rr_skip "mountpoint missing"

cat > "$RR_TMP/anon.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* usage: anon MIB -- malloc MIB MiB, write one byte per page, exit */
int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	size_t len = mib << 20, pg = (size_t)sysconf(_SC_PAGESIZE), i;
	volatile unsigned char *p = malloc(len);
	if (!p) { perror("malloc"); return 1; }
	for (i = 0; i < len; i += pg)
		p[i] = (unsigned char)(i / pg) | 1;
	printf("touched %zu MiB\n", mib);
	return 0;
}
CEOF
${CC:-$(command -v gcc || command -v cc)} -O2 -o "$RR_TMP/anon" "$RR_TMP/anon.c"

fc="$RR_TMP/c-data-${FILE_MIB}M"
rr_mkfile "$fc" "$FILE_MIB"
shm="$RR_TMP/shm"
rr_mount_tmpfs "$shm" $((SHM_MIB + 8))
rr_swapon "$SWAP_MIB"

rr_instance_start
rr_mkcg P
P=$RR_CG
rr_write $((LIMIT_MIB << 20)) "$P/memory.limit_in_bytes"
rr_write 60 "$P/memory.swappiness"
rr_mkcg C "$P"
C=$RR_CG
rr_write 60 "$C/memory.swappiness"
rr_mkcg D "$P"
D=$RR_CG
rr_write 60 "$D/memory.swappiness"
rr_marker "trace=offline-anon P=${P#"$RR_MEMCG_ROOT"} P_limit_mib=$LIMIT_MIB swappiness=60 C=${C#"$RR_MEMCG_ROOT"} C_shmem_mib=$SHM_MIB C_file_mib=$FILE_MIB D=${D#"$RR_MEMCG_ROOT"} D_anon_mib=$ANON_MIB swap_mib=$SWAP_MIB"

# stat3 PREFIX CG: hierarchical memory.stat fields of a v1 memcg (bytes),
# as "PREFIXrss=N PREFIXshmem=N PREFIXcache=N" (cache includes shmem).
stat3() {
	awk -v p="$1" '$1 == "total_rss" { r = $2 } $1 == "total_shmem" { s = $2 } $1 == "total_cache" { c = $2 }
	     END { printf "%srss=%d %sshmem=%d %scache=%d", p, r, p, s, p, c }' "$2/memory.stat"
}

rr_marker "phase=shmem-in-C"
rr_run_in "$C" dd if=/dev/zero of="$shm/c-shmem" bs=1M count="$SHM_MIB" status=none
rr_marker "phase=read-in-C"
rr_run_in "$C" cat "$fc" > /dev/null
c_usage=$(cat "$C/memory.usage_in_bytes")
c_stat=$(stat3 C_ "$C")
rr_log "C usage after fill: $c_usage bytes ($c_stat); P usage $(cat "$P/memory.usage_in_bytes")"
# The writer and the reader have exited; make sure nothing is left in C,
# then remove it. Its shmem and page cache stay charged to the offline C.
rr_evacuate "$C"
rr_marker "phase=rmdir-C C_usage=$c_usage $c_stat"
rmdir "$C"
rr_log "C removed (offline); P usage $(cat "$P/memory.usage_in_bytes") bytes"

rr_marker "phase=anon-in-D P_usage=$(cat "$P/memory.usage_in_bytes")"
rr_run_in "$D" "$RR_TMP/anon" "$ANON_MIB" >&2
sleep 0.5
p_done="P_usage=$(cat "$P/memory.usage_in_bytes") P_failcnt=$(cat "$P/memory.failcnt") $(stat3 P_ "$P") D_usage=$(cat "$D/memory.usage_in_bytes")"
rr_marker "phase=done $p_done"
rr_log "done: $p_done; swap used $(awk -v f="/var/tmp/$RR_TAG-swapfile" '$1 == f { print $4 }' /proc/swaps) KiB"

rr_extract

# Free the offline C: delete the shmem file and unmount the tmpfs (the EXIT
# trap would do this too; doing it here logs the effect).
rr_umount "$shm"
rr_log "shmem file deleted, tmpfs unmounted; P usage $(cat "$P/memory.usage_in_bytes") bytes"
