// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary table, made for pasting into a review e-mail: one row per
 * variant, units in the headers (pg = pages), the recording first, then
 * each policy, then how each differs from the baseline and the episodes
 * that differ most.  --format markdown writes the same rows as a markdown
 * table.
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

struct row {
	const char *name;
	char differ[24], as_rec[24], calls[24], lruvecs[24], p12[24];
	uint64_t scanned, reclaimed, over, anon;
	int lowest;
};

static void rows_of(const struct rr_totals *o, const struct rr_resolved_policy *policies,
		    struct row *rows)
{
	for (int i = 0; i < o->nr_policies; i++) {
		const struct rr_policy_totals *t = &o->policy[i];
		struct row *r = &rows[i];

		memset(r, 0, sizeof(*r));
		r->name = policies[i].name;
		if (i == o->baseline)
			snprintf(r->differ, sizeof(r->differ), "baseline");
		else
			snprintf(r->differ, sizeof(r->differ), "%llu",
				 (unsigned long long)t->episodes_differing);
		snprintf(r->as_rec, sizeof(r->as_rec), "%s", "-");
		if (o->has_recording)
			snprintf(r->as_rec, sizeof(r->as_rec), "%llu",
				 (unsigned long long)t->episodes_matching_recording);
		snprintf(r->calls, sizeof(r->calls), "%llu", (unsigned long long)t->calls);
		snprintf(r->lruvecs, sizeof(r->lruvecs), "%llu",
			 (unsigned long long)t->shrink_lruvec_calls);
		snprintf(r->p12, sizeof(r->p12), "%llu", (unsigned long long)t->eligible_p12);
		r->scanned = t->nr_scanned;
		r->reclaimed = t->nr_reclaimed;
		r->over = t->over_reclaim;
		r->anon = t->nr_reclaimed_anon;
		r->lowest = t->lowest_priority;
	}
}

