// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fidelity checks; see fidelity.h.  A call is the run of consecutive
 * batches of one episode with the same memcg and priority (one node is
 * modelled).  Predictions use the baseline policy's hooks, so a policy
 * plug-in could be scored the same way.
 */
#include "fidelity.h"

#include "../episode/episode.h"

#include <stdlib.h>
#include <string.h>

static const char *const uc_names[RR_UC__COUNT] = {
	[RR_UC_NO_ATTRIBUTION] = "no_attribution",
	[RR_UC_NO_PRIORITY] = "no_priority",
	[RR_UC_ONLINE_UNCERTAIN] = "online_state_uncertain",
	[RR_UC_NO_CONTEXT] = "no_context",
	[RR_UC_LOST_EVENTS] = "lost_events",
	[RR_UC_MGLRU] = "mglru",
	[RR_UC_RETRY_PASS] = "retry_pass",
	[RR_UC_ROOT_UNKNOWN] = "root_unknown",
	[RR_UC_SWAP_UNKNOWN] = "swap_unknown",
	[RR_UC_SWAPPINESS_UNKNOWN] = "swappiness_unknown",
	[RR_UC_NR_TO_RECLAIM] = "nr_to_reclaim_ambiguous",
	[RR_UC_ROOT_AMBIGUOUS] = "root_ambiguous",
	[RR_UC_FLUSH_UNKNOWN] = "flush_unknown",
	[RR_UC_DYING_SIZE] = "dying_memcg_size",
	[RR_UC_REFAULT_UNKNOWN] = "refaults_unknown",
	[RR_UC_TINY_UNKNOWN] = "file_is_tiny_unknown",
	[RR_UC_COST_UNKNOWN] = "root_cost_unknown",
	[RR_UC_CONCURRENT] = "size_changed_concurrently",
	[RR_UC_SIZE_DISPROVED] = "sizes_disproved",
	[RR_UC_PASS_UNKNOWN] = "pass_start_unknown",
	[RR_UC_ATTR_AMBIGUOUS] = "attribution_ambiguous",
	[RR_UC_ATTR_ASSUMED] = "attribution_assumed",
	[RR_UC_SIZES_STALE] = "sizes_stale",
};


const char *rr_unchecked_name(enum rr_unchecked reason)
{
	return reason < RR_UC__COUNT ? uc_names[reason] : "unknown";
}

/* Per-list totals of a batch sequence. */
static void totals(const struct rr_pred_batch *b, size_t n, uint64_t t[RR_NR_EVICTABLE_LRU])
{
	memset(t, 0, RR_NR_EVICTABLE_LRU * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		if (rr_lru_is_evictable(b[i].lru))
			t[b[i].lru] += b[i].nr_requested;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The root's entry in the captured ancestor chain of batch @i, or NULL. */
static int chain_index(const struct rr_batch_ctx *c, uint64_t root_id)
{
	for (int d = 0; d < c->depth; d++)
		if (c->chain[d].id == root_id)
			return d;
	return -1;
}

/* Describe the first call not exact; return whether the first list that
 * differs is an active one. */
static bool describe(char *buf, size_t len, const struct rr_state *st, uint64_t memcg,
		     int prio, const struct rr_pred_batch *rec, size_t nr_rec,
		     const struct rr_pred_batch *pred, size_t nr_pred)
{
	const struct rr_memcg *m = rr_state_find(st, memcg);
	uint64_t tr[RR_NR_EVICTABLE_LRU], tp[RR_NR_EVICTABLE_LRU];
	int l;

	totals(rec, nr_rec, tr);
	totals(pred, nr_pred, tp);
	for (l = 0; l < RR_NR_EVICTABLE_LRU && tr[l] == tp[l]; l++)
		;
	if (l == RR_NR_EVICTABLE_LRU) {
		snprintf(buf, len, "%s at priority %d: same totals, batches in another order "
			 "(%zu recorded, %zu predicted)", m ? m->path : "?", prio, nr_rec, nr_pred);
		return false;
	}
	snprintf(buf, len, "%s at priority %d: %s recorded %llu pages, predicted %llu",
		 m ? m->path : "?", prio, rr_lru_name(l), (unsigned long long)tr[l],
		 (unsigned long long)tp[l]);
	return rr_lru_is_active(l);
}

static int note_offline(struct rr_fidelity_facts *fx, uint64_t memcg_id, uint64_t ts_ns)
{
	struct rr_offline_seen *o;

	for (size_t i = 0; i < fx->nr_offline_seen; i++)
		if (fx->offline_seen[i].memcg_id == memcg_id)
			return 0;
	o = realloc(fx->offline_seen, (fx->nr_offline_seen + 1) * sizeof(*o));
	if (!o)
		return -1;
	fx->offline_seen = o;
	o[fx->nr_offline_seen++] = (struct rr_offline_seen){ memcg_id, ts_ns };
	return 0;
}

void rr_fidelity_facts_free(struct rr_fidelity_facts *fx)
{
	free(fx->offline_seen);
	fx->offline_seen = NULL;
	fx->nr_offline_seen = 0;
}

/* The free-running replay of the episode against the recording. */
static void trajectory(struct rr_fidelity_facts *fx, const struct rr_episode *ep,
		       const struct rr_sim_result *kr)
{
	bool calls = true;
	size_t k = 0;
	int lowest = RR_DEF_PRIORITY;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_batch *b = &ep->batches[i];

		if (b->priority < lowest)
			lowest = b->priority;
		if (rr_lru_is_active(b->lru))
			continue;	/* calls are compared by their inactive lists */
		if (i && b->memcg_id == ep->batches[i - 1].memcg_id &&
		    b->priority == ep->batches[i - 1].priority)
			continue;
		while (k < kr->nr_targets && (rr_lru_is_active(kr->targets[k].lru) ||
		       (k && kr->targets[k].memcg_id == kr->targets[k - 1].memcg_id &&
			kr->targets[k].priority == kr->targets[k - 1].priority)))
			k++;
		if (k >= kr->nr_targets || kr->targets[k].memcg_id != b->memcg_id ||
		    kr->targets[k].priority != b->priority) {
			calls = false;
			break;
		}
		k++;
	}
	while (calls && k < kr->nr_targets) {
		if (!rr_lru_is_active(kr->targets[k].lru) &&
		    !(k && kr->targets[k].memcg_id == kr->targets[k - 1].memcg_id &&
		      kr->targets[k].priority == kr->targets[k - 1].priority))
			calls = false;	/* the replay made more calls */
		k++;
	}
	fx->trajectory_checked = true;
	fx->same_calls = calls;
	fx->same_stop = kr->lowest_priority == lowest;
	fx->same_reclaimed = kr->nr_reclaimed_pages == ep->recorded_nr_reclaimed;
}

/*
 * Ladders that make no batch leave no event.  The model alone (no recorded
 * sizes or outcomes, which come from the kernel's later ladder) says
 * whether the first ones were silent, so that the first recorded ladder
 * ran with force_deactivate (docs/kernel-model.md §7).
 */
static int first_ladders_forced(const struct rr_sim_input *in,
				const struct rr_resolved_policy *kernel,
				const struct rr_sim_result *kernel_result, bool *forced,
				bool *no_trim, struct rr_error *err)
{
	struct rr_sim_input pure = *in;
	struct rr_sim_result pr;
	int ret;

	*forced = kernel_result->first_batch_forced;
	*no_trim = kernel_result->first_batch_no_cache_trim;
	if (*forced || *no_trim)
		return 0;
	memset(&pr, 0, sizeof(pr));
	pure.memcgs = malloc(in->nr_memcgs * sizeof(*pure.memcgs));
	if (!pure.memcgs) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	memcpy(pure.memcgs, in->memcgs, in->nr_memcgs * sizeof(*pure.memcgs));
	for (size_t k = 0; k < in->nr_memcgs; k++) {
		pure.memcgs[k].nr_recorded = 0;
		pure.memcgs[k].nr_boundaries = 0;
	}
	/* (a failing hook already failed the baseline's run: this fails on
	 * memory, and says so) */
	ret = rr_sim_run(&pure, kernel, &pr, err);
	if (!ret) {
		*forced = pr.first_batch_forced;
		*no_trim = pr.first_batch_no_cache_trim;
	}
	rr_sim_result_free(&pr);
	free(pure.memcgs);
	return ret;
}

/* Was the call inside the rmdir -> offline window judged?  Both online
 * states are predicted: the call is scored only if they agree; if just
 * one matches the recording, that is the state the kernel saw. */

/* Field by field: the struct has padding that memcmp() would compare. */
static bool same_batches(const struct rr_pred_batch *a, size_t na,
			 const struct rr_pred_batch *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].lru != b[i].lru || a[i].nr_requested != b[i].nr_requested)
			return false;
	return true;
}

