// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory-cgroup state from trace events.
 *
 * Every memcg is in a hash by id (the kernfs id that memcg:* events and
 * cgroup:* events share since v5.5, docs/kernel-model.md §15), and the
 * named ones also by path, which is how a new cgroup finds its parent.  Children are kept sorted by id, which grows with
 * creation, so a pre-order walk visits siblings in creation order as
 * mem_cgroup_iter() does.
 *
 * Start states are versions of struct rr_memcg_vals (see state.h): a write
 * saves the values an open epoch may still read, tagged with the newest
 * epoch; a reader of epoch E takes the first version tagged >= E, or the
 * current values.
 */
#include "state.h"

#include "../common/text.h"
#include <reclaim-replay/policy.h>	/* RR_SWAP_CLUSTER_MAX */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYNTHETIC_ID_BASE (1ULL << 63)

void rr_state_init(struct rr_state *st)
{
	memset(st, 0, sizeof(*st));
	st->memory_root = -1;
	st->next_synthetic_id = SYNTHETIC_ID_BASE;
	st->default_swappiness = 60;	/* vm_swappiness default, mm/vmscan.c */
	/* 6.18 numbering until the trace says otherwise */
	st->items.workingset_activate[RR_LRU_ANON] = 12;
	st->items.workingset_activate[RR_LRU_FILE] = 13;
	st->items.workingset_restore[RR_LRU_ANON] = 14;
	st->items.workingset_restore[RR_LRU_FILE] = 15;
	st->items.pgscan_proactive = -1;	/* evidence only where the trace says */
	st->cost_rotations_x32 = true;
	st->cost_zero_returns = true;
}

/* Free what nodes.c kept (struct rr_nodes). */
static void nodes_free(struct rr_state *st)
{
	struct rr_nodes *ns = st->nodes;
	struct rr_hier_rec *r, *tmp;

	if (!ns)
		return;
	for (int i = 0; i < ns->nr_nodes; i++)
		free(ns->nodes[i].snaps);
	free(ns->nodes);
	HASH_ITER(hh, ns->by_id, r, tmp) {
		HASH_DEL(ns->by_id, r);
		free(r);
	}
	free(ns);
	st->nodes = NULL;
}

void rr_state_free(struct rr_state *st)
{
	struct rr_memcg *m, *tmp;

	nodes_free(st);
	HASH_CLEAR(hh_path, st->by_path);	/* before the items go */
	HASH_ITER(hh, st->by_id, m, tmp) {
		HASH_DELETE(hh, st->by_id, m);
		free(m->path);
		free(m->children);
		free(m->versions);
		free(m->snap_log);
		free(m);
	}
	free(st->open_epochs);
	free(st->open_closed);
	st->open_epochs = NULL;
	st->open_closed = NULL;
	st->by_id = NULL;
	st->last = NULL;
}

/* ---- epochs and versions ---- */

/* min/max of the open epochs: the first and the last entries not ended */
static void open_bounds(struct rr_state *st)
{
	while (st->open_head < st->nr_open_epochs && st->open_closed[st->open_head])
		st->open_head++;
	while (st->nr_open_epochs > st->open_head && st->open_closed[st->nr_open_epochs - 1])
		st->nr_open_epochs--;
	if (st->open_head == st->nr_open_epochs) {	/* none open */
		st->open_head = st->nr_open_epochs = 0;
		st->min_open_epoch = st->max_open_epoch = 0;
		return;
	}
	st->min_open_epoch = st->open_epochs[st->open_head];
	st->max_open_epoch = st->open_epochs[st->nr_open_epochs - 1];
}

/* Drop the ended entries (when they are more than the open ones). */
static void open_compact(struct rr_state *st)
{
	unsigned int o = 0;

	for (unsigned int i = st->open_head; i < st->nr_open_epochs; i++)
		if (!st->open_closed[i]) {
			st->open_epochs[o] = st->open_epochs[i];
			st->open_closed[o++] = 0;
		}
	st->open_head = 0;
	st->nr_open_epochs = o;
}

