// SPDX-License-Identifier: GPL-2.0-only
/*
 * The builder's callback: a recorded episode replayed, or why not, its
 * calls checked one by one either way (run.c), and a reclaim call of a
 * memory.reclaim write checked on its own.
 */
#include "replay-local.h"

/*
 * One reclaim call of a replayable proactive episode: the episode is
 * replayed whole when it ends; the call is checked against the kernel
 * model on its own (fidelity), with nr_to_reclaim from the release's chunk
 * rule where the earlier calls of the write are all known.
 */
static int proactive_call(struct replay *r, struct rr_episode *ep, struct rr_state *st)
{
	const struct rr_episode *p = ep->proactive;
	struct rr_sim_input in;
	struct rr_error serr;
	int ret = -1;

	if (p->proactive_bytes && !p->calls_incomplete && !p->lost_events &&
	    p->recorded_nr_reclaimed < p->proactive_bytes >> r->page_shift) {
		uint64_t chunk = rr_replay_kernel_chunk(r, p->proactive_bytes >> r->page_shift,
							p->recorded_nr_reclaimed, p->nr_calls);

		if (chunk != UINT64_MAX) {
			ep->nr_to_reclaim_pages = chunk;
			ep->nr_to_reclaim_basis = "memory.reclaim chunk";
		}
	}
	if (ep->mglru || rr_builder_stats(r->builder)->mglru_from_meta || r->o->outcome_exact)
		return 0;
	if (rr_episode_sim_input(ep, st, &r->km, r->page_shift, r->offline_delay_ns, &in, &serr))
		return rr_replay_fidelity(r, ep, st, NULL, NULL);
	rr_replay_swap_from_evidence(r, ep, &in);
	rr_sim_result_clear(&r->results[0]);
	if (!p->nr_calls && rr_replay_save_write_cursor(r, p, ep, &in)) {
		rr_episode_sim_input_free(&in);
		return -1;
	}
	if (!rr_replay_run_policies(r, ep, &in, r->results, 1) &&
	    !rr_replay_fidelity(r, ep, st, &in, &r->results[0]))
		ret = 0;
	rr_episode_sim_input_free(&in);
	return ret;
}

/*
 * An episode that is not replayed: its calls are still checked one by one,
 * except a proactive write's (checked with each call), MGLRU batches (no
 * get_scan_count() decisions) and under the exact outcome model.
 */
static int check_calls_only(struct replay *r, const struct rr_episode *ep, struct rr_state *st)
{
	if (ep->kind == RR_KIND_PROACTIVE || ep->mglru ||
	    rr_builder_stats(r->builder)->mglru_from_meta || r->o->outcome_exact)
		return 0;
	return rr_replay_fidelity(r, ep, st, NULL, NULL);
}

/*
 * Ready a global episode (a kswapd run, a direct or node reclaim call) for
 * its replay.  Return NULL, or why it cannot be replayed.
 */
static const char *global_prepare(const struct rr_episode *ep)
{
	size_t unattributed = 0;

	for (size_t i = 0; i < ep->nr_batches; i++)
		unattributed += !ep->batches[i].memcg_id;
	/* (one text for all: the table counts the episodes by reason) */
	if (unattributed)
		return "global reclaim: LRU batches not attributed to a memcg (no memcg: event "
		       "followed them; kernels before 6.13 have none): the memcgs the walk "
		       "reclaimed from are not known";
	if (ep->lost_events)
		return "global reclaim: events were lost while it ran";
	if (ep->kind == RR_KIND_KSWAPD && !ep->nr_to_reclaim_pages)
		return "kswapd run: its nr_to_reclaim (the zones' high watermarks, "
		       "kswapd_shrink_node()) is not in the trace: record with reclaim-replay "
		       "record, which writes the zones' watermarks, or give a copy of the "
		       "machine's /proc/zoneinfo with --zoneinfo";
	if (ep->kind == RR_KIND_NODE && ep->order < 0)
		return "node reclaim call without its order (mm_vmscan_node_reclaim_begin): "
		       "its nr_to_reclaim, max(1 << order, 32), is not known";
	return NULL;
}

/*
 * One recorded try_to_free_mem_cgroup_pages() call into the batch model
 * (timing.h): each inactive batch with its shrink event, and the call's
 * rest beyond them, with its shrink_lruvec() calls (the probe's, else the
 * runs of batches of one memcg and priority).
 */
static void batch_model_add(struct replay *r, const struct rr_episode *ep)
{
	uint64_t batches_ns = 0, runs = 0;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_batch *b = &ep->batches[i];

		if (!i || b->memcg_id != ep->batches[i - 1].memcg_id ||
		    b->priority != ep->batches[i - 1].priority)
			runs++;
		if (rr_lru_is_active(b->lru) || !rr_lru_is_evictable(b->lru) || !b->has_shrink ||
		    b->end_ns < b->ts_ns)
			continue;
		rr_batch_cost_add_batch(&r->totals.batch_cost, rr_lru_type(b->lru), b->nr_taken,
					b->nr_reclaimed, b->end_ns - b->ts_ns);
		batches_ns += b->end_ns - b->ts_ns;
	}
	rr_batch_cost_add_call(&r->totals.batch_cost, ep->probed ? ep->nr_probes : runs,
			       batches_ns, ep->end_ns - ep->start_ns);
}

