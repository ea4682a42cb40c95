// SPDX-License-Identifier: GPL-2.0-only
/*
 * The batch model of reclaim time (timing.h): the cost per page taken and
 * reclaimed from every recorded inactive batch (thousands of samples in
 * one long call), the rest of a call (decisions, active lists,
 * shrink_slab(), drains) per call and per shrink_lruvec() call.  Both
 * stages reuse the call model's non-negative least squares (cost-model.c).
 */
#include "timing.h"

#include <math.h>
#include <string.h>

void rr_batch_cost_add_batch(struct rr_batch_cost_data *d, int type, uint64_t nr_taken,
			     uint64_t nr_reclaimed, uint64_t duration_ns)
{
	if (type < 0 || type > 1)
		return;
	rr_cost_add(&d->type[type], nr_taken, nr_reclaimed, duration_ns);
}

void rr_batch_cost_add_call(struct rr_batch_cost_data *d, uint64_t lruvec_calls,
			    uint64_t batches_ns, uint64_t call_ns)
{
	d->calls++;
	d->lruvec_calls += lruvec_calls;
	d->call_ns += (double)call_ns;
	d->rest_ns += call_ns > batches_ns ? (double)(call_ns - batches_ns) : 0;
	/* the rest against the shrink_lruvec() calls: x = those, y = none */
	rr_cost_add(&d->rest, lruvec_calls, 0, call_ns > batches_ns ? call_ns - batches_ns : 0);
}

void rr_batch_cost_fit(const struct rr_batch_cost_data *d, struct rr_batch_cost_fit *f)
{
	memset(f, 0, sizeof(*f));
	f->calls = d->calls;
	for (int t = 0; t < 2; t++) {
		f->batches[t] = d->type[t].n;
		f->mean_taken[t] = d->type[t].mean[0];
		if (d->type[t].n >= RR_BATCH_COST_MIN_BATCHES)
			rr_cost_fit(&d->type[t], &f->type[t]);
	}
	if (!f->type[0].terms && !f->type[1].terms) {
		f->why_not = d->type[0].n + d->type[1].n ?
			     "fewer than 32 recorded inactive batches of either type, with their "
			     "shrink event" :
			     "no recorded inactive batch with its shrink event (a trace of "
			     "another kind, or without reclaim calls)";
		return;
	}
	if (!d->calls) {
		f->why_not = "no recorded reclaim call with its begin and end";
		memset(f->type, 0, sizeof(f->type));
		return;
	}
	/* the rest, the calls' time outside their inactive batches (the walk,
	 * get_scan_count(), active batches, shrink_slab(), flushes): its
	 * average per shrink_lruvec() call, a pass; per call only where no
	 * pass was counted.  (A least-squares split between calls and passes
	 * cannot be told where every recorded call makes the same passes, as
	 * a write's do: it gave the whole rest to the calls, 15 ms a call on
	 * the lab's stock proactive-file, which cluster-cap's 32-page calls
	 * would multiply by thousands.) */
	f->rest_per_lruvec_ns = d->lruvec_calls ? d->rest_ns / (double)d->lruvec_calls : 0;
	f->rest_per_call_ns = d->lruvec_calls ? 0 : d->rest_ns / (double)d->calls;
	f->rest_fitted = d->lruvec_calls > 0;
	f->recorded_call_ns = d->call_ns;
	f->fitted = true;
}

double rr_batch_cost_estimate_ns(const struct rr_batch_cost_fit *f, uint64_t calls,
				 uint64_t lruvec_calls, const uint64_t nr_scanned[2],
				 const uint64_t nr_reclaimed[2])
{
	double ns = 0;

	if (!f->fitted)
		return 0;
	for (int t = 0; t < 2; t++) {
		const struct rr_cost_fit *c = &f->type[t];
		double batches;

		if (!nr_scanned[t] && !nr_reclaimed[t])
			continue;
		/* a type without its own fit: the other's (the pages are pages) */
		if (!c->terms)
			c = &f->type[!t];
		/* the batches a run of so many pages makes: as the recorded ones
		 * took, on average */
		batches = f->mean_taken[t] > 0 ? (double)nr_scanned[t] / f->mean_taken[t] :
			  (double)nr_scanned[t] / 32.0;
		if (c->terms & RR_COST_TERM_FIXED)
			ns += c->fixed_ns * batches;
		if (c->terms & RR_COST_TERM_SCAN)
			ns += c->scan_ns_per_page * (double)nr_scanned[t];
		if (c->terms & RR_COST_TERM_RECLAIM)
			ns += c->reclaim_ns_per_page * (double)nr_reclaimed[t];
	}
	ns += f->rest_per_call_ns * (double)calls + f->rest_per_lruvec_ns * (double)lruvec_calls;
	return ns > 0 ? ns : 0;
}
