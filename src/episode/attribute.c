// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution without memcg: events (docs/kernel-model.md §24).
 *
 * Kernels before 6.13 print no memcg: events, so no LRU batch says which
 * memcg it scanned, and no mod_memcg_lruvec_state delta keeps a memcg's
 * sizes current.  This stage gives each batch of a replayable episode its
 * memcg from what the trace does give, and says on what evidence
 * (enum rr_attr_basis):
 *
 *  - the reclaim root: global reclaim's is the root memcg; limit
 *    reclaim's is the memcg of the task that charged (cgroup_attach_task,
 *    sched_process_fork, the recorder's tasks lines), or its lowest
 *    ancestor whose limit it is over, or the one memcg with a limit; a
 *    memory.reclaim write's is the memcg written to; a begin event's
 *    memcg_id= where a kernel prints one;
 *  - the walk: shrink_node_memcgs() visits the root's subtree in pre-order
 *    (mem_cgroup_iter(), children by id), once per priority pass, and
 *    within a visit shrink_lruvec() takes the lists in enum order, each
 *    min(nr[lru], SWAP_CLUSTER_MAX) pages a batch until its nr[] is spent:
 *    a batch of fewer than SWAP_CLUSTER_MAX pages ends its list's run in
 *    that visit, a list that had no batch in the visit's first round has
 *    none later, and mm_shrink_slab_start after the lists ends the visit
 *    (shrink_slab() follows shrink_lruvec());
 *  - a memcg with nothing on a list gets no batch for it, and one whose
 *    list holds fewer than 1 << priority pages gets none at that priority
 *    (get_scan_count(): lruvec_size >> priority).
 *
 * The batches of one priority pass of a task wait (rr_attr_defer()) until
 * the pass ends (a new priority, reclaim call or episode); then every
 * assignment of them to the walk's memcgs that keeps these rules is
 * weighed at once (rr_attr_flush(): a forward and a backward pass over
 * (batch, candidate), the fewest batches on a memcg that a fresh snapshot
 * found too small), and only then does the rest of each batch's close
 * run (tasks.c rr_task_batch_memcg_close()), in order.  A batch that
 * every such assignment puts on one memcg is attributed by the walk
 * (RR_ATTR_WALK), or exactly (RR_ATTR_SINGLE) when that is the only memcg
 * of the walk that can hold pages on its list; where more than one fits,
 * the likeliest is taken and the batch marked RR_ATTR_AMBIGUOUS, so that
 * its call is not judged and its size not raised by it.  A trace that
 * names no memcg at all gets one stand-in memcg per reclaiming task (the
 * root for global reclaim): RR_ATTR_ASSUMED.  From v6.11 (kswapd aside)
 * and before v5.4 a walk begins where the last one on its root stopped
 * (a shared position), not at the root.
 *
 * Sizes: each snapshot line sets a memcg's sizes; between snapshots a
 * size is the last snapshot's plus what the batches show (pages
 * reclaimed leave the list, activated ones move to the active list,
 * deactivated ones to the inactive list), and at least what a batch's
 * nr_requested << priority proves (infer.c).  Pages charged since the
 * snapshot are not seen: the sizes are lower bounds, marked as such.
 */
#include "episode-local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most memcgs a pass's attribution looks at (a walk of 10^5 memcgs
 * must not cost 10^5 steps a pass) */
#define ATTR_SCAN_MAX 4096

/* ---- the priority pass: which memcg each of its batches scanned ---- */

/* The most batches of one pass and candidate memcgs the exact solution
 * takes (its time grows with batches^2 x candidates; beyond, a batch gets
 * the only memcg that can hold its list, else the first that fits, marked
 * ambiguous) */
#define ATTR_PASS_BATCHES_MAX 1024
#define ATTR_CANDIDATES_MAX 256
/* A shared walk position at the end of the walk: the next starts at the root */
#define ATTR_CURSOR_END UINT64_MAX
#define ATTR_WORDS (ATTR_CANDIDATES_MAX / 64)

