// SPDX-License-Identifier: GPL-2.0-only
/*
 * Renderers of the fidelity totals (src/fidelity): the "fidelity" object
 * of the JSON outputs (man reclaim-replay-json.5) and the text block of
 * `report --fidelity` and the compare table.
 */
#include "output.h"

static const char *const uc_names[RR_UC__COUNT] = {
	[RR_UC_NO_ATTRIBUTION] = "no_attribution",
	[RR_UC_NO_PRIORITY] = "no_priority",
	[RR_UC_ONLINE_UNCERTAIN] = "online_state_uncertain",
	[RR_UC_NO_CONTEXT] = "no_context",
	[RR_UC_LOST_EVENTS] = "lost_events",
	[RR_UC_MGLRU] = "mglru",
	[RR_UC_RETRY_PASS] = "retry_pass",
	[RR_UC_ROOT_UNKNOWN] = "root_unknown",
	[RR_UC_SWAP_UNKNOWN] = "swap_unknown",
	[RR_UC_SWAPPINESS_UNKNOWN] = "swappiness_unknown",
	[RR_UC_NR_TO_RECLAIM] = "nr_to_reclaim_ambiguous",
	[RR_UC_ROOT_AMBIGUOUS] = "root_ambiguous",
	[RR_UC_FLUSH_UNKNOWN] = "flush_unknown",
	[RR_UC_DYING_SIZE] = "dying_memcg_size",
	[RR_UC_REFAULT_UNKNOWN] = "refaults_unknown",
	[RR_UC_TINY_UNKNOWN] = "file_is_tiny_unknown",
	[RR_UC_COST_UNKNOWN] = "root_cost_unknown",
	[RR_UC_CONCURRENT] = "size_changed_concurrently",
	[RR_UC_SIZE_DISPROVED] = "sizes_disproved",
	[RR_UC_PASS_UNKNOWN] = "pass_start_unknown",
	[RR_UC_ATTR_AMBIGUOUS] = "attribution_ambiguous",
	[RR_UC_ATTR_ASSUMED] = "attribution_assumed",
	[RR_UC_SIZES_STALE] = "sizes_stale",
	[RR_UC_DEACT_UNKNOWN] = "root_deactivation_unknown",
};

const char *rr_unchecked_name(enum rr_unchecked reason)
{
	return reason < RR_UC__COUNT ? uc_names[reason] : "unknown";
}

static double share(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* "12.34%", or "n/a" of nothing judged (never a share of zero calls) */
static const char *pct(char *buf, size_t len, uint64_t a, uint64_t b)
{
	if (!b)
		snprintf(buf, len, "%s", "n/a");
	else
		snprintf(buf, len, "%.2f%%", 100.0 * share(a, b));
	return buf;
}

/* Each share of the "fidelity" object and the two counts it divides. */
static const struct {
	const char *share, *num, *den;
} shares[] = {
	{ "exact_share", "exact", "decisions_checked" },
	{ "within_one_batch_share", "within_one_batch", "decisions_checked" },
	{ "trajectory_exact_share", "trajectory_exact", "trajectory_checked" },
};

static void set_shares(json_t *o)
{
	for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++) {
		json_t *num = json_object_get(o, shares[i].num);
		json_t *den = json_object_get(o, shares[i].den);

		/* null of nothing judged: never a share of zero calls */
		if (json_object_get(o, shares[i].share))
			json_object_set_new(o, shares[i].share, !json_integer_value(den) ? json_null() :
					    json_real(share((uint64_t)json_integer_value(num),
							    (uint64_t)json_integer_value(den))));
	}
}

void rr_fidelity_json_shares(json_t *fidelity)
{
	const char *kind;
	json_t *k;

	if (!json_is_object(fidelity))
		return;
	set_shares(fidelity);
	json_object_foreach(json_object_get(fidelity, "by_kind"), kind, k)
		set_shares(k);
}

