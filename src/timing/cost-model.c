// SPDX-License-Identifier: GPL-2.0-only
/*
 * Least-squares cost of a reclaim call (cost-model.h).  With centred
 * co-moments C, the slopes solve C_xx * beta = C_xy and the intercept is
 * mean_y - beta . mean_x; the residual sum of squares is C_yy - beta . C_xy.
 */
#include "cost-model.h"

#include <math.h>

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

void rr_cost_fit(const struct rr_cost_data *d, struct rr_cost_fit *f)
{
	double sxx = d->c[0][0], srr = d->c[1][1], sxr = d->c[0][1];
	double sxy = d->c[0][2], sry = d->c[1][2], syy = d->c[2][2];
	double det = sxx * srr - sxr * sxr, rss, b = 0, c = 0;
	int p;

	*f = (struct rr_cost_fit){ .n = d->n, .total_ns = d->total_ns,
				   .mean_ns = d->n ? d->mean[2] : 0 };
	if (d->n < RR_COST_MIN_CALLS) {
		f->terms = RR_COST_NONE;
		f->why_not = "fewer than 8 recorded reclaim calls";
		return;
	}
	/* collinear within rounding: the determinant is tiny against its terms */
	if (sxx > 0 && srr > 0 && det > 1e-9 * sxx * srr) {
		b = (sxy * srr - sry * sxr) / det;
		c = (sry * sxx - sxy * sxr) / det;
		f->terms = RR_COST_FULL;
		p = 3;
	} else if (sxx > 0) {
		b = sxy / sxx;
		f->terms = RR_COST_SCAN;
		p = 2;
	} else {
		f->terms = RR_COST_FIXED;
		p = 1;
	}
	f->scan_ns_per_page = b;
	f->reclaim_ns_per_page = c;
	f->fixed_ns = d->mean[2] - b * d->mean[0] - c * d->mean[1];
	rss = syy - b * sxy - c * sry;
	if (rss < 0)
		rss = 0;	/* rounding of an exact fit */
	f->rms_error_ns = d->n > (uint64_t)p ? sqrt(rss / (double)(d->n - (uint64_t)p)) : 0;
	f->r2 = syy > 0 ? 1.0 - rss / syy : 0;
}

double rr_cost_estimate_ns(const struct rr_cost_fit *f, uint64_t calls,
			   uint64_t nr_scanned_pages, uint64_t nr_reclaimed_pages)
{
	double t;

	if (f->terms == RR_COST_NONE)
		return 0;
	t = f->fixed_ns * (double)calls + f->scan_ns_per_page * (double)nr_scanned_pages +
	    f->reclaim_ns_per_page * (double)nr_reclaimed_pages;
	return t > 0 ? t : 0;
}
