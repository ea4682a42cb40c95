/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The time a reclaim call takes, fitted from the recording
 * (docs/kernel-model.md §10b): each recorded try_to_free_mem_cgroup_pages()
 * call (an mm_vmscan_memcg_reclaim_begin/end pair) is one observation of
 *
 *     duration_ns = fixed_ns + scan_ns * nr_scanned + reclaim_ns * nr_reclaimed
 *
 * with nr_scanned the pages its inactive batches took and nr_reclaimed
 * what its end event says, fitted by least squares with every term >= 0.  The fit is
 * streamed: centred co-moments updated per call (Welford), so memory is
 * constant and the sums do not lose precision on long traces.  A policy's
 * estimated time is the fitted cost of its own calls, pages scanned and
 * pages reclaimed.  It is an estimate, labelled as one wherever it is
 * shown; the kernel's real cost also depends on what the pages are (dirty,
 * mapped, in swap cache), which the three terms only average.
 */
#ifndef RR_TIMING_H
#define RR_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* Fewer recorded calls than this: no fit is made (said so, not printed). */
#define RR_COST_MIN_CALLS 8

struct rr_cost_data {
	uint64_t n;
	double mean[3];		/* nr_scanned, nr_reclaimed, duration_ns */
	double c[3][3];		/* co-moments: sum of (x_i - mean_i)(x_j - mean_j) */
	double total_ns;
};

/* The terms of a fit (a mask): what the data supports with every
 * coefficient >= 0 (non-negative least squares); 0: no fit. */
#define RR_COST_TERM_FIXED	1u	/* per call */
#define RR_COST_TERM_SCAN	2u	/* per page scanned */
#define RR_COST_TERM_RECLAIM	4u	/* per page reclaimed */

struct rr_cost_fit {
	unsigned int terms;		/* RR_COST_TERM_* kept; 0: no fit */
	uint64_t n;			/* calls fitted on */
	double fixed_ns, scan_ns_per_page, reclaim_ns_per_page;	/* >= 0 */
	double rms_error_ns;		/* residual standard error per call */
	double r2;			/* 1 - RSS / TSS; 0 when TSS is 0 */
	double mean_ns;			/* mean recorded call */
	double total_ns;		/* recorded calls, summed */
	const char *why_not;		/* no fit: the reason */
};

/* Add one recorded call: pages scanned and reclaimed, duration in ns. */
void rr_cost_add(struct rr_cost_data *d, uint64_t nr_scanned_pages,
		 uint64_t nr_reclaimed_pages, uint64_t duration_ns);

/**
 * rr_cost_fit() - the non-negative least-squares fit of the calls so far
 * With fewer than RR_COST_MIN_CALLS calls: terms 0 and why_not set.  Terms
 * whose best coefficient would be negative are left out (0), and so are
 * terms the data cannot tell apart from the others (scanned and reclaimed
 * collinear: every page scanned was reclaimed; scanned constant).
 */
void rr_cost_fit(const struct rr_cost_data *d, struct rr_cost_fit *f);

/* The fitted time of @calls calls that scanned and reclaimed so many
 * pages, in ns (never below 0); 0 without a fit. */
double rr_cost_estimate_ns(const struct rr_cost_fit *f, uint64_t calls,
			   uint64_t nr_scanned_pages, uint64_t nr_reclaimed_pages);

/*
 * The batch model: each recorded inactive batch (an mm_vmscan_lru_isolate
 * and its mm_vmscan_lru_shrink_inactive: shrink_folio_list() on its pages)
 * is one observation of its list type's cost,
 *
 *     batch_ns = fixed_ns[t] + scan_ns[t] * nr_taken + reclaim_ns[t] * nr_reclaimed
 *
 * (t: anon or file), so one long call gives thousands of samples where the
 * call model has one; what a call takes beyond its inactive batches (the
 * decisions, the active lists, shrink_slab(), the drains) is averaged per
 * shrink_lruvec() call (per call where the trace counts none),
 *
 *     rest_ns = lruvec_ns * shrink_lruvec_calls
 *
 * A policy's time is the cost of its own pages (its batches counted as
 * the recorded ones took, on average) and passes.  An estimate: the pages'
 * state (dirty, mapped, under writeback) is in the averages only, and
 * the rest of a pass is one average over passes of every priority.
 */
#define RR_BATCH_COST_MIN_BATCHES 32

struct rr_batch_cost_data {
	struct rr_cost_data type[2];	/* x = nr_taken, y = nr_reclaimed */
	struct rr_cost_data rest;	/* x = shrink_lruvec() calls, y = 0 */
	uint64_t calls, lruvec_calls;
	double call_ns, rest_ns;	/* summed over the calls */
};

struct rr_batch_cost_fit {
	bool fitted;
	const char *why_not;		/* !fitted: the reason */
	struct rr_cost_fit type[2];	/* anon, file; terms 0: too few batches */
	uint64_t batches[2];		/* observations of each */
	double mean_taken[2];		/* pages a batch took, on average */
	struct rr_cost_fit rest;	/* (unused: the rest is averaged) */
	bool rest_fitted;		/* the rest has a rate per shrink_lruvec() call */
	double rest_per_call_ns, rest_per_lruvec_ns;
	uint64_t calls;
	double recorded_call_ns;	/* the recorded calls' time, summed */
};

/* One recorded inactive batch of list type @type (0 anon, 1 file). */
void rr_batch_cost_add_batch(struct rr_batch_cost_data *d, int type, uint64_t nr_taken,
			     uint64_t nr_reclaimed, uint64_t duration_ns);
/* One recorded reclaim call: its shrink_lruvec() calls, the time its
 * inactive batches took and its whole time, ns. */
void rr_batch_cost_add_call(struct rr_batch_cost_data *d, uint64_t lruvec_calls,
			    uint64_t batches_ns, uint64_t call_ns);
/* The fit; !fitted with why_not where the data cannot carry one. */
void rr_batch_cost_fit(const struct rr_batch_cost_data *d, struct rr_batch_cost_fit *f);
/* The time of @calls calls of @lruvec_calls shrink_lruvec() calls that took
 * @nr_scanned and reclaimed @nr_reclaimed pages of each type, ns. */
double rr_batch_cost_estimate_ns(const struct rr_batch_cost_fit *f, uint64_t calls,
				 uint64_t lruvec_calls, const uint64_t nr_scanned[2],
				 const uint64_t nr_reclaimed[2]);

#endif
