// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON encoding of the diff's totals, the policies and the input
 * (man reclaim-replay-json.5), through jansson; an episode's is in
 * json-episode.c.  Keys are inserted in a fixed order (jansson keeps insertion
 * order) and arrays follow episode order, so the same input gives the
 * same bytes.  Page counts are integers; units are in the key name where a
 * number could be pages or bytes.
 */
#include <math.h>

#include "output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *stats_json(const struct rr_input_desc *in)
{
	const struct rr_trace_info *ti = in->ti;
	const struct rr_builder_stats *bs = in->bs;
	json_t *st = json_object();

	json_object_set_new(st, "events", rr_json_u64(bs->events));
	json_object_set_new(st, "missed_events", rr_json_u64(ti->nr_missed_events));
	json_object_set_new(st, "memcg_episodes", rr_json_u64(bs->replay_ended[RR_KIND_MEMCG]));
	json_object_set_new(st, "softlimit_episodes", rr_json_u64(bs->replay_ended[RR_KIND_SOFTLIMIT]));
	json_object_set_new(st, "unterminated_episodes", rr_json_u64(bs->unterminated_episodes));
	json_object_set_new(st, "direct_reclaim_begins", rr_json_u64(bs->begins[RR_KIND_DIRECT]));
	json_object_set_new(st, "kswapd_wakes", rr_json_u64(bs->begins[RR_KIND_KSWAPD]));
	json_object_set_new(st, "node_reclaim_begins", rr_json_u64(bs->begins[RR_KIND_NODE]));
	json_object_set_new(st, "lru_batches", rr_json_u64(bs->batches));
	json_object_set_new(st, "lru_batches_unattributed", rr_json_u64(bs->batches_unattributed));
	json_object_set_new(st, "rstat_flushes", rr_json_u64(in->rstat_flushes));
	json_object_set_new(st, "memcgs", json_integer(in->memcgs));
	json_object_set_new(st, "reader_warnings", json_integer(in->reader_warnings));
	if (in->reader_warnings)
		json_object_set_new(st, "reader_first_warning", json_string(in->reader_first_warning));
	json_object_set_new(st, "shrink_without_isolate", rr_json_u64(bs->shrink_without_isolate));
	if (bs->attr_inferred) {
		/* no memcg: events: how each batch's memcg was inferred */
		json_t *a = json_object();

		json_object_set_new(a, "single", rr_json_u64(bs->attr[RR_ATTR_SINGLE]));
		json_object_set_new(a, "walk", rr_json_u64(bs->attr[RR_ATTR_WALK]));
		json_object_set_new(a, "ambiguous", rr_json_u64(bs->attr[RR_ATTR_AMBIGUOUS]));
		json_object_set_new(a, "assumed", rr_json_u64(bs->attr[RR_ATTR_ASSUMED]));
		json_object_set_new(a, "snapshot_size_lines", rr_json_u64(bs->attr_snapshot_sizes));
		json_object_set_new(a, "periodic_snapshots", rr_json_u64(bs->attr_periodic_snapshots));
		json_object_set_new(a, "hierarchy_inferred", json_boolean(bs->attr_hierarchy_inferred));
		if (in->drop_memcg_events && bs->memcg_events_dropped) {
			json_t *c = json_object();

			json_object_set_new(c, "batches", rr_json_u64(bs->attr_checked));
			json_object_set_new(c, "agree", rr_json_u64(bs->attr_agree));
			json_object_set_new(c, "wrong", rr_json_u64(bs->attr_wrong));
			json_object_set_new(c, "ambiguous", rr_json_u64(bs->attr_checked -
									bs->attr_agree -
									bs->attr_wrong));
			json_object_set_new(c, "ambiguous_agree", rr_json_u64(bs->attr_ambiguous_agree));
			json_object_set_new(a, "checked", c);
		}
		json_object_set_new(st, "attribution", a);
	}
	if (ti->format == RR_FORMAT_TEXT) {
		json_object_set_new(st, "text_lines", rr_json_u64(ti->text_lines));
		json_object_set_new(st, "text_other_lines", rr_json_u64(ti->text_other_lines));
		json_object_set_new(st, "text_malformed_events", rr_json_u64(ti->malformed_events));
	} else if (ti->malformed_events) {
		json_object_set_new(st, "malformed_events", rr_json_u64(ti->malformed_events));
	}
	return st;
}