/* The batches a..b-1 of the pass: can they be one shrink_lruvec() call? */
struct seg {
	uint8_t seen, closed;
	int last;		/* the last list of the round in progress */
	bool later_round;	/* a list came again: no new list after */
};

static bool seg_add(struct seg *g, const struct rr_batch *bt, bool first, bool slab_before)
{
	unsigned int bit = 1u << bt->lru;

	if (!first && slab_before)
		return false;	/* shrink_slab() ended the visit */
	if (g->closed & bit)
		return false;	/* its run ended with fewer than SWAP_CLUSTER_MAX */
	if (!(g->seen & bit)) {
		/* a list first seen in the first round, in enum order */
		if (g->later_round || (!first && bt->lru <= g->last))
			return false;
		g->seen |= bit;
	} else if (bt->lru <= g->last || first) {
		g->later_round = true;
	}
	g->last = bt->lru;
	if (bt->nr_requested < RR_SWAP_CLUSTER_MAX)
		g->closed |= bit;
	return true;
}

struct pass {
	struct rr_builder *b;
	struct task *t;
	struct rr_episode *ep;
	size_t k;			/* batches */
	int m;				/* candidates */
	struct rr_memcg *cand[ATTR_CANDIDATES_MAX];
	uint8_t fit[ATTR_CANDIDATES_MAX][RR_NR_EVICTABLE_LRU];
	bool unskip[ATTR_CANDIDATES_MAX];
	bool solved;			/* a whole fit exists */
	bool too_many;			/* more candidates than ATTR_CANDIDATES_MAX */
	bool others;			/* another task walked meanwhile */
	uint64_t cursor;		/* the shared position: 0 unknown,
					 * ATTR_CURSOR_END the walk's end */
	int first_min;			/* the first segment's least candidate */
	bool first_ok[ATTR_CANDIDATES_MAX];	/* where the first visit may be */
	int after_cursor;		/* the first candidate after the shared
					 * position, -1 unknown */
	int32_t *fwd, *bwd;		/* (k + 1) x (m + 1): least costs */
	int32_t *diff;			/* (k + 1) x m: poss_fn()'s ranges */
	int32_t opt, best_cost;		/* the least whole cost; bwd_fn()'s */
	uint64_t (*poss)[ATTR_WORDS];	/* per batch: the candidates it may be */
	int *path;			/* per batch: one whole fit */
	int best_b, best_j;		/* bwd_fn()'s choice */
	/* the walk began at a position other walks left (before v5.4; from
	 * v6.11 but for kswapd): a suffix of the pre-order */
	bool shared;
};

#define CELL(p, a, jj) ((size_t)(a) * (size_t)((p)->m + 1) + (size_t)(jj))

static const struct rr_batch *pb(const struct pass *p, size_t i)
{
	return &p->ep->batches[p->t->pend[i].index];
}

/*
 * Every segment [a, b) and candidate j that follows a candidate jj - 1 (jj
 * 0: the pass's start): @fn is called for each that the walk allows, with
 * its cost, the batches it puts on a memcg that only FIT_UNLIKELY fits.  A
 * memcg between two visits with a batch was visited without one: it may
 * not be one that surely scans its inactive file list (unskip).
 */
static void transitions(struct pass *p, size_t a, int jj,
			void (*fn)(struct pass *p, size_t a, int jj, size_t b, int j, int cost))
{
	bool ok[ATTR_CANDIDATES_MAX];
	int cost[ATTR_CANDIDATES_MAX];
	struct seg g = { 0, 0, -1, false };
	int lo = jj, hi = p->m;

	/* the candidates it may be: up to the first that may not be skipped;
	 * the pass's first visit: where the walk may begin (first_ok) */
	if (!jj) {
		for (lo = 0; lo < p->m && !p->first_ok[lo]; lo++)
			;
		for (int j = lo; j < p->m; j++)
			ok[j] = p->first_ok[j];
		hi = p->m;
	} else {
		for (int j = lo; j < p->m; j++) {
			ok[j] = true;
			if (p->unskip[j]) {
				hi = j + 1;
				break;
			}
		}
	}
	for (int j = lo; j < hi; j++)
		cost[j] = 0;
	for (size_t b = a; b < p->k; b++) {
		const struct rr_batch *bt = pb(p, b);
		bool any = false;

		if (!seg_add(&g, bt, b == a, p->t->pend[b].slab_before))
			break;
		for (int j = lo; j < hi; j++) {
			ok[j] = ok[j] && p->fit[j][bt->lru] >= FIT_UNLIKELY;
			if (!ok[j])
				continue;
			cost[j] += p->fit[j][bt->lru] == FIT_UNLIKELY;
			fn(p, a, jj, b + 1, j, cost[j]);
			any = true;
		}
		if (!any)
			break;
	}
}

