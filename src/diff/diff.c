// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-episode decision diff and the running totals (diff.h).  Nothing
 * here formats text: the renderers in src/output do.
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

const char *rr_outcome_name(enum rr_outcome o)
{
	switch (o) {
	case RR_OUTCOME_MET:
		return "met";
	case RR_OUTCOME_SHORT:
		return "short";
	case RR_OUTCOME_EAGAIN:
		return "eagain";
	}
	return "unknown";
}

static enum rr_outcome outcome(const struct rr_episode *ep, const struct rr_sim_result *r)
{
	if (r->eagain)
		return RR_OUTCOME_EAGAIN;
	/* kswapd works until the node is balanced, not to nr_to_reclaim */
	if (ep->kind == RR_KIND_KSWAPD)
		return r->kswapd_end == RR_KSWAPD_END_LADDER ? RR_OUTCOME_SHORT : RR_OUTCOME_MET;
	return r->nr_reclaimed_pages >= ep->nr_to_reclaim_pages ? RR_OUTCOME_MET : RR_OUTCOME_SHORT;
}

/* Reclaimed beyond nr_to_reclaim; none for a kswapd run (its
 * nr_to_reclaim is a per-pass scan target, it stops when balanced). */
static uint64_t over_reclaim(const struct rr_episode *ep, const struct rr_sim_result *r)
{
	if (ep->kind == RR_KIND_KSWAPD)
		return 0;
	return r->nr_reclaimed_pages > ep->nr_to_reclaim_pages ?
	       r->nr_reclaimed_pages - ep->nr_to_reclaim_pages : 0;
}

/*
 * The recorded requests, summed per (memcg, priority, lru) in the order
 * they first appear: the kernel's targets where the loop ran to its end
 * (active anon is a lower bound).  Consecutive batches of one (memcg,
 * priority) form one shrink_lruvec() call, so a sum runs over the batches
 * until the memcg or priority changes.
 */
static int recorded(struct rr_recorded_episode *r, const struct rr_episode *ep)
{
	size_t n = 0, call_start = 0;

	memset(r, 0, sizeof(*r));
	r->lowest_priority = RR_DEF_PRIORITY;
	r->targets = calloc(ep->nr_batches + 1, sizeof(*r->targets));
	if (!r->targets)
		return -1;
	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_batch *b = &ep->batches[i];
		size_t j;

		if (i && (b->memcg_id != ep->batches[i - 1].memcg_id ||
			  b->priority != ep->batches[i - 1].priority ||
			  b->call != ep->batches[i - 1].call))
			call_start = n;
		if (!i || call_start == n)
			r->lruvec_calls++;
		for (j = call_start; j < n; j++)
			if (r->targets[j].lru == b->lru)
				break;
		if (j == n)
			r->targets[n++] = (struct rr_scan_target){
				.memcg_id = b->memcg_id, .priority = b->priority,
				.lru = b->lru, .nr_pages = 0,
			};
		r->targets[j].nr_pages += b->nr_requested;
		if (b->priority >= 0 && b->priority < r->lowest_priority)
			r->lowest_priority = b->priority;
		if (!rr_lru_is_active(b->lru) && rr_lru_is_evictable(b->lru)) {
			r->nr_scanned_type[rr_lru_type(b->lru)] += b->nr_taken;
			r->nr_reclaimed_type[rr_lru_type(b->lru)] += b->nr_reclaimed;
		}
		if (!rr_lru_is_active(b->lru))
			r->nr_scanned += b->nr_taken;
		r->nr_reclaimed_by_batches += b->nr_reclaimed;
		r->scan_request_pages += b->nr_requested;
	}
	r->nr_targets = n;
	r->batches = ep->nr_batches;
	if (ep->probed)
		r->lruvec_calls = ep->kind == RR_KIND_PROACTIVE ? r->lruvec_calls : ep->nr_probes;
	for (size_t i = 0; i < n; i++) {	/* memcgs with a batch (targets: by call) */
		size_t k;

		for (k = 0; k < i && r->targets[k].memcg_id != r->targets[i].memcg_id; k++)
			;
		r->memcgs_scanned += k == i && r->targets[i].memcg_id;
	}
	r->nr_reclaimed = ep->recorded_nr_reclaimed;
	r->over_reclaim = r->nr_reclaimed > ep->nr_to_reclaim_pages ?
			  r->nr_reclaimed - ep->nr_to_reclaim_pages : 0;
	r->duration_ns = ep->end_ns - ep->start_ns;
	r->outcome = r->nr_reclaimed >= ep->nr_to_reclaim_pages ? RR_OUTCOME_MET :
		     RR_OUTCOME_SHORT;
	if (ep->kind == RR_KIND_KSWAPD) {	/* balanced, unless it reached priority 1 */
		r->outcome = r->lowest_priority > 1 ? RR_OUTCOME_MET : RR_OUTCOME_SHORT;
		r->over_reclaim = 0;
	}
	if (ep->kind == RR_KIND_PROACTIVE) {
		r->calls = ep->nr_calls;
		for (size_t i = 0; i < ep->nr_calls; i++)
			r->in_calls_ns += ep->calls[i].end_ns - ep->calls[i].start_ns;
		if (ep->proactive_errno == 11)	/* EAGAIN */
			r->outcome = RR_OUTCOME_EAGAIN;
	} else {
		r->calls = 1;
		r->in_calls_ns = r->duration_ns;
	}
	return 0;
}