/*
 * Evidence of swap (docs/kernel-model.md §19.3): under SCAN_FILE (what a
 * memcg without reclaimable anon gets, get_scan_count() rule 1) an online,
 * unprotected memcg's inactive-file target is size >> priority, and the
 * loop's first batch asks for min(target, SWAP_CLUSTER_MAX).  A first
 * request below min(32, size >> priority) had a smaller target: the
 * fraction was below 1, so anon pages were reclaimable.  @c: the context
 * at the call's start.
 */
static bool proves_swap(const struct rr_batch_ctx *c, int prio, const struct rr_pred_batch *rec,
			size_t n)
{
	uint64_t full, first = 0;

	if (!c->valid || !c->online || c->in_window || c->online_unknown || !c->unprotected ||
	    prio < 0 || prio > RR_DEF_PRIORITY)
		return false;
	for (size_t k = 0; k < n && !first; k++)
		if (rec[k].lru == RR_LRU_INACTIVE_FILE)
			first = rec[k].nr_requested ? rec[k].nr_requested : UINT64_MAX;
	full = c->lru_pages[RR_LRU_INACTIVE_FILE] >> prio;
	if (full > RR_SWAP_CLUSTER_MAX)
		full = RR_SWAP_CLUSTER_MAX;
	return first && first != UINT64_MAX && first < full;
}

/*
 * The nr_to_reclaim values that fit the episode's checkpoints (low, high]
 * (infer.c): max(2^k, SWAP_CLUSTER_MAX), ascending.  Above the episode's
 * whole reclaim every value acts alike (no call's own reclaim reaches it),
 * so the list ends with the first such one.  Return: how many (<= @cap).
 */
static size_t nr_to_reclaim_candidates(const struct rr_episode *ep, uint64_t *out, size_t cap)
{
	size_t n = 0;

	/* direct and node reclaim: the kernel's rules give it; kswapd: the
	 * zones' watermarks, when recorded (else any value) */
	if (ep->kind != RR_KIND_SOFTLIMIT && ep->kind != RR_KIND_PROACTIVE && !ep->proactive &&
	    ep->kind != RR_KIND_DIRECT && ep->kind != RR_KIND_NODE &&
	    !(ep->kind == RR_KIND_KSWAPD && ep->nr_to_reclaim_pages))
		n = rr_nr_to_reclaim_fits(ep->nr_to_reclaim_low, ep->nr_to_reclaim_high,
					  ep->recorded_nr_reclaimed, out, cap);
	if (!n)		/* (the kernel's rules give it, or nothing fits) */
		out[n++] = ep->nr_to_reclaim_pages;
	return n;
}

/* kswapd_age_node() (mm/vmscan.c, v6.1+; age_active_anon() before):
 * shrink_active_list(SWAP_CLUSTER_MAX, active anon) on every memcg in
 * pre-order from the root, each one active anon isolate of 32 pages,
 * empty lists included, before the iteration's walk.  A run of at least
 * two such batches on distinct memcgs that begins at the root memcg is
 * one; return the index after it, or @i when batch @i begins none. */
static size_t age_node_run(const struct rr_episode *ep, size_t i)
{
	size_t j = i;

	while (j < ep->nr_batches && ep->batches[j].lru == RR_LRU_ACTIVE_ANON &&
	       ep->batches[j].nr_requested == RR_SWAP_CLUSTER_MAX &&
	       (j == i ? ep->batches[j].memcg_id == RR_ROOT_MEMCG_ID :
			 ep->batches[j].memcg_id != ep->batches[j - 1].memcg_id &&
			 ep->batches[j].memcg_id != RR_ROOT_MEMCG_ID))
		j++;
	return j - i >= 2 ? j : i;
}

/* Did a call of the pass that began at batch @from visit batch @i's
 * memcg?  (Bounded: past RR_PASS_SCAN_MAX batches back it says no.) */
#define RR_PASS_SCAN_MAX 4096
static bool visited_in_pass(const struct rr_episode *ep, size_t from, size_t i)
{
	uint64_t id = ep->batches[i].memcg_id;

	if (i - from > RR_PASS_SCAN_MAX)
		from = i - RR_PASS_SCAN_MAX;
	/* (the batch right before, of the same memcg, is the same call) */
	for (size_t k = from; k + 1 < i; k++)
		if (ep->batches[k].memcg_id == id && ep->batches[k + 1].memcg_id != id)
			return true;
	return false;
}

/* Does @ci predict @pred (@nr_pred batches)?  @alt is scratch. */
static int predicts(const struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		    const struct rr_pred_batch *pred, size_t nr_pred, struct rr_pred_batch *alt,
		    size_t cap, bool *same, struct rr_error *err)
{
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	size_t nr_alt = 0;

	if (rr_sim_predict_call(ci, kernel, alt, cap, &nr_alt, targets, err))
		return -1;
	if (nr_alt > cap)
		nr_alt = cap;
	*same = same_batches(alt, nr_alt, pred, nr_pred);
	return 0;
}

/* What prepare_scan_control() reads of one candidate reclaim root. */
struct root_inputs {
	uint64_t anon_cost, file_cost;
	uint64_t rstat_lru_pages[RR_NR_EVICTABLE_LRU];
	/* the exact hierarchical sizes when the call began: its view had a
	 * flush come just before (where flushes are not in the trace) */
	uint64_t hier_lru_pages[RR_NR_EVICTABLE_LRU];
	uint64_t anon_cost_fresh, file_cost_fresh;	/* halved against those */
	bool refaults_changed[RR_NR_LRU_TYPES];
};

/* The admissible values of the hidden inputs of one call; [0] of each is
 * the one the call is predicted with first. */
struct hidden {
	bool swap[2];
	int nr_swap;
	int swappiness[4];
	int nr_swappiness;
	uint64_t nr_to_reclaim[48];
	size_t nr_nr_to_reclaim;
	struct root_inputs roots[5];
	int nr_roots;
	/* 2 where no flush is in the trace: the rstat views as last known, or
	 * flushed just before the call; the memcg's own exact hierarchical
	 * sizes for the second */
	int nr_flush;
	uint64_t memcg_hier_lru_pages[RR_NR_EVICTABLE_LRU];
	/* a dying memcg's sizes (exact and its own rstat view alike): the
	 * lower bounds, the upper ones, and the two mixes that most and least
	 * favour inactive_is_low(); a list's target grows with its size */
	int nr_size;
	uint64_t size_lru_pages[4][RR_NR_EVICTABLE_LRU];
	/* the root's refaults_changed[] (anon, file) where no
	 * snapshot_refaults() of it is in the trace yet: each combination */
	int nr_refault;
	bool refault[4][RR_NR_LRU_TYPES];
	/* file_is_tiny (global reclaim): the node's high watermarks as the
	 * call's input, free pages 0 (0/0 never tiny), per value */
	int nr_tiny;
	uint64_t tiny_high[2];
	/* the root's cost pair before the trace (global reclaim): added to
	 * the pair the trace gives, at the ends of its range */
	int nr_cost;
	int64_t cost_anon_add[3], cost_file_add[3];
	/* other tasks' LRU deltas between the decision and the batch: the
	 * call's sizes at both ends of their range (rr_batch_ctx conc_*) */
	int nr_conc;
	uint64_t conc_lru_pages[3][RR_NR_EVICTABLE_LRU];
	/* global reclaim: a later pass at the same priority may have begun
	 * before this call without a batch to show it (kswapd's next
	 * iteration visiting other memcgs, a should_continue_reclaim()
	 * repeat): the root's inputs as of the call itself */
	int nr_pass;
	struct root_inputs pass_alt;
	/* a memcg outside the recorder's view (rr_batch_ctx online_unknown):
	 * online, or offline (dying): its scrape and its rounding differ */
	int nr_online;
};

/*
 * The nr_to_reclaim values that can change one call's prediction, into @h
 * ([0] = @base, the episode's): the loop is fed the recorded reclaim, so
 * the call's own reclaim never exceeds the sum @sum of its @n batches', and
 * every value above it acts like any other (no cut): of those, one stands
 * for all.
 */
static void call_candidates(struct hidden *h, uint64_t base, const uint64_t *cands, size_t nr,
			    const uint64_t *rec_reclaimed, size_t n)
{
	uint64_t sum = 0;
	bool above = false;

	for (size_t k = 0; k < n; k++)
		sum += rec_reclaimed[k];
	h->nr_to_reclaim[0] = base;
	h->nr_nr_to_reclaim = 1;
	above = base > sum;
	for (size_t k = 0; k < nr; k++) {
		if (cands[k] == base || (cands[k] > sum && above))
			continue;
		above |= cands[k] > sum;
		h->nr_to_reclaim[h->nr_nr_to_reclaim++] = cands[k];
	}
}

