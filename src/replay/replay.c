// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay driver.  The trace is streamed once; each episode is simulated
 * under every policy as soon as it closes, checked against the recording,
 * diffed, rendered to each requested output and dropped.  Kept across
 * episodes: the builder's memcg table, the walk cursors (one per reclaim
 * root), and the running totals.  Scenarios take the same path, one
 * request at a time (scenario.c).
 */
#include "replay-local.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../episode/episode.h"
#include "../scenario/scenario.h"
#include "../release/release.h"

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

/* The baseline first, then the policies asked for. */
int rr_replay_policies(struct replay *r)
{
	const struct rr_replay_opts *o = r->o;

	r->np = 0;
	if (rr_policy_resolve(&r->policies[0], "kernel", &r->km, r->page_size_bytes, r->err))
		return -1;
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
			    r->np, r->baseline, skip_reason, r->o->all_episodes)) {
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
static int fidelity(struct replay *r, const struct rr_episode *ep, struct rr_state *st,
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
static void swap_from_evidence(struct replay *r, const struct rr_episode *ep,
			       struct rr_sim_input *in)
{
	const struct rr_fidelity *f = &r->fidelity;

	if (ep->swap_known || (!f->swap_present_calls == !f->swap_absent_calls))
		return;
	in->swap_present = f->swap_present_calls > 0;
	r->swap_fitted_episodes++;
}

/* The first memcg of @ep's batches, 0 none (where a new cursor starts). */
static uint64_t first_memcg(const struct rr_episode *ep)
{
	for (size_t i = 0; i < ep->nr_batches; i++)
		if (ep->batches[i].memcg_id)
			return ep->batches[i].memcg_id;
	return 0;
}

/* The first @np policies' runs of one episode, each from its own walk
 * cursor. */
static int run_policies(struct replay *r, const struct rr_episode *ep,
			struct rr_sim_input *in, struct rr_sim_result *res, int np)
{
	struct rr_cursor *c = rr_cursor_start(&r->cursors, ep->root_memcg_id, in, first_memcg(ep),
					      ep->start_ns);
	int start;

	if (!c) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	/* another task's walk under the root moved the shared cursor while
	 * this one ran (global direct reclaim: always): where the last
	 * recorded episode left it says nothing; the recorded walk began just
	 * before the first memcg it reclaimed from (inferred) */
	if (ep->walk_interleaved && first_memcg(ep)) {
		int idx = rr_cursor_index(in, first_memcg(ep));

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

/* max(chunk, SWAP_CLUSTER_MAX) of the kernel policy for call @k of a
 * write of @request pages after @done reclaimed; UINT64_MAX on failure. */
static uint64_t kernel_chunk(struct replay *r, uint64_t request, uint64_t done, uint64_t k)
{
	struct rr_proactive_chunk_args a = {
		.size = sizeof(a), .nr_requested_pages = request, .nr_reclaimed_pages = done,
		.nr_calls = k,
	};
	uint64_t chunk = 0;

	if (rr_hook_proactive_chunk(&r->policies[0], &a, &chunk))
		return UINT64_MAX;
	return chunk > RR_SWAP_CLUSTER_MAX ? chunk : RR_SWAP_CLUSTER_MAX;
}

#define REQUEST_MAX_PAGES (1ULL << 40)
/* the largest write replayed: 32-page chunks of it stay within the
 * simulator's call limit (sim.c MAX_CHUNK_CALLS) */
#define REQUEST_MAX_REPLAY_PAGES (1ULL << 28)

/*
 * The requests (pages) an inferred write could have had: those for which
 * the release's chunk rule gives every call an nr_to_reclaim inside the
 * bounds inferred for it, and the loop ends where it ended (met, or
 * -EAGAIN after MAX_RECLAIM_RETRIES + 1 calls that reclaimed nothing).
 * The rules are monotone in the remainder, so each call bounds the
 * remainder by two binary searches.  Return 0 with [*lo, *hi] and *eagain
 * (the loop gave up), -1 when no request fits, -2 when nothing bounds it
 * from above (every call reclaimed nothing).
 */
static int infer_request(struct replay *r, const struct rr_episode *ep, uint64_t *lo,
			 uint64_t *hi, bool *eagain)
{
	uint64_t done = 0, zeros = 0;

	*lo = 1;
	*hi = REQUEST_MAX_PAGES;
	for (size_t k = 0; k < ep->nr_calls; k++) {
		const struct rr_reclaim_call *c = &ep->calls[k];
		uint64_t a = 1, b = REQUEST_MAX_PAGES, x_lo, x_hi;

		/* the smallest remainder whose chunk exceeds the call's low bound */
		if (kernel_chunk(r, done + b, done, k) <= c->nr_to_reclaim_low)
			return -1;
		while (a < b) {
			uint64_t m = a + (b - a) / 2;

			if (kernel_chunk(r, done + m, done, k) > c->nr_to_reclaim_low)
				b = m;
			else
				a = m + 1;
		}
		x_lo = a;
		x_hi = REQUEST_MAX_PAGES;
		if (c->nr_to_reclaim_high) {
			/* the largest remainder whose chunk stays within the high bound */
			if (kernel_chunk(r, done + x_lo, done, k) > c->nr_to_reclaim_high)
				return -1;
			a = x_lo;
			b = REQUEST_MAX_PAGES;
			while (a < b) {
				uint64_t m = a + (b - a + 1) / 2;

				if (kernel_chunk(r, done + m, done, k) <= c->nr_to_reclaim_high)
					a = m;
				else
					b = m - 1;
			}
			x_hi = a;
		}
		if (done + x_lo > *lo)
			*lo = done + x_lo;
		if (done + x_hi < *hi)
			*hi = done + x_hi;
		done += c->nr_reclaimed_pages;
		zeros += !c->nr_reclaimed_pages;
	}
	/* -EAGAIN: the 17th call that reclaimed nothing, counted over the whole
	 * write (progress gives no retry back, memory_reclaim()) */
	*eagain = zeros > 16 && ep->nr_calls && !ep->calls[ep->nr_calls - 1].nr_reclaimed_pages;
	if (*eagain) {
		if (done + 1 > *lo)
			*lo = done + 1;
	} else if (done < *hi) {	/* met: the last call reached it */
		*hi = done;
	}
	if (*lo > *hi)
		return -1;
	return *hi == REQUEST_MAX_PAGES ? -2 : 0;
}

/*
 * The request of a write inferred from plain calls (src/episode/proactive.c):
 * the roundest admissible one, with each call's nr_to_reclaim by the chunk
 * rule and how the loop ended; NULL, or why none can be said.
 */
static const char *infer_write(struct replay *r, struct rr_episode *ep)
{
	uint64_t req, done = 0;
	bool eagain = false;
	int ret = infer_request(r, ep, &ep->request_low_pages, &ep->request_high_pages, &eagain);

	if (ret) {
		ep->request_low_pages = ep->request_high_pages = 0;
		if (ret == -2)
			return "memory.reclaim write inferred from plain calls: its request "
			       "cannot be inferred (no call bounds it from above)";
		return "memory.reclaim write inferred from plain calls: their nr_to_reclaim "
		       "does not follow the modelled release's chunk rule (not a write -- a "
		       "memory.max or memory.high write reclaims in large calls too -- or "
		       "another release)";
	}
	ep->proactive_errno = eagain ? 11 : 0;	/* the recorded outcome, as inferred */
	/* people write round sizes: the admissible request with the most
	 * trailing zero bits (1 GiB over 262125..262150 pages: 262144) */
	req = ep->request_low_pages;
	for (int k = 40; k > 0; k--) {
		uint64_t step = 1ULL << k, m = (ep->request_low_pages + step - 1) / step * step;

		if (m <= ep->request_high_pages) {
			req = m;
			break;
		}
	}
	ep->proactive_bytes = req << r->page_shift;
	for (size_t k = 0; k < ep->nr_calls; k++) {
		ep->calls[k].nr_to_reclaim_pages = kernel_chunk(r, req, done, k);
		done += ep->calls[k].nr_reclaimed_pages;
	}
	return NULL;
}

/*
 * Ready a proactive episode (one memory.reclaim write between the
 * recorder's markers, or inferred from plain calls) for its replay as a
 * memory_reclaim() loop: its nr_to_reclaim is the request in pages.
 * Return NULL, or why it cannot be replayed.
 */
static const char *proactive_prepare(struct replay *r, struct rr_episode *ep)
{
	const char *why;

	if (ep->calls_incomplete)
		return ep->calls_incomplete;
	if (ep->lost_events)
		return "memory.reclaim write: events were lost while it ran";
	if (ep->proactive_inferred && (why = infer_write(r, ep)))
		return why;
	if (!r->km.memory_reclaim)
		return "memory.reclaim write, but the modelled release has no memory.reclaim "
		       "(v5.19+, 94968384dde1): give --kernel";
	if (!ep->proactive_bytes)
		return "memory.reclaim write: the begin marker gives no byte count it can read "
		       "(bytes=, 1 to 2^63 - 1)";
	ep->nr_to_reclaim_pages = ep->proactive_bytes >> r->page_shift;
	if (ep->nr_to_reclaim_pages > REQUEST_MAX_REPLAY_PAGES)
		return "memory.reclaim write of more than 2^28 pages (1 TiB of 4 KiB pages): "
		       "beyond what the replay simulates";
	if (!ep->nr_calls && ep->nr_to_reclaim_pages)
		return "memory.reclaim write: no reclaim call recorded inside it";
	if (ep->proactive_errno == 4 /* EINTR */)
		return "memory.reclaim write interrupted (EINTR): when the signal came is not "
		       "in the trace";
	if (ep->proactive_swappiness >= 0 &&
	    (why = rr_proactive_swappiness_refused(&r->km, ep->proactive_swappiness))) {
		snprintf(r->skip_why, sizeof(r->skip_why),
			 "memory.reclaim write with a swappiness= key: %s", why);
		return r->skip_why;
	}
	return NULL;
}

/* Before the first call of write @p runs: keep the cursor of its root. */
static int save_write_cursor(struct replay *r, const struct rr_episode *p,
			     const struct rr_episode *call, const struct rr_sim_input *in)
{
	struct saved_cursor *sc;
	struct rr_cursor *c;

	HASH_FIND(hh, r->write_cursors, &p->seq, sizeof(p->seq), sc);
	if (sc)
		return 0;
	c = rr_cursor_start(&r->cursors, call->root_memcg_id, in, first_memcg(call),
			    call->start_ns);
	sc = calloc(1, sizeof(*sc));
	if (!c || !sc) {
		free(sc);
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	sc->write_seq = p->seq;
	sc->root_id = call->root_memcg_id;
	memcpy(sc->pos_id, c->pos_id, sizeof(sc->pos_id));
	sc->recorded_pos_id = c->recorded_pos_id;
	sc->recorded_pos_valid = c->recorded_pos_valid;
	HASH_ADD(hh, r->write_cursors, write_seq, sizeof(sc->write_seq), sc);
	return 0;
}

/* Before write @ep's own replay: its root's cursor as the write found it
 * (the saved copy is dropped; @in NULL: dropped only). */
static void restore_write_cursor(struct replay *r, const struct rr_episode *ep,
				 const struct rr_sim_input *in)
{
	struct saved_cursor *sc;
	struct rr_cursor *c;

	HASH_FIND(hh, r->write_cursors, &ep->seq, sizeof(ep->seq), sc);
	if (!sc)
		return;
	HASH_DEL(r->write_cursors, sc);
	if (in && sc->root_id == ep->root_memcg_id &&
	    (c = rr_cursor_start(&r->cursors, ep->root_memcg_id, in, first_memcg(ep),
				 ep->start_ns))) {
		memcpy(c->pos_id, sc->pos_id, sizeof(c->pos_id));
		c->recorded_pos_id = sc->recorded_pos_id;
		c->recorded_pos_valid = sc->recorded_pos_valid;
	}
	free(sc);
}

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
		uint64_t chunk = kernel_chunk(r, p->proactive_bytes >> r->page_shift,
					      p->recorded_nr_reclaimed, p->nr_calls);

		if (chunk != UINT64_MAX) {
			ep->nr_to_reclaim_pages = chunk;
			ep->nr_to_reclaim_basis = "memory.reclaim chunk";
		}
	}
	if (ep->mglru || rr_builder_stats(r->builder)->mglru_from_meta || r->o->outcome_exact)
		return 0;
	if (rr_episode_sim_input(ep, st, &r->km, r->page_shift, r->offline_delay_ns, &in, &serr))
		return fidelity(r, ep, st, NULL, NULL);
	swap_from_evidence(r, ep, &in);
	rr_sim_result_clear(&r->results[0]);
	if (!p->nr_calls && save_write_cursor(r, p, ep, &in)) {
		rr_episode_sim_input_free(&in);
		return -1;
	}
	if (!run_policies(r, ep, &in, r->results, 1) && !fidelity(r, ep, st, &in, &r->results[0]))
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
	return fidelity(r, ep, st, NULL, NULL);
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
		       "record, which writes the zones' watermarks";
	if (ep->kind == RR_KIND_NODE && ep->order < 0)
		return "node reclaim call without its order (mm_vmscan_node_reclaim_begin): "
		       "its nr_to_reclaim, max(1 << order, 32), is not known";
	return NULL;
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
	/* a try_to_free_mem_cgroup_pages() call: one observation of the time
	 * model (the calls of a write included) */
	if (ep->kind == RR_KIND_MEMCG && ep->has_nr_reclaimed && !ep->lost_events) {
		uint64_t scanned = 0;

		for (size_t i = 0; i < ep->nr_batches; i++)
			if (!rr_lru_is_active(ep->batches[i].lru))
				scanned += ep->batches[i].nr_taken;
		rr_cost_add(&r->totals.cost, scanned, ep->recorded_nr_reclaimed,
			    ep->end_ns - ep->start_ns);
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
		const char *why = proactive_prepare(r, ep);

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
	swap_from_evidence(r, ep, &in);
	if (ep->kind == RR_KIND_PROACTIVE)
		restore_write_cursor(r, ep, &in);
	if (r->o->outcome_exact)
		in.outcome = RR_OUTCOME_EXACT;
	if (!run_policies(r, ep, &in, res, r->np) &&
	    (ep->kind == RR_KIND_PROACTIVE || r->o->outcome_exact ||
	     !fidelity(r, ep, st, &in, &res[0])))
		ret = rr_replay_emit(r, ep, res, NULL);
	rr_episode_sim_input_free(&in);
	return ret;
}

static int on_episode(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct replay *r = ctx;
	int ret = episode(r, ep, st);

	/* a write's saved cursor goes with it, replayed or not */
	if (ep->kind == RR_KIND_PROACTIVE)
		restore_write_cursor(r, ep, NULL);
	return ret;
}

static int on_event(const struct rr_event *ev, void *ctx)
{
	struct replay *r = ctx;

	if (r->o->progress && !(++r->events & r->progress_mask))
		r->o->progress(r->o->cb_ctx, r->events, rr_trace_progress(r->trace));
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

/*
 * "5.6 SCAN_FRACT rounds down ...; 5.8 ..." for the rule changes after @lo
 * up to @hi into @buf, cut at a whole change ("and N more").
 */
static void rule_changes_text(int lo, int hi, char *buf, size_t len)
{
	const struct rr_rule_change *c;
	size_t n = rr_rule_changes(lo, hi, &c), used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		char rel[16], one[200];
		int w;

		rr_release_name(c[i].release, rel, sizeof(rel));
		w = snprintf(one, sizeof(one), "%s%s: %s", i ? "; " : "", rel, c[i].what);
		if (w < 0 || used + (size_t)w + 24 >= len) {
			snprintf(buf + used, len - used, "; and %zu more", n - i);
			return;
		}
		memcpy(buf + used, one, (size_t)w + 1);
		used += (size_t)w;
	}
}

/*
 * The kernel release to model, and where it came from: --kernel, the
 * trace's uname or recorder marker, else the newest release the trace's
 * print formats fit (text.c era_hints(); 4.0 to RR_NEWEST_MODELLED_RELEASE
 * when they do not bound it).  When the rules of the model change inside
 * that range (rr_rule_changes()), or the formats fit no single release,
 * only `report` without --fidelity goes on (it says the range); compare
 * and report --fidelity fail with r->needs_kernel set.
 */
static int pick_release(struct replay *r, const struct rr_trace_info *ti)
{
	const struct rr_replay_opts *o = r->o;
	char release[128], lo_s[16], hi_s[16], changes[360];
	int lo, hi;
	bool fit, ask;

	r->release_source = "option";
	if (o->kernel_release) {
		snprintf(release, sizeof(release), "%s", o->kernel_release);
	} else if (ti->uname[0] && !release_from_uname(ti->uname, release, sizeof(release))) {
		r->release_source = "trace";
	} else if (ti->kernel_release[0]) {
		snprintf(release, sizeof(release), "%s", ti->kernel_release);
		r->release_source = "trace";
	} else {
		lo = ti->era_lo > RR_RULES_OLDEST ? ti->era_lo : RR_RULES_OLDEST;
		hi = ti->era_hi && ti->era_hi < RR_RULES_NEWEST ? ti->era_hi : RR_RULES_NEWEST;
		fit = lo <= hi;
		rr_release_name(lo, lo_s, sizeof(lo_s));
		rr_release_name(hi, hi_s, sizeof(hi_s));
		changes[0] = 0;
		if (fit)
			rule_changes_text(lo, hi, changes, sizeof(changes));
		ask = !fit || changes[0];
		if (ask && !(o->release_may_be_assumed && !o->report_fidelity)) {
			r->needs_kernel = true;
			if (!fit)
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it, and its event formats fit no single "
					     "release (lines of several kernels?); give --kernel RELEASE");
			else if (ti->format == RR_FORMAT_TEXT)
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it; its event formats fit %s to %s, and the "
					     "model's rules differ inside that range (%s); give --kernel "
					     "RELEASE", lo_s, hi_s, changes);
			else
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it (no uname, no recorder marker), and the "
					     "model's rules differ between %s and %s (%s); give --kernel "
					     "RELEASE", lo_s, hi_s, changes);
			return -1;
		}
		snprintf(release, sizeof(release), "%s", fit ? hi_s : RR_NEWEST_MODELLED_RELEASE);
		r->release_source = "assumed";
		if (!fit)
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say, and its event formats fit "
				 "no single release; modelled as %.16s (give --kernel)", release);
		else if (changes[0])
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say; its event formats fit %s to "
				 "%s, inside which the model's rules change (%s); modelled as "
				 "%.16s (give --kernel)", lo_s, hi_s, changes, release);
		else
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say; its event formats fit %s to "
				 "%s, the same rules of the model throughout; modelled as %.16s",
				 lo_s, hi_s, release);
	}
	if (rr_kernel_model_init(&r->km, release)) {
		rr_error_set(r->err, o->trace_path,
			     "kernel release '%s' is not MAJOR.MINOR >= 4.0", release);
		return -1;
	}
	return 0;
}