json_t *rr_json_field_problems(const struct rr_trace_info *ti)
{
	json_t *a = json_array();

	for (int i = 0; i < ti->nr_field_problems; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "event", json_string(ti->field_problems[i].event));
		json_object_set_new(o, "field", json_string(ti->field_problems[i].field));
		json_object_set_new(o, "problem", json_string(
			rr_field_problem_token(ti->field_problems[i].problem)));
		json_object_set_new(o, "count", rr_json_u64(ti->field_problems[i].count));
		json_object_set_new(o, "dropped", json_boolean(
			ti->field_problems[i].problem != RR_FP_MISSING_KEPT &&
			ti->field_problems[i].problem != RR_FP_MISSING_ZERO));
		json_array_append_new(a, o);
	}
	if (ti->field_problems_other) {
		json_t *o = json_object();

		json_object_set_new(o, "event", json_string("(other)"));
		json_object_set_new(o, "field", json_string("(other)"));
		json_object_set_new(o, "problem", json_string("other"));
		json_object_set_new(o, "count", rr_json_u64(ti->field_problems_other));
		json_object_set_new(o, "dropped", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

json_t *rr_json_input(const struct rr_input_desc *in)
{
	json_t *j = json_object(), *as = json_array();

	for (int i = 0; i < in->nr_assumptions; i++)
		json_array_append_new(as, json_string(in->assumptions[i]));
	json_object_set_new(j, "file", json_string(in->file));
	if (!in->ti) {
		json_t *st = json_object();

		json_object_set_new(j, "scenario", json_integer(in->scenario_version));
		json_object_set_new(j, "kernel_release", json_string(in->kernel_release));
		json_object_set_new(j, "kernel_release_source", json_string(in->release_source));
		json_object_set_new(j, "page_size_bytes", rr_json_u64(in->page_size_bytes));
		json_object_set_new(j, "swap", json_boolean(in->swap));
		json_object_set_new(j, "outcome_model", json_string(in->outcome_model));
		json_object_set_new(j, "assumptions", as);
		json_object_set_new(st, "events", json_integer(0));
		json_object_set_new(st, "cgroups", json_integer(in->cgroups));
		json_object_set_new(st, "requests", json_integer(in->requests));
		json_object_set_new(j, "stats", st);
		return j;
	}
	json_object_set_new(j, "format", json_string(in->ti->format == RR_FORMAT_TEXT ?
						     "text" : "trace.dat"));
	if (in->ti->format == RR_FORMAT_TRACE_DAT)
		json_object_set_new(j, "file_version", json_integer(in->ti->file_version));
	json_object_set_new(j, "kernel_release", json_string(in->kernel_release));
	json_object_set_new(j, "kernel_release_source", json_string(in->release_source));
	if (in->kernel_policy && in->kernel_policy[0]) {
		json_t *kp = json_object();

		json_object_set_new(kp, "name", json_string(in->kernel_policy));
		json_object_set_new(kp, "source", json_string(in->kernel_policy_source));
		json_object_set_new(j, "kernel_policy", kp);
	} else {
		json_object_set_new(j, "kernel_policy", json_null());
	}
	json_object_set_new(j, "kernel_policy_marker", in->ti->kernel_policy[0] ?
			    json_string(in->ti->kernel_policy) : json_null());
	json_object_set_new(j, "page_size_bytes", rr_json_u64(in->page_size_bytes));
	json_object_set_new(j, "cpus", json_integer(in->ti->nr_cpus));
	json_object_set_new(j, "buffers", json_integer(in->ti->nr_buffers));
	json_object_set_new(j, "offline_delay_ms_assumed",
			    json_real((double)in->offline_delay_ns / 1e6));
	/* what a replayed call reclaims (compare --outcome); merge refuses
	 * to add up outcomes of two models */
	json_object_set_new(j, "outcome_model", json_string(in->outcome_model ?
							    in->outcome_model : "structural"));
	json_object_set_new(j, "assumptions", as);
	json_object_set_new(j, "stats", stats_json(in));
	json_object_set_new(j, "field_problems", rr_json_field_problems(in->ti));
	json_object_set_new(j, "recorder_markers", json_boolean(in->bs->meta_seen));
	json_object_set_new(j, "snapshot_memcgs", rr_json_u64(in->bs->snapshot_memcgs));
	return j;
}

json_t *rr_json_root(void)
{
	json_t *root = json_object(), *tool = json_object();

	json_object_set_new(root, "schema_version", json_integer(RR_JSON_SCHEMA_VERSION));
	json_object_set_new(tool, "name", json_string("reclaim-replay"));
	json_object_set_new(tool, "version", json_string(RR_VERSION));
	json_object_set_new(root, "tool", tool);
	return root;
}

json_t *rr_json_policies(const struct rr_resolved_policy *policies, int nr_policies)
{
	json_t *pols = json_array();

	for (int i = 0; i < nr_policies; i++) {
		const struct rr_resolved_policy *p = &policies[i];
		const struct rr_policy *last = p->comp[p->nr_components - 1].policy;
		json_t *jp = json_object();

		json_object_set_new(jp, "name", json_string(p->name));
		json_object_set_new(jp, "summary", json_string(last->summary ? last->summary : ""));
		json_object_set_new(jp, "kernel_ref",
				    json_string(last->kernel_ref ? last->kernel_ref : ""));
		/* "<hook>_from" for every decision hook of the descriptor table */
		for (int h = 0; h < RR_NR_HOOKS; h++) {
			char key[64];

			if (rr_hooks[h].kind != RR_HOOK_DECISION)
				continue;
			snprintf(key, sizeof(key), "%s_from", rr_hooks[h].name);
			json_object_set_new(jp, key, json_string(p->hook[h].from));
		}
		json_array_append_new(pols, jp);
	}
	return pols;
}

/* An estimate in ns, rounded; null without a fit. */
static json_t *estimate_json(const struct rr_cost_fit *f, uint64_t calls, uint64_t scanned,
			     uint64_t reclaimed)
{
	if (!f->terms)
		return json_null();
	double ns = rr_cost_estimate_ns(f, calls, scanned, reclaimed);

	/* (a count in JSON is an int64: beyond, the largest) */
	return rr_json_u64(ns < 9.2e18 ? (uint64_t)llround(ns) : (uint64_t)INT64_MAX);
}

/* ns as a JSON count (a count is an int64: beyond, the largest) */
static json_t *ns_json(double ns)
{
	return rr_json_u64(ns < 9.2e18 ? (uint64_t)llround(ns > 0 ? ns : 0) : (uint64_t)INT64_MAX);
}

/* The batch model's estimate of kind totals @c, ns. */
static double kind_estimate_ns(const struct rr_batch_cost_fit *f, const struct rr_kind_counts *c)
{
	return rr_batch_cost_estimate_ns(f, c->calls, c->lruvec_calls, c->nr_scanned_type,
					 c->nr_reclaimed_type);
}

/*
 * The batch model (timing.h): its fit, the recorded time of the kinds it
 * estimates against its own estimate of the recording (the in-sample
 * error), and each policy's estimate, per kind (memcg limit calls and
 * memory.reclaim writes: the cgroup reclaim it was fitted on).
 */
static json_t *batch_model_json(const struct rr_totals *t, const struct rr_resolved_policy *policies)
{
	static const enum rr_reclaim_kind kinds[] = { RR_KIND_MEMCG, RR_KIND_PROACTIVE };
	static const char *const type[2] = { "anon", "file" };
	struct rr_batch_cost_fit f;
	json_t *j = json_object(), *ty = json_object(), *rec = json_object(), *pp = json_object();

	rr_batch_cost_fit(&t->batch_cost, &f);
	json_object_set_new(j, "fitted", json_boolean(f.fitted));
	json_object_set_new(j, "why_not", f.why_not ? json_string(f.why_not) : json_null());
	json_object_set_new(j, "calls", rr_json_u64(f.calls));
	for (int k = 0; k < 2; k++) {
		json_t *o = json_object();

		json_object_set_new(o, "batches", rr_json_u64(f.batches[k]));
		json_object_set_new(o, "fitted", json_boolean(f.type[k].terms != 0));
		json_object_set_new(o, "fixed_ns_per_batch", json_real(f.type[k].fixed_ns));
		json_object_set_new(o, "scan_ns_per_page", json_real(f.type[k].scan_ns_per_page));
		json_object_set_new(o, "reclaim_ns_per_page", json_real(f.type[k].reclaim_ns_per_page));
		json_object_set_new(o, "r2", json_real(f.type[k].r2));
		json_object_set_new(o, "mean_pages_per_batch", json_real(f.mean_taken[k]));
		json_object_set_new(ty, type[k], o);
	}
	json_object_set_new(j, "types", ty);
	json_object_set_new(j, "rest_fitted", json_boolean(f.rest_fitted));
	json_object_set_new(j, "rest_ns_per_call", json_real(f.rest_per_call_ns));
	json_object_set_new(j, "rest_ns_per_shrink_lruvec_call", json_real(f.rest_per_lruvec_ns));
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct rr_kind_totals *kt = &t->kinds[kinds[k]];
		json_t *o;

		if (!kt->replayed)
			continue;
		o = json_object();
		json_object_set_new(o, "recorded_ns", rr_json_u64(kt->recorded_in_calls_ns));
		json_object_set_new(o, "estimated_ns", f.fitted ?
				    ns_json(kind_estimate_ns(&f, &kt->recorded)) : json_null());
		json_object_set_new(rec, rr_reclaim_kind_name(kinds[k]), o);
	}
	json_object_set_new(j, "recorded", rec);
	for (int i = 0; i < t->nr_policies; i++) {
		json_t *o = json_object();

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (t->kinds[kinds[k]].replayed)
				json_object_set_new(o, rr_reclaim_kind_name(kinds[k]), f.fitted ?
						    ns_json(kind_estimate_ns(&f, &t->kinds[kinds[k]].policy[i])) :
						    json_null());
		json_object_set_new(pp, policies[i].name, o);
	}
	json_object_set_new(j, "policies", pp);
	return j;
}

json_t *rr_json_time_model(const struct rr_totals *t, const struct rr_resolved_policy *policies)
{
	const struct rr_kind_totals *k = &t->proactive;
	struct rr_cost_fit f;
	json_t *j, *pp, *terms;

	if (!t->has_recording)
		return json_null();
	rr_cost_fit(&t->cost, &f);
	j = json_object();
	json_object_set_new(j, "fitted", json_boolean(f.terms != 0));
	json_object_set_new(j, "calls", rr_json_u64(f.n));
	json_object_set_new(j, "calls_direct_or_node", rr_json_u64(t->cost_global_calls));
	json_object_set_new(j, "recorded_total_ns", rr_json_u64(f.total_ns < 9.2e18 ?
								 (uint64_t)llround(f.total_ns) :
								 (uint64_t)INT64_MAX));
	json_object_set_new(j, "why_not", f.why_not ? json_string(f.why_not) : json_null());
	terms = json_array();
	if (f.terms & RR_COST_TERM_FIXED)
		json_array_append_new(terms, json_string("fixed"));
	if (f.terms & RR_COST_TERM_SCAN)
		json_array_append_new(terms, json_string("scan"));
	if (f.terms & RR_COST_TERM_RECLAIM)
		json_array_append_new(terms, json_string("reclaim"));
	json_object_set_new(j, "terms", terms);
	if (f.terms) {
		json_object_set_new(j, "fixed_ns", json_real(f.fixed_ns));
		json_object_set_new(j, "scan_ns_per_page", json_real(f.scan_ns_per_page));
		json_object_set_new(j, "reclaim_ns_per_page", json_real(f.reclaim_ns_per_page));
		json_object_set_new(j, "rms_error_ns", json_real(f.rms_error_ns));
		json_object_set_new(j, "r2", json_real(f.r2));
		json_object_set_new(j, "mean_call_ns", json_real(f.mean_ns));
	}
	/* each policy's estimated time: over every replayed episode, and over
	 * the memory.reclaim writes alone */
	pp = json_object();
	for (int i = 0; i < t->nr_policies; i++) {
		const struct rr_policy_totals *p = &t->policy[i];
		json_t *o = json_object();

		json_object_set_new(o, "estimated_duration_ns",
				    estimate_json(&f, p->calls, p->nr_scanned, p->nr_reclaimed));
		json_object_set_new(o, "proactive_estimated_duration_ns",
				    estimate_json(&f, k->policy[i].calls, k->policy[i].nr_scanned,
						  k->policy[i].nr_reclaimed));
		json_object_set_new(pp, policies[i].name, o);
	}
	json_object_set_new(j, "policies", pp);
	json_object_set_new(j, "batch_model", batch_model_json(t, policies));
	return j;
}

/* One side (a policy, or the recording) of a kind's totals. */
static json_t *kind_counts_json(const struct rr_kind_counts *c, uint64_t page_size)
{
	json_t *o = json_object();

	json_object_set_new(o, "calls", rr_json_u64(c->calls));
	json_object_set_new(o, "nr_scanned", rr_json_u64(c->nr_scanned));
	json_object_set_new(o, "nr_reclaimed", rr_json_u64(c->nr_reclaimed));
	json_object_set_new(o, "over_reclaim_pages", rr_json_u64(c->over_reclaim));
	json_object_set_new(o, "over_reclaim_bytes", rr_json_u64(c->over_reclaim * page_size));
	json_object_set_new(o, "eagain", rr_json_u64(c->eagain));
	return o;
}

/* The memory.reclaim writes among the episodes: counts only (merge sums
 * them). */
static json_t *proactive_json(const struct rr_totals *t, const struct rr_resolved_policy *policies)
{
	const struct rr_kind_totals *k = &t->proactive;
	json_t *j = json_object(), *pp = json_object();

	json_object_set_new(j, "replayed", rr_json_u64(k->replayed));
	json_object_set_new(j, "inferred", rr_json_u64(k->inferred));
	json_object_set_new(j, "skipped", rr_json_u64(k->skipped));
	if (t->has_recording) {
		json_t *r = kind_counts_json(&k->recorded, t->page_size_bytes);

		json_object_set_new(r, "duration_ns", rr_json_u64(k->recorded_duration_ns));
		json_object_set_new(r, "in_calls_ns", rr_json_u64(k->recorded_in_calls_ns));
		json_object_set_new(j, "recorded", r);
	} else {
		json_object_set_new(j, "recorded", json_null());
	}
	for (int i = 0; i < t->nr_policies; i++)
		json_object_set_new(pp, policies[i].name,
				    kind_counts_json(&k->policy[i], t->page_size_bytes));
	json_object_set_new(j, "policies", pp);
	return j;
}

/* The memcgs that supplied the most pages to one side of a kind, by
 * cgroup path (or "memcg_id=N"), pages: an object, so that merge sums it. */
static json_t *suppliers_json(const struct rr_kind_totals *k, int slot, const struct rr_state *names)
{
	const struct rr_supplier *v[RR_SUPPLIERS_SHOWN];
	size_t n = rr_kind_suppliers(k, slot, v, RR_SUPPLIERS_SHOWN);
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++) {
		const struct rr_memcg *m = names ? rr_state_find(names, v[i]->memcg_id) : NULL;
		char id[40];

		snprintf(id, sizeof(id), "memcg_id=%llu", (unsigned long long)v[i]->memcg_id);
		json_object_set_new(o, m && m->path ? m->path : id,
				    rr_json_u64(v[i]->nr_reclaimed[slot]));
	}
	return o;
}

