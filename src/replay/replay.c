// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay driver.  The trace is streamed once; each episode is simulated
 * under every policy as soon as it closes, checked against the recording,
 * diffed, rendered to each requested output and dropped.  Kept across
 * episodes: the builder's memcg table, the walk cursors (one per reclaim
 * root), and the running totals.  Scenarios take the same path, one
 * request at a time (scenario.c).  The files of the driver are listed in
 * replay-local.h.
 */
#include "replay-local.h"
#include "../record/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../scenario/scenario.h"

const char *const rr_default_policies[] = {
	"original", "online-roundup", "cluster-cap", "proportional", NULL,
};

int rr_replay_check_policies(const struct rr_replay_opts *o, struct rr_error *err)
{
	bool baseline_found = !o->baseline || !strcmp(o->baseline, "kernel");

	for (int i = 0; i < o->nr_specs; i++) {
		if (strcmp(o->policy_specs[i], "kernel") && rr_policy_check(o->policy_specs[i], err))
			return -1;
		baseline_found |= o->baseline && !strcmp(o->baseline, o->policy_specs[i]);
	}
	if (!baseline_found) {
		rr_error_set(err, o->baseline,
			     "--baseline names a policy that is not compared (add it with -p)");
		return -1;
	}
	return 0;
}

static int on_event(const struct rr_event *ev, void *ctx)
{
	struct replay *r = ctx;

	if (r->o->progress && !(++r->events & r->progress_mask))
		r->o->progress(r->o->cb_ctx, r->events, rr_trace_progress(r->trace));
	return rr_builder_feed(r->builder, ev);
}

/* One line of the user's zoneinfo copy, fed as a marker of time 0:
 * before every snapshot the trace itself holds, which win from their
 * time on (rr_state_node_at()). */
static int zoneinfo_line(const char *line, void *ctx)
{
	struct replay *r = ctx;
	char text[1200];
	struct rr_event ev = { .type = RR_EV_MARKER, .pid = -1, .cpu = -1 };
	int n = snprintf(text, sizeof(text), "%s %s", RR_MARKER_PREFIX, line);
	struct rr_marker mk;

	if (n < 0 || (size_t)n >= sizeof(text))
		return 0;	/* (a line the formatter bounds: never) */
	/* a value the marker parser refuses is the copy's fault: say so,
	 * naming the copy, rather than replay without it */
	switch (rr_marker_parse(text, (size_t)n, false, &mk)) {
	case RR_MARKER_ZONE:
		if (mk.zone.malformed) {
			rr_error_set(r->err, r->o->zoneinfo_path, "node %lld, zone %s: %s is not a "
				     "number in range", mk.zone.nid, mk.zone.name, mk.zone.malformed);
			return -1;
		}
		if (mk.zone.high < 0 || mk.zone.managed < 0) {
			rr_error_set(r->err, r->o->zoneinfo_path, "node %lld, zone %s: no %s line",
				     mk.zone.nid, mk.zone.name, mk.zone.high < 0 ? "high" : "managed");
			return -1;
		}
		break;
	case RR_MARKER_NODE:
		if (mk.node.malformed) {
			rr_error_set(r->err, r->o->zoneinfo_path, "node %lld: %s is not a number in "
				     "range", mk.node.nid, mk.node.malformed);
			return -1;
		}
		break;
	default:
		break;
	}
	if (!r->builder)
		return 0;	/* (the check before the trace is opened) */
	ev.str = text;
	ev.str_len = n;
	if (rr_builder_feed(r->builder, &ev) < 0) {
		rr_error_set(r->err, r->o->zoneinfo_path, "out of memory");
		return -1;
	}
	return 0;
}