json_t *rr_fidelity_json(const struct rr_fidelity *f)
{
	json_t *j = json_object(), *uc = json_object(), *worst = json_array(),
	       *kinds = json_object();
	uint64_t total_uc = 0;

	for (int i = 0; i < RR_UC__COUNT; i++) {
		total_uc += f->unchecked[i];
		if (f->unchecked[i])
			json_object_set_new(uc, rr_unchecked_name((enum rr_unchecked)i), json_integer((json_int_t)f->unchecked[i]));
	}
	json_object_set_new(j, "decisions_checked", json_integer((json_int_t)f->decisions_checked));
	json_object_set_new(j, "exact", json_integer((json_int_t)f->exact));
	json_object_set_new(j, "off_by_one", json_integer((json_int_t)f->off_by_one));
	json_object_set_new(j, "within_one_batch", json_integer((json_int_t)f->within_one_batch));
	json_object_set_new(j, "mismatched", json_integer((json_int_t)f->mismatched));
	/* (the shares here hold their place: set_shares() below computes them) */
	json_object_set_new(j, "exact_share", json_real(0));
	json_object_set_new(j, "within_one_batch_share", json_real(0));
	json_object_set_new(j, "decisions_unchecked", json_integer((json_int_t)total_uc));
	json_object_set_new(j, "swap_present_calls", json_integer((json_int_t)f->swap_present_calls));
	json_object_set_new(j, "swap_absent_calls", json_integer((json_int_t)f->swap_absent_calls));
	json_object_set_new(j, "silent_visits", json_integer((json_int_t)f->silent));
	json_object_set_new(j, "predicted_unrecorded", json_integer((json_int_t)f->predicted_unrecorded));
	json_object_set_new(j, "silent_visits_unjudged",
			    json_integer((json_int_t)(f->silent_unjudged + f->silent_cut)));
	json_object_set_new(j, "swappiness_fitted_calls",
			    json_integer((json_int_t)f->swappiness_fitted_calls));
	json_object_set_new(j, "decisions_probed", json_integer((json_int_t)f->decisions_probed));
	json_object_set_new(j, "decisions_on_lower_bound_sizes",
			    json_integer((json_int_t)f->decisions_on_lower_bounds));
	json_object_set_new(j, "decisions_on_lower_bound_sizes_exact",
			    json_integer((json_int_t)f->decisions_on_lower_bounds_exact));
	json_object_set_new(j, "unchecked_reasons", uc);
	for (int k = 0; k < RR_KIND__COUNT; k++) {
		json_t *o;

		if (!f->kind_checked[k] && !f->kind_unchecked[k])
			continue;
		o = json_object();
		json_object_set_new(o, "episodes", json_integer((json_int_t)f->kind_episodes[k]));
		json_object_set_new(o, "decisions_checked", json_integer((json_int_t)f->kind_checked[k]));
		json_object_set_new(o, "exact", json_integer((json_int_t)f->kind_exact[k]));
		json_object_set_new(o, "within_one_batch", json_integer((json_int_t)f->kind_within[k]));
		json_object_set_new(o, "decisions_unchecked",
				    json_integer((json_int_t)f->kind_unchecked[k]));
		json_object_set_new(o, "exact_share", json_real(0));
		json_object_set_new(kinds, rr_reclaim_kind_name((enum rr_reclaim_kind)k), o);
	}
	json_object_set_new(j, "by_kind", kinds);
	json_object_set_new(j, "kswapd_age_node_batches", json_integer((json_int_t)f->age_node_batches));
	json_object_set_new(j, "trajectory_checked", json_integer((json_int_t)f->trajectory_checked));
	json_object_set_new(j, "trajectory_exact", json_integer((json_int_t)f->trajectory_exact));
	json_object_set_new(j, "trajectory_exact_share", json_real(0));
	json_object_set_new(j, "trajectory_same_calls", json_integer((json_int_t)f->trajectory_same_calls));
	json_object_set_new(j, "trajectory_concurrent", json_integer((json_int_t)f->trajectory_overlapped));
	json_object_set_new(j, "trajectory_concurrent_exact",
			    json_integer((json_int_t)f->trajectory_overlapped_exact));
	json_object_set_new(j, "trajectory_same_stop_priority", json_integer((json_int_t)f->trajectory_same_stop));
	json_object_set_new(j, "trajectory_same_nr_reclaimed",
			    json_integer((json_int_t)f->trajectory_same_reclaimed));
	json_object_set_new(j, "episodes_total", json_integer((json_int_t)f->episodes_total));
	json_object_set_new(j, "episodes_checkable", json_integer((json_int_t)f->episodes_checkable));
	json_object_set_new(j, "trajectory_unchecked_offline_window",
			    json_integer((json_int_t)f->trajectory_unchecked_window));
	json_object_set_new(j, "trajectory_on_assumed_inputs",
			    json_integer((json_int_t)f->trajectory_assumed));
	json_object_set_new(j, "trajectory_on_assumed_inputs_exact",
			    json_integer((json_int_t)f->trajectory_assumed_exact));
	json_object_set_new(j, "trajectory_unchecked_interleaved",
			    json_integer((json_int_t)f->trajectory_unchecked_interleaved));
	json_object_set_new(j, "offline_moments_inferred",
			    json_integer((json_int_t)f->offline_moments_inferred));
	for (int i = 0; i < f->nr_worst; i++) {
		json_t *w = json_object();

		json_object_set_new(w, "episode", json_integer((json_int_t)f->worst[i].episode));
		json_object_set_new(w, "cgroup", json_string(f->worst[i].cgroup));
		json_object_set_new(w, "decisions_checked", json_integer((json_int_t)f->worst[i].checked));
		json_object_set_new(w, "not_exact", json_integer((json_int_t)f->worst[i].mismatched));
		json_object_set_new(w, "first_mismatch", json_string(f->worst[i].first));
		json_object_set_new(w, "likely_cause", json_string(f->worst[i].reason));
		json_array_append_new(worst, w);
	}
	json_object_set_new(j, "worst_episodes", worst);
	rr_fidelity_json_shares(j);
	return j;
}

