/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel release a replay models, and the version switches derived from
 * it (docs/kernel-model.md §16, "orthogonal kernel-version switches").
 *
 * Each release family has one file that says what its releases changed:
 * linux-4.c (the rules of 4.0, the oldest release modelled, and the 4.x
 * changes), linux-5.c, linux-6.c.  An entry there names the first release
 * with a new rule, says the rule with its commit, and sets the switches it
 * changes; rr_kernel_model_init() applies every entry up to the release.
 * The policies (the "kernel" policy's rounding and chunk), the simulator
 * and the replay read the switches, never the release numbers.
 */
#ifndef RR_RELEASE_H
#define RR_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

/* get_scan_count()'s SCAN_FRACT rounding (the "kernel" policy's hook) */
enum rr_scan_fract_rounding {
	RR_ROUND_FLOOR,		/* div64_u64() for every memcg */
	RR_ROUND_UP_ALL,	/* 68600f623d69: ceil for every memcg */
	RR_ROUND_UP_OFFLINE,	/* 76073c646f5f: ceil for offline memcgs only */
};

/* memory.reclaim's chunk per try_to_free_mem_cgroup_pages() call (the
 * "kernel" policy's hook) */
enum rr_proactive_chunk_rule {
	RR_CHUNK_REMAINDER,	/* 94968384dde1: the whole remainder */
	RR_CHUNK_CLUSTER_CAP,	/* 0388536ac291: min(remainder, 32) */
	RR_CHUNK_QUARTER,	/* 287d5fedb377: remainder / 4 */
};

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
	/* get_scan_count()'s memory.min/low scaling (§3.7): v5.14+
	 * (f56ce412a59d) scales by memory.low outside the low-reclaim retry
	 * (and notes memcg_low_skipped); before, by max(min, low) */
	bool protection_low_outside_retry;
	bool protection_usage_plus_one;	/* ... over usage + 1, v5.15+ (32d4f4b782bb) */
	bool memory_reclaim;		/* memory.reclaim exists, v5.19+ (94968384dde1) */
	enum rr_scan_fract_rounding scan_fract_rounding;
	enum rr_proactive_chunk_rule proactive_chunk;
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

/*
 * The releases where the kernel model's rules change, for a trace that
 * does not name its kernel: when its print formats fit a range of releases
 * (text.c era_hints()) and a rule changes inside it, the replay must be
 * told which release made it (--kernel).
 */

/* Releases as MAJOR * 100 + MINOR (6.18 = 618), as struct rr_trace_info's
 * era_lo/era_hi. */
#define RR_RULES_OLDEST 400	/* the oldest release the model takes (4.0) */
#define RR_RULES_NEWEST 618	/* RR_NEWEST_MODELLED_RELEASE */

struct rr_rule_change {
	int release;		/* the first release with the new rule */
	const char *what;	/* the rule from then on, with its commit */
	/* sets the switches of struct rr_kernel_model the rule changes */
	void (*apply)(struct rr_kernel_model *km);
};

/**
 * rr_rule_changes() - the model's rule changes in the releases after @lo
 * up to @hi (both MAJOR * 100 + MINOR)
 * @out: set to the first of them (NULL when none), in release order.
 *
 * The table gathers every release switch of the model, one entry per
 * release that changes any (tests/unit checks it against
 * rr_kernel_model_init()): the files of the release families,
 * src/release/linux-*.c; docs/kernel-model.md §3.7, 3.8, 5.2, 6.2, 10.2
 * and 23.
 * Return: how many there are (0 when @hi <= @lo).
 */
size_t rr_rule_changes(int lo, int hi, const struct rr_rule_change **out);

/* "5.17" for 517 into @buf. */
void rr_release_name(int release, char *buf, size_t len);

#endif
