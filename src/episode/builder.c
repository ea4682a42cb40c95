// SPDX-License-Identifier: GPL-2.0-only
/*
 * Episode builder.
 *
 * Per task (common_pid) it keeps the batch in flight: the last
 * mm_vmscan_lru_isolate, waiting for its memcg (the first negative
 * mod_memcg_lruvec_state of the isolated list, or the count_memcg_events
 * PGSCAN/PGREFILL that follows; §12.4, §13.3), its write-outs
 * (mm_vmscan_write_folio) and its closing lru_shrink_* event (priority,
 * outcome).  Batches feed the state's outcome statistics and cost notes
 * whether or not they belong to a memcg episode (kswapd, DAMON), because
 * lru_note_cost() reaches every ancestor whoever reclaims (§3.4).
 */
#include "builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRAIN_MAX 64

struct drain_delta {
	uint64_t id;
	int item;
	int64_t val;
};

struct task {
	int pid;
	/* this task's LRU deltas since its last vmscan event: the
	 * lru_add_drain() of the next batch (§12.4) */
	struct drain_delta drain[DRAIN_MAX];
	int nr_drain;
	bool drain_overflow;
	struct drain_delta batch_drain[DRAIN_MAX];	/* frozen at the isolate */
	int nr_batch_drain;
	uint64_t last_vmscan_ns;	/* the task's last vmscan event */
	uint64_t batch_prev_vmscan_ns;	/* ... before the batch in flight */
	struct rr_episode *ep;		/* open episode of this task */
	bool batch_open;		/* an isolate waits for its shrink event */
	bool awaiting_memcg;
	struct rr_rec_batch batch;	/* the batch in flight */
	size_t ep_index;		/* its index in ep->batches */
	uint64_t pageouts;
	uint64_t memcg_id;		/* from cgroup_attach_task */
	struct rr_request *rq;		/* innermost open request (report) */
	bool batch_mglru;		/* the batch in flight is an MGLRU one */
	bool batch_sum_valid;
	int64_t batch_sum;		/* its list's running sum when attributed */
	uint64_t last_ts;		/* the task's last event */
	UT_hash_handle hh;
};

/* A cgroup event held back until the memory hierarchy is known. */
struct held_event {
	struct rr_event ev;
	char *str;
};

struct rr_builder {
	struct rr_builder_opts opts;
	/* cgroup v1 puts every controller's hierarchy in the cgroup: events;
	 * until a memcg: event names an id of one of them, hold them back */
	struct held_event *held;
	size_t nr_held, cap_held;
	rr_episode_cb cb;
	void *ctx;
	struct rr_state st;
	struct task *tasks;
	uint64_t next_seq;
	bool anon_scanned_seen;
	uint64_t first_lost_ns;		/* the first record after lost events */
	int in_snapshot;		/* 1 start snapshot, 2 a later one */
	struct rr_builder_stats stats;
	rr_request_cb rq_cb;
	void *rq_ctx;
	uint64_t next_rq_seq;
	bool rq_oom;
};

static const char *const kind_names[RR_EP__COUNT] = {
	[RR_EP_MEMCG] = "memcg",
	[RR_EP_SOFTLIMIT] = "softlimit",
	[RR_EP_PROACTIVE] = "proactive",
	[RR_EP_DIRECT] = "direct",
};

const char *rr_episode_kind_name(enum rr_episode_kind kind)
{
	return kind < RR_EP__COUNT ? kind_names[kind] : "unknown";
}

static const char *const request_kind_names[RR_REQ__COUNT] = {
	[RR_REQ_MEMCG] = "memcg",
	[RR_REQ_SOFTLIMIT] = "softlimit",
	[RR_REQ_DIRECT] = "direct",
	[RR_REQ_KSWAPD] = "kswapd",
	[RR_REQ_NODE] = "node",
	[RR_REQ_PROACTIVE] = "proactive",
	[RR_REQ_UNKNOWN] = "unknown",
};

const char *rr_request_kind_name(enum rr_request_kind kind)
{
	return kind < RR_REQ__COUNT ? request_kind_names[kind] : "unknown";
}

void rr_builder_set_request_cb(struct rr_builder *b, rr_request_cb cb, void *ctx)
{
	b->rq_cb = cb;
	b->rq_ctx = ctx;
}

struct rr_builder *rr_builder_new(const struct rr_builder_opts *opts,
				  rr_episode_cb cb, void *ctx)
{
	struct rr_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->stats.swap_from_meta = -1;
	b->opts = *opts;
	b->cb = cb;
	b->ctx = ctx;
	rr_state_init(&b->st);
	return b;
}

static void episode_free(struct rr_episode *ep)
{
	if (!ep)
		return;
	free(ep->batches);
	free(ep->ctx);
	free(ep->snap);
	free(ep);
}

static void request_free(struct rr_request *rq)
{
	if (!rq)
		return;
	free(rq->batches);
	free(rq);
}

void rr_builder_free(struct rr_builder *b)
{
	struct task *t, *tmp;

	if (!b)
		return;
	HASH_ITER(hh, b->tasks, t, tmp) {
		HASH_DEL(b->tasks, t);
		while (t->rq) {
			struct rr_request *o = t->rq->outer;

			request_free(t->rq);
			t->rq = o;
		}
		episode_free(t->ep);
		free(t);
	}
	for (size_t i = 0; i < b->nr_held; i++)
		free(b->held[i].str);
	free(b->held);
	rr_state_free(&b->st);
	free(b);
}

struct rr_state *rr_builder_state(struct rr_builder *b)
{
	return &b->st;
}

const struct rr_builder_stats *rr_builder_stats(const struct rr_builder *b)
{
	return &b->stats;
}

static struct task *task_get(struct rr_builder *b, int pid)
{
	struct task *t;

	HASH_FIND_INT(b->tasks, &pid, t);
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	HASH_ADD_INT(b->tasks, pid, t);
	return t;
}