uint64_t rr_state_epoch_begin(struct rr_state *st)
{
	if (st->nr_open_epochs - st->open_head > 2 * st->nr_open_live + 16)
		open_compact(st);
	if (st->nr_open_epochs == st->cap_open_epochs) {
		unsigned int cap = st->cap_open_epochs ? st->cap_open_epochs * 2 : 16;
		uint64_t *e = realloc(st->open_epochs, cap * sizeof(*e));
		uint8_t *c;

		if (!e)
			return 0;
		st->open_epochs = e;
		c = realloc(st->open_closed, cap);
		if (!c)
			return 0;
		st->open_closed = c;
		st->cap_open_epochs = cap;
	}
	st->open_closed[st->nr_open_epochs] = 0;
	st->open_epochs[st->nr_open_epochs++] = ++st->epoch;
	st->nr_open_live++;
	open_bounds(st);
	return st->epoch;
}

void rr_state_epoch_end(struct rr_state *st, uint64_t epoch)
{
	unsigned int lo = st->open_head, hi = st->nr_open_epochs;

	while (lo < hi) {	/* the entries are ascending */
		unsigned int mid = lo + (hi - lo) / 2;

		if (st->open_epochs[mid] < epoch)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == st->nr_open_epochs || st->open_epochs[lo] != epoch || st->open_closed[lo])
		return;
	st->open_closed[lo] = 1;
	st->nr_open_live--;
	open_bounds(st);
}

struct rr_memcg_vals *rr_memcg_save(struct rr_state *st, struct rr_memcg *m)
{
	uint32_t keep = 0;

	/* versions no open epoch reads any more */
	while (keep < m->nr_versions && m->versions[keep].epoch < st->min_open_epoch)
		keep++;
	if (keep) {
		memmove(m->versions, m->versions + keep,
			(m->nr_versions - keep) * sizeof(*m->versions));
		m->nr_versions -= keep;
	}
	if (m->nr_versions == m->cap_versions) {
		uint32_t cap = m->cap_versions ? m->cap_versions * 2 : 2;
		struct rr_memcg_version *v = realloc(m->versions, cap * sizeof(*v));

		if (!v) {
			st->oom = true;
			return &m->v;
		}
		m->versions = v;
		m->cap_versions = cap;
	}
	m->versions[m->nr_versions].epoch = st->epoch;
	m->versions[m->nr_versions++].v = m->v;
	m->saved_epoch = st->epoch;
	return &m->v;
}

bool rr_memcg_in_epoch(const struct rr_memcg *m, uint64_t epoch)
{
	return m->born_epoch < epoch && !(m->released_epoch < epoch);
}

const struct rr_memcg_vals *rr_memcg_at(const struct rr_memcg *m, uint64_t epoch)
{
	if (epoch)
		for (uint32_t i = 0; i < m->nr_versions; i++)
			if (m->versions[i].epoch >= epoch)
				return &m->versions[i].v;
	return &m->v;
}

/* ---- the table ---- */

struct rr_memcg *rr_state_find(const struct rr_state *st, uint64_t id)
{
	struct rr_memcg *m;

	HASH_FIND(hh, st->by_id, &id, sizeof(id), m);
	return m;
}

static struct rr_memcg *memcg_new(struct rr_state *st, uint64_t id)
{
	struct rr_memcg *m = calloc(1, sizeof(*m));
	char buf[48];

	if (!m)
		return NULL;
	snprintf(buf, sizeof(buf), "memcg_id=%llu", (unsigned long long)id);
	m->path = strdup(buf);
	if (!m->path) {
		free(m);
		return NULL;
	}
	m->id = id;
	m->v.online = true;
	m->min_bytes = m->low_bytes = RR_MARKER_BYTES_UNKNOWN;
	m->v.swappiness = st->default_swappiness;
	/* first seen in an event, not made by a mkdir of the trace: it
	 * predates the trace, and every start state has it (mkdir below
	 * makes one born now) */
	m->born_epoch = 0;
	m->released_epoch = UINT64_MAX;
	m->saved_epoch = 0;	/* every open epoch sees it: save before a change */
	HASH_ADD(hh, st->by_id, id, sizeof(m->id), m);
	st->nr_memcgs++;
	return m;
}

struct rr_memcg *rr_state_memcg(struct rr_state *st, uint64_t id)
{
	struct rr_memcg *m;

