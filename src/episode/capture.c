// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision inputs of a batch, captured when it is attributed to its
 * memcg (struct rr_batch_ctx, struct rr_silent_ctx): the memcg's sizes
 * before its task's lru_add_drain() deltas, what other tasks changed in
 * its lists meanwhile (a ring of the latest deltas), its ancestors' cost
 * pairs and rstat views (and the root's cost pair as it changed, a ring),
 * and the memcgs the walk visited without a batch since the call before.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

/* @m's exact list sizes, in pages, before the lru_add_drain() deltas of
 * the batch in flight's task (the kernel's decision came before them). */
static void sizes_before_drain(const struct task *t, const struct rr_memcg *m,
			       uint64_t out[RR_NR_EVICTABLE_LRU])
{
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
		int64_t v = (int64_t)rr_memcg_lru_pages(m, l);

		for (int i = 0; i < t->nr_batch_drain; i++)
			if (t->batch_drain[i].id == m->id && t->batch_drain[i].item == l)
				v -= t->batch_drain[i].val;
		out[l] = v > 0 ? (uint64_t)v : 0;
	}
}

void rr_root_cost_note(struct rr_builder *b, uint64_t ts_ns)
{
	const struct rr_memcg *r = b->root_memcg;
	unsigned int h = b->root_costs_head;

	if (!r && !(r = b->root_memcg = rr_state_find(&b->st, RR_ROOT_MEMCG_ID)))
		return;
	if (b->nr_root_costs && b->root_costs[h].anon == r->v.anon_cost &&
	    b->root_costs[h].file == r->v.file_cost)
		return;
	h = b->root_costs_head = (h + 1) & (RR_ROOT_COSTS - 1);
	b->root_costs[h].ts_ns = ts_ns;
	b->root_costs[h].anon = r->v.anon_cost;
	b->root_costs[h].file = r->v.file_cost;
	if (b->nr_root_costs < RR_ROOT_COSTS)
		b->nr_root_costs++;
}

/* The root's cost pair over (@since_ns, now]: its least and largest anon
 * and file costs; false when the ring does not reach back that far. */
static bool root_cost_range(const struct rr_builder *b, uint64_t since_ns, uint64_t lo[2],
			    uint64_t hi[2])
{
	unsigned int i = b->root_costs_head;

	if (!b->nr_root_costs)
		return false;
	lo[0] = hi[0] = b->root_costs[i].anon;
	lo[1] = hi[1] = b->root_costs[i].file;
	for (unsigned int n = 0; n < b->nr_root_costs; n++, i = (i - 1) & (RR_ROOT_COSTS - 1)) {
		const uint64_t v[2] = { b->root_costs[i].anon, b->root_costs[i].file };

		for (int t = 0; t < 2; t++) {
			if (v[t] < lo[t])
				lo[t] = v[t];
			if (v[t] > hi[t])
				hi[t] = v[t];
		}
		if (b->root_costs[i].ts_ns <= since_ns)
			return true;	/* (the pair at since_ns) */
	}
	return b->nr_root_costs < RR_ROOT_COSTS;	/* (the ring holds all of it) */
}

void rr_recent_delta(struct rr_builder *b, const struct rr_event *ev)
{
	struct recent_delta *d;

	if (!rr_lru_is_evictable(ev->item))
		return;
	b->recent_head = (b->recent_head + 1) & (RR_RECENT_DELTAS - 1);
	d = &b->recent[b->recent_head];
	*d = (struct recent_delta){ ev->ts_ns, ev->id, ev->val, ev->pid, ev->item };
	if (b->nr_recent < RR_RECENT_DELTAS)
		b->nr_recent++;
}

/*
 * What other tasks changed in @m's lists after @since_ns (the task's
 * previous vmscan event, before its decision): walking the deltas back
 * from now, the range of each list's size then relative to now.
 */