#define COST_NONE INT32_MAX

static void fwd_fn(struct pass *p, size_t a, int jj, size_t b, int j, int cost)
{
	int32_t c = p->fwd[CELL(p, a, jj)] + cost;

	if (c < p->fwd[CELL(p, b, j + 1)])
		p->fwd[CELL(p, b, j + 1)] = c;
}

/* the least cost from boundary @a on after candidate jj - 1 (bwd) */
static void bwd_fn(struct pass *p, size_t a, int jj, size_t b, int j, int cost)
{
	int32_t rest = p->bwd[CELL(p, b, j + 1)];

	(void)a;
	(void)jj;
	if (rest != COST_NONE && rest + cost < p->best_cost)
		p->best_cost = rest + cost;
}

/* a step on a whole fit of least cost: its batches may be on @j */
static void poss_fn(struct pass *p, size_t a, int jj, size_t b, int j, int cost)
{
	int32_t rest = p->bwd[CELL(p, b, j + 1)];

	if (rest == COST_NONE || p->fwd[CELL(p, a, jj)] + cost + rest != p->opt)
		return;
	/* (batches a..b-1: a difference array, summed after, keeps this O(1)) */
	p->diff[a * (size_t)p->m + (size_t)j]++;
	p->diff[b * (size_t)p->m + (size_t)j]--;
}

/* the step of one least-cost whole fit from (a, jj): the memcg whose sizes
 * fit best, then the first, then the longest visit */
static void path_fn(struct pass *p, size_t a, int jj, size_t b, int j, int cost)
{
	int32_t rest = p->bwd[CELL(p, b, j + 1)];
	int lru = pb(p, a)->lru;

	if (rest == COST_NONE || p->fwd[CELL(p, a, jj)] + cost + rest != p->opt)
		return;
	if (p->best_j < 0 || p->fit[j][lru] > p->fit[p->best_j][lru] ||
	    (p->fit[j][lru] == p->fit[p->best_j][lru] &&
	     (j < p->best_j || (j == p->best_j && (int)b > p->best_b)))) {
		p->best_j = j;
		p->best_b = (int)b;
	}
}

/*
 * Solve the pass: the assignments of its batches to the candidates that the
 * walk allows, those with the fewest batches on a memcg a fresh snapshot
 * found too small (p->opt of them).  Return true when one exists.
 */
