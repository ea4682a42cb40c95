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

#endif
