// SPDX-License-Identifier: GPL-2.0-only
/*
 * Least-squares cost of a reclaim call (cost-model.h), with every term
 * non-negative: a call cannot take negative time per page, nor less than
 * nothing to start.  Non-negative least squares over three terms is the
 * best (least residual) of the unconstrained fits on each subset of terms
 * whose coefficients all come out >= 0 (the optimum's non-zero terms are an
 * unconstrained fit on them), so every subset is fitted and the best
 * admissible one kept.  Fits with the fixed term use the centred
 * co-moments (no cancellation); fits without it need raw second moments,
 * made from the means and co-moments.
 */
#include "timing.h"

#include <math.h>
#include <string.h>

void rr_cost_add(struct rr_cost_data *d, uint64_t nr_scanned_pages,
		 uint64_t nr_reclaimed_pages, uint64_t duration_ns)
{
	double x[3] = { (double)nr_scanned_pages, (double)nr_reclaimed_pages,
			(double)duration_ns };
	double delta[3];

	d->n++;
	d->total_ns += x[2];
	/* Welford: the co-moment grows by delta_before(i) * delta_after(j) */
	for (int i = 0; i < 3; i++) {
		delta[i] = x[i] - d->mean[i];
		d->mean[i] += delta[i] / (double)d->n;
	}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			d->c[i][j] += delta[i] * (x[j] - d->mean[j]);
}

/*
 * Solve the k x k system @a (k <= 2) @b for @x; false when it is singular
 * (the terms' columns are collinear within rounding).
 */
static bool solve(int k, double a[2][2], const double b[2], double x[2])
{
	if (k == 1) {
		if (!(a[0][0] > 0))
			return false;
		x[0] = b[0] / a[0][0];
		return true;
	}
	{
		double det = a[0][0] * a[1][1] - a[0][1] * a[1][0];

		if (!(a[0][0] > 0 && a[1][1] > 0 && det > 1e-9 * a[0][0] * a[1][1]))
			return false;
		x[0] = (b[0] * a[1][1] - b[1] * a[0][1]) / det;
		x[1] = (b[1] * a[0][0] - b[0] * a[1][0]) / det;
		return true;
	}
}

/*
 * The unconstrained fit on the terms of @mask (RR_COST_TERM_*): its
 * coefficients in @beta (fixed, scan, reclaim; 0 outside the mask) and its
 * residual sum of squares.  False when the terms cannot be told apart.
 */
static bool fit_subset(const struct rr_cost_data *d, unsigned int mask, double beta[3],
		       double *rss)
{
	int cols[2], k = 0;
	double a[2][2], b[2], x[2] = { 0, 0 };
	double n = (double)d->n;

	memset(beta, 0, 3 * sizeof(*beta));
	if (mask & RR_COST_TERM_SCAN)
		cols[k++] = 0;
	if (mask & RR_COST_TERM_RECLAIM)
		cols[k++] = 1;
	if (mask & RR_COST_TERM_FIXED) {
		/* centred: slopes from the co-moments, the intercept after */
		for (int i = 0; i < k; i++) {
			for (int j = 0; j < k; j++)
				a[i][j] = d->c[cols[i]][cols[j]];
			b[i] = d->c[cols[i]][2];
		}
		if (k && !solve(k, a, b, x))
			return false;
		beta[0] = d->mean[2];
		*rss = d->c[2][2];
		for (int i = 0; i < k; i++) {
			beta[1 + cols[i]] = x[i];
			beta[0] -= x[i] * d->mean[cols[i]];
			*rss -= x[i] * b[i];
		}
		return true;
	}
	/* through the origin: raw moments S_ij = C_ij + n m_i m_j */
	for (int i = 0; i < k; i++) {
		for (int j = 0; j < k; j++)
			a[i][j] = d->c[cols[i]][cols[j]] + n * d->mean[cols[i]] * d->mean[cols[j]];
		b[i] = d->c[cols[i]][2] + n * d->mean[cols[i]] * d->mean[2];
	}
	if (!k || !solve(k, a, b, x))
		return false;
	*rss = d->c[2][2] + n * d->mean[2] * d->mean[2];
	for (int i = 0; i < k; i++) {
		beta[1 + cols[i]] = x[i];
		*rss -= x[i] * b[i];
	}
	return true;
}

void rr_cost_fit(const struct rr_cost_data *d, struct rr_cost_fit *f)
{
	double best_rss = INFINITY;
	/* residuals of fits through the origin come from raw moments, whose
	 * rounding scales with the raw sum of squares: a subset must beat the
	 * best by more than that to be taken */
	double tol = 1e-9 * (d->c[2][2] + (double)d->n * d->mean[2] * d->mean[2]);

	*f = (struct rr_cost_fit){ .n = d->n, .total_ns = d->total_ns,
				   .mean_ns = d->n ? d->mean[2] : 0 };
	if (d->n < RR_COST_MIN_CALLS) {
		f->why_not = "fewer than 8 recorded reclaim calls";
		return;
	}
	/* every non-empty subset of the three terms; on equal residuals the
	 * one with fewer terms (tried first among those of its size) wins */
	for (int size = 1; size <= 3; size++) {
		for (unsigned int mask = 1; mask < 8; mask++) {
			double beta[3], rss;

			if (__builtin_popcount(mask) != size || !fit_subset(d, mask, beta, &rss) ||
			    beta[0] < 0 || beta[1] < 0 || beta[2] < 0)
				continue;
			if (rss < 0)
				rss = 0;	/* rounding of an exact fit */
			if (rss < best_rss - tol) {
				best_rss = rss;
				f->terms = mask;
				f->fixed_ns = beta[0];
				f->scan_ns_per_page = beta[1];
				f->reclaim_ns_per_page = beta[2];
			}
		}
	}
	if (!f->terms) {
		f->why_not = "no fit with non-negative terms";
		return;
	}
	{
		int p = __builtin_popcount(f->terms);

		f->rms_error_ns = d->n > (uint64_t)p ? sqrt(best_rss / (double)(d->n - (uint64_t)p)) : 0;
		f->r2 = d->c[2][2] > 0 ? 1.0 - best_rss / d->c[2][2] : 0;
	}
}

double rr_cost_estimate_ns(const struct rr_cost_fit *f, uint64_t calls,
			   uint64_t nr_scanned_pages, uint64_t nr_reclaimed_pages)
{
	if (!f->terms)
		return 0;
	return f->fixed_ns * (double)calls + f->scan_ns_per_page * (double)nr_scanned_pages +
	       f->reclaim_ns_per_page * (double)nr_reclaimed_pages;
}