/* What the replay had to assume, and the reader's and builder's counts. */
static void describe_input(struct replay *r, const struct rr_trace_info *ti,
			   struct rr_input_desc *in)
{
	const struct rr_builder_stats *bs = rr_builder_stats(r->builder);
	const struct rr_state *st = rr_builder_state(r->builder);

	memset(in, 0, sizeof(*in));
	in->file = r->o->trace_path;
	in->kernel_release = r->km.release;
	in->release_source = r->release_source;
	in->page_size_bytes = r->page_size_bytes;
	in->ti = ti;
	in->bs = bs;
	in->offline_delay_ns = r->offline_delay_ns;
	in->outcome_model = r->o->outcome_exact ? "exact" : "structural";
	in->drop_memcg_events = r->o->drop_memcg_events;
	in->rstat_flushes = st->nr_flushes;
	in->memcgs = st->nr_memcgs;
	in->reader_warnings = rr_trace_lib_warnings(&in->reader_first_warning);
/* (RR_MAX_ASSUMPTIONS holds every note at once: there are fewer ASSUME()s) */
#define ASSUME(text) ((void)(in->nr_assumptions < RR_MAX_ASSUMPTIONS && \
			     (in->assumptions[in->nr_assumptions++] = (text))))
	if (r->release_note[0])
		ASSUME(r->release_note);
	if (r->o->swap_present < 0 && bs->swap_from_meta < 0)
		ASSUME("swap presence inferred: present if memcg reclaim isolated inactive anon "
		       "pages earlier in the trace, else from the calls only swap or only no swap "
		       "explains, where those agree (fitted)");
	if (!bs->snapshot_memcgs) {
		if (st->memory_root != 0 || !st->default_swappiness_known)
			ASSUME("v1 per-memcg swappiness not in the trace: 60 (vm_swappiness "
			       "default) assumed, inherited at mkdir (report --fidelity fits it)");
		/* (without memcg: events the sizes are said with the inference) */
		if (!bs->attr_inferred)
			ASSUME("memcgs that predate the trace: LRU sizes are the smallest start "
			       "values that keep every running sum >= 0");
		if (bs->lru_isolate_bounds)
			ASSUME("memcgs that predate the trace: start sizes raised to nr_requested << "
			       "priority of their batches (offline ones: nr_requested where the "
			       "scrape is possible; no memory.low/min protection assumed)");
	}
	/* a global walk visits every memcg, also those the recorder could not
	 * read (another cgroup namespace: other containers' memcgs) */
	if (st->view_root_id) {
		snprintf(r->unread_note, sizeof(r->unread_note),
			 "the recorder's snapshots hold only the subtree of memcg id %llu (its "
			 "\"/\": a cgroup namespace, or a container's own cgroup mounted as the "
			 "hierarchy): %u memcgs the trace shows are outside it, another "
			 "container's or dying, which the trace cannot tell apart: online "
			 "unknown (taken as online by the replay, both tried by --fidelity), LRU "
			 "sizes lower bounds (the smallest start values that keep every running "
			 "sum >= 0, raised by their batches); the walk's visits without a batch "
			 "not judged",
			 (unsigned long long)st->view_root_id, rr_state_nr_outside_view(st));
		ASSUME(r->unread_note);
	} else if (bs->snapshot_memcgs && !bs->attr_inferred &&
		   (bs->episodes[RR_KIND_KSWAPD] || bs->episodes[RR_KIND_DIRECT] ||
		    bs->episodes[RR_KIND_NODE])) {
		unsigned int n = rr_state_nr_sizes_unread(st);

		if (n) {
			snprintf(r->unread_note, sizeof(r->unread_note),
				 "global reclaim: %u memcgs the snapshots did not read (outside "
				 "the recorder's view, or dying): their LRU sizes are lower bounds "
				 "(the smallest start values that keep every running sum >= 0, "
				 "raised to nr_requested << priority of their batches, offline "
				 "ones to nr_requested where the scrape is possible)", n);
			ASSUME(r->unread_note);
		}
	}
	if (bs->lru_sizes_raised) {
		snprintf(r->raised_note, sizeof(r->raised_note), "%llu batches asked for more than size >> priority of "
			 "the sizes the trace gives (it missed pages of those memcgs): the sizes "
			 "raised to nr_requested << priority, and those calls not judged",
			 (unsigned long long)bs->lru_sizes_raised);
		ASSUME(r->raised_note);
	}
	if (bs->lru_bounds_disproved) {
		snprintf(r->bounds_note, sizeof(r->bounds_note), "%llu calls were predicted on "
			 "a lower bound of a memcg's size that their own first batch raised "
			 "(the trace does not give that memcg's start sizes): not judged "
			 "(sizes_disproved)", (unsigned long long)bs->lru_bounds_disproved);
		ASSUME(r->bounds_note);
	}
	if (bs->attr_inferred) {
		uint64_t n = bs->attr[RR_ATTR_SINGLE] + bs->attr[RR_ATTR_WALK] +
			     bs->attr[RR_ATTR_AMBIGUOUS] + bs->attr[RR_ATTR_ASSUMED];

		bool had_events = bs->memcg_events_dropped > 0;

		snprintf(r->attr_note, sizeof(r->attr_note),
			 "no memcg: events (%s): the memcg of each of %llu batches inferred: "
			 "%llu the only memcg of the walk holding pages on the list, %llu by the "
			 "walk's order and the sizes, %llu ambiguous (the first fit taken, their "
			 "calls not judged), %llu a stand-in (the trace names no memcg); sizes "
			 "from %llu snapshot lines%s plus what the batches show (lower bounds; "
			 "docs/kernel-model.md section 24)",
			 had_events ? "dropped by --drop-memcg-events" :
			 "kernels before 6.13 have none, record --no-memcg-events leaves them off",
			 (unsigned long long)n,
			 (unsigned long long)bs->attr[RR_ATTR_SINGLE],
			 (unsigned long long)bs->attr[RR_ATTR_WALK],
			 (unsigned long long)bs->attr[RR_ATTR_AMBIGUOUS],
			 (unsigned long long)bs->attr[RR_ATTR_ASSUMED],
			 (unsigned long long)bs->attr_snapshot_sizes,
			 bs->attr_periodic_snapshots ? ", periodic ones among them" :
			 ", no periodic ones");
		ASSUME(r->attr_note);
		if (r->o->drop_memcg_events && !had_events) {
			ASSUME("--drop-memcg-events: the trace has no memcg: events; the inference "
			       "is not checked");
		} else if (r->o->drop_memcg_events) {
			snprintf(r->attr_check_note, sizeof(r->attr_check_note),
				 "attribution checked against the dropped memcg: events: %llu of "
				 "%llu batches agree, %llu wrong, %llu ambiguous (%llu of them "
				 "right)", (unsigned long long)bs->attr_agree,
				 (unsigned long long)bs->attr_checked,
				 (unsigned long long)bs->attr_wrong,
				 (unsigned long long)(bs->attr_checked - bs->attr_agree -
						      bs->attr_wrong),
				 (unsigned long long)bs->attr_ambiguous_agree);
			ASSUME(r->attr_check_note);
		}
	}
	ASSUME("anon/file reclaim costs of memcgs that predate the trace start at 0 (global "
	       "reclaim's root: judged under every cost it can have held, see --fidelity)");
	if (bs->episodes[RR_KIND_KSWAPD] || bs->episodes[RR_KIND_DIRECT])
		ASSUME("global reclaim: kswapd's nr_to_reclaim from the zone watermarks of the "
		       "recorder's snapshots (boosts between them not seen); a kswapd run ended "
		       "balanced once it reclaimed what the recorded run did (the balance "
		       "point is inferred), or ran to priority 1 where the recorded run did; a "
		       "costly-order direct call that stopped short above priority 0 stopped "
		       "on compaction_ready() (inferred)");
	ASSUME("nr_to_reclaim inferred per episode from where reclaim stopped "
	       "(docs/kernel-model.md section 8.2)");
	ASSUME("one NUMA node modelled");
	if (bs->snapshot_protected)
		ASSUME("memory.min/low: a child of the reclaim root is protected by its "
		       "snapshot's values, deeper memcgs are not (docs/kernel-model.md "
		       "section 22.2)");
	if (r->page_size_note[0])
		ASSUME(r->page_size_note);
	ASSUME("may_swap is true for every limit episode (a v1 memsw limit that clears it "
	       "is not in the trace)");
	if (ti->nr_missed_events)
		ASSUME("the ring buffer lost events: sizes after the loss are inexact");
	if (r->o->outcome_exact)
		ASSUME("--outcome exact: every replayed reclaim call reclaims exactly its "
		       "nr_to_reclaim (the seed e-mails' arithmetic), not what the loops give on "
		       "the recorded ratios; no fidelity check");
