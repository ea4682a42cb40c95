// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 6.x releases: what each changed in the rules the model follows
 * (release.h; docs/kernel-model.md §3.8, 5.2, 6.3, 10.2, 23).
 */
#include "release-local.h"

/* f53af4285d77: shrink_lruvec() runs one more round after its
 * proportional cut */
static void v6_1(struct rr_kernel_model *km)
{
	km->cut_one_more_round = true;
}

/* the reclaim cost counts write-outs x 32 plus rotations */
static void v6_2(struct rr_kernel_model *km)
{
	km->cost_rotations_x32 = true;
}

/* 0388536ac291 "mm:vmscan: fix inaccurate reclaim during proactive
 * reclaim": memory.reclaim chunks of min(remainder, 32).  3f74e6bd3b84
 * (kswapd's progress is max(scanned, reclaimed), v6.11) was backported to
 * 6.6.y: modelled from 6.6.44 [first 6.6.y sublevel not verified]; a 6.6
 * release without a sublevel keeps the old test */
static void v6_6(struct rr_kernel_model *km)
{
	km->proactive_chunk = RR_CHUNK_CLUSTER_CAP;
	if (km->major == 6 && km->minor == 6 && km->sublevel >= 44)
		km->kswapd_progress_max = true;
}

/* 287d5fedb377 "mm: memcg: use larger batches for proactive reclaim" */
static void v6_9(struct rr_kernel_model *km)
{
	km->proactive_chunk = RR_CHUNK_QUARTER;
}

/* "mm, vmscan: retry kswapd's priority loop with cache_trim_mode off on
 * failure" */
static void v6_10(struct rr_kernel_model *km)
{
	km->kswapd_cache_trim_retry = true;
}

/* the partial memcg walk with its shared cursor and full-walk retry;
 * 68cd9050d871 memory.reclaim's swappiness=; 3f74e6bd3b84 */
static void v6_11(struct rr_kernel_model *km)
{
	km->partial_walk = true;
	km->full_walk_retry = true;
	km->proactive_swappiness_key = true;
	km->kswapd_progress_max = true;
}

/* "mm: add swappiness=max arg to memory.reclaim for only anon reclaim" */
static void v6_16(struct rr_kernel_model *km)
{
	km->proactive_swappiness_max = true;
}

/* a zero-cost note returns early */
static void v6_17(struct rr_kernel_model *km)
{
	km->cost_zero_returns = true;
}

static const struct rr_rule_change changes[] = {
	{ 601, "shrink_lruvec() runs one round after its proportional cut (f53af4285d77)", v6_1 },
	{ 602, "reclaim cost counts write-outs x 32 plus rotations", v6_2 },
	{ 606, "memory.reclaim chunks of min(remainder, 32) (0388536ac291); 6.6.44+: "
	       "kswapd's progress max(scanned, reclaimed)", v6_6 },
	{ 609, "memory.reclaim chunks of remainder / 4 (287d5fedb377)", v6_9 },
	{ 610, "kswapd retries its priority ladder without cache-trim mode", v6_10 },
	{ 611, "partial memcg walk, shared cursor, full-walk retry; memory.reclaim "
	       "swappiness=; kswapd's progress max(scanned, reclaimed)", v6_11 },
	{ 616, "memory.reclaim swappiness=max", v6_16 },
	{ 617, "a zero-cost note returns early", v6_17 },
};

const struct rr_release_family rr_linux_6 = { changes, sizeof(changes) / sizeof(changes[0]) };
