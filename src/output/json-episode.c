// SPDX-License-Identifier: GPL-2.0-only
/*
 * An episode's diff as JSON (man reclaim-replay-json.5, "episodes"),
 * written once against the writer of jw.h: a jansson tree for -o's
 * document, a yajl stream for --jsonl.  Keys come in a fixed order and
 * arrays in episode order, so the same input gives the same bytes.  Page
 * counts are integers; units are in the key name where a number could be
 * pages or bytes.
 */
#include "jw.h"
#include "output.h"

static const char *memcg_path(const struct rr_state *st, uint64_t id)
{
	const struct rr_memcg *m = id && st ? rr_state_find(st, id) : NULL;

	return m ? m->path : NULL;
}

static void targets_json(struct rr_jw *w, const struct rr_state *st,
			 const struct rr_scan_target *t, size_t n)
{
	rr_jw_array_begin(w, "scan_targets");
	for (size_t i = 0; i < n; i++) {
		rr_jw_object_begin(w, NULL);
		rr_jw_str(w, "cgroup", memcg_path(st, t[i].memcg_id));
		rr_jw_u64(w, "cgroup_id", t[i].memcg_id);
		rr_jw_i64(w, "priority", t[i].priority);
		rr_jw_str(w, "lru", rr_lru_name(t[i].lru));
		rr_jw_u64(w, "nr_pages", t[i].nr_pages);
		rr_jw_object_end(w);
	}
	rr_jw_array_end(w);
}

static void recorded_json(struct rr_jw *w, const struct rr_episode_diff *d)
{
	const struct rr_recorded_episode *r = &d->recorded;
	size_t n = d->ep->nr_calls < RR_JSON_CALLS_MAX ? d->ep->nr_calls : RR_JSON_CALLS_MAX;

	rr_jw_object_begin(w, "recorded");
	rr_jw_u64(w, "nr_scanned", r->nr_scanned);
	rr_jw_u64(w, "nr_reclaimed", r->nr_reclaimed);
	rr_jw_u64(w, "nr_reclaimed_by_batches", r->nr_reclaimed_by_batches);
	rr_jw_u64(w, "batches", r->batches);
	rr_jw_i64(w, "lowest_priority", r->lowest_priority);
	rr_jw_u64(w, "calls", r->calls);
	rr_jw_u64(w, "over_reclaim_pages", r->over_reclaim);
	rr_jw_u64(w, "duration_ns", r->duration_ns);
	rr_jw_u64(w, "in_calls_ns", r->in_calls_ns);
	rr_jw_str(w, "outcome", rr_outcome_name(r->outcome));
	if (d->ep->kind == RR_KIND_PROACTIVE) {
		const struct rr_reclaim_call *c = d->ep->calls;

		rr_jw_bool(w, "call_arrays_cut", d->ep->nr_calls > RR_JSON_CALLS_MAX);
		rr_jw_array_begin(w, "call_nr_to_reclaim_pages");
		for (size_t i = 0; i < n; i++)
			rr_jw_u64(w, NULL, c[i].nr_to_reclaim_pages);
		rr_jw_array_end(w);
		rr_jw_array_begin(w, "call_reclaimed_pages");
		for (size_t i = 0; i < n; i++)
			rr_jw_u64(w, NULL, c[i].nr_reclaimed_pages);
		rr_jw_array_end(w);
		rr_jw_array_begin(w, "call_duration_ns");
		for (size_t i = 0; i < n; i++)
			rr_jw_u64(w, NULL, c[i].end_ns - c[i].start_ns);
		rr_jw_array_end(w);
	}
	targets_json(w, d->names, r->targets, r->nr_targets);
	rr_jw_object_end(w);
}