static bool solve(struct pass *p)
{
	size_t cells = (p->k + 1) * (size_t)(p->m + 1);

	for (size_t c = 0; c < cells; c++)
		p->fwd[c] = p->bwd[c] = COST_NONE;
	memset(p->poss, 0, p->k * sizeof(*p->poss));
	p->fwd[CELL(p, 0, 0)] = 0;
	for (size_t a = 0; a < p->k; a++)
		for (int jj = 0; jj <= p->m; jj++)
			if (p->fwd[CELL(p, a, jj)] != COST_NONE)
				transitions(p, a, jj, fwd_fn);
	/* the pass may end after any candidate (the walk stops when reclaim
	 * met its goal) */
	for (int jj = 1; jj <= p->m; jj++)
		p->bwd[CELL(p, p->k, jj)] = 0;
	for (size_t a = p->k; a-- > 0;) {
		for (int jj = 0; jj <= p->m; jj++) {
			if (p->fwd[CELL(p, a, jj)] == COST_NONE)
				continue;
			p->best_cost = COST_NONE;
			transitions(p, a, jj, bwd_fn);
			p->bwd[CELL(p, a, jj)] = p->best_cost;
		}
	}
	p->opt = p->bwd[CELL(p, 0, 0)];
	if (p->opt == COST_NONE)
		return false;
	memset(p->diff, 0, (p->k + 1) * (size_t)p->m * sizeof(*p->diff));
	for (size_t a = 0; a < p->k; a++)
		for (int jj = 0; jj <= p->m; jj++)
			if (p->fwd[CELL(p, a, jj)] != COST_NONE)
				transitions(p, a, jj, poss_fn);
	for (int j = 0; j < p->m; j++) {
		int64_t run = 0;

		for (size_t i = 0; i < p->k; i++) {
			run += p->diff[i * (size_t)p->m + (size_t)j];
			if (run > 0)
				p->poss[i][j / 64] |= 1ULL << (j % 64);
		}
	}
	for (size_t a = 0; a < p->k;) {
		int jj = a ? p->path[a - 1] + 1 : 0;

		p->best_j = -1;
		p->best_b = -1;
		transitions(p, a, jj, path_fn);
		if (p->best_j < 0)
			return false;	/* (cannot happen: bwd said so) */
		for (size_t i = a; i < (size_t)p->best_b; i++)
			p->path[i] = p->best_j;
		a = (size_t)p->best_b;
	}
	return true;
}

static int popcount_words(const uint64_t *w)
{
	int n = 0;

	for (int i = 0; i < ATTR_WORDS; i++)
		n += __builtin_popcountll(w[i]);
	return n;
}

/* Finish the pending batch @i with its memcg: what rr_task_batch_close()
 * left for when the memcg is known. */
static int finish(struct rr_builder *b, struct task *t, size_t i, uint64_t memcg_id,
		  uint8_t basis)
{
	struct attr_pend *pd = &t->pend[i];
	struct rr_episode *ep = t->pend_ep;
	struct rr_batch saved = t->batch;
	struct rr_episode *saved_ep = t->batch_ep;
	size_t saved_index = t->batch_index;
	uint64_t saved_prev = t->batch_prev_vmscan_ns;
	int saved_drain = t->nr_batch_drain;
	bool saved_open = t->batch_open, saved_await = t->awaiting_memcg;
	bool saved_sum_valid = t->batch_sum_valid;
	int64_t saved_sums[RR_NR_EVICTABLE_LRU];
	int ret = 0;

	memcpy(saved_sums, t->batch_sums, sizeof(saved_sums));
	t->batch = ep->batches[pd->index];
	t->batch_ep = ep;
	t->batch_index = pd->index;
	t->batch_prev_vmscan_ns = pd->prev_vmscan_ns;
	t->nr_batch_drain = 0;
	if (memcg_id) {
		t->batch.attr = basis;
		ep->batches[pd->index].attr = basis;
		b->stats.attr[basis]++;
		if (b->opts.drop_memcg_events && pd->truth_id && basis != RR_ATTR_ASSUMED) {
			b->stats.attr_checked++;
			if (pd->truth_id == memcg_id && basis == RR_ATTR_AMBIGUOUS)
				b->stats.attr_ambiguous_agree++;
			else if (pd->truth_id == memcg_id)
				b->stats.attr_agree++;
			else if (basis != RR_ATTR_AMBIGUOUS)
				b->stats.attr_wrong++;
		}
		rr_task_attribute(b, t, memcg_id);
	}
	ret = rr_task_batch_memcg_close(b, t, pd->has_ev ? &pd->ev : NULL);
	t->batch = saved;
	t->batch_ep = saved_ep;
	t->batch_index = saved_index;
	t->batch_prev_vmscan_ns = saved_prev;
	t->nr_batch_drain = saved_drain;
	t->batch_open = saved_open;
	t->awaiting_memcg = saved_await;
	t->batch_sum_valid = saved_sum_valid;
	memcpy(t->batch_sums, saved_sums, sizeof(saved_sums));
	return ret;
}