	/* runs of events name one memcg: skip the hash for them */
	if (st->last && st->last->id == id)
		return st->last;
	m = rr_state_find(st, id);
	if (!m && (m = memcg_new(st, id)) && id != RR_ROOT_MEMCG_ID) {
		if (st->whole_tree_seen) {
			/* not in the snapshot of the whole tree, no mkdir: dying */
			m->dying_inferred = true;
			m->v.online = false;
		} else if (st->view_root_id) {
			/* outside the recorder's view: live or dying, unknown */
			m->online_unknown = true;
		}
	}
	st->last = m;
	return m;
}

static void remove_child(struct rr_memcg *parent, struct rr_memcg *child);

static int add_child(struct rr_memcg *parent, struct rr_memcg *child)
{
	int i;

	if (parent->nr_children == parent->cap_children) {
		int cap = parent->cap_children ? parent->cap_children * 2 : 4;
		struct rr_memcg **c = realloc(parent->children, (size_t)cap * sizeof(*c));

		if (!c)
			return -1;
		parent->children = c;
		parent->cap_children = cap;
	}
	for (i = parent->nr_children; i > 0 && parent->children[i - 1]->id > child->id; i--)
		parent->children[i] = parent->children[i - 1];
	parent->children[i] = child;
	parent->nr_children++;
	child->parent = parent;
	return 0;
}

/* Is @a @m itself or one of its ancestors?  (The tree has no cycle: every
 * link goes through link_child(), so the walk ends at the root.) */
static bool ancestor_or_self(const struct rr_memcg *a, const struct rr_memcg *m)
{
	for (; m; m = m->parent)
		if (m == a)
			return true;
	return false;
}

/*
 * Make @child a child of @parent unless that would close a cycle (a
 * damaged or crafted trace naming a memcg's own descendant as its parent):
 * then @child stays where it is, the conflict is counted, and 0 is returned.
 * Return -1 on ENOMEM.
 */
static int link_child(struct rr_state *st, struct rr_memcg *parent, struct rr_memcg *child)
{
	if (ancestor_or_self(child, parent)) {
		st->tree_conflicts++;
		return 0;
	}
	if (child->parent)
		remove_child(child->parent, child);
	return add_child(parent, child);
}

static struct rr_memcg *find_path(struct rr_state *st, const char *path, size_t len)
{
	struct rr_memcg *m;

	HASH_FIND(hh_path, st->by_path, path, len, m);
	return m;
}

struct rr_memcg *rr_state_find_path(struct rr_state *st, const char *path)
{
	return find_path(st, path, strlen(path));
}

static int set_path(struct rr_state *st, struct rr_memcg *m, const char *path,
		    size_t len);

/* The parent of @path, creating a synthetic ancestor chain when the
 * ancestors predate the trace and were never named by an event. */
static struct rr_memcg *parent_of(struct rr_state *st, const char *path, size_t len)
{
	struct rr_memcg *p;
	size_t plen = len;

	while (plen > 0 && path[plen - 1] != '/')
		plen--;
	if (plen == 0 || len <= 1)
		return NULL;	/* relative path, or the root itself */
	if (plen > 1)
		plen--;		/* "/a/b" -> "/a"; "/a" -> "/" */
	p = find_path(st, path, plen);
	if (p)
		return p;
	/* "/" is the root memcg, whose id is 1 (the first mem_cgroup_id() and
	 * cgroup id handed out): a flush of id 1 then reaches the whole tree */
	p = plen == 1 ? rr_state_memcg(st, RR_ROOT_MEMCG_ID) :
			memcg_new(st, st->next_synthetic_id++);
	if (!p || set_path(st, p, path, plen)) {
		st->oom = true;	/* (not "no parent": the tree is incomplete) */
		return NULL;
	}
	return p;
}

static void remove_child(struct rr_memcg *parent, struct rr_memcg *child)
{
	for (int i = 0; i < parent->nr_children; i++) {
		if (parent->children[i] != child)
			continue;
		memmove(&parent->children[i], &parent->children[i + 1],
			(size_t)(parent->nr_children - i - 1) * sizeof(*parent->children));
		parent->nr_children--;
		break;
	}
	child->parent = NULL;
}

/*
 * @path is now @m's.  A memcg that held it before gives it up: a synthetic
 * stand-in (an ancestor known only by path) hands its children to @m and
 * goes; a real one (removed, its name reused by a new cgroup) keeps its id
 * but loses the path.
 */