static void result_json(struct rr_jw *w, const char *key, const struct rr_episode_diff *d, int p)
{
	const struct rr_sim_result *r = &d->results[p];
	size_t n = r->nr_chunks < RR_JSON_CALLS_MAX ? r->nr_chunks : RR_JSON_CALLS_MAX;

	rr_jw_object_begin(w, key);
	rr_jw_u64(w, "nr_scanned", r->nr_scanned_pages);
	rr_jw_u64(w, "nr_reclaimed", r->nr_reclaimed_pages);
	/* by type; all 0 with the scenario "exact" model, which has no lists */
	rr_jw_u64(w, "nr_scanned_anon", r->nr_scanned_type_pages[RR_LRU_ANON]);
	rr_jw_u64(w, "nr_scanned_file", r->nr_scanned_type_pages[RR_LRU_FILE]);
	rr_jw_u64(w, "nr_reclaimed_anon", r->nr_reclaimed_type_pages[RR_LRU_ANON]);
	rr_jw_u64(w, "nr_reclaimed_file", r->nr_reclaimed_type_pages[RR_LRU_FILE]);
	rr_jw_u64(w, "calls", r->calls);
	rr_jw_u64(w, "shrink_lruvec_calls", r->shrink_lruvec_calls);
	rr_jw_u64(w, "batches", r->batches);
	rr_jw_i64(w, "lowest_priority", r->lowest_priority);
	rr_jw_i64(w, "retries", r->retries);
	rr_jw_str(w, "outcome", rr_outcome_name(d->outcome[p]));
	/* a kswapd run: whether the node was balanced where this run stopped
	 * or went on is not in the trace (sim.h) */
	if (d->ep->kind == RR_KIND_KSWAPD)
		rr_jw_bool(w, "balance_undecidable", r->kswapd_balance_undecidable);
	/* the first RR_JSON_CALLS_MAX calls (a 1 TiB write in 32-page chunks
	 * is 8 M of them: no per-call arrays of that size in the JSON) */
	rr_jw_bool(w, "call_arrays_cut", r->nr_chunks > RR_JSON_CALLS_MAX);
	rr_jw_array_begin(w, "call_requests_pages");
	for (size_t i = 0; i < n; i++)
		rr_jw_u64(w, NULL, r->chunk_requests[i]);
	rr_jw_array_end(w);
	/* try_to_free_mem_cgroup_pages() floors each request */
	rr_jw_array_begin(w, "call_nr_to_reclaim_pages");
	for (size_t i = 0; i < n; i++)
		rr_jw_u64(w, NULL, r->chunk_requests[i] > RR_SWAP_CLUSTER_MAX ?
			  r->chunk_requests[i] : RR_SWAP_CLUSTER_MAX);
	rr_jw_array_end(w);
	rr_jw_array_begin(w, "call_reclaimed_pages");
	for (size_t i = 0; i < n; i++)
		rr_jw_u64(w, NULL, r->chunk_reclaimed[i]);
	rr_jw_array_end(w);
	targets_json(w, d->names, r->targets, r->nr_targets);
	rr_jw_object_end(w);
}

/* Lists with a target in one result and none in the other. */
static void eligible_json(struct rr_jw *w, const char *key, const struct rr_episode_diff *d,
			  const struct rr_sim_result *r, const size_t *idx, size_t n)
{
	rr_jw_array_begin(w, key);
	for (size_t i = 0; i < n; i++) {
		const struct rr_scan_target *t = &r->targets[idx[i]];

		rr_jw_object_begin(w, NULL);
		rr_jw_str(w, "cgroup", memcg_path(d->names, t->memcg_id));
		rr_jw_i64(w, "priority", t->priority);
		rr_jw_str(w, "lru", rr_lru_name(t->lru));
		rr_jw_object_end(w);
	}
	rr_jw_array_end(w);
}

static void chunk_json(struct rr_jw *w, const struct rr_change *c)
{
	if (!c->chunk_call) {
		rr_jw_null(w, "chunk_change");
		return;
	}
	rr_jw_object_begin(w, "chunk_change");
	rr_jw_u64(w, "call", c->chunk_call);
	if (c->chunk_has_policy)
		rr_jw_u64(w, "nr_pages", c->chunk_pages);
	else
		rr_jw_null(w, "nr_pages");
	if (c->chunk_has_baseline)
		rr_jw_u64(w, "baseline_nr_pages", c->chunk_baseline_pages);
	else
		rr_jw_null(w, "baseline_nr_pages");
	rr_jw_object_end(w);
}

/* What changed against the baseline, in pages and MiB. */
static void changes_json(struct rr_jw *w, const char *key, const struct rr_episode_diff *d, int p)
{
	const struct rr_change *c = &d->changes[p];
	double mib = (double)d->page_size_bytes / 1048576.0;

	rr_jw_object_begin(w, key);
	rr_jw_i64(w, "nr_scanned_delta", c->nr_scanned_delta);
	rr_jw_i64(w, "nr_reclaimed_delta", c->nr_reclaimed_delta);
	rr_jw_i64(w, "nr_scanned_anon_delta", c->nr_scanned_type_delta[RR_LRU_ANON]);
	rr_jw_i64(w, "nr_scanned_file_delta", c->nr_scanned_type_delta[RR_LRU_FILE]);
	rr_jw_i64(w, "nr_reclaimed_anon_delta", c->nr_reclaimed_type_delta[RR_LRU_ANON]);
	rr_jw_i64(w, "nr_reclaimed_file_delta", c->nr_reclaimed_type_delta[RR_LRU_FILE]);
	rr_jw_u64(w, "over_reclaim_pages", d->over_reclaim[p]);
	rr_jw_real(w, "over_reclaim_delta_mib", (double)c->over_reclaim_delta_pages * mib);
	rr_jw_i64(w, "calls_delta", c->calls_delta);
	rr_jw_i64(w, "lowest_priority_delta", c->lowest_priority_delta);
	chunk_json(w, c);
	rr_jw_str(w, "outcome", rr_outcome_name(d->outcome[p]));
	rr_jw_str(w, "baseline_outcome", rr_outcome_name(d->outcome[d->baseline]));
	eligible_json(w, "eligible_gained", d, &d->results[p], c->gained, c->nr_gained);
	eligible_json(w, "eligible_lost", d, &d->results[d->baseline], c->lost, c->nr_lost);
	rr_jw_object_end(w);
}

