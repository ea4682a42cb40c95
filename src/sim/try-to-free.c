// SPDX-License-Identifier: GPL-2.0-only
/*
 * try_to_free_mem_cgroup_pages() and try_to_free_pages() with their
 * do_try_to_free_pages(): the priority loop from 12 down to 0, the walk of
 * each pass and the retries (§7, §8.1, §23.3).
 */
#include "sim-local.h"

/* try_to_free_mem_cgroup_pages() (or try_to_free_pages() for direct
 * reclaim, nr_to_reclaim = SWAP_CLUSTER_MAX) + do_try_to_free_pages() */
int rr_sim_do_try(struct run *r, uint64_t nr_pages, uint64_t *reclaimed)
{
	r->nr_to_reclaim = nr_pages > RR_SWAP_CLUSTER_MAX ? nr_pages : RR_SWAP_CLUSTER_MAX;
	if (r->in->kind == RR_KIND_DIRECT)
		r->nr_to_reclaim = RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->force_deactivate = false;
	r->skipped_deactivate = false;
	r->memcg_full_walk = false;
	r->memcg_low_reclaim = false;
	r->memcg_low_skipped = false;
	r->out->calls++;

	if (r->in->outcome == RR_OUTCOME_EXACT) {
		uint64_t avail = rr_sim_exact_available(r);

		*reclaimed = r->nr_to_reclaim + r->in->exact_extra_pages;
		if (*reclaimed > avail)
			*reclaimed = avail;
		r->exact_reclaimed += *reclaimed;
		r->out->nr_scanned_pages += *reclaimed;
		return 0;
	}

	if (r->in->kind == RR_KIND_SOFTLIMIT) {
		/* mem_cgroup_shrink_node(): priority 0, no prepare_scan_control() */
		r->priority = 0;
		r->may_deactivate[RR_LRU_ANON] = r->may_deactivate[RR_LRU_FILE] = false;
		r->cache_trim_mode = false;
		r->sc_anon_cost = r->sc_file_cost = 0;
		r->out->lowest_priority = 0;
		if (rr_sim_shrink_lruvec(r, 0))
			return -1;
		*reclaimed = r->nr_reclaimed;
		return 0;
	}
	for (;;) {
		for (r->priority = RR_DEF_PRIORITY; r->priority >= 0; r->priority--) {
			if (r->priority < r->out->lowest_priority)
				r->out->lowest_priority = r->priority;
			rr_sim_prepare_scan_control(r);
			if (rr_sim_walk(r))
				return -1;
			/* shrink_node(): the slab pages the recording credited
			 * at this pass's end (v6.1, rr_sim_pass) */
			if (r->pass_matched >= 0)
				r->nr_reclaimed += r->in->passes[r->pass_matched].slab_pages;
			if (r->nr_reclaimed >= r->nr_to_reclaim)
				break;
			/* shrink_zones() found a zone compaction_ready() for a
			 * costly order: do_try_to_free_pages() returns 1 */
			if (r->in->kind == RR_KIND_DIRECT && r->in->order > RR_PAGE_ALLOC_COSTLY_ORDER &&
			    r->in->compaction_ready_known &&
			    r->priority <= r->in->compaction_ready_priority) {
				r->out->compaction_ready = true;
				break;
			}
		}
		if (r->nr_reclaimed || r->out->compaction_ready)
			break;
		if (r->in->km->full_walk_retry && !r->memcg_full_walk) {
			r->memcg_full_walk = true;
			r->out->retries++;
			continue;
		}
		if (r->skipped_deactivate) {
			r->force_deactivate = true;
			r->skipped_deactivate = false;
			r->out->retries++;
			continue;
		}
		if (r->memcg_low_skipped) {
			r->force_deactivate = false;
			r->memcg_low_reclaim = true;
			r->memcg_low_skipped = false;
			r->out->retries++;
			continue;
		}
		break;
	}
	*reclaimed = r->nr_reclaimed;
	return 0;
}

int rr_sim_do_try_cb(void *ctx, uint64_t nr_pages, uint64_t *nr_reclaimed)
{
	return rr_sim_do_try(ctx, nr_pages, nr_reclaimed);
}
