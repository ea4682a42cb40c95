// SPDX-License-Identifier: GPL-2.0-only
/*
 * `report`: aggregates the builder's requests (every reclaim request of the
 * trace, whatever its kind) per kind, per cgroup and per priority.
 *
 * Pages scanned are the isolate events' nr_scanned on the inactive lists
 * (what the kernel's pgscan counters count); the active lists' nr_scanned
 * is reported apart (pgrefill).  Pages reclaimed are the
 * mm_vmscan_lru_shrink_inactive nr_reclaimed of the same batches.
 */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#define NPRIO 13		/* DEF_PRIORITY 12 .. 0 */
#define PRIO_UNKNOWN NPRIO

struct cell {
	uint64_t batches, scanned, reclaimed, active_scanned;
};

struct cg {
	uint64_t id;			/* 0: batches not attributed */
	char *path;
	bool known, online, released;
	bool dying;		/* not in the whole-tree snapshot: dying, inferred */
	bool outside;		/* outside the recorder's view: online unknown */
	const char *lru_source;		/* "exact", "deltas", "isolate+deltas",
					 * "isolate", "snapshot+batches", "batches" */
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];
	uint64_t isolate_bound[RR_NR_EVICTABLE_LRU];	/* max nr_requested << priority */
	int swappiness;			/* -1 unknown */
	int64_t limit_bytes;		/* -1 unknown / none */
	int64_t min_bytes, low_bytes;	/* RR_MARKER_BYTES_MAX / _UNKNOWN, or bytes */
	bool snapshotted;
	uint64_t batches, scanned[2], reclaimed[2], active_scanned[2], pageouts;
	struct cell prio[NPRIO + 1];
	UT_hash_handle hh;
};

struct kind_stats {
	uint64_t count, complete, no_begin, no_end, end_inferred, lost, mglru, nested;
	uint64_t batches, scanned, reclaimed, active_scanned, recorded_nr_reclaimed;
	uint64_t *durations_ns;		/* of complete requests */
	size_t nr_durations, cap_durations;
};

struct rr_report {
	struct kind_stats kinds[RR_KIND__COUNT];
	struct cg *cgroups;
	struct cell prio[NPRIO + 1];
	json_t *episodes;
	uint64_t batches, batches_unattributed, mglru_requests;
	uint64_t negative_sizes;	/* cgroups made in the trace whose lists went below 0 */
	bool keep_episodes;		/* build the per-episode JSON */
	bool oom;
};

struct rr_report *rr_report_new(bool keep_episodes)
{
	struct rr_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->keep_episodes = keep_episodes;
	r->episodes = json_array();
	if (!r->episodes) {
		free(r);
		return NULL;
	}
	return r;
}

void rr_report_free(struct rr_report *r)
{
	struct cg *c, *tmp;

	if (!r)
		return;
	HASH_ITER(hh, r->cgroups, c, tmp) {
		HASH_DEL(r->cgroups, c);
		free(c->path);
		free(c);
	}
	for (int k = 0; k < RR_KIND__COUNT; k++)
		free(r->kinds[k].durations_ns);
	json_decref(r->episodes);
	free(r);
}

static struct cg *cg_get(struct rr_report *r, uint64_t id)
{
	struct cg *c;

