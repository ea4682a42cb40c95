// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay driver.  The trace is streamed once; each episode is simulated
 * under every policy as soon as it closes, then dropped.  The only state
 * kept across episodes besides the memcg table is one v6.11+ walk cursor
 * per (policy, reclaim root), because each policy's own decisions move it.
 */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uthash.h>

#include "../episode/builder.h"
#include "../scenario/scenario.h"
#include "../sim/kernel-model.h"
#include "../trace/reader.h"

const char *const rr_default_policies[] = {
	"original", "online-roundup", "cluster-cap", "proportional", NULL,
};

/* Assumed delay between cgroup_rmdir and mem_cgroup_online() turning
 * false: 24-29 ms measured on 6.18 (kernel-reclaim-model.md §12.3). */
#define DEFAULT_OFFLINE_DELAY_NS (25ULL * 1000 * 1000)

struct cursor {
	uint64_t root_id;
	uint64_t pos_id[RR_MAX_POLICIES];	/* memcg last handed out, 0 none */
	uint64_t recorded_pos_id;		/* where the recording left it */
	bool recorded_pos_valid;
	UT_hash_handle hh;
};

struct replay {
	const struct rr_replay_opts *opts;
	struct rr_kernel_model km;
	unsigned int page_shift;
	struct rr_resolved_policy *policies;
	int nr_policies;
	struct rr_out *out;
	struct rr_builder *builder;
	struct cursor *cursors;
	struct rr_error *err;
	uint64_t events;
	bool tty;
};

static int cursor_index(const struct rr_sim_input *in, uint64_t id)
{
	if (!id)
		return -1;
	for (size_t i = 0; i < in->nr_memcgs; i++)
		if (in->memcgs[i].id == id)
			return (int)i;
	return -1;
}

