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

/* "+1.5%" of @a against @b; against 0 no percentage exists: "n/a
 * (recorded 0)" unless both are 0 */
static void pct_text(char *buf, size_t len, uint64_t a, uint64_t b)
{
	if (b)
		snprintf(buf, len, "%+.1f%%", 100.0 * ((double)a - (double)b) / (double)b);
	else
		snprintf(buf, len, a ? "n/a (recorded 0)" : "+0.0%%");
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
		fprintf(f, "| (recorded) | %llu | %llu | %llu | %llu | - | - | - | %d | - |\n",
			(unsigned long long)o->nr_replayed,
			(unsigned long long)o->recorded.calls,
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
		fprintf(f, "%-*s %12llu %12llu %13.1f %9s %9s %7llu %12s %11d %8s %7s\n", w,
			"(recorded)", (unsigned long long)o->recorded.nr_scanned,
			(unsigned long long)o->recorded.nr_reclaimed,
			mib(o->recorded.nr_reclaimed, o->page_size_bytes), "-", "-",
			(unsigned long long)o->recorded.calls, "-", o->recorded.lowest_priority,
			"-", "-");
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

/* Why episodes were skipped, most frequent first. */
static void print_skips(FILE *f, const struct rr_totals *o)
{
	int order[RR_SKIP_REASONS_MAX], n = o->nr_skip_reasons;

	if (!o->nr_skipped)
		return;
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++)	/* (a handful: insertion sort) */
		for (int j = i; j > 0 && o->skip_reasons[order[j]].n > o->skip_reasons[order[j - 1]].n; j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	fprintf(f, "skipped:\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "  %6llu  %s\n", (unsigned long long)o->skip_reasons[order[i]].n,
			o->skip_reasons[order[i]].reason);
	if (o->skips_other)
		fprintf(f, "  %6llu  other reasons (see the JSON's skip_reason)\n",
			(unsigned long long)o->skips_other);
	fputc('\n', f);
}

/* The time model's line(s): what was fitted, on what, and how well. */
static void print_cost_model(FILE *f, const struct rr_cost_fit *fit, uint64_t global_calls)
{
	const char *sep = "";

	if (!fit->terms) {
		fprintf(f, "\ntime model: not fitted (%s; %llu recorded calls): no time estimates\n",
			fit->why_not, (unsigned long long)fit->n);
		return;
	}
	if (!global_calls)
		fprintf(f, "\ntime model (an estimate: least squares, every term >= 0, on %llu recorded\n"
			   "try_to_free_mem_cgroup_pages() calls): a call costs ",
			(unsigned long long)fit->n);
	else
		fprintf(f, "\ntime model (an estimate: least squares, every term >= 0, on %llu recorded\n"
			   "reclaim calls, %llu of them try_to_free_pages() or __node_reclaim()):\n"
			   "a call costs ", (unsigned long long)fit->n,
			(unsigned long long)global_calls);
	if (fit->terms & RR_COST_TERM_FIXED) {
		fprintf(f, "%.1f us", fit->fixed_ns / 1e3);
		sep = " + ";
	}
	if (fit->terms & RR_COST_TERM_SCAN) {
		fprintf(f, "%s%.1f ns per page scanned", sep, fit->scan_ns_per_page);
		sep = " + ";
	}
	if (fit->terms & RR_COST_TERM_RECLAIM)
		fprintf(f, "%s%.1f ns per page reclaimed", sep, fit->reclaim_ns_per_page);
	fprintf(f, ";\n  error: %.1f us per call (RMS of the residuals; mean call %.1f us), R^2 %.4f\n",
		fit->rms_error_ns / 1e3, fit->mean_ns / 1e3, fit->r2);
	if (fit->terms != (RR_COST_TERM_FIXED | RR_COST_TERM_SCAN | RR_COST_TERM_RECLAIM))
		fprintf(f, "  (terms left out: the data gives them no non-negative share, or cannot "
			   "tell them apart)\n");
}


/*
 * The memory.reclaim writes (proactive episodes) on their own: calls,
 * over-reclaim, -EAGAIN, and the estimated time and rate, as the seed
 * thread's table (287d5fedb377) gives them.
 */
/* One row of the memory.reclaim block: recorded (@p < 0) or policy @p. */
struct kind_row {
	const char *name;
	uint64_t calls, reclaimed, eagain;
	double over_mib, seconds;
	bool timed;	/* recorded, or a time model was fitted */
};

static void kind_row(const struct rr_totals *o, const struct rr_resolved_policy *policies,
		     const struct rr_cost_fit *fit, int p, struct kind_row *r)
{
	const struct rr_kind_totals *k = &o->proactive;

	if (p < 0) {
		*r = (struct kind_row){
			.name = "(recorded)", .calls = k->recorded.calls,
			.reclaimed = k->recorded.nr_reclaimed, .eagain = k->recorded.eagain,
			.over_mib = mib(k->recorded.over_reclaim, o->page_size_bytes),
			.seconds = (double)k->recorded_in_calls_ns / 1e9, .timed = true,
		};
		return;
	}
	*r = (struct kind_row){
		.name = policies[p].name, .calls = k->policy[p].calls,
		.reclaimed = k->policy[p].nr_reclaimed, .eagain = k->policy[p].eagain,
		.over_mib = mib(k->policy[p].over_reclaim, o->page_size_bytes),
		.seconds = rr_cost_estimate_ns(fit, k->policy[p].calls, k->policy[p].nr_scanned,
					       k->policy[p].nr_reclaimed) / 1e9,
		.timed = fit->terms != 0,
	};
}

/*
 * The memory.reclaim writes (proactive episodes) on their own: calls,
 * over-reclaim, -EAGAIN, and the estimated time and rate, as the seed
 * thread's table (287d5fedb377) gives them.
 */
static void print_proactive(FILE *f, const struct rr_totals *o,
			    const struct rr_resolved_policy *policies, int w,
			    const struct rr_cost_fit *fit, bool markdown)
{
	const struct rr_kind_totals *k = &o->proactive;

	fprintf(f, "\nmemory.reclaim writes: %llu replayed", (unsigned long long)k->replayed);
	if (k->inferred)
		fprintf(f, " (%llu inferred from calls without markers: requests inferred, see "
			   "the JSON)", (unsigned long long)k->inferred);
	fprintf(f, ", %llu skipped\n", (unsigned long long)k->skipped);
	if (!k->replayed)
		return;
	if (markdown)
		fprintf(f, "\n| policy | calls | reclaimed pages | over-reclaim MiB | -EAGAIN "
			   "| time s (est.) | pages/s (est.) |\n|---|---:|---:|---:|---:|---:|---:|\n");
	else
		fprintf(f, "%-*s %8s %12s %9s %6s %11s %12s\n", w, "policy", "calls",
			"reclaimed_pg", "over_MiB", "eagain", "est_time_s", "est_pages/s");
	for (int p = o->has_recording ? -1 : 0; p < o->nr_policies; p++) {
		struct kind_row r;
		double rate;

		kind_row(o, policies, fit, p, &r);
		rate = r.seconds > 0 ? (double)r.reclaimed / r.seconds : 0.0;
		if (markdown) {
			fputs("| ", f);
			for (const char *c = r.name; *c; c++) {	/* a | would end the cell */
				if (*c == '|' || *c == '\\')
					fputc('\\', f);
				fputc(*c, f);
			}
			fprintf(f, " | %llu | %llu | %.1f | %llu | ", (unsigned long long)r.calls,
				(unsigned long long)r.reclaimed, r.over_mib,
				(unsigned long long)r.eagain);
			if (r.timed)
				fprintf(f, "%.6f | %.0f |\n", r.seconds, rate);
			else
				fprintf(f, "- | - |\n");
			continue;
		}
		fprintf(f, "%-*s %8llu %12llu %9.1f %6llu", w, r.name, (unsigned long long)r.calls,
			(unsigned long long)r.reclaimed, r.over_mib, (unsigned long long)r.eagain);
		if (r.timed)
			fprintf(f, " %11.6f %12.0f\n", r.seconds, rate);
		else
			fprintf(f, " %11s %12s\n", "-", "-");
	}
	if (markdown) {
		fprintf(f, "\nThe (recorded) time is measured inside the reclaim calls; the "
			   "policies' are estimates of the time model.\n");
		return;
	}
	if (o->has_recording)
		fprintf(f, "(recorded) time: measured, inside the reclaim calls; %.6f s from each "
			   "write's begin to its end\n(the markers, or an inferred write's first and "
			   "last call)\n", (double)k->recorded_duration_ns / 1e9);
	fprintf(f, "est_time_s: the time model's cost of each policy's own calls, pages scanned\n"
		   "and reclaimed (an estimate); over_MiB: reclaimed beyond each write's request\n");
}

/* One side of a kind: the recording (@p < 0) or policy @p. */
static void kind_side(FILE *f, const struct rr_totals *o, const struct rr_kind_totals *k,
		      const struct rr_resolved_policy *policies, int p, int w, bool global,
		      bool markdown)
{
	const struct rr_kind_counts *c = p < 0 ? &k->recorded : &k->policy[p];
	const struct rr_supplier *top[1];
	const char *name = p < 0 ? "(recorded)" : policies[p].name;
	char who[160] = "-";

	if (global && rr_kind_suppliers(k, p < 0 ? RR_MAX_POLICIES : p, top, 1)) {
		const struct rr_memcg *m = o->names ? rr_state_find(o->names, top[0]->memcg_id) :
					   NULL;
		uint64_t all = c->nr_reclaimed_type[0] + c->nr_reclaimed_type[1];

		if (m && m->path)
			snprintf(who, sizeof(who), "%s", m->path);
		else
			snprintf(who, sizeof(who), "memcg_id=%llu",
				 (unsigned long long)top[0]->memcg_id);
		if (all)
			snprintf(who + strlen(who), sizeof(who) - strlen(who), " (%.0f%%)",
				 100.0 * (double)top[0]->nr_reclaimed[p < 0 ? RR_MAX_POLICIES : p] /
				 (double)all);
	}
	if (markdown) {
		fprintf(f, "| %s | %llu | %llu | %llu | %llu | %d | %.1f | %s |\n", name,
			(unsigned long long)c->nr_scanned, (unsigned long long)c->nr_reclaimed,
			(unsigned long long)c->nr_reclaimed_type[RR_LRU_ANON],
			(unsigned long long)c->nr_reclaimed_type[RR_LRU_FILE], c->lowest_priority,
			k->replayed ? (double)c->memcgs_scanned / (double)k->replayed : 0.0, who);
		return;
	}
	fprintf(f, "  %-*s %12llu %12llu %11llu %11llu %6d %9.1f  %s\n", w, name,
		(unsigned long long)c->nr_scanned, (unsigned long long)c->nr_reclaimed,
		(unsigned long long)c->nr_reclaimed_type[RR_LRU_ANON],
		(unsigned long long)c->nr_reclaimed_type[RR_LRU_FILE], c->lowest_priority,
		k->replayed ? (double)c->memcgs_scanned / (double)k->replayed : 0.0, who);
}

/* kswapd runs whose replay reached the recorded run's balance interval:
 * said, since what they reclaimed after it is one of two outcomes. */
static void print_balance_undecidable(FILE *f, const struct rr_kind_totals *k,
				      const struct rr_resolved_policy *policies, int np,
				      bool markdown)
{
	bool any = false;

	for (int p = 0; p < np; p++)
		any |= k->policy[p].balance_undecidable > 0;
	if (!any)
		return;
	fprintf(f, "%s  balance undecidable (runs):", markdown ? "\n" : "");
	for (int p = 0; p < np; p++)
		fprintf(f, " %s %llu%s", policies[p].name,
			(unsigned long long)k->policy[p].balance_undecidable, p + 1 < np ? "," : "");
	fprintf(f, "\n  (a replayed run reached a total between what the recorded one had before "
		   "its lowest priority,\n  not balanced, and what it reclaimed, balanced: whether "
		   "the node was balanced there is\n  not in the trace; the replay went on)\n");
}

/*
 * The totals split by episode kind, when the input holds global reclaim
 * (kswapd, direct, node) or more than one kind: what each policy changes
 * in each, and which memcg supplied the pages of global reclaim.
 */
static void print_kinds(FILE *f, const struct rr_totals *o,
			const struct rr_resolved_policy *policies, int w, bool markdown)
{
	int kinds = 0;
	bool global = false;

	for (int kind = 0; kind < RR_KIND__COUNT; kind++) {
		kinds += o->kinds[kind].replayed || o->kinds[kind].skipped;
		global |= rr_kind_global((enum rr_reclaim_kind)kind) &&
			  (o->kinds[kind].replayed || o->kinds[kind].skipped);
	}
	if (kinds < 2 && !global)
		return;
	fprintf(f, "\nby episode kind (pages; anon reclaimed = swapped out; memcgs/ep: memcgs "
		   "scanned per episode;\ntop supplier: the memcg that gave the most pages; the "
		   "recorded reclaim_pg is the end events'\ncount, slab pages included, anon and "
		   "file are the batches'):\n");
	for (int kind = 0; kind < RR_KIND__COUNT; kind++) {
		const struct rr_kind_totals *k = &o->kinds[kind];
		bool g = rr_kind_global((enum rr_reclaim_kind)kind);

		if (!k->replayed && !k->skipped)
			continue;
		fprintf(f, "\n%s: %llu replayed, %llu skipped%s\n",
			rr_reclaim_kind_name((enum rr_reclaim_kind)kind),
			(unsigned long long)k->replayed, (unsigned long long)k->skipped,
			k->skipped && !k->replayed ? " (the reasons above)" : "");
		if (!k->replayed)
			continue;
		if (markdown)
			fprintf(f, "\n| policy | scanned | reclaimed | anon reclaimed | file reclaimed "
				   "| lowest priority | memcgs/ep | top supplier |\n"
				   "|---|---:|---:|---:|---:|---:|---:|---|\n");
		else
			fprintf(f, "  %-*s %12s %12s %11s %11s %6s %9s  %s\n", w, "policy", "scanned_pg",
				"reclaim_pg", "anon_rc_pg", "file_rc_pg", "lowest", "memcgs/ep",
				"top supplier");
		for (int p = o->has_recording ? -1 : 0; p < o->nr_policies; p++)
			kind_side(f, o, k, policies, p, w, g, markdown);
		if (kind == RR_KIND_KSWAPD)
			print_balance_undecidable(f, k, policies, o->nr_policies, markdown);
	}
}

void rr_table_print(FILE *f, const struct rr_totals *o,
		    const struct rr_resolved_policy *policies,
		    const struct rr_fidelity *fidelity, bool markdown)
{
	const struct rr_policy_totals *base = o->nr_policies ? &o->policy[o->baseline] : NULL;
	struct row rows[RR_MAX_POLICIES];
	struct rr_cost_fit fit;
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
	print_skips(f, o);
	if (!o->nr_replayed) {
		/* no row of zeros that reads as "the model reclaimed nothing" */
		fprintf(f, "no episode was replayed: no policy results%s\n",
			o->nr_skipped ? " (the reasons above)" : " (the trace has no replayable "
			"reclaim episode: memcg limit, v1 soft-limit, memory.reclaim, kswapd or "
			"direct reclaim)");
		return;
	}
	if (markdown)
		print_markdown(o, rows, f);
	else
		print_text(o, policies, rows, w, f);
	if (o->has_recording) {
		const struct rr_policy_totals *k = &o->policy[0];

		char sc[24], rc[24];

		pct_text(sc, sizeof(sc), k->nr_scanned, o->recorded.nr_scanned);
		pct_text(rc, sizeof(rc), k->nr_reclaimed, o->recorded.nr_reclaimed);
		fprintf(f, "\n%s against the recording: scanned %s, reclaimed %s, "
			   "%llu of %llu episodes scan the recorded inactive-list totals of each memcg\n"
			   "and priority (a memory.reclaim write is one episode; the trajectories of the\n"
			   "fidelity check judge each reclaim call)\n",
			policies[0].name, sc, rc,
			(unsigned long long)k->episodes_matching_recording,
			(unsigned long long)o->nr_replayed);
		if (fidelity) {
			fputc('\n', f);
			rr_fidelity_print(fidelity, f);
		}
	}
	if (o->has_recording)
		rr_cost_fit(&o->cost, &fit);
	else
		fit = (struct rr_cost_fit){ .terms = 0,
					    .why_not = "a scenario has no recorded calls" };
	if (o->has_recording)
		print_cost_model(f, &fit, o->cost_global_calls);
	if (o->proactive.replayed || o->proactive.skipped)
		print_proactive(f, o, policies, w, &fit, markdown);
	print_kinds(f, o, policies, w, markdown);
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