/*
 * The shared walk position under @root at @prio (before v5.4 one per
 * priority, from v6.11 one per root): the memcg of the last batch of the
 * latest pass, 0 not known.
 */
static uint64_t cursor_get(const struct rr_builder *b, uint64_t root_id, int prio)
{
	int key = b->opts.shared_walk_cursor ? prio : -1;

	for (unsigned int i = 0; i < b->nr_attr_cursors; i++)
		if (b->attr_cursors[i].root_id == root_id && b->attr_cursors[i].prio == key)
			return b->attr_cursors[i].memcg_id;
	return 0;
}

static void cursor_set(struct rr_builder *b, uint64_t root_id, int prio, uint64_t memcg_id)
{
	int key = b->opts.shared_walk_cursor ? prio : -1;
	unsigned int i;

	for (i = 0; i < b->nr_attr_cursors; i++)
		if (b->attr_cursors[i].root_id == root_id && b->attr_cursors[i].prio == key)
			break;
	if (i == b->nr_attr_cursors) {
		if (i == RR_ATTR_CURSORS)	/* (a full table: the oldest goes) */
			i = b->attr_cursor_next++ % RR_ATTR_CURSORS;
		else
			b->nr_attr_cursors++;
	}
	b->attr_cursors[i].root_id = root_id;
	b->attr_cursors[i].prio = key;
	b->attr_cursors[i].memcg_id = memcg_id;
}

/* Is a task other than @t in a reclaim episode that walks a shared
 * position (not kswapd's full walk, from v5.4)?  O(open episodes). */
static bool others_walking(const struct rr_builder *b, const struct task *t)
{
	for (const struct rr_episode *ep = b->open; ep; ep = ep->open_next)
		if (ep->pid != t->pid && ep->replayable &&
		    (ep->kind != RR_KIND_KSWAPD || b->opts.shared_walk_cursor))
			return true;
	return false;
}

/* Where the pass's first visit with a batch may be (p->first_ok): after
 * the walk's start, passing no memcg that surely gives a batch.  A full
 * walk starts at the root; a shared one after the position the last one
 * left (@cursor; ATTR_CURSOR_END: the last walk reached the end, this one
 * starts at the root), or at the root, or, where that is not known (0),
 * anywhere. */
static void first_visits(struct pass *p)
{
	uint64_t cursor = p->cursor;

	memset(p->first_ok, 0, sizeof(p->first_ok));
	if (p->shared && cursor != ATTR_CURSOR_END && (!cursor || p->after_cursor < 0)) {
		for (int j = 0; j < p->m; j++)
			p->first_ok[j] = true;
		return;
	}
	for (int j = p->first_min; j < p->m; j++) {
		p->first_ok[j] = true;
		if (p->unskip[j])
			break;
	}
	/* the last walk stopped at or after the earliest memcg its last batch
	 * may have been on: this one may begin anywhere after that */
	if (p->shared && cursor != ATTR_CURSOR_END)
		for (int j = p->after_cursor; j < p->m; j++)
			p->first_ok[j] = true;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = (*(struct rr_memcg *const *)a)->id, y = (*(struct rr_memcg *const *)b)->id;

	return x < y ? -1 : x > y;
}

/*
 * The subtrees the pass walks, in order: @root's; for global reclaim also
 * those of memcgs whose parent the trace never gives (under the root in the
 * kernel, where the trace does not say), by id.  *@out is allocated (NULL
 * on ENOMEM); return how many.
 */
static size_t walk_tops(const struct rr_builder *b, struct rr_memcg *root,
			const struct rr_episode *ep, struct rr_memcg ***out)
{
	struct rr_memcg *m, *tmp, **v;
	size_t n = 1;

	if (!rr_kind_global(ep->kind) || root->id != RR_ROOT_MEMCG_ID) {
		*out = malloc(sizeof(**out));
		if (*out)
			(*out)[0] = root;
		return 1;
	}
	v = malloc(((size_t)b->st.nr_memcgs + 1) * sizeof(*v));
	*out = v;
	if (!v)
		return 0;
	v[0] = root;
	HASH_ITER(hh, b->st.by_id, m, tmp)
		if (!m->parent && m != root && !m->release_ns && n <= b->st.nr_memcgs)
			v[n++] = m;
	qsort(v + 1, n - 1, sizeof(*v), cmp_id);
	return n;
}

