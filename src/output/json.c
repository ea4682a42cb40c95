// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON diff through jansson.  Keys are inserted in a fixed order (jansson
 * keeps insertion order) and arrays follow episode order, so the same input
 * gives the same bytes.  Page counts are integers; units are in the key
 * name where a number could be pages or bytes.
 */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

struct rr_cgroup_totals {
	uint64_t memcg_id;		/* hash key */
	char *path;			/* NULL when the trace never named it */
	uint64_t episodes;
	struct rr_cgroup_policy_totals *p;	/* one per policy */
	UT_hash_handle hh;
};

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

int rr_out_init(struct rr_out *o, json_t *input,
		const struct rr_resolved_policy *policies, int nr_policies,
		uint64_t page_size_bytes, const struct rr_out_opts *opts)
{
	json_t *tool, *pols;

	memset(o, 0, sizeof(*o));
	if (opts)
		o->opts = *opts;
	if (o->opts.top > RR_OUT_TOP_MAX)
		o->opts.top = RR_OUT_TOP_MAX;
	o->baseline = 0;
	if (o->opts.baseline) {
		o->baseline = -1;
		for (int i = 0; i < nr_policies; i++)
			if (!strcmp(policies[i].name, o->opts.baseline))
				o->baseline = i;
		if (o->baseline < 0) {
			json_decref(input);
			return -2;
		}
	}
	o->policies = policies;
	o->nr_policies = nr_policies;
	o->page_size_bytes = page_size_bytes;
	o->recorded.lowest_priority = RR_DEF_PRIORITY;
	o->has_recording = true;
	o->totals = calloc((size_t)nr_policies, sizeof(*o->totals));
	o->root = json_object();
	o->episodes = json_array();
	tool = json_object();
	pols = json_array();
	if (!o->totals || !o->root || !o->episodes || !tool || !pols) {
		json_decref(input);
		json_decref(tool);
		json_decref(pols);
		return -1;
	}
	for (int i = 0; i < nr_policies; i++)
		o->totals[i].lowest_priority = RR_DEF_PRIORITY;
	json_object_set_new(o->root, "schema_version", json_integer(RR_JSON_SCHEMA_VERSION));
	json_object_set_new(tool, "name", json_string("reclaim-replay"));
	json_object_set_new(tool, "version", json_string(RR_VERSION));
	json_object_set_new(o->root, "tool", tool);
	json_object_set_new(o->root, "input", input);
	for (int i = 0; i < nr_policies; i++) {
		const struct rr_resolved_policy *p = &policies[i];
		const struct rr_policy *last = p->component[p->nr_components - 1];
		json_t *jp = json_object();

		json_object_set_new(jp, "name", json_string(p->name));
		json_object_set_new(jp, "summary", json_string(last->summary ? last->summary : ""));
		json_object_set_new(jp, "kernel_ref",
				    json_string(last->kernel_ref ? last->kernel_ref : ""));
		json_object_set_new(jp, "scan_fract_target_from", json_string(p->scan_fract_from));
		json_object_set_new(jp, "proactive_chunk_from", json_string(p->chunk_from));
		json_array_append_new(pols, jp);
	}
	json_object_set_new(o->root, "policies", pols);
	json_object_set_new(o->root, "baseline", json_string(policies[o->baseline].name));
	if (o->opts.jsonl) {
		/* the header line; episodes follow one per line, the summary last */
		json_t *head = json_object();

		json_object_set(head, "schema_version", json_object_get(o->root, "schema_version"));
		json_object_set(head, "tool", json_object_get(o->root, "tool"));
		json_object_set(head, "policies", json_object_get(o->root, "policies"));
		json_object_set(head, "baseline", json_object_get(o->root, "baseline"));
		json_dumpf(head, o->opts.jsonl, JSON_COMPACT);
		fputc('\n', o->opts.jsonl);
		json_decref(head);
	}
	json_object_set_new(o->root, "episodes", o->episodes);
	if (o->opts.html && rr_html_init(o))
		return -1;
	return 0;
}

static json_t *target_json(uint64_t memcg_id, const char *path, int priority,
			   int lru, uint64_t nr_pages)
{
	json_t *t = json_object();

	json_object_set_new(t, "cgroup", path ? json_string(path) : json_null());
	json_object_set_new(t, "cgroup_id", u64(memcg_id));
	json_object_set_new(t, "priority", json_integer(priority));
	json_object_set_new(t, "lru", json_string(rr_lru_name(lru)));
	json_object_set_new(t, "nr_pages", u64(nr_pages));
	return t;
}