static void proactive_json(struct rr_jw *w, const struct rr_episode *ep)
{
	rr_jw_u64(w, "request_bytes", ep->proactive_bytes);
	if (ep->proactive_swappiness == RR_SWAPPINESS_ANON_ONLY)
		rr_jw_str(w, "swappiness", "max");
	else if (ep->proactive_swappiness >= 0)
		rr_jw_i64(w, "swappiness", ep->proactive_swappiness);
	else
		rr_jw_null(w, "swappiness");
	if (ep->proactive_errno >= 0)
		rr_jw_i64(w, "errno", ep->proactive_errno);
	else
		rr_jw_null(w, "errno");
	if (!ep->proactive_inferred) {
		rr_jw_null(w, "inferred");
		return;
	}
	/* no markers: the write and its request are inferred
	 * (src/episode/proactive.c); request_bytes is the roundest admissible
	 * request, replayed */
	rr_jw_object_begin(w, "inferred");
	rr_jw_str(w, "evidence", ep->proactive_inferred);
	rr_jw_u64(w, "request_low_pages", ep->request_low_pages);
	rr_jw_u64(w, "request_high_pages", ep->request_high_pages);
	rr_jw_object_end(w);
}

void rr_jw_episode(struct rr_jw *w, const char *key, const struct rr_episode_diff *d,
		   const struct rr_resolved_policy *policies)
{
	const struct rr_episode *ep = d->ep;

	rr_jw_object_begin(w, key);
	rr_jw_u64(w, "id", d->id);
	rr_jw_str(w, "kind", rr_reclaim_kind_name(ep->kind));
	rr_jw_str(w, "cgroup", ep->root_path);
	rr_jw_u64(w, "cgroup_id", ep->root_memcg_id);
	rr_jw_i64(w, "pid", ep->pid);
	rr_jw_u64(w, "start_ns", ep->start_ns);
	rr_jw_u64(w, "duration_ns", ep->end_ns - ep->start_ns);
	rr_jw_u64(w, "nr_to_reclaim", ep->nr_to_reclaim_pages);
	rr_jw_str(w, "nr_to_reclaim_basis", ep->nr_to_reclaim_basis);
	/* a memcg of the walk was removed less than the assumed offline delay
	 * before: its online state, and so its rounding, is a guess */
	rr_jw_bool(w, "online_state_uncertain", ep->in_offline_window);
	if (ep->kind == RR_KIND_PROACTIVE)
		proactive_json(w, ep);
	if (d->has_recording)
		recorded_json(w, d);
	else
		rr_jw_null(w, "recorded");
	if (d->results) {
		rr_jw_object_begin(w, "results");
		for (int i = 0; i < d->nr_policies; i++)
			result_json(w, policies[i].name, d, i);
		rr_jw_object_end(w);
		rr_jw_array_begin(w, "differs_from_baseline");
		for (int i = 0; i < d->nr_policies; i++)
			if (d->differs[i])
				rr_jw_str(w, NULL, policies[i].name);
		rr_jw_array_end(w);
		rr_jw_object_begin(w, "changes");
		for (int i = 0; i < d->nr_policies; i++)
			if (d->differs[i])
				changes_json(w, policies[i].name, d, i);
		rr_jw_object_end(w);
	} else {
		rr_jw_null(w, "results");
		rr_jw_str(w, "skip_reason", d->skip_reason);
	}
	rr_jw_object_end(w);
}

json_t *rr_json_episode(const struct rr_episode_diff *d,
			const struct rr_resolved_policy *policies)
{
	struct rr_jw *w = rr_jw_tree_new();

	if (!w)
		return NULL;
	rr_jw_episode(w, NULL, d, policies);
	return rr_jw_tree_finish(w);
}