/* The calls by episode kind, when more than one kind was checked. */
static void print_kinds(const struct rr_fidelity *f, FILE *out)
{
	int kinds = 0;
	char p[16], q[16];

	for (int k = 0; k < RR_KIND__COUNT; k++)
		kinds += f->kind_checked[k] || f->kind_unchecked[k];
	if (kinds < 2 && !f->age_node_batches)
		return;
	fprintf(out, "  by episode kind:   episodes  checked    exact  within_batch  not_judged\n");
	for (int k = 0; k < RR_KIND__COUNT; k++) {
		if (!f->kind_checked[k] && !f->kind_unchecked[k])
			continue;
		fprintf(out, "    %-10s %12llu %8llu %8s %13s %11llu\n",
			rr_reclaim_kind_name((enum rr_reclaim_kind)k),
			(unsigned long long)f->kind_episodes[k],
			(unsigned long long)f->kind_checked[k],
			pct(p, sizeof(p), f->kind_exact[k], f->kind_checked[k]),
			pct(q, sizeof(q), f->kind_within[k], f->kind_checked[k]),
			(unsigned long long)f->kind_unchecked[k]);
	}
	if (f->age_node_batches)
		fprintf(out, "  (%llu kswapd_age_node() batches, one active anon batch per memcg before "
			"a kswapd walk: not shrink_lruvec() calls, not judged)\n",
			(unsigned long long)f->age_node_batches);
}