static int take_path(struct rr_state *st, struct rr_memcg *m, const char *path, size_t len)
{
	struct rr_memcg *other = find_path(st, path, len);

	if (!other || other == m)
		return 0;
	HASH_DELETE(hh_path, st->by_path, other);
	other->named = false;
	if (other->id < SYNTHETIC_ID_BASE)
		return 0;
	while (other->nr_children) {
		struct rr_memcg *c = other->children[0];

		remove_child(other, c);
		if (c == m)
			continue;
		if (ancestor_or_self(c, m)) {	/* (a hostile trace: keep it reachable) */
			st->tree_conflicts++;
			if (other->parent && add_child(other->parent, c))
				return -1;
			continue;
		}
		if (add_child(m, c))
			return -1;
	}
	if (other->parent)
		remove_child(other->parent, other);
	HASH_DELETE(hh, st->by_id, other);
	if (st->last == other)
		st->last = NULL;
	st->nr_memcgs--;
	free(other->path);
	free(other->children);
	free(other->versions);
	free(other);
	return 0;
}

static int set_path(struct rr_state *st, struct rr_memcg *m, const char *raw,
		    size_t raw_len)
{
	/* names are bytes; the outputs are UTF-8 JSON and text */
	char *copy;
	const char *path;
	size_t len;
	struct rr_memcg *parent;

	/* no kernel names a cgroup so: its events print at most 1023 bytes of
	 * path (TRACE_CGROUP_PATH_LEN), a marker line 4000, PATH_MAX is 4096;
	 * a crafted one of 60,000 levels cost minutes and gigabytes */
	if (raw_len > RR_MAX_CGROUP_PATH_BYTES) {
		st->long_paths++;
		return 0;
	}
	copy = rr_name_dup(raw, raw_len);
	path = copy;
	if (!copy)
		return -1;
	len = strlen(copy);
	if (m->named)
		HASH_DELETE(hh_path, st->by_path, m);
	if (take_path(st, m, path, len)) {
		free(copy);
		return -1;
	}
	free(m->path);
	m->path = copy;
	m->named = true;
	HASH_ADD_KEYPTR(hh_path, st->by_path, m->path, strlen(m->path), m);
	/* the path says where it is: a memcg named anew (an id reused for
	 * another cgroup, or a hostile trace) moves to its new parent */
	parent = len > 1 ? parent_of(st, path, len) : NULL;
	if (parent && parent != m->parent && link_child(st, parent, m))
		return -1;
	return 0;
}

int rr_state_name(struct rr_state *st, struct rr_memcg *m, const char *path)
{
	if (path[0] != '/')
		return 0;
	return set_path(st, m, path, strlen(path));
}

/* ---- sizes and views ---- */

uint64_t rr_vals_lru_pages(const struct rr_memcg_vals *v, int lru)
{
	int64_t n = v->lru_sum[lru];

	if (!v->baseline_known && v->lru_low[lru] < 0)
		n -= v->lru_low[lru];
	return n > 0 ? (uint64_t)n : 0;
}

unsigned int rr_state_nr_sizes_unread(const struct rr_state *st)
{
	struct rr_memcg *m, *tmp;
	unsigned int n = 0;

	HASH_ITER(hh, st->by_id, m, tmp)
		n += !m->v.baseline_known && !m->standin && m->id != RR_ROOT_MEMCG_ID;
	return n;
}

bool rr_memcg_synthetic(const struct rr_memcg *m)
{
	return m->id >= SYNTHETIC_ID_BASE;
}

unsigned int rr_state_nr_outside_view(const struct rr_state *st)
{
	struct rr_memcg *m, *tmp;
	unsigned int n = 0;

	HASH_ITER(hh, st->by_id, m, tmp)
		n += m->online_unknown;
	return n;
}

bool rr_vals_online_at(const struct rr_memcg_vals *v, uint64_t ts_ns,
		       uint64_t offline_delay_ns, bool *in_window)
{
	if (v->online)
		return true;
	if (v->offline_seen_ns && ts_ns >= v->offline_seen_ns)
		return false;
	/* offline only once the assumed rmdir -> offline delay has passed */
	if (ts_ns < v->rmdir_ns + offline_delay_ns) {
		*in_window = true;
		return true;
	}
	return false;
}