/* Do the inactive-list targets of @r equal the recorded sums? */
static bool matches_recording(const struct rr_sim_result *r, const struct rr_recorded_episode *rec)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < r->nr_targets && rr_lru_is_active(r->targets[i].lru))
			i++;
		while (j < rec->nr_targets && rr_lru_is_active(rec->targets[j].lru))
			j++;
		if (i == r->nr_targets || j == rec->nr_targets)
			return i == r->nr_targets && j == rec->nr_targets;
		if (r->targets[i].memcg_id != rec->targets[j].memcg_id ||
		    r->targets[i].priority != rec->targets[j].priority ||
		    r->targets[i].lru != rec->targets[j].lru ||
		    r->targets[i].nr_pages != rec->targets[j].nr_pages)
			return false;
		i++;
		j++;
	}
}

/* The nr_pages of chunk @i as try_to_free_mem_cgroup_pages() floors it
 * (max(nr_pages, SWAP_CLUSTER_MAX)): chunks of 0 and 1 are the same call. */
static uint64_t floored_chunk(const struct rr_sim_result *r, size_t i)
{
	return r->chunk_requests[i] > RR_SWAP_CLUSTER_MAX ? r->chunk_requests[i] :
	       RR_SWAP_CLUSTER_MAX;
}

static bool same_result(const struct rr_sim_result *a, const struct rr_sim_result *b)
{
	if (a->nr_reclaimed_pages != b->nr_reclaimed_pages ||
	    a->nr_scanned_pages != b->nr_scanned_pages || a->calls != b->calls ||
	    a->nr_targets != b->nr_targets || a->eagain != b->eagain ||
	    a->nr_chunks != b->nr_chunks)
		return false;
	for (size_t i = 0; i < a->nr_chunks; i++)
		if (floored_chunk(a, i) != floored_chunk(b, i))
			return false;
	for (size_t i = 0; i < a->nr_targets; i++) {
		const struct rr_scan_target *x = &a->targets[i], *y = &b->targets[i];

		/* field by field: the struct has padding */
		if (x->memcg_id != y->memcg_id || x->priority != y->priority ||
		    x->lru != y->lru || x->nr_pages != y->nr_pages)
			return false;
	}
	return true;
}

static int cmp_key(const void *x, const void *y)
{
	const struct rr_scan_target *a = x, *b = y;

	if (a->memcg_id != b->memcg_id)
		return a->memcg_id < b->memcg_id ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority < b->priority ? -1 : 1;
	return a->lru < b->lru ? -1 : a->lru > b->lru;
}

/* The targets of @a whose (memcg, priority, lru) has no target in @b, as
 * indices into a->targets, in @a's order. */
static int only_in(const struct rr_sim_result *a, const struct rr_sim_result *b,
		   size_t **out, size_t *nr_out)
{
	struct rr_scan_target *keys = malloc((b->nr_targets + 1) * sizeof(*keys));
	size_t *idx = malloc((a->nr_targets + 1) * sizeof(*idx)), n = 0;

	if (!keys || !idx) {
		free(keys);
		free(idx);
		return -1;
	}
	if (b->nr_targets)	/* (b->targets is NULL when there are none) */
		memcpy(keys, b->targets, b->nr_targets * sizeof(*keys));
	qsort(keys, b->nr_targets, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < a->nr_targets; i++)
		if (!bsearch(&a->targets[i], keys, b->nr_targets, sizeof(*keys), cmp_key))
			idx[n++] = i;
	free(keys);
	*out = idx;
	*nr_out = n;
	return 0;
}

