// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's memcg reclaim loops, in the order they nest:
 *
 *   rr_proactive_loop()      memory_reclaim() chunk loop (§10)
 *    do_try()                try_to_free_mem_cgroup_pages() / try_to_free_pages() +
 *                            do_try_to_free_pages(): priorities 12..0, retries (§7, §8.1, §23.3)
 *   kswapd_run()             balance_pgdat(): priorities 12..1, full walks (§23.2)
 *   node_run()               __node_reclaim(): priorities 4..0 (§23.4)
 *     walk()                 shrink_node_memcgs(): full or partial walk (§6, §6.3)
 *      shrink_lruvec()       batches of <= SWAP_CLUSTER_MAX, goal check, cut (§5)
 *       get_scan_count()     scan balance and per-list targets (§3)
 *
 * (sim-local.h names the file of each.)  This file holds the entry points,
 * rr_sim_run() and rr_sim_predict_call(), and the results.  The simulator
 * works on a private copy of the input memcgs, so one input can be
 * replayed under many policies.  One node is modelled.
 */
#include "sim-local.h"

#include "../common/swappiness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- results ---- */

void rr_sim_result_free(struct rr_sim_result *r)
{
	free(r->memcg_calls);
	free(r->memcg_reclaimed_pages);
	free(r->memcg_ids);
	free(r->targets);
	free(r->chunk_requests);
	free(r->chunk_reclaimed);
	memset(r, 0, sizeof(*r));
}

/* What one predicted call runs on: the call's memcg and input, zeroed
 * per-memcg counters, the run (rr_sim_predict_call() and
 * rr_sim_swappiness_run()). */
struct one_call {
	struct rr_sim_memcg m;
	struct rr_sim_input in;
	uint64_t scanned[1][RR_NR_LRU_TYPES], activated[1][RR_NR_LRU_TYPES];
	uint64_t deactivated[1][RR_NR_LRU_TYPES], requested[1][RR_NR_EVICTABLE_LRU];
	struct run r;
};

/* Set @c up for @ci as do_try() would reach its shrink_lruvec(), the
 * scan control prepared; its targets and batches go to @res and @out. */
static void one_call_setup(struct one_call *c, const struct rr_call_input *ci,
			   const struct rr_resolved_policy *policy, struct rr_sim_result *res,
			   struct rr_pred_batch *out, size_t cap, struct rr_error *err)
{
	struct rr_sim_input *in = &c->in;
	struct run *r = &c->r;

	memset(c, 0, sizeof(*c));
	rr_sim_result_clear(res);
	c->m = ci->memcg;
	in->km = ci->km;
	in->kind = ci->kind;
	in->nr_pages = ci->nr_to_reclaim;
	in->memcgs = &c->m;
	in->nr_memcgs = 1;
	in->page_shift = ci->page_shift;
	in->may_swap = ci->may_swap;
	in->swap_present = ci->swap_present;
	if (ci->kind == RR_KIND_DIRECT || ci->kind == RR_KIND_KSWAPD) {
		in->node_free_pages = ci->node_free_pages;
		in->node_high_wmark_pages = ci->node_high_wmark_pages;
	}
	in->anon_cost = ci->anon_cost;
	in->file_cost = ci->file_cost;
	memcpy(in->root_rstat_lru_pages, ci->root_rstat_lru_pages, sizeof(in->root_rstat_lru_pages));
	memcpy(in->refaults_changed, ci->refaults_changed, sizeof(in->refaults_changed));
	r->in = in;
	r->pol = policy;
	r->out = res;
	r->err = err;
	r->m = &c->m;
	r->sim_scanned = c->scanned;
	r->sim_requested = c->requested;
	r->sim_activated = c->activated;
	r->sim_deactivated = c->deactivated;
	r->anon_cost = ci->anon_cost;
	r->file_cost = ci->file_cost;
	r->pred = out;
	r->pred_cap = cap;
	r->feed = ci;
	r->priority = ci->priority;
	r->nr_to_reclaim = ci->nr_to_reclaim > RR_SWAP_CLUSTER_MAX ?
			   ci->nr_to_reclaim : RR_SWAP_CLUSTER_MAX;
	if (ci->kind == RR_KIND_DIRECT)
		r->nr_to_reclaim = RR_SWAP_CLUSTER_MAX;	/* try_to_free_pages() */
	if (ci->kind == RR_KIND_SOFTLIMIT) {
		r->sc_anon_cost = r->sc_file_cost = 0;	/* no prepare_scan_control() */
		return;
	}
	r->force_deactivate = ci->force_deactivate;
	r->no_cache_trim_mode = ci->no_cache_trim_mode;
	rr_sim_prepare_scan_control(r);
	if (ci->switches_known) {
		r->may_deactivate[RR_LRU_ANON] = ci->may_deactivate & 1;
		r->may_deactivate[RR_LRU_FILE] = ci->may_deactivate & 2;
		r->cache_trim_mode = ci->cache_trim_mode;
		r->file_is_tiny = ci->file_is_tiny;
	}
}