static void concurrent_range(const struct rr_builder *b, const struct task *t,
			     const struct rr_memcg *m, uint64_t since_ns, struct rr_batch_ctx *c)
{
	int64_t off[RR_NR_EVICTABLE_LRU] = { 0 };
	unsigned int i = b->recent_head, n;

	for (n = 0; n < b->nr_recent; n++, i = (i - 1) & (RR_RECENT_DELTAS - 1)) {
		const struct recent_delta *d = &b->recent[i];

		if (d->ts_ns <= since_ns)
			return;
		if (d->memcg_id != m->id || d->pid == t->pid)
			continue;
		/* the size before this delta, relative to now */
		off[d->lru] -= d->val;
		if (off[d->lru] < c->conc_min[d->lru])
			c->conc_min[d->lru] = off[d->lru];
		if (off[d->lru] > c->conc_max[d->lru])
			c->conc_max[d->lru] = off[d->lru];
	}
	/* the ring ends before @since_ns (or the trace does): not known */
	c->conc_unknown = n == RR_RECENT_DELTAS;
}

/* Entry @d of @c's ancestor chain: what prepare_scan_control() would
 * read if @a were the reclaim root.  @lru_most: the most LRU pages a
 * memcg can hold (the node's managed pages; RR_COST_UNBOUNDED_PAGES where
 * no snapshot or zoneinfo copy gives them). */
static void chain_entry(const struct task *t, struct rr_batch_ctx *c, int d,
			const struct rr_memcg *a, uint64_t lru_most)
{
	int64_t ws[RR_NR_LRU_TYPES];

	c->chain[d].id = a->id;
	c->chain[d].anon_cost = a->v.anon_cost;
	c->chain[d].file_cost = a->v.file_cost;
	if (c->flush_unknown && !c->hier_missing) {
		rr_memcg_hier_lru(a, 0, c->chain[d].hier_lru_pages);
		c->chain[d].anon_cost_fresh = a->v.anon_cost_fresh;
		c->chain[d].file_cost_fresh = a->v.file_cost_fresh;
	}
	/* prepare_scan_control() read the rstat view before this task's last
	 * vmscan event; a flush since then came after the decision */
	rr_memcg_rstat_at(a, t->batch_prev_vmscan_ns, c->chain[d].rstat_lru_pages, ws);
	for (int k = 0; k < RR_NR_LRU_TYPES; k++)
		c->chain[d].refaults_changed[k] = a->v.refault_snapshot_valid &&
			ws[k] != a->v.refault_snapshot[k];
	/* (a memcg made in the trace starts with zero counts and snapshot) */
	/* (the trace counts WORKINGSET_ACTIVATE from its start: a snapshot
	 * of a view from before its first flush and a view after it do not
	 * compare; two views of before are the same view) */
	c->chain[d].refault_known = a->created_ns ||
		(a->v.refault_snapshot_valid &&
		 (a->v.refault_snapshot_flush_ns ||
		  !rr_memcg_view_flush_ns(a, t->batch_prev_vmscan_ns)));
	c->chain[d].cost_unknown = 0;
	c->chain[d].sizes_lower_bound = !a->v.baseline_known;
	if (!a->created_ns) {
		uint64_t all = c->chain[d].rstat_lru_pages[0] + c->chain[d].rstat_lru_pages[1] +
			       c->chain[d].rstat_lru_pages[2] + c->chain[d].rstat_lru_pages[3];

		/* sizes the trace does not fix are lower bounds: the quarter
		 * is of what the memcg can have held */
		if (!a->v.baseline_known && lru_most > all)
			all = lru_most;
		c->chain[d].cost_unknown = a->v.cost_halvings >= 63 ? 0 :
					   (all / 4) >> a->v.cost_halvings;
	}
	c->chain[d].cost_uncertain[0] = a->v.cost_uncertain[0];
	c->chain[d].cost_uncertain[1] = a->v.cost_uncertain[1];
	c->chain[d].cost_pre_halving[0] = a->created_ns ? 0 : a->v.cost_pre_halving[0];
	c->chain[d].cost_pre_halving[1] = a->created_ns ? 0 : a->v.cost_pre_halving[1];
}

/* The swappiness get_scan_count() used for the probed memcg:
 * mem_cgroup_swappiness() of v6.1: vm_swappiness on cgroup v2 and for v1's
 * root, the memcg's own on v1 (-1: the probe lacks the field it needs). */
int rr_probe_swappiness(const struct rr_builder *b, const struct rr_lruvec_probe *p)
{
	bool v1 = b->st.memory_root > 0;

	if (v1 && p->v[RR_PF_CGROUP_ID] != RR_ROOT_MEMCG_ID) {
		if (rr_probe_has(p, RR_PF_SWAPPINESS))
			return (int)p->v[RR_PF_SWAPPINESS];
		return -1;
	}
	return rr_probe_has(p, RR_PF_VM_SWAPPINESS) ? (int)p->v[RR_PF_VM_SWAPPINESS] : -1;
}

