// SPDX-License-Identifier: GPL-2.0-only
/*
 * balance_pgdat(): one kswapd run, priority 12 down to 1, one full walk
 * from the root memcg per iteration, the balance check at the top of each,
 * the anon aging of kswapd_age_node() and the cache-trim retry (§23.2).
 */
#include "sim-local.h"

/*
 * kswapd_age_node() (v6.1+; age_active_anon() before): when anon can be
 * aged (swap) and the root memcg's anon is short on inactive pages in the
 * rstat view, one shrink_active_list() of SWAP_CLUSTER_MAX pages on the
 * active anon list of every memcg, root first, in pre-order: no
 * protection check, empty lists included (the batch's event is emitted
 * all the same).
 */
static void kswapd_age_node(struct run *r)
{
	const uint64_t *rs = r->in->root_rstat_lru_pages;

	if (!r->in->swap_present || r->in->outcome == RR_OUTCOME_EXACT ||
	    !rr_inactive_is_low(rs[RR_LRU_INACTIVE_ANON], rs[RR_LRU_ACTIVE_ANON],
				r->in->page_shift))
		return;
	for (size_t i = 0; i < r->in->nr_memcgs; i++)
		rr_sim_shrink_active(r, (int)i, RR_LRU_ACTIVE_ANON, RR_SWAP_CLUSTER_MAX);
}

/*
 * balance_pgdat() of kswapd (mm/vmscan.c; docs/kernel-model.md §23.2):
 * priority 12 down to 1, per iteration the balance check, the anon aging,
 * one node pass and kswapd_shrink_node()'s order drop and "enough
 * scanned" verdict; the priority falls unless enough was scanned and the
 * pass reclaimed something.  After the ladder, the cache-trim retry where
 * the release has it.  Boost, the v1 soft-limit calls and
 * should_continue_reclaim() are not modelled.
 */
int rr_sim_kswapd_run(struct run *r, uint64_t *reclaimed)
{
	const struct rr_kernel_model *km = r->in->km;

	r->nr_to_reclaim = r->in->kswapd_nr_to_reclaim_pages > RR_SWAP_CLUSTER_MAX ?
			   r->in->kswapd_nr_to_reclaim_pages : RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->order = r->in->order;
	r->out->calls = 1;
	r->out->kswapd_end = RR_KSWAPD_END_LADDER;
restart:
	r->priority = RR_DEF_PRIORITY;
	do {
		uint64_t before = r->nr_reclaimed, progress;
		bool enough;

		/* pgdat_balanced() at the top of the iteration */
		if (r->nr_reclaimed >= r->in->balance_reclaim_pages) {
			r->out->kswapd_end = RR_KSWAPD_END_BALANCED;
			break;
		}
		if (r->in->balance_interval && r->nr_reclaimed > r->in->balance_unbalanced_pages)
			r->out->kswapd_balance_undecidable = true;
		kswapd_age_node(r);
		/* kswapd_shrink_node(): one shrink_node() */
		if (rr_sim_node_pass(r, r->nr_to_reclaim))
			return -1;
		r->out->kswapd_passes++;
		if (r->order && r->nr_reclaimed >= (2ULL << r->order))
			r->order = 0;	/* compact_gap(order) reclaimed */
		progress = r->nr_reclaimed - before;
		enough = km->kswapd_progress_max ?
			 (r->nr_scanned > progress ? r->nr_scanned : progress) >= r->nr_to_reclaim :
			 r->nr_scanned >= r->nr_to_reclaim;
		if (!enough || !progress)
			r->priority--;
	} while (r->priority >= 1);
	if (r->out->kswapd_end == RR_KSWAPD_END_LADDER && km->kswapd_cache_trim_retry &&
	    !r->nr_reclaimed && !r->no_cache_trim_mode && r->cache_trim_mode_failed) {
		r->no_cache_trim_mode = true;
		r->out->retries++;
		goto restart;
	}
	*reclaimed = r->nr_reclaimed;
	return 0;
}
