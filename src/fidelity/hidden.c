// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ranges of the inputs a trace does not give (docs/kernel-model.md
 * §19.3): each call is predicted under every admissible combination of
 * them (swap presence, swappiness, nr_to_reclaim, the reclaim root, the
 * rstat view's age, a dying memcg's sizes, the root's refaults and cost
 * pair, file_is_tiny, other tasks' deltas, the pass, the online state),
 * and counted undecidable, by the first input that changes the
 * prediction, where they differ.
 */
#include "fidelity-local.h"

#include <string.h>

/* Field by field: the struct has padding that memcmp() would compare. */
bool rr_fid_same_batches(const struct rr_pred_batch *a, size_t na,
			 const struct rr_pred_batch *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].lru != b[i].lru || a[i].nr_requested != b[i].nr_requested)
			return false;
	return true;
}

/* Does @ci predict @pred (@nr_pred batches)?  @alt is scratch. */
int rr_fid_predicts(const struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		    const struct rr_pred_batch *pred, size_t nr_pred, struct rr_pred_batch *alt,
		    size_t cap, bool *same, struct rr_error *err)
{
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	size_t nr_alt = 0;

	if (rr_sim_predict_call(ci, kernel, alt, cap, &nr_alt, targets, err))
		return -1;
	if (nr_alt > cap)
		nr_alt = cap;
	*same = rr_fid_same_batches(alt, nr_alt, pred, nr_pred);
	return 0;
}

/*
 * The nr_to_reclaim values that can change one call's prediction, into @h
 * ([0] = @base, the episode's): the loop is fed the recorded reclaim, so
 * the call's own reclaim never exceeds the sum @sum of its @n batches', and
 * every value above it acts like any other (no cut): of those, one stands
 * for all.
 */
void rr_fid_call_candidates(struct hidden *h, uint64_t base, const uint64_t *cands, size_t nr,
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
bool rr_fid_global_hidden(struct hidden *h, struct rr_call_input *ci, const struct rr_episode *ep,
			  size_t i, int pass_start, int d, const struct rr_state *st)
{
	const struct rr_batch_ctx *c = &ep->ctx[i];
	const struct rr_node_snapshot *node;
	struct rr_node_tiny tiny;
	uint64_t file;
	bool known;

	h->nr_size = h->nr_refault = h->nr_tiny = h->nr_cost = 1;
	h->root_lower_bound = false;
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

		/* a pair with no bound known (RR_COST_UNBOUNDED_PAGES): a ratio
		 * of 2^24 stands for any larger one (a file share of 1 in 2^24
		 * scans nothing of lists below 2^24 pages >> priority), and
		 * keeps get_scan_count()'s products within 64 bits */
		for (int k = 0; k < nc; k++)
			for (int t = 0; t < 2; t++) {
				uint64_t o = cand[k][!t], cap = o >= (UINT64_MAX >> 25) ?
					     UINT64_MAX : (o + 1) << 24;

				if (cand[k][t] > cap)
					cand[k][t] = cap > hi[t] ? cap : hi[t];
			}

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
	if (ep->ctx[pass_start].chain[d].sizes_lower_bound) {
		/* the root's view is of lower bounds: inactive_is_low() may go
		 * either way, which covers the refaults too (either sets
		 * DEACTIVATE_*) */
		int8_t each[RR_NR_LRU_TYPES][3];

		for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
			each[t][0] = ci->refaults_changed[t] ? H_DEACT_REFAULT : H_DEACT_NO_REFAULT;
			each[t][1] = each[t][0] == H_DEACT_REFAULT ? H_DEACT_NO_REFAULT : H_DEACT_REFAULT;
			each[t][2] = H_DEACT_NOT_LOW;
		}
		h->nr_refault = 0;
		h->root_lower_bound = true;
		for (int a = 0; a < 3; a++)
			for (int f = 0; f < 3; f++) {
				h->refault[h->nr_refault][RR_LRU_ANON] = each[RR_LRU_ANON][a];
				h->refault[h->nr_refault][RR_LRU_FILE] = each[RR_LRU_FILE][f];
				h->nr_refault++;
			}
	} else if (!ep->ctx[pass_start].chain[d].refault_known) {
		for (int v = 0; v < 4; v++) {
			h->refault[v][RR_LRU_ANON] = v & 1 ? H_DEACT_REFAULT : H_DEACT_NO_REFAULT;
			h->refault[v][RR_LRU_FILE] = v & 2 ? H_DEACT_REFAULT : H_DEACT_NO_REFAULT;
		}
		rr_fid_apply_refault(ci, h->refault[0]);
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
	/* the watermarks of a /proc/zoneinfo copy (--zoneinfo), without the
	 * node's counters: at their largest boost they bound the sum */
	if (!known && node && !strcmp(node->node.source, RR_NODE_SOURCE_ZONEINFO_COPY)) {
		long long most = rr_node_high_sum_most(node);

		if (most >= 0 && file > (uint64_t)most)
			return false;
	}
	/* (free pages 0 at the watermarks' sum, or at no bound: tiny when
	 * the other conditions hold) */
	h->tiny_high[0] = 0;
	h->tiny_high[1] = known ? tiny.high_sum : UINT64_MAX;
	h->nr_tiny = 2;
	return false;
}

void rr_fid_apply_refault(struct rr_call_input *ci, const int8_t v[RR_NR_LRU_TYPES])
{
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		uint64_t *rs = ci->root_rstat_lru_pages;
		int in = t ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON;

		ci->refaults_changed[t] = v[t] == H_DEACT_REFAULT;
		if (v[t] == H_DEACT_NOT_LOW && rs[in] < rs[in + 1])
			rs[in] = rs[in + 1];
	}
}

