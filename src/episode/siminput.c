// SPDX-License-Identifier: GPL-2.0-only
/*
 * From a recorded episode to the simulator's input (episode.h).  Work is
 * linear in the subtree and the batches: one pre-order walk, then one pass
 * over the batches, each found in the walk by a binary search on its memcg
 * id.
 */
#include "episode.h"

#include <stdlib.h>
#include <string.h>

struct walk_ctx {
	const struct rr_episode *ep;
	uint64_t offline_delay_ns;
	unsigned int page_shift;
	struct rr_sim_memcg *out;
	size_t n, cap;
};

/* memory.min/low of a snapshot in pages: "max" is PAGE_COUNTER_MAX
 * (LONG_MAX / PAGE_SIZE, include/linux/page_counter.h); unknown is none */
static uint64_t protection_pages(int64_t bytes, unsigned int page_shift)
{
	if (bytes == RR_MARKER_BYTES_MAX)
		return (uint64_t)INT64_MAX >> page_shift;
	return bytes > 0 ? (uint64_t)bytes >> page_shift : 0;
}

/*
 * The episode's first probe of @sm's memcg (docs/kernel-model.md §26): the
 * sizes, rstat view and online flag it read when the walk first reached it,
 * the start the free run takes (the state's sizes between snapshots are
 * lower bounds without memcg events).  O(probes) until the first match.
 */
static void probed_start(const struct rr_episode *ep, struct rr_sim_memcg *sm)
{
	for (size_t k = 0; ep->probed && k < ep->nr_probes; k++) {
		const struct rr_lruvec_probe *p = &ep->probes[k];
		int reclaim_idx;

		if (p->v[RR_PF_CGROUP_ID] != sm->id)
			continue;
		reclaim_idx = rr_probe_has(p, RR_PF_RECLAIM_IDX) ? (int)p->v[RR_PF_RECLAIM_IDX] :
			      RR_PROBE_MAX_ZONES;
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			sm->lru_pages[l] = rr_probe_lru_pages(p, l, reclaim_idx);
			if (p->has_rstat)
				sm->rstat_lru_pages[l] = p->rstat_lru[l];
		}
		if (rr_probe_has(p, RR_PF_CSS_FLAGS))
			sm->online = p->v[RR_PF_CSS_FLAGS] & RR_CSS_ONLINE;
		return;
	}
}

static int preorder(struct walk_ctx *w, const struct rr_memcg *m, int parent)
{
	const struct rr_memcg_vals *v;
	struct rr_sim_memcg *sm;
	bool window = false;
	int me;

	if (!rr_memcg_in_epoch(m, w->ep->epoch))
		return 0;	/* created after the episode started, or released before */
	v = rr_memcg_at(m, w->ep->epoch);
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct rr_sim_memcg *o = realloc(w->out, cap * sizeof(*o));

		if (!o)
			return -1;
		w->out = o;
		w->cap = cap;
	}
	me = (int)w->n++;
	sm = &w->out[me];
	memset(sm, 0, sizeof(*sm));
	sm->id = m->id;
	sm->parent = parent;
	sm->online = rr_vals_online_at(v, w->ep->start_ns, w->offline_delay_ns, &window);
	sm->swappiness = v->swappiness;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		sm->lru_pages[l] = rr_vals_lru_pages(v, l);
	sm->unevictable_pages = rr_vals_lru_pages(v, RR_LRU_UNEVICTABLE);
	/* memory.min/low as a snapshot gave them (v2; -1 unknown): for a child
	 * of the reclaim root they are its effective protection (emin/elow,
	 * mem_cgroup_calculate_protection()); deeper, the kernel shares the
	 * parent's out, which is not modelled: no protection is assumed there
	 * (docs/kernel-model.md 22.2) */
	if (parent == 0) {
		sm->min_pages = protection_pages(m->min_bytes, w->page_shift);
		sm->low_pages = protection_pages(m->low_bytes, w->page_shift);
	}
	rr_memcg_rstat_lru(m, w->ep->epoch, sm->rstat_lru_pages);
	probed_start(w->ep, sm);
	for (int i = 0; i < m->nr_children; i++)
		if (preorder(w, m->children[i], me))
			return -1;
	return 0;
}

