/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel release a replay models, and the version switches derived from
 * it (docs/kernel-model.md §16, "orthogonal kernel-version switches").
 */
#ifndef RR_KERNEL_MODEL_H
#define RR_KERNEL_MODEL_H

#include <stdbool.h>

struct rr_kernel_model {
	int major, minor;		/* e.g. 6, 18 */
	int sublevel;			/* e.g. 44 of "6.18.44-fc"; -1 when the
					 * release gives none ("6.18") */
	/* as given, e.g. "6.18.44-fc-v669"; at most 64 characters, as
	 * uname's (__NEW_UTS_LEN): a longer one is refused, not cut */
	char release[65];
	/* derived switches */
	bool denominator_plus_one;	/* ap + fp + 1 before v5.8 (a4fe1631f313) */
	bool cost_fractions;		/* anon_cost/file_cost form, v5.8+ */
	bool cost_rotations_x32;	/* nr_pageout * 32 + rotations, v6.2+ */
	bool cost_zero_returns;		/* zero-cost note returns early, ~v6.17+ */
	bool cut_one_more_round;	/* v6.1+ shrink_lruvec() cut (f53af4285d77) */
	bool partial_walk;		/* v6.11+ incremental memcg iteration */
	/* Before v5.4: shrink_node() walks the memcgs with a reclaim cookie
	 * (mem_cgroup_iter(root, prev, &reclaim), one shared position per
	 * (reclaim root, node, priority)) and limit reclaim (!global_reclaim())
	 * breaks the walk once sc->nr_reclaimed >= sc->nr_to_reclaim
	 * (mem_cgroup_iter_break()).  1ba6fc9af35b "mm: vmscan: do not share
	 * cgroup iteration between reclaimers" (Johannes Weiner, v5.4) dropped
	 * both: read in a 4.19.y tree (cookie and break) and a 5.4.293 tree
	 * (mem_cgroup_iter(root, NULL, NULL), no break) */
	bool limit_walk_stops;
	/* Before v5.5: get_scan_count() decides per lruvec that file is
	 * enough (SCAN_FILE when !inactive_list_is_low(lruvec, file) and the
	 * lruvec's inactive file >> priority is non-zero), and global
	 * reclaim's file-is-tiny SCAN_ANON needs the lruvec's own inactive
	 * anon (!inactive_list_is_low(lruvec, anon) and its >> priority);
	 * b91ac374346b "mm: vmscan: enforce inactive:active ratio at the
	 * reclaim root" (Johannes Weiner, v5.5) moved both to shrink_node()
	 * (sc->cache_trim_mode, sc->file_is_tiny) from the reclaim root */
	bool cache_trim_per_lruvec;
	bool full_walk_retry;		/* v6.11+ memcg_full_walk retry */
	int swappiness_max;		/* 100 before v5.8, 200 since */
	/* memory.reclaim accepts "swappiness=N" (0..200) and passes it to
	 * reclaim as sc->proactive_swappiness, read by get_scan_count()
	 * through sc_swappiness(): v6.11+, 68cd9050d871 "mm: add
	 * swappiness= arg to memory.reclaim" (Dan Schatzberg) */
	bool proactive_swappiness_key;
	/* memory.reclaim accepts "swappiness=max" (SWAPPINESS_ANON_ONLY):
	 * get_scan_count() scans anon only: ~v6.16+, "mm: add swappiness=max
	 * arg to memory.reclaim for only anon reclaim" (Zhongkun He) */
	bool proactive_swappiness_max;
	/* kswapd (balance_pgdat(), docs/kernel-model.md §23): */
	/* kswapd_shrink_node() says "enough scanned" when max(pages scanned,
	 * pages reclaimed in the pass) >= nr_to_reclaim, not scanned alone:
	 * 3f74e6bd3b84 "mm/mglru: fix overshooting shrinker memory" (Yu Zhao),
	 * mainline v6.11 (6.10 has the old test); backported to 6.6.y (posted
	 * for 6.6.y on 29 Jul 2024): modelled from 6.6.44 [first 6.6.y
	 * sublevel not verified]; a 6.6 release without a sublevel keeps the
	 * old test */
	bool kswapd_progress_max;
	/* the cache-trim retry after the priority ladder (no_cache_trim_mode,
	 * cache_trim_mode_failed; "mm, vmscan: retry kswapd's priority loop
	 * with cache_trim_mode off on failure", Byungchul Park, March 2024):
	 * present in a 6.10 tree, v6.10+ [6.9 tree not read] */
	bool kswapd_cache_trim_retry;
};

/**
 * rr_kernel_model_init() - parse a release string and derive the switches
 * @release: "MAJOR.MINOR[.anything]", e.g. "6.18.44-fc-v669" or "5.6".
 *
 * Return: 0, or -1 if @release does not start with MAJOR.MINOR, is older
 * than 4.0 (no model for it), or is longer than 64 characters (uname's).
 */
int rr_kernel_model_init(struct rr_kernel_model *km, const char *release);

/* True when the model's kernel is at least @major.@minor (the sublevel
 * is not compared). */
bool rr_kernel_at_least(const struct rr_kernel_model *km, int major, int minor);

/* What `report` models when a trace does not name its kernel. */
#define RR_NEWEST_MODELLED_RELEASE "6.18"

#endif
