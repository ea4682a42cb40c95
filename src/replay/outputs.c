// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which renderer gets what, and when (the renderers themselves are in
 * src/output).  At the start: -o's file is checked and its spool opened,
 * the --jsonl header written, --html's file checked and opened.  Per
 * episode: the listed ones go to the JSON outputs, every replayed one to
 * the --html bins.  At the end: the page is written into its temporary
 * file (if it cannot be, no JSON file is left either and --jsonl does not
 * write its last, summary, line); a page for a device or a pipe is written
 * out then, as it cannot be taken back; then the JSON document is put in
 * place, then a page for a file (if the JSON cannot be, the page is
 * removed), then the --jsonl tail, the table or the report.
 */
#include "replay-local.h"
#include "../release/release.h"

#include <stdlib.h>
#include <string.h>

int rr_outputs_begin(struct replay *r)
{
	const struct rr_replay_opts *o = r->o;
	const struct stat *protect;

	r->have_in_st = !stat(o->trace_path, &r->in_st);
	protect = r->have_in_st ? &r->in_st : NULL;
	/* (JSON only for the outputs that are JSON) */
	if (o->json_path || o->jsonl || o->report_json) {
		r->root = rr_json_root();
		r->policies_json = rr_json_policies(r->policies, r->np);
		if (!r->root || !r->policies_json) {
			rr_error_set(r->err, "", "out of memory");
			return -1;
		}
	}
	if (o->json_path && !(r->json = rr_json_stream_open(o->json_path, protect, r->err)))
		return -1;
	if (o->jsonl && !(r->jsonl = rr_jsonl_writer_new())) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	if (o->jsonl && rr_jsonl_header(stdout, r->root, r->policies_json,
					r->policies[r->baseline].name)) {
		rr_error_set(r->err, "<stdout>", "write failed");
		return -1;
	}
	if (o->html_path && !(r->html_out = rr_outfile_open(o->html_path, protect, r->err)))
		return -1;
	if (o->html_path && !(r->html = rr_html_new(r->np, o->html_cgroup))) {
		rr_error_set(r->err, o->html_path, "out of memory");
		return -1;
	}
	if (o->report && !(r->report = rr_report_new(o->report_json))) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	return 0;
}

/* -o lists the --top episodes only (RR_EPISODES_TOP)? */
static bool json_top(const struct replay *r)
{
	return r->json && r->o->episodes == RR_EPISODES_TOP;
}

/* How much @d differs from the baseline: the largest rr_diff_weight() of
 * the policies that differ (the table's --top ranks those); 0 for a
 * skipped one. */
static uint64_t episode_weight(const struct rr_episode_diff *d)
{
	uint64_t most = 0;

	for (int i = 0; d->results && i < d->nr_policies; i++)
		if (d->differs[i] && rr_diff_weight(d, i) > most)
			most = rr_diff_weight(d, i);
	return most;
}

/* Keep @d among the --top episodes if it differs more than the last of
 * them (an earlier one first among equals); its JSON is made only then. */
static int note_top_json(struct replay *r, const struct rr_episode_diff *d)
{
	uint64_t w = episode_weight(d);
	int want = r->o->top < RR_TOP_MAX ? r->o->top : RR_TOP_MAX, at;
	json_t *e;

	if (!w || want <= 0)
		return 0;
	for (at = 0; at < r->nr_top_json && r->top_weight[at] >= w; at++)
		;
	if (at >= want)
		return 0;
	e = rr_json_episode(d, r->policies);
	if (!e) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	/* only what differs: the results of the baseline and of the
	 * policies that differ from it (changes lists those) */
	for (int i = 0; i < d->nr_policies; i++)
		if (i != d->baseline && !d->differs[i])
			json_object_del(json_object_get(e, "results"), r->policies[i].name);
	if (r->nr_top_json < want)
		r->nr_top_json++;
	else
		json_decref(r->top_json[r->nr_top_json - 1]);	/* pushed off the end */
	memmove(&r->top_json[at + 1], &r->top_json[at],
		(size_t)(r->nr_top_json - at - 1) * sizeof(r->top_json[0]));
	memmove(&r->top_weight[at + 1], &r->top_weight[at],
		(size_t)(r->nr_top_json - at - 1) * sizeof(r->top_weight[0]));
	r->top_json[at] = e;
	r->top_weight[at] = w;
	return 0;
}