/* The first memory.reclaim call whose chunk differs from the baseline's. */
static void chunk_change(struct rr_change *c, const struct rr_sim_result *r,
			 const struct rr_sim_result *base)
{
	size_t n = r->nr_chunks > base->nr_chunks ? r->nr_chunks : base->nr_chunks;

	for (size_t i = 0; i < n; i++) {
		/* the same call when both floor alike (0 and 1 ask for 32) */
		uint64_t a = i < r->nr_chunks ? floored_chunk(r, i) : 0;
		uint64_t b = i < base->nr_chunks ? floored_chunk(base, i) : 0;

		if (a == b)
			continue;
		c->chunk_call = i + 1;
		c->chunk_has_policy = i < r->nr_chunks;
		c->chunk_has_baseline = i < base->nr_chunks;
		c->chunk_pages = c->chunk_has_policy ? r->chunk_requests[i] : 0;
		c->chunk_baseline_pages = c->chunk_has_baseline ? base->chunk_requests[i] : 0;
		return;
	}
}

static int change(struct rr_change *c, const struct rr_episode *ep,
		  const struct rr_sim_result *r, const struct rr_sim_result *base)
{
	c->nr_scanned_delta = (int64_t)(r->nr_scanned_pages - base->nr_scanned_pages);
	c->nr_reclaimed_delta = (int64_t)(r->nr_reclaimed_pages - base->nr_reclaimed_pages);
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		c->nr_scanned_type_delta[t] = (int64_t)(r->nr_scanned_type_pages[t] -
							base->nr_scanned_type_pages[t]);
		c->nr_reclaimed_type_delta[t] = (int64_t)(r->nr_reclaimed_type_pages[t] -
							  base->nr_reclaimed_type_pages[t]);
	}
	c->over_reclaim_delta_pages = (int64_t)over_reclaim(ep, r) - (int64_t)over_reclaim(ep, base);
	c->calls_delta = (int64_t)(r->calls - base->calls);
	c->lowest_priority_delta = r->lowest_priority - base->lowest_priority;
	chunk_change(c, r, base);
	if (only_in(r, base, &c->gained, &c->nr_gained) ||
	    only_in(base, r, &c->lost, &c->nr_lost))
		return -1;
	return 0;
}

int rr_diff_episode(struct rr_episode_diff *d, const struct rr_episode *ep,
		    const struct rr_state *names, uint64_t page_size_bytes, bool has_recording,
		    const struct rr_sim_result *results, int nr_policies, int baseline,
		    const char *skip_reason, bool all_episodes)
{
	memset(d, 0, sizeof(*d));
	d->ep = ep;
	d->names = names;
	d->id = ep->replay_seq;
	d->page_size_bytes = page_size_bytes;
	d->has_recording = has_recording;
	d->nr_policies = nr_policies;
	d->baseline = baseline;
	d->results = results;
	d->skip_reason = results ? NULL : skip_reason ? skip_reason : "unknown";
	if (has_recording && recorded(&d->recorded, ep))
		return -1;
	if (!results) {
		d->listed = true;	/* a skipped episode is always shown */
		return 0;
	}
	for (int i = 0; i < nr_policies; i++) {
		const struct rr_sim_result *r = &results[i];

		d->outcome[i] = outcome(ep, r);
		d->over_reclaim[i] = over_reclaim(ep, r);
		d->matches_recording[i] = has_recording && matches_recording(r, &d->recorded);
		d->differs[i] = i != baseline && !same_result(r, &results[baseline]);
		if (!d->differs[i])
			continue;
		d->nr_differing++;
		if (change(&d->changes[i], ep, r, &results[baseline])) {
			rr_diff_episode_free(d);
			return -1;
		}
	}
	/* episodes where no policy differs are counted, not listed */
	d->listed = all_episodes || d->nr_differing;
	return 0;
}

