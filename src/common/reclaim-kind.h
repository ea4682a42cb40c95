/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One enum of reclaim kinds, used by every stage: the episode builder cuts
 * the trace into episodes of these kinds, the simulator replays some of
 * them, and the outputs name them.  The order is the order of the report's
 * tables.
 */
#ifndef RR_COMMON_RECLAIM_KIND_H
#define RR_COMMON_RECLAIM_KIND_H

#include <stdbool.h>

enum rr_reclaim_kind {
	RR_KIND_MEMCG,		/* try_to_free_mem_cgroup_pages(): charge path, v1
				 * limit write, force_empty;
				 * mm_vmscan_memcg_reclaim_begin/end */
	RR_KIND_SOFTLIMIT,	/* v1 soft-limit victim call, mem_cgroup_shrink_node();
				 * mm_vmscan_memcg_softlimit_reclaim_begin/end */
	RR_KIND_DIRECT,		/* try_to_free_pages(): global direct reclaim;
				 * mm_vmscan_direct_reclaim_begin/end */
	RR_KIND_KSWAPD,		/* balance_pgdat(): mm_vmscan_kswapd_wake .. _sleep */
	RR_KIND_NODE,		/* __node_reclaim(): mm_vmscan_node_reclaim_begin/end */
	RR_KIND_PROACTIVE,	/* one memory.reclaim write (memory_reclaim()) */
	RR_KIND_UNKNOWN,	/* batches of a task whose begin and end were both
				 * outside the trace */
	RR_KIND__COUNT
};

/* Global reclaim: the walk starts at the root memcg and covers the machine
 * (kswapd, direct reclaim, node reclaim; target_mem_cgroup NULL). */
static inline bool rr_kind_global(enum rr_reclaim_kind kind)
{
	return kind == RR_KIND_DIRECT || kind == RR_KIND_KSWAPD || kind == RR_KIND_NODE;
}

/* "memcg", "softlimit", "direct", "kswapd", "node", "proactive",
 * "unknown"; "unknown" for values out of range too. */
const char *rr_reclaim_kind_name(enum rr_reclaim_kind kind);

#endif