/* One side of an episode kind's totals, with the detail the global kinds
 * are compared by. */
static json_t *kind_detail_json(const struct rr_kind_totals *k, const struct rr_kind_counts *c,
				int slot, uint64_t page_size, const struct rr_state *names,
				bool global)
{
	json_t *o = kind_counts_json(c, page_size), *sp = json_object();

	json_object_set_new(o, "nr_scanned_anon", rr_json_u64(c->nr_scanned_type[RR_LRU_ANON]));
	json_object_set_new(o, "nr_scanned_file", rr_json_u64(c->nr_scanned_type[RR_LRU_FILE]));
	json_object_set_new(o, "nr_reclaimed_anon", rr_json_u64(c->nr_reclaimed_type[RR_LRU_ANON]));
	json_object_set_new(o, "nr_reclaimed_file", rr_json_u64(c->nr_reclaimed_type[RR_LRU_FILE]));
	json_object_set_new(o, "memcgs_scanned", rr_json_u64(c->memcgs_scanned));
	json_object_set_new(o, "shrink_lruvec_calls", rr_json_u64(c->lruvec_calls));
	json_object_set_new(o, "lowest_priority", json_integer(c->lowest_priority));
	for (int p = 0; p <= RR_DEF_PRIORITY; p++) {
		char key[16];

		if (!c->stop_priority[p])
			continue;
		snprintf(key, sizeof(key), "%d", p);
		json_object_set_new(sp, key, rr_json_u64(c->stop_priority[p]));
	}
	json_object_set_new(o, "episodes_by_lowest_priority", sp);
	if (global)
		json_object_set_new(o, "suppliers", suppliers_json(k, slot, names));
	return o;
}