static int cmp_snap(const void *a, const void *b)
{
	const struct rr_snap_memcg *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static bool memcg_online_at(const struct rr_builder *b, const struct rr_memcg *m,
			    uint64_t ts, bool *in_window)
{
	if (m->online)
		return true;
	if (m->offline_seen_ns && ts >= m->offline_seen_ns)
		return false;
	/* offline only once the assumed rmdir -> offline delay has passed */
	if (ts < m->rmdir_ns + b->opts.offline_delay_ns) {
		*in_window = true;
		return true;
	}
	return false;
}

static void snap_fill(struct rr_builder *b, struct rr_episode *ep, struct rr_snap_memcg *s,
		      const struct rr_memcg *m)
{
		s->id = m->id;
		s->online = memcg_online_at(b, m, ep->start_ns, &ep->in_offline_window);
		s->swappiness = m->swappiness;
		for (int l = 0; l < 4; l++)
			s->lru_pages[l] = rr_memcg_lru_pages(m, l);
		rr_memcg_rstat_lru(m, s->rstat_lru_pages);
		s->anon_cost = m->anon_cost;
		s->file_cost = m->file_cost;
		memcpy(s->rstat_ws_activate, m->rstat_ws_activate, sizeof(s->rstat_ws_activate));
		memcpy(s->refault_snapshot, m->refault_snapshot, sizeof(s->refault_snapshot));
		s->refault_snapshot_valid = m->refault_snapshot_valid;
		memcpy(s->scanned, m->scanned, sizeof(s->scanned));
		memcpy(s->reclaimed, m->reclaimed, sizeof(s->reclaimed));
		memcpy(s->pageouts, m->pageouts, sizeof(s->pageouts));
		memcpy(s->requested, m->requested, sizeof(s->requested));
		memcpy(s->taken, m->taken, sizeof(s->taken));
}

static int snapshot(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *m, *tmp;
	size_t i = 0;

	ep->snap = calloc(b->st.nr_memcgs ? b->st.nr_memcgs : 1, sizeof(*ep->snap));
	if (!ep->snap)
		return -1;
	HASH_ITER(hh, b->st.by_id, m, tmp) {
		/* css_release_work_fn() ran: no longer in the memcg tree the
		 * walk sees (§12.3) */
		if (m->release_ns)
			continue;
		snap_fill(b, ep, &ep->snap[i++], m);
	}
	ep->nr_snap = i;
	qsort(ep->snap, ep->nr_snap, sizeof(*ep->snap), cmp_snap);
	return 0;
}



static const struct rr_snap_memcg *snap_find(const struct rr_episode *ep, uint64_t id)
{
	struct rr_snap_memcg key = { .id = id };

	return bsearch(&key, ep->snap, ep->nr_snap, sizeof(key), cmp_snap);
}

/*
 * Memcgs whose cgroup_mkdir was held back (v1: until a memcg: event named
 * the memory hierarchy) come into being after episodes that began later
 * than the mkdir: add them to those episodes' snapshots, as they were then
 * (nothing could change them in between: their first memcg: event is what
 * released the hold).
 */
static int snapshot_add_held(struct rr_builder *b)
{
	struct task *t, *tmp;

	HASH_ITER(hh, b->tasks, t, tmp) {
		struct rr_episode *ep = t->ep;
		struct rr_memcg *m, *mt;
		size_t n = 0;

		if (!ep)
			continue;
		HASH_ITER(hh, b->st.by_id, m, mt)
			if (m->created_ns && m->created_ns < ep->start_ns && !snap_find(ep, m->id))
				n++;
		if (!n)
			continue;
		{
			struct rr_snap_memcg *ns = realloc(ep->snap, (ep->nr_snap + n) * sizeof(*ns));

			if (!ns)
				return -1;
			ep->snap = ns;
		}
		n = ep->nr_snap;
		HASH_ITER(hh, b->st.by_id, m, mt)
			if (m->created_ns && m->created_ns < ep->start_ns && !snap_find(ep, m->id))
				snap_fill(b, ep, &ep->snap[n++], m);
		ep->nr_snap = n;
		qsort(ep->snap, ep->nr_snap, sizeof(*ep->snap), cmp_snap);
	}
	return 0;
}

static int episode_begin(struct rr_builder *b, struct task *t,
			 const struct rr_event *ev, enum rr_episode_kind kind)
{
	struct rr_episode *ep;

	if (t->ep) {	/* a begin without end: drop the unterminated one */
		b->stats.unterminated_episodes++;
		episode_free(t->ep);
		t->ep = NULL;
	}
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -1;
	ep->kind = kind;
	ep->pid = ev->pid;
	ep->start_ns = ev->ts_ns;
	ep->task_memcg_id = t->memcg_id;
	if (snapshot(b, ep)) {
		episode_free(ep);
		return -1;
	}
	/* another task reclaiming at the same time shares the walk cursor
	 * and the lists (§6.1): mark both episodes */
	{
		struct task *o, *tmp;

		HASH_ITER(hh, b->tasks, o, tmp) {
			if (o != t && o->ep) {
				o->ep->overlapped = true;
				ep->overlapped = true;
			}
		}
	}
	t->ep = ep;
	t->batch_open = false;
	t->awaiting_memcg = false;
	return 0;
}

static struct rr_rec_batch *ep_batch(struct task *t)
{
	if (!t->ep || t->ep_index >= t->ep->nr_batches)
		return NULL;
	return &t->ep->batches[t->ep_index];
}

/* ---- requests of every kind, for `report` ---- */

static struct rr_request *rq_push(struct rr_builder *b, struct task *t,
				  enum rr_request_kind kind, uint64_t ts_ns)
{
	struct rr_request *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	rq->seq = ++b->next_rq_seq;
	rq->kind = kind;
	rq->pid = t->pid;
	rq->start_ns = ts_ns;
	rq->outer = t->rq;
	rq->parent_seq = t->rq ? t->rq->seq : 0;
	rq->depth = t->rq ? t->rq->depth + 1 : 0;
	t->rq = rq;
	return rq;
}

/* A batch that took nothing has no shrink event: it ran at the priority of
 * the batch after it (or, at the end, of the one before). */
static void rq_fill_priorities(struct rr_request *rq)
{
	for (size_t i = rq->nr_batches; i-- > 1;)
		if (rq->batches[i - 1].priority < 0)
			rq->batches[i - 1].priority = rq->batches[i].priority;
	for (size_t i = 1; i < rq->nr_batches; i++)
		if (rq->batches[i].priority < 0)
			rq->batches[i].priority = rq->batches[i - 1].priority;
}

/* Close the innermost request of @t and hand it over. */
static int rq_pop(struct rr_builder *b, struct task *t, uint64_t end_ns)
{
	struct rr_request *rq = t->rq;
	int ret = 0;

	t->rq = rq->outer;
	rq->end_ns = end_ns > rq->start_ns ? end_ns : rq->start_ns;
	if (b->stats.mglru_from_meta && rq->nr_batches)
		rq->mglru = true;
	rq_fill_priorities(rq);
	b->stats.requests[rq->kind]++;
	ret = b->rq_cb(rq, &b->st, b->rq_ctx);
	request_free(rq);
	return ret;
}

static int rq_begin(struct rr_builder *b, struct task *t, enum rr_request_kind kind,
		    uint64_t ts_ns)
{
	int ret;

	if (!b->rq_cb)
		return 0;
	/* batches of a request that began before the trace started */
	if (t->rq && t->rq->kind == RR_REQ_UNKNOWN) {
		if (kind == RR_REQ_KSWAPD) {	/* only kswapd wakes in kswapd */
			t->rq->kind = RR_REQ_KSWAPD;
			t->rq->end_inferred = true;
		} else {
			t->rq->no_end = true;
		}
		if ((ret = rq_pop(b, t, t->last_ts)))
			return ret;
	}
	/*
	 * kswapd wakes again without a sleep event when its short sleep was
	 * cut short (kswapd_try_to_sleep()): the previous run ended before.
	 * For the other kinds a begin while one of the same kind is open means
	 * its end was not recorded (reclaim does not recurse: PF_MEMALLOC).
	 */
	for (struct rr_request *q = t->rq; q; q = q->outer) {
		if (q->kind != kind)
			continue;
		while (t->rq != q) {
			t->rq->no_end = true;
			if ((ret = rq_pop(b, t, t->last_ts)))
				return ret;
		}
		if (kind == RR_REQ_KSWAPD)
			q->end_inferred = true;
		else
			q->no_end = true;
		if ((ret = rq_pop(b, t, t->last_ts)))
			return ret;
		break;
	}
	return rq_push(b, t, kind, ts_ns) ? 0 : -1;
}

static int rq_end(struct rr_builder *b, struct task *t, enum rr_request_kind kind,
		  const struct rr_event *ev, bool has_nr_reclaimed)
{
	struct rr_request *q;
	int ret;

	if (!b->rq_cb)
		return 0;
	for (q = t->rq; q && q->kind != kind; q = q->outer)
		;
	if (!q) {
		/* an end without a begin: the trace started inside it */
		if (t->rq && t->rq->kind == RR_REQ_UNKNOWN) {
			q = t->rq;
			q->kind = kind;
		} else {
			q = rq_push(b, t, kind, ev->ts_ns);
			if (!q)
				return -1;
			q->no_begin = true;
		}
	}
	while (t->rq != q) {	/* inner requests whose end was lost */
		t->rq->no_end = true;
		if ((ret = rq_pop(b, t, t->last_ts)))
			return ret;
	}
	q->has_nr_reclaimed = has_nr_reclaimed;
	q->recorded_nr_reclaimed = ev->nr_reclaimed;
	return rq_pop(b, t, ev->ts_ns);
}

/* The batch in flight of @t is complete: add it to the task's request. */
static void rq_batch(struct rr_builder *b, struct task *t)
{
	struct rr_request *rq = t->rq;
	struct rr_req_batch *rb;

	if (!b->rq_cb || b->rq_oom)
		return;
	if (!rq) {
		rq = rq_push(b, t, RR_REQ_UNKNOWN, t->batch.ts_ns);
		if (!rq) {
			b->rq_oom = true;
			return;
		}
		rq->no_begin = true;
	}
	if (rq->nr_batches == rq->cap_batches) {
		size_t cap = rq->cap_batches ? rq->cap_batches * 2 : 16;
		struct rr_req_batch *nb = realloc(rq->batches, cap * sizeof(*nb));

		if (!nb) {
			b->rq_oom = true;
			return;
		}
		rq->batches = nb;
		rq->cap_batches = cap;
	}
	rb = &rq->batches[rq->nr_batches++];
	rb->memcg_id = t->batch.memcg_id;
	rb->lru = t->batch.lru;
	rb->priority = t->batch.priority;
	rb->ts_ns = t->batch.ts_ns;
	rb->nr_requested = t->batch.nr_requested;
	rb->nr_scanned = t->batch.nr_scanned;
	rb->nr_taken = t->batch.nr_taken;
	rb->nr_reclaimed = t->batch.nr_reclaimed;
	rb->nr_pageout = t->pageouts;
	if (t->batch_mglru)
		rq->mglru = true;
}

/*
 * No snapshot knows the start size of a memcg that predates the trace:
 * beyond the running sums, the batch itself bounds it.  get_scan_count()
 * asks for at most size >> priority pages of a list (§3.2, §13.1), and
 * nr_requested <= that target, so size >= nr_requested << priority at the
 * decision, whose running sum was at most the one at attribution (the
 * lru_add_drain() deltas in between only add).  Skipped where the rule
 * has exceptions: offline memcgs (the SWAP_CLUSTER_MAX scrape) and MGLRU.
 * memory.low/min protection (max(scan, SWAP_CLUSTER_MAX)) is not in the
 * trace; the bound assumes none.
 */
static void isolate_bound(struct rr_builder *b, struct task *t)
{
	struct rr_memcg *m = t->batch.memcg_id ? rr_state_find(&b->st, t->batch.memcg_id) : NULL;
	int p = t->batch.priority, l = t->batch.lru;
	int64_t need;

	if (!m || m->baseline_known || !t->batch_sum_valid || t->batch_mglru ||
	    p < 0 || p > 12 || !m->online || m->rmdir_ns || !t->batch.nr_requested ||
	    m->min_bytes > 0 || m->low_bytes > 0)
		return;
	need = (int64_t)(t->batch.nr_requested << p);
	if (t->batch_sum - need < m->lru_low[l]) {
		m->lru_low[l] = t->batch_sum - need;
		m->lru_from_isolate = true;
		b->stats.lru_isolate_bounds++;
	}
}

/* Close the batch in flight: statistics and cost notes. */
static void batch_close(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_rec_batch *eb = ep_batch(t);
	struct rr_memcg *m = t->batch.memcg_id ? rr_state_find(&b->st, t->batch.memcg_id) : NULL;
	int type = t->batch.lru >= 2;

	if (ev) {
		t->batch.priority = ev->priority;
		t->batch.has_shrink = true;
		if (ev->type == RR_EV_SHRINK_INACTIVE) {
			t->batch.nr_reclaimed = ev->nr_reclaimed;
			t->batch.nr_activate = ev->nr_activate;
		}
	}
	if (eb) {
		eb->priority = t->batch.priority;
		eb->has_shrink = t->batch.has_shrink;
		eb->nr_reclaimed = t->batch.nr_reclaimed;
		eb->nr_activate = t->batch.nr_activate;
		eb->nr_pageout = t->pageouts;
		eb->memcg_id = t->batch.memcg_id;
		/* earlier nr_taken == 0 batches had no priority of their own */
		if (eb->priority >= 0)
			for (size_t i = t->ep_index; i-- > 0 && t->ep->batches[i].priority < 0;)
				t->ep->batches[i].priority = eb->priority;
	}
	if (ev && m && ev->type == RR_EV_SHRINK_INACTIVE) {
		m->scanned[type] += ev->nr_scanned;
		m->reclaimed[type] += ev->nr_reclaimed;
		m->pageouts[type] += t->pageouts;
		m->requested[type] += t->batch.nr_requested;
		m->taken[type] += t->batch.nr_taken;
		b->st.global_scanned[type] += ev->nr_scanned;
		b->st.global_reclaimed[type] += ev->nr_reclaimed;
		/* lru_note_cost() from shrink_inactive_list() (§3.4) */
		if (b->st.cost_rotations_x32)
			rr_state_note_cost(&b->st, m, type, t->pageouts * 32 +
					   (ev->nr_scanned - ev->nr_reclaimed));
		else
			rr_state_note_cost(&b->st, m, type, t->pageouts);
	} else if (ev && m && ev->type == RR_EV_SHRINK_ACTIVE &&
		   b->st.cost_rotations_x32 && ev->nr_referenced) {
		rr_state_note_cost(&b->st, m, type, ev->nr_referenced);
	}
	if (!t->batch.memcg_id)
		b->stats.batches_unattributed++;
	isolate_bound(b, t);
	rq_batch(b, t);
	t->batch_open = false;
	t->awaiting_memcg = false;
	t->batch_sum_valid = false;
	t->pageouts = 0;
}

/* A vmscan event of the task: later LRU deltas of it belong to the next
 * batch's lru_add_drain(). */
static void drain_reset(struct task *t, uint64_t ts_ns)
{
	t->last_vmscan_ns = ts_ns;
	t->nr_drain = 0;
	t->drain_overflow = false;
}

static int on_isolate(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	if (t->batch_open)	/* nr_taken == 0 inactive batch: no shrink event */
		batch_close(b, t, NULL);
	memcpy(t->batch_drain, t->drain, (size_t)t->nr_drain * sizeof(t->drain[0]));
	t->nr_batch_drain = t->drain_overflow ? -1 : t->nr_drain;
	t->batch_prev_vmscan_ns = t->last_vmscan_ns;
	drain_reset(t, ev->ts_ns);
	b->stats.batches++;
	memset(&t->batch, 0, sizeof(t->batch));
	t->batch.lru = ev->lru;
	t->batch.priority = -1;
	t->batch.nr_requested = ev->nr_requested;
	t->batch.nr_scanned = ev->nr_scanned;
	t->batch.nr_taken = ev->nr_taken;
	t->batch.ts_ns = ev->ts_ns;
	/* classic reclaim asks for at most SWAP_CLUSTER_MAX pages a batch;
	 * MGLRU's scan_folios() reports MAX_LRU_BATCH (§11) */
	t->batch_mglru = ev->nr_requested > 32;
	if (t->batch_mglru) {
		b->stats.mglru_batches++;
		if (t->ep)
			t->ep->mglru = true;
	}
	t->batch_open = true;
	t->awaiting_memcg = true;
	t->pageouts = 0;
	if (ev->lru == 0 && ev->nr_taken > 0 && t->ep)
		b->anon_scanned_seen = true;
	if (t->ep) {
		struct rr_episode *ep = t->ep;

		if (ep->nr_batches == ep->cap_batches) {
			size_t cap = ep->cap_batches ? ep->cap_batches * 2 : 32;
			struct rr_rec_batch *nb = realloc(ep->batches, cap * sizeof(*nb));
			struct rr_batch_ctx *nc;

			if (!nb)
				return -1;
			ep->batches = nb;
			nc = realloc(ep->ctx, cap * sizeof(*nc));
			if (!nc)
				return -1;
			ep->ctx = nc;
			ep->cap_batches = cap;
		}
		t->ep_index = ep->nr_batches;
		ep->ctx[ep->nr_batches].valid = false;
		ep->batches[ep->nr_batches++] = t->batch;
	}
	return 0;
}

/* Capture the decision inputs of the batch in flight (see rr_batch_ctx). */
static void capture(struct rr_builder *b, struct task *t, uint64_t memcg_id)
{
	struct rr_batch_ctx *c;
	struct rr_memcg *m = rr_state_find(&b->st, memcg_id);
	bool window = false;
	int d = 0;

	if (!t->ep || t->ep_index >= t->ep->nr_batches || !m || t->nr_batch_drain < 0)
		return;
	c = &t->ep->ctx[t->ep_index];
	memset(c, 0, sizeof(*c));
	for (int l = 0; l < 4; l++) {
		int64_t v = (int64_t)rr_memcg_lru_pages(m, l);

		for (int i = 0; i < t->nr_batch_drain; i++)
			if (t->batch_drain[i].id == memcg_id && t->batch_drain[i].item == l)
				v -= t->batch_drain[i].val;
		c->lru_pages[l] = v > 0 ? (uint64_t)v : 0;
	}
	c->online = memcg_online_at(b, m, t->batch.ts_ns, &window);
	c->swappiness = m->swappiness;
	/* prepare_scan_control() read the rstat view before this task's last
	 * vmscan event; a flush since then came after the decision */
	for (struct rr_memcg *a = m; a && d < RR_CHAIN_MAX; a = a->parent, d++) {
		int64_t ws[2];

		c->chain[d].id = a->id;
		c->chain[d].anon_cost = a->anon_cost;
		c->chain[d].file_cost = a->file_cost;
		rr_memcg_rstat_at(a, t->batch_prev_vmscan_ns, c->chain[d].rstat_lru_pages, ws);
		for (int k = 0; k < 2; k++)
			c->chain[d].refaults_changed[k] = a->refault_snapshot_valid &&
				ws[k] != a->refault_snapshot[k];
	}
	c->depth = d;
	/* in the rmdir -> offline window the online state is a guess; the
	 * fidelity check tries both */
	c->in_window = window;
	c->valid = true;
}

static void attribute(struct rr_builder *b, struct task *t, uint64_t memcg_id)
{
	struct rr_rec_batch *eb = ep_batch(t);
	/* (created here if this is its first event, as rr_state_apply() would) */
	struct rr_memcg *m = rr_state_memcg(&b->st, memcg_id);

	/* the running sum before this batch's decrements (for the bound in
	 * isolate_bound()) */
	t->batch_sum_valid = m && t->batch.lru >= 0 && t->batch.lru < 4;
	if (t->batch_sum_valid)
		t->batch_sum = m->lru_sum[t->batch.lru];
	t->batch.memcg_id = memcg_id;
	t->awaiting_memcg = false;
	if (eb) {
		eb->memcg_id = memcg_id;
		capture(b, t, memcg_id);
	}
}

/* Lowest common ancestor of two memcgs; NULL if they share no tree. */
static struct rr_memcg *lca(struct rr_memcg *a, struct rr_memcg *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	for (struct rr_memcg *x = a; x; x = x->parent)
		if (rr_memcg_is_ancestor(x, b))
			return x;
	return NULL;
}

/*
 * nr_to_reclaim from the checkpoints (§8.2): every priority pass that was
 * followed by another says T > cumulative reclaim at its end; the last
 * pass, if reclaim stopped above priority 0 or reached >= 32, says
 * T <= total.  Take the smallest max(2^k, 32) inside the interval.
 */
/*
 * Inside one shrink_lruvec() call: every round that another round followed
 * without a cut says T > the call's own reclaim at that point (§8.2, third
 * checkpoint).  Only calls that scanned a single type are used: with both,
 * a cut (v6.1+) is followed by one more round although T was reached.
 */
static uint64_t call_round_bound(const struct rr_episode *ep, size_t i, size_t j)
{
	uint64_t local = 0, low = 0;
	bool anon = false, file = false;

	for (size_t k = i; k < j; k++) {
		anon |= ep->batches[k].lru < 2;
		file |= ep->batches[k].lru >= 2;
	}
	if (anon && file)
		return 0;
	for (size_t k = i; k < j; k++) {
		/* a new round starts when the list index does not grow */
		if (k > i && ep->batches[k].lru <= ep->batches[k - 1].lru && local > low)
			low = local;
		local += ep->batches[k].nr_reclaimed;
	}
	return low;
}

static void infer_nr_to_reclaim(struct rr_episode *ep, bool partial_walk)
{
	uint64_t low = 0, cum = 0, total = ep->recorded_nr_reclaimed;
	int prio = -1, last_prio = -1;
	bool upper = false;

	/* checkpoints inside calls, and (v6.11+) between the memcgs of a pass */
	for (size_t i = 0; i < ep->nr_batches;) {
		size_t j = i;
		uint64_t b;

		while (j < ep->nr_batches && ep->batches[j].memcg_id == ep->batches[i].memcg_id &&
		       ep->batches[j].priority == ep->batches[i].priority)
			j++;
		b = call_round_bound(ep, i, j);
		if (b > low)
			low = b;
		for (size_t k = i; k < j; k++)
			cum += ep->batches[k].nr_reclaimed;
		if (partial_walk && j < ep->nr_batches &&
		    ep->batches[j].priority == ep->batches[i].priority && cum > low)
			low = cum;	/* the walk went on to another memcg */
		i = j;
	}
	cum = 0;

	if (ep->kind == RR_EP_SOFTLIMIT) {
		ep->nr_to_reclaim_pages = 32;	/* mem_cgroup_shrink_node() */
		ep->nr_to_reclaim_basis = "v1-softlimit";
		return;
	}
	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_rec_batch *bt = &ep->batches[i];

		if (bt->priority < 0)
			continue;
		if (prio >= 0 && bt->priority != prio && cum > low)
			low = cum;	/* the pass at `prio` did not stop reclaim */
		prio = bt->priority;
		cum += bt->nr_reclaimed;
		last_prio = prio;
	}
	/* stopped above priority 0 with some reclaim: the goal was met */
	if (total > 0 && last_prio > 0)
		upper = true;
	ep->nr_to_reclaim_low = low;
	ep->nr_to_reclaim_high = upper ? total : 0;
	for (uint64_t c = 32; c <= (1ULL << 40); c *= 2) {
		if (c > low && (!upper || c <= total)) {
			ep->nr_to_reclaim_pages = c;
			ep->nr_to_reclaim_basis = upper ? "fit" : "lower-bound";
			return;
		}
	}
	ep->nr_to_reclaim_pages = 32;
	ep->nr_to_reclaim_basis = "none";
}