static int replay_trace(struct replay *r)
{
	struct rr_builder_opts bopts = {
		.offline_delay_ns = r->offline_delay_ns,
		.swap_present = r->o->swap_present,
		.keep_all_batches = r->o->report,
	};
	const struct rr_trace_info *ti;
	struct rr_input_desc in;
	struct rr_trace *trace;
	struct rr_state *st;
	int ret = -1;

	/* a --zoneinfo copy the replay cannot use is refused before the
	 * trace is read (its lines are fed once the builder exists) */
	if (r->o->zoneinfo_path && rr_zoneinfo_copy(r->o->zoneinfo_path, zoneinfo_line, r, r->err) < 0)
		return -1;
	trace = rr_trace_open(r->o->trace_path, r->err);
	if (!trace)
		return -1;
	r->trace = trace;
	ti = rr_trace_info(trace);
	if (rr_replay_pick_release(r, ti))
		goto out;
	r->page_size_bytes = 4096;
	r->page_shift = 12;
	if (ti->page_size_bytes >= 512 && !(ti->page_size_bytes & (ti->page_size_bytes - 1)) &&
	    ti->page_size_bytes <= (1 << 30)) {
		r->page_size_bytes = (uint64_t)ti->page_size_bytes;
		r->page_shift = (unsigned int)__builtin_ctz((unsigned int)ti->page_size_bytes);
	} else if (ti->page_size_bytes > 0) {
		snprintf(r->page_size_note, sizeof(r->page_size_note),
			 "page size: the trace says %d bytes, not a power of two from 512 bytes "
			 "to 1 GiB; 4096 bytes assumed", ti->page_size_bytes);
		if (r->o->warn)
			r->o->warn(r->o->cb_ctx, r->o->trace_path, r->page_size_note);
	} else if (ti->format == RR_FORMAT_TEXT) {
		snprintf(r->page_size_note, sizeof(r->page_size_note),
			 "page size: the text trace does not say; 4096 bytes assumed");
	}
	if (r->o->kernel_policy) {
		snprintf(r->kernel_policy, sizeof(r->kernel_policy), "%s", r->o->kernel_policy);
		r->kernel_policy_source = "option";
	} else if (ti->kernel_policy[0]) {
		snprintf(r->kernel_policy, sizeof(r->kernel_policy), "%s", ti->kernel_policy);
		r->kernel_policy_source = "trace";
	}
	if (r->kernel_policy[0] && !strcmp(r->kernel_policy, "kernel"))
		r->kernel_policy[0] = 0;	/* (the stock rules) */
	if (r->kernel_policy[0] && rr_policy_check(r->kernel_policy, r->err)) {
		snprintf(r->err->msg + strlen(r->err->msg), sizeof(r->err->msg) - strlen(r->err->msg),
			 " (the recording kernel's policy, %s)",
			 !strcmp(r->kernel_policy_source, "option") ? "--kernel-policy" :
			 "the trace's meta marker");
		goto out;
	}
	if (rr_replay_policies(r))
		goto out;
	r->has_recording = true;
	rr_totals_init(&r->totals, r->np, r->baseline, true, r->page_size_bytes, r->o->top);
	if (rr_outputs_begin(r))
		goto out;
	/* the goal is checked after each memcg of a pass: v6.11+, and limit
	 * reclaim before v5.4 (1ba6fc9af35b) */
	bopts.partial_walk = r->km.partial_walk || r->km.limit_walk_stops;
	/* a trace.dat holds the format of each event recorded: with
	 * memcg_flush_stats among them, the trace shows every flush */
	bopts.flushes_recorded = ti->format == RR_FORMAT_TRACE_DAT &&
				 (ti->events_known & (1u << RR_EV_FLUSH));
	/* writes inferred from plain calls: only where memory.reclaim exists
	 * (v5.19, 94968384dde1); a call asking more than HPAGE_PMD_NR pages */
	if (r->km.memory_reclaim)
		bopts.proactive_min_pages = r->page_size_bytes / 8;
	/* no memcg: events in the trace (kernels before 6.13): the builder
	 * infers each batch's memcg (attribute.c) */
	bopts.drop_memcg_events = r->o->drop_memcg_events;
	bopts.shared_walk_cursor = r->km.limit_walk_stops;
	bopts.infer_attribution = !(ti->events_known & ((1u << RR_EV_MOD_LRUVEC) |
							(1u << RR_EV_COUNT_EVENTS)));
	r->builder = rr_builder_new(&bopts, rr_replay_on_episode, r);
	if (!r->builder) {
		rr_error_set(r->err, "", "out of memory");
		goto out;
	}
	st = rr_builder_state(r->builder);
	r->names = st;
	st->cost_rotations_x32 = r->km.cost_rotations_x32;
	st->cost_zero_returns = r->km.cost_zero_returns;
	r->err->msg[0] = 0;
	if (r->o->zoneinfo_path) {
		int nodes = rr_zoneinfo_copy(r->o->zoneinfo_path, zoneinfo_line, r, r->err);

		if (nodes < 0)
			goto out;
		r->zoneinfo_nodes = nodes;
	}
	ret = rr_trace_for_each(trace, on_event, r, r->err);
	if (r->o->progress) {
		if (r->events)	/* the whole count, then the end */
			r->o->progress(r->o->cb_ctx, r->events, 1000);
		r->o->progress(r->o->cb_ctx, 0, 1000);
	}
	if (!ret && rr_builder_finish(r->builder) < 0)
		ret = -1;
	if (ret) {
		if (!r->err->msg[0])
			rr_error_set(r->err, r->o->trace_path, "out of memory while replaying");
		ret = -1;
		goto out;
	}
	if (r->report && rr_report_finish(r->report, st)) {
		rr_error_set(r->err, "", "out of memory");
		ret = -1;
		goto out;
	}
	rr_replay_describe_input(r, ti, &in);
	if (ti->damaged_cpus && !ti->damaged_cpus_read && !in.bs->events) {
		/* every CPU with data stopped before its first record */
		rr_error_set(r->err, r->o->trace_path, "corrupt trace data: no event can be "
			     "read (%s)", ti->first_damage);
		ret = -1;
		goto out;
	}
	rr_replay_warnings(r, ti, &in);
	ret = rr_outputs_end(r, &in);
out:
	r->trace = NULL;
	rr_trace_close(trace);
	return ret;
}

