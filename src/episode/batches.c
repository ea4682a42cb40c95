// SPDX-License-Identifier: GPL-2.0-only
/*
 * The batch in flight of a task in reclaim.
 *
 * A batch is one mm_vmscan_lru_isolate.  Its memcg is named by the first
 * negative mod_memcg_lruvec_state of the isolated list that follows, or by
 * the count_memcg_events PGSCAN/PGREFILL after it when nothing was taken
 * (docs/kernel-model.md §12.3); its write-outs
 * are the mm_vmscan_write_folio events before its closing lru_shrink_*
 * event, which gives the priority and the outcome.  Batches feed the
 * state's outcome statistics and cost notes whatever episode they belong
 * to (kswapd, DAMON, a memcg), because lru_note_cost() reaches every
 * ancestor whoever reclaims (batch-effects.c).
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

/* Make room for one more batch in @ep (and its context, if replayable). */
static int ep_grow(struct rr_episode *ep)
{
	if (ep->nr_batches == ep->cap_batches) {
		size_t cap = ep->cap_batches ? ep->cap_batches * 2 : 32;
		struct rr_batch *nb = realloc(ep->batches, cap * sizeof(*nb));

		if (!nb)
			return -1;
		ep->batches = nb;
		ep->cap_batches = cap;
	}
	if (ep->replayable && ep->cap_ctx < ep->cap_batches) {
		struct rr_batch_ctx *nc = realloc(ep->ctx, ep->cap_batches * sizeof(*nc));

		if (!nc)
			return -1;
		ep->ctx = nc;
		ep->cap_ctx = ep->cap_batches;
	}
	return 0;
}

int rr_task_isolate(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_episode *ep;

	if (t->batch_open &&	/* nr_taken == 0 inactive batch: no shrink event */
	    rr_task_batch_close(b, t, NULL))
		return -1;
	memcpy(t->batch_drain, t->drain, (size_t)t->nr_drain * sizeof(t->drain[0]));
	t->nr_batch_drain = t->drain_overflow ? -1 : t->nr_drain;
	t->batch_prev_vmscan_ns = t->last_vmscan_ns;
	rr_task_drain_reset(t, ev->ts_ns);
	b->stats.batches++;
	memset(&t->batch, 0, sizeof(t->batch));
	t->batch.lru = ev->lru;
	t->batch.priority = -1;
	t->batch.nr_requested = ev->nr_requested;
	t->batch.nr_scanned = ev->nr_scanned;
	t->batch.nr_taken = ev->nr_taken;
	t->batch.ts_ns = ev->ts_ns;
	t->batch.order = (int8_t)ev->order;
	t->batch.classzone = (int8_t)ev->classzone;
	/* classic reclaim asks for at most SWAP_CLUSTER_MAX pages a batch;
	 * MGLRU's scan_folios() reports MAX_LRU_BATCH */
	t->batch.mglru = ev->nr_requested > RR_SWAP_CLUSTER_MAX;
	t->batch_open = true;
	t->awaiting_memcg = !b->opts.drop_memcg_events;
	t->awaiting_truth = b->opts.drop_memcg_events;
	t->truth_id = 0;

	/* batches outside any begin/end pair: an episode that began before
	 * the trace */
	ep = t->ep ? t->ep : rr_episode_unknown(b, t, ev->ts_ns);
	if (!ep)
		return -1;
	if (t->batch.mglru) {
		b->stats.mglru_batches++;
		ep->mglru = true;
	}
	if (ep->replayable && ev->lru == RR_LRU_INACTIVE_ANON && ev->nr_taken > 0)
		b->anon_scanned_seen = true;
	t->batch_ep = NULL;
	if (rr_episode_keeps_batches(b, ep)) {
		if (ep_grow(ep))
			return -1;
		t->batch_ep = ep;
		t->batch_index = ep->nr_batches;
		if (ep->replayable)
			ep->ctx[ep->nr_batches].valid = false;
		ep->batches[ep->nr_batches++] = t->batch;
	}
	return 0;
}

/* Close the batch in flight: statistics and cost notes. */
int rr_task_batch_close(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_batch *eb = ep_batch(t);

	if (ev) {
		t->batch.priority = ev->priority;
		t->batch.has_shrink = true;
		t->batch.end_ns = ev->ts_ns;
		if (ev->type == RR_EV_SHRINK_INACTIVE) {
			t->batch.nr_reclaimed = ev->nr_reclaimed;
			t->batch.nr_activate = ev->nr_activate;
		} else {
			t->batch.nr_deactivate = ev->nr_deactivated;
		}
	}
	if (eb) {
		*eb = t->batch;
		/* earlier nr_taken == 0 batches had no priority of their own */
		if (eb->priority >= 0)
			for (size_t i = t->batch_index; i-- > 0 &&
			     t->batch_ep->batches[i].priority < 0;)
				t->batch_ep->batches[i].priority = eb->priority;
	}
	/* no memcg: event named its memcg: its priority pass decides it, the
	 * rest of the close comes then (attribute.c) */
	if (b->stats.attr_inferred && !t->batch.memcg_id && eb && t->batch_ep->replayable &&
	    rr_lru_is_evictable(t->batch.lru)) {
		int ret = rr_attr_defer(b, t, ev);

		t->batch_open = false;
		t->awaiting_memcg = false;
		t->batch_sum_valid = false;
		t->batch_ep = NULL;
		return ret || b->st.oom ? -1 : 0;
	}
	return rr_task_batch_memcg_close(b, t, ev);
}