static int episode_end(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_episode *ep = t->ep;
	struct rr_memcg *root = NULL;
	int ret;

	if (!ep)
		return 0;	/* end without begin: recording started mid-episode */
	if (t->batch_open)
		batch_close(b, t, NULL);
	t->ep = NULL;
	ep->end_ns = ev->ts_ns;
	ep->recorded_nr_reclaimed = ev->nr_reclaimed;
	ep->first_lost_ns = b->first_lost_ns;
	ep->seq = ++b->next_seq;
	b->stats.episodes[ep->kind]++;

	/* fill priorities still unknown from the previous batch */
	for (size_t i = 1; i < ep->nr_batches; i++)
		if (ep->batches[i].priority < 0)
			ep->batches[i].priority = ep->batches[i - 1].priority;

	/* reclaim root: LCA of the scanned memcgs and the task's memcg */
	if (ep->task_memcg_id)
		root = rr_state_find(&b->st, ep->task_memcg_id);
	for (size_t i = 0; i < ep->nr_batches; i++) {
		struct rr_memcg *m;

		if (!ep->batches[i].memcg_id)
			continue;
		m = rr_state_find(&b->st, ep->batches[i].memcg_id);
		if (m)
			root = root ? lca(root, m) : m;
	}
	/*
	 * A charge hits the limit of the memcg or of an ancestor, and that one
	 * is the reclaim root: when the snapshot knows the limits, climb from
	 * the LCA to the nearest memcg with one (the task's own memcg may be
	 * unknown: a forked child has no cgroup_attach_task event).
	 */
	if (root && ep->kind == RR_EP_MEMCG && b->stats.snapshot_memcgs) {
		struct rr_memcg *a = root;

		while (a && a->limit_bytes <= 0 && a->parent)
			a = a->parent;
		if (a && a->limit_bytes > 0)
			root = a;
	}
	if (ep->kind == RR_EP_SOFTLIMIT && ep->nr_batches && ep->batches[0].memcg_id)
		root = rr_state_find(&b->st, ep->batches[0].memcg_id);
	ep->root_memcg_id = root ? root->id : 0;
	ep->root_path = root ? root->path : NULL;
	ep->swap_inferred_present = b->opts.swap_present >= 0 ? b->opts.swap_present :
				    b->stats.swap_from_meta >= 0 ? b->stats.swap_from_meta :
				    b->anon_scanned_seen;
	infer_nr_to_reclaim(ep, b->opts.partial_walk);
	if (b->stats.mglru_from_meta)
		ep->mglru = true;

	ret = b->cb(ep, &b->st, b->ctx);

	/* snapshot_refaults() at the end of do_try_to_free_pages() (§4) */
	if (root && ep->kind == RR_EP_MEMCG) {
		memcpy(root->refault_snapshot, root->rstat_ws_activate,
		       sizeof(root->refault_snapshot));
		root->refault_snapshot_valid = true;
	}
	episode_free(ep);
	return ret;
}