void rr_memcg_hier_lru(const struct rr_memcg *m, uint64_t epoch,
		       uint64_t out[RR_NR_EVICTABLE_LRU])
{
	const struct rr_memcg_vals *v = rr_memcg_at(m, epoch);

	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		out[l] = rr_vals_lru_pages(v, l);
	for (int i = 0; i < m->nr_children; i++) {
		uint64_t c[RR_NR_EVICTABLE_LRU];

		if (epoch && m->children[i]->born_epoch >= epoch)
			continue;	/* not there yet at @epoch */
		rr_memcg_hier_lru(m->children[i], epoch, c);
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			out[l] += c[l];
	}
}

static int64_t hier_ws(const struct rr_memcg *m, int t)
{
	int64_t v = m->ws_activate[t];

	for (int i = 0; i < m->nr_children; i++)
		v += hier_ws(m->children[i], t);
	return v;
}

void rr_memcg_rstat_lru(const struct rr_memcg *m, uint64_t epoch,
			uint64_t out[RR_NR_EVICTABLE_LRU])
{
	const struct rr_memcg_vals *v = rr_memcg_at(m, epoch);

	if (v->rstat_valid)
		memcpy(out, v->rstat_lru, sizeof(v->rstat_lru));
	else
		rr_memcg_hier_lru(m, epoch, out);
}

/* A flush of @m's subtree: the rstat view becomes the exact values. */
static void flush(struct rr_state *st, struct rr_memcg *m, uint64_t ts_ns)
{
	struct rr_memcg_vals *v;

	rr_memcg_rstat_lru(m, 0, m->rstat_prev_lru);
	memcpy(m->rstat_prev_ws_activate, m->v.rstat_ws_activate,
	       sizeof(m->rstat_prev_ws_activate));
	m->rstat_prev_valid = true;
	m->rstat_prev_flush_ns = m->rstat_flush_ns;
	m->rstat_flush_ns = ts_ns;
	memcpy(m->flush_lru_sum, m->v.lru_sum, sizeof(m->flush_lru_sum));
	v = rr_memcg_mut(st, m);
	rr_memcg_hier_lru(m, 0, v->rstat_lru);
	v->rstat_ws_activate[RR_LRU_ANON] = hier_ws(m, RR_LRU_ANON);
	v->rstat_ws_activate[RR_LRU_FILE] = hier_ws(m, RR_LRU_FILE);
	/* every memcg descends from the root memcg, also those the trace
	 * never linked to it (named by id only; before the snapshot named
	 * them): its view holds all of them */
	if (m->id == RR_ROOT_MEMCG_ID && !m->parent) {
		struct rr_memcg *it, *tmp;

		HASH_ITER(hh, st->by_id, it, tmp) {
			uint64_t c[RR_NR_EVICTABLE_LRU];

			if (it->parent || it == m)
				continue;
			rr_memcg_hier_lru(it, 0, c);
			for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
				v->rstat_lru[l] += c[l];
			v->rstat_ws_activate[RR_LRU_ANON] += hier_ws(it, RR_LRU_ANON);
			v->rstat_ws_activate[RR_LRU_FILE] += hier_ws(it, RR_LRU_FILE);
		}
	}
	v->rstat_valid = true;
	for (int i = 0; i < m->nr_children; i++)
		flush(st, m->children[i], ts_ns);
}

uint64_t rr_memcg_view_flush_ns(const struct rr_memcg *m, uint64_t ts_ns)
{
	if (m->rstat_prev_valid && ts_ns && m->rstat_flush_ns > ts_ns)
		return m->rstat_prev_flush_ns;
	return m->rstat_flush_ns;
}

void rr_memcg_rstat_at(const struct rr_memcg *m, uint64_t ts_ns,
		       uint64_t lru[RR_NR_EVICTABLE_LRU], int64_t ws_activate[RR_NR_LRU_TYPES])
{
	if (m->rstat_prev_valid && ts_ns && m->rstat_flush_ns > ts_ns) {
		memcpy(lru, m->rstat_prev_lru, sizeof(m->rstat_prev_lru));
		if (ws_activate)
			memcpy(ws_activate, m->rstat_prev_ws_activate,
			       sizeof(m->rstat_prev_ws_activate));
		return;
	}
	rr_memcg_rstat_lru(m, 0, lru);
	if (ws_activate)
		memcpy(ws_activate, m->v.rstat_ws_activate, sizeof(m->v.rstat_ws_activate));
}

