// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 5.x releases: what each changed in the rules the model follows
 * (release.h; docs/kernel-model.md §3.7, 3.8, 6.2, 6.5, 10).
 */
#include "release-local.h"

/* 1ba6fc9af35b "mm: vmscan: do not share cgroup iteration between
 * reclaimers": no reclaim cookie, no break of limit reclaim's walk */
static void v5_4(struct rr_kernel_model *km)
{
	km->limit_walk_stops = false;
}

/* b91ac374346b "mm: vmscan: enforce inactive:active ratio at the reclaim
 * root": cache trim and file-is-tiny from the reclaim root */
static void v5_5(struct rr_kernel_model *km)
{
	km->cache_trim_per_lruvec = false;
}

/* v5.6 took 76073c646f5f (merged for v5.6-rc3) */
static void v5_6(struct rr_kernel_model *km)
{
	km->scan_fract_rounding = RR_ROUND_UP_OFFLINE;
}

/* a4fe1631f313: the anon/file fractions from reclaim costs, no + 1 in the
 * denominator, swappiness up to 200 */
static void v5_8(struct rr_kernel_model *km)
{
	km->denominator_plus_one = false;
	km->cost_fractions = true;
	km->swappiness_max = 200;
}

/* f56ce412a59d: memory.low scaling outside the low-reclaim retry */
static void v5_14(struct rr_kernel_model *km)
{
	km->protection_low_outside_retry = true;
}

/* 32d4f4b782bb: the protection divides by usage + 1 */
static void v5_15(struct rr_kernel_model *km)
{
	km->protection_usage_plus_one = true;
}

/* 94968384dde1: memory.reclaim, asking for the whole remainder per call */
static void v5_19(struct rr_kernel_model *km)
{
	km->memory_reclaim = true;
}

static const struct rr_rule_change changes[] = {
	{ 504, "a full memcg walk every pass: limit reclaim no longer stops at its goal, no "
	       "shared position (1ba6fc9af35b)", v5_4 },
	{ 505, "cache trim and the anon/file balance decided at the reclaim root, not per "
	       "lruvec (b91ac374346b)", v5_5 },
	{ 506, "SCAN_FRACT rounds down for online memcgs (76073c646f5f)", v5_6 },
	{ 508, "anon/file fractions from reclaim costs, swappiness up to 200 (a4fe1631f313)",
	  v5_8 },
	{ 514, "memory.low scaling outside the low-reclaim retry (f56ce412a59d)", v5_14 },
	{ 515, "memory.min/low divide by usage + 1 (32d4f4b782bb)", v5_15 },
	{ 519, "memory.reclaim exists (94968384dde1)", v5_19 },
};

const struct rr_release_family rr_linux_5 = { changes, sizeof(changes) / sizeof(changes[0]) };