static bool is_cgroup_event(enum rr_event_type type)
{
	return type == RR_EV_CGROUP_MKDIR || type == RR_EV_CGROUP_RMDIR ||
	       type == RR_EV_CGROUP_RELEASE || type == RR_EV_ATTACH;
}

static int hold(struct rr_builder *b, const struct rr_event *ev)
{
	struct held_event *h;

	if (b->nr_held == b->cap_held) {
		size_t cap = b->cap_held ? b->cap_held * 2 : 64;

		h = realloc(b->held, cap * sizeof(*h));
		if (!h)
			return -1;
		b->held = h;
		b->cap_held = cap;
	}
	h = &b->held[b->nr_held];
	h->ev = *ev;
	h->str = ev->str ? strndup(ev->str, (size_t)ev->str_len) : NULL;
	if (ev->str && !h->str)
		return -1;
	h->ev.str = h->str;
	b->nr_held++;
	return 0;
}

static int feed(struct rr_builder *b, const struct rr_event *ev);
static int feed_held(struct rr_builder *b, const struct rr_event *ev);
static int replay_held(struct rr_builder *b, int root);

/* value of "key=" in a marker line, up to the next space ("path=" takes
 * the rest of the line); NULL if absent */
static const char *marker_val(const char *s, int len, const char *key, char *buf, size_t bufsz)
{
	size_t klen = strlen(key);

	for (int i = 0; i + (int)klen < len; i++) {
		if ((i && s[i - 1] != ' ') || strncmp(s + i, key, klen) || s[i + klen] != '=')
			continue;
		int j = i + (int)klen + 1, n = 0;
		bool rest = !strcmp(key, "path");

		while (j < len && (rest || s[j] != ' ') && (size_t)n < bufsz - 1)
			buf[n++] = s[j++];
		buf[n] = 0;
		return buf;
	}
	return NULL;
}