/* Every kind of episode with one replayed or skipped: counts per policy
 * and as recorded (merge sums them). */
static json_t *by_kind_json(const struct rr_totals *t, const struct rr_resolved_policy *policies,
			    const struct rr_state *names)
{
	json_t *j = json_object();

	for (int kind = 0; kind < RR_KIND__COUNT; kind++) {
		const struct rr_kind_totals *k = &t->kinds[kind];
		bool global = rr_kind_global((enum rr_reclaim_kind)kind);
		json_t *o, *pp;

		if (!k->replayed && !k->skipped)
			continue;
		o = json_object();
		pp = json_object();
		json_object_set_new(o, "replayed", rr_json_u64(k->replayed));
		json_object_set_new(o, "skipped", rr_json_u64(k->skipped));
		if (t->has_recording) {
			json_t *r = kind_detail_json(k, &k->recorded, RR_MAX_POLICIES,
						     t->page_size_bytes, names, global);

			json_object_set_new(r, "duration_ns", rr_json_u64(k->recorded_duration_ns));
			json_object_set_new(r, "in_calls_ns", rr_json_u64(k->recorded_in_calls_ns));
			json_object_set_new(o, "recorded", r);
		} else {
			json_object_set_new(o, "recorded", json_null());
		}
		for (int i = 0; i < t->nr_policies; i++) {
			json_t *side = kind_detail_json(k, &k->policy[i], i, t->page_size_bytes,
							names, global);

			if (kind == RR_KIND_KSWAPD)
				json_object_set_new(side, "balance_undecidable",
						    rr_json_u64(k->policy[i].balance_undecidable));
			json_object_set_new(pp, policies[i].name, side);
		}
		json_object_set_new(o, "policies", pp);
		json_object_set_new(j, rr_reclaim_kind_name((enum rr_reclaim_kind)kind), o);
	}
	return j;
}