struct rr_memcg *rr_memcg_lca(struct rr_memcg *a, struct rr_memcg *b)
{
	if (!a || !b)
		return a ? a : b;
	for (; a; a = a->parent)
		if (rr_memcg_is_ancestor(a, b))
			return a;
	return NULL;
}

bool rr_memcg_is_ancestor(const struct rr_memcg *a, const struct rr_memcg *m)
{
	for (; m; m = m->parent)
		if (m == a)
			return true;
	return false;
}

void rr_state_note_cost(struct rr_state *st, struct rr_memcg *m, int type,
			uint64_t cost)
{
	rr_state_note_cost_range(st, m, type, cost, 0);
}

void rr_state_note_cost_range(struct rr_state *st, struct rr_memcg *m, int type,
			      uint64_t cost, uint64_t uncertain)
{
	struct rr_memcg *next;

	if (!cost && !uncertain && st->cost_zero_returns)
		return;
	/* (a memcg never linked to its parent still notes up to the root) */
	for (; m; m = next) {
		uint64_t sz[RR_NR_EVICTABLE_LRU];
		struct rr_memcg_vals *v = rr_memcg_mut(st, m);

		if (type == RR_LRU_FILE)
			v->file_cost += cost;
		else
			v->anon_cost += cost;
		v->cost_uncertain[type == RR_LRU_FILE] += uncertain;
		if (!st->nr_flushes && st->nr_memcgs <= RR_HIER_MEMCGS_MAX) {
			uint64_t ex[RR_NR_EVICTABLE_LRU];

			if (type == RR_LRU_FILE)
				v->file_cost_fresh += cost;
			else
				v->anon_cost_fresh += cost;
			rr_memcg_hier_lru(m, 0, ex);
			if (v->anon_cost_fresh + v->file_cost_fresh > (ex[0] + ex[1] + ex[2] + ex[3]) / 4) {
				v->anon_cost_fresh /= 2;
				v->file_cost_fresh /= 2;
			}
		}
		/* halving against the rstat view, hierarchical */
		rr_memcg_rstat_lru(m, 0, sz);
		if (v->anon_cost + v->file_cost > (sz[0] + sz[1] + sz[2] + sz[3]) / 4) {
			v->cost_pre_halving[0] = v->anon_cost;
			v->cost_pre_halving[1] = v->file_cost;
			v->anon_cost /= 2;
			v->file_cost /= 2;
			v->cost_uncertain[0] = (v->cost_uncertain[0] + 1) / 2;
			v->cost_uncertain[1] = (v->cost_uncertain[1] + 1) / 2;
			v->cost_halvings++;
		}
		next = m->parent;
		if (!next && m->id != RR_ROOT_MEMCG_ID)
			next = rr_state_find(st, RR_ROOT_MEMCG_ID);
	}
}

static bool root_matches(const struct rr_state *st, int root)
{
	return root == st->memory_root;
}

/* mod_memcg_lruvec_state: the hot path (most events of a trace) */
/*
 * The cost a refault of @pages pages notes (docs/kernel-model.md 3.6):
 * lru_note_cost_refault() charges the folio's pages, x SWAP_CLUSTER_MAX
 * since v6.2 (0538a82c39e9, I/O counted as 32 rotations); the pages alone
 * from v5.8 (1431d4d11abb).
 */
static uint64_t refault_cost(const struct rr_state *st, int64_t pages)
{
	uint64_t cost;

	if (__builtin_mul_overflow((uint64_t)pages,
				   st->cost_rotations_x32 ? (uint64_t)RR_SWAP_CLUSTER_MAX : 1, &cost))
		return UINT64_MAX / 2;	/* (a hostile trace: large, not wrapped) */
	return cost;
}