static long long marker_ll(const char *s, int len, const char *key, long long def)
{
	char buf[64];

	return marker_val(s, len, key, buf, sizeof(buf)) ? strtoll(buf, NULL, 10) : def;
}

/*
 * Lines of `reclaim-replay record` (prefix "reclaim-replay: "): meta,
 * items, snapshot begin/end, and one "memcg" line per cgroup of a
 * snapshot.  The start snapshot gives every memcg that predates the trace
 * its exact baseline (§13.5) and its v1 swappiness; later snapshots only
 * update the swappiness.  Unknown lines are ignored.
 */
static int on_marker(struct rr_builder *b, const struct rr_event *ev)
{
	static const char prefix[] = "reclaim-replay: ";
	const char *s = ev->str;
	int len = ev->str_len;
	char buf[4096];

	if (!s || len < (int)sizeof(prefix) || strncmp(s, prefix, sizeof(prefix) - 1))
		return 0;
	s += sizeof(prefix) - 1;
	len -= (int)sizeof(prefix) - 1;
	if (len > 5 && !strncmp(s, "meta ", 5)) {
		long long swap = marker_ll(s, len, "swap_total_kb", -1);
		long long hier = marker_ll(s, len, "memory_hierarchy_id", -1);
		long long sw = marker_ll(s, len, "vm_swappiness", -1);

		b->stats.meta_seen = true;
		if (swap >= 0)
			b->stats.swap_from_meta = swap > 0;
		if (sw >= 0 && sw <= 200)
			b->st.default_swappiness = (int)sw;
		if (marker_val(s, len, "kernel_release", buf, sizeof(buf)))
			snprintf(b->stats.kernel_release, sizeof(b->stats.kernel_release), "%.63s", buf);
		/* /sys/kernel/mm/lru_gen/enabled: "absent", or a mask, 0x0000 off */
		if (marker_val(s, len, "mglru", buf, sizeof(buf)) && strcmp(buf, "absent") &&
		    strcmp(buf, "unknown") && strtoul(buf, NULL, 0) != 0)
			b->stats.mglru_from_meta = true;
		/* the memory hierarchy is known: replay what was held */
		if (hier >= 0 && b->st.memory_root < 0)
			return replay_held(b, (int)hier);
	} else if (len > 6 && !strncmp(s, "items ", 6)) {
		long long v;

		if ((v = marker_ll(s, len, "workingset_activate_anon", -1)) >= 0)
			b->st.items.workingset_activate[0] = (int)v;
		if ((v = marker_ll(s, len, "workingset_activate_file", -1)) >= 0)
			b->st.items.workingset_activate[1] = (int)v;
		if ((v = marker_ll(s, len, "workingset_restore_anon", -1)) >= 0)
			b->st.items.workingset_restore[0] = (int)v;
		if ((v = marker_ll(s, len, "workingset_restore_file", -1)) >= 0)
			b->st.items.workingset_restore[1] = (int)v;
		b->st.items.from_trace = true;
	} else if (len > 16 && !strncmp(s, "proactive begin ", 16)) {
		struct task *t = task_get(b, ev->pid);

		if (!t || rq_begin(b, t, RR_REQ_PROACTIVE, ev->ts_ns))
			return -1;
		if (t->rq && t->rq->kind == RR_REQ_PROACTIVE)
			t->rq->proactive_bytes = (uint64_t)marker_ll(s, len, "bytes", 0);
	} else if (len > 13 && !strncmp(s, "proactive end", 13)) {
		struct task *t = task_get(b, ev->pid);

		if (!t)
			return -1;
		t->last_ts = ev->ts_ns;
		return rq_end(b, t, RR_REQ_PROACTIVE, ev, false);
	} else if (len > 15 && !strncmp(s, "snapshot begin ", 15)) {
		b->in_snapshot = marker_val(s, len, "when", buf, sizeof(buf)) &&
				 !strcmp(buf, "start") ? 1 : 2;
	} else if (len > 12 && !strncmp(s, "snapshot end", 12)) {
		b->in_snapshot = 0;
	} else if (len > 6 && !strncmp(s, "memcg ", 6) && b->in_snapshot) {
		long long id = marker_ll(s, len, "id", -1), sw = marker_ll(s, len, "swappiness", -1);
		struct rr_memcg *m;

		if (id <= 0)
			return 0;
		m = rr_state_memcg(&b->st, (uint64_t)id);
		if (!m)
			return -1;
		if (sw >= 0 && sw <= 200)
			m->swappiness = (int)sw;
		m->limit_bytes = marker_ll(s, len, "limit_bytes", 0);
		m->min_bytes = marker_ll(s, len, "min_bytes", -1);
		m->low_bytes = marker_ll(s, len, "low_bytes", -1);
		m->snapshotted = true;
		if (m->limit_bytes > (1LL << 60))
			m->limit_bytes = -1;	/* v1 "unlimited" is a huge number */
		if (b->in_snapshot != 1)
			return 0;
		b->stats.snapshot_memcgs++;
		if (!m->named && marker_val(s, len, "path", buf, sizeof(buf)) &&
		    rr_state_name(&b->st, m, buf))
			return -1;
		if (!m->baseline_known) {
			for (int l = 0; l < 5; l++) {
				m->lru_sum[l] = marker_ll(s, len, rr_lru_names[l], 0);
				m->lru_low[l] = 0;
			}
			m->baseline_known = true;
		}
	}
	return 0;
}

