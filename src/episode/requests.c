// SPDX-License-Identifier: GPL-2.0-only
/*
 * Request grouping: the stack of open episodes of each task.
 *
 * A begin event pushes an episode, its end pops it.  Reclaim does not
 * recurse (PF_MEMALLOC), so a begin while an episode of the same kind is
 * open means that episode's end was not recorded: it is closed first,
 * flagged no_end -- except kswapd, which wakes again without a sleep event
 * when kswapd_try_to_sleep() cut its short sleep: the earlier run ended
 * (end_inferred).  An end without a begin makes an episode that began
 * before the trace (no_begin).  Batches of a task with nothing open go to
 * an episode of unknown kind, which the next begin or end of the task
 * names or closes.  The recorder's "proactive begin/end" markers around a
 * memory.reclaim write make a proactive episode; the memcg reclaim calls
 * of the write nest inside it.
 *
 * Episodes of the replayable kinds open a start state at their begin
 * (rr_state_epoch_begin()) and, when they end, get their inferred inputs
 * (infer.c) before the callback sees them.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

/* Close the innermost episode of @t and hand it over. */
static int pop(struct rr_builder *b, struct task *t, uint64_t end_ns)
{
	struct rr_episode *ep = t->ep;

	/* its batches waiting for their memcg (attribute.c) */
	if (t->nr_pend && t->pend_ep == ep && rr_attr_flush(b, t, true))
		return -1;
	t->ep = ep->outer;
	ep->outer = NULL;
	rr_episode_open_unlink(b, ep);
	if (ep->replayable) {
		b->nr_open_replayable--;
		t->nr_open_replayable--;
	}
	ep->end_ns = end_ns > ep->start_ns ? end_ns : ep->start_ns;
	return rr_episode_hand_over(b, ep);
}

/* Close what is open above @q, flagged no_end. */
static int pop_above(struct rr_builder *b, struct task *t, struct rr_episode *q)
{
	while (t->ep != q) {
		int ret;

		t->ep->no_end = true;
		if ((ret = pop(b, t, t->last_ts)))
			return ret;
	}
	return 0;
}

/* The start state of a replayable episode beginning now. */
static int start_state(struct rr_builder *b, struct task *t, struct rr_episode *ep)
{
	ep->replayable = true;
	ep->epoch = rr_state_epoch_begin(&b->st);
	if (!ep->epoch)
		return -1;
	ep->task_memcg_id = rr_task_memcg(b, t->pid);
	rr_task_drain_reset(t, ep->start_ns);
	/* another task reclaiming at the same time shares the walk cursor and
	 * the lists: mark both episodes (those already marked are not visited
	 * again: a begin costs the unmarked ones only) */
	if (b->nr_open_replayable > (uint64_t)t->nr_open_replayable) {
		struct rr_episode *o = b->fresh, *next;

		ep->overlapped = true;
		for (; o; o = next) {
			next = o->fresh_next;
			if (o->pid != t->pid) {
				o->overlapped = true;
				rr_episode_fresh_unlink(b, o);
			}
		}
	}
	b->nr_open_replayable++;
	t->nr_open_replayable++;
	if (!ep->overlapped) {
		ep->fresh_prev = NULL;
		ep->fresh_next = b->fresh;
		if (b->fresh)
			b->fresh->fresh_prev = ep;
		b->fresh = ep;
		ep->in_fresh = true;
	}
	return 0;
}

int rr_episode_begin(struct rr_builder *b, struct task *t, enum rr_reclaim_kind kind,
		     uint64_t ts_ns)
{
	struct rr_episode *ep;
	int ret;

	/* the batch in flight belongs to what was open, as does the probed
	 * call in progress */
	if (t->batch_open && (ret = rr_task_batch_close(b, t, NULL)))
		return ret;
	if ((ret = rr_probe_task_end(b, t)))
		return ret;
	/* batches of an episode that began before the trace started */
	if (t->ep && t->ep->kind == RR_KIND_UNKNOWN) {
		if (kind == RR_KIND_KSWAPD) {	/* only kswapd wakes in kswapd */
			t->ep->kind = RR_KIND_KSWAPD;
			t->ep->end_inferred = true;
		} else {
			t->ep->no_end = true;
		}
		if ((ret = pop(b, t, t->last_ts)))
			return ret;
	}
	for (struct rr_episode *q = t->ep; q; q = q->outer) {
		if (q->kind != kind)
			continue;
		if ((ret = pop_above(b, t, q)))
			return ret;
		if (kind == RR_KIND_KSWAPD)
			q->end_inferred = true;
		else
			q->no_end = true;
		if ((ret = pop(b, t, t->last_ts)))
			return ret;
		break;
	}
	ep = rr_episode_push(b, t, kind, ts_ns);
	if (!ep)
		return -1;
	if (rr_kind_replayable(kind))
		return start_state(b, t, ep);
	return 0;
}