/*
 * The hidden inputs of a global reclaim call (docs/kernel-model.md §23),
 * into @h, with @ci holding value [0] of each:
 *  - a dying memcg's list sizes (a lower bound from the deltas, an upper
 *    one from the start snapshot's hierarchical sizes): both ends, and the
 *    mixes at the ends of inactive_is_low();
 *  - the root's refaults_changed[] before the first snapshot_refaults()
 *    of the trace (do_try_to_free_pages(), balance_pgdat() take one at
 *    their end): every combination;
 *  - file_is_tiny (prepare_scan_control(): node file + free pages <= the
 *    zones' high watermarks): free pages are snapshotted only, so where
 *    the file pages alone do not rule it out, both.
 * Return: true when a dying memcg's sizes have no upper bound (the call
 * cannot be judged), else false.
 */
static bool global_hidden(struct hidden *h, struct rr_call_input *ci, const struct rr_episode *ep,
			  size_t i, int pass_start, int d, const struct rr_state *st)
{
	const struct rr_batch_ctx *c = &ep->ctx[i];
	const struct rr_node_snapshot *node;
	struct rr_node_tiny tiny;
	uint64_t file;
	bool known;

	h->nr_size = h->nr_refault = h->nr_tiny = h->nr_cost = 1;
	if (!rr_kind_global(ep->kind))
		return false;
	/* the anon share of SCAN_FRACT falls as anon_cost grows and rises
	 * with file_cost: the two ends of the range stand for all of it */
	{
		const struct rr_batch_ctx *cx = &ep->ctx[pass_start];
		const uint64_t *un = cx->chain[d].cost_uncertain;
		uint64_t u = cx->chain[d].cost_unknown;
		/* other tasks' notes between the decision and the batch: the
		 * pair the decision read lies in [lo, hi] per type */
		uint64_t lo[2] = { ci->anon_cost, ci->file_cost }, hi[2] = { ci->anon_cost, ci->file_cost };

		if (cx->chain[d].cost_range)
			for (int t = 0; t < 2; t++) {
				lo[t] = cx->chain[d].cost_lo[t] < lo[t] ? cx->chain[d].cost_lo[t] : lo[t];
				hi[t] = cx->chain[d].cost_hi[t] > hi[t] ? cx->chain[d].cost_hi[t] : hi[t];
			}
		const uint64_t *ph = cx->chain[d].cost_pre_halving;
		/* candidate pairs: the ends of the range, and one halving more
		 * or less than ours since the pair before the last one */
		uint64_t cand[6][2] = {
			{ hi[0] + u + un[RR_LRU_ANON], lo[1] },
			{ lo[0], hi[1] + u + un[RR_LRU_FILE] },
			{ lo[0] > ph[0] / 4 ? lo[0] - ph[0] / 4 : 0, lo[1] > ph[1] / 4 ? lo[1] - ph[1] / 4 : 0 },
			{ hi[0] + ph[0] / 2 + u + un[RR_LRU_ANON], hi[1] + ph[1] / 2 + u + un[RR_LRU_FILE] },
			{ lo[0] + ph[0] / 2, hi[1] + ph[1] / 2 + u + un[RR_LRU_FILE] },
			{ hi[0] + ph[0] / 2 + u + un[RR_LRU_ANON], lo[1] + ph[1] / 2 },
		};
		int nc = ph[0] || ph[1] ? 6 : 2, lo_k = 0, hi_k = 0;

		if (u || un[0] || un[1] || lo[0] != hi[0] || lo[1] != hi[1] || ph[0] || ph[1]) {
			/* get_scan_count()'s anon share grows with (T + F) / (T + A),
			 * T = A + F: the candidates at its two ends stand for all */
			for (int k = 1; k < nc; k++) {
				long double rk = (long double)(cand[k][0] + 2 * cand[k][1] + 2) /
						 (long double)(2 * cand[k][0] + cand[k][1] + 2);
				long double rl = (long double)(cand[lo_k][0] + 2 * cand[lo_k][1] + 2) /
						 (long double)(2 * cand[lo_k][0] + cand[lo_k][1] + 2);
				long double rh = (long double)(cand[hi_k][0] + 2 * cand[hi_k][1] + 2) /
						 (long double)(2 * cand[hi_k][0] + cand[hi_k][1] + 2);

				if (rk < rl)
					lo_k = k;
				if (rk > rh)
					hi_k = k;
			}
			/* (as additions to the pair [0] holds) */
			h->cost_anon_add[0] = h->cost_file_add[0] = 0;
			h->cost_anon_add[1] = (int64_t)cand[lo_k][0] - (int64_t)ci->anon_cost;
			h->cost_file_add[1] = (int64_t)cand[lo_k][1] - (int64_t)ci->file_cost;
			h->cost_anon_add[2] = (int64_t)cand[hi_k][0] - (int64_t)ci->anon_cost;
			h->cost_file_add[2] = (int64_t)cand[hi_k][1] - (int64_t)ci->file_cost;
			h->nr_cost = 3;
		}
	}
	if (c->sizes_bounded) {
		uint64_t *lb = h->size_lru_pages[0], ub[RR_NR_EVICTABLE_LRU];

		for (int t = 0; t < RR_NR_LRU_TYPES; t++)
			if (c->size_ub_type[t] == UINT64_MAX)
				return true;
		memcpy(lb, ci->memcg.lru_pages, sizeof(ci->memcg.lru_pages));
		memcpy(ci->memcg.rstat_lru_pages, lb, sizeof(ci->memcg.rstat_lru_pages));
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			uint64_t u = c->size_ub_type[rr_lru_type(l)];

			ub[l] = u > lb[l] ? u : lb[l];
		}
		memcpy(h->size_lru_pages[1], ub, sizeof(ub));
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			h->size_lru_pages[2][l] = rr_lru_is_active(l) ? ub[l] : lb[l];
			h->size_lru_pages[3][l] = rr_lru_is_active(l) ? lb[l] : ub[l];
		}
		h->nr_size = 4;
	}
	if (!ep->ctx[pass_start].chain[d].refault_known) {
		for (int v = 0; v < 4; v++) {
			h->refault[v][RR_LRU_ANON] = v & 1;
			h->refault[v][RR_LRU_FILE] = v & 2;
		}
		memcpy(ci->refaults_changed, h->refault[0], sizeof(ci->refaults_changed));
		h->nr_refault = 4;
	}
	/* (the simulator reads the node's file pages from the root's view) */
	file = ci->root_rstat_lru_pages[RR_LRU_INACTIVE_FILE] +
	       ci->root_rstat_lru_pages[RR_LRU_ACTIVE_FILE];
	node = rr_state_node_at(st, 0, ep->batches[i].ts_ns);
	known = node && !rr_node_tiny_inputs(node, &tiny);
	ci->node_free_pages = ci->node_high_wmark_pages = 0;	/* never tiny */
	if (known && file > tiny.high_sum)
		return false;	/* ruled out by the file pages alone */
	/* (free pages 0 at the watermarks' sum, or at no bound: tiny when
	 * the other conditions hold) */
	h->tiny_high[0] = 0;
	h->tiny_high[1] = known ? tiny.high_sum : UINT64_MAX;
	h->nr_tiny = 2;
	return false;
}

enum { H_SWAP, H_SWAPPINESS, H_NR_TO_RECLAIM, H_ROOT, H_FLUSH, H_SIZE, H_REFAULT, H_TINY,
       H_COST, H_CONC, H_PASS, H_ONLINE, H__COUNT };

static const enum rr_unchecked h_reason[H__COUNT] = {
	RR_UC_SWAP_UNKNOWN, RR_UC_SWAPPINESS_UNKNOWN, RR_UC_NR_TO_RECLAIM, RR_UC_ROOT_AMBIGUOUS,
	RR_UC_FLUSH_UNKNOWN, RR_UC_DYING_SIZE, RR_UC_REFAULT_UNKNOWN, RR_UC_TINY_UNKNOWN,
	RR_UC_COST_UNKNOWN, RR_UC_CONCURRENT, RR_UC_PASS_UNKNOWN, RR_UC_ONLINE_UNCERTAIN,
};

static size_t h_count(const struct hidden *h, int dim)
{
	switch (dim) {
	case H_SWAP:
		return (size_t)h->nr_swap;
	case H_SWAPPINESS:
		return (size_t)h->nr_swappiness;
	case H_NR_TO_RECLAIM:
		return h->nr_nr_to_reclaim;
	case H_ROOT:
		return (size_t)h->nr_roots;
	case H_FLUSH:
		return (size_t)h->nr_flush;
	case H_SIZE:
		return h->nr_size > 0 ? (size_t)h->nr_size : 1;
	case H_REFAULT:
		return h->nr_refault > 0 ? (size_t)h->nr_refault : 1;
	case H_TINY:
		return h->nr_tiny > 0 ? (size_t)h->nr_tiny : 1;
	case H_COST:
		return h->nr_cost > 0 ? (size_t)h->nr_cost : 1;
	case H_CONC:
		return h->nr_conc > 0 ? (size_t)h->nr_conc : 1;
	case H_ONLINE:
		return h->nr_online > 0 ? (size_t)h->nr_online : 1;
	default:
		return h->nr_pass > 0 ? (size_t)h->nr_pass : 1;
	}
}