/*
 * The memory hierarchy is the one whose cgroup ids the memcg: events use
 * (kernel-reclaim-model.md §12.3: on v1 every hierarchy emits cgroup:
 * events).  Decide it at the first memcg: id that belongs to exactly one
 * held hierarchy, then replay that hierarchy's held events in order.
 */
static int resolve_memory_root(struct rr_builder *b, uint64_t id)
{
	int root = -1;

	for (size_t i = 0; i < b->nr_held; i++) {
		if (b->held[i].ev.id != id)
			continue;
		if (root >= 0 && root != b->held[i].ev.cgroup_root)
			return 0;	/* ambiguous: wait for another id */
		root = b->held[i].ev.cgroup_root;
	}
	if (root < 0)
		return 0;
	return replay_held(b, root);
}

/* The memory hierarchy is @root: feed its held cgroup events, drop the rest. */
static int replay_held(struct rr_builder *b, int root)
{
	b->st.memory_root = root;
	for (size_t i = 0; i < b->nr_held; i++) {
		int ret = 0;

		if (b->held[i].ev.cgroup_root == root)
			ret = feed(b, &b->held[i].ev);
		free(b->held[i].str);
		b->held[i].str = NULL;
		if (ret)
			return ret;
	}
	free(b->held);
	b->held = NULL;
	b->nr_held = b->cap_held = 0;
	return snapshot_add_held(b);
}