/* The inputs of the batch in flight's call as the probe read them, over
 * what the builder rebuilt in @c (capture.c): exact, nothing hidden. */
void rr_probe_capture(const struct rr_builder *b, const struct task *t, struct rr_batch_ctx *c)
{
	const struct rr_lruvec_probe *p = &t->probe;
	int reclaim_idx, sw;

	if (!t->probe_valid || !t->probe_index || !t->batch_in_call ||
	    t->probe_ep != t->batch_ep || p->v[RR_PF_CGROUP_ID] != t->batch.memcg_id)
		return;
	sw = rr_probe_swappiness(b, p);
	if (sw >= 0) {
		c->swappiness = sw;
		c->swappiness_known = true;
	}
	reclaim_idx = rr_probe_has(p, RR_PF_RECLAIM_IDX) ? (int)p->v[RR_PF_RECLAIM_IDX] :
		      RR_PROBE_MAX_ZONES;
	c->probe = t->probe_index;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		c->lru_pages[l] = rr_probe_lru_pages(p, l, reclaim_idx);
	if (rr_probe_has(p, RR_PF_CSS_FLAGS)) {
		c->online = p->v[RR_PF_CSS_FLAGS] & RR_CSS_ONLINE;
		c->in_window = false;
		c->online_unknown = false;
	}
	c->sizes_stale = false;
	c->sizes_bounded = false;
	c->sizes_lower_bound = false;
	c->size_disproved = false;
	c->conc_unknown = false;
	memset(c->conc_min, 0, sizeof(c->conc_min));
	memset(c->conc_max, 0, sizeof(c->conc_max));
	c->flush_unknown = false;
	c->hier_missing = false;
	c->valid = true;
}

struct rr_silent_ctx *rr_episode_silent_add(struct rr_episode *ep, bool *oom)
{
	struct rr_silent_ctx *s;