void rr_fidelity_print(const struct rr_fidelity *f, FILE *out)
{
	uint64_t n = f->decisions_checked;
	char p[16];

	fprintf(out, "fidelity of the baseline against the recording:\n");
	if (f->swap_present_calls || f->swap_absent_calls)
		fprintf(out, "  (swap presence not in the trace: %llu calls fit only \"swap\", %llu only "
			"\"no swap\"%s)\n", (unsigned long long)f->swap_present_calls,
			(unsigned long long)f->swap_absent_calls,
			f->swap_present_calls && f->swap_absent_calls ? "; left open" :
			f->swap_present_calls ? "; taken as swap" : "; taken as no swap");
	if (f->swappiness_fitted_calls)
		fprintf(out, "  (v1 swappiness not in the trace: %llu calls judged under the values that "
			"fit their memcg's other calls best, a fitted input)\n",
			(unsigned long long)f->swappiness_fitted_calls);
	if (f->unchecked[RR_UC_SWAP_UNKNOWN])
		fprintf(out, "  (%llu calls depend on whether swap was present, which the trace does "
			"not say: give --swap yes or no)\n",
			(unsigned long long)f->unchecked[RR_UC_SWAP_UNKNOWN]);
	fprintf(out, "  decisions (shrink_lruvec() calls) checked: %llu\n", (unsigned long long)n);
	fprintf(out, "    exact             %8llu  %7s\n", (unsigned long long)f->exact,
		pct(p, sizeof(p), f->exact, n));
	fprintf(out, "    off by one page   %8llu  %7s  (not exact, every list within 1 page)\n",
		(unsigned long long)f->off_by_one, pct(p, sizeof(p), f->off_by_one, n));
	fprintf(out, "    within one batch  %8llu  %7s  (every list within 32 pages, exact included)\n",
		(unsigned long long)f->within_one_batch, pct(p, sizeof(p), f->within_one_batch, n));
	fprintf(out, "    mismatched        %8llu  %7s\n", (unsigned long long)f->mismatched,
		pct(p, sizeof(p), f->mismatched, n));
	if (f->decisions_probed)
		fprintf(out, "    on probed inputs  %8llu  %7s  (the recorder's shrink_lruvec() probe "
			"read them: nothing inferred)\n", (unsigned long long)f->decisions_probed,
			pct(p, sizeof(p), f->decisions_probed, n));
	if (f->decisions_on_lower_bounds)
		fprintf(out, "    on lower-bound sizes %5llu  %7s  (of memcgs older than the trace that no "
			"snapshot read; %llu exact: a call whose first batch shows more is not judged, "
			"so the size alone cannot make these wrong)\n",
			(unsigned long long)f->decisions_on_lower_bounds,
			pct(p, sizeof(p), f->decisions_on_lower_bounds, n),
			(unsigned long long)f->decisions_on_lower_bounds_exact);
	if (f->silent || f->predicted_unrecorded || f->silent_unjudged || f->silent_cut)
		fprintf(out, "  walk visits without a batch (between two recorded calls of a pass): "
			"%llu predicted silent too (not counted), %llu predicted with batches "
			"(counted above, never exact), %llu not judged\n",
			(unsigned long long)f->silent, (unsigned long long)f->predicted_unrecorded,
			(unsigned long long)(f->silent_unjudged + f->silent_cut));
	for (int i = 0; i < RR_UC__COUNT; i++)
		if (f->unchecked[i])
			fprintf(out, "  not judged (%s): %llu\n", rr_unchecked_name((enum rr_unchecked)i),
				(unsigned long long)f->unchecked[i]);
	print_kinds(f, out);
	fprintf(out, "  trajectories checked: %llu of %llu episodes; exact %llu (%s): same calls %llu, "
		"same stop priority %llu, same pages reclaimed %llu\n",
		(unsigned long long)f->trajectory_checked, (unsigned long long)f->episodes_total,
		(unsigned long long)f->trajectory_exact,
		pct(p, sizeof(p), f->trajectory_exact, f->trajectory_checked),
		(unsigned long long)f->trajectory_same_calls,
		(unsigned long long)f->trajectory_same_stop,
		(unsigned long long)f->trajectory_same_reclaimed);
	if (f->trajectory_overlapped)
		fprintf(out, "  (%llu of them overlap another task's reclaim, %llu exact: concurrent "
			"reclaimers share the lists, which a per-episode replay does not model)\n",
			(unsigned long long)f->trajectory_overlapped,
			(unsigned long long)f->trajectory_overlapped_exact);
	if (f->trajectory_assumed)
		fprintf(out, "  (%llu of them replayed on a swap presence or v1 swappiness the trace "
			"does not give, fitted or assumed (60); %llu exact)\n",
			(unsigned long long)f->trajectory_assumed,
			(unsigned long long)f->trajectory_assumed_exact);
	if (f->trajectory_unchecked_interleaved)
		fprintf(out, "  trajectories not judged: %llu whose walk interleaved with another task's "
			"under the same root (one shared cursor, in an order the trace does not give)\n",
			(unsigned long long)f->trajectory_unchecked_interleaved);
	if (f->nr_worst)
		fprintf(out, "  worst episodes:\n");
	for (int i = 0; i < f->nr_worst; i++)
		fprintf(out, "    #%llu %s: %llu of %llu calls not exact (likely: %s); first: %s\n",
			(unsigned long long)f->worst[i].episode, f->worst[i].cgroup,
			(unsigned long long)f->worst[i].mismatched,
			(unsigned long long)f->worst[i].checked, f->worst[i].reason, f->worst[i].first);
}