int rr_builder_feed(struct rr_builder *b, const struct rr_event *ev)
{
	int ret;

	b->stats.events++;
	if (ev->lost_before && !b->first_lost_ns)
		b->first_lost_ns = ev->ts_ns ? ev->ts_ns : 1;
	if (ev->lost_before) {	/* every request open across the gap */
		struct task *t, *tmp;

		HASH_ITER(hh, b->tasks, t, tmp)
			for (struct rr_request *q = t->rq; q; q = q->outer)
				q->lost_events = true;
	}
	ret = feed_held(b, ev);
	if (!ret && b->rq_oom)
		ret = -1;
	return ret;
}

static int feed_held(struct rr_builder *b, const struct rr_event *ev)
{
	if (b->st.memory_root < 0) {
		if (is_cgroup_event(ev->type))
			return hold(b, ev);
		if ((ev->type == RR_EV_MOD_LRUVEC || ev->type == RR_EV_COUNT_EVENTS ||
		     ev->type == RR_EV_FLUSH) && b->nr_held) {
			int ret = resolve_memory_root(b, ev->id);

			if (ret)
				return ret;
		}
	}
	return feed(b, ev);
}

static int feed(struct rr_builder *b, const struct rr_event *ev)
{
	struct task *t;

	switch (ev->type) {
	case RR_EV_CGROUP_MKDIR:
	case RR_EV_CGROUP_RMDIR:
	case RR_EV_CGROUP_RELEASE:
	case RR_EV_FLUSH:
		return rr_state_apply(&b->st, ev);
	case RR_EV_MARKER:
		b->stats.markers++;
		return on_marker(b, ev);
	default:
		break;
	}
	t = task_get(b, ev->pid);
	if (!t)
		return -1;
	t->last_ts = ev->ts_ns;
	switch (ev->type) {
	case RR_EV_DIRECT_BEGIN:
		b->stats.other_reclaim[0]++;
		return rq_begin(b, t, RR_REQ_DIRECT, ev->ts_ns);
	case RR_EV_KSWAPD_WAKE:
		b->stats.other_reclaim[1]++;
		return rq_begin(b, t, RR_REQ_KSWAPD, ev->ts_ns);
	case RR_EV_NODE_RECLAIM_BEGIN:
		b->stats.other_reclaim[2]++;
		return rq_begin(b, t, RR_REQ_NODE, ev->ts_ns);
	case RR_EV_DIRECT_END:
		return rq_end(b, t, RR_REQ_DIRECT, ev, true);
	case RR_EV_KSWAPD_SLEEP:
		return rq_end(b, t, RR_REQ_KSWAPD, ev, false);
	case RR_EV_NODE_RECLAIM_END:
		return rq_end(b, t, RR_REQ_NODE, ev, true);
	case RR_EV_ATTACH: {
		/* the moved task, not the writer of cgroup.procs */
		struct task *moved;

		if (ev->cgroup_root != b->st.memory_root)
			return 0;
		moved = task_get(b, ev->attach_pid);
		if (!moved)
			return -1;
		moved->memcg_id = ev->id;
		return 0;
	}
	case RR_EV_MEMCG_RECLAIM_BEGIN:
		drain_reset(t, ev->ts_ns);
		if (rq_begin(b, t, RR_REQ_MEMCG, ev->ts_ns))
			return -1;
		return episode_begin(b, t, ev, RR_EP_MEMCG);
	case RR_EV_SOFTLIMIT_BEGIN:
		drain_reset(t, ev->ts_ns);
		if (rq_begin(b, t, RR_REQ_SOFTLIMIT, ev->ts_ns))
			return -1;
		return episode_begin(b, t, ev, RR_EP_SOFTLIMIT);
	case RR_EV_MEMCG_RECLAIM_END:
	case RR_EV_SOFTLIMIT_END: {
		/* the episode first: its batch in flight closes into the request */
		int ret = episode_end(b, t, ev);

		if (!ret && t->batch_open)
			batch_close(b, t, NULL);
		if (!ret)
			ret = rq_end(b, t, ev->type == RR_EV_MEMCG_RECLAIM_END ?
				     RR_REQ_MEMCG : RR_REQ_SOFTLIMIT, ev, true);
		return ret;
	}
	case RR_EV_LRU_ISOLATE:
		return on_isolate(b, t, ev);
	case RR_EV_MOD_LRUVEC:
		if (t->awaiting_memcg && ev->val < 0 && ev->item == t->batch.lru) {
			attribute(b, t, ev->id);
		} else if (ev->item >= 0 && ev->item < 4 && !t->batch_open) {
			if (t->nr_drain < DRAIN_MAX)
				t->drain[t->nr_drain++] = (struct drain_delta){
					.id = ev->id, .item = ev->item, .val = ev->val };
			else
				t->drain_overflow = true;
		}
		return rr_state_apply(&b->st, ev);
	case RR_EV_COUNT_EVENTS:
		if (t->awaiting_memcg) {
			attribute(b, t, ev->id);
			/* nothing taken: no shrink event will close it (§12.4) */
			if (!t->batch.nr_taken && t->batch_open)
				batch_close(b, t, NULL);
		}
		return 0;
	case RR_EV_WRITE_FOLIO:
		if (t->batch_open)
			t->pageouts++;
		return 0;
	case RR_EV_SHRINK_INACTIVE:
	case RR_EV_SHRINK_ACTIVE:
		if (t->batch_open) {
			batch_close(b, t, ev);
		} else if (ev->type == RR_EV_SHRINK_INACTIVE || ev->nr_taken) {
			/* the outcome of a batch whose isolate event is missing
			 * (an inactive batch that took nothing has no shrink
			 * event; an active one always has): as if events were lost */
			b->stats.shrink_without_isolate++;
			for (struct rr_request *q = t->rq; q; q = q->outer)
				q->lost_events = true;
		}
		drain_reset(t, ev->ts_ns);
		return 0;
	case RR_EV_SLAB_START:
		drain_reset(t, ev->ts_ns);
		if (t->ep && t->ep->nr_batches) {
			for (size_t i = t->ep->nr_batches; i-- > 0 &&
			     t->ep->batches[i].priority < 0;)
				t->ep->batches[i].priority = ev->priority;
		}
		if (t->batch_open && t->batch.priority < 0)
			t->batch.priority = ev->priority;
		return 0;
	default:
		return 0;
	}
}

int rr_builder_finish(struct rr_builder *b)
{
	struct task *t, *tmp;
	int n = 0;

	HASH_ITER(hh, b->tasks, t, tmp) {
		if (t->ep) {
			episode_free(t->ep);
			t->ep = NULL;
			n++;
		}
		if (t->batch_open)
			batch_close(b, t, NULL);
		while (b->rq_cb && t->rq) {
			t->rq->no_end = true;
			if (rq_pop(b, t, t->last_ts))
				return -1;
		}
	}
	b->stats.unterminated_episodes += (uint64_t)n;
	if (b->rq_oom || (b->rq_cb && b->rq_cb(NULL, &b->st, b->rq_ctx)))
		return -1;
	return n;
}

