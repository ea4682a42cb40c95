// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary table, made for pasting into a review e-mail: fixed-width
 * columns, pages and MiB labelled, the recording first, then the baseline
 * and each policy with its difference to the baseline.
 */
#include "output.h"

static double mib(uint64_t pages, uint64_t page_size)
{
	return (double)pages * (double)page_size / (1024.0 * 1024.0);
}

void rr_out_print_table(const struct rr_out *o, FILE *f)
{
	const struct rr_policy_totals *base = o->nr_policies ? &o->totals[0] : NULL;

	fprintf(f, "episodes: %llu replayed, %llu skipped (page size %llu bytes)\n\n",
		(unsigned long long)o->nr_replayed, (unsigned long long)o->nr_skipped,
		(unsigned long long)o->page_size_bytes);
	fprintf(f, "%-22s %14s %14s %12s %8s %8s %8s %10s %9s\n", "policy",
		"scanned_pages", "reclaimed_pg", "reclaim_MiB", "calls", "lruvecs",
		"low_prio", "differ", "as_rec");
	fprintf(f, "%-22s %14llu %14llu %12.1f %8s %8s %8d %10s %9s\n", "(recorded)",
		(unsigned long long)o->recorded.nr_scanned,
		(unsigned long long)o->recorded.nr_reclaimed,
		mib(o->recorded.nr_reclaimed, o->page_size_bytes), "-", "-",
		o->recorded.lowest_priority, "-", "-");
	for (int i = 0; i < o->nr_policies; i++) {
		const struct rr_policy_totals *t = &o->totals[i];
		char differ[32];

		if (i == 0)
			snprintf(differ, sizeof(differ), "baseline");
		else
			snprintf(differ, sizeof(differ), "%llu",
				 (unsigned long long)t->episodes_differing);
		fprintf(f, "%-22.22s %14llu %14llu %12.1f %8llu %8llu %8d %10s %9llu\n",
			o->policies[i].name, (unsigned long long)t->nr_scanned,
			(unsigned long long)t->nr_reclaimed,
			mib(t->nr_reclaimed, o->page_size_bytes),
			(unsigned long long)t->calls,
			(unsigned long long)t->shrink_lruvec_calls,
			t->lowest_priority, differ,
			(unsigned long long)t->episodes_matching_recording);
	}
	fprintf(f, "\ndiffer: episodes whose targets, calls or reclaim differ from %s; as_rec:\n"
		   "episodes whose inactive-list scan targets equal the recorded nr_requested sums\n",
		o->nr_policies ? o->policies[0].name : "the baseline");
	if (base && o->nr_policies > 1) {
		fprintf(f, "\nchange against %s (reclaimed pages, scanned pages):\n",
			o->policies[0].name);
		for (int i = 1; i < o->nr_policies; i++) {
			const struct rr_policy_totals *t = &o->totals[i];

			fprintf(f, "  %-22.22s %+lld reclaimed, %+lld scanned, %llu of %llu episodes differ\n",
				o->policies[i].name,
				(long long)(t->nr_reclaimed - base->nr_reclaimed),
				(long long)(t->nr_scanned - base->nr_scanned),
				(unsigned long long)t->episodes_differing,
				(unsigned long long)o->nr_replayed);
		}
	}
}