/* The reclaim root of the pending pass's episode (once per episode). */
static struct rr_memcg *pass_root(struct rr_builder *b, struct task *t)
{
	struct rr_episode *ep = t->pend_ep;

	if (t->attr_ep_seq != ep->seq) {
		struct rr_memcg *r;

		/* (cgroup v1 events held for a memcg: event that will not come) */
		if (rr_builder_resolve_only_hierarchy(b))
			b->st.oom = true;
		t->attr_ep_seq = ep->seq;
		r = rr_attr_target(b, ep, t->pid, &t->attr_target_basis);
		t->attr_target = r ? r->id : 0;
		if (r && t->attr_target_basis == RR_ATTR_ASSUMED)
			b->stats.attr_targets_assumed++;
	}
	return t->attr_target ? rr_state_find(&b->st, t->attr_target) : NULL;
}

/*
 * The pass's candidates: the memcgs of its walk that may hold pages on one
 * of its lists, in walk order, with their fits; the root always.  At most
 * ATTR_CANDIDATES_MAX (else p->too_many).  Return -1 on ENOMEM.
 */
static int candidates(struct pass *p, struct rr_builder *b, struct task *t, struct rr_memcg *root)
{
	uint64_t now, cursor;
	struct rr_memcg **tops = NULL;
	size_t nr_tops;
	unsigned int n = 0;
	uint8_t lists = 0;
	int prio = t->pend_prio;

	p->b = b;
	p->t = t;
	p->ep = t->pend_ep;
	p->k = t->nr_pend;
	for (size_t i = 0; i < p->k; i++)
		lists |= 1u << pb(p, i)->lru;
	now = pb(p, 0)->ts_ns;
	p->shared = b->opts.shared_walk_cursor ||
		    (b->opts.partial_walk && p->ep->kind != RR_KIND_KSWAPD);
	/* another task walking a shared position meanwhile moves it: where
	 * this walk began is not known then */
	p->others = p->shared && others_walking(b, t);
	cursor = p->shared && !p->others ? cursor_get(b, root->id, prio) : 0;
	p->cursor = cursor;
	p->after_cursor = -1;
	nr_tops = walk_tops(b, root, p->ep, &tops);
	if (!tops)
		return -1;
	for (size_t ti = 0; ti < nr_tops && !p->too_many; ti++) {
		for (struct rr_memcg *x = tops[ti]; x && n < ATTR_SCAN_MAX;
		     x = rr_attr_walk_next(tops[ti], x), n++) {
			bool any = false;
			uint8_t f[RR_NR_EVICTABLE_LRU];

			for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
				f[l] = (uint8_t)rr_attr_list_fits(x, l, prio, now);
				any |= (lists & (1u << l)) && f[l] >= FIT_UNLIKELY;
			}
			/* the first candidate after the shared position */
			if (x->id == cursor)
				p->after_cursor = p->m + (any || x == root);
			if (!any && x != root)
				continue;
			if (p->m == ATTR_CANDIDATES_MAX) {
				p->too_many = true;
				break;
			}
			memcpy(p->fit[p->m], f, sizeof(f));
			/* a memcg whose inactive file list surely gives a batch at
			 * this priority, and nothing else can stop it: no swap
			 * (get_scan_count(): SCAN_FILE) */
			p->unskip[p->m] = prio >= 0 && f[RR_LRU_INACTIVE_FILE] == FIT_YES &&
					  rr_attr_swap_absent(b) && x->v.online && !x->v.rmdir_ns &&
					  !rr_memcg_protected(x);
			p->cand[p->m++] = x;
		}
	}
	free(tops);
	return 0;
}

/*
 * Where the solved pass left the shared walk position (@last_pass: its
 * episode or reclaim call ended with it).
 */