/* Policy names are escaped (\| and \\); the rest are numbers. */
static void print_markdown(const struct rr_totals *o, const struct row *rows, FILE *f)
{
	fprintf(f, "| policy | episodes | calls | scanned pages | reclaimed pages | over-reclaim MiB "
		   "| anon reclaimed MiB | scan targets at priority 12 | lowest priority | differ |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	if (o->has_recording)
		fprintf(f, "| (recorded) | %llu | - | %llu | %llu | - | - | - | %d | - |\n",
			(unsigned long long)o->nr_replayed,
			(unsigned long long)o->recorded.nr_scanned,
			(unsigned long long)o->recorded.nr_reclaimed, o->recorded.lowest_priority);
	for (int i = 0; i < o->nr_policies; i++) {
		const struct row *r = &rows[i];

		fputs("| ", f);
		for (const char *c = r->name; *c; c++) {	/* a | would end the cell */
			if (*c == '|' || *c == '\\')
				fputc('\\', f);
			fputc(*c, f);
		}
		fprintf(f, " | %llu | %s | %llu | %llu | %.1f | %.1f | %s | %d | %s |\n",
			(unsigned long long)o->nr_replayed, r->calls,
			(unsigned long long)r->scanned, (unsigned long long)r->reclaimed,
			mib(r->over, o->page_size_bytes), mib(r->anon, o->page_size_bytes),
			r->p12, r->lowest, r->differ);
	}
}

static void print_text(const struct rr_totals *o, const struct rr_resolved_policy *policies,
		       const struct row *rows, int w, FILE *f)
{
	fprintf(f, "%-*s %12s %12s %13s %9s %9s %7s %12s %11s %8s %7s\n", w, "policy",
		"scanned_pg", "reclaimed_pg", "reclaimed_MiB", "over_MiB", "anon_MiB", "calls",
		"lruvec_calls", "lowest_prio", "differ", "as_rec");
	if (o->has_recording)
		fprintf(f, "%-*s %12llu %12llu %13.1f %9s %9s %7s %12s %11d %8s %7s\n", w, "(recorded)",
			(unsigned long long)o->recorded.nr_scanned,
			(unsigned long long)o->recorded.nr_reclaimed,
			mib(o->recorded.nr_reclaimed, o->page_size_bytes), "-", "-", "-", "-",
			o->recorded.lowest_priority, "-", "-");
	for (int i = 0; i < o->nr_policies; i++) {
		const struct row *r = &rows[i];

		fprintf(f, "%-*s %12llu %12llu %13.1f %9.1f %9.1f %7s %12s %11d %8s %7s\n", w,
			r->name, (unsigned long long)r->scanned, (unsigned long long)r->reclaimed,
			mib(r->reclaimed, o->page_size_bytes), mib(r->over, o->page_size_bytes),
			mib(r->anon, o->page_size_bytes), r->calls, r->lruvecs, r->lowest,
			r->differ, r->as_rec);
	}
	fprintf(f, "\nscanned_pg: pages taken off inactive lists; over_MiB: reclaimed beyond each\n"
		   "request, summed; lruvec_calls: shrink_lruvec() calls; lowest_prio: lowest\n"
		   "reclaim priority reached (12 = none below the first); differ: episodes whose\n"
		   "targets, calls or reclaim differ from %s; as_rec: episodes whose\n"
		   "inactive-list scan targets equal the recorded nr_requested sums\n",
		policies[o->baseline].name);
}

void rr_table_print(FILE *f, const struct rr_totals *o,
		    const struct rr_resolved_policy *policies,
		    const struct rr_fidelity *fidelity, bool markdown)
{
	const struct rr_policy_totals *base = o->nr_policies ? &o->policy[o->baseline] : NULL;
	struct row rows[RR_MAX_POLICIES];
	int w = (int)strlen("(recorded)");

	if (!base)
		return;
	for (int i = 0; i < o->nr_policies; i++) {
		int n = (int)strlen(policies[i].name);

		if (n > w)
			w = n;
	}
	rows_of(o, policies, rows);
	fprintf(f, "episodes: %llu replayed, %llu skipped, %llu listed; page size %llu bytes\n\n",
		(unsigned long long)o->nr_replayed,
		(unsigned long long)o->nr_skipped, (unsigned long long)o->nr_listed,
		(unsigned long long)o->page_size_bytes);
	if (markdown)
		print_markdown(o, rows, f);
	else
		print_text(o, policies, rows, w, f);
	if (o->has_recording) {
		const struct rr_policy_totals *k = &o->policy[0];

		fprintf(f, "\n%s against the recording: scanned %+.1f%%, reclaimed %+.1f%%, "
			   "%llu of %llu episodes reproduce the recorded targets\n",
			policies[0].name, pct(k->nr_scanned, o->recorded.nr_scanned),
			pct(k->nr_reclaimed, o->recorded.nr_reclaimed),
			(unsigned long long)k->episodes_matching_recording,
			(unsigned long long)o->nr_replayed);
		if (fidelity) {
			fputc('\n', f);
			rr_fidelity_print(fidelity, f);
		}
	}
	if (o->nr_policies > 1)
		fprintf(f, "\nchange against %s:\n", policies[o->baseline].name);
	for (int i = 0; i < o->nr_policies; i++) {
		const struct rr_policy_totals *t = &o->policy[i];

		if (i == o->baseline)
			continue;
		fprintf(f, "  %-*s %+lld pages reclaimed (%+.1f MiB), %+lld pages scanned, "
			   "%+lld calls, %llu of %llu episodes differ\n", w, policies[i].name,
			(long long)(t->nr_reclaimed - base->nr_reclaimed),
			mib(t->nr_reclaimed, o->page_size_bytes) -
			mib(base->nr_reclaimed, o->page_size_bytes),
			(long long)(t->nr_scanned - base->nr_scanned),
			(long long)(t->calls - base->calls),
			(unsigned long long)t->episodes_differing,
			(unsigned long long)o->nr_replayed);
	}
	if (o->nr_top) {
		fprintf(f, "\nepisodes that differ most from %s:\n", policies[o->baseline].name);
		for (int i = 0; i < o->nr_top; i++) {
			const struct rr_top *t = &o->top[i];

			fprintf(f, "  #%llu at %.6f s %s, %s: %+lld pages reclaimed, %+lld scanned, "
				   "%+lld calls\n", (unsigned long long)t->episode,
				(double)t->start_ns / 1e9, t->cgroup, policies[t->policy].name,
				(long long)t->delta_reclaimed, (long long)t->delta_scanned,
				(long long)t->delta_calls);
		}
	}
}