static int episode(struct replay *r, struct rr_episode *ep, struct rr_state *st)
{
	struct rr_sim_result *res = r->results;
	struct rr_sim_input in;
	struct rr_error serr;
	int ret = -1;

	if (r->report && rr_report_episode(r->report, ep)) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	if (!ep->replayable) {
		if (ep->unterminated_write)
			return rr_replay_emit(r, ep, NULL, ep->no_begin ?
					      "memory.reclaim write without its begin marker (the "
					      "trace started inside it)" :
					      "memory.reclaim write without its end marker (the trace "
					      "stopped inside it, the marker was lost, or the task "
					      "began another write)");
		return 0;
	}
	/* a try_to_free_mem_cgroup_pages() call (the calls of a write
	 * included), a try_to_free_pages() or a __node_reclaim() call: one
	 * observation of the time model.  (A kswapd run is no call: it ends
	 * when the node is balanced or kswapd sleeps, at a time the next wake
	 * or sleep event only bounds.) */
	if ((ep->kind == RR_KIND_MEMCG || ep->kind == RR_KIND_DIRECT ||
	     ep->kind == RR_KIND_NODE) && ep->has_nr_reclaimed && !ep->lost_events) {
		uint64_t scanned = 0;

		for (size_t i = 0; i < ep->nr_batches; i++)
			if (!rr_lru_is_active(ep->batches[i].lru))
				scanned += ep->batches[i].nr_taken;
		rr_cost_add(&r->totals.cost, scanned, ep->recorded_nr_reclaimed,
			    ep->end_ns - ep->start_ns);
		r->totals.cost_global_calls += ep->kind != RR_KIND_MEMCG;
		batch_model_add(r, ep);
	}
	if (ep->proactive)
		return proactive_call(r, ep, st);
	/* the sizes at its start are lower bounds until the start snapshot
	 * fixes them (docs/kernel-model.md §18): no replay on them; its calls
	 * are still checked one by one (those before the snapshot are not
	 * judged) */
	if (ep->before_start_snapshot) {
		if (check_calls_only(r, ep, st))
			return -1;
		return rr_replay_emit(r, ep, NULL,
				      "began before the recorder's start snapshot: the memcg sizes "
				      "it read are not in the trace");
	}
	if (ep->kind == RR_KIND_PROACTIVE) {
		const char *why = rr_replay_proactive_prepare(r, ep);

		if (why)
			return rr_replay_emit(r, ep, NULL, why);
	}
	/* (the calls of a global episode that cannot be replayed are still
	 * checked one by one) */
	if (rr_kind_global(ep->kind)) {
		const char *why = global_prepare(ep);

		if (why && check_calls_only(r, ep, st))
			return -1;
		if (why)
			return rr_replay_emit(r, ep, NULL, why);
	}
	/* MGLRU: the batches are no get_scan_count() decisions */
	if (ep->mglru || rr_builder_stats(r->builder)->mglru_from_meta)
		return rr_replay_emit(r, ep, NULL,
				      "Multi-Gen LRU batches: no policy verdict from this episode");
	if (rr_episode_sim_input(ep, st, &r->km, r->page_shift, r->offline_delay_ns, &in, &serr)) {
		if (check_calls_only(r, ep, st))
			return -1;
		return rr_replay_emit(r, ep, NULL, ep->root_memcg_id ?
				      "reclaim root unknown: the memcg its batches point to did not "
				      "exist when the episode began" :
				      "reclaim root unknown: no batch was attributed to a memcg");
	}
	for (int p = 0; p < r->np; p++)
		rr_sim_result_clear(&res[p]);
	rr_replay_swap_from_evidence(r, ep, &in);
	if (ep->kind == RR_KIND_PROACTIVE)
		rr_replay_restore_write_cursor(r, ep, &in);
	if (r->o->outcome_exact)
		in.outcome = RR_OUTCOME_EXACT;
	if (!rr_replay_run_policies(r, ep, &in, res, r->np) &&
	    (ep->kind == RR_KIND_PROACTIVE || r->o->outcome_exact ||
	     !rr_replay_fidelity(r, ep, st, &in, &res[0])))
		ret = rr_replay_emit(r, ep, res, NULL);
	rr_episode_sim_input_free(&in);
	return ret;
}

int rr_replay_on_episode(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct replay *r = ctx;
	int ret = episode(r, ep, st);

	/* a write's saved cursor goes with it, replayed or not */
	if (ep->kind == RR_KIND_PROACTIVE)
		rr_replay_restore_write_cursor(r, ep, NULL);
	return ret;
}
