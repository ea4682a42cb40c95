// SPDX-License-Identifier: GPL-2.0-only
/*
 * Episode records: their allocation (a pool of closed ones kept for
 * reuse), the builder's lists of open ones, the push onto a task's stack,
 * the calls a memory.reclaim write gathers, and the hand-over of a closed
 * one to the callback (requests.c decides when; proactive.c for an
 * inferred write).
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

/* Closed episodes kept for reuse, with their arrays: no allocation per
 * episode once the pool is warm. */
#define FREE_EPISODES_MAX 16

bool rr_kind_replayable(enum rr_reclaim_kind kind)
{
	return kind == RR_KIND_MEMCG || kind == RR_KIND_SOFTLIMIT ||
	       kind == RR_KIND_PROACTIVE || rr_kind_global(kind);
}

bool rr_episode_keeps_batches(const struct rr_builder *b, const struct rr_episode *ep)
{
	return b->opts.keep_all_batches || ep->replayable;
}

static struct rr_episode *episode_alloc(struct rr_builder *b)
{
	struct rr_episode *ep = b->free_eps;
	struct rr_episode keep;

	if (!ep)
		ep = calloc(1, sizeof(*ep));
	else {
		b->free_eps = ep->outer;
		b->nr_free_eps--;
		keep = *ep;
		memset(ep, 0, sizeof(*ep));
		ep->batches = keep.batches;
		ep->ctx = keep.ctx;
		ep->cap_batches = keep.cap_batches;
		ep->cap_ctx = keep.cap_ctx;
		ep->silent = keep.silent;
		ep->cap_silent = keep.cap_silent;
		ep->calls = keep.calls;
		ep->cap_calls = keep.cap_calls;
		ep->bounds = keep.bounds;
		ep->cap_bounds = keep.cap_bounds;
		ep->probes = keep.probes;
		ep->cap_probes = keep.cap_probes;
		ep->passes = keep.passes;
		ep->cap_passes = keep.cap_passes;
	}
	if (ep) {
		ep->proactive_swappiness = -1;
		ep->proactive_errno = -1;
		ep->order = ep->classzone = -1;
	}
	return ep;
}

void rr_episode_release(struct rr_builder *b, struct rr_episode *ep)
{
	if (!ep)
		return;
	if (b && b->nr_free_eps < FREE_EPISODES_MAX && ep->cap_batches <= 256 &&
	    ep->cap_calls <= 64 && ep->cap_bounds <= 64 && ep->cap_silent <= 256 &&
	    ep->cap_probes <= 256 && ep->cap_passes <= 64) {
		ep->outer = b->free_eps;
		b->free_eps = ep;
		b->nr_free_eps++;
		return;
	}
	free(ep->batches);
	free(ep->ctx);
	free(ep->silent);
	free(ep->calls);
	free(ep->bounds);
	free(ep->probes);
	free(ep->passes);
	free(ep);
}

static void open_link(struct rr_builder *b, struct rr_episode *ep)
{
	ep->open_prev = NULL;
	ep->open_next = b->open;
	if (b->open)
		b->open->open_prev = ep;
	b->open = ep;
}

void rr_episode_fresh_unlink(struct rr_builder *b, struct rr_episode *ep)
{
	if (!ep->in_fresh)
		return;
	if (ep->fresh_prev)
		ep->fresh_prev->fresh_next = ep->fresh_next;
	else
		b->fresh = ep->fresh_next;
	if (ep->fresh_next)
		ep->fresh_next->fresh_prev = ep->fresh_prev;
	ep->fresh_prev = ep->fresh_next = NULL;
	ep->in_fresh = false;
}

void rr_episode_open_unlink(struct rr_builder *b, struct rr_episode *ep)
{
	rr_episode_fresh_unlink(b, ep);
	if (ep->open_prev)
		ep->open_prev->open_next = ep->open_next;
	else
		b->open = ep->open_next;
	if (ep->open_next)
		ep->open_next->open_prev = ep->open_prev;
	ep->open_prev = ep->open_next = NULL;
}

struct rr_episode *rr_episode_push(struct rr_builder *b, struct task *t,
			       enum rr_reclaim_kind kind, uint64_t ts_ns)
{
	struct rr_episode *ep = episode_alloc(b);

	if (!ep)
		return NULL;
	ep->seq = ++b->next_seq;
	ep->kind = kind;
	ep->pid = t->pid;
	ep->start_ns = ts_ns;
	ep->before_start_snapshot = b->stats.meta_seen && !b->start_snapshot_ns;
	ep->outer = t->ep;
	ep->parent_seq = t->ep ? t->ep->seq : 0;
	ep->depth = t->ep ? t->ep->depth + 1 : 0;
	if (kind == RR_KIND_MEMCG && t->ep && t->ep->kind == RR_KIND_PROACTIVE &&
	    t->ep->replayable)
		ep->proactive = t->ep;
	t->ep = ep;
	open_link(b, ep);
	return ep;
}