static const char *memcg_path(uint64_t id, const struct rr_state *st)
{
	const struct rr_memcg *m = id ? rr_state_find(st, id) : NULL;

	return m ? m->path : NULL;
}

/*
 * The recorded requests, summed per (memcg, priority, lru) in the order
 * they first appear: the kernel's targets where the loop ran to its end
 * (§13.1; active anon is a lower bound).  Consecutive batches of one
 * (memcg, priority) form one shrink_lruvec() call, so a sum runs over the
 * batches until the memcg or priority changes.
 */
static size_t recorded_targets(const struct rr_episode *ep, struct rr_scan_target *out)
{
	size_t n = 0, call_start = 0;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_rec_batch *b = &ep->batches[i];
		size_t j;

		if (i && (b->memcg_id != ep->batches[i - 1].memcg_id ||
			  b->priority != ep->batches[i - 1].priority))
			call_start = n;
		for (j = call_start; j < n; j++)
			if (out[j].lru == b->lru)
				break;
		if (j == n)
			out[n++] = (struct rr_scan_target){
				.memcg_id = b->memcg_id, .priority = b->priority,
				.lru = b->lru, .nr_pages = 0,
			};
		out[j].nr_pages += b->nr_requested;
	}
	return n;
}

/* Do the inactive-list targets of @r equal the recorded sums? */
static bool matches_recording(const struct rr_sim_result *r,
			      const struct rr_scan_target *rec, size_t nr_rec)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < r->nr_targets && (r->targets[i].lru & 1))
			i++;
		while (j < nr_rec && (rec[j].lru & 1))
			j++;
		if (i == r->nr_targets || j == nr_rec)
			return i == r->nr_targets && j == nr_rec;
		if (r->targets[i].memcg_id != rec[j].memcg_id ||
		    r->targets[i].priority != rec[j].priority ||
		    r->targets[i].lru != rec[j].lru ||
		    r->targets[i].nr_pages != rec[j].nr_pages)
			return false;
		i++;
		j++;
	}
}

static json_t *recorded_json(const struct rr_episode *ep, const struct rr_state *st,
			     const struct rr_scan_target *rec, size_t nr_rec,
			     struct rr_recorded_totals *tot)
{
	json_t *r = json_object(), *targets = json_array();
	uint64_t scanned = 0, reclaimed = 0, req = 0;
	int lowest = RR_DEF_PRIORITY;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_rec_batch *b = &ep->batches[i];

		if (b->priority >= 0 && b->priority < lowest)
			lowest = b->priority;
		if (!(b->lru & 1))
			scanned += b->nr_taken;
		reclaimed += b->nr_reclaimed;
		req += b->nr_requested;
	}
	for (size_t i = 0; i < nr_rec; i++)
		json_array_append_new(targets, target_json(rec[i].memcg_id,
				      memcg_path(rec[i].memcg_id, st), rec[i].priority,
				      rec[i].lru, rec[i].nr_pages));
	if (!ep->nr_batches)
		lowest = RR_DEF_PRIORITY;
	json_object_set_new(r, "nr_scanned", u64(scanned));
	json_object_set_new(r, "nr_reclaimed", u64(ep->recorded_nr_reclaimed));
	json_object_set_new(r, "nr_reclaimed_by_batches", u64(reclaimed));
	json_object_set_new(r, "batches", u64(ep->nr_batches));
	json_object_set_new(r, "lowest_priority", json_integer(lowest));
	json_object_set_new(r, "scan_targets", targets);
	tot->nr_scanned += scanned;
	tot->nr_reclaimed += ep->recorded_nr_reclaimed;
	tot->batches += ep->nr_batches;
	tot->scan_request_pages += req;
	if (lowest < tot->lowest_priority)
		tot->lowest_priority = lowest;
	return r;
}

/*
 * How the request ended: "eagain" when memory.reclaim gave up (memory_reclaim()
 * returns -EAGAIN once MAX_RECLAIM_RETRIES calls in a row reclaimed nothing,
 * mm/memcontrol.c), "met" when nr_to_reclaim pages were reclaimed, "short"
 * when a reclaim pass ended below it (try_to_free_mem_cgroup_pages() returns
 * what it got; the caller retries or OOMs).
 */