void rr_diff_episode_free(struct rr_episode_diff *d)
{
	free(d->recorded.targets);
	for (int i = 0; i < d->nr_policies; i++) {
		free(d->changes[i].gained);
		free(d->changes[i].lost);
	}
	memset(d, 0, sizeof(*d));
}

/* ---- running totals ---- */

void rr_totals_init(struct rr_totals *t, int nr_policies, int baseline, bool has_recording,
		    uint64_t page_size_bytes, int top_wanted)
{
	memset(t, 0, sizeof(*t));
	t->nr_policies = nr_policies;
	t->baseline = baseline;
	t->has_recording = has_recording;
	t->page_size_bytes = page_size_bytes;
	t->top_wanted = top_wanted > RR_TOP_MAX ? RR_TOP_MAX : top_wanted;
	t->recorded.lowest_priority = RR_DEF_PRIORITY;
	for (int i = 0; i < nr_policies; i++)
		t->policy[i].lowest_priority = RR_DEF_PRIORITY;
	for (int k = 0; k < RR_KIND__COUNT; k++) {
		t->kinds[k].recorded.lowest_priority = RR_DEF_PRIORITY;
		for (int i = 0; i < nr_policies; i++)
			t->kinds[k].policy[i].lowest_priority = RR_DEF_PRIORITY;
	}
	t->proactive.recorded.lowest_priority = RR_DEF_PRIORITY;
	for (int i = 0; i < nr_policies; i++)
		t->proactive.policy[i].lowest_priority = RR_DEF_PRIORITY;
}

/* The totals of @ep's reclaim root, made on first use; NULL on ENOMEM. */
static struct rr_cgroup_totals *cgroup_totals(struct rr_totals *t, const struct rr_episode *ep)
{
	struct rr_cgroup_totals *cg;

	HASH_FIND(hh, t->cgroups, &ep->root_memcg_id, sizeof(ep->root_memcg_id), cg);
	if (cg) {
		/* a name the trace gave later (a snapshot, a mkdir) replaces
		 * the stand-in "memcg_id=N" of the episodes before it */
		if (cg->path && ep->root_path && !strncmp(cg->path, "memcg_id=", 9) &&
		    strncmp(ep->root_path, "memcg_id=", 9)) {
			char *named = strdup(ep->root_path);

			if (named) {
				free(cg->path);
				cg->path = named;
			}
		}
		if (!cg->path && ep->root_path)
			cg->path = strdup(ep->root_path);
		return cg;
	}
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	cg->path = ep->root_path ? strdup(ep->root_path) : NULL;
	if (ep->root_path && !cg->path) {
		free(cg);
		return NULL;
	}
	cg->memcg_id = ep->root_memcg_id;
	HASH_ADD(hh, t->cgroups, memcg_id, sizeof(cg->memcg_id), cg);
	return cg;
}

uint64_t rr_diff_weight(const struct rr_episode_diff *d, int p)
{
	const struct rr_sim_result *r = &d->results[p], *base = &d->results[d->baseline];

	return (uint64_t)llabs((long long)(r->nr_reclaimed_pages - base->nr_reclaimed_pages)) +
	       (uint64_t)llabs((long long)(r->nr_scanned_pages - base->nr_scanned_pages)) +
	       (uint64_t)llabs((long long)(r->calls - base->calls));
}

/* Keep the --top episodes that differ most from the baseline. */
static void note_top(struct rr_totals *t, const struct rr_episode_diff *d, int p)
{
	const struct rr_sim_result *r = &d->results[p], *base = &d->results[d->baseline];
	struct rr_top top = {
		.episode = d->id, .start_ns = d->ep->start_ns, .policy = p,
		.delta_reclaimed = (int64_t)(r->nr_reclaimed_pages - base->nr_reclaimed_pages),
		.delta_scanned = (int64_t)(r->nr_scanned_pages - base->nr_scanned_pages),
		.delta_calls = (int64_t)(r->calls - base->calls),
	};
	int at;

	top.weight = rr_diff_weight(d, p);
	if (!t->top_wanted || !top.weight)
		return;
	for (at = 0; at < t->nr_top && t->top[at].weight >= top.weight; at++)
		;
	if (at >= t->top_wanted)
		return;
	top.cgroup = strdup(d->ep->root_path ? d->ep->root_path : "?");
	if (!top.cgroup)
		return;		/* the list is a courtesy; the JSON has it all */
	if (t->nr_top < t->top_wanted)
		t->nr_top++;
	else
		free(t->top[t->nr_top - 1].cgroup);	/* pushed off the end */
	memmove(&t->top[at + 1], &t->top[at], (size_t)(t->nr_top - at - 1) * sizeof(top));
	t->top[at] = top;
}