/* A batch that took nothing has no shrink event: it ran at the priority of
 * the batch after it (or, at the end, of the one before). */
static void fill_priorities(struct rr_episode *ep)
{
	for (size_t i = ep->nr_batches; i-- > 1;)
		if (ep->batches[i - 1].priority < 0)
			ep->batches[i - 1].priority = ep->batches[i].priority;
	for (size_t i = 1; i < ep->nr_batches; i++)
		if (ep->batches[i].priority < 0)
			ep->batches[i].priority = ep->batches[i - 1].priority;
}

/* Grow @p (an array of @size-byte items, *@cap of them) to hold @n. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/*
 * A reclaim call of proactive episode @p closed: its batches, and the
 * sizes at each of its shrink_lruvec() calls, join @p, so that @p can be
 * replayed as one memory_reclaim() loop (siminput.c).  A call that cannot
 * be replayed (no begin or no end) leaves @p incomplete.
 */
int rr_episode_add_call(struct rr_episode *p, const struct rr_episode *c)
{
	struct rr_reclaim_call *rc;
	size_t first = p->nr_batches;

	if (!c->replayable) {
		if (!p->calls_incomplete)
			p->calls_incomplete = "a memory.reclaim call whose begin or end is not recorded";
		return 0;
	}
	if (grow((void **)&p->calls, &p->cap_calls, p->nr_calls + 1, sizeof(*p->calls)) ||
	    grow((void **)&p->batches, &p->cap_batches, p->nr_batches + c->nr_batches,
		 sizeof(*p->batches)))
		return -1;
	rc = &p->calls[p->nr_calls];
	memset(rc, 0, sizeof(*rc));
	rc->start_ns = c->start_ns;
	rc->end_ns = c->end_ns;
	rc->nr_to_reclaim_pages = c->nr_to_reclaim_pages;
	rc->nr_to_reclaim_low = c->nr_to_reclaim_low;
	rc->nr_to_reclaim_high = c->nr_to_reclaim_high;
	rc->nr_reclaimed_pages = c->recorded_nr_reclaimed;
	rc->nr_batches = c->nr_batches;
	for (size_t i = 0; i < c->nr_batches; i++) {
		struct rr_batch *bt = &p->batches[p->nr_batches++];

		*bt = c->batches[i];
		bt->call = (uint32_t)p->nr_calls;
		if (!rr_lru_is_active(bt->lru))
			rc->nr_scanned_pages += bt->nr_taken;
		/* the first batch of a (memcg, priority) run */
		if (!c->ctx || !c->ctx[i].valid ||
		    (i && bt->memcg_id == c->batches[i - 1].memcg_id &&
		     bt->priority == c->batches[i - 1].priority))
			continue;
		if (grow((void **)&p->bounds, &p->cap_bounds, p->nr_bounds + 1, sizeof(*p->bounds)))
			return -1;
		p->bounds[p->nr_bounds].batch = first + i;
		memcpy(p->bounds[p->nr_bounds].lru_pages, c->ctx[i].lru_pages,
		       sizeof(p->bounds[0].lru_pages));
		p->nr_bounds++;
	}
	/* the call's passes, as the probes read them */
	if (c->nr_passes &&
	    grow((void **)&p->passes, &p->cap_passes, p->nr_passes + c->nr_passes, sizeof(*p->passes)))
		return -1;
	for (size_t k = 0; k < c->nr_passes; k++) {
		p->passes[p->nr_passes] = c->passes[k];
		p->passes[p->nr_passes++].call = (uint32_t)p->nr_calls;
	}
	p->nr_calls++;
	p->overlapped |= c->overlapped;
	p->mglru |= c->mglru;
	p->in_offline_window |= c->in_offline_window;
	p->recorded_nr_reclaimed += c->recorded_nr_reclaimed;
	p->has_nr_reclaimed = true;
	return 0;
}

struct rr_episode *rr_episode_new(struct rr_builder *b)
{
	struct rr_episode *ep = episode_alloc(b);

	if (ep)
		ep->seq = ++b->next_seq;
	return ep;
}

/*
 * An episode that began before the recorder's start snapshot: did one of
 * its batches reclaim from a memcg whose sizes were not known when it
 * began (no snapshot line yet, not made in the trace)?  Those are lower
 * bounds: its replay would read them (docs/kernel-model.md §18).
 */
static bool read_unknown_sizes(const struct rr_builder *b, const struct rr_episode *ep)
{
	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_memcg *m = ep->batches[i].memcg_id ?
					   rr_state_find(&b->st, ep->batches[i].memcg_id) : NULL;

		if (m && rr_memcg_in_epoch(m, ep->epoch) &&
		    !rr_memcg_at(m, ep->epoch)->baseline_known)
			return true;
	}
	return false;
}

/*
 * A closed episode (unlinked from its task), before the callback: its
 * counts, and for a replayable one with a begin and an end its inferred
 * inputs (infer.c).  Return its reclaim root as inferred, or NULL.
 */