static const char *outcome(const struct rr_episode *ep, const struct rr_sim_result *r)
{
	if (r->eagain)
		return "eagain";
	return r->nr_reclaimed_pages >= ep->nr_to_reclaim_pages ? "met" : "short";
}

static json_t *result_json(const struct rr_episode *ep, const struct rr_sim_result *r,
			   const struct rr_state *st)
{
	json_t *j = json_object(), *targets = json_array();

	for (size_t i = 0; i < r->nr_targets; i++) {
		const struct rr_scan_target *t = &r->targets[i];

		json_array_append_new(targets, target_json(t->memcg_id,
				      memcg_path(t->memcg_id, st), t->priority,
				      t->lru, t->nr_pages));
	}
	json_object_set_new(j, "nr_scanned", u64(r->nr_scanned_pages));
	json_object_set_new(j, "nr_reclaimed", u64(r->nr_reclaimed_pages));
	/* by type; all 0 with the scenario "exact" model, which has no lists */
	json_object_set_new(j, "nr_scanned_anon", u64(r->nr_scanned_type_pages[0]));
	json_object_set_new(j, "nr_scanned_file", u64(r->nr_scanned_type_pages[1]));
	json_object_set_new(j, "nr_reclaimed_anon", u64(r->nr_reclaimed_type_pages[0]));
	json_object_set_new(j, "nr_reclaimed_file", u64(r->nr_reclaimed_type_pages[1]));
	json_object_set_new(j, "calls", u64(r->calls));
	json_object_set_new(j, "shrink_lruvec_calls", u64(r->shrink_lruvec_calls));
	json_object_set_new(j, "batches", u64(r->batches));
	json_object_set_new(j, "lowest_priority", json_integer(r->lowest_priority));
	json_object_set_new(j, "retries", json_integer(r->retries));
	json_object_set_new(j, "outcome", json_string(outcome(ep, r)));
	{
		json_t *calls = json_array();

		json_t *floored = json_array(), *got = json_array();

		for (size_t i = 0; i < r->nr_chunks; i++) {
			uint64_t c = r->chunk_requests[i];

			json_array_append_new(calls, u64(c));
			json_array_append_new(got, u64(r->chunk_reclaimed[i]));
			json_array_append_new(floored, u64(c > RR_SWAP_CLUSTER_MAX ? c :
							     RR_SWAP_CLUSTER_MAX));
		}
		json_object_set_new(j, "call_requests_pages", calls);
		json_object_set_new(j, "call_nr_to_reclaim_pages", floored);
		json_object_set_new(j, "call_reclaimed_pages", got);
	}
	json_object_set_new(j, "scan_targets", targets);
	return j;
}

static bool same_result(const struct rr_sim_result *a, const struct rr_sim_result *b)
{
	if (a->nr_reclaimed_pages != b->nr_reclaimed_pages ||
	    a->nr_scanned_pages != b->nr_scanned_pages || a->calls != b->calls ||
	    a->nr_targets != b->nr_targets || a->eagain != b->eagain ||
	    a->nr_chunks != b->nr_chunks)
		return false;
	for (size_t i = 0; i < a->nr_chunks; i++)
		if (a->chunk_requests[i] != b->chunk_requests[i])
			return false;
	for (size_t i = 0; i < a->nr_targets; i++)
		if (memcmp(&a->targets[i], &b->targets[i], sizeof(a->targets[i])))
			return false;
	return true;
}

/* Is there a non-zero target for (memcg, priority, lru) in @r? */
static bool has_target(const struct rr_sim_result *r, const struct rr_scan_target *t)
{
	for (size_t i = 0; i < r->nr_targets; i++)
		if (r->targets[i].memcg_id == t->memcg_id && r->targets[i].priority == t->priority &&
		    r->targets[i].lru == t->lru)
			return true;
	return false;
}

/* Lists with a target in @a and none in @b: "eligible" in @a only. */
static json_t *eligible_only(const struct rr_sim_result *a, const struct rr_sim_result *b,
			     const struct rr_state *st)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < a->nr_targets; i++) {
		const struct rr_scan_target *t = &a->targets[i];
		json_t *e;

		if (has_target(b, t))
			continue;
		e = json_object();
		json_object_set_new(e, "cgroup", memcg_path(t->memcg_id, st) ?
				    json_string(memcg_path(t->memcg_id, st)) : json_null());
		json_object_set_new(e, "priority", json_integer(t->priority));
		json_object_set_new(e, "lru", json_string(rr_lru_name(t->lru)));
		json_array_append_new(arr, e);
	}
	return arr;
}