static void leave_cursor(struct pass *p, const struct rr_memcg *root, bool last_pass)
{
	struct rr_builder *b = p->b;
	int prio = p->t->pend_prio, last = 0;

	if (p->others || !p->solved) {
		cursor_set(b, root->id, prio, 0);
	} else if (!last_pass && b->opts.partial_walk && !b->opts.shared_walk_cursor) {
		/* a pass that did not meet the goal (another followed): the
		 * partial walk went to the end (shrink_node_memcgs()) */
		cursor_set(b, root->id, prio, ATTR_CURSOR_END);
	} else {
		/* at or after the earliest memcg its last batch may be on */
		while (last < p->m && !(p->poss[p->k - 1][last / 64] & (1ULL << (last % 64))))
			last++;
		cursor_set(b, root->id, prio, last < p->m ? p->cand[last]->id : 0);
	}
}

/*
 * The pass of @t's waiting batches is over (@last_pass: its reclaim call
 * or episode ended too): attribute each (see the top of this file) and
 * finish its close, in order.  Return 0, or -1 on ENOMEM or
 * when the close failed (the builder's state is then out of memory).
 */
int rr_attr_flush(struct rr_builder *b, struct task *t, bool last_pass)
{
	struct rr_memcg *root = t->nr_pend ? pass_root(b, t) : NULL;
	struct pass *p = NULL;
	int ret = 0;
	size_t i;

	if (!t->nr_pend)
		return 0;
	if (!root || t->attr_target_basis == RR_ATTR_ASSUMED) {
		for (i = 0; i < t->nr_pend && !ret; i++)
			ret = finish(b, t, i, root ? root->id : 0, RR_ATTR_ASSUMED);
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (!p || candidates(p, b, t, root))
		goto oom;
	if (p->m && !p->too_many && p->k <= ATTR_PASS_BATCHES_MAX) {
		p->fwd = malloc((p->k + 1) * (size_t)(p->m + 1) * sizeof(*p->fwd));
		p->bwd = malloc((p->k + 1) * (size_t)(p->m + 1) * sizeof(*p->bwd));
		p->poss = malloc(p->k * sizeof(*p->poss));
		p->path = malloc(p->k * sizeof(*p->path));
		p->diff = malloc((p->k + 1) * (size_t)p->m * sizeof(*p->diff));
		if (!p->fwd || !p->bwd || !p->poss || !p->path || !p->diff)
			goto oom;
		/* the root visited first, without a batch: a shrink_slab event
		 * before the pass's first batch */
		p->first_min = t->pend[0].slab_before && p->cand[0] == root ? 1 : 0;
		first_visits(p);
		p->solved = solve(p);
	}
	if (p->shared)	/* (an unsolved pass leaves it unknown) */
		leave_cursor(p, root, last_pass);
	for (i = 0; i < p->k && !ret; i++) {
		int lru = pb(p, i)->lru, fits = 0, best = -1;
		uint8_t basis = RR_ATTR_AMBIGUOUS;

		/* how many memcgs of the walk can hold pages on its list at all;
		 * the likeliest of them (the best fit, then the first) */
		for (int c = 0; c < p->m; c++) {
			if (p->fit[c][lru] < FIT_UNLIKELY)
				continue;
			if (best < 0 || p->fit[c][lru] > p->fit[best][lru])
				best = c;
			fits++;
		}
		if (p->solved) {
			/* every least-cost assignment puts it there, on a memcg a
			 * fresh snapshot did not find too small */
			best = p->path[i];
			if (popcount_words(p->poss[i]) == 1 && p->fit[best][lru] >= FIT_MAYBE)
				basis = RR_ATTR_WALK;
		}
		/* (unsolved: no whole fit, events lost or sizes the snapshots
		 * got wrong; or too big to solve) */
		if (fits == 1 && (basis == RR_ATTR_WALK || !p->solved))
			basis = RR_ATTR_SINGLE;
		/* a recorder in a container: the root's walk also visits the
		 * memcgs outside its view, which no snapshot names */
		if (b->st.view_root_id && root->id == RR_ROOT_MEMCG_ID)
			basis = RR_ATTR_AMBIGUOUS;
		ret = finish(b, t, i, best >= 0 ? p->cand[best]->id : root->id, basis);
	}
	goto out;
oom:
	b->st.oom = true;
	ret = -1;
out:
	if (p) {
		free(p->fwd);
		free(p->bwd);
		free(p->poss);
		free(p->path);
		free(p->diff);
		free(p);
	}
	t->nr_pend = 0;
	t->pend_ep = NULL;
	t->pend_prio = -1;
	t->slab_seen = false;
	return ret;
}

/*
 * The batch in flight of @t closed without a memcg: it waits for the end of
 * its priority pass, with its shrink event @ev (NULL: none, an inactive
 * batch that took nothing).  A batch of another episode, reclaim call or
 * priority first ends the pass waiting.  Return 0, or -1 on ENOMEM.
 */
int rr_attr_defer(struct rr_builder *b, struct task *t, const struct rr_event *ev)
{
	struct rr_episode *ep = t->batch_ep;
	struct attr_pend *pd;
	int prio = t->batch.priority;

	if (t->nr_pend && (t->pend_ep != ep || t->pend_call != t->batch.call ||
			   (prio >= 0 && t->pend_prio >= 0 && prio != t->pend_prio)) &&
	    rr_attr_flush(b, t, t->pend_ep != ep || t->pend_call != t->batch.call))
		return -1;
	if (!t->nr_pend) {
		t->pend_ep = ep;
		t->pend_call = t->batch.call;
		t->pend_prio = -1;
		/* a shrink_slab event of another pass is not this one's */
		if (t->slab_seen && prio >= 0 && t->slab_prio != prio)
			t->slab_seen = false;
	}
	if (prio >= 0)
		t->pend_prio = prio;
	if (t->nr_pend == t->cap_pend) {
		size_t cap = t->cap_pend ? t->cap_pend * 2 : 16;
		struct attr_pend *np = realloc(t->pend, cap * sizeof(*np));

		if (!np) {
			b->st.oom = true;
			return -1;
		}
		t->pend = np;
		t->cap_pend = cap;
	}
	pd = &t->pend[t->nr_pend++];
	memset(pd, 0, sizeof(*pd));
	pd->index = t->batch_index;
	if (ev) {
		pd->ev = *ev;
		pd->ev.str = NULL;
		pd->has_ev = true;
	}
	pd->slab_before = t->slab_seen;
	pd->prev_vmscan_ns = t->batch_prev_vmscan_ns;
	pd->truth_id = t->truth_id;
	t->slab_seen = false;
	return 0;
}

/*
 * mm_shrink_slab_start of @t at @priority: shrink_slab() follows a memcg's
 * lists in shrink_node_memcgs(), so the visit in progress ended; one before
 * any batch of its pass ended the visit of the walk's first memcg, the
 * reclaim root, which gave none.  Return -1 on ENOMEM.
 */
int rr_attr_visit_end(struct rr_builder *b, struct task *t, int priority)
{
	if (!t->ep || !t->ep->replayable)
		return 0;
	if (t->nr_pend && (t->pend_ep != t->ep || (priority >= 0 && t->pend_prio >= 0 &&
						   priority != t->pend_prio)) &&
	    rr_attr_flush(b, t, t->pend_ep != t->ep))
		return -1;
	t->slab_seen = true;
	t->slab_prio = priority;
	return 0;
}

/*
 * --drop-memcg-events: the memcg a 6.13 kernel's event names for the batch
 * in flight (tasks.c's rule: the first negative delta of its list, or a
 * count event), kept aside to check the inference with.
 */
void rr_attr_truth(struct rr_builder *b, const struct rr_event *ev)
{
	struct task *t = rr_task_find(b, ev->pid);

	if (!t || !t->awaiting_truth)
		return;
	if (ev->type == RR_EV_MOD_LRUVEC && !(ev->val < 0 && ev->item == t->batch.lru))
		return;
	t->truth_id = ev->id;
	t->awaiting_truth = false;
}