/* The cost pair's value @v: an addition (of either sign) to the pair the
 * other inputs gave, none below 0. */
static void cost_add(struct rr_call_input *ci, const struct hidden *h, size_t v)
{
	int64_t a = (int64_t)ci->anon_cost + h->cost_anon_add[v];
	int64_t f = (int64_t)ci->file_cost + h->cost_file_add[v];

	ci->anon_cost = a > 0 ? (uint64_t)a : 0;
	ci->file_cost = f > 0 ? (uint64_t)f : 0;
}

/* Set @ci's inputs to value @k[dim] of each input (@base holds the
 * memcg's own rstat view as last known). */
static void h_apply(struct rr_call_input *ci, const struct rr_call_input *base,
		    const struct hidden *h, const size_t k[H__COUNT])
{
	const struct root_inputs *ri = &h->roots[k[H_ROOT]];
	bool flushed = k[H_FLUSH] > 0;

	*ci = *base;
	ci->swap_present = h->swap[k[H_SWAP]];
	ci->memcg.swappiness = h->swappiness[k[H_SWAPPINESS]];
	ci->nr_to_reclaim = h->nr_to_reclaim[k[H_NR_TO_RECLAIM]];
	if (h->nr_conc > 1)
		memcpy(ci->memcg.lru_pages, h->conc_lru_pages[k[H_CONC]], sizeof(ci->memcg.lru_pages));
	if (h->nr_online > 1)
		ci->memcg.online = !k[H_ONLINE];
	if (h->nr_pass > 1 && k[H_PASS]) {
		ci->anon_cost = h->pass_alt.anon_cost;
		ci->file_cost = h->pass_alt.file_cost;
		memcpy(ci->root_rstat_lru_pages, h->pass_alt.rstat_lru_pages,
		       sizeof(ci->root_rstat_lru_pages));
		memcpy(ci->refaults_changed, h->pass_alt.refaults_changed,
		       sizeof(ci->refaults_changed));
	}
	if (h->nr_size > 1) {
		memcpy(ci->memcg.lru_pages, h->size_lru_pages[k[H_SIZE]], sizeof(ci->memcg.lru_pages));
		memcpy(ci->memcg.rstat_lru_pages, h->size_lru_pages[k[H_SIZE]],
		       sizeof(ci->memcg.rstat_lru_pages));
	}
	if (h->nr_tiny > 1) {
		ci->node_free_pages = 0;
		ci->node_high_wmark_pages = h->tiny_high[k[H_TINY]];
	}
	if (!k[H_ROOT] && !flushed) {
		if (h->nr_refault > 1)
			memcpy(ci->refaults_changed, h->refault[k[H_REFAULT]],
			       sizeof(ci->refaults_changed));
		if (h->nr_cost > 1)
			cost_add(ci, h, k[H_COST]);
		return;
	}
	ci->anon_cost = flushed ? ri->anon_cost_fresh : ri->anon_cost;
	ci->file_cost = flushed ? ri->file_cost_fresh : ri->file_cost;
	memcpy(ci->root_rstat_lru_pages, flushed ? ri->hier_lru_pages : ri->rstat_lru_pages,
	       sizeof(ci->root_rstat_lru_pages));
	memcpy(ci->refaults_changed, ri->refaults_changed, sizeof(ci->refaults_changed));
	if (flushed && h->nr_size <= 1)
		memcpy(ci->memcg.rstat_lru_pages, h->memcg_hier_lru_pages,
		       sizeof(ci->memcg.rstat_lru_pages));
	if (h->nr_refault > 1)
		memcpy(ci->refaults_changed, h->refault[k[H_REFAULT]], sizeof(ci->refaults_changed));
	if (h->nr_cost > 1)
		cost_add(ci, h, k[H_COST]);
}

/* The next combination of the inputs' admissible values after @k (a
 * mixed-radix count); false after the last. */
static bool h_next(const struct hidden *h, size_t k[H__COUNT])
{
	for (int dim = 0; dim < H__COUNT; dim++) {
		if (++k[dim] < h_count(h, dim))
			return true;
		k[dim] = 0;
	}
	return false;
}

/* How many combinations of the open inputs' values there are. */
static size_t h_combos(const struct hidden *h)
{
	size_t n = 1;

	for (int dim = 0; dim < H__COUNT; dim++)
		n *= h_count(h, dim);
	return n;
}

/*
 * Is the call's prediction the same under every admissible value of the
 * inputs the trace does not give?  *@why is RR_UC__COUNT if so, else the
 * input that changes it (the first one that does alone; the first open
 * one when only a combination does).  Every combination is tried:
 * swappiness matters only with swap, nr_to_reclaim only where a call's own
 * reclaim reaches it.  Each list's target is monotone in swappiness from 1
 * up (the anon weight grows with it), and 0 is its own rule, so 0, 1 and
 * the release's maximum stand for every value.  @ci must hold value [0]
 * of each input.
 */
static int undecidable(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		       const struct hidden *h, const struct rr_pred_batch *pred, size_t nr_pred,
		       struct rr_pred_batch *alt, size_t cap, enum rr_unchecked *why,
		       struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	size_t k[H__COUNT] = { 0 };
	bool same;
	int ret = 0, first_open = -1;

	*why = RR_UC__COUNT;
	/* one input at a time, for the label */
	for (int dim = 0; dim < H__COUNT && *why == RR_UC__COUNT; dim++) {
		if (h_count(h, dim) > 1 && first_open < 0)
			first_open = dim;
		for (size_t v = 1; v < h_count(h, dim) && *why == RR_UC__COUNT; v++) {
			memset(k, 0, sizeof(k));
			k[dim] = v;
			h_apply(ci, &base, h, k);
			if ((ret = predicts(ci, kernel, pred, nr_pred, alt, cap, &same, err)))
				goto out;
			if (!same)
				*why = h_reason[dim];
		}
	}
	if (*why != RR_UC__COUNT || first_open < 0)
		goto out;
	/* then every combination of two or more changed inputs (a mixed-radix
	 * count over the inputs' admissible values) */
	memset(k, 0, sizeof(k));
	while (h_next(h, k)) {
		int changed = 0;

		for (int dim = 0; dim < H__COUNT; dim++)
			changed += k[dim] > 0;
		if (changed < 2)
			continue;	/* tried above */
		h_apply(ci, &base, h, k);
		if ((ret = predicts(ci, kernel, pred, nr_pred, alt, cap, &same, err)))
			goto out;
		if (!same) {
			*why = h_reason[first_open];
			break;
		}
	}
out:
	*ci = base;
	return ret;
}

/* Do swappiness @a and @b (swap present, the other inputs at value [0])
 * predict the same batches?  @pa, @pb are scratch. */
static int same_at(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		   const struct hidden *h, int a, int b, struct rr_pred_batch *pa,
		   struct rr_pred_batch *pb, size_t cap, bool *same, struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	struct hidden one = *h;
	size_t k[H__COUNT] = { 0 }, na = 0, nb = 0;
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	int ret;

	one.swap[0] = true;
	one.nr_swap = 1;
	one.swappiness[0] = a;
	h_apply(ci, &base, &one, k);
	ret = rr_sim_predict_call(ci, kernel, pa, cap, &na, targets, err);
	if (!ret) {
		ci->memcg.swappiness = b;
		ret = rr_sim_predict_call(ci, kernel, pb, cap, &nb, targets, err);
	}
	*same = !ret && same_batches(pa, na < cap ? na : cap, pb, nb < cap ? nb : cap) &&
		na <= cap && nb <= cap;
	*ci = base;
	return ret;
}

/*
 * Does some admissible combination of the other hidden inputs
 * (nr_to_reclaim, root, flush; swappiness too if @swappiness < 0) predict
 * the recorded call @rec exactly, with swap presence @swap (and swappiness
 * @swappiness if >= 0)?  The evidence of pass 0 asks this, so that "only
 * one explains it" never rests on one chosen value of another input.
 */
static int fits_any(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		    const struct hidden *h, bool swap, int swappiness,
		    const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
		    size_t cap, bool *fits, struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	struct hidden one = *h;
	size_t k[H__COUNT] = { 0 };
	int ret = 0;

	one.swap[0] = swap;
	one.nr_swap = 1;
	if (swappiness >= 0) {
		one.swappiness[0] = swappiness;
		one.nr_swappiness = 1;
	}
	*fits = false;
	do {
		h_apply(ci, &base, &one, k);
		if ((ret = predicts(ci, kernel, rec, n, alt, cap, fits, err)) || *fits)
			break;
	} while (h_next(&one, k));
	*ci = base;
	return ret;
}