struct rr_memcg *rr_episode_closing(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *root = NULL;

	if (b->stats.mglru_from_meta && ep->nr_batches)
		ep->mglru = true;
	fill_priorities(ep);
	b->stats.episodes[ep->kind]++;
	if (ep->kind == RR_KIND_PROACTIVE && ep->replayable) {
		size_t in_calls = 0;

		for (size_t i = 0; i < ep->nr_calls; i++)
			in_calls += ep->calls[i].nr_batches;
		if (in_calls != ep->nr_batches && !ep->calls_incomplete)
			ep->calls_incomplete = "LRU batches outside the write's reclaim calls";
	}
	if (ep->replayable) {
		if (ep->no_end || ep->no_begin) {
			/* its outcome is unknown: counted, not replayed; a write
			 * (its calls are inside it) is shown as skipped */
			b->stats.unterminated_episodes++;
			ep->replayable = false;
			if (ep->kind == RR_KIND_PROACTIVE) {
				ep->replay_seq = ++b->next_replay_seq;
				ep->unterminated_write = true;
			}
		} else {
			ep->replay_seq = ++b->next_replay_seq;
			b->stats.replay_ended[ep->kind]++;
			/* a kswapd run has no end event with a count: what its
			 * batches reclaimed (slab pages are not in them) */
			if (ep->kind == RR_KIND_KSWAPD && !ep->has_nr_reclaimed) {
				ep->recorded_nr_reclaimed = 0;
				for (size_t i = 0; i < ep->nr_batches; i++)
					ep->recorded_nr_reclaimed += ep->batches[i].nr_reclaimed;
			}
			ep->first_lost_ns = b->first_lost_ns;
			/* a decision before the start snapshot read sizes and views
			 * the trace did not fix yet (the snapshot gave them later) */
			for (size_t i = 0; ep->ctx && b->start_snapshot_ns && i < ep->nr_batches &&
			     ep->batches[i].ts_ns < b->start_snapshot_ns; i++)
				ep->ctx[i].valid = false;
			if (ep->before_start_snapshot)
				ep->before_start_snapshot = read_unknown_sizes(b, ep);
			rr_infer_episode(b, ep);
			root = ep->root_memcg_id ? rr_state_find(&b->st, ep->root_memcg_id) : NULL;
		}
	}
	return root;
}

/*
 * A closed episode to the callback (@root: its reclaim root, for the
 * refault snapshot of its end); a memory.reclaim call's batches join its
 * write (proactive.c) after.  Its start state and the episode are released.
 */
int rr_episode_deliver(struct rr_builder *b, struct rr_episode *ep, struct rr_memcg *root)
{
	int ret = b->cb(ep, &b->st, b->ctx);

	if (!ret && ep->proactive) {
		if (rr_episode_add_call(ep->proactive, ep))
			ret = -1;
		ep->proactive->run_last_end_ns = ep->end_ns;
	}

	/* snapshot_refaults() at the end of do_try_to_free_pages() (the root
	 * memcg's lruvec for direct reclaim) and of balance_pgdat() */
	if (root && (ep->kind == RR_KIND_MEMCG || ep->kind == RR_KIND_DIRECT ||
		     ep->kind == RR_KIND_KSWAPD)) {
		struct rr_memcg_vals *v = rr_memcg_mut(&b->st, root);
		uint64_t lru[RR_NR_EVICTABLE_LRU];
		int64_t ws[RR_NR_LRU_TYPES];

		/* a kswapd run that its next wake ended returned from
		 * balance_pgdat() after its last batch, and may have napped
		 * since: the view of then (a flush in between came after) */
		if (ep->kind == RR_KIND_KSWAPD && ep->end_inferred) {
			uint64_t at = ep->nr_batches ? ep->batches[ep->nr_batches - 1].ts_ns :
				      ep->start_ns;

			rr_memcg_rstat_at(root, at, lru, ws);
			memcpy(v->refault_snapshot, ws, sizeof(v->refault_snapshot));
			v->refault_snapshot_flush_ns = rr_memcg_view_flush_ns(root, at);
		} else {
			memcpy(v->refault_snapshot, v->rstat_ws_activate,
			       sizeof(v->refault_snapshot));
			v->refault_snapshot_flush_ns = root->rstat_flush_ns;
		}
		v->refault_snapshot_valid = true;
	}
	/* (the first call of an inferred write lends its start state to it) */
	if (ep->epoch && !(ep->proactive && ep->proactive->epoch == ep->epoch))
		rr_state_epoch_end(&b->st, ep->epoch);
	rr_episode_release(b, ep);
	if (!ret && b->st.oom)
		ret = -1;
	return ret;
}

struct rr_episode *rr_episode_unknown(struct rr_builder *b, struct task *t, uint64_t ts_ns)
{
	struct rr_episode *ep = rr_episode_push(b, t, RR_KIND_UNKNOWN, ts_ns);

	if (ep)
		ep->no_begin = true;
	return ep;
}