json_t *rr_json_summary(const struct rr_totals *t, const struct rr_resolved_policy *policies)
{
	json_t *s = json_object(), *pp = json_object(), *cgs = json_array();
	struct rr_cgroup_totals **v;
	size_t n;

	json_object_set_new(s, "episodes", rr_json_u64(t->nr_episodes));
	json_object_set_new(s, "episodes_listed", rr_json_u64(t->nr_listed));
	json_object_set_new(s, "episodes_replayed", rr_json_u64(t->nr_replayed));
	json_object_set_new(s, "episodes_skipped", rr_json_u64(t->nr_skipped));
	if (t->has_recording) {
		json_t *rec = json_object();

		json_object_set_new(rec, "nr_scanned", rr_json_u64(t->recorded.nr_scanned));
		json_object_set_new(rec, "nr_reclaimed", rr_json_u64(t->recorded.nr_reclaimed));
		json_object_set_new(rec, "batches", rr_json_u64(t->recorded.batches));
		json_object_set_new(rec, "nr_reclaimed_bytes",
				    rr_json_u64(t->recorded.nr_reclaimed * t->page_size_bytes));
		json_object_set_new(rec, "scan_target_pages", rr_json_u64(t->recorded.scan_request_pages));
		json_object_set_new(rec, "lowest_priority", json_integer(t->recorded.lowest_priority));
		json_object_set_new(rec, "calls", rr_json_u64(t->recorded.calls));
		json_object_set_new(rec, "over_reclaim_pages", rr_json_u64(t->recorded.over_reclaim));
		json_object_set_new(rec, "duration_ns", rr_json_u64(t->recorded.duration_ns));
		json_object_set_new(rec, "in_calls_ns", rr_json_u64(t->recorded.in_calls_ns));
		json_object_set_new(rec, "eagain", rr_json_u64(t->recorded.eagain));
		json_object_set_new(s, "recorded", rec);
	} else {
		json_object_set_new(s, "recorded", json_null());
	}
	for (int i = 0; i < t->nr_policies; i++) {
		const struct rr_policy_totals *p = &t->policy[i];
		json_t *j = json_object();

		json_object_set_new(j, "nr_scanned", rr_json_u64(p->nr_scanned));
		json_object_set_new(j, "nr_reclaimed", rr_json_u64(p->nr_reclaimed));
		json_object_set_new(j, "nr_reclaimed_bytes", rr_json_u64(p->nr_reclaimed * t->page_size_bytes));
		json_object_set_new(j, "calls", rr_json_u64(p->calls));
		json_object_set_new(j, "shrink_lruvec_calls", rr_json_u64(p->shrink_lruvec_calls));
		json_object_set_new(j, "batches", rr_json_u64(p->batches));
		json_object_set_new(j, "scan_target_pages", rr_json_u64(p->scan_target_pages));
		json_object_set_new(j, "lowest_priority", json_integer(p->lowest_priority));
		json_object_set_new(j, "episodes_differing_from_baseline", rr_json_u64(p->episodes_differing));
		json_object_set_new(j, "episodes_matching_recording",
				    rr_json_u64(p->episodes_matching_recording));
		json_object_set_new(j, "nr_reclaimed_anon", rr_json_u64(p->nr_reclaimed_anon));
		json_object_set_new(j, "over_reclaim_pages", rr_json_u64(p->over_reclaim));
		json_object_set_new(j, "eligible_at_priority_12", rr_json_u64(p->eligible_p12));
		json_object_set_new(j, "eagain", rr_json_u64(p->eagain));
		json_object_set_new(pp, policies[i].name, j);
	}
	json_object_set_new(s, "policies", pp);
	json_object_set_new(s, "delta_distributions", rr_json_delta_distributions(t, policies));
	json_object_set_new(s, "proactive", proactive_json(t, policies));
	json_object_set_new(s, "by_kind", by_kind_json(t, policies, t->names));
	v = rr_totals_cgroups(t, &n);
	for (size_t i = 0; v && i < n; i++) {
		json_t *j = json_object(), *cp = json_object();

		json_object_set_new(j, "cgroup", str_or_null(v[i]->path));
		json_object_set_new(j, "cgroup_id", rr_json_u64(v[i]->memcg_id));
		json_object_set_new(j, "episodes", rr_json_u64(v[i]->episodes));
		for (int k = 0; k < t->nr_policies; k++) {
			const struct rr_cgroup_policy_totals *c = &v[i]->p[k];
			json_t *o = json_object();

			json_object_set_new(o, "nr_scanned", rr_json_u64(c->nr_scanned));
			json_object_set_new(o, "nr_reclaimed", rr_json_u64(c->nr_reclaimed));
			json_object_set_new(o, "calls", rr_json_u64(c->calls));
			json_object_set_new(o, "over_reclaim_pages", rr_json_u64(c->over_reclaim));
			json_object_set_new(o, "episodes_differing_from_baseline",
					    rr_json_u64(c->episodes_differing));
			json_object_set_new(cp, policies[k].name, o);
		}
		json_object_set_new(j, "policies", cp);
		json_array_append_new(cgs, j);
	}
	free(v);
	json_object_set_new(s, "cgroups", cgs);
	return s;
}