/* ---- simulator input ---- */

struct walk_ctx {
	const struct rr_episode *ep;
	struct rr_sim_memcg *out;
	size_t n, cap;
};

static int preorder(struct walk_ctx *w, const struct rr_memcg *m, int parent)
{
	const struct rr_snap_memcg *s = snap_find(w->ep, m->id);
	int me;

	if (!s)
		return 0;	/* created after the episode started */
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct rr_sim_memcg *o = realloc(w->out, cap * sizeof(*o));

		if (!o)
			return -1;
		w->out = o;
		w->cap = cap;
	}
	me = (int)w->n++;
	struct rr_sim_memcg *sm = &w->out[me];

	memset(sm, 0, sizeof(*sm));
	sm->id = m->id;
	sm->parent = parent;
	sm->online = s->online;
	sm->swappiness = s->swappiness;
	memcpy(sm->lru_pages, s->lru_pages, sizeof(sm->lru_pages));
	memcpy(sm->rstat_lru_pages, s->rstat_lru_pages, sizeof(sm->rstat_lru_pages));
	/* outcome model: this episode's own recorded batches of the memcg,
	 * else the memcg's history, else left at "no data" (ratio 1) */
	for (int type = 0; type < 2; type++) {
		uint64_t sc = 0, rc = 0, rq = 0, tk = 0;

		for (size_t i = 0; i < w->ep->nr_batches; i++) {
			const struct rr_rec_batch *bt = &w->ep->batches[i];

			if (bt->memcg_id != m->id || (bt->lru >= 2) != type || (bt->lru & 1))
				continue;
			rq += bt->nr_requested;
			tk += bt->nr_taken;
			if (bt->has_shrink) {
				sc += bt->nr_taken;
				rc += bt->nr_reclaimed;
			}
		}
		if (!sc) {
			sc = s->scanned[type];
			rc = s->reclaimed[type];
		}
		if (!rq) {
			rq = s->requested[type];
			tk = s->taken[type];
		}
		sm->ratio_num[type] = rc;
		sm->ratio_den[type] = sc;
		sm->taken_num[type] = tk;
		sm->taken_den[type] = rq;
		sm->pageout_num[type] = s->pageouts[type];
		sm->pageout_den[type] = s->scanned[type];
	}
	for (int i = 0; i < m->nr_children; i++)
		if (preorder(w, m->children[i], me))
			return -1;
	return 0;
}

int rr_episode_sim_input(const struct rr_episode *ep, const struct rr_state *st,
			 const struct rr_kernel_model *km, unsigned int page_shift,
			 struct rr_sim_input *in, struct rr_error *err)
{
	/* (in->outcomes is set below; the caller frees it with in->memcgs) */
	const struct rr_memcg *root = ep->root_memcg_id ?
				      rr_state_find(st, ep->root_memcg_id) : NULL;
	const struct rr_snap_memcg *rs;
	struct walk_ctx w = { .ep = ep };

	memset(in, 0, sizeof(*in));
	if (!root || !(rs = snap_find(ep, root->id))) {
		rr_error_set(err, "", "episode %llu: reclaim root unknown",
			     (unsigned long long)ep->seq);
		return -1;
	}
	if (preorder(&w, root, -1)) {
		free(w.out);
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	/* each memcg's recorded inactive batches, in order, for the outcome
	 * model, and the sizes at each recorded call's start */
	in->outcomes = calloc(ep->nr_batches + 1, sizeof(*in->outcomes));
	in->boundaries = calloc(ep->nr_batches + 1, sizeof(*in->boundaries));
	if (!in->outcomes || !in->boundaries) {
		free(w.out);
		free(in->outcomes);
		free(in->boundaries);
		in->outcomes = NULL;
		in->boundaries = NULL;
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	{
		size_t nb = 0;

		for (size_t k = 0; k < w.n; k++) {
			uint64_t removed[4] = { 0, 0, 0, 0 };
			int last_prio = 99;

			w.out[k].boundaries = &in->boundaries[nb];
			for (size_t i = 0; i < ep->nr_batches; i++) {
				const struct rr_rec_batch *bt = &ep->batches[i];

				if (bt->memcg_id != w.out[k].id)
					continue;
				if (bt->priority != last_prio && bt->priority >= 0 && ep->ctx &&
				    ep->ctx[i].valid && bt->priority < last_prio) {
					struct rr_sim_boundary *bd = &in->boundaries[nb++];

					bd->priority = bt->priority;
					memcpy(bd->lru_pages, ep->ctx[i].lru_pages, sizeof(bd->lru_pages));
					memcpy(bd->removed_before, removed, sizeof(removed));
					w.out[k].nr_boundaries++;
				}
				if (bt->priority >= 0)
					last_prio = bt->priority;
				if (bt->lru < 4 && !(bt->lru & 1)) {
					removed[bt->lru] += bt->nr_reclaimed + bt->nr_activate;
					if (bt->nr_activate)
						removed[bt->lru + 1] -= bt->nr_activate;
				}
			}
		}
	}
	{
		size_t n = 0;

		for (size_t k = 0; k < w.n; k++) {
			w.out[k].recorded = &in->outcomes[n];
			for (size_t i = 0; i < ep->nr_batches; i++) {
				const struct rr_rec_batch *bt = &ep->batches[i];

				if (bt->memcg_id != w.out[k].id || (bt->lru & 1) || bt->lru > 2)
					continue;
				in->outcomes[n++] = (struct rr_sim_outcome){
					.lru = bt->lru, .nr_requested = bt->nr_requested,
					.nr_taken = bt->nr_taken, .nr_reclaimed = bt->nr_reclaimed,
					.nr_activate = bt->nr_activate,
					.nr_pageout = bt->nr_pageout,
				};
				w.out[k].nr_recorded++;
			}
		}
	}
	in->km = km;
	in->kind = ep->kind == RR_EP_SOFTLIMIT ? RR_SIM_SOFTLIMIT : RR_SIM_MEMCG;
	in->nr_pages = ep->nr_to_reclaim_pages;
	in->memcgs = w.out;
	in->nr_memcgs = w.n;
	in->page_shift = page_shift;
	in->may_swap = true;
	in->swap_present = ep->swap_inferred_present;
	in->anon_cost = rs->anon_cost;
	in->file_cost = rs->file_cost;
	memcpy(in->root_rstat_lru_pages, rs->rstat_lru_pages, sizeof(rs->rstat_lru_pages));
	for (int t = 0; t < 2; t++)
		in->refaults_changed[t] = rs->refault_snapshot_valid &&
			rs->rstat_ws_activate[t] != rs->refault_snapshot[t];
	in->cursor = -1;
	return 0;
}