/* (one result and one call per thread, kept: the fidelity check predicts
 * a call per candidate input, and an allocation each was a tenth of a
 * plain trace's time) */
static __thread struct rr_sim_result one_res;
static __thread struct one_call one;

static void targets_of(const struct rr_sim_result *res, uint64_t targets[RR_NR_EVICTABLE_LRU])
{
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		targets[l] = 0;
	for (size_t i = 0; i < res->nr_targets; i++)
		targets[res->targets[i].lru] = res->targets[i].nr_pages;
}

int rr_sim_predict_call(const struct rr_call_input *ci,
			const struct rr_resolved_policy *policy,
			struct rr_pred_batch *out, size_t cap, size_t *nr_out,
			uint64_t targets[RR_NR_EVICTABLE_LRU], struct rr_error *err)
{
	int ret;

	one_call_setup(&one, ci, policy, &one_res, out, cap, err);
	ret = rr_sim_shrink_lruvec(&one.r, 0);
	targets_of(&one_res, targets);
	*nr_out = one.r.nr_pred;
	return ret;
}

/* The targets of the call set up in @c, at swappiness @s. */
static int targets_at(struct one_call *c, int s, uint64_t t[RR_NR_EVICTABLE_LRU])
{
	c->m.swappiness = s;
	rr_sim_result_clear(c->r.out);
	c->r.memcg_low_skipped = false;
	return rr_sim_get_scan_count(&c->r, 0, t);	/* (t: nr[], every list's target) */
}

int rr_sim_swappiness_run(const struct rr_call_input *ci, const struct rr_resolved_policy *policy,
			  int from, int to, const uint64_t t0[RR_NR_EVICTABLE_LRU], int *last,
			  struct rr_error *err)
{
	uint64_t t[RR_NR_EVICTABLE_LRU];
	int lo = from + 1, hi = to + 1;	/* targets(lo) == t0; hi: past the run */

	*last = from;
	if (from >= to)
		return 0;
	one_call_setup(&one, ci, policy, &one_res, NULL, 0, err);
	/* most runs are short: the next value first, then the last */
	if (targets_at(&one, from + 1, t))
		return -1;
	if (memcmp(t, t0, sizeof(t)))
		return 0;
	if (lo < to) {
		if (targets_at(&one, to, t))
			return -1;
		if (!memcmp(t, t0, sizeof(t)))
			lo = to;	/* flat: one run */
		else
			hi = to;
	}
	/* gallop, then bisect */
	for (int step = 1; lo + step < hi; step *= 2) {
		if (targets_at(&one, lo + step, t))
			return -1;
		if (memcmp(t, t0, sizeof(t))) {
			hi = lo + step;
			break;
		}
		lo += step;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (targets_at(&one, mid, t))
			return -1;
		*(memcmp(t, t0, sizeof(t)) ? &hi : &lo) = mid;
	}
	*last = lo;
	return 0;
}

/*
 * The working copy of a run's memcgs and its per-memcg counters, in one
 * block per thread that only grows: no allocation per run once it has
 * the size of the largest walk (the replay runs every policy on every
 * episode).
 */
static __thread struct {
	void *buf;
	size_t cap;
} work;