	if (oom)
		*oom = false;
	if (ep->nr_silent == ep->cap_silent) {
		size_t cap = ep->cap_silent ? ep->cap_silent * 2 : 16;
		struct rr_silent_ctx *ns = ep->nr_silent < RR_SILENT_MAX ?
					   realloc(ep->silent, cap * sizeof(*ns)) : NULL;

		if (!ns) {
			ep->silent_cut++;
			if (oom)
				*oom = ep->nr_silent < RR_SILENT_MAX;
			return NULL;
		}
		ep->silent = ns;
		ep->cap_silent = cap;
	}
	s = &ep->silent[ep->nr_silent++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* Capture the decision inputs of the batch in flight (see rr_batch_ctx). */
static void capture(struct rr_builder *b, struct task *t, struct rr_memcg *m)
{
	struct rr_episode *ep = t->batch_ep;
	struct rr_batch_ctx *c;
	bool window = false;
	uint64_t lru_most;
	long long managed;
	int d = 0;

	if (!ep || !ep->replayable || t->nr_batch_drain < 0)
		return;
	c = &ep->ctx[t->batch_index];
	memset(c, 0, sizeof(*c));
	sizes_before_drain(t, m, c->lru_pages);
	if (t->batch_prev_vmscan_ns)
		concurrent_range(b, t, m, t->batch_prev_vmscan_ns, c);
	c->online = rr_vals_online_at(&m->v, t->batch.ts_ns, b->opts.offline_delay_ns, &window);
	c->swappiness = m->v.swappiness;
	c->swappiness_known = rr_memcg_swappiness_known(&b->st, m);
	if (m->dying_inferred && !m->v.baseline_known) {
		c->sizes_bounded = true;
		for (int k = 0; k < RR_NR_LRU_TYPES; k++)
			c->size_ub_type[k] = b->st.dying_ub_known ? b->st.dying_ub_type[k] : UINT64_MAX;
	}
	c->sizes_lower_bound = !m->v.baseline_known;
	c->unprotected = rr_memcg_unprotected_known(&b->st, m);
	if (b->stats.attr_inferred) {
		uint64_t since = m->sizes_snap_ns ? m->sizes_snap_ns : m->created_ns;
		bool charged = m->nr_tasks || m->task_in_ns > since ||
			       !(m->created_ns || m->tasks_known);

		c->sizes_stale = !since || m->standin ||
				 (charged && t->batch.ts_ns > since + RR_ATTR_SIZE_FRESH_NS);
	}
	/* no flush in the trace while it ran longer than the periodic flush:
	 * flushes are not in it, and when the views were refreshed is not
	 * known (before that, the views are those the trace gave: mkdir,
	 * snapshot) */
	c->flush_unknown = !b->st.nr_flushes &&
			   (!b->opts.flushes_recorded ||
			    t->batch.ts_ns >= b->st.first_ts_ns + RR_FLUSH_PERIOD_MAX_NS);
	/* (a walk of each ancestor's subtree per batch: bounded) */
	c->hier_missing = c->flush_unknown && b->st.nr_memcgs > RR_HIER_MEMCGS_MAX;
	managed = rr_node_managed_pages(rr_state_node(&b->st, 0));
	lru_most = managed < 0 ? RR_COST_UNBOUNDED_PAGES : (uint64_t)managed;
	for (struct rr_memcg *a = m; a && d < RR_CHAIN_MAX; a = a->parent, d++)
		chain_entry(t, c, d, a, lru_most);
	/* global reclaim's root is the root memcg, also above a memcg whose
	 * parent the trace does not give (one that died before the snapshot)
	 * or beyond the chain's depth: then it takes the last entry */
	if (rr_kind_global(ep->kind) && c->chain[d - 1].id != RR_ROOT_MEMCG_ID) {
		struct rr_memcg *root = rr_state_find(&b->st, RR_ROOT_MEMCG_ID);

		if (root) {
			if (d == RR_CHAIN_MAX)
				d--;
			chain_entry(t, c, d++, root, lru_most);
		}
	}
	/* the root's cost pair read at the decision (the root is the chain's
	 * last entry): any the ring held since the task's previous vmscan
	 * event (other tasks note costs meanwhile) */
	if (c->chain[d - 1].id == RR_ROOT_MEMCG_ID && t->batch_prev_vmscan_ns)
		c->chain[d - 1].cost_range = root_cost_range(b, t->batch_prev_vmscan_ns,
							     c->chain[d - 1].cost_lo,
							     c->chain[d - 1].cost_hi);
	c->depth = d;
	/* in the rmdir -> offline window the online state is a guess; the
	 * fidelity check tries both */
	c->in_window = window;
	c->online_unknown = m->online_unknown;
	/* a recorder's trace before its start snapshot: the sizes are not
	 * known yet (the snapshot gives them later) */
	c->valid = !(b->stats.meta_seen && !b->start_snapshot_ns && !m->v.baseline_known);
	/* the recorder's probe read the call's inputs: they replace what was
	 * rebuilt (probe.c) */
	rr_probe_capture(b, t, c);
}

/*
 * Concurrent walkers (§19.3): mem_cgroup_iter() hands out memcgs from one
 * cursor per (root, node) to every task reclaiming under the root.  Each
 * ancestor of @m keeps the time and task of the latest batch in its subtree
 * and the time of the latest one by another task, so that an episode's end
 * can ask its root, in O(1), whether another task's batch fell under it
 * while it ran (infer.c).  O(depth) a batch, whatever the number of
 * reclaimers.
 */
static void note_concurrent_walk(struct task *t, struct rr_memcg *m, uint64_t ts_ns)
{
	for (struct rr_memcg *a = m; a; a = a->parent) {
		if (a->visit_pid != t->pid) {
			a->visit_other_ns = a->visit_ns;
			a->visit_pid = t->pid;
		}
		a->visit_ns = ts_ns;
	}
}

/* The memcg after @m in pre-order (children by id, as the kernel's walk
 * takes them), or NULL at the end of the tree.  Children are kept sorted
 * by id (state.c add_child()): a sibling is found by bisection, so a walk
 * over a wide tree is not quadratic. */
struct rr_memcg *rr_preorder_next(struct rr_memcg *m)
{
	if (m->nr_children)
		return m->children[0];
	for (; m->parent; m = m->parent) {
		struct rr_memcg *p = m->parent;
		int lo = 0, hi = p->nr_children;

		while (lo < hi) {	/* the first child with an id above m's */
			int mid = lo + (hi - lo) / 2;

			if (p->children[mid]->id <= m->id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < p->nr_children)
			return p->children[lo];
	}
	return NULL;
}

/* Does @m come after @prev in pre-order (children by id)?  O(depth). */
static bool preorder_after(struct rr_memcg *prev, struct rr_memcg *m)
{
	struct rr_memcg *a = rr_memcg_lca(prev, m), *cp = prev, *cm = m;

	if (!a || a == m)
		return false;	/* other trees, or @m is above @prev */
	if (a == prev)
		return true;	/* @m is below @prev */
	while (cp->parent != a)
		cp = cp->parent;
	while (cm->parent != a)
		cm = cm->parent;
	return cm->id > cp->id;
}

/*
 * The batch in flight begins a call on @m after a call on @prev: capture
 * the memcgs strictly between them in pre-order, which the walk visited
 * without a batch.  Nothing when @m comes before @prev (a new walk or a
 * wrap: which memcgs it visited is not known).
 */
static void capture_silent(struct rr_builder *b, struct task *t, struct rr_memcg *prev,
			   struct rr_memcg *m)
{
	struct rr_episode *ep = t->batch_ep;
	const struct rr_batch_ctx *c;
	struct rr_memcg *x;
	bool hier;

	if (!ep->replayable || t->nr_batch_drain < 0 || !preorder_after(prev, m))
		return;
	c = &ep->ctx[t->batch_index];
	hier = c->valid && c->flush_unknown && !c->hier_missing;
	/* (@m after @prev in one tree: the walk reaches it) */
	for (x = rr_preorder_next(prev); x && x != m; x = rr_preorder_next(x)) {
		struct rr_silent_ctx *s;
		int64_t ws[RR_NR_LRU_TYPES];
		bool window = false;

		/* past the episode's budget, or without memory: counted only */
		s = rr_episode_silent_add(ep, NULL);
		if (!s)
			continue;
		s->before = t->batch_index;
		s->memcg_id = x->id;
		sizes_before_drain(t, x, s->lru_pages);
		s->online = rr_vals_online_at(&x->v, t->batch.ts_ns, b->opts.offline_delay_ns,
					      &window);
		s->in_window = window;
		s->swappiness = x->v.swappiness;
		s->swappiness_known = rr_memcg_swappiness_known(&b->st, x);
		/* (a dying memcg whose sizes are unknown: not judged either) */
		s->protected_ = !rr_memcg_unprotected_known(&b->st, x) ||
				(x->dying_inferred && !x->v.baseline_known);
		rr_memcg_rstat_at(x, t->batch_prev_vmscan_ns, s->rstat_lru_pages, ws);
		/* its view had a flush come just before (no flush in the trace:
		 * fidelity.c tries both) */
		s->hier_valid = hier;
		if (hier)
			rr_memcg_hier_lru(x, 0, s->hier_lru_pages);
	}
}

void rr_task_attribute(struct rr_builder *b, struct task *t, uint64_t memcg_id)
{
	struct rr_batch *eb = ep_batch(t);
	/* (created here if this is its first event, as rr_state_apply() would) */
	struct rr_memcg *m = rr_state_memcg(&b->st, memcg_id);

	/* the running sum before this batch's decrements (for the isolate
	 * bound, infer.c) */
	t->batch_sum_valid = m && rr_lru_is_evictable(t->batch.lru);
	if (t->batch_sum_valid)
		memcpy(t->batch_sums, m->v.lru_sum, sizeof(t->batch_sums));
	t->batch.memcg_id = memcg_id;
	t->awaiting_memcg = false;
	if (eb) {
		eb->memcg_id = memcg_id;
		if (m)
			capture(b, t, m);
		if (m && t->batch_ep->replayable)
			note_concurrent_walk(t, m, t->batch.ts_ns);
		/* a new call on another memcg: the walk's silent visits between
		 * (a probed episode sees them: probe.c) */
		if (m && t->batch_index > 0 && t->batch_ep->replayable && !t->batch_ep->probed) {
			uint64_t prev_id = t->batch_ep->batches[t->batch_index - 1].memcg_id;
			struct rr_memcg *prev = prev_id && prev_id != memcg_id ?
						rr_state_find(&b->st, prev_id) : NULL;

			if (prev)
				capture_silent(b, t, prev, m);
		}
	}
}