enum { H_SWAP, H_SWAPPINESS, H_NR_TO_RECLAIM, H_ROOT, H_FLUSH, H_SIZE, H_REFAULT, H_TINY,
       H_COST, H_CONC, H_PASS, H_ONLINE, H__COUNT };

static const enum rr_unchecked h_reason[H__COUNT] = {
	RR_UC_SWAP_UNKNOWN, RR_UC_SWAPPINESS_UNKNOWN, RR_UC_NR_TO_RECLAIM, RR_UC_ROOT_AMBIGUOUS,
	RR_UC_FLUSH_UNKNOWN, RR_UC_DYING_SIZE, RR_UC_REFAULT_UNKNOWN, RR_UC_TINY_UNKNOWN,
	RR_UC_COST_UNKNOWN, RR_UC_CONCURRENT, RR_UC_PASS_UNKNOWN, RR_UC_ONLINE_UNCERTAIN,
};

/* The reason input @dim gives when it changes a prediction. */
static enum rr_unchecked h_why(const struct hidden *h, int dim)
{
	if (dim == H_REFAULT && h->root_lower_bound)
		return RR_UC_DEACT_UNKNOWN;
	return h_reason[dim];
}

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
			rr_fid_apply_refault(ci, h->refault[k[H_REFAULT]]);
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
		rr_fid_apply_refault(ci, h->refault[k[H_REFAULT]]);
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

/*
 * Is combination @k the same input, for every rule the simulator applies,
 * as one tried before it?  Without swap (or with may_swap off)
 * get_scan_count() takes SCAN_FILE before any other rule: the swappiness,
 * the root's cost pair and its DEACTIVATE_ANON bit then decide nothing
 * (no anon target, no anon aging, and file_is_tiny leads only to
 * SCAN_ANON), so of those only the first values are tried.  (A redundant
 * combination predicts what its first one does: skipping it changes no
 * verdict.)
 */
static bool h_redundant(const struct hidden *h, const struct rr_call_input *base,
			const size_t k[H__COUNT])
{
	if (base->may_swap && h->swap[k[H_SWAP]])
		return false;
	if (k[H_SWAPPINESS] || k[H_COST])
		return true;
	for (size_t w = 0; w < k[H_REFAULT]; w++)
		if (h->refault[w][RR_LRU_FILE] == h->refault[k[H_REFAULT]][RR_LRU_FILE])
			return true;
	return false;
}

/* How many combinations of the open inputs' values there are. */
size_t rr_fid_h_combos(const struct hidden *h)
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
int rr_fid_undecidable(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
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
			if (h_redundant(h, &base, k))
				continue;
			h_apply(ci, &base, h, k);
			if ((ret = rr_fid_predicts(ci, kernel, pred, nr_pred, alt, cap, &same, err)))
				goto out;
			if (!same)
				*why = h_why(h, dim);
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
		if (changed < 2 || h_redundant(h, &base, k))
			continue;	/* tried above, or the same as one tried */
		h_apply(ci, &base, h, k);
		if ((ret = rr_fid_predicts(ci, kernel, pred, nr_pred, alt, cap, &same, err)))
			goto out;
		if (!same) {
			*why = h_why(h, first_open);
			break;
		}
	}
out:
	*ci = base;
	return ret;
}

/*
 * For each swappiness s in 1..@max, with swap: does some admissible
 * combination of the other hidden inputs (nr_to_reclaim, root, flush)
 * predict the recorded call @rec exactly?  hit[s] is set where one does
 * (and left as it was elsewhere).  Per combination the call is predicted
 * once per run of values with the same get_scan_count() targets, not once
 * per value (rr_sim_swappiness_run(): a run is an interval, its end
 * found on the targets alone), and values an earlier combination
 * explained are not tried again.
 */
int rr_fid_fits_by_swappiness(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
			      const struct hidden *h, const struct rr_pred_batch *rec, size_t n,
			      struct rr_pred_batch *alt, size_t cap, int max, bool *hit,
			      struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	struct hidden one = *h;
	size_t k[H__COUNT] = { 0 };
	int ret = 0;

	one.swap[0] = true;
	one.nr_swap = 1;
	one.swappiness[0] = 1;
	one.nr_swappiness = 1;
	do {
		int s = 1;

		/* (a value some combination explained already needs no other) */
		while (s <= max && hit[s])
			s++;
		if (s > max)
			break;
		h_apply(ci, &base, &one, k);
		for (int last; s <= max; s = last + 1) {
			uint64_t t0[RR_NR_EVICTABLE_LRU];
			size_t nr_alt = 0;
			bool fits;

			ci->memcg.swappiness = s;
			if ((ret = rr_sim_predict_call(ci, kernel, alt, cap, &nr_alt, t0, err)) ||
			    (ret = rr_sim_swappiness_run(ci, kernel, s, max, t0, &last, err)))
				goto out;
			fits = rr_fid_same_batches(alt, nr_alt < cap ? nr_alt : cap, rec, n);
			for (int v = s; v <= last; v++)
				hit[v] |= fits;
			while (last < max && hit[last + 1])
				last++;
		}
	} while (h_next(&one, k));
out:
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
int rr_fid_fits_any(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
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
		if (h_redundant(&one, &base, k))
			continue;
		h_apply(ci, &base, &one, k);
		if ((ret = rr_fid_predicts(ci, kernel, rec, n, alt, cap, fits, err)) || *fits)
			break;
	} while (h_next(&one, k));
	*ci = base;
	return ret;
}
