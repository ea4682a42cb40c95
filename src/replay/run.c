// SPDX-License-Identifier: GPL-2.0-only
/*
 * One episode's replay under every policy (each from its own walk cursor
 * of the root), its check against the recording, and its diff to the
 * totals and every output; the policies resolved once per replay.
 */
#include "replay-local.h"

#include <stdlib.h>
#include <string.h>

/* The baseline first, then the policies asked for. */
int rr_replay_policies(struct replay *r)
{
	const struct rr_replay_opts *o = r->o;

	char spec[96];

	r->np = 0;
	/* a patched recording kernel: its policy over the release's rules */
	snprintf(spec, sizeof(spec), "kernel%s%s", r->kernel_policy[0] ? "+" : "", r->kernel_policy);
	if (rr_policy_resolve(&r->policies[0], spec, &r->km, r->page_size_bytes, r->err))
		return -1;
	/* (named "kernel" whatever it composes: it is the recording kernel) */
	snprintf(r->policies[0].name, sizeof(r->policies[0].name), "kernel");
	r->np = 1;
	for (int i = 0; i < o->nr_specs; i++) {
		if (!strcmp(o->policy_specs[i], "kernel"))
			continue;
		if (r->np >= RR_MAX_POLICIES) {
			rr_error_set(r->err, o->policy_specs[i], "at most %d policies",
				     RR_MAX_POLICIES - 1);
			return -1;
		}
		if (rr_policy_resolve(&r->policies[r->np], o->policy_specs[i], &r->km,
				      r->page_size_bytes, r->err))
			return -1;
		r->np++;
	}
	/* (rr_replay_check_policies() made sure it is one of them) */
	r->baseline = 0;
	for (int i = 0; o->baseline && i < r->np; i++)
		if (!strcmp(r->policies[i].name, o->baseline))
			r->baseline = i;
	return 0;
}

/* The diff of one episode, to the totals and every output. */
int rr_replay_emit(struct replay *r, const struct rr_episode *ep,
		   const struct rr_sim_result *results, const char *skip_reason)
{
	struct rr_episode_diff d;
	int ret;

	if (rr_diff_episode(&d, ep, r->names, r->page_size_bytes, r->has_recording, results,
			    r->np, r->baseline, skip_reason, r->o->episodes == RR_EPISODES_ALL)) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	ret = rr_totals_add(&r->totals, &d);
	if (!ret)
		ret = rr_outputs_episode(r, &d);
	else
		rr_error_set(r->err, "", "out of memory");
	rr_diff_episode_free(&d);
	return ret;
}

/* Check the episode against the recording; take what the recorded
 * decisions showed about offline moments into the state. */
int rr_replay_fidelity(struct replay *r, const struct rr_episode *ep, struct rr_state *st,
		       const struct rr_sim_input *in, const struct rr_sim_result *kernel_result)
{
	struct rr_fidelity_facts fx;
	uint64_t inferred = 0;

	if (rr_fidelity_check(ep, st, &r->km, r->page_shift, &r->policies[0], in,
			      kernel_result, &r->fidelity, &fx, r->err))
		return -1;
	for (size_t i = 0; i < fx.nr_offline_seen; i++) {
		struct rr_memcg *m = rr_state_find(st, fx.offline_seen[i].memcg_id);

		if (m && !m->v.offline_seen_ns) {
			rr_memcg_mut(st, m)->offline_seen_ns = fx.offline_seen[i].ts_ns;
			inferred++;
		}
	}
	rr_fidelity_add(&r->fidelity, ep, &fx, inferred);
	rr_fidelity_facts_free(&fx);
	return 0;
}

/*
 * Swap presence where the trace does not say it (no option, marker or anon
 * batch): the fidelity check's evidence so far, if one-sided, is the
 * replay's value too (a fitted input; docs/kernel-model.md §19.3).
 */
void rr_replay_swap_from_evidence(struct replay *r, const struct rr_episode *ep,
				  struct rr_sim_input *in)
{
	const struct rr_fidelity *f = &r->fidelity;

	if (ep->swap_known || (!f->swap_present_calls == !f->swap_absent_calls))
		return;
	in->swap_present = f->swap_present_calls > 0;
	r->swap_fitted_episodes++;
}

/* The first memcg of @ep's batches, 0 none (where a new cursor starts). */
uint64_t rr_replay_first_memcg(const struct rr_episode *ep)
{
	for (size_t i = 0; i < ep->nr_batches; i++)
		if (ep->batches[i].memcg_id)
			return ep->batches[i].memcg_id;
	return 0;
}

/* The first @np policies' runs of one episode, each from its own walk
 * cursor. */
int rr_replay_run_policies(struct replay *r, const struct rr_episode *ep,
			   struct rr_sim_input *in, struct rr_sim_result *res, int np)
{
	struct rr_cursor *c = rr_cursor_start(&r->cursors, ep->root_memcg_id, in,
					      rr_replay_first_memcg(ep), ep->start_ns);
	int start;

	if (!c) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	/* another task's walk under the root moved the shared cursor while
	 * this one ran (global direct reclaim: always): where the last
	 * recorded episode left it says nothing; the recorded walk began just
	 * before the first memcg it reclaimed from (inferred) */
	if (ep->walk_interleaved && rr_replay_first_memcg(ep)) {
		int idx = rr_cursor_index(in, rr_replay_first_memcg(ep));

		for (int p = 0; p < np && idx >= 0; p++)
			c->pos_id[p] = idx > 0 ? in->memcgs[idx - 1].id : 0;
	}
	start = rr_cursor_index(in, c->pos_id[0]);
	for (int p = 0; p < np; p++) {
		in->cursor = rr_cursor_index(in, c->pos_id[p]);
		if (rr_sim_run(in, &r->policies[p], &res[p], r->err)) {
			rr_error_context(r->err, r->o->trace_path, "policy %s, episode at %llu.%06llu s",
					 r->policies[p].name,
					 (unsigned long long)(ep->start_ns / 1000000000),
					 (unsigned long long)(ep->start_ns % 1000000000 / 1000));
			return -1;
		}
		rr_cursor_moved(c, p, in, res[p].cursor);
	}
	in->cursor = start;	/* where the baseline began, for the fidelity check */
	for (size_t i = ep->nr_batches; i-- > 0;) {
		if (ep->batches[i].memcg_id) {
			rr_cursor_recorded(c, ep->batches[i].memcg_id, ep->batches[i].priority, ep->end_ns);
			break;
		}
	}
	return 0;
}