static int cmp_memcg_id(const void *a, const void *b)
{
	const struct rr_memcg *x = *(const struct rr_memcg *const *)a;
	const struct rr_memcg *y = *(const struct rr_memcg *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The top-level memcgs other than @root, by id, each with its subtree,
 * as children of the walk's [0]. */
static int orphans(struct walk_ctx *w, const struct rr_state *st, const struct rr_memcg *root)
{
	const struct rr_memcg *m, *tmp;
	const struct rr_memcg **v;
	size_t n = 0;
	int ret = 0;

	HASH_ITER(hh, st->by_id, m, tmp)
		n += !m->parent && m != root;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	n = 0;
	HASH_ITER(hh, st->by_id, m, tmp)
		if (!m->parent && m != root)
			v[n++] = m;
	qsort(v, n, sizeof(*v), cmp_memcg_id);
	for (size_t i = 0; i < n && !ret; i++)
		ret = preorder(w, v[i], 0);
	free(v);
	return ret;
}

struct id_index {
	uint64_t id;
	size_t k;
};

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Per memcg of the walk, while the batches are read. */
struct acc {
	uint64_t sc[RR_NR_LRU_TYPES], rc[RR_NR_LRU_TYPES];	/* inactive, with a shrink event */
	uint64_t ac[RR_NR_LRU_TYPES];				/* ... their activated pages */
	uint64_t rq[RR_NR_LRU_TYPES], tk[RR_NR_LRU_TYPES];	/* inactive, all */
	uint64_t atk[RR_NR_LRU_TYPES], adc[RR_NR_LRU_TYPES];	/* active, with a shrink
								 * event: taken, deactivated */
	size_t nr_outcomes, nr_boundaries, nr_batches;
	int last_prio;
	uint32_t last_call;
	uint64_t removed[RR_NR_EVICTABLE_LRU];
};

void rr_episode_sim_input_free(struct rr_sim_input *in)
{
	free(in->memcgs);
	free(in->outcomes);
	free(in->boundaries);
	in->memcgs = NULL;
	in->outcomes = NULL;
	in->boundaries = NULL;
}

/* The outcome ratios of memcg @k: this episode's own recorded batches of
 * it, else its history, else "no data" (sim.h says what that means for
 * each ratio).  The deactivated share of active batches comes from the
 * episode only. */
static void ratios(struct rr_sim_memcg *sm, const struct acc *a,
		   const struct rr_outcome_stats *hist)
{
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		uint64_t sc = a->sc[t], rc = a->rc[t], rq = a->rq[t], tk = a->tk[t];
		uint64_t ac = a->ac[t];

		if (!sc) {
			sc = hist->scanned[t];
			rc = hist->reclaimed[t];
			ac = hist->activated[t];
		}
		if (!rq) {
			rq = hist->requested[t];
			tk = hist->taken[t];
		}
		sm->ratio_num[t] = rc;
		sm->ratio_den[t] = sc;
		sm->taken_num[t] = tk;
		sm->taken_den[t] = rq;
		/* activated per page taken and not reclaimed */
		sm->activate_num[t] = ac;
		sm->activate_den[t] = sc > rc ? sc - rc : 0;
		sm->deactivate_num[t] = a->adc[t];
		sm->deactivate_den[t] = a->atk[t];
		sm->pageout_num[t] = hist->pageouts[t];
		sm->pageout_den[t] = hist->scanned[t];
	}
}

/* One batch of memcg @k: outcome statistics and the call boundaries.
 * @sizes: the exact sizes when the batch began, NULL unknown. */
static void account(struct rr_sim_input *in, struct rr_sim_memcg *sm, struct acc *a,
		    const struct rr_episode *ep, size_t i, const uint64_t *sizes)
{
	const struct rr_batch *bt = &ep->batches[i];
	int t = rr_lru_type(bt->lru);

	if (bt->call != a->last_call) {	/* a new reclaim call starts at priority 12 */
		a->last_call = bt->call;
		a->last_prio = 99;
	}
	if (!rr_lru_is_evictable(bt->lru))
		return;	/* no kernel isolates from the unevictable list */
	if (!rr_lru_is_active(bt->lru)) {
		a->rq[t] += bt->nr_requested;
		a->tk[t] += bt->nr_taken;
		if (bt->has_shrink) {
			a->sc[t] += bt->nr_taken;
			a->rc[t] += bt->nr_reclaimed;
			a->ac[t] += bt->nr_activate;
		}
	} else if (bt->has_shrink) {
		a->atk[t] += bt->nr_taken;
		a->adc[t] += bt->nr_deactivate;
	}
	/* an active batch without its shrink event moved nothing we know of;
	 * the simulation replays it as recorded, so both counts agree */
	in->outcomes[(sm->recorded - in->outcomes) + sm->nr_recorded++] =
		(struct rr_sim_outcome){
			.lru = bt->lru, .nr_requested = bt->nr_requested,
			.nr_taken = bt->nr_taken, .nr_reclaimed = bt->nr_reclaimed,
			.nr_activate = bt->nr_activate, .nr_pageout = bt->nr_pageout,
			.nr_deactivate = bt->nr_deactivate,
		};
	/* a recorded shrink_lruvec() call at a new, lower priority: the sizes
	 * the kernel saw, and what the episode had removed before it */
	if (bt->priority >= 0 && bt->priority < a->last_prio && sizes) {
		struct rr_sim_boundary *bd =
			&in->boundaries[(sm->boundaries - in->boundaries) + sm->nr_boundaries++];

		bd->priority = bt->priority;
		bd->call = bt->call;
		memcpy(bd->lru_pages, sizes, sizeof(bd->lru_pages));
		memcpy(bd->removed_before, a->removed, sizeof(a->removed));
	}
	if (bt->priority >= 0)
		a->last_prio = bt->priority;
	/* the rule of the simulation (sim.h): reclaimed and activated pages
	 * leave an inactive list, deactivated ones an active list */
	if (!rr_lru_is_active(bt->lru))
		rr_lru_removed(a->removed, bt->lru, bt->nr_reclaimed, bt->nr_activate);
	else
		rr_lru_removed(a->removed, bt->lru, 0, bt->nr_deactivate);
}

/* The lowest priority of @ep's batches, 12 if none has one. */
static int lowest_priority(const struct rr_episode *ep)
{
	int lowest = RR_DEF_PRIORITY;

	for (size_t i = 0; i < ep->nr_batches; i++)
		if (ep->batches[i].priority >= 0 && ep->batches[i].priority < lowest)
			lowest = ep->batches[i].priority;
	return lowest;
}

int rr_episode_sim_input(const struct rr_episode *ep, const struct rr_state *st,
			 const struct rr_kernel_model *km, unsigned int page_shift,
			 uint64_t offline_delay_ns, struct rr_sim_input *in,
			 struct rr_error *err)
{
	const struct rr_memcg *root = ep->root_memcg_id ?
				      rr_state_find(st, ep->root_memcg_id) : NULL;
	const struct rr_memcg_vals *rv;
	struct walk_ctx w = { .ep = ep, .offline_delay_ns = offline_delay_ns,
			      .page_shift = page_shift };
	struct id_index *index = NULL;
	struct acc *acc = NULL;
	size_t *owner = NULL, nb = 0, no = 0;

	memset(in, 0, sizeof(*in));
	in->cursor = -1;
	if (!root || !rr_memcg_in_epoch(root, ep->epoch)) {
		rr_error_set(err, "", "episode %llu: reclaim root unknown",
			     (unsigned long long)ep->replay_seq);
		return -1;
	}
	if (preorder(&w, root, -1))
		goto oom;
	/* global reclaim walks every memcg of the machine: those whose parent
	 * the trace does not give (named by id only, e.g. dying before the
	 * snapshot) follow the root's subtree, by id (their place in the
	 * kernel's pre-order is not known; docs/kernel-model.md §23) */
	if (rr_kind_global(ep->kind) && orphans(&w, st, root))
		goto oom;
	in->memcgs = w.out;
	in->nr_memcgs = w.n;
	index = malloc(w.n * sizeof(*index));
	acc = calloc(w.n, sizeof(*acc));
	owner = malloc((ep->nr_batches + 1) * sizeof(*owner));
	in->outcomes = calloc(ep->nr_batches + 1, sizeof(*in->outcomes));
	in->boundaries = calloc(ep->nr_batches + 1, sizeof(*in->boundaries));
	if (!index || !acc || !owner || !in->outcomes || !in->boundaries)
		goto oom;
	for (size_t k = 0; k < w.n; k++) {
		index[k] = (struct id_index){ .id = w.out[k].id, .k = k };
		acc[k].last_prio = 99;
	}
	qsort(index, w.n, sizeof(*index), cmp_id);
	/* which memcg of the walk each batch belongs to; how many each has */
	for (size_t i = 0; i < ep->nr_batches; i++) {
		struct id_index key = { .id = ep->batches[i].memcg_id };
		const struct id_index *hit = key.id ? bsearch(&key, index, w.n, sizeof(key),
								cmp_id) : NULL;

		owner[i] = hit ? hit->k : SIZE_MAX;
		if (hit)
			acc[hit->k].nr_batches++;
	}
	/* each memcg's slice of the outcome and boundary storage, in walk order */
	for (size_t k = 0; k < w.n; k++) {
		w.out[k].recorded = &in->outcomes[no];
		w.out[k].boundaries = &in->boundaries[nb];
		no += acc[k].nr_batches;
		nb += acc[k].nr_batches;
	}
	for (size_t i = 0, nb_i = 0; i < ep->nr_batches; i++) {
		const uint64_t *sizes = NULL;

		/* a proactive episode keeps the sizes of its calls' boundary
		 * batches only (episodes.c rr_episode_add_call()) */
		if (ep->kind == RR_KIND_PROACTIVE) {
			while (nb_i < ep->nr_bounds && ep->bounds[nb_i].batch < i)
				nb_i++;
			if (nb_i < ep->nr_bounds && ep->bounds[nb_i].batch == i)
				sizes = ep->bounds[nb_i].lru_pages;
		} else if (ep->ctx && ep->ctx[i].valid) {
			sizes = ep->ctx[i].lru_pages;
		}
		if (owner[i] != SIZE_MAX)
			account(in, &w.out[owner[i]], &acc[owner[i]], ep, i, sizes);
	}
	for (size_t k = 0; k < w.n; k++) {
		const struct rr_memcg *m = rr_state_find(st, w.out[k].id);

		ratios(&w.out[k], &acc[k], &rr_memcg_at(m, ep->epoch)->stats);
	}
	free(index);
	free(acc);
	free(owner);

	rv = rr_memcg_at(root, ep->epoch);
	in->km = km;
	in->kind = ep->kind == RR_KIND_SOFTLIMIT || ep->kind == RR_KIND_PROACTIVE ||
		   rr_kind_global(ep->kind) ? ep->kind : RR_KIND_MEMCG;
	in->order = ep->order > 0 ? ep->order : 0;
	/* a costly-order direct call that stopped short of nr_to_reclaim above
	 * priority 0: compaction_ready() ended it after its last pass (the only
	 * other way out of the priority loop is the goal) */
	if (ep->kind == RR_KIND_DIRECT && ep->order > RR_PAGE_ALLOC_COSTLY_ORDER &&
	    ep->has_nr_reclaimed && ep->recorded_nr_reclaimed < RR_SWAP_CLUSTER_MAX) {
		int lowest = lowest_priority(ep);

		in->compaction_ready_known = lowest > 0;
		in->compaction_ready_priority = lowest;
	}
	if (ep->kind == RR_KIND_KSWAPD) {
		int lowest = lowest_priority(ep);

		in->kswapd_nr_to_reclaim_pages = ep->nr_to_reclaim_pages;
		/* the recorded run ended balanced once it had reclaimed what it
		 * did (inferred: the threshold lies between what it had before
		 * its last pass and that), or ran the ladder to priority 1 */
		in->balance_reclaim_pages = lowest <= 1 ? UINT64_MAX : ep->recorded_nr_reclaimed;
		/* the balance check at the top of the iteration that began the
		 * lowest priority failed: with what the batches before its first
		 * batch had reclaimed, the node was not balanced */
		if (lowest > 1) {
			uint64_t before = 0;

			for (size_t i = 0; i < ep->nr_batches && ep->batches[i].priority != lowest; i++)
				before += ep->batches[i].nr_reclaimed;
			in->balance_interval = true;
			in->balance_unbalanced_pages = before;
		}
	}
	/* EAGAIN: the write found nothing more to reclaim */
	in->recorded_exhausted = ep->kind == RR_KIND_PROACTIVE && ep->proactive_errno == 11;
	if (ep->kind == RR_KIND_PROACTIVE && ep->proactive_swappiness >= 0) {
		in->has_proactive_swappiness = true;
		in->proactive_swappiness = ep->proactive_swappiness;
	}
	in->nr_pages = ep->nr_to_reclaim_pages;
	in->passes = ep->passes;
	in->nr_passes = ep->nr_passes;
	in->episode_id = ep->replay_seq;
	in->start_ns = ep->start_ns;
	in->page_shift = page_shift;
	in->may_swap = true;
	in->swap_present = ep->swap_inferred_present;
	in->anon_cost = rv->anon_cost;
	in->file_cost = rv->file_cost;
	memcpy(in->root_rstat_lru_pages, w.out[0].rstat_lru_pages, sizeof(in->root_rstat_lru_pages));
	for (int t = 0; t < RR_NR_LRU_TYPES; t++)
		in->refaults_changed[t] = rv->refault_snapshot_valid &&
			rv->rstat_ws_activate[t] != rv->refault_snapshot[t];
	return 0;
oom:
	free(index);
	free(acc);
	free(owner);
	if (!in->memcgs)
		free(w.out);
	rr_episode_sim_input_free(in);
	rr_error_set(err, "", "out of memory");
	return -1;
}