static uint64_t over_reclaim(const struct rr_episode *ep, const struct rr_sim_result *r)
{
	return r->nr_reclaimed_pages > ep->nr_to_reclaim_pages ?
	       r->nr_reclaimed_pages - ep->nr_to_reclaim_pages : 0;
}

/* The first memory.reclaim call whose chunk differs from the baseline's
 * (1-based), with both chunks in pages; null when none does. */
static json_t *chunk_change(const struct rr_sim_result *r, const struct rr_sim_result *base)
{
	size_t n = r->nr_chunks > base->nr_chunks ? r->nr_chunks : base->nr_chunks;

	for (size_t i = 0; i < n; i++) {
		uint64_t a = i < r->nr_chunks ? r->chunk_requests[i] : 0;
		uint64_t b = i < base->nr_chunks ? base->chunk_requests[i] : 0;
		json_t *j;

		if (a == b)
			continue;
		j = json_object();
		json_object_set_new(j, "call", u64(i + 1));
		json_object_set_new(j, "nr_pages", i < r->nr_chunks ? u64(a) : json_null());
		json_object_set_new(j, "baseline_nr_pages", i < base->nr_chunks ? u64(b) : json_null());
		return j;
	}
	return json_null();
}

/* What changed against the baseline, in pages and MiB. */
static json_t *changes_json(const struct rr_out *o, const struct rr_episode *ep,
			    const struct rr_sim_result *r, const struct rr_sim_result *base,
			    const struct rr_state *st)
{
	json_t *c = json_object();
	double mib = (double)o->page_size_bytes / 1048576.0;
	int64_t over = (int64_t)over_reclaim(ep, r) - (int64_t)over_reclaim(ep, base);

	json_object_set_new(c, "nr_scanned_delta", json_integer((json_int_t)(r->nr_scanned_pages - base->nr_scanned_pages)));
	json_object_set_new(c, "nr_reclaimed_delta",
			    json_integer((json_int_t)(r->nr_reclaimed_pages - base->nr_reclaimed_pages)));
	json_object_set_new(c, "nr_scanned_anon_delta",
			    json_integer((json_int_t)(r->nr_scanned_type_pages[0] - base->nr_scanned_type_pages[0])));
	json_object_set_new(c, "nr_scanned_file_delta",
			    json_integer((json_int_t)(r->nr_scanned_type_pages[1] - base->nr_scanned_type_pages[1])));
	json_object_set_new(c, "nr_reclaimed_anon_delta",
			    json_integer((json_int_t)(r->nr_reclaimed_type_pages[0] - base->nr_reclaimed_type_pages[0])));
	json_object_set_new(c, "nr_reclaimed_file_delta",
			    json_integer((json_int_t)(r->nr_reclaimed_type_pages[1] - base->nr_reclaimed_type_pages[1])));
	json_object_set_new(c, "over_reclaim_pages", u64(over_reclaim(ep, r)));
	json_object_set_new(c, "over_reclaim_delta_mib", json_real((double)over * mib));
	json_object_set_new(c, "calls_delta", json_integer((json_int_t)(r->calls - base->calls)));
	json_object_set_new(c, "lowest_priority_delta",
			    json_integer(r->lowest_priority - base->lowest_priority));
	json_object_set_new(c, "chunk_change", chunk_change(r, base));
	json_object_set_new(c, "outcome", json_string(outcome(ep, r)));
	json_object_set_new(c, "baseline_outcome", json_string(outcome(ep, base)));
	json_object_set_new(c, "eligible_gained", eligible_only(r, base, st));
	json_object_set_new(c, "eligible_lost", eligible_only(base, r, st));
	return c;
}