	HASH_FIND(hh, r->cgroups, &id, sizeof(id), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->id = id;
	c->swappiness = -1;
	HASH_ADD(hh, r->cgroups, id, sizeof(c->id), c);
	return c;
}

static void cell_add(struct cell *c, const struct rr_batch *b)
{
	c->batches++;
	if (rr_lru_is_active(b->lru)) {
		c->active_scanned += b->nr_scanned;
	} else {
		c->scanned += b->nr_scanned;
		c->reclaimed += b->nr_reclaimed;
	}
}

/* The request's cells: (cgroup, priority, lru) in order of first batch. */
static json_t *episode_cells(const struct rr_episode *rq)
{
	json_t *arr = json_array();
	struct {
		uint64_t id;
		int prio, lru;
		struct cell c;
	} *cells = calloc(rq->nr_batches ? rq->nr_batches : 1, sizeof(*cells));
	size_t n = 0;

	if (!arr || !cells) {
		json_decref(arr);
		free(cells);
		return NULL;
	}
	for (size_t i = 0; i < rq->nr_batches; i++) {
		const struct rr_batch *b = &rq->batches[i];
		size_t j;

		for (j = 0; j < n; j++)
			if (cells[j].id == b->memcg_id && cells[j].prio == b->priority &&
			    cells[j].lru == b->lru)
				break;
		if (j == n) {
			cells[n].id = b->memcg_id;
			cells[n].prio = b->priority;
			cells[n].lru = b->lru;
			n++;
		}
		cell_add(&cells[j].c, b);
	}
	for (size_t j = 0; j < n; j++) {
		json_t *o = json_object();

		json_object_set_new(o, "cgroup_id", cells[j].id ? rr_json_u64(cells[j].id) : json_null());
		json_object_set_new(o, "priority", cells[j].prio >= 0 ?
				    json_integer(cells[j].prio) : json_null());
		json_object_set_new(o, "lru", json_string(rr_lru_name(cells[j].lru)));
		json_object_set_new(o, "batches", rr_json_u64(cells[j].c.batches));
		json_object_set_new(o, "scanned_pages", rr_json_u64(rr_lru_is_active(cells[j].lru) ?
				    cells[j].c.active_scanned : cells[j].c.scanned));
		json_object_set_new(o, "reclaimed_pages", rr_json_u64(cells[j].c.reclaimed));
		json_array_append_new(arr, o);
	}
	free(cells);
	return arr;
}

/* A snapshot gave the memcg its swappiness, or gave it to the ancestor it
 * inherited it from at mkdir (cgroup v1 copies the parent's value). */
static bool swappiness_known(const struct rr_memcg *m)
{
	for (; m; m = m->parent) {
		if (m->snapshotted)
			return true;
		if (!m->created_ns)
			return false;
	}
	return false;
}

static void final_state(struct rr_report *r, const struct rr_state *st)
{
	struct cg *c, *tmp;

	HASH_ITER(hh, r->cgroups, c, tmp) {
		const struct rr_memcg *m = c->id ? rr_state_find(st, c->id) : NULL;
		bool deltas = false;

		if (!m) {
			c->lru_source = "isolate";
			continue;
		}
		c->known = true;
		c->online = m->v.online;
		c->dying = m->dying_inferred;
		c->outside = m->online_unknown;
		c->released = m->release_ns != 0;
		c->swappiness = swappiness_known(m) ? m->v.swappiness : -1;
		c->snapshotted = m->snapshotted;
		c->limit_bytes = m->limit_bytes;
		c->min_bytes = m->min_bytes;
		c->low_bytes = m->low_bytes;
		free(c->path);
		c->path = strdup(m->path ? m->path : "");
		if (!c->path)
			r->oom = true;
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			c->lru_pages[l] = rr_memcg_lru_pages(m, l);
			if (m->v.lru_sum[l] || m->v.lru_low[l])
				deltas = true;
		}
		c->lru_source = m->v.baseline_known ? "exact" : m->lru_from_isolate ? "isolate+deltas" :
				deltas ? "deltas" : "isolate";
		/* no memcg: events: the last snapshot's sizes less what the
		 * batches took, or only what they prove (attribute.c) */
		if (st->sizes_without_deltas) {
			c->lru_source = m->sizes_snap_ns ? "snapshot+batches" : "batches";
			continue;
		}
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			if (m->v.baseline_known && m->v.lru_low[l] < 0) {
				/* created in the trace, yet a list went below 0
				 * pages: deltas are missing (lost or filtered) */
				c->lru_source = "deltas";
				r->negative_sizes++;
				break;
			}
	}
}

int rr_report_finish(struct rr_report *r, const struct rr_state *st)
{
	final_state(r, st);
	return r->oom ? -1 : 0;
}