static struct cursor *cursor_get(struct replay *r, const struct rr_episode *ep,
				 const struct rr_sim_input *in)
{
	struct cursor *c;
	uint64_t first = 0, init = 0;

	HASH_FIND(hh, r->cursors, &ep->root_memcg_id, sizeof(uint64_t), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->root_id = ep->root_memcg_id;
	/* the cursor at the start of the recording is hidden (§19.3): take
	 * the memcg before the first one the kernel visited */
	for (size_t i = 0; i < ep->nr_batches && !first; i++)
		first = ep->batches[i].memcg_id;
	int idx = cursor_index(in, first);

	if (idx > 0)
		init = in->memcgs[idx - 1].id;
	for (int p = 0; p < RR_MAX_POLICIES; p++)
		c->pos_id[p] = init;
	HASH_ADD(hh, r->cursors, root_id, sizeof(uint64_t), c);
	return c;
}

static int on_episode(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct replay *r = ctx;
	struct rr_sim_result res[RR_MAX_POLICIES];
	struct rr_sim_input in;
	struct rr_error serr;
	struct cursor *c;
	int ret = -1, start_cursor;

	memset(res, 0, sizeof(res));
	if (ep->mglru)	/* §11: the batches are no get_scan_count() decisions */
		return rr_out_episode(r->out, ep, st, NULL,
				      "Multi-Gen LRU batches: no policy verdict from this episode");
	if (rr_episode_sim_input(ep, st, &r->km, r->page_shift, &in, &serr)) {
		if (rr_fidelity_episode(&r->out->fidelity, ep, st, &r->km, r->page_shift,
					&r->policies[0], NULL, false, r->err))
			return -1;
		return rr_out_episode(r->out, ep, st, NULL, ep->root_memcg_id ?
				      "reclaim root unknown: the memcg its batches point to did not "
				      "exist when the episode began" :
				      "reclaim root unknown: no batch was attributed to a memcg");
	}
	c = cursor_get(r, ep, &in);
	if (!c)
		goto out;
	/*
	 * The v6.11+ walk cursor is hidden (§19.3), and other reclaimers under
	 * the root move it too (§6.1): every policy starts the episode where
	 * the recording left it, like the LRU sizes: after the memcg whose
	 * batches ended the previous recorded episode under this root.
	 */
	if (c->recorded_pos_valid)
		for (int p = 0; p < r->nr_policies; p++)
			c->pos_id[p] = c->recorded_pos_id;
	start_cursor = cursor_index(&in, c->pos_id[0]);
	for (int p = 0; p < r->nr_policies; p++) {
		in.cursor = cursor_index(&in, c->pos_id[p]);
		if (rr_sim_run(&in, &r->policies[p], &res[p], r->err))
			goto out;
		c->pos_id[p] = res[p].cursor >= 0 ? in.memcgs[res[p].cursor].id : 0;
	}
	/*
	 * Ladders that make no batch leave no event.  The model alone (no
	 * recorded sizes or outcomes, which come from the kernel's later
	 * ladder) says whether the first ones were silent, so that the first
	 * recorded ladder ran with force_deactivate (§7).
	 */
	{
		struct rr_sim_input pure = in;
		struct rr_sim_result pr;
		bool forced = res[0].first_batch_forced;

		memset(&pr, 0, sizeof(pr));
		pure.memcgs = malloc(in.nr_memcgs * sizeof(*pure.memcgs));
		if (!pure.memcgs)
			goto out;
		memcpy(pure.memcgs, in.memcgs, in.nr_memcgs * sizeof(*pure.memcgs));
		for (size_t k = 0; k < in.nr_memcgs; k++) {
			pure.memcgs[k].nr_recorded = 0;
			pure.memcgs[k].nr_boundaries = 0;
		}
		pure.cursor = start_cursor;
		if (!forced && !rr_sim_run(&pure, &r->policies[0], &pr, r->err))
			forced = pr.first_batch_forced;
		rr_sim_result_free(&pr);
		free(pure.memcgs);
		if (rr_fidelity_episode(&r->out->fidelity, ep, st, &r->km, r->page_shift,
					&r->policies[0], &res[0], forced, r->err))
			goto out;
	}
	for (size_t i = ep->nr_batches; i-- > 0;) {
		if (ep->batches[i].memcg_id) {
			/* stopped on its goal above priority 0: the cursor stays there */
			c->recorded_pos_id = ep->batches[i].priority > 0 ? ep->batches[i].memcg_id : 0;
			c->recorded_pos_valid = true;
			break;
		}
	}
	ret = rr_out_episode(r->out, ep, st, res, NULL);
out:
	for (int p = 0; p < r->nr_policies; p++)
		rr_sim_result_free(&res[p]);
	free(in.memcgs);
	free(in.outcomes);
	free(in.boundaries);
	return ret;
}

static int on_event(const struct rr_event *ev, void *ctx)
{
	struct replay *r = ctx;

	if (r->tty && !(++r->events & ((1u << 20) - 1)))
		fprintf(stderr, "\rreclaim-replay: %llu events read", (unsigned long long)r->events);
	return rr_builder_feed(r->builder, ev);
}

/* "Linux host 6.18.44-fc-v669 x86_64" -> "6.18.44-fc-v669" */
static int release_from_uname(const char *uname, char *buf, size_t len)
{
	char sys[64], host[128], rel[128];

	if (sscanf(uname, "%63s %127s %127s", sys, host, rel) != 3)
		return -1;
	snprintf(buf, len, "%s", rel);
	return 0;
}

static json_t *input_json(const struct replay *r, const struct rr_trace_info *ti,
			  const char *release_source)
{
	json_t *in = json_object(), *as = json_array();

	json_object_set_new(in, "file", json_string(r->opts->trace_path));
	json_object_set_new(in, "format", json_string(ti->format == RR_FORMAT_TEXT ?
						      "text" : "trace.dat"));
	if (ti->format == RR_FORMAT_TRACE_DAT)
		json_object_set_new(in, "file_version", json_integer(ti->file_version));
	json_object_set_new(in, "kernel_release", json_string(r->km.release));
	json_object_set_new(in, "kernel_release_source", json_string(release_source));
	json_object_set_new(in, "page_size_bytes", json_integer(1 << r->page_shift));
	json_object_set_new(in, "cpus", json_integer(ti->nr_cpus));
	json_object_set_new(in, "buffers", json_integer(ti->nr_buffers));
	json_object_set_new(in, "offline_delay_ms_assumed",
			    json_real((double)r->opts->offline_delay_ns / 1e6));
	json_object_set_new(in, "assumptions", as);
	return in;
}

static void assume(json_t *input, const char *text)
{
	json_array_append_new(json_object_get(input, "assumptions"), json_string(text));
}

/* The baseline first, then the policies asked for. */
static int resolve_policies(const struct rr_replay_opts *opts, const struct rr_kernel_model *km,
			    struct rr_resolved_policy *policies, int *n, struct rr_error *err)
{
	*n = 0;
	if (rr_policy_resolve(&policies[0], "kernel", km, err))
		return -1;
	*n = 1;
	for (int i = 0; i < opts->nr_specs; i++) {
		if (!strcmp(opts->policy_specs[i], "kernel"))
			continue;
		if (*n >= RR_MAX_POLICIES) {
			rr_error_set(err, opts->policy_specs[i], "at most %d policies",
				     RR_MAX_POLICIES - 1);
			return -1;
		}
		if (rr_policy_resolve(&policies[*n], opts->policy_specs[i], km, err))
			return -1;
		(*n)++;
	}
	return 0;
}

/*
 * A scenario: each request from the scenario's initial state, replayed
 * under every policy, written like the episodes of a trace with
 * "recorded": null.  Paths come from a memcg table fed with mkdir events.
 */
static int replay_scenario(const struct rr_replay_opts *opts, struct rr_out *out,
			   struct rr_resolved_policy *policies, int *nr_policies,
			   struct rr_error *err)
{
	static const enum rr_episode_kind kinds[] = {
		[RR_SIM_MEMCG] = RR_EP_MEMCG, [RR_SIM_PROACTIVE] = RR_EP_PROACTIVE,
		[RR_SIM_SOFTLIMIT] = RR_EP_SOFTLIMIT, [RR_SIM_DIRECT] = RR_EP_DIRECT,
	};
	struct rr_sim_result res[RR_MAX_POLICIES];
	struct rr_kernel_model km;
	struct rr_scenario sc;
	struct rr_state st;
	json_t *input, *as, *stats;
	int ret = -1, np = 0;

	rr_state_init(&st);
	st.memory_root = 0;
	if (rr_scenario_load(opts->trace_path, &sc, err))
		return -1;
	if (rr_kernel_model_init(&km, opts->kernel_release ? opts->kernel_release : sc.kernel)) {
		rr_error_set(err, opts->trace_path, "kernel: '%s' is not a release MAJOR.MINOR "
			     "of 4.0 or later", sc.kernel);
		goto out;
	}
	if (resolve_policies(opts, &km, policies, &np, err))
		goto out;
	for (int i = 0; i < sc.nr_cgroups; i++) {
		struct rr_event ev = {
			.type = RR_EV_CGROUP_MKDIR, .id = (uint64_t)i + 1,
			.str = sc.cgroups[i].path, .str_len = (int)strlen(sc.cgroups[i].path),
		};

		if (rr_state_apply(&st, &ev)) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
	}
	input = json_object();
	as = json_array();
	stats = json_object();
	json_object_set_new(input, "file", json_string(opts->trace_path));
	json_object_set_new(input, "scenario", json_integer(RR_SCENARIO_VERSION));
	json_object_set_new(input, "kernel_release", json_string(km.release));
	json_object_set_new(input, "kernel_release_source",
			    json_string(opts->kernel_release ? "option" : "scenario"));
	json_object_set_new(input, "page_size_bytes", json_integer((json_int_t)sc.page_size_bytes));
	json_object_set_new(input, "swap", json_boolean(sc.swap));
	json_object_set_new(input, "outcome_model",
			    json_string(sc.outcome == RR_OUTCOME_EXACT ? "exact" : "structural"));
	json_array_append_new(as, json_string("each request starts from the scenario's initial state"));
	json_array_append_new(as, json_string("effective memory.min/low are the configured values (no recursive distribution)"));
	json_array_append_new(as, json_string("anon/file costs are 0 (fractions from swappiness alone) unless scan_fraction is given"));
	json_object_set_new(input, "assumptions", as);
	json_object_set_new(stats, "events", json_integer(0));
	json_object_set_new(stats, "cgroups", json_integer(sc.nr_cgroups));
	json_object_set_new(stats, "requests", json_integer(sc.nr_requests));
	json_object_set_new(input, "stats", stats);
	ret = rr_out_init(out, input, policies, np, sc.page_size_bytes, &opts->out);
	if (ret) {
		if (ret == -2)
			rr_error_set(err, opts->out.baseline,
				     "--baseline names a policy that is not compared (add it with -p)");
		else
			rr_error_set(err, "", "out of memory");
		ret = -1;
		goto out;
	}
	ret = -1;
	out->has_recording = false;

	for (int q = 0; q < sc.nr_requests; q++) {
		struct rr_episode ep;
		struct rr_sim_input in;

		memset(res, 0, sizeof(res));
		memset(&ep, 0, sizeof(ep));
		if (rr_scenario_sim_input(&sc, q, &km, &in)) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
		ep.seq = (uint64_t)q + 1;
		ep.kind = kinds[sc.requests[q].kind];
		ep.root_memcg_id = (uint64_t)sc.requests[q].cgroup + 1;
		ep.root_path = sc.cgroups[sc.requests[q].cgroup].path;
		ep.nr_to_reclaim_pages = sc.requests[q].nr_pages;
		ep.nr_to_reclaim_basis = "scenario";
		ep.no_recording = true;
		ret = 0;
		for (int p = 0; p < np; p++) {
			if (rr_sim_run(&in, &policies[p], &res[p], err)) {
				ret = -1;
				break;
			}
		}
		if (!ret && rr_out_episode(out, &ep, &st, res, NULL)) {
			rr_error_set(err, "", "out of memory");
			ret = -1;
		}
		for (int p = 0; p < np; p++)
			rr_sim_result_free(&res[p]);
		free(in.memcgs);
		if (ret)
			goto out;
	}
	*nr_policies = np;
	ret = 0;
out:
	if (ret) {
		for (int i = 0; i < np; i++)
			rr_policy_release(&policies[i]);
		rr_out_free(out);
	}
	rr_scenario_free(&sc);
	rr_state_free(&st);
	return ret;
}

int rr_replay(const struct rr_replay_opts *opts, struct rr_out *out,
	      struct rr_resolved_policy *policies, int *nr_policies,
	      struct rr_error *err)
{
	struct rr_builder_opts bopts = {
		.offline_delay_ns = opts->offline_delay_ns ? opts->offline_delay_ns :
				    DEFAULT_OFFLINE_DELAY_NS,
		.swap_present = opts->swap_present,
	};
	struct rr_replay_opts o = *opts;
	struct replay r = { .opts = &o, .out = out, .err = err, .policies = policies };
	const struct rr_trace_info *ti;
	struct rr_trace *trace;
	const char *release_source = "option";
	char release[128];
	json_t *input;
	int ret = -1;

	o.offline_delay_ns = bopts.offline_delay_ns;
	*nr_policies = 0;
	memset(out, 0, sizeof(*out));
	if (rr_scenario_sniff(opts->trace_path))
		return replay_scenario(opts, out, policies, nr_policies, err);
	trace = rr_trace_open(opts->trace_path, err);
	if (!trace)
		return -1;
	ti = rr_trace_info(trace);

	if (opts->kernel_release) {
		snprintf(release, sizeof(release), "%s", opts->kernel_release);
	} else if (ti->uname[0] && !release_from_uname(ti->uname, release, sizeof(release))) {
		release_source = "trace";
	} else if (ti->kernel_release[0]) {
		snprintf(release, sizeof(release), "%s", ti->kernel_release);
		release_source = "trace";
	} else if (opts->release_may_be_assumed) {
		/* the newest release the print formats fit */
		if (ti->era_hi && ti->era_hi >= ti->era_lo)
			snprintf(release, sizeof(release), "%d.%d", ti->era_hi / 100, ti->era_hi % 100);
		else
			snprintf(release, sizeof(release), "%s", RR_NEWEST_MODELLED_RELEASE);
		release_source = "assumed";
	} else {
		rr_error_set(err, opts->trace_path,
			     "the trace does not say which kernel made it; give --kernel RELEASE");
		goto out;
	}
	if (rr_kernel_model_init(&r.km, release)) {
		rr_error_set(err, opts->trace_path,
			     "kernel release '%s' is not MAJOR.MINOR >= 4.0", release);
		goto out;
	}
	r.page_shift = 12;
	if (ti->page_size_bytes > 0) {
		unsigned int s = 0;

		while ((1u << s) < (unsigned int)ti->page_size_bytes && s < 30)
			s++;
		if ((1u << s) == (unsigned int)ti->page_size_bytes)
			r.page_shift = s;
	}

	if (resolve_policies(opts, &r.km, policies, &r.nr_policies, err))
		goto out;

	input = input_json(&r, ti, release_source);
	if (input && !strcmp(release_source, "assumed")) {
		char text[256], lo[16] = "4.0", hi[16] = RR_NEWEST_MODELLED_RELEASE;

		if (ti->era_lo)
			snprintf(lo, sizeof(lo), "%d.%d", ti->era_lo / 100, ti->era_lo % 100);
		if (ti->era_hi)
			snprintf(hi, sizeof(hi), "%d.%d", ti->era_hi / 100, ti->era_hi % 100);
		if ((ti->era_lo || ti->era_hi) && (!ti->era_hi || ti->era_hi >= ti->era_lo))
			snprintf(text, sizeof(text), "kernel release: the trace does not say; its "
				 "event formats fit %s to %s; modelled as %s (give --kernel)",
				 lo, hi, r.km.release);
		else
			snprintf(text, sizeof(text), "kernel release: the trace does not say; "
				 "modelled as %s (give --kernel)", r.km.release);
		assume(input, text);
	}
	{
		int oret = input ? rr_out_init(out, input, policies, r.nr_policies,
					       1ULL << r.page_shift, &opts->out) : -1;

		if (oret == -2) {
			rr_error_set(err, opts->out.baseline,
				     "--baseline names a policy that is not compared (add it with -p)");
			goto out;
		}
		if (oret) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
	}
	bopts.partial_walk = r.km.partial_walk;
	r.builder = rr_builder_new(&bopts, on_episode, &r);
	if (!r.builder) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	if (opts->request_cb)
		rr_builder_set_request_cb(r.builder, opts->request_cb, opts->request_ctx);
	r.tty = opts->progress && isatty(STDERR_FILENO);
	{
		struct rr_state *st = rr_builder_state(r.builder);

		st->cost_fractions = r.km.cost_fractions;
		st->cost_rotations_x32 = r.km.cost_rotations_x32;
		st->cost_zero_returns = r.km.cost_zero_returns;
	}
	err->msg[0] = 0;
	ret = rr_trace_for_each(trace, on_event, &r, err);
	if (r.tty)
		fprintf(stderr, "\r\033[K");
	if (ret) {
		if (!err->msg[0])
			rr_error_set(err, opts->trace_path, "out of memory while replaying");
		ret = -1;
		goto out;
	}
	if (rr_builder_finish(r.builder) < 0) {
		rr_error_set(err, opts->trace_path, "out of memory while replaying");
		ret = -1;
		goto out;
	}

	{
		const struct rr_builder_stats *bs = rr_builder_stats(r.builder);
		const struct rr_state *st = rr_builder_state(r.builder);
		json_t *stats = json_object();

		json_object_set_new(stats, "events", json_integer((json_int_t)bs->events));
		json_object_set_new(stats, "missed_events",
				    json_integer((json_int_t)ti->nr_missed_events));
		json_object_set_new(stats, "memcg_episodes",
				    json_integer((json_int_t)bs->episodes[RR_EP_MEMCG]));
		json_object_set_new(stats, "softlimit_episodes",
				    json_integer((json_int_t)bs->episodes[RR_EP_SOFTLIMIT]));
		json_object_set_new(stats, "unterminated_episodes",
				    json_integer((json_int_t)bs->unterminated_episodes));
		json_object_set_new(stats, "direct_reclaim_begins",
				    json_integer((json_int_t)bs->other_reclaim[0]));
		json_object_set_new(stats, "kswapd_wakes",
				    json_integer((json_int_t)bs->other_reclaim[1]));
		json_object_set_new(stats, "node_reclaim_begins",
				    json_integer((json_int_t)bs->other_reclaim[2]));
		json_object_set_new(stats, "lru_batches", json_integer((json_int_t)bs->batches));
		json_object_set_new(stats, "lru_batches_unattributed",
				    json_integer((json_int_t)bs->batches_unattributed));
		json_object_set_new(stats, "rstat_flushes", json_integer((json_int_t)st->nr_flushes));
		json_object_set_new(stats, "memcgs", json_integer(st->nr_memcgs));
		{
			const char *first = "";
			unsigned int nw = rr_trace_lib_warnings(&first);

			json_object_set_new(stats, "reader_warnings", json_integer(nw));
			if (nw) {
				json_object_set_new(stats, "reader_first_warning", json_string(first));
				fprintf(stderr, "reclaim-replay: %s: warning: the trace reader reported %u "
					"problem%s (first: %s); events may be missing\n",
					opts->trace_path, nw, nw == 1 ? "" : "s", first);
			}
		}
		json_object_set_new(stats, "shrink_without_isolate",
				    json_integer((json_int_t)bs->shrink_without_isolate));
		if (bs->shrink_without_isolate)
			fprintf(stderr, "reclaim-replay: %s: warning: %llu mm_vmscan_lru_shrink_* "
				"event%s without the mm_vmscan_lru_isolate before %s: events are "
				"missing; the episodes around them are flagged lost_events\n",
				opts->trace_path, (unsigned long long)bs->shrink_without_isolate,
				bs->shrink_without_isolate == 1 ? "" : "s",
				bs->shrink_without_isolate == 1 ? "it" : "them");
		if (ti->format == RR_FORMAT_TEXT) {
			json_object_set_new(stats, "text_lines", json_integer((json_int_t)ti->text_lines));
			json_object_set_new(stats, "text_other_lines",
					    json_integer((json_int_t)ti->text_other_lines));
			json_object_set_new(stats, "text_malformed_events",
					    json_integer((json_int_t)ti->text_malformed_events));
			if (ti->text_other_lines)
				fprintf(stderr, "reclaim-replay: %s: warning: %llu of %llu lines are "
					"no trace event, comment or lost-events line; skipped "
					"(first: %s)\n", opts->trace_path,
					(unsigned long long)ti->text_other_lines,
					(unsigned long long)ti->text_lines, ti->text_first_other);
			if (ti->text_malformed_events)
				fprintf(stderr, "reclaim-replay: %s: warning: %llu event%s dropped: a "
					"value malformed or out of range; the episodes around them "
					"are flagged lost_events (first: %s)\n", opts->trace_path,
					(unsigned long long)ti->text_malformed_events,
					ti->text_malformed_events == 1 ? "" : "s",
					ti->text_first_malformed);
		}
		json_object_set_new(json_object_get(out->root, "input"), "stats", stats);

		input = json_object_get(out->root, "input");
		json_object_set_new(input, "recorder_markers", json_boolean(bs->meta_seen));
		json_object_set_new(input, "snapshot_memcgs", json_integer((json_int_t)bs->snapshot_memcgs));
		if (opts->swap_present < 0 && bs->swap_from_meta < 0)
			assume(input, "swap presence inferred: present if memcg reclaim isolated inactive anon pages earlier in the trace");
		if (!bs->snapshot_memcgs) {
			assume(input, "v1 per-memcg swappiness not in the trace: 60 (vm_swappiness default) assumed, inherited at mkdir");
			assume(input, "memcgs that predate the trace: LRU sizes are the smallest start values that keep every running sum >= 0");
			if (bs->lru_isolate_bounds)
				assume(input, "memcgs that predate the trace: start sizes raised to nr_requested << priority of their batches (no memory.low/min protection assumed)");
			out->fidelity.swappiness_assumed = true;
		}
		assume(input, "anon/file reclaim costs of memcgs that predate the trace start at 0");
		assume(input, "nr_to_reclaim inferred per episode from where reclaim stopped (kernel-reclaim-model.md 8.2)");
		assume(input, "one NUMA node modelled");
		if (ti->nr_missed_events)
			assume(input, "the ring buffer lost events: sizes after the loss are inexact");
	}
	*nr_policies = r.nr_policies;
	ret = 0;
out:
	if (ret) {
		for (int i = 0; i < r.nr_policies; i++)
			rr_policy_release(&policies[i]);
		rr_out_free(out);
	}
	{
		struct cursor *c, *tmp;

		HASH_ITER(hh, r.cursors, c, tmp) {
			HASH_DEL(r.cursors, c);
			free(c);
		}
	}
	rr_builder_free(r.builder);
	if (opts->info_out)
		*opts->info_out = *ti;
	rr_trace_close(trace);
	return ret;
}