static int lruvec_delta(struct rr_state *st, const struct rr_event *ev)
{
	struct rr_memcg *m = rr_state_memcg(st, ev->id);

	if (!m)
		return -1;
	if (ev->item >= 0 && ev->item < RR_NR_LRU) {
		struct rr_memcg_vals *v = rr_memcg_mut(st, m);

		/* (a hostile trace's deltas saturate instead of overflowing) */
		if (__builtin_add_overflow(v->lru_sum[ev->item], ev->val, &v->lru_sum[ev->item]))
			v->lru_sum[ev->item] = ev->val < 0 ? INT64_MIN : INT64_MAX;
		if (v->lru_sum[ev->item] < v->lru_low[ev->item])
			v->lru_low[ev->item] = v->lru_sum[ev->item];
	} else if (ev->item == st->items.workingset_activate[RR_LRU_ANON]) {
		m->ws_activate[RR_LRU_ANON] += ev->val;
	} else if (ev->item == st->items.workingset_activate[RR_LRU_FILE]) {
		m->ws_activate[RR_LRU_FILE] += ev->val;
	} else if (ev->item == st->items.workingset_restore[RR_LRU_ANON] && ev->val > 0) {
		rr_state_note_cost(st, m, RR_LRU_ANON, refault_cost(st, ev->val));
	} else if (ev->item == st->items.workingset_restore[RR_LRU_FILE] && ev->val > 0) {
		rr_state_note_cost(st, m, RR_LRU_FILE, refault_cost(st, ev->val));
	}
	return 0;
}

int rr_state_apply(struct rr_state *st, const struct rr_event *ev)
{
	struct rr_memcg *m;
	struct rr_memcg_vals *v;

	switch (ev->type) {
	case RR_EV_MOD_LRUVEC:
		return lruvec_delta(st, ev);
	case RR_EV_CGROUP_MKDIR:
		if (!root_matches(st, ev->cgroup_root) || !ev->str)
			return 0;
		m = rr_state_find(st, ev->id);
		if (!m) {
			m = memcg_new(st, ev->id);
			if (!m)
				return -1;
			/* created in the trace: born now, everything starts at 0
			 * (exact while deltas follow it; without them, charged
			 * unseen: lower bounds) */
			m->born_epoch = st->epoch;
			m->saved_epoch = st->epoch;	/* no open epoch sees it */
			m->v.baseline_known = !st->sizes_without_deltas;
			m->v.rstat_valid = true;
			m->created_ns = ev->ts_ns ? ev->ts_ns : 1;
		}
		v = rr_memcg_mut(st, m);
		v->online = true;
		m->online_unknown = false;
		if (set_path(st, m, ev->str, (size_t)ev->str_len))
			return -1;
		if (m->parent) {	/* v1: inherited from the parent at creation */
			v->swappiness = m->parent->v.swappiness;
			v->swappiness_known = rr_memcg_swappiness_known(st, m->parent);
		}
		return 0;
	case RR_EV_CGROUP_RMDIR:
		if (!root_matches(st, ev->cgroup_root))
			return 0;
		m = rr_state_memcg(st, ev->id);
		if (!m)
			return -1;
		/* the css goes offline ~25 ms later; no event marks it */
		v = rr_memcg_mut(st, m);
		v->online = false;
		m->online_unknown = false;	/* (the window's rules from here) */
		v->rmdir_ns = ev->ts_ns;
		if (ev->ts_ns > st->last_rmdir_ns)
			st->last_rmdir_ns = ev->ts_ns;
		if (!m->named && ev->str && set_path(st, m, ev->str, (size_t)ev->str_len))
			return -1;
		return 0;
	case RR_EV_CGROUP_RELEASE:
		if (!root_matches(st, ev->cgroup_root))
			return 0;
		m = rr_state_find(st, ev->id);
		if (m) {	/* the last reference is gone: it is about to be freed */
			rr_memcg_mut(st, m)->online = false;
			m->release_ns = ev->ts_ns ? ev->ts_ns : 1;
			m->released_epoch = st->epoch;
		}
		return 0;
	case RR_EV_FLUSH:
		if (!ev->force && !ev->needs_flush)
			return 0;
		st->nr_flushes++;
		/* (the root memcg's view counts from here on even where no other
		 * event named it yet: global reclaim reads it) */
		if (ev->id == RR_ROOT_MEMCG_ID && !rr_state_memcg(st, RR_ROOT_MEMCG_ID))
			return -1;
		m = rr_state_find(st, ev->id);
		if (m && ev->id != RR_ROOT_MEMCG_ID) {
			flush(st, m, ev->ts_ns);
		} else {
			/* the root memcg (every memcg is its descendant, also those
			 * the trace never linked to it), or an id never seen:
			 * flush every tree */
			struct rr_memcg *it, *tmp;

			HASH_ITER(hh, st->by_id, it, tmp)
				if (!it->parent)
					flush(st, it, ev->ts_ns);
		}
		return 0;
	default:
		return 0;
	}
}