int rr_episode_end(struct rr_builder *b, struct task *t, enum rr_reclaim_kind kind,
		   const struct rr_event *ev, bool has_nr_reclaimed)
{
	struct rr_episode *q;
	int ret;

	/* the batch in flight is the episode's last */
	if (t->batch_open && (ret = rr_task_batch_close(b, t, NULL)))
		return ret;
	/* and the probed call in progress its last call (probe.c) */
	if ((ret = rr_probe_task_end(b, t)))
		return ret;
	for (q = t->ep; q && q->kind != kind; q = q->outer)
		;
	if (!q) {
		/* an end without a begin: the trace started inside it */
		if (t->ep && t->ep->kind == RR_KIND_UNKNOWN) {
			q = t->ep;
			q->kind = kind;
		} else {
			q = rr_episode_push(b, t, kind, ev->ts_ns);
			if (!q)
				return -1;
			q->no_begin = true;
		}
	}
	if ((ret = pop_above(b, t, q)))
		return ret;
	if (kind != RR_KIND_PROACTIVE) {	/* (a proactive one sums its calls) */
		q->has_nr_reclaimed = has_nr_reclaimed;
		q->recorded_nr_reclaimed = ev->nr_reclaimed;
	}
	return pop(b, t, ev->ts_ns);
}

void rr_episodes_lost(struct rr_builder *b)
{
	for (struct rr_episode *ep = b->open; ep; ep = ep->open_next)
		ep->lost_events = true;
	rr_proactive_lost(b);
}

static int cmp_seq(const void *a, const void *b)
{
	const struct task *x = *(struct task *const *)a, *y = *(struct task *const *)b;
	uint64_t sx = UINT64_MAX, sy = UINT64_MAX;

	for (const struct rr_episode *e = x->ep; e; e = e->outer)
		sx = e->seq;
	for (const struct rr_episode *e = y->ep; e; e = e->outer)
		sy = e->seq;
	return sx < sy ? -1 : sx > sy;
}

int rr_episodes_finish(struct rr_builder *b)
{
	struct task **v, *t, *tmp;
	size_t n = 0;
	int ret = 0;

	v = calloc(HASH_COUNT(b->tasks) + 1, sizeof(*v));
	if (!v)
		return -1;
	/* tasks in the order their outermost episode began */
	HASH_ITER(hh, b->tasks, t, tmp)
		v[n++] = t;
	qsort(v, n, sizeof(*v), cmp_seq);
	for (size_t i = 0; i < n && !ret; i++) {
		t = v[i];
		if (t->batch_open)
			ret = rr_task_batch_close(b, t, NULL);
		while (!ret && t->ep) {
			t->ep->no_end = true;
			ret = pop(b, t, t->last_ts);
		}
		rr_task_put(b, t);
	}
	free(v);
	/* the inferred writes, now that their calls are all closed */
	if (!ret)
		ret = rr_proactive_expire(b, UINT64_MAX, -1);
	return ret;
}

/*
 * A closed episode (unlinked from its task) to the callback: its inferred
 * inputs first, its start state released after.  A memory.reclaim call
 * gives its batches to its write (marked or inferred, proactive.c).
 */
int rr_episode_hand_over(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *root = rr_episode_closing(b, ep);

	/* a plain memcg call: the start or the next call of an inferred write? */
	if (ep->kind == RR_KIND_MEMCG && ep->replayable && !ep->proactive && !ep->depth) {
		if (rr_proactive_call(b, ep)) {
			rr_episode_release(b, ep);
			return -1;
		}
		/* (a call of an inferred write: the write's root) */
		root = ep->root_memcg_id ? rr_state_find(&b->st, ep->root_memcg_id) : NULL;
	}
	return rr_episode_deliver(b, ep, root);
}
