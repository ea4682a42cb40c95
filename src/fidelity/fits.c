// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs fitted from the trace's evidence (docs/kernel-model.md §19.3):
 * swap presence, from calls only one answer explains, and a v1 memcg's
 * swappiness, from the memcg's other calls (leave-one-out).
 */
#include "fidelity-local.h"

#include <stdlib.h>
#include <string.h>

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
 * Pass 0 of rr_fidelity_check() where swap presence is open: does the
 * recorded call fit only one of "no swap" and "swap" (with any admissible
 * swappiness)?  The structural rule of proves_swap() counts for "swap"
 * whatever the fractions.  Sets nothing but the evidence counts.
 */
int rr_fid_swap_evidence(struct rr_fidelity_facts *fx, struct rr_call_input *ci,
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
	if ((ret = rr_fid_fits_any(ci, kernel, h, false, h->swappiness[0], rec, n, alt, cap,
				   &fits_absent, err)) ||
	    (ret = rr_fid_fits_any(ci, kernel, h, true, -1, rec, n, alt, cap, &fits_present, err)))
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
int rr_fid_fit_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
			  const struct rr_resolved_policy *kernel, const struct hidden *h,
			  const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
			  size_t cap, struct rr_error *err)
{
	const struct rr_call_input base = *ci;
	struct rr_swappiness_fit *fit;
	int max = ci->km->swappiness_max;
	bool same, any = false, hit[RR_MAX_SWAPPINESS + 1];
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
	/* 0 is its own rule; from 1 up, one prediction per run of values with
	 * the same targets */
	if ((ret = rr_fid_fits_any(ci, kernel, h, true, 0, rec, n, alt, cap, &same, err)))
		goto out;
	fit->match[0] += same;
	any = same;
	memset(hit, 0, sizeof(hit));
	if ((ret = rr_fid_fits_by_swappiness(ci, kernel, h, rec, n, alt, cap, max, hit, err)))
		goto out;
	for (int s = 1; s <= max; s++) {
		fit->match[s] += hit[s];
		any |= hit[s];
	}
out:
	fit->explained += any;
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
int rr_fid_fitted_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
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
		if (in_fit && (ret = rr_fid_predicts(ci, kernel, rec, n, alt, cap, &same, err)))
			goto out;
		loo[s] = fit->match[s] - same;
		if (loo[s] > best)
			best = loo[s];
	}
	if (!best)
		goto out;
	/* the other calls that some value explains, all explained by the
	 * best ones, or the fit is contradicted (a call only another value
	 * explains: then some other input is not what the fit assumed, and
	 * the value is not known); this call's own part taken out */
	if (fit->explained > best + 1)
		goto out;
	if (fit->explained == best + 1) {
		bool own = false;

		/* (as the fit counted it: under any admissible other input) */
		for (int s = 0; in_fit && s <= max && !own; s++)
			if ((ret = rr_fid_fits_any(ci, kernel, h, true, s, rec, n, alt, cap, &own, err)))
				goto out;
		if (!own)
			goto out;
	}
	admissible_swappiness(h, loo, max, best);
	*fitted = true;
out:
	*ci = base;
	return ret;
}

/* The swappiness values a memcg's calls fit best (no leave-one-out: for a
 * call that is not in the fit), as fitted_swappiness() puts them in @h. */
bool rr_fid_fit_of(const struct rr_fidelity *trace, uint64_t memcg_id, int max, struct hidden *h)
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
	if (!top || top < fit->explained)
		return false;	/* none, or contradicted (fitted_swappiness()) */
	admissible_swappiness(h, fit->match, max, top);
	return true;
}
