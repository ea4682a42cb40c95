// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary table, made for pasting into a review e-mail: fixed-width
 * columns, units in the headers (pg = pages), the recording first, then
 * the baseline and each policy, then how each differs from the baseline.
 */
#include <string.h>

#include "output.h"

static double mib(uint64_t pages, uint64_t page_size)
{
	return (double)pages * (double)page_size / (1024.0 * 1024.0);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * ((double)a - (double)b) / (double)b : 0.0;
}

void rr_out_print_table(const struct rr_out *o, FILE *f)
{
	const struct rr_policy_totals *base = o->nr_policies ? &o->totals[0] : NULL;
	int w = (int)strlen("(recorded)");

	for (int i = 0; i < o->nr_policies; i++) {
		int n = (int)strlen(o->policies[i].name);

		if (n > w)
			w = n;
	}
	fprintf(f, "episodes: %llu replayed, %llu skipped; page size %llu bytes\n\n",
		(unsigned long long)o->nr_replayed, (unsigned long long)o->nr_skipped,
		(unsigned long long)o->page_size_bytes);
	fprintf(f, "%-*s %12s %12s %13s %7s %12s %11s %8s %7s\n", w, "policy",
		"scanned_pg", "reclaimed_pg", "reclaimed_MiB", "calls", "lruvec_calls",
		"lowest_prio", "differ", "as_rec");
	if (o->has_recording)
		fprintf(f, "%-*s %12llu %12llu %13.1f %7s %12s %11d %8s %7s\n", w, "(recorded)",
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
		char as_rec[32] = "-";

		if (o->has_recording)
			snprintf(as_rec, sizeof(as_rec), "%llu",
				 (unsigned long long)t->episodes_matching_recording);
		fprintf(f, "%-*s %12llu %12llu %13.1f %7llu %12llu %11d %8s %7s\n", w,
			o->policies[i].name, (unsigned long long)t->nr_scanned,
			(unsigned long long)t->nr_reclaimed,
			mib(t->nr_reclaimed, o->page_size_bytes),
			(unsigned long long)t->calls,
			(unsigned long long)t->shrink_lruvec_calls,
			t->lowest_priority, differ, as_rec);
	}
	fprintf(f, "\nscanned_pg: pages taken off inactive lists; lruvec_calls: shrink_lruvec() calls;\n"
		   "lowest_prio: lowest reclaim priority reached (12 = none below the first);\n"
		   "differ: episodes whose targets, calls or reclaim differ from %s;\n"
		   "as_rec: episodes whose inactive-list scan targets equal the recorded nr_requested sums\n",
		base ? o->policies[0].name : "the baseline");
	if (!base)
		return;
	if (o->has_recording)
		fprintf(f, "\n%s against the recording: scanned %+.1f%%, reclaimed %+.1f%%, "
		   "%llu of %llu episodes reproduce the recorded targets\n",
		o->policies[0].name, pct(base->nr_scanned, o->recorded.nr_scanned),
		pct(base->nr_reclaimed, o->recorded.nr_reclaimed),
		(unsigned long long)base->episodes_matching_recording,
		(unsigned long long)o->nr_replayed);
	if (o->has_recording) {
		fputc('\n', f);
		rr_fidelity_print(&o->fidelity, f);
	}
	if (o->nr_policies > 1)
		fprintf(f, "\nchange against %s:\n", o->policies[0].name);
	for (int i = 1; i < o->nr_policies; i++) {
		const struct rr_policy_totals *t = &o->totals[i];

		fprintf(f, "  %-*s %+lld pages reclaimed (%+.1f MiB), %+lld pages scanned, "
			   "%llu of %llu episodes differ\n", w, o->policies[i].name,
			(long long)(t->nr_reclaimed - base->nr_reclaimed),
			mib(t->nr_reclaimed, o->page_size_bytes) -
			mib(base->nr_reclaimed, o->page_size_bytes),
			(long long)(t->nr_scanned - base->nr_scanned),
			(unsigned long long)t->episodes_differing,
			(unsigned long long)o->nr_replayed);
	}
}