int rr_replay(const struct rr_replay_opts *opts, struct rr_error *err)
{
	struct replay *r = calloc(1, sizeof(*r));
	int ret;

	if (!r) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	r->o = opts;
	r->err = err;
	/* what is wrong with the options shows before any input is read */
	if (rr_replay_check_policies(opts, err)) {
		free(r);
		return -1;
	}
	r->offline_delay_ns = opts->offline_delay_given ? opts->offline_delay_ns :
			      RR_DEFAULT_OFFLINE_DELAY_NS;
	r->progress_mask = (1ull << (opts->progress_log2 > 0 && opts->progress_log2 <= 30 ?
				     opts->progress_log2 : 20)) - 1;
	if (rr_scenario_sniff(opts->trace_path)) {
		ret = rr_replay_scenario(r);
	} else {
		ret = replay_trace(r);
	}
	rr_outputs_free(r);
	rr_builder_free(r->builder);
	rr_cursors_free(&r->cursors);
	{
		struct saved_cursor *sc, *tmp;

		HASH_ITER(hh, r->write_cursors, sc, tmp) {
			HASH_DEL(r->write_cursors, sc);
			free(sc);
		}
	}
	rr_totals_free(&r->totals);
	rr_fidelity_free(&r->fidelity);
	for (int i = 0; i < r->np; i++) {
		rr_policy_release(&r->policies[i]);
		rr_sim_result_free(&r->results[i]);
	}
	rr_sim_scratch_free();
	if (ret && r->needs_kernel)
		ret = RR_REPLAY_NEEDS_KERNEL;
	free(r);
	return ret;
}