/* Count a skipped episode under its reason. */
static int skip_reason(struct rr_totals *t, const char *why)
{
	int i;

	for (i = 0; i < t->nr_skip_reasons; i++)
		if (!strcmp(t->skip_reasons[i].reason, why)) {
			t->skip_reasons[i].n++;
			return 0;
		}
	if (i == RR_SKIP_REASONS_MAX) {
		t->skips_other++;
		return 0;
	}
	/* (the reason may be the episode's: keep a copy) */
	t->skip_reasons[i].owned = strdup(why);
	if (!t->skip_reasons[i].owned)
		return -1;
	t->skip_reasons[i].reason = t->skip_reasons[i].owned;
	t->skip_reasons[i].n = 1;
	t->nr_skip_reasons++;
	return 0;
}

static void counts_add(struct rr_kind_counts *c, uint64_t scanned, uint64_t reclaimed,
		       uint64_t calls, uint64_t over, bool eagain)
{
	c->nr_scanned += scanned;
	c->nr_reclaimed += reclaimed;
	c->calls += calls;
	c->over_reclaim += over;
	c->eagain += eagain;
}

/* The per-type counts, memcgs and stop priority of one episode. */
static void detail_add(struct rr_kind_counts *c, const uint64_t scanned_type[RR_NR_LRU_TYPES],
		       const uint64_t reclaimed_type[RR_NR_LRU_TYPES], uint64_t memcgs,
		       int lowest_priority)
{
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		c->nr_scanned_type[t] += scanned_type[t];
		c->nr_reclaimed_type[t] += reclaimed_type[t];
	}
	c->memcgs_scanned += memcgs;
	if (lowest_priority < 0 || lowest_priority > RR_DEF_PRIORITY)
		lowest_priority = RR_DEF_PRIORITY;
	if (lowest_priority < c->lowest_priority)
		c->lowest_priority = lowest_priority;
	c->stop_priority[lowest_priority]++;
}

/* The distinct memcgs of @r's non-zero targets. */
static uint64_t memcgs_with_targets(const struct rr_sim_result *r)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->nr_targets; i++) {
		size_t k;

		if (!r->targets[i].nr_pages)
			continue;
		for (k = 0; k < i && (r->targets[k].memcg_id != r->targets[i].memcg_id ||
				      !r->targets[k].nr_pages); k++)
			;
		n += k == i;
	}
	return n;
}

static int supply(struct rr_kind_totals *k, uint64_t memcg_id, int slot, uint64_t pages)
{
	struct rr_supplier *s;

	if (!pages || !memcg_id)
		return 0;
	HASH_FIND(hh, k->suppliers, &memcg_id, sizeof(memcg_id), s);
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return -1;
		s->memcg_id = memcg_id;
		HASH_ADD(hh, k->suppliers, memcg_id, sizeof(s->memcg_id), s);
	}
	s->nr_reclaimed[slot] += pages;
	return 0;
}

/* Which memcgs supplied the pages of a global episode, per policy (the
 * simulator's per-memcg reclaim) and as recorded (the batches). */
static int suppliers_add(struct rr_kind_totals *k, const struct rr_episode_diff *d)
{
	for (int i = 0; i < d->nr_policies; i++) {
		const struct rr_sim_result *r = &d->results[i];

		for (size_t m = 0; r->memcg_ids && r->memcg_reclaimed_pages &&
		     m < r->nr_memcg_slots; m++)
			if (supply(k, r->memcg_ids[m], i, r->memcg_reclaimed_pages[m]))
				return -1;
	}
	for (size_t b = 0; d->has_recording && b < d->ep->nr_batches; b++)
		if (supply(k, d->ep->batches[b].memcg_id, RR_MAX_POLICIES,
			   d->ep->batches[b].nr_reclaimed))
			return -1;
	return 0;
}