/*
 * Pass 0 of rr_fidelity_check() where swap presence is open: does the
 * recorded call fit only one of "no swap" and "swap" (with any admissible
 * swappiness)?  The structural rule of proves_swap() counts for "swap"
 * whatever the fractions.  Sets nothing but the evidence counts.
 */
static int swap_evidence(struct rr_fidelity_facts *fx, struct rr_call_input *ci,
			 const struct rr_resolved_policy *kernel, const struct hidden *h,
			 const struct rr_batch_ctx *c, const struct rr_pred_batch *rec, size_t n,
			 struct rr_pred_batch *alt, size_t cap, struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	bool fits_absent, fits_present = false;
	int ret = 0;

	if (proves_swap(c, ci->priority, rec, n)) {
		fx->swap_present_calls++;
		return 0;
	}
	if ((ret = fits_any(ci, kernel, h, false, h->swappiness[0], rec, n, alt, cap,
			    &fits_absent, err)) ||
	    (ret = fits_any(ci, kernel, h, true, -1, rec, n, alt, cap, &fits_present, err)))
		goto out;
	if (fits_present != fits_absent) {
		if (fits_present)
			fx->swap_present_calls++;
		else
			fx->swap_absent_calls++;
	}
out:
	*ci = base;
	return ret;
}

/*
 * Into @h: the swappiness values s <= @max with @count[s] == @best, as 0
 * (if among them) and the smallest and largest others; each list's target
 * is monotone in swappiness from 1 up, so those two stand for the values
 * between.
 */
static void admissible_swappiness(struct hidden *h, const uint64_t *count, int max, uint64_t best)
{
	int lo = -1, hi = -1;
	bool zero = false;

	for (int s = 0; s <= max; s++) {
		if (count[s] != best)
			continue;
		if (!s) {
			zero = true;
			continue;
		}
		if (lo < 0)
			lo = s;
		hi = s;
	}
	h->nr_swappiness = 0;
	if (lo >= 0)
		h->swappiness[h->nr_swappiness++] = lo;
	if (hi > lo)
		h->swappiness[h->nr_swappiness++] = hi;
	if (zero)
		h->swappiness[h->nr_swappiness++] = 0;
}

/*
 * Pass 0: add the call to its memcg's swappiness fit (swap present):
 * which of the release's swappiness values predict it exactly.
 */
static int fit_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
			  const struct rr_resolved_policy *kernel, const struct hidden *h,
			  const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
			  struct rr_pred_batch *alt2, size_t cap, struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	struct rr_swappiness_fit *fit;
	int max = ci->km->swappiness_max;
	bool same;
	int ret = 0;

	HASH_FIND(hh, trace->swappiness_fits, &ci->memcg.id, sizeof(ci->memcg.id), fit);
	if (!fit) {
		fit = calloc(1, sizeof(*fit));
		if (!fit) {
			rr_error_set(err, "", "out of memory");
			return -1;
		}
		fit->memcg_id = ci->memcg.id;
		HASH_ADD(hh, trace->swappiness_fits, memcg_id, sizeof(fit->memcg_id), fit);
	}
	fit->calls++;
	if (max > RR_MAX_SWAPPINESS)
		max = RR_MAX_SWAPPINESS;
	/* 0 is its own rule; from 1 up each target is monotone in swappiness,
	 * so where 1 and the maximum predict the same batches, every value
	 * between does (a SCAN_FILE call, a memcg without anon): one answer */
	if ((ret = fits_any(ci, kernel, h, true, 0, rec, n, alt, cap, &same, err)))
		goto out;
	fit->match[0] += same;
	if (h_combos(h) == 1 && max >= 1) {
		bool flat;

		if ((ret = same_at(ci, kernel, h, 1, max, alt, alt2, cap, &flat, err)))
			goto out;
		if (flat) {
			if ((ret = fits_any(ci, kernel, h, true, 1, rec, n, alt, cap, &same, err)))
				goto out;
			for (int s = 1; s <= max; s++)
				fit->match[s] += same;
			goto out;
		}
	}
	for (int s = 1; s <= max; s++) {
		if ((ret = fits_any(ci, kernel, h, true, s, rec, n, alt, cap, &same, err)))
			break;
		fit->match[s] += same;
	}
out:
	*ci = base;
	return ret;
}

/*
 * Pass 1: the swappiness values the memcg's *other* calls fit best (this
 * call's own match taken out of the counts: leave-one-out), into @h as 0
 * (if admissible) and the smallest and largest other admissible values;
 * each list's target is monotone in swappiness from 1 up, so those two
 * stand for the values between.  *@fitted false (and @h untouched): no
 * other call fits any value, nothing is known.
 */
static int fitted_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
			     const struct rr_resolved_policy *kernel,
			     const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
			     size_t cap, struct hidden *h, bool *fitted, bool in_fit,
			     struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	uint64_t top = 0, best = 0, loo[RR_MAX_SWAPPINESS + 1];
	struct rr_swappiness_fit *fit;
	int max = ci->km->swappiness_max, ret = 0;
	bool same;

	*fitted = false;
	HASH_FIND(hh, trace->swappiness_fits, &ci->memcg.id, sizeof(ci->memcg.id), fit);
	if (!fit || fit->calls < (in_fit ? 2 : 1))
		return 0;
	if (max > RR_MAX_SWAPPINESS)
		max = RR_MAX_SWAPPINESS;
	for (int s = 0; s <= max; s++)
		if (fit->match[s] > top)
			top = fit->match[s];
	/* only values within one call of the best can be best without this one */
	ci->swap_present = true;
	for (int s = 0; s <= max; s++) {
		loo[s] = 0;
		if (fit->match[s] + 1 < top || !fit->match[s])
			continue;
		/* (pass 0 has not added this call yet: nothing to take out) */
		same = false;
		ci->memcg.swappiness = s;
		if (in_fit && (ret = predicts(ci, kernel, rec, n, alt, cap, &same, err)))
			goto out;
		loo[s] = fit->match[s] - same;
		if (loo[s] > best)
			best = loo[s];
	}
	if (!best)
		goto out;
	admissible_swappiness(h, loo, max, best);
	*fitted = true;
out:
	*ci = base;
	return ret;
}

void rr_fidelity_free(struct rr_fidelity *f)
{
	struct rr_swappiness_fit *fit, *tmp;

	HASH_ITER(hh, f->swappiness_fits, fit, tmp) {
		HASH_DEL(f->swappiness_fits, fit);
		free(fit);
	}
}

/* Score one judged call: @rec recorded against @pred predicted. */
static void score(struct rr_fidelity_facts *fx, const struct rr_state *st, uint64_t memcg_id,
		  int prio, const struct rr_pred_batch *rec, size_t n,
		  const struct rr_pred_batch *pred, size_t nr_pred)
{
	uint64_t tr[RR_NR_EVICTABLE_LRU], tp[RR_NR_EVICTABLE_LRU];
	bool within = true, off1 = true;

	fx->checked++;
	totals(rec, n, tr);
	totals(pred, nr_pred, tp);
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
		within &= absdiff(tr[l], tp[l]) <= RR_SWAP_CLUSTER_MAX;
		off1 &= absdiff(tr[l], tp[l]) <= 1;
	}
	if (same_batches(rec, n, pred, nr_pred)) {
		fx->exact++;
		fx->within_one_batch++;
		return;
	}
	if (off1)
		fx->off_by_one++;
	if (within)
		fx->within_one_batch++;
	else
		fx->mismatched++;
	if (!fx->not_exact++)
		fx->first_on_active = describe(fx->first, sizeof(fx->first), st, memcg_id, prio,
					       rec, n, pred, nr_pred);
}

/* The swappiness values a memcg's calls fit best (no leave-one-out: for a
 * call that is not in the fit), as fitted_swappiness() puts them in @h. */
static bool fit_of(const struct rr_fidelity *trace, uint64_t memcg_id, int max, struct hidden *h)
{
	const struct rr_swappiness_fit *fit;
	uint64_t top = 0;

	if (!trace)
		return false;
	HASH_FIND(hh, trace->swappiness_fits, &memcg_id, sizeof(memcg_id), fit);
	if (!fit)
		return false;
	if (max > RR_MAX_SWAPPINESS)
		max = RR_MAX_SWAPPINESS;
	for (int s = 0; s <= max; s++)
		if (fit->match[s] > top)
			top = fit->match[s];
	if (!top)
		return false;
	admissible_swappiness(h, fit->match, max, top);
	return true;
}

/*
 * A memcg the walk visited between two recorded calls of one pass without
 * a batch (docs/kernel-model.md §19.1): predicted on its captured state
 * with the call's root inputs (@tmpl).  Predicted silent: counted apart
 * (silent); predicted batches: a judged call, never exact, counted in
 * predicted_unrecorded too.  Where the kernel may have skipped it
 * (memory.min/low) or its online state is a guess, it is not judged (nor
 * where another task's walk shared the cursor: the caller).
 */
