// SPDX-License-Identifier: GPL-2.0-only
/*
 * One shrink_node() pass: shrink_node_memcgs(), the memcg walk, full or
 * partial on a shared position (§6, §6.3); one pass of the exact outcome
 * model; __node_reclaim() (§23.4).
 */
#include "sim-local.h"

/*
 * RR_OUTCOME_EXACT: the pages the walk's lists hold and reclaim may take
 * (file always, anon with swap and may_swap; unevictable never), less what
 * the run reclaimed already.  The active lists count: reclaim reaches them
 * by deactivation (shrink_active_list(), and the force_deactivate retry of
 * do_try_to_free_pages() when nothing else is left), as the structural
 * model does.  No outcome mode reclaims pages a list does not have.
 */
uint64_t rr_sim_exact_available(struct run *r)
{
	if (!r->exact_held_known) {	/* (summed once per run, not per call) */
		for (size_t k = 0; k < r->in->nr_memcgs; k++) {
			const struct rr_sim_memcg *m = &r->in->memcgs[k];

			r->exact_held += m->lru_pages[RR_LRU_INACTIVE_FILE] +
					 m->lru_pages[RR_LRU_ACTIVE_FILE];
			if (r->in->swap_present && r->in->may_swap)
				r->exact_held += m->lru_pages[RR_LRU_INACTIVE_ANON] +
						 m->lru_pages[RR_LRU_ACTIVE_ANON];
		}
		r->exact_held_known = true;
	}
	return r->exact_held > r->exact_reclaimed ? r->exact_held - r->exact_reclaimed : 0;
}

/*
 * Skip a memcg the walk must not reclaim (mm/vmscan.c shrink_node_memcgs(),
 * mem_cgroup_below_min/low()).  The reclaim root ([0], also the root memcg
 * of direct reclaim) is never protected.  Below min covers an empty memcg
 * (emin 0 >= usage 0), on v1 too.  Below low is skipped unless this is the
 * memcg_low_reclaim retry.  Usage is approximated by the LRU sizes.
 */
static bool walk_skips(struct run *r, int mi)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	uint64_t usage = usage_pages(m);

	if (mi == 0)
		return false;
	if (m->min_pages >= usage)
		return true;
	if (m->low_pages >= usage) {
		if (!r->memcg_low_reclaim) {
			r->memcg_low_skipped = true;
			return true;
		}
	}
	return false;
}

/*
 * The memcg walk of one shrink_node() pass.  Partial walks on a shared
 * position: v6.11+ for every reclaimer but kswapd and the memcg_full_walk
 * retry (shrink_node_memcgs(), one position per root and node); before
 * v5.4 for limit reclaim (shrink_node() with a reclaim cookie, one
 * position per root, node and priority, broken off by
 * mem_cgroup_iter_break() once sc->nr_reclaimed >= sc->nr_to_reclaim;
 * global reclaim walked to the end with the cookie too, which without a
 * concurrent walker is the full walk).  Full walks otherwise.
 */
int rr_sim_walk(struct run *r)
{
	int n = (int)r->in->nr_memcgs;
	int *pos = NULL;

	if (r->in->km->partial_walk && !r->memcg_full_walk && r->in->kind != RR_KIND_KSWAPD)
		pos = &r->cursor;
	else if (r->in->km->limit_walk_stops && cgroup_reclaim(r))
		pos = &r->iter_pos[r->priority];
	if (pos) {
		int i = *pos + 1;

		if (*pos < 0 || i >= n)
			i = 0;	/* fresh cursor, or first hand-out found the end */
		for (; i < n; i++) {
			*pos = i;
			if (walk_skips(r, i))
				continue;
			if (rr_sim_shrink_lruvec(r, i))
				return -1;
			if (r->nr_reclaimed >= r->nr_to_reclaim)
				return 0;	/* position stays on this memcg */
		}
		*pos = -1;		/* round complete: generation bumped */
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (walk_skips(r, i))
			continue;
		if (rr_sim_shrink_lruvec(r, i))
			return -1;
	}
	return 0;
}

/* RR_OUTCOME_EXACT: one node pass reclaims @goal + exact_extra_pages, at
 * most what the lists still hold; it counts as scanned too. */
static uint64_t exact_pass(struct run *r, uint64_t goal)
{
	uint64_t avail = rr_sim_exact_available(r), got = goal + r->in->exact_extra_pages;

	if (got > avail)
		got = avail;
	r->exact_reclaimed += got;
	r->out->nr_scanned_pages += got;
	r->nr_scanned = got;
	r->nr_reclaimed += got;
	return got;
}

/* One shrink_node() pass of global reclaim at r->priority: the node flags,
 * then the memcg walk (full for kswapd; partial on the root's cursor for
 * the others from v6.11).  kswapd's cache-trim bookkeeping: a pass in
 * cache_trim_mode that reclaimed nothing sets cache_trim_mode_failed. */
int rr_sim_node_pass(struct run *r, uint64_t goal)
{
	uint64_t before = r->nr_reclaimed;

	r->nr_scanned = 0;
	if (r->priority < r->out->lowest_priority)
		r->out->lowest_priority = r->priority;
	if (r->in->outcome == RR_OUTCOME_EXACT) {
		exact_pass(r, goal);
		return 0;
	}
	rr_sim_prepare_scan_control(r);
	if (rr_sim_walk(r))
		return -1;
	if (r->cache_trim_mode && r->nr_reclaimed == before)
		r->cache_trim_mode_failed = true;
	return 0;
}

/*
 * __node_reclaim() (mm/vmscan.c, NUMA node_reclaim_mode;
 * docs/kernel-model.md §23.4): nr_to_reclaim = max(1 << order, 32); one
 * shrink_node() per priority from NODE_RECLAIM_PRIORITY (4) down to 0
 * while the call has reclaimed fewer than 1 << order pages (the loop
 * tests 1 << order, not nr_to_reclaim).  The node_reclaim_mode bits
 * (may_unmap, may_writepage) and the page-cache/slab preconditions of
 * node_reclaim() are not modelled.
 */
#define NODE_RECLAIM_PRIORITY 4

int rr_sim_node_run(struct run *r, uint64_t *reclaimed)
{
	uint64_t nr_pages = 1ULL << r->in->order;

	r->nr_to_reclaim = nr_pages > RR_SWAP_CLUSTER_MAX ? nr_pages : RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->order = r->in->order;
	r->out->calls = 1;
	r->priority = NODE_RECLAIM_PRIORITY;
	do {
		if (rr_sim_node_pass(r, r->nr_to_reclaim))
			return -1;
	} while (r->nr_reclaimed < nr_pages && --r->priority >= 0);
	if (r->priority < 0)
		r->priority = 0;
	*reclaimed = r->nr_reclaimed;
	return 0;
}