static int kind_add(struct rr_kind_totals *k, const struct rr_episode_diff *d)
{
	k->replayed++;
	k->inferred += d->ep->proactive_inferred != NULL;
	for (int i = 0; i < d->nr_policies; i++) {
		const struct rr_sim_result *r = &d->results[i];

		counts_add(&k->policy[i], r->nr_scanned_pages, r->nr_reclaimed_pages, r->calls,
			   d->over_reclaim[i], r->eagain);
		detail_add(&k->policy[i], r->nr_scanned_type_pages, r->nr_reclaimed_type_pages,
			   memcgs_with_targets(r), r->lowest_priority);
		k->policy[i].lruvec_calls += r->shrink_lruvec_calls;
		k->policy[i].balance_undecidable += r->kswapd_balance_undecidable;
	}
	if (d->has_recording) {
		const struct rr_recorded_episode *r = &d->recorded;

		counts_add(&k->recorded, r->nr_scanned, r->nr_reclaimed, r->calls, r->over_reclaim,
			   r->outcome == RR_OUTCOME_EAGAIN);
		detail_add(&k->recorded, r->nr_scanned_type, r->nr_reclaimed_type, r->memcgs_scanned,
			   r->lowest_priority);
		k->recorded.lruvec_calls += r->lruvec_calls;
		k->recorded_duration_ns += r->duration_ns;
		k->recorded_in_calls_ns += r->in_calls_ns;
	}
	return rr_kind_global(d->ep->kind) ? suppliers_add(k, d) : 0;
}

static int cmp_supplier(const void *a, const void *b, void *slot)
{
	const struct rr_supplier *x = *(const struct rr_supplier *const *)a;
	const struct rr_supplier *y = *(const struct rr_supplier *const *)b;
	int p = *(const int *)slot;
	uint64_t u = x->nr_reclaimed[p], v = y->nr_reclaimed[p];

	if (u != v)
		return u > v ? -1 : 1;
	return x->memcg_id < y->memcg_id ? -1 : x->memcg_id > y->memcg_id;
}

size_t rr_kind_suppliers(const struct rr_kind_totals *k, int p, const struct rr_supplier **out,
			 size_t cap)
{
	size_t n = 0, total = HASH_COUNT(k->suppliers);
	const struct rr_supplier **v;
	struct rr_supplier *s, *tmp;

	if (!total || !cap || (v = malloc(total * sizeof(*v))) == NULL)
		return 0;
	HASH_ITER(hh, k->suppliers, s, tmp)
		if (s->nr_reclaimed[p])
			v[n++] = s;
	qsort_r(v, n, sizeof(*v), cmp_supplier, &p);
	if (n > cap)
		n = cap;
	memcpy(out, v, n * sizeof(*v));
	free(v);
	return n;
}

int rr_delta_bucket(int64_t delta)
{
	uint64_t m = delta < 0 ? (uint64_t)-(delta + 1) + 1 : (uint64_t)delta;
	int k = m ? 64 - __builtin_clzll(m) : 0;	/* m in [2^(k-1), 2^k) */

	return delta < 0 ? RR_DELTA_ZERO - k : RR_DELTA_ZERO + k;
}

