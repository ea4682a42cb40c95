// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a closed batch whose memcg is known does to the state: the memcg's
 * outcome statistics, the cost notes of lru_note_cost(), the isolate
 * bound on its sizes (infer.c) and, without memcg: events, the deltas its
 * shrink event implies.
 */
#include "episode-local.h"

#include <string.h>

/*
 * What the closed batch did to its memcg's lists, as the deltas a 6.13
 * kernel would have printed: shrink_inactive_list() frees nr_reclaimed
 * pages and moves nr_activate to the active list; shrink_active_list()
 * moves nr_deactivated to the inactive list.  The rest went back where it
 * was.  Return -1 on ENOMEM.
 */
static int attr_batch_effects(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_event d;
	int lru = t->batch.lru;
	int base = rr_lru_type(lru) == RR_LRU_FILE ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON;

	if (!ev || !t->batch.memcg_id || !rr_lru_is_evictable(lru))
		return 0;
	memset(&d, 0, sizeof(d));
	d.type = RR_EV_MOD_LRUVEC;
	d.ts_ns = ev->ts_ns;
	d.id = t->batch.memcg_id;
	if (ev->type == RR_EV_SHRINK_INACTIVE) {
		d.item = lru;
		d.val = -(int64_t)(ev->nr_reclaimed + ev->nr_activate);
		if (d.val && rr_state_apply(&b->st, &d))
			return -1;
		d.item = base + 1;
		d.val = (int64_t)ev->nr_activate;
	} else {
		d.item = lru;
		d.val = -(int64_t)ev->nr_deactivated;
		if (d.val && rr_state_apply(&b->st, &d))
			return -1;
		d.item = base;
		d.val = (int64_t)ev->nr_deactivated;
	}
	return d.val ? rr_state_apply(&b->st, &d) : 0;
}

/* The close of a batch whose memcg is known (or will never be): the
 * memcg's statistics, cost notes and sizes. */
int rr_task_batch_memcg_close(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_memcg *m = t->batch.memcg_id ? rr_state_find(&b->st, t->batch.memcg_id) : NULL;
	int type = rr_lru_type(t->batch.lru);

	if (ev && m && ev->type == RR_EV_SHRINK_INACTIVE) {
		struct rr_memcg_vals *v = rr_memcg_mut(&b->st, m);

		v->stats.scanned[type] += ev->nr_scanned;
		v->stats.reclaimed[type] += ev->nr_reclaimed;
		v->stats.activated[type] += ev->nr_activate;
		v->stats.pageouts[type] += t->batch.nr_pageout;
		v->stats.requested[type] += t->batch.nr_requested;
		v->stats.taken[type] += t->batch.nr_taken;
		/* lru_note_cost() from shrink_inactive_list(): stat.nr_pageout
		 * counts pages, mm_vmscan_write_folio folios; a batch that took
		 * more pages than it asked for holds large folios, and its
		 * writes may have been up to nr_taken pages (the note's range) */
		uint64_t more = 0;

		if (t->batch.nr_pageout && t->batch.nr_taken > t->batch.nr_requested &&
		    t->batch.nr_taken > t->batch.nr_pageout)
			more = t->batch.nr_taken - t->batch.nr_pageout;
		if (b->st.cost_rotations_x32)	/* (rotated: not reclaimed of those scanned) */
			rr_state_note_cost_range(&b->st, m, type,
						 t->batch.nr_pageout * RR_SWAP_CLUSTER_MAX +
						 (ev->nr_scanned > ev->nr_reclaimed ?
						  ev->nr_scanned - ev->nr_reclaimed : 0),
						 more * RR_SWAP_CLUSTER_MAX);
		else
			rr_state_note_cost_range(&b->st, m, type, t->batch.nr_pageout, more);
	} else if (ev && m && ev->type == RR_EV_SHRINK_ACTIVE &&
		   b->st.cost_rotations_x32 && ev->nr_referenced) {
		rr_state_note_cost(&b->st, m, type, ev->nr_referenced);
	}
	if (!t->batch.memcg_id)
		b->stats.batches_unattributed++;
	/* (a guessed memcg's size is not raised by the guess) */
	if (t->batch.attr != RR_ATTR_AMBIGUOUS)
		rr_infer_isolate_bound(b, t);
	if (b->stats.attr_inferred && attr_batch_effects(b, t, ev))
		return -1;
	t->batch_open = false;
	t->awaiting_memcg = false;
	t->batch_sum_valid = false;
	t->batch_ep = NULL;
	return b->st.oom ? -1 : 0;
}