static int scratch(struct run *r, size_t n)
{
	size_t m = n * sizeof(*r->m), counters = n * (sizeof(*r->sim_scanned) +
		   sizeof(*r->sim_requested) + sizeof(*r->sim_activated) +
		   sizeof(*r->sim_deactivated) + sizeof(*r->rec_pos) + sizeof(*r->rec_off) +
		   sizeof(*r->removed));
	char *p;

	if (m + counters > work.cap) {
		void *b = realloc(work.buf, m + counters);

		if (!b)
			return -1;
		work.buf = b;
		work.cap = m + counters;
	}
	p = work.buf;
	r->m = (struct rr_sim_memcg *)p;
	p += m;
	memset(p, 0, counters);
	r->sim_scanned = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_scanned);
	r->sim_requested = (uint64_t (*)[RR_NR_EVICTABLE_LRU])p;
	p += n * sizeof(*r->sim_requested);
	r->sim_activated = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_activated);
	r->sim_deactivated = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_deactivated);
	r->rec_pos = (size_t (*)[RR_NR_EVICTABLE_LRU])p;
	p += n * sizeof(*r->rec_pos);
	r->rec_off = (uint64_t (*)[RR_NR_EVICTABLE_LRU])p;
	p += n * sizeof(*r->rec_off);
	r->removed = (uint64_t (*)[RR_NR_EVICTABLE_LRU])p;
	return 0;
}

void rr_sim_scratch_free(void)
{
	free(work.buf);
	work.buf = NULL;
	work.cap = 0;
}

void rr_sim_result_clear(struct rr_sim_result *r)
{
	struct rr_sim_result keep = *r;

	memset(r, 0, sizeof(*r));
	r->targets = keep.targets;
	r->cap_targets = keep.cap_targets;
	r->chunk_requests = keep.chunk_requests;
	r->chunk_reclaimed = keep.chunk_reclaimed;
	r->cap_chunks = keep.cap_chunks;
	r->memcg_calls = keep.memcg_calls;
	r->memcg_reclaimed_pages = keep.memcg_reclaimed_pages;
	r->memcg_ids = keep.memcg_ids;
	r->cap_memcg_slots = keep.cap_memcg_slots;
}

/* The per-memcg result arrays for @in's memcgs, zeroed (ids set); kept
 * across runs. */
static int memcg_slots(struct rr_sim_result *o, const struct rr_sim_input *in)
{
	size_t n = in->nr_memcgs;

	if (n > o->cap_memcg_slots) {
		uint64_t *c = realloc(o->memcg_calls, n * sizeof(*c));

		if (!c)
			return -1;
		o->memcg_calls = c;
		c = realloc(o->memcg_reclaimed_pages, n * sizeof(*c));
		if (!c)
			return -1;
		o->memcg_reclaimed_pages = c;
		c = realloc(o->memcg_ids, n * sizeof(*c));
		if (!c)
			return -1;
		o->memcg_ids = c;
		o->cap_memcg_slots = n;
	}
	memset(o->memcg_calls, 0, n * sizeof(*o->memcg_calls));
	memset(o->memcg_reclaimed_pages, 0, n * sizeof(*o->memcg_reclaimed_pages));
	for (size_t k = 0; k < n; k++)
		o->memcg_ids[k] = in->memcgs[k].id;
	o->nr_memcg_slots = n;
	return 0;
}

/* The plug-in ABI's number of a kind: fixed in policy.h, whatever order
 * the internal enum takes. */
static int policy_kind(enum rr_reclaim_kind kind)
{
	switch (kind) {
	case RR_KIND_MEMCG:
		return RR_POLICY_EPISODE_MEMCG;
	case RR_KIND_SOFTLIMIT:
		return RR_POLICY_EPISODE_SOFTLIMIT;
	case RR_KIND_DIRECT:
		return RR_POLICY_EPISODE_DIRECT;
	case RR_KIND_KSWAPD:
		return RR_POLICY_EPISODE_KSWAPD;
	case RR_KIND_NODE:
		return RR_POLICY_EPISODE_NODE;
	case RR_KIND_PROACTIVE:
		return RR_POLICY_EPISODE_PROACTIVE;
	default:
		return -1;	/* (the simulator runs no other kind) */
	}
}