int rr_totals_add(struct rr_totals *t, const struct rr_episode_diff *d)
{
	const struct rr_sim_result *base;
	struct rr_cgroup_totals *cg;

	t->nr_episodes++;
	t->nr_listed += d->listed;
	if (d->names)
		t->names = d->names;
	if (!d->results) {
		t->nr_skipped++;
		t->proactive.skipped += d->ep->kind == RR_KIND_PROACTIVE;
		t->kinds[d->ep->kind].skipped++;
		return skip_reason(t, d->skip_reason);
	}
	/* the recording over the same episodes as the policies' totals */
	if (d->has_recording) {
		const struct rr_recorded_episode *r = &d->recorded;

		t->recorded.nr_scanned += r->nr_scanned;
		t->recorded.nr_reclaimed += r->nr_reclaimed;
		t->recorded.batches += r->batches;
		t->recorded.scan_request_pages += r->scan_request_pages;
		if (r->lowest_priority < t->recorded.lowest_priority)
			t->recorded.lowest_priority = r->lowest_priority;
		t->recorded.calls += r->calls;
		t->recorded.over_reclaim += r->over_reclaim;
		t->recorded.duration_ns += r->duration_ns;
		t->recorded.in_calls_ns += r->in_calls_ns;
		t->recorded.eagain += r->outcome == RR_OUTCOME_EAGAIN;
	}
	if (d->ep->kind == RR_KIND_PROACTIVE && kind_add(&t->proactive, d))
		return -1;
	if (kind_add(&t->kinds[d->ep->kind], d))
		return -1;
	cg = cgroup_totals(t, d->ep);
	if (!cg)
		return -1;
	cg->episodes++;
	t->nr_replayed++;
	base = &d->results[d->baseline];
	for (int i = 0; i < d->nr_policies; i++) {
		struct rr_policy_totals *p = &t->policy[i];
		const struct rr_sim_result *r = &d->results[i];

		p->delta_hist[RR_DELTA_RECLAIMED][rr_delta_bucket(
			(int64_t)(r->nr_reclaimed_pages - base->nr_reclaimed_pages))]++;
		p->delta_hist[RR_DELTA_SCANNED][rr_delta_bucket(
			(int64_t)(r->nr_scanned_pages - base->nr_scanned_pages))]++;

		p->eagain += r->eagain;
		cg->p[i].nr_scanned += r->nr_scanned_pages;
		cg->p[i].nr_reclaimed += r->nr_reclaimed_pages;
		cg->p[i].calls += r->calls;
		cg->p[i].over_reclaim += d->over_reclaim[i];
		cg->p[i].episodes_differing += d->differs[i];
		p->nr_reclaimed_anon += r->nr_reclaimed_type_pages[RR_LRU_ANON];
		p->over_reclaim += d->over_reclaim[i];
		for (size_t k = 0; k < r->nr_targets; k++) {
			p->eligible_p12 += r->targets[k].priority == RR_DEF_PRIORITY;
			p->scan_target_pages += r->targets[k].nr_pages;
		}
		p->nr_scanned += r->nr_scanned_pages;
		p->nr_reclaimed += r->nr_reclaimed_pages;
		p->calls += r->calls;
		p->shrink_lruvec_calls += r->shrink_lruvec_calls;
		p->batches += r->batches;
		if (r->lowest_priority < p->lowest_priority)
			p->lowest_priority = r->lowest_priority;
		p->episodes_matching_recording += d->matches_recording[i];
		if (d->differs[i]) {
			p->episodes_differing++;
			note_top(t, d, i);
		}
	}
	return 0;
}

/* Paths in byte order (a reused name by id), unnamed cgroups last by id:
 * the same bytes every run. */
static int cgroup_cmp(const void *x, const void *y)
{
	const struct rr_cgroup_totals *a = *(const struct rr_cgroup_totals *const *)x;
	const struct rr_cgroup_totals *b = *(const struct rr_cgroup_totals *const *)y;

	int c;

	if (a->path && b->path && (c = strcmp(a->path, b->path)))
		return c;
	if (!a->path != !b->path)
		return a->path ? -1 : 1;
	return a->memcg_id < b->memcg_id ? -1 : a->memcg_id > b->memcg_id;
}

struct rr_cgroup_totals **rr_totals_cgroups(const struct rr_totals *t, size_t *n)
{
	struct rr_cgroup_totals **v = malloc((HASH_COUNT(t->cgroups) + 1) * sizeof(*v));
	struct rr_cgroup_totals *cg, *tmp;

	*n = 0;
	if (!v)
		return NULL;
	HASH_ITER(hh, t->cgroups, cg, tmp)
		v[(*n)++] = cg;
	qsort(v, *n, sizeof(*v), cgroup_cmp);
	return v;
}

void rr_totals_free(struct rr_totals *t)
{
	struct rr_cgroup_totals *cg, *tmp;

	for (int i = 0; i < t->nr_top; i++)
		free(t->top[i].cgroup);
	for (int i = 0; i < t->nr_skip_reasons; i++)
		free(t->skip_reasons[i].owned);
	HASH_ITER(hh, t->cgroups, cg, tmp) {
		HASH_DEL(t->cgroups, cg);
		free(cg->path);
		free(cg);
	}
	for (int k = 0; k < RR_KIND__COUNT; k++) {
		struct rr_supplier *s, *stmp;

		HASH_ITER(hh, t->kinds[k].suppliers, s, stmp) {
			HASH_DEL(t->kinds[k].suppliers, s);
			free(s);
		}
	}
	memset(t, 0, sizeof(*t));
}