int rr_outputs_episode(struct replay *r, const struct rr_episode_diff *d)
{
	json_t *e;
	int ret = 0;

	if (r->html && rr_html_note(r->html, d)) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	if (d->listed && json_top(r) && note_top_json(r, d))
		return -1;
	if (!d->listed)
		return 0;
	if (r->jsonl && rr_jsonl_episode(stdout, r->jsonl, d, r->policies, r->err))
		return -1;
	if (!r->json || json_top(r))
		return 0;
	e = rr_json_episode(d, r->policies);
	if (!e) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	ret = rr_json_stream_episode(r->json, e, r->err);
	json_decref(e);
	return ret;
}

/* `report`: the report's tables or JSON on stdout.  Return 0 or -1. */
static int print_report(struct replay *r, json_t *input, json_t *summary, json_t *fid,
			json_t *tm, const struct rr_input_desc *in)
{
	json_t *assumed = json_object_get(input, "assumptions");

	if (r->o->report_json) {
		json_t *doc = json_object(), *rj;
		int ret;

		json_object_set(doc, "schema_version", json_object_get(r->root, "schema_version"));
		json_object_set(doc, "tool", json_object_get(r->root, "tool"));
		json_object_set(doc, "input", input);
		rj = rr_report_json(r->report, in->ti, assumed);
		json_object_update(doc, rj);
		json_decref(rj);
		json_object_set(doc, "recorded", json_object_get(summary, "recorded"));
		if (r->o->report_fidelity)
			json_object_set(doc, "fidelity", fid);
		json_object_set(doc, "time_model", tm);
		ret = rr_write_json("-", doc, NULL, r->err);
		json_decref(doc);
		return ret;
	}
	printf("%s: %s, kernel %s (%s", r->o->trace_path,
	       in->ti->format == RR_FORMAT_TEXT ? "text trace" : "trace.dat", in->kernel_release,
	       in->release_source);
	if (!strcmp(in->release_source, "assumed") && in->ti->format == RR_FORMAT_TEXT &&
	    (!in->ti->era_hi || in->ti->era_hi >= in->ti->era_lo)) {
		/* the range the print formats fit (release.h; replay.c pick_release()) */
		char lo[16], hi[16];

		rr_release_name(in->ti->era_lo > RR_RULES_OLDEST ? in->ti->era_lo :
				RR_RULES_OLDEST, lo, sizeof(lo));
		rr_release_name(in->ti->era_hi && in->ti->era_hi < RR_RULES_NEWEST ?
				in->ti->era_hi : RR_RULES_NEWEST, hi, sizeof(hi));
		printf(": its event formats fit %s to %s", lo, hi);
	}
	printf(")\n");
	if (in->kernel_policy && in->kernel_policy[0])
		printf("the recording kernel ran the policy %s (%s): the baseline kernel is "
		       "kernel+%s\n", in->kernel_policy,
		       !strcmp(in->kernel_policy_source, "option") ? "--kernel-policy" :
		       "the trace's meta marker", in->kernel_policy);
	printf("episodes the replay models (limit reclaim calls, soft-limit calls, memory.reclaim "
	       "writes, kswapd runs, direct and node reclaim calls): %llu (%llu skipped), %llu LRU batches in the others: %llu pages taken off "
	       "inactive lists, %llu reclaimed (%.1f MiB)\n",
	       (unsigned long long)r->totals.nr_episodes,
	       (unsigned long long)r->totals.nr_skipped,
	       (unsigned long long)r->totals.recorded.batches,
	       (unsigned long long)r->totals.recorded.nr_scanned,
	       (unsigned long long)r->totals.recorded.nr_reclaimed,
	       (double)r->totals.recorded.nr_reclaimed * (double)r->page_size_bytes / 1048576.0);
	if (in->bs->shrink_without_isolate)	/* (a trace cut inside reclaim, or
						 * recorded without the isolate event) */
		printf("LRU batches without their mm_vmscan_lru_isolate (only their "
		       "mm_vmscan_lru_shrink_* event; list, memcg and request not known): "
		       "%llu\n", (unsigned long long)in->bs->shrink_without_isolate);
	rr_report_print(r->report, in->ti, assumed, stdout);
	if (r->o->report_fidelity) {
		putchar('\n');
		rr_fidelity_print(&r->fidelity, stdout);
	}
	return 0;
}