#undef ASSUME
}

/* One warning line about the input, printf-style. */
static void warnf(struct replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warnf(struct replay *r, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->o->warn(r->o->cb_ctx, r->o->trace_path, msg);
}

/* @n pages of a trace.dat refused for @why, the first at @first_ns */
static void refused_pages(struct replay *r, uint64_t n, uint64_t first_ns, const char *why)
{
	if (n)
		warnf(r, "%llu page%s of event data refused, %s (first: the page of %llu.%06llu s): "
		      "the records in %s are lost; the episodes around are flagged lost_events",
		      (unsigned long long)n, n == 1 ? "" : "s", why,
		      (unsigned long long)(first_ns / 1000000000),
		      (unsigned long long)(first_ns % 1000000000 / 1000), n == 1 ? "it" : "them");
}

/* Warnings about the input (events the reader could not give). */
static void warnings(struct replay *r, const struct rr_trace_info *ti,
		     const struct rr_input_desc *in)
{
	const struct rr_builder_stats *bs = in->bs;
	if (!r->o->warn)
		return;
	if (in->reader_warnings) {
		warnf(r, "the trace reader reported %u problem%s (first: %s); "
			 "events may be missing", in->reader_warnings,
			 in->reader_warnings == 1 ? "" : "s", in->reader_first_warning);
	}
	if (bs->shrink_without_isolate) {
		warnf(r, "%llu mm_vmscan_lru_shrink_* event%s without the "
			 "mm_vmscan_lru_isolate before %s: events are missing; the episodes around "
			 "them are flagged lost_events", (unsigned long long)bs->shrink_without_isolate,
			 bs->shrink_without_isolate == 1 ? "" : "s",
			 bs->shrink_without_isolate == 1 ? "it" : "them");
	}
	if (r->names && r->names->tree_conflicts) {
		warnf(r, "%llu cgroup path%s would make a memcg its own "
			 "ancestor (one id named at two levels): ignored; the cgroup tree may "
			 "be wrong", (unsigned long long)r->names->tree_conflicts,
			 r->names->tree_conflicts == 1 ? "" : "s");
	}
	if (r->names && r->names->long_paths)
		warnf(r, "%llu cgroup path%s longer than %d bytes (no kernel gives one): not "
		      "taken, the memcg%s known by id only", (unsigned long long)r->names->long_paths,
		      r->names->long_paths == 1 ? "" : "s", RR_MAX_CGROUP_PATH_BYTES,
		      r->names->long_paths == 1 ? " is" : "s are");
	if (bs->proactive_paths_unknown)
		warnf(r, "%llu memory.reclaim write marker%s name%s a cgroup the trace does not "
		      "know (first: %s): the reclaim root taken from the calls instead",
		      (unsigned long long)bs->proactive_paths_unknown,
		      bs->proactive_paths_unknown == 1 ? "" : "s",
		      bs->proactive_paths_unknown == 1 ? "s" : "", bs->first_unknown_path);
	if (bs->markers_malformed) {
		warnf(r, "%llu marker line%s refused: a value out of range "
			 "(first: %s); the episodes around them are flagged lost_events",
			 (unsigned long long)bs->markers_malformed,
			 bs->markers_malformed == 1 ? "" : "s", bs->first_malformed_marker);
	}
	if (ti->damaged_cpus) {
		warnf(r, "the event data of %d CPU%s %s damaged (first: %s): "
			 "events from %llu.%06llu s on are missing; the episodes in that window "
			 "are flagged lost_events", ti->damaged_cpus, ti->damaged_cpus == 1 ? "" : "s",
			 ti->damaged_cpus == 1 ? "is" : "are", ti->first_damage,
			 (unsigned long long)(ti->damage_from_ns / 1000000000),
			 (unsigned long long)(ti->damage_from_ns % 1000000000 / 1000));
	}
	if (ti->no_format_records) {
		warnf(r, "%llu record%s of an event id no format in the file "
			 "defines (first: %s): damaged data, or events recorded without their "
			 "format; skipped", (unsigned long long)ti->no_format_records,
			 ti->no_format_records == 1 ? "" : "s", ti->first_no_format);
	}
	refused_pages(r, ti->bad_pages, ti->first_bad_page_ns,
		      "a header claiming more data than a page holds");
	refused_pages(r, ti->odd_pages, ti->first_odd_page_ns,
		      "event headers that do not add up to the page's data");
	if (ti->backwards_records) {
		warnf(r, "%llu record%s of a CPU go%s back in time (first: %s): "
			 "damaged data; the episodes around them are flagged lost_events",
			 (unsigned long long)ti->backwards_records,
			 ti->backwards_records == 1 ? "" : "s", ti->backwards_records == 1 ? "es" : "",
			 ti->first_backwards);
	}
	if (ti->malformed_events) {
		warnf(r, "%llu event%s dropped: a field missing, unparseable or out of "
			 "range (report lists them by field); the episodes around them are "
			 "flagged lost_events (first: %s)",
			 (unsigned long long)ti->malformed_events,
			 ti->malformed_events == 1 ? "" : "s", ti->first_malformed);
	}
	if (ti->format != RR_FORMAT_TEXT)
		return;
	if (ti->text_backwards && !ti->timestamps_synthetic)
		warnf(r, "%llu event%s earlier than the line before (first: %s): lines out of "
		      "order or damaged; the episodes around them are flagged lost_events",
		      (unsigned long long)ti->text_backwards, ti->text_backwards == 1 ? " is" : "s are",
		      ti->text_first_backwards);
	if (ti->text_other_lines) {
		warnf(r, "%llu of %llu lines are no trace event, comment or "
			 "lost-events line; skipped (first: %s)",
			 (unsigned long long)ti->text_other_lines, (unsigned long long)ti->text_lines,
			 ti->text_first_other);
	}
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

	trace = rr_trace_open(r->o->trace_path, r->err);
	if (!trace)
		return -1;
	r->trace = trace;
	ti = rr_trace_info(trace);
	if (pick_release(r, ti))
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
	r->builder = rr_builder_new(&bopts, on_episode, r);
	if (!r->builder) {
		rr_error_set(r->err, "", "out of memory");
		goto out;
	}
	st = rr_builder_state(r->builder);
	r->names = st;
	st->cost_rotations_x32 = r->km.cost_rotations_x32;
	st->cost_zero_returns = r->km.cost_zero_returns;
	r->err->msg[0] = 0;
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
	describe_input(r, ti, &in);
	if (ti->damaged_cpus && !ti->damaged_cpus_read && !in.bs->events) {
		/* every CPU with data stopped before its first record */
		rr_error_set(r->err, r->o->trace_path, "corrupt trace data: no event can be "
			     "read (%s)", ti->first_damage);
		ret = -1;
		goto out;
	}
	warnings(r, ti, &in);
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