const char *rr_proactive_swappiness_refused(const struct rr_kernel_model *km, int swappiness)
{
	if (swappiness < RR_MIN_SWAPPINESS || swappiness > RR_SWAPPINESS_ANON_ONLY)
		return "not 0..200 or max";
	if (!km->proactive_swappiness_key)
		return "the release has no swappiness= key in memory.reclaim (68cd9050d871, "
		       "v6.11): the write fails with EINVAL";
	if (swappiness == RR_SWAPPINESS_ANON_ONLY && !km->proactive_swappiness_max)
		return "the release has no swappiness=max in memory.reclaim (~v6.16): the "
		       "write fails with EINVAL";
	return NULL;
}

/* The swappiness= key of a request: only a proactive one has it, and only
 * what its release accepts (there is nothing to replay otherwise). */
static int check_proactive_swappiness(const struct rr_sim_input *in, struct rr_error *err)
{
	const char *why;

	int v = in->proactive_swappiness;

	if (!in->has_proactive_swappiness)
		return 0;
	if (in->kind != RR_KIND_PROACTIVE) {
		rr_error_set(err, "", "a swappiness= key is for a memory.reclaim write "
			     "(a proactive request), not a %s one", rr_reclaim_kind_name(in->kind));
		return -1;
	}
	if ((why = rr_proactive_swappiness_refused(in->km, v))) {
		rr_error_set(err, "", "kernel %s, memory.reclaim swappiness=%d: %s",
			     in->km->release, v, why);
		return -1;
	}
	return 0;
}

int rr_sim_run(const struct rr_sim_input *in, const struct rr_resolved_policy *policy,
	       struct rr_sim_result *out, struct rr_error *err)
{
	struct run r;
	uint64_t got = 0;
	int ret = -1;

	if (!in->nr_memcgs) {
		rr_error_set(err, "", "reclaim request with no memcg to reclaim from");
		return -1;
	}
	if (check_proactive_swappiness(in, err))
		return -1;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.pol = policy;
	r.out = out;
	r.err = err;
	r.anon_cost = in->anon_cost;
	r.file_cost = in->file_cost;
	r.cursor = in->cursor;
	/* before v5.4 the input's cursor is the priority-12 position, where
	 * a reclaim call's first walk starts; the other priorities' positions
	 * are not in the trace and start at the root */
	for (int p = 0; p <= RR_DEF_PRIORITY; p++)
		r.iter_pos[p] = -1;
	r.iter_pos[RR_DEF_PRIORITY] = in->cursor;
	if (scratch(&r, in->nr_memcgs) || memcg_slots(out, in)) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	memcpy(r.m, in->memcgs, in->nr_memcgs * sizeof(*r.m));
	out->lowest_priority = RR_DEF_PRIORITY;
	{
		struct rr_episode_args a = {
			.size = sizeof(a), .id = in->episode_id, .kind = policy_kind(in->kind),
			.nr_to_reclaim_pages = in->nr_pages,
			.root_memcg_id = in->memcgs[0].id, .start_ns = in->start_ns,
		};

		if (rr_policy_episode_begin(policy, &a, err))
			goto out;
	}

	if (in->kind == RR_KIND_PROACTIVE) {
		if (rr_proactive_loop(policy, in->nr_pages, rr_sim_do_try_cb, &r, out, err))
			goto out;
	} else {
		int ret2 = in->kind == RR_KIND_KSWAPD ? rr_sim_kswapd_run(&r, &got) :
			   in->kind == RR_KIND_NODE ? rr_sim_node_run(&r, &got) :
			   rr_sim_do_try(&r, in->nr_pages, &got);

		if (ret2)
			goto out;
		if (rr_sim_add_chunk(out, in->nr_pages, got)) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
		out->nr_reclaimed_pages = got;
	}
	out->cursor = in->km->limit_walk_stops && cgroup_reclaim(&r) ?
		      r.iter_pos[RR_DEF_PRIORITY] : r.cursor;
	{
		struct rr_episode_end_args a = {
			.size = sizeof(a), .id = in->episode_id,
			.nr_scanned_pages = out->nr_scanned_pages,
			.nr_reclaimed_pages = out->nr_reclaimed_pages, .nr_calls = out->calls,
			.lowest_priority = out->lowest_priority, .eagain = out->eagain,
		};

		if (rr_policy_episode_end(policy, &a, err))
			goto out;
	}
	ret = 0;
out:
	return ret;
}