static int judge_silent(struct rr_fidelity_facts *fx, const struct rr_state *st,
			const struct rr_call_input *tmpl, const struct rr_resolved_policy *kernel,
			const struct rr_silent_ctx *s, const struct rr_fidelity *trace,
			const struct hidden *h0, int prio, struct rr_pred_batch *pred,
			struct rr_pred_batch *alt, size_t cap, struct rr_error *err)
{
	struct rr_call_input ci = *tmpl;
	struct hidden h = *h0;
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	enum rr_unchecked why = RR_UC__COUNT;
	size_t nr_pred = 0;

	/* (a recorder that saw a subtree: where the memcgs only events name
	 * sit in the tree is not known -- their paths start at the
	 * hierarchy's root, the snapshot's at the view's -- nor whether the
	 * walk's memcgs outside it are online) */
	if (s->protected_ || s->in_window || st->view_root_id) {
		fx->silent_unjudged++;
		return 0;
	}
	ci.memcg.id = s->memcg_id;
	ci.memcg.online = s->online;
	ci.memcg.swappiness = s->swappiness;
	memcpy(ci.memcg.lru_pages, s->lru_pages, sizeof(ci.memcg.lru_pages));
	/* the open inputs of the recorded call's own memcg (other tasks'
	 * deltas on it, a dying memcg's sizes, its online state) are not this
	 * one's: they overwrote its sizes with the call's, and a silent visit
	 * before a call with concurrent deltas was never judged */
	h.nr_conc = h.nr_size = h.nr_online = 1;
	memcpy(ci.memcg.rstat_lru_pages, s->rstat_lru_pages, sizeof(ci.memcg.rstat_lru_pages));
	ci.recorded = NULL;
	ci.recorded_reclaimed = NULL;
	ci.nr_recorded = 0;
	/* flushed just before: its own exact hierarchical sizes (h0 holds the
	 * recorded call's memcg's) */
	if (h.nr_flush > 1) {
		if (!s->hier_valid) {
			fx->unchecked[RR_UC_FLUSH_UNKNOWN]++;
			return 0;
		}
		memcpy(h.memcg_hier_lru_pages, s->hier_lru_pages, sizeof(h.memcg_hier_lru_pages));
	}
	h.nr_swappiness = 1;
	h.swappiness[0] = s->swappiness;
	if (!s->swappiness_known) {
		const int each[] = { 0, 1, ci.km->swappiness_max };
		bool fitted = (h.nr_swap > 1 || h.swap[0]) &&
			      fit_of(trace, s->memcg_id, ci.km->swappiness_max, &h);

		for (size_t k = 0; !fitted && k < sizeof(each) / sizeof(each[0]); k++)
			if (each[k] != h.swappiness[0])
				h.swappiness[h.nr_swappiness++] = each[k];
		ci.memcg.swappiness = h.swappiness[0];
	}
	if (rr_sim_predict_call(&ci, kernel, pred, cap, &nr_pred, targets, err))
		return -1;
	if (nr_pred > cap)
		nr_pred = cap;
	if (h_combos(&h) > 1 &&
	    undecidable(&ci, kernel, &h, pred, nr_pred, alt, cap, &why, err))
		return -1;
	if (why != RR_UC__COUNT) {
		fx->unchecked[why]++;
		return 0;
	}
	if (!nr_pred) {
		fx->silent++;
		return 0;
	}
	fx->predicted_unrecorded++;
	score(fx, st, s->memcg_id, prio, NULL, 0, pred, nr_pred);
	return 0;
}

static int window_call(struct rr_fidelity_facts *fx, struct rr_call_input *ci,
		       const struct rr_resolved_policy *kernel, const struct rr_pred_batch *rec,
		       size_t n, const struct rr_pred_batch *pred, size_t nr_pred,
		       struct rr_pred_batch *alt, size_t cap, const struct rr_batch *b,
		       bool *judged, struct rr_error *err)
{
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	size_t nr_alt = 0;
	bool pred_ok, alt_ok, online_ok, offline_ok;

	*judged = true;
	ci->memcg.online = !ci->memcg.online;
	if (rr_sim_predict_call(ci, kernel, alt, cap, &nr_alt, targets, err))
		return -1;
	if (nr_alt > cap)
		nr_alt = cap;
	if (same_batches(alt, nr_alt, pred, nr_pred))
		return 0;
	pred_ok = same_batches(rec, n, pred, nr_pred);
	alt_ok = same_batches(rec, n, alt, nr_alt);
	/* ci->memcg.online is now the alternative's state */
	online_ok = ci->memcg.online ? alt_ok : pred_ok;
	offline_ok = ci->memcg.online ? pred_ok : alt_ok;
	*judged = false;
	if (offline_ok && !online_ok && note_offline(fx, b->memcg_id, b->ts_ns)) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	return 0;
}

int rr_fidelity_check(const struct rr_episode *ep, const struct rr_state *st,
		      const struct rr_kernel_model *km, unsigned int page_shift,
		      const struct rr_resolved_policy *kernel, const struct rr_sim_input *in,
		      const struct rr_sim_result *kernel_result,
		      struct rr_fidelity *trace,
		      struct rr_fidelity_facts *fx, struct rr_error *err)
{
	bool first_ladder_forced = false, first_ladder_no_trim = false, open_swappiness = false;
	uint64_t ev_present, ev_absent, cands[48];
	size_t nr_cands;
	struct hidden h = { .nr_swap = 1 };
	struct rr_pred_batch *rec = NULL, *pred = NULL, *alt = NULL, *spred = NULL;
	size_t sk = 0;
	uint64_t *rec_reclaimed = NULL;
	bool episode_ok = true, retry = false, new_walk = false;
	int pass_start = -1, prev_prio = 99;
	size_t cap = ep->nr_batches + 8, pcap = cap * 2 + 64;
	int ret = -1;

