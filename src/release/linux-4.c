// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 4.x releases: the rules of 4.0, the oldest release the model takes,
 * and what the 4.x releases changed (release.h).
 */
#include "release-local.h"

void rr_linux_4_base(struct rr_kernel_model *km)
{
	km->denominator_plus_one = true;
	km->cost_fractions = false;
	km->cost_rotations_x32 = false;
	km->cost_zero_returns = false;
	km->cut_one_more_round = false;
	km->partial_walk = false;
	km->full_walk_retry = false;
	km->limit_walk_stops = true;
	km->cache_trim_per_lruvec = true;
	km->swappiness_max = 100;
	km->proactive_swappiness_key = false;
	km->proactive_swappiness_max = false;
	km->kswapd_progress_max = false;
	km->kswapd_cache_trim_retry = false;
	km->protection_low_outside_retry = false;
	km->protection_usage_plus_one = false;
	km->memory_reclaim = false;
	/* floor for every memcg: <= v4.19, div64_u64() */
	km->scan_fract_rounding = RR_ROUND_FLOOR;
	/* before v5.19 there is no memory.reclaim; the remainder rule is the
	 * only one that existed at its introduction */
	km->proactive_chunk = RR_CHUNK_REMAINDER;
}

/* v4.20 took 68600f623d69 "mm: don't miss the last page because of
 * round-off error" */
static void v4_20(struct rr_kernel_model *km)
{
	km->scan_fract_rounding = RR_ROUND_UP_ALL;
}

static const struct rr_rule_change changes[] = {
	{ 420, "SCAN_FRACT rounds up for every memcg (68600f623d69)", v4_20 },
};

const struct rr_release_family rr_linux_4 = { changes, sizeof(changes) / sizeof(changes[0]) };