int rr_report_episode(struct rr_report *r, const struct rr_episode *rq)
{
	struct kind_stats *k;
	json_t *ep, *flags, *cells;
	uint64_t scanned = 0, reclaimed = 0, active = 0;
	int lowest = -1;
	bool copies;

	k = &r->kinds[rq->kind];
	k->count++;
	k->no_begin += rq->no_begin;
	k->no_end += rq->no_end;
	k->end_inferred += rq->end_inferred;
	k->lost += rq->lost_events;
	k->mglru += rq->mglru;
	k->nested += rq->depth > 0;
	r->mglru_requests += rq->mglru;
	if (rq->has_nr_reclaimed)
		k->recorded_nr_reclaimed += rq->recorded_nr_reclaimed;
	if (!rq->no_begin && !rq->no_end && !rq->end_inferred && !rq->lost_events)
		k->complete++;
	/* latency needs the begin and the end only */
	if (!rq->no_begin && !rq->no_end && !rq->end_inferred) {
		if (k->nr_durations == k->cap_durations) {
			size_t cap = k->cap_durations ? k->cap_durations * 2 : 64;
			uint64_t *d = realloc(k->durations_ns, cap * sizeof(*d));

			if (!d)
				return -1;
			k->durations_ns = d;
			k->cap_durations = cap;
		}
		k->durations_ns[k->nr_durations++] = rq->end_ns - rq->start_ns;
	}
	/* a memory.reclaim write holds copies of its calls' batches
	 * (requests.c add_call()): they count for the write and its kind,
	 * not again for the cgroups and the trace */
	copies = rq->kind == RR_KIND_PROACTIVE && rq->nr_calls;
	for (size_t i = 0; i < rq->nr_batches; i++) {
		const struct rr_batch *b = &rq->batches[i];
		int p = b->priority >= 0 && b->priority < NPRIO ? b->priority : PRIO_UNKNOWN;
		int type = rr_lru_type(b->lru);
		struct cg *c = copies ? NULL : cg_get(r, b->memcg_id);

		if (!copies && !c)
			return -1;
		if (rr_lru_is_active(b->lru)) {
			active += b->nr_scanned;
		} else {
			scanned += b->nr_scanned;
			reclaimed += b->nr_reclaimed;
		}
		if (b->priority >= 0 && (lowest < 0 || b->priority < lowest))
			lowest = b->priority;
		if (copies)
			continue;
		r->batches++;
		r->batches_unattributed += !b->memcg_id;
		c->batches++;
		c->pageouts += b->nr_pageout;
		if (rr_lru_is_active(b->lru)) {
			c->active_scanned[type] += b->nr_scanned;
		} else {
			c->scanned[type] += b->nr_scanned;
			c->reclaimed[type] += b->nr_reclaimed;
		}
		cell_add(&c->prio[p], b);
		cell_add(&r->prio[p], b);
		if (p != PRIO_UNKNOWN && rr_lru_is_evictable(b->lru) && !rq->mglru) {
			/* nr_requested <= target <= size >> priority (§14.1) */
			uint64_t bound = b->nr_requested << p;

			if (bound > c->isolate_bound[b->lru])
				c->isolate_bound[b->lru] = bound;
		}
	}
	k->batches += rq->nr_batches;
	k->scanned += scanned;
	k->reclaimed += reclaimed;
	k->active_scanned += active;

	if (!r->keep_episodes)
		return 0;
	ep = json_object();
	flags = json_array();
	cells = episode_cells(rq);
	if (!ep || !flags || !cells) {
		json_decref(ep);
		json_decref(flags);
		json_decref(cells);
		return -1;
	}
	if (rq->no_begin)
		json_array_append_new(flags, json_string("no_begin"));
	if (rq->no_end)
		json_array_append_new(flags, json_string("no_end"));
	if (rq->end_inferred)
		json_array_append_new(flags, json_string("end_inferred"));
	if (rq->lost_events)
		json_array_append_new(flags, json_string("lost_events"));
	if (rq->mglru)
		json_array_append_new(flags, json_string("mglru"));
	json_object_set_new(ep, "seq", rr_json_u64(rq->seq));
	json_object_set_new(ep, "kind", json_string(rr_reclaim_kind_name(rq->kind)));
	json_object_set_new(ep, "pid", json_integer(rq->pid));
	json_object_set_new(ep, "parent_seq", rq->parent_seq ? rr_json_u64(rq->parent_seq) : json_null());
	json_object_set_new(ep, "depth", json_integer(rq->depth));
	json_object_set_new(ep, "start_ns", rr_json_u64(rq->start_ns));
	json_object_set_new(ep, "end_ns", rr_json_u64(rq->end_ns));
	json_object_set_new(ep, "complete", json_boolean(!rq->no_begin && !rq->no_end &&
							  !rq->end_inferred && !rq->lost_events));
	json_object_set_new(ep, "flags", flags);
	json_object_set_new(ep, "nr_reclaimed", rq->has_nr_reclaimed ?
			    rr_json_u64(rq->recorded_nr_reclaimed) : json_null());
	if (rq->kind == RR_KIND_PROACTIVE)
		json_object_set_new(ep, "proactive_bytes", rr_json_u64(rq->proactive_bytes));
	json_object_set_new(ep, "batches", rr_json_u64(rq->nr_batches));
	json_object_set_new(ep, "scanned_pages", rr_json_u64(scanned));
	json_object_set_new(ep, "reclaimed_pages", rr_json_u64(reclaimed));
	json_object_set_new(ep, "active_scanned_pages", rr_json_u64(active));
	json_object_set_new(ep, "lowest_priority", lowest >= 0 ? json_integer(lowest) : json_null());
	json_object_set_new(ep, "cells", cells);
	if (json_array_append_new(r->episodes, ep))
		return -1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted @v, in microseconds. */
static double pct_us(const uint64_t *v, size_t n, unsigned int p)
{
	size_t rank = (p * n + 99) / 100;

	if (!n)
		return 0;
	if (rank < 1)
		rank = 1;
	return (double)v[rank - 1] / 1000.0;
}

static double efficiency(uint64_t reclaimed, uint64_t scanned)
{
	return scanned ? (double)reclaimed / (double)scanned : 0;
}

static json_t *latency_json(struct kind_stats *k, bool synthetic)
{
	json_t *o;

	if (synthetic || !k->nr_durations)
		return json_null();
	qsort(k->durations_ns, k->nr_durations, sizeof(uint64_t), cmp_u64);
	o = json_object();
	json_object_set_new(o, "n", rr_json_u64(k->nr_durations));
	json_object_set_new(o, "p50", json_real(pct_us(k->durations_ns, k->nr_durations, 50)));
	json_object_set_new(o, "p90", json_real(pct_us(k->durations_ns, k->nr_durations, 90)));
	json_object_set_new(o, "p99", json_real(pct_us(k->durations_ns, k->nr_durations, 99)));
	json_object_set_new(o, "max", json_real(pct_us(k->durations_ns, k->nr_durations, 100)));
	return o;
}

static json_t *cell_json(const struct cell *c, int prio)
{
	json_t *o = json_object();

	json_object_set_new(o, "priority", prio < NPRIO ? json_integer(prio) : json_null());
	json_object_set_new(o, "batches", rr_json_u64(c->batches));
	json_object_set_new(o, "scanned_pages", rr_json_u64(c->scanned));
	json_object_set_new(o, "reclaimed_pages", rr_json_u64(c->reclaimed));
	json_object_set_new(o, "active_scanned_pages", rr_json_u64(c->active_scanned));
	json_object_set_new(o, "efficiency", json_real(efficiency(c->reclaimed, c->scanned)));
	return o;
}

static json_t *prio_json(const struct cell *cells)
{
	json_t *arr = json_array();

	for (int p = NPRIO - 1; p >= 0; p--)
		if (cells[p].batches)
			json_array_append_new(arr, cell_json(&cells[p], p));
	if (cells[PRIO_UNKNOWN].batches)
		json_array_append_new(arr, cell_json(&cells[PRIO_UNKNOWN], PRIO_UNKNOWN));
	return arr;
}

static int cmp_cg(const void *a, const void *b)
{
	const struct cg *x = *(const struct cg *const *)a, *y = *(const struct cg *const *)b;

	/* unattributed last, then by id (creation order) */
	if (!x->id != !y->id)
		return !x->id ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static struct cg **sorted_cgroups(const struct rr_report *r, size_t *n)
{
	struct cg **v = calloc(HASH_COUNT(r->cgroups) + 1, sizeof(*v));
	struct cg *c, *tmp;

	*n = 0;
	if (!v)
		return NULL;
	HASH_ITER(hh, r->cgroups, c, tmp)
		v[(*n)++] = c;
	qsort(v, *n, sizeof(*v), cmp_cg);
	return v;
}

static bool cg_inferred(const struct cg *c)
{
	return strcmp(c->lru_source ? c->lru_source : "isolate", "exact") != 0;
}

static const uint64_t *cg_lru(const struct cg *c)
{
	return !c->lru_source || !strcmp(c->lru_source, "isolate") ? c->isolate_bound :
	       c->lru_pages;
}

static json_t *inferred_json(const struct rr_report *r, const struct rr_trace_info *ti,
			     const json_t *assumed)
{
	json_t *arr = json_array();
	size_t nc = 0, ni = 0, nd = 0, nd2 = 0, ns = 0, nb = 0;
	struct cg *c, *tmp;
	char buf[256];

	for (size_t i = 0; assumed && i < json_array_size(assumed); i++)
		json_array_append(arr, json_array_get(assumed, i));
	if (ti->timestamps_synthetic)
		json_array_append_new(arr, json_string("timestamps: bare event lines carry none; "
						       "event order kept, latencies not reported"));
	HASH_ITER(hh, r->cgroups, c, tmp) {
		if (!c->id)
			continue;
		nc++;
		if (c->lru_source && strstr(c->lru_source, "deltas"))
			nd++;
		else if (!c->lru_source || !strcmp(c->lru_source, "isolate"))
			ni++;
		else if (!strcmp(c->lru_source, "snapshot+batches"))
			ns++;
		else if (!strcmp(c->lru_source, "batches"))
			nb++;
	}
	if (ns) {
		snprintf(buf, sizeof(buf), "LRU sizes of %zu of %zu cgroups: no memcg: events; "
			 "the last snapshot's sizes less what the batches since took, raised to "
			 "nr_requested << priority of the batches (lower bounds)", ns, nc);
		json_array_append_new(arr, json_string(buf));
	}
	if (nb) {
		snprintf(buf, sizeof(buf), "LRU sizes of %zu of %zu cgroups: no memcg: events and "
			 "no snapshot; lower bounds nr_requested << priority from the batches", nb, nc);
		json_array_append_new(arr, json_string(buf));
	}
	if (nd) {
		snprintf(buf, sizeof(buf), "LRU sizes of %zu of %zu cgroups: no snapshot; the "
			 "smallest start sizes consistent with the mod_memcg_lruvec_state deltas "
			 "and, for isolate+deltas, with nr_requested << priority of the batches "
			 "(lower bounds)", nd, nc);
		json_array_append_new(arr, json_string(buf));
	}
	if (ni) {
		snprintf(buf, sizeof(buf), "LRU sizes of %zu of %zu cgroups: no snapshot and no "
			 "memcg: events; lower bounds nr_requested << priority from the isolate "
			 "events", ni, nc);
		json_array_append_new(arr, json_string(buf));
	}
	HASH_ITER(hh, r->cgroups, c, tmp)
		nd2 += c->id && c->dying;
	if (nd2) {
		snprintf(buf, sizeof(buf), "%zu cgroups the trace shows are in no snapshot of the "
			 "whole hierarchy and were not made in the trace: taken as dying (removed, "
			 "offline, still holding pages), inferred", nd2);
		json_array_append_new(arr, json_string(buf));
	}
	if (r->negative_sizes) {
		snprintf(buf, sizeof(buf), "%llu cgroups created in the trace had a list go below "
			 "0 pages: mod_memcg_lruvec_state deltas are missing (lost or filtered); "
			 "their sizes are lower bounds", (unsigned long long)r->negative_sizes);
		json_array_append_new(arr, json_string(buf));
	}
	if (r->batches_unattributed) {
		snprintf(buf, sizeof(buf), "%llu of %llu LRU batches not attributed to a cgroup "
			 "(no memcg: event followed them: kernels before 6.13 have none)",
			 (unsigned long long)r->batches_unattributed,
			 (unsigned long long)r->batches);
		json_array_append_new(arr, json_string(buf));
	}
	return arr;
}

/* memory.min/low of a snapshot: bytes, "max", or null when not known */
static json_t *protection_json(bool snapshotted, int64_t bytes)
{
	if (!snapshotted || bytes == RR_MARKER_BYTES_UNKNOWN || bytes < -1)
		return json_null();
	if (bytes == RR_MARKER_BYTES_MAX)
		return json_string("max");
	return rr_json_u64((uint64_t)bytes);
}

json_t *rr_report_json(struct rr_report *r, const struct rr_trace_info *ti,
		       const json_t *assumed)
{
	json_t *doc = json_object(), *kinds = json_object(), *cgs = json_array();
	json_t *events = json_object(), *skipped = json_object();
	struct cg **v;
	size_t n;

	json_object_set_new(events, "missed_events", rr_json_u64(ti->nr_missed_events));
	json_object_set_new(events, "skipped_events", rr_json_u64(ti->nr_skipped_events));
	for (int i = 0; i < ti->nr_skipped_names; i++)
		if (ti->skipped[i].count)
			json_object_set_new(skipped, ti->skipped[i].name, rr_json_u64(ti->skipped[i].count));
	json_object_set_new(events, "skipped_by_name", skipped);
	if (ti->format == RR_FORMAT_TEXT) {
		json_object_set_new(events, "text_lines", rr_json_u64(ti->text_lines));
		json_object_set_new(events, "text_other_lines", rr_json_u64(ti->text_other_lines));
		json_object_set_new(events, "text_out_of_order", rr_json_u64(ti->text_backwards));
		json_object_set_new(events, "text_malformed_events", rr_json_u64(ti->malformed_events));
	} else if (ti->malformed_events) {
		json_object_set_new(events, "malformed_events", rr_json_u64(ti->malformed_events));
	}
	json_object_set_new(events, "field_problems", rr_json_field_problems(ti));
	json_object_set_new(doc, "events", events);

	for (int k = 0; k < RR_KIND__COUNT; k++) {
		struct kind_stats *s = &r->kinds[k];
		json_t *o;

		if (!s->count)
			continue;
		o = json_object();
		json_object_set_new(o, "count", rr_json_u64(s->count));
		json_object_set_new(o, "complete", rr_json_u64(s->complete));
		json_object_set_new(o, "no_begin", rr_json_u64(s->no_begin));
		json_object_set_new(o, "no_end", rr_json_u64(s->no_end));
		json_object_set_new(o, "end_inferred", rr_json_u64(s->end_inferred));
		json_object_set_new(o, "lost_events", rr_json_u64(s->lost));
		json_object_set_new(o, "mglru", rr_json_u64(s->mglru));
		json_object_set_new(o, "nested", rr_json_u64(s->nested));
		json_object_set_new(o, "batches", rr_json_u64(s->batches));
		json_object_set_new(o, "scanned_pages", rr_json_u64(s->scanned));
		json_object_set_new(o, "reclaimed_pages", rr_json_u64(s->reclaimed));
		json_object_set_new(o, "active_scanned_pages", rr_json_u64(s->active_scanned));
		json_object_set_new(o, "efficiency", json_real(efficiency(s->reclaimed, s->scanned)));
		json_object_set_new(o, "latency_us", latency_json(s, ti->timestamps_synthetic));
		json_object_set_new(kinds, rr_reclaim_kind_name((enum rr_reclaim_kind)k), o);
	}
	json_object_set_new(doc, "episodes_by_kind", kinds);

	v = sorted_cgroups(r, &n);
	for (size_t i = 0; v && i < n; i++) {
		const struct cg *c = v[i];
		json_t *o = json_object();
		const uint64_t *sizes = cg_lru(c);

		json_object_set_new(o, "cgroup_id", c->id ? rr_json_u64(c->id) : json_null());
		json_object_set_new(o, "path", c->id ? json_string(c->path ? c->path :
				    "(not named in the trace)") : json_string("(unattributed)"));
		json_object_set_new(o, "batches", rr_json_u64(c->batches));
		json_object_set_new(o, "scanned_pages", rr_json_u64(c->scanned[0] + c->scanned[1]));
		json_object_set_new(o, "reclaimed_pages", rr_json_u64(c->reclaimed[0] + c->reclaimed[1]));
		json_object_set_new(o, "active_scanned_pages",
				    rr_json_u64(c->active_scanned[0] + c->active_scanned[1]));
		json_object_set_new(o, "efficiency", json_real(efficiency(
				    c->reclaimed[0] + c->reclaimed[1], c->scanned[0] + c->scanned[1])));
		json_object_set_new(o, "swapout_pages", rr_json_u64(c->reclaimed[0]));
		json_object_set_new(o, "file_reclaimed_pages", rr_json_u64(c->reclaimed[1]));
		json_object_set_new(o, "pageout_events", rr_json_u64(c->pageouts));
		if (c->id) {
			json_t *lru = json_object();

			json_object_set_new(o, "online", c->known && !c->outside ?
							 json_boolean(c->online) : json_null());
			json_object_set_new(o, "released", json_boolean(c->released));
			json_object_set_new(o, "swappiness", c->swappiness >= 0 ?
					    json_integer(c->swappiness) : json_null());
			json_object_set_new(o, "limit_bytes", c->snapshotted && c->limit_bytes > 0 ?
					    rr_json_u64((uint64_t)c->limit_bytes) : json_null());
			json_object_set_new(o, "min_bytes", protection_json(c->snapshotted, c->min_bytes));
			json_object_set_new(o, "low_bytes", protection_json(c->snapshotted, c->low_bytes));
			for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
				json_object_set_new(lru, rr_lru_names[l], rr_json_u64(sizes[l]));
			json_object_set_new(lru, "source", json_string(c->lru_source ? c->lru_source :
									 "isolate"));
			json_object_set_new(lru, "inferred", json_boolean(cg_inferred(c)));
			json_object_set_new(o, "lru_pages", lru);
		}
		json_object_set_new(o, "priorities", prio_json(c->prio));
		json_array_append_new(cgs, o);
	}
	free(v);
	json_object_set_new(doc, "cgroups", cgs);
	json_object_set_new(doc, "priorities", prio_json(r->prio));
	json_object_set_new(doc, "inferred_inputs", inferred_json(r, ti, assumed));
	json_object_set_new(doc, "episodes", json_incref(r->episodes));
	return doc;
}

static void print_us(FILE *f, const json_t *lat, const char *key)
{
	if (json_is_object(lat))
		fprintf(f, " %9.1f", json_real_value(json_object_get(lat, key)));
	else
		fprintf(f, " %9s", "-");
}

void rr_report_print(struct rr_report *r, const struct rr_trace_info *ti,
		     const json_t *assumed, FILE *f)
{
	json_t *doc = rr_report_json(r, ti, assumed), *kinds, *cgs, *inf, *o;
	const char *name;
	size_t i;

	if (!doc)
		return;
	fprintf(f, "events: %llu lost, %llu not used",
		(unsigned long long)ti->nr_missed_events, (unsigned long long)ti->nr_skipped_events);
	if (ti->format == RR_FORMAT_TEXT && (ti->text_other_lines || ti->malformed_events))
		fprintf(f, "; text: %llu lines not understood, %llu events malformed",
			(unsigned long long)ti->text_other_lines,
			(unsigned long long)ti->malformed_events);
	else if (ti->malformed_events)
		fprintf(f, "; %llu events malformed (dropped)",
			(unsigned long long)ti->malformed_events);
	if (ti->nr_skipped_events) {
		const char *sep = " (";

		for (int k = 0; k < ti->nr_skipped_names && k < 6; k++)
			if (ti->skipped[k].count) {
				fprintf(f, "%s%s %llu", sep, ti->skipped[k].name,
					(unsigned long long)ti->skipped[k].count);
				sep = ", ";
			}
		fprintf(f, "%s)", ti->nr_skipped_names > 6 ? ", ..." : "");
	}
	fputc('\n', f);
	if (ti->nr_field_problems || ti->field_problems_other) {
		fprintf(f, "fields not read, by event (each drops its event unless it says kept):\n");
		/* one line per event, its fields in the order first seen */
		for (int k = 0; k < ti->nr_field_problems; k++) {
			const char *e = ti->field_problems[k].event;
			bool done = false;

			for (int j = 0; j < k; j++)
				done |= !strcmp(ti->field_problems[j].event, e);
			if (done)
				continue;
			fprintf(f, "  %s:", e);
			for (int m = k; m < ti->nr_field_problems; m++)
				if (!strcmp(ti->field_problems[m].event, e))
					fprintf(f, "%s %s %s %llu", m > k ? "," : "",
						ti->field_problems[m].field,
						rr_field_problem_name(ti->field_problems[m].problem),
						(unsigned long long)ti->field_problems[m].count);
			fputc('\n', f);
		}
		if (ti->field_problems_other)
			fprintf(f, "  (other fields: %llu)\n",
				(unsigned long long)ti->field_problems_other);
	}

	kinds = json_object_get(doc, "episodes_by_kind");
	fprintf(f, "\n%-10s %7s %8s %8s %6s %6s %5s %5s %10s %10s %6s %9s %9s %9s %9s\n",
		"episodes", "count", "complete", "no_begin", "no_end", "lost", "mglru", "nest",
		"scanned_pg", "reclaim_pg", "eff", "p50_us", "p90_us", "p99_us", "max_us");
	json_object_foreach(kinds, name, o) {
		json_t *lat = json_object_get(o, "latency_us");

		fprintf(f, "%-10s %7lld %8lld %8lld %6lld %6lld %5lld %5lld %10lld %10lld %5.1f%%",
			name, json_integer_value(json_object_get(o, "count")),
			json_integer_value(json_object_get(o, "complete")),
			json_integer_value(json_object_get(o, "no_begin")),
			json_integer_value(json_object_get(o, "no_end")),
			json_integer_value(json_object_get(o, "lost_events")),
			json_integer_value(json_object_get(o, "mglru")),
			json_integer_value(json_object_get(o, "nested")),
			json_integer_value(json_object_get(o, "scanned_pages")),
			json_integer_value(json_object_get(o, "reclaimed_pages")),
			100.0 * json_real_value(json_object_get(o, "efficiency")));
		print_us(f, lat, "p50");
		print_us(f, lat, "p90");
		print_us(f, lat, "p99");
		print_us(f, lat, "max");
		fputc('\n', f);
	}
	if (!json_object_size(kinds))
		fprintf(f, "(no reclaim episodes)\n");
	json_object_foreach(kinds, name, o)
		if (json_integer_value(json_object_get(o, "end_inferred")))
			fprintf(f, "(%s: %lld ended by the next wake, no sleep event: not complete)\n",
				name, json_integer_value(json_object_get(o, "end_inferred")));

	cgs = json_object_get(doc, "cgroups");
	fprintf(f, "\n%-40s %8s %4s %10s %10s %6s %10s %10s  %s\n", "cgroup", "batches", "prio",
		"scanned_pg", "reclaim_pg", "eff", "swapout_pg", "active_pg", "lru_pages (source)");
	json_array_foreach(cgs, i, o) {
		const char *path = json_string_value(json_object_get(o, "path"));
		json_t *lru = json_object_get(o, "lru_pages"), *c;
		size_t plen, j;
		char lrub[160] = "-";

		if (!path)
			path = "?";
		plen = strlen(path);
		if (lru)
			snprintf(lrub, sizeof(lrub), "%s%lld/%lld/%lld/%lld (%s)",
				 json_is_true(json_object_get(lru, "inferred")) ? ">=" : "",
				 json_integer_value(json_object_get(lru, "inactive_anon")),
				 json_integer_value(json_object_get(lru, "active_anon")),
				 json_integer_value(json_object_get(lru, "inactive_file")),
				 json_integer_value(json_object_get(lru, "active_file")),
				 json_string_value(json_object_get(lru, "source")));
		char shown[48];

		if (plen > 40)	/* keep the leaf, mark the cut */
			snprintf(shown, sizeof(shown), "...%s", path + plen - 37);
		else
			snprintf(shown, sizeof(shown), "%s", path);
		fprintf(f, "%-40s %8lld %4s %10lld %10lld %5.1f%% %10lld %10lld  %s\n", shown,
			json_integer_value(json_object_get(o, "batches")), "all",
			json_integer_value(json_object_get(o, "scanned_pages")),
			json_integer_value(json_object_get(o, "reclaimed_pages")),
			100.0 * json_real_value(json_object_get(o, "efficiency")),
			json_integer_value(json_object_get(o, "swapout_pages")),
			json_integer_value(json_object_get(o, "active_scanned_pages")), lrub);
		json_array_foreach(json_object_get(o, "priorities"), j, c) {
			json_t *p = json_object_get(c, "priority");
			char pb[8];

			snprintf(pb, sizeof(pb), "%s", json_is_integer(p) ? "" : "?");
			if (json_is_integer(p))
				snprintf(pb, sizeof(pb), "%lld", json_integer_value(p));
			fprintf(f, "%-40s %8lld %4s %10lld %10lld %5.1f%% %10s %10lld\n", "",
				json_integer_value(json_object_get(c, "batches")), pb,
				json_integer_value(json_object_get(c, "scanned_pages")),
				json_integer_value(json_object_get(c, "reclaimed_pages")),
				100.0 * json_real_value(json_object_get(c, "efficiency")), "",
				json_integer_value(json_object_get(c, "active_scanned_pages")));
		}
	}
	inf = json_object_get(doc, "inferred_inputs");
	if (json_array_size(inf)) {
		fprintf(f, "\ninferred or assumed, not read from the trace:\n");
		json_array_foreach(inf, i, o)
			fprintf(f, "  - %s\n", json_string_value(o));
	}
	json_decref(doc);
}