	memset(fx, 0, sizeof(*fx));
	if (in && kernel_result &&
	    first_ladders_forced(in, kernel, kernel_result, &first_ladder_forced,
				 &first_ladder_no_trim, err))
		return -1;
	rec = calloc(cap, sizeof(*rec));
	pred = calloc(pcap, sizeof(*pred));
	alt = calloc(pcap, sizeof(*alt));
	spred = calloc(pcap, sizeof(*spred));
	rec_reclaimed = calloc(cap, sizeof(*rec_reclaimed));
	if (!rec || !pred || !alt || !spred || !rec_reclaimed) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	nr_cands = nr_to_reclaim_candidates(ep, cands, sizeof(cands) / sizeof(cands[0]));
	/*
	 * Swap presence, where neither the option, the recorder's marker nor
	 * an anon batch said: pass 0 gathers this episode's evidence, added to
	 * the earlier episodes'; one-sided evidence decides it (a fitted
	 * value, said so in the output), none or both ways leave it open.
	 */
	h.swap[0] = ep->swap_inferred_present;
	for (size_t i = 0; i < ep->nr_batches && ep->ctx && trace; i++)
		open_swappiness |= ep->ctx[i].valid && !ep->ctx[i].swappiness_known;
	for (int pass = ep->swap_known && !open_swappiness ? 1 : 0; pass < 2; pass++) {
		if (pass == 1 && !ep->swap_known) {
			ev_present = fx->swap_present_calls + (trace ? trace->swap_present_calls : 0);
			ev_absent = fx->swap_absent_calls + (trace ? trace->swap_absent_calls : 0);
			if (ev_present && !ev_absent) {
				h.swap[0] = true;
			} else if (ev_absent && !ev_present) {
				h.swap[0] = false;
			} else {
				h.swap[1] = !h.swap[0];
				h.nr_swap = 2;
			}
		}
		retry = false;
		pass_start = -1;
		prev_prio = 99;
		new_walk = false;
		for (size_t i = 0; i < ep->nr_batches;) {
			const struct rr_batch *b = &ep->batches[i];
			size_t j = i, n = 0, nr_pred = 0;
			enum rr_unchecked why = RR_UC__COUNT;
			uint64_t targets[RR_NR_EVICTABLE_LRU];
			bool fitted, root_lost;
			struct rr_call_input ci;
			int d;

			/* kswapd_age_node(): one active anon batch on every memcg
			 * before the walk, not a shrink_lruvec() call */
			if (ep->kind == RR_KIND_KSWAPD && (j = age_node_run(ep, i)) > i) {
				if (pass == 1)
					fx->age_node_batches += j - i;
				i = j;
				new_walk = true;	/* the iteration's walk follows */
				continue;
			}
			j = i;
			while (j < ep->nr_batches && ep->batches[j].memcg_id == b->memcg_id &&
			       ep->batches[j].priority == b->priority)
				j++;
			/* a new priority pass starts where the priority changes; going
			 * back up means a retry ladder of do_try_to_free_pages() */
			/* global reclaim: a walk visits a memcg once, so one visited
			 * again begins another pass at the same priority (kswapd's
			 * next iteration, a should_continue_reclaim() repeat): its
			 * own prepare_scan_control() */
			if (rr_kind_global(ep->kind) && pass_start >= 0 && !new_walk)
				new_walk = visited_in_pass(ep, (size_t)pass_start, i);
			if (b->priority != prev_prio || new_walk) {
				if (b->priority > prev_prio)
					retry = true;
				pass_start = (int)i;
				prev_prio = b->priority;
			}
			new_walk = false;
			for (size_t k = i; k < j; k++) {
				rec[n] = (struct rr_pred_batch){ ep->batches[k].lru, ep->batches[k].nr_requested };
				rec_reclaimed[n++] = ep->batches[k].nr_reclaimed;
				if (ep->batches[k].mglru)
					why = RR_UC_MGLRU;
				else if (ep->batches[k].attr == RR_ATTR_AMBIGUOUS)
					why = RR_UC_ATTR_AMBIGUOUS;
				else if (ep->batches[k].attr == RR_ATTR_ASSUMED)
					why = RR_UC_ATTR_ASSUMED;
				else if (k == i && ep->ctx && ep->ctx[k].valid && ep->ctx[k].sizes_stale &&
					 why == RR_UC__COUNT)
					why = RR_UC_SIZES_STALE;
				else if (ep->ctx && ep->ctx[k].valid && ep->ctx[k].size_disproved &&
					 why == RR_UC__COUNT)
					why = RR_UC_SIZE_DISPROVED;
			}
			if (!b->memcg_id)
				why = RR_UC_NO_ATTRIBUTION;
			else if (b->priority < 0)
				why = RR_UC_NO_PRIORITY;
			else if (ep->first_lost_ns && ep->first_lost_ns <= b->ts_ns)
				why = RR_UC_LOST_EVENTS;
			else if (retry)
				why = RR_UC_RETRY_PASS;
			else if (!ep->ctx[i].valid)
				why = RR_UC_NO_CONTEXT;
			else if (!ep->ctx[pass_start].valid)
				why = RR_UC_NO_CONTEXT;
			d = why == RR_UC__COUNT ? chain_index(&ep->ctx[pass_start], ep->root_memcg_id) : -1;
			if (why == RR_UC__COUNT && d < 0)
				why = RR_UC_ROOT_UNKNOWN;
			if (why == RR_UC__COUNT &&
			    (ep->ctx[pass_start].hier_missing || ep->ctx[i].hier_missing))
				why = RR_UC_FLUSH_UNKNOWN;
			if (why == RR_UC__COUNT && pass == 0 && ep->ctx[i].in_window)
				why = RR_UC_ONLINE_UNCERTAIN;	/* no evidence from here */
			if (why != RR_UC__COUNT) {
				if (pass == 0) {
					i = j;
					continue;
				}
				fx->unchecked[why]++;
				episode_ok = false;
				i = j;
				continue;
			}

			memset(&ci, 0, sizeof(ci));
			ci.km = km;
			ci.kind = ep->kind == RR_KIND_SOFTLIMIT || rr_kind_global(ep->kind) ?
				  ep->kind : RR_KIND_MEMCG;
			ci.page_shift = page_shift;
			ci.priority = b->priority;
			ci.nr_to_reclaim = ep->nr_to_reclaim_pages ? ep->nr_to_reclaim_pages : cands[0];
			call_candidates(&h, ci.nr_to_reclaim, cands, nr_cands, rec_reclaimed, n);
			ci.memcg.id = b->memcg_id;
			ci.memcg.parent = -1;
			ci.memcg.online = ep->ctx[i].online;
			ci.memcg.swappiness = ep->ctx[i].swappiness;
			memcpy(ci.memcg.lru_pages, ep->ctx[i].lru_pages, sizeof(ci.memcg.lru_pages));
			memcpy(ci.memcg.rstat_lru_pages, ep->ctx[i].chain[0].rstat_lru_pages,
			       sizeof(ci.memcg.rstat_lru_pages));
			ci.may_swap = true;
			ci.swap_present = h.swap[0];
			ci.anon_cost = ep->ctx[pass_start].chain[d].anon_cost;
			ci.file_cost = ep->ctx[pass_start].chain[d].file_cost;
			memcpy(ci.root_rstat_lru_pages, ep->ctx[pass_start].chain[d].rstat_lru_pages,
			       sizeof(ci.root_rstat_lru_pages));
			memcpy(ci.refaults_changed, ep->ctx[pass_start].chain[d].refaults_changed,
			       sizeof(ci.refaults_changed));
			/* the root's inputs, and those of the other admissible roots */
			h.nr_roots = 0;
			root_lost = false;
			for (int r = -1; r < ep->nr_root_alternatives && h.nr_roots < 5; r++) {
				int dr = r < 0 ? d : chain_index(&ep->ctx[pass_start],
								 ep->root_alternatives[r]);
				struct root_inputs *ri = &h.roots[h.nr_roots];

				if (dr < 0) {	/* above the captured chain */
					root_lost = true;
					continue;
				}
				ri->anon_cost = ep->ctx[pass_start].chain[dr].anon_cost;
				ri->file_cost = ep->ctx[pass_start].chain[dr].file_cost;
				memcpy(ri->rstat_lru_pages, ep->ctx[pass_start].chain[dr].rstat_lru_pages,
				       sizeof(ri->rstat_lru_pages));
				memcpy(ri->refaults_changed,
				       ep->ctx[pass_start].chain[dr].refaults_changed,
				       sizeof(ri->refaults_changed));
				memcpy(ri->hier_lru_pages, ep->ctx[pass_start].chain[dr].hier_lru_pages,
				       sizeof(ri->hier_lru_pages));
				ri->anon_cost_fresh = ep->ctx[pass_start].chain[dr].anon_cost_fresh;
				ri->file_cost_fresh = ep->ctx[pass_start].chain[dr].file_cost_fresh;
				h.nr_roots++;
			}
			if (root_lost) {
				if (pass == 1) {
					fx->unchecked[RR_UC_ROOT_AMBIGUOUS]++;
					episode_ok = false;
				}
				i = j;
				continue;
			}
			/* no flush in the trace (yet): when the root's view was last
			 * refreshed is not known; try a flush just before the pass */
			h.nr_flush = ep->ctx[pass_start].flush_unknown ? 2 : 1;
			/* the memcg's own view: a flush seen since the pass began
			 * (ctx[i] not flush_unknown) fixed it; capture() filled
			 * hier_lru_pages only where it is flush_unknown */
			memcpy(h.memcg_hier_lru_pages,
			       ep->ctx[i].flush_unknown ? ep->ctx[i].chain[0].hier_lru_pages :
							  ep->ctx[i].chain[0].rstat_lru_pages,
			       sizeof(h.memcg_hier_lru_pages));
			/* other tasks' deltas between the decision and the batch */
			h.nr_conc = 1;
			if (ep->ctx[i].conc_unknown && !ep->ctx[i].sizes_bounded) {
				if (pass == 1) {
					fx->unchecked[RR_UC_CONCURRENT]++;
					episode_ok = false;
				}
				i = j;
				continue;
			}
			for (int l = 0; l < RR_NR_EVICTABLE_LRU && !ep->ctx[i].sizes_bounded; l++)
				if (ep->ctx[i].conc_min[l] || ep->ctx[i].conc_max[l])
					h.nr_conc = 3;
			if (h.nr_conc > 1) {
				memcpy(h.conc_lru_pages[0], ci.memcg.lru_pages, sizeof(h.conc_lru_pages[0]));
				for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
					int64_t lo = (int64_t)ci.memcg.lru_pages[l] + ep->ctx[i].conc_min[l];
					int64_t hi = (int64_t)ci.memcg.lru_pages[l] + ep->ctx[i].conc_max[l];

					h.conc_lru_pages[1][l] = lo > 0 ? (uint64_t)lo : 0;
					h.conc_lru_pages[2][l] = hi > 0 ? (uint64_t)hi : 0;
				}
			}
			/* outside the recorder's view: live or dying */
			h.nr_online = ep->ctx[i].online_unknown ? 2 : 1;
			/* a later pass at this priority may have begun unseen */
			h.nr_pass = 1;
			if (rr_kind_global(ep->kind) && (int)i != pass_start) {
				int di = chain_index(&ep->ctx[i], ep->root_memcg_id);

				if (di >= 0) {
					struct root_inputs *pa = &h.pass_alt;

					pa->anon_cost = ep->ctx[i].chain[di].anon_cost;
					pa->file_cost = ep->ctx[i].chain[di].file_cost;
					memcpy(pa->rstat_lru_pages, ep->ctx[i].chain[di].rstat_lru_pages,
					       sizeof(pa->rstat_lru_pages));
					memcpy(pa->refaults_changed, ep->ctx[i].chain[di].refaults_changed,
					       sizeof(pa->refaults_changed));
					h.nr_pass = 2;
				}
			}
			/* global reclaim's hidden inputs: a dying memcg's sizes, the
			 * root's refaults before its first snapshot_refaults() in
			 * the trace, the node's free pages for file_is_tiny */
			if (global_hidden(&h, &ci, ep, i, pass_start, d, st) && pass == 1) {
				fx->unchecked[RR_UC_DYING_SIZE]++;
				episode_ok = false;
				i = j;
				continue;
			}
			/* ladders that made no batch leave no event: when the free run's
			 * first batch came in the force_deactivate retry, so did the
			 * kernel's first recorded ladder */
			ci.force_deactivate = first_ladder_forced;
			ci.no_cache_trim_mode = first_ladder_no_trim;
			ci.recorded = rec;
			ci.recorded_reclaimed = rec_reclaimed;
			ci.nr_recorded = n;
			/* the inputs the trace does not give, under each admissible
			 * value: a swappiness the others of the memcg's calls fit */
			fitted = false;
			h.nr_swappiness = 1;
			h.swappiness[0] = ci.memcg.swappiness;
			if (!ep->ctx[i].swappiness_known) {
				const int each[] = { 0, 1, km->swappiness_max };

				if (trace && (!ep->swap_known || h.swap[0]) &&
				    fitted_swappiness(trace, &ci, kernel, rec, n, alt, pcap, &h,
						      &fitted, pass == 1, err))
					goto out;
				for (size_t k = 0; !fitted && k < sizeof(each) / sizeof(each[0]); k++)
					if (each[k] != h.swappiness[0])
						h.swappiness[h.nr_swappiness++] = each[k];
				ci.memcg.swappiness = h.swappiness[0];
			}
			/* the walk's silent visits before this call, in its pass */
			/* (those of calls not judged: not judged either) */
			while (pass == 1 && sk < ep->nr_silent && ep->silent[sk].before < i) {
				fx->silent_unjudged++;
				sk++;
			}
			for (; pass == 1 && sk < ep->nr_silent && ep->silent[sk].before == i; sk++)
				if ((int)i == pass_start)
					continue;
				/* with another walker under the root, the memcgs
				 * between may have gone to it from the shared cursor */
				else if (ep->walk_interleaved)
					fx->silent_unjudged++;
				else if (judge_silent(fx, st, &ci, kernel, &ep->silent[sk], trace, &h,
						      b->priority, spred, alt, pcap, err))
					goto out;
			if (rr_sim_predict_call(&ci, kernel, pred, pcap, &nr_pred, targets, err))
				goto out;
			if (nr_pred > pcap)
				nr_pred = pcap;
			if (pass == 0) {
				if (!ep->swap_known &&
				    swap_evidence(fx, &ci, kernel, &h, &ep->ctx[i], rec, n, alt, pcap, err))
					goto out;
				if (trace && !ep->ctx[i].swappiness_known &&
				    (!ep->swap_known || h.swap[0]) &&
				    fit_swappiness(trace, &ci, kernel, &h, rec, n, alt, spred, pcap, err))
					goto out;
				i = j;
				continue;
			}
			if (ep->ctx[i].in_window) {
				bool judged;

				if (window_call(fx, &ci, kernel, rec, n, pred, nr_pred, alt, pcap, b,
						&judged, err))
					goto out;
				if (!judged) {
					fx->unchecked[RR_UC_ONLINE_UNCERTAIN]++;
					episode_ok = false;
					i = j;
					continue;
				}
			}

			if (h_combos(&h) > 1) {
				enum rr_unchecked hidden_why;

				if (undecidable(&ci, kernel, &h, pred, nr_pred, alt, pcap, &hidden_why, err))
					goto out;
				if (hidden_why != RR_UC__COUNT) {
					fx->unchecked[hidden_why]++;
					episode_ok = false;
					i = j;
					continue;
				}
			}

			fx->swappiness_fitted += fitted;
			score(fx, st, b->memcg_id, b->priority, rec, n, pred, nr_pred);
			i = j;
		}
	}
	fx->silent_unjudged += ep->nr_silent > sk ? ep->nr_silent - sk : 0;
	/* inside an rmdir -> offline window the replay's online state is a guess */
	fx->unchecked_window = ep->in_offline_window && kernel_result;
	/* another walker under the root moved the shared cursor during the
	 * run, in an order the trace does not give: not judged */
	fx->unchecked_interleaved = ep->walk_interleaved && kernel_result && ep->nr_batches;
	if (episode_ok && kernel_result && ep->nr_batches && !ep->in_offline_window &&
	    !ep->walk_interleaved) {
		trajectory(fx, ep, kernel_result);
		/* the free run takes one value of what the trace does not say */
		fx->trajectory_assumed = !ep->swap_known;
		for (size_t i = 0; i < ep->nr_batches && ep->ctx && !fx->trajectory_assumed; i++)
			fx->trajectory_assumed = ep->ctx[i].valid && !ep->ctx[i].swappiness_known;
	}
	ret = 0;