int rr_outputs_end(struct replay *r, const struct rr_input_desc *in)
{
	const struct rr_replay_opts *o = r->o;
	/* the report's text lists the assumptions from the input object */
	json_t *input = r->root || r->report ? rr_json_input(in) : NULL;
	json_t *summary = NULL, *fid = NULL, *tm = NULL;
	int ret = 0;

	if (r->html && rr_html_write(r->html, &r->totals, r->policies, o->trace_path,
				     o->html_path, r->html_out, r->err)) {
		json_decref(input);
		return -1;
	}
	/* a page for a device or a pipe cannot be taken back: out first, so
	 * that its failure leaves no JSON; a page for a file is renamed into
	 * place only after the JSON is */
	if (r->html_out && !rr_outfile_renames(r->html_out)) {
		ret = rr_outfile_commit(r->html_out, r->err);
		r->html_out = NULL;
		if (ret) {
			json_decref(input);
			return -1;
		}
	}
	if (r->root) {
		summary = rr_json_summary(&r->totals, r->policies);
		fid = r->has_recording ? rr_fidelity_json(&r->fidelity) : json_null();
		tm = rr_json_time_model(&r->totals, r->policies);
	}
	if (r->json) {
		json_t *doc = json_copy(r->root);	/* (its values are shared, not changed) */
		bool top = json_top(r);
		const char *mode = top ? "top" : o->episodes == RR_EPISODES_ALL ? "all" : "differing";

		/* the --top that differ most, most first */
		for (int i = 0; top && i < r->nr_top_json && !ret; i++)
			ret = rr_json_stream_episode(r->json, r->top_json[i], r->err);
		json_object_set(doc, "input", input);
		json_object_set(doc, "policies", r->policies_json);
		json_object_set_new(doc, "baseline", json_string(r->policies[r->baseline].name));
		json_object_set_new(doc, "episodes_selection", json_string(mode));
		json_object_set_new(doc, "episodes", json_array());
		if (top) {
			/* (summary.episodes_listed: those in this document) */
			json_t *own = json_copy(summary);

			json_object_set_new(own, "episodes_listed", rr_json_u64((uint64_t)r->nr_top_json));
			json_object_set_new(doc, "summary", own);
		} else {
			json_object_set(doc, "summary", summary);
		}
		json_object_set(doc, "fidelity", fid);
		json_object_set(doc, "time_model", tm);
		if (!ret)
			ret = rr_json_stream_finish(r->json, doc, r->err);
		else
			rr_json_stream_abort(r->json);
		r->json = NULL;
		json_decref(doc);
	}
	if (!ret && r->html_out) {
		ret = rr_outfile_commit(r->html_out, r->err);
		r->html_out = NULL;
	}
	if (!ret && o->jsonl && rr_jsonl_tail(stdout, input, summary, fid, tm)) {
		rr_error_set(r->err, "<stdout>", "write failed");
		ret = -1;
	}
	if (!ret && o->table && r->kernel_policy[0])
		printf("the recording kernel ran the policy %s (%s): the baseline kernel is "
		       "kernel+%s\n", r->kernel_policy,
		       !strcmp(r->kernel_policy_source, "option") ? "--kernel-policy" :
		       "the trace's meta marker", r->kernel_policy);
	if (!ret && o->table) {
		rr_table_print(stdout, &r->totals, r->policies,
			       r->has_recording && !o->outcome_exact ? &r->fidelity : NULL,
			       o->markdown);
		/* (counted nowhere above: neither replayed nor skipped) */
		uint64_t cut = r->builder ? rr_builder_stats(r->builder)->unterminated_episodes : 0;

		if (cut)
			printf("\n%llu episode%s the trace cut (begun before it or not ended in it) "
			       "%s not replayed\n", (unsigned long long)cut, cut == 1 ? "" : "s",
			       cut == 1 ? "is" : "are");
	}
	if (!ret && r->report)
		ret = print_report(r, input, summary, fid, tm, in);
	json_decref(input);
	json_decref(summary);
	json_decref(fid);
	json_decref(tm);
	return ret;
}

void rr_outputs_free(struct replay *r)
{
	rr_json_stream_abort(r->json);
	r->json = NULL;
	rr_jsonl_writer_free(r->jsonl);
	r->jsonl = NULL;
	for (int i = 0; i < r->nr_top_json; i++)
		json_decref(r->top_json[i]);
	r->nr_top_json = 0;
	rr_html_free(r->html);
	r->html = NULL;
	rr_outfile_abort(r->html_out);
	r->html_out = NULL;
	rr_report_free(r->report);
	r->report = NULL;
	json_decref(r->root);
	json_decref(r->policies_json);
	r->root = r->policies_json = NULL;
}
