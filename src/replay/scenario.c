// SPDX-License-Identifier: GPL-2.0-only
/*
 * A what-if scenario (man reclaim-replay-scenario.5): each request from the
 * scenario's initial state, replayed under every policy and written like
 * the episodes of a trace with "recorded": null.  Cgroup paths come from a
 * memcg table fed with mkdir events.
 */
#include "replay-local.h"

#include <stdlib.h>
#include <string.h>

#include "../scenario/scenario.h"

static int scenario_requests(struct replay *r, const struct rr_scenario *sc)
{
	struct rr_sim_result res[RR_MAX_POLICIES];

	for (int q = 0; q < sc->nr_requests; q++) {
		const struct rr_scenario_request *rq = &sc->requests[q];
		struct rr_episode ep;
		struct rr_sim_input in;
		const struct rr_memcg *root;
		int ret = 0;

		if (rr_scenario_sim_input(sc, q, &r->km, &in)) {
			rr_error_set(r->err, "", "out of memory");
			return -1;
		}
		in.episode_id = (uint64_t)q + 1;
		memset(res, 0, sizeof(res));
		memset(&ep, 0, sizeof(ep));
		ep.replay_seq = ep.seq = (uint64_t)q + 1;
		ep.kind = rq->kind;
		ep.root_memcg_id = (uint64_t)rq->cgroup + 1;
		/* the name the targets use too: control characters in a path
		 * written "\xNN" (rr_name_dup()), as in a trace */
		root = rr_state_find(r->names, ep.root_memcg_id);
		ep.root_path = root ? root->path : sc->cgroups[rq->cgroup].path;
		ep.nr_to_reclaim_pages = rq->nr_pages;
		ep.nr_to_reclaim_basis = "scenario";
		ep.no_recording = true;
		for (int p = 0; p < r->np && !ret; p++)
			if ((ret = rr_sim_run(&in, &r->policies[p], &res[p], r->err)))
				rr_error_context(r->err, r->o->trace_path, "policy %s, requests[%d]",
						 r->policies[p].name, q);
		if (!ret)
			ret = rr_replay_emit(r, &ep, res, NULL);
		for (int p = 0; p < r->np; p++)
			rr_sim_result_free(&res[p]);
		free(in.memcgs);
		if (ret)
			return -1;
	}
	return 0;
}

int rr_replay_scenario(struct replay *r)
{
	struct rr_input_desc in;
	struct rr_scenario sc;
	struct rr_state st;
	int ret = -1;

	rr_state_init(&st);
	st.memory_root = 0;
	if (rr_scenario_load(r->o->trace_path, &sc, r->err))
		return -1;
	if (r->o->report) {
		rr_error_set(r->err, r->o->trace_path, "is a scenario: nothing was recorded to report");
		goto out;
	}
	if (r->o->outcome_exact) {
		rr_error_set(r->err, r->o->trace_path, "is a scenario: --outcome is for traces "
			     "(a scenario's \"outcome\" key chooses its model)");
		goto out;
	}
	if (r->o->drop_memcg_events) {
		rr_error_set(r->err, r->o->trace_path, "is a scenario: --drop-memcg-events is for "
			     "traces (a scenario has no events)");
		goto out;
	}
	if (rr_kernel_model_init(&r->km, r->o->kernel_release ? r->o->kernel_release : sc.kernel)) {
		rr_error_set(r->err, r->o->trace_path, "kernel: '%s' is not a release MAJOR.MINOR "
			     "of 4.0 or later", sc.kernel);
		goto out;
	}
	r->release_source = r->o->kernel_release ? "option" : "scenario";
	r->page_size_bytes = sc.page_size_bytes;
	r->page_shift = sc.page_shift;
	if (rr_replay_policies(r))
		goto out;
	for (int i = 0; i < sc.nr_cgroups; i++) {
		struct rr_event ev = {
			.type = RR_EV_CGROUP_MKDIR, .id = (uint64_t)i + 1,
			.str = sc.cgroups[i].path, .str_len = (int)strlen(sc.cgroups[i].path),
		};

		if (rr_state_apply(&st, &ev)) {
			rr_error_set(r->err, "", "out of memory");
			goto out;
		}
	}
	r->names = &st;
	r->has_recording = false;
	rr_totals_init(&r->totals, r->np, r->baseline, false, sc.page_size_bytes, r->o->top);
	if (rr_outputs_begin(r) || scenario_requests(r, &sc))
		goto out;
	memset(&in, 0, sizeof(in));
	in.file = r->o->trace_path;
	in.kernel_release = r->km.release;
	in.release_source = r->release_source;
	in.page_size_bytes = sc.page_size_bytes;
	in.scenario_version = RR_SCENARIO_VERSION;
	in.swap = sc.swap;
	in.outcome_model = sc.outcome == RR_OUTCOME_EXACT ? "exact" : "structural";
	in.cgroups = sc.nr_cgroups;
	in.requests = sc.nr_requests;
	in.assumptions[in.nr_assumptions++] = "each request starts from the scenario's initial state";
	in.assumptions[in.nr_assumptions++] = "effective memory.min/low are the configured values "
					      "(no recursive distribution)";
	in.assumptions[in.nr_assumptions++] = "anon/file costs are 0 (fractions from swappiness "
					      "alone) unless scan_fraction is given";
	in.assumptions[in.nr_assumptions++] = "active batches deactivate every page they take (no "
					      "referenced executable file folio stays active)";
	ret = rr_outputs_end(r, &in);
out:
	r->names = NULL;
	rr_scenario_free(&sc);
	rr_state_free(&st);
	return ret;
}
