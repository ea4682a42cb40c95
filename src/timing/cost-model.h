/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The time a reclaim call takes, fitted from the recording
 * (docs/kernel-model.md §10b): each recorded try_to_free_mem_cgroup_pages()
 * call (an mm_vmscan_memcg_reclaim_begin/end pair) is one observation of
 *
 *     duration_ns = fixed_ns + scan_ns * nr_scanned + reclaim_ns * nr_reclaimed
 *
 * with nr_scanned the pages its inactive batches took and nr_reclaimed
 * what its end event says, fitted by ordinary least squares.  The fit is
 * streamed: centred co-moments updated per call (Welford), so memory is
 * constant and the sums do not lose precision on long traces.  A policy's
 * estimated time is the fitted cost of its own calls, pages scanned and
 * pages reclaimed.  It is an estimate, labelled as one wherever it is
 * shown; the kernel's real cost also depends on what the pages are (dirty,
 * mapped, in swap cache), which the three terms only average.
 */
#ifndef RR_TIMING_COST_MODEL_H
#define RR_TIMING_COST_MODEL_H

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

/* Which terms the data could separate. */
enum rr_cost_terms {
	RR_COST_NONE,		/* no fit: too few calls */
	RR_COST_FIXED,		/* every call scanned the same: a mean only */
	RR_COST_SCAN,		/* scanned and reclaimed move together: one slope */
	RR_COST_FULL,		/* all three terms */
};

struct rr_cost_fit {
	enum rr_cost_terms terms;
	uint64_t n;			/* calls fitted on */
	double fixed_ns, scan_ns_per_page, reclaim_ns_per_page;
	double rms_error_ns;		/* residual standard error per call */
	double r2;			/* 1 - RSS / TSS; 0 when TSS is 0 */
	double mean_ns;			/* mean recorded call */
	double total_ns;		/* recorded calls, summed */
	const char *why_not;		/* RR_COST_NONE: the reason */
};

/* Add one recorded call: pages scanned and reclaimed, duration in ns. */
void rr_cost_add(struct rr_cost_data *d, uint64_t nr_scanned_pages,
		 uint64_t nr_reclaimed_pages, uint64_t duration_ns);

/**
 * rr_cost_fit() - the least-squares fit of the calls added so far
 * With fewer than RR_COST_MIN_CALLS calls: terms RR_COST_NONE and
 * why_not set.  When scanned and reclaimed are collinear (every page
 * scanned was reclaimed, say), the reclaim term is folded into the scan
 * term (RR_COST_SCAN, reclaim_ns_per_page 0); when scanned does not vary,
 * only the mean (RR_COST_FIXED).
 */
void rr_cost_fit(const struct rr_cost_data *d, struct rr_cost_fit *f);

/* The fitted time of @calls calls that scanned and reclaimed so many
 * pages, in ns (never below 0); 0 without a fit. */
double rr_cost_estimate_ns(const struct rr_cost_fit *f, uint64_t calls,
			   uint64_t nr_scanned_pages, uint64_t nr_reclaimed_pages);

#endif