static void note_top(struct rr_out *o, const struct rr_episode *ep, const struct rr_state *st,
		     int p, const struct rr_sim_result *r, const struct rr_sim_result *base)
{
	struct rr_out_top t = {
		.episode = ep->seq, .start_ns = ep->start_ns, .policy = p,
		.delta_reclaimed = (int64_t)(r->nr_reclaimed_pages - base->nr_reclaimed_pages),
		.delta_scanned = (int64_t)(r->nr_scanned_pages - base->nr_scanned_pages),
		.delta_calls = (int64_t)(r->calls - base->calls),
	};
	int at;

	(void)st;
	t.weight = (uint64_t)llabs(t.delta_reclaimed) + (uint64_t)llabs(t.delta_scanned) +
		   (uint64_t)llabs(t.delta_calls);
	if (!o->opts.top || !t.weight)
		return;
	for (at = 0; at < o->nr_top && o->top[at].weight >= t.weight; at++)
		;
	if (at >= o->opts.top)
		return;
	t.cgroup = strdup(ep->root_path ? ep->root_path : "?");
	if (!t.cgroup)
		return;		/* the list is a courtesy; the JSON has it all */
	if (o->nr_top < o->opts.top)
		o->nr_top++;
	else
		free(o->top[o->nr_top - 1].cgroup);	/* pushed off the end */
	memmove(&o->top[at + 1], &o->top[at], (size_t)(o->nr_top - at - 1) * sizeof(t));
	o->top[at] = t;
}

/* The totals of @ep's reclaim root, made on first use; NULL on ENOMEM. */
static struct rr_cgroup_totals *cgroup_totals(struct rr_out *o, const struct rr_episode *ep)
{
	struct rr_cgroup_totals *cg;

	HASH_FIND(hh, o->cgroups, &ep->root_memcg_id, sizeof(ep->root_memcg_id), cg);
	if (cg) {
		if (!cg->path && ep->root_path)
			cg->path = strdup(ep->root_path);
		return cg;
	}
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	cg->p = calloc((size_t)o->nr_policies, sizeof(*cg->p));
	cg->path = ep->root_path ? strdup(ep->root_path) : NULL;
	if (!cg->p || (ep->root_path && !cg->path)) {
		free(cg->p);
		free(cg->path);
		free(cg);
		return NULL;
	}
	cg->memcg_id = ep->root_memcg_id;
	HASH_ADD(hh, o->cgroups, memcg_id, sizeof(cg->memcg_id), cg);
	return cg;
}

/* Paths in byte order, unnamed cgroups last by id: the same bytes every run. */
static int cgroup_cmp(struct rr_cgroup_totals *a, struct rr_cgroup_totals *b)
{
	if (a->path && b->path)
		return strcmp(a->path, b->path);
	if (a->path || b->path)
		return a->path ? -1 : 1;
	return a->memcg_id < b->memcg_id ? -1 : a->memcg_id > b->memcg_id;
}

static json_t *cgroups_json(struct rr_out *o)
{
	json_t *a = json_array();
	struct rr_cgroup_totals *cg, *tmp;

	HASH_SORT(o->cgroups, cgroup_cmp);
	HASH_ITER(hh, o->cgroups, cg, tmp) {
		json_t *j = json_object(), *pp = json_object();

		json_object_set_new(j, "cgroup", cg->path ? json_string(cg->path) : json_null());
		json_object_set_new(j, "cgroup_id", u64(cg->memcg_id));
		json_object_set_new(j, "episodes", u64(cg->episodes));
		for (int i = 0; i < o->nr_policies; i++) {
			json_t *t = json_object();

			json_object_set_new(t, "nr_scanned", u64(cg->p[i].nr_scanned));
			json_object_set_new(t, "nr_reclaimed", u64(cg->p[i].nr_reclaimed));
			json_object_set_new(t, "calls", u64(cg->p[i].calls));
			json_object_set_new(t, "over_reclaim_pages", u64(cg->p[i].over_reclaim));
			json_object_set_new(t, "episodes_differing_from_baseline",
					    u64(cg->p[i].episodes_differing));
			json_object_set_new(pp, o->policies[i].name, t);
		}
		json_object_set_new(j, "policies", pp);
		json_array_append_new(a, j);
	}
	return a;
}