out:
	free(rec);
	free(pred);
	free(alt);
	free(spred);
	free(rec_reclaimed);
	if (ret)
		rr_fidelity_facts_free(fx);
	return ret;
}

static void note_worst(struct rr_fidelity *f, const struct rr_episode *ep,
		       const struct rr_fidelity_facts *fx, const char *reason)
{
	int i, at;

	if (!fx->not_exact)
		return;
	for (at = 0; at < f->nr_worst; at++)
		if (fx->not_exact > f->worst[at].mismatched)
			break;
	if (at >= RR_FIDELITY_WORST)
		return;
	if (f->nr_worst < RR_FIDELITY_WORST)
		f->nr_worst++;
	for (i = f->nr_worst - 1; i > at; i--)
		f->worst[i] = f->worst[i - 1];
	f->worst[at].episode = ep->replay_seq;
	snprintf(f->worst[at].cgroup, sizeof(f->worst[at].cgroup), "%s",
		 ep->root_path ? ep->root_path : "?");
	f->worst[at].checked = fx->checked;
	f->worst[at].mismatched = fx->not_exact;
	snprintf(f->worst[at].first, sizeof(f->worst[at].first), "%s", fx->first);
	f->worst[at].reason = reason;
}

void rr_fidelity_add(struct rr_fidelity *f, const struct rr_episode *ep,
		     const struct rr_fidelity_facts *fx, uint64_t offline_inferred)
{
	f->episodes_total++;
	f->decisions_checked += fx->checked;
	f->exact += fx->exact;
	f->off_by_one += fx->off_by_one;
	f->within_one_batch += fx->within_one_batch;
	f->mismatched += fx->mismatched;
	for (int i = 0; i < RR_UC__COUNT; i++)
		f->unchecked[i] += fx->unchecked[i];
	f->kind_checked[ep->kind] += fx->checked;
	f->kind_exact[ep->kind] += fx->exact;
	f->kind_within[ep->kind] += fx->within_one_batch;
	f->kind_episodes[ep->kind]++;
	for (int i = 0; i < RR_UC__COUNT; i++)
		f->kind_unchecked[ep->kind] += fx->unchecked[i];
	f->age_node_batches += fx->age_node_batches;
	f->offline_moments_inferred += offline_inferred;
	f->swappiness_fitted_calls += fx->swappiness_fitted;
	f->swap_present_calls += fx->swap_present_calls;
	f->swap_absent_calls += fx->swap_absent_calls;
	f->silent += fx->silent;
	f->predicted_unrecorded += fx->predicted_unrecorded;
	f->silent_unjudged += fx->silent_unjudged;
	f->silent_cut += ep->silent_cut;
	note_worst(f, ep, fx,
		   ep->overlapped ? "concurrent reclaimers (shared lists and walk cursor)" :
		   fx->first_on_active ? "deactivation (rstat view or refault snapshot)" :
		   "model");
	f->trajectory_unchecked_window += fx->unchecked_window;
	f->trajectory_unchecked_interleaved += fx->unchecked_interleaved;
	if (fx->trajectory_checked) {
		bool exact = fx->same_calls && fx->same_stop && fx->same_reclaimed;

		f->episodes_checkable++;
		f->trajectory_checked++;
		f->trajectory_same_calls += fx->same_calls;
		f->trajectory_same_stop += fx->same_stop;
		f->trajectory_same_reclaimed += fx->same_reclaimed;
		f->trajectory_exact += exact;
		if (fx->trajectory_assumed) {
			f->trajectory_assumed++;
			f->trajectory_assumed_exact += exact;
		}
		if (ep->overlapped) {
			f->trajectory_overlapped++;
			f->trajectory_overlapped_exact += exact;
		}
	}
}
