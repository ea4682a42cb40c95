#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# A text trace (6.18 format, cgroup v2, no recorder marker) of P tasks
# reclaiming at once, each from its own child of /P, B batches each:
#   bench/gen-concurrent.py P B > trace.txt
#   reclaim-replay report --fidelity --swap no trace.txt
# With no flush in the trace, the builder sums each batch's ancestors'
# subtrees for the fidelity check's "flushed just before" view: that grows
# with P (4000 x 5: about 4 s on the 2-core machine of bench/RESULTS.md,
# against 2 s before issue 16).
import sys

P = int(sys.argv[1])
B = int(sys.argv[2])
out = ["cpus=2"]
t = [100.0]


def ts():
    t[0] += 0.000001
    return "%.6f" % t[0]


out.append("   mkdir-4241    1d..1.   %s: cgroup_mkdir:         root=0 id=10 level=1 path=/P" % ts())
for i in range(P):
    out.append("   mkdir-4241    1d..1.   %s: cgroup_mkdir:         root=0 id=%d level=2 path=/P/c%d"
               % (ts(), 100000 + i, i))
    out.append("     cat-4300    0d..2.   %s: mod_memcg_lruvec_state: memcg_id=%d item=2 val=131072"
               % (ts(), 100000 + i))
for i in range(P):
    out.append("     cat-%d    0.....   %s: mm_vmscan_memcg_reclaim_begin: order=0 "
               "gfp_flags=GFP_HIGHUSER_MOVABLE" % (5000 + i, ts()))
for b in range(B):
    for i in range(P):
        pid, mid = 5000 + i, 100000 + i
        out.append("     cat-%d    0d..1.   %s: mm_vmscan_lru_isolate: classzone=4 order=0 "
                   "nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file" % (pid, ts()))
        out.append("     cat-%d    0d..2.   %s: mod_memcg_lruvec_state: memcg_id=%d item=2 val=-32"
                   % (pid, ts(), mid))
        out.append("     cat-%d    0d..2.   %s: count_memcg_events:   memcg_id=%d item=33 val=32"
                   % (pid, ts(), mid))
        out.append("     cat-%d    0.....   %s: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 "
                   "nr_reclaimed=1 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 "
                   "nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 "
                   "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" % (pid, ts()))
for i in range(P):
    out.append("     cat-%d    0.....   %s: mm_vmscan_memcg_reclaim_end: nr_reclaimed=%d" % (5000 + i, ts(), B))
print("\n".join(out))