int rr_out_episode(struct rr_out *o, const struct rr_episode *ep,
		   const struct rr_state *st, const struct rr_sim_result *results,
		   const char *skip_reason)
{
	json_t *e = json_object(), *res = json_object(), *differ = json_array();
	struct rr_scan_target *rec = calloc(ep->nr_batches + 1, sizeof(*rec));
	size_t nr_rec;

	if (rr_html_note(o, ep, st, results) || !e || !res || !differ || !rec) {
		json_decref(e);
		json_decref(res);
		json_decref(differ);
		free(rec);
		return -1;
	}
	nr_rec = ep->no_recording ? 0 : recorded_targets(ep, rec);
	o->nr_episodes++;
	json_object_set_new(e, "id", u64(ep->seq));
	json_object_set_new(e, "kind", json_string(rr_episode_kind_name(ep->kind)));
	json_object_set_new(e, "cgroup", ep->root_path ? json_string(ep->root_path) : json_null());
	json_object_set_new(e, "cgroup_id", u64(ep->root_memcg_id));
	json_object_set_new(e, "pid", json_integer(ep->pid));
	json_object_set_new(e, "start_ns", u64(ep->start_ns));
	json_object_set_new(e, "duration_ns", u64(ep->end_ns - ep->start_ns));
	json_object_set_new(e, "nr_to_reclaim", u64(ep->nr_to_reclaim_pages));
	json_object_set_new(e, "nr_to_reclaim_basis", json_string(ep->nr_to_reclaim_basis));
	/* a memcg of the walk was removed less than the assumed offline delay
	 * before: its online state, and so its rounding, is a guess (§12.3) */
	json_object_set_new(e, "online_state_uncertain", json_boolean(ep->in_offline_window));
	if (ep->no_recording)
		json_object_set_new(e, "recorded", json_null());
	else
		json_object_set_new(e, "recorded",
				    recorded_json(ep, st, rec, nr_rec, &o->recorded));
	if (results) {
		const struct rr_sim_result *base = &results[o->baseline];
		json_t *changes = json_object();
		struct rr_cgroup_totals *cg = cgroup_totals(o, ep);

		if (!cg) {
			json_decref(changes);
			json_decref(e);
			json_decref(res);
			json_decref(differ);
			free(rec);
			return -1;
		}
		cg->episodes++;
		o->nr_replayed++;
		for (int i = 0; i < o->nr_policies; i++) {
			struct rr_policy_totals *t = &o->totals[i];
			const struct rr_sim_result *r = &results[i];
			bool differs = i != o->baseline && !same_result(r, base);
			uint64_t over = over_reclaim(ep, r);

			json_object_set_new(res, o->policies[i].name, result_json(ep, r, st));
			t->eagain += r->eagain;
			cg->p[i].nr_scanned += r->nr_scanned_pages;
			cg->p[i].nr_reclaimed += r->nr_reclaimed_pages;
			cg->p[i].calls += r->calls;
			cg->p[i].over_reclaim += over;
			cg->p[i].episodes_differing += differs;
			t->nr_reclaimed_anon += r->nr_reclaimed_type_pages[0];
			t->over_reclaim += over;
			for (size_t k = 0; k < r->nr_targets; k++)
				t->eligible_p12 += r->targets[k].priority == RR_DEF_PRIORITY;
			t->nr_scanned += r->nr_scanned_pages;
			t->nr_reclaimed += r->nr_reclaimed_pages;
			t->calls += r->calls;
			t->shrink_lruvec_calls += r->shrink_lruvec_calls;
			t->batches += r->batches;
			for (size_t k = 0; k < r->nr_targets; k++)
				t->scan_target_pages += r->targets[k].nr_pages;
			if (r->lowest_priority < t->lowest_priority)
				t->lowest_priority = r->lowest_priority;
			if (!ep->no_recording && matches_recording(r, rec, nr_rec))
				t->episodes_matching_recording++;
			if (differs) {
				t->episodes_differing++;
				json_array_append_new(differ, json_string(o->policies[i].name));
				json_object_set_new(changes, o->policies[i].name,
						    changes_json(o, ep, r, base, st));
				note_top(o, ep, st, i, r, base);
			}
		}
		json_object_set_new(e, "results", res);
		json_object_set_new(e, "differs_from_baseline", differ);
		json_object_set_new(e, "changes", changes);
	} else {
		o->nr_skipped++;
		json_decref(res);
		json_decref(differ);
		json_object_set_new(e, "results", json_null());
		json_object_set_new(e, "skip_reason", json_string(skip_reason ? skip_reason : "unknown"));
	}
	free(rec);
	/* episodes where no policy differs are counted, not listed */
	if (!o->opts.all_episodes && results &&
	    !json_array_size(json_object_get(e, "differs_from_baseline"))) {
		json_decref(e);
		return 0;
	}
	o->nr_listed++;
	if (o->opts.jsonl) {
		json_t *line = json_object();

		json_object_set_new(line, "episode", e);
		json_dumpf(line, o->opts.jsonl, JSON_COMPACT);
		fputc('\n', o->opts.jsonl);
		json_decref(line);
		return 0;
	}
	return json_array_append_new(o->episodes, e);
}

json_t *rr_out_finish(struct rr_out *o)
{
	json_t *s = json_object(), *pp = json_object(), *rec = json_object();

	json_object_set_new(s, "episodes", u64(o->nr_episodes));
	json_object_set_new(s, "episodes_listed", u64(o->nr_listed));
	json_object_set_new(s, "episodes_replayed", u64(o->nr_replayed));
	json_object_set_new(s, "episodes_skipped", u64(o->nr_skipped));
	json_object_set_new(rec, "nr_scanned", u64(o->recorded.nr_scanned));
	json_object_set_new(rec, "nr_reclaimed", u64(o->recorded.nr_reclaimed));
	json_object_set_new(rec, "batches", u64(o->recorded.batches));
	json_object_set_new(rec, "nr_reclaimed_bytes", u64(o->recorded.nr_reclaimed * o->page_size_bytes));
	json_object_set_new(rec, "scan_target_pages", u64(o->recorded.scan_request_pages));
	json_object_set_new(rec, "lowest_priority", json_integer(o->recorded.lowest_priority));
	if (o->has_recording) {
		json_object_set_new(s, "recorded", rec);
	} else {
		json_decref(rec);
		json_object_set_new(s, "recorded", json_null());
	}
	for (int i = 0; i < o->nr_policies; i++) {
		const struct rr_policy_totals *t = &o->totals[i];
		json_t *j = json_object();

		json_object_set_new(j, "nr_scanned", u64(t->nr_scanned));
		json_object_set_new(j, "nr_reclaimed", u64(t->nr_reclaimed));
		json_object_set_new(j, "nr_reclaimed_bytes", u64(t->nr_reclaimed * o->page_size_bytes));
		json_object_set_new(j, "calls", u64(t->calls));
		json_object_set_new(j, "shrink_lruvec_calls", u64(t->shrink_lruvec_calls));
		json_object_set_new(j, "batches", u64(t->batches));
		json_object_set_new(j, "scan_target_pages", u64(t->scan_target_pages));
		json_object_set_new(j, "lowest_priority", json_integer(t->lowest_priority));
		json_object_set_new(j, "episodes_differing_from_baseline", u64(t->episodes_differing));
		json_object_set_new(j, "episodes_matching_recording", u64(t->episodes_matching_recording));
		json_object_set_new(j, "nr_reclaimed_anon", u64(t->nr_reclaimed_anon));
		json_object_set_new(j, "over_reclaim_pages", u64(t->over_reclaim));
		json_object_set_new(j, "eligible_at_priority_12", u64(t->eligible_p12));
		json_object_set_new(j, "eagain", u64(t->eagain));
		json_object_set_new(pp, o->policies[i].name, j);
	}
	json_object_set_new(s, "policies", pp);
	json_object_set_new(s, "cgroups", cgroups_json(o));
	json_object_set_new(o->root, "summary", s);
	json_object_set_new(o->root, "fidelity",
			    o->has_recording ? rr_fidelity_json(&o->fidelity) : json_null());
	if (o->opts.jsonl) {
		json_t *tail = json_object();

		json_object_set(tail, "input", json_object_get(o->root, "input"));
		json_object_set(tail, "summary", s);
		json_object_set(tail, "fidelity", json_object_get(o->root, "fidelity"));
		json_dumpf(tail, o->opts.jsonl, JSON_COMPACT);
		fputc('\n', o->opts.jsonl);
		fflush(o->opts.jsonl);
		json_decref(tail);
	}
	return o->root;
}

void rr_out_free(struct rr_out *o)
{
	struct rr_cgroup_totals *cg, *tmp;

	for (int i = 0; i < o->nr_top; i++)
		free(o->top[i].cgroup);
	HASH_ITER(hh, o->cgroups, cg, tmp) {
		HASH_DEL(o->cgroups, cg);
		free(cg->path);
		free(cg->p);
		free(cg);
	}
	rr_html_free(o);
	json_decref(o->root);
	free(o->totals);
	memset(o, 0, sizeof(*o));
}
