// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory-cgroup state from trace events.
 *
 * Every memcg is in a hash by id (the kernfs id that memcg:* events and
 * cgroup:* events share since v5.5, kernel-reclaim-model.md §14.2), and the
 * named ones also by path, which is how a new cgroup finds its parent.
 * Children are kept sorted by id, which grows with creation, so a pre-order
 * walk visits siblings in creation order as mem_cgroup_iter() does (§2).
 */
#include "state.h"

#include "../common/text.h"

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
	/* 6.18 numbering (§14.1) until the trace says otherwise */
	st->items.workingset_activate[0] = 12;
	st->items.workingset_activate[1] = 13;
	st->items.workingset_restore[0] = 14;
	st->items.workingset_restore[1] = 15;
	st->cost_fractions = true;
	st->cost_rotations_x32 = true;
	st->cost_zero_returns = true;
}

void rr_state_free(struct rr_state *st)
{
	struct rr_memcg *m, *tmp;

	HASH_CLEAR(hh_path, st->by_path);	/* before the items go */
	HASH_ITER(hh, st->by_id, m, tmp) {
		HASH_DELETE(hh, st->by_id, m);
		free(m->path);
		free(m->children);
		free(m);
	}
}

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
	m->online = true;
	m->min_bytes = m->low_bytes = -1;
	m->swappiness = st->default_swappiness;
	HASH_ADD(hh, st->by_id, id, sizeof(m->id), m);
	st->nr_memcgs++;
	return m;
}

struct rr_memcg *rr_state_memcg(struct rr_state *st, uint64_t id)
{
	struct rr_memcg *m = rr_state_find(st, id);

	return m ? m : memcg_new(st, id);
}

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

static struct rr_memcg *find_path(struct rr_state *st, const char *path, size_t len)
{
	struct rr_memcg *m;

	HASH_FIND(hh_path, st->by_path, path, len, m);
	return m;
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
	p = memcg_new(st, st->next_synthetic_id++);
	if (!p || set_path(st, p, path, plen))
		return NULL;
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
		if (add_child(m, c))
			return -1;
	}
	if (other->parent)
		remove_child(other->parent, other);
	HASH_DELETE(hh, st->by_id, other);
	st->nr_memcgs--;
	free(other->path);
	free(other->children);
	free(other);
	return 0;
}

static int set_path(struct rr_state *st, struct rr_memcg *m, const char *raw,
		    size_t raw_len)
{
	/* names are bytes; the outputs are UTF-8 JSON and text */
	char *copy = rr_utf8_dup(raw, raw_len);
	const char *path = copy;
	size_t len;
	struct rr_memcg *parent;

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
	if (!m->parent && len > 1) {
		parent = parent_of(st, path, len);
		if (parent && parent != m && add_child(parent, m))
			return -1;
	}
	return 0;
}

int rr_state_name(struct rr_state *st, struct rr_memcg *m, const char *path)
{
	if (path[0] != '/')
		return 0;
	return set_path(st, m, path, strlen(path));
}

uint64_t rr_memcg_lru_pages(const struct rr_memcg *m, int lru)
{
	int64_t v = m->lru_sum[lru];

	if (!m->baseline_known && m->lru_low[lru] < 0)
		v -= m->lru_low[lru];
	return v > 0 ? (uint64_t)v : 0;
}

void rr_memcg_hier_lru(const struct rr_memcg *m, uint64_t out[4])
{
	for (int l = 0; l < 4; l++)
		out[l] = rr_memcg_lru_pages(m, l);
	for (int i = 0; i < m->nr_children; i++) {
		uint64_t c[4];

		rr_memcg_hier_lru(m->children[i], c);
		for (int l = 0; l < 4; l++)
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

void rr_memcg_rstat_lru(const struct rr_memcg *m, uint64_t out[4])
{
	if (m->rstat_valid)
		memcpy(out, m->rstat_lru, sizeof(m->rstat_lru));
	else
		rr_memcg_hier_lru(m, out);
}

/* A flush of @m's subtree: the rstat view becomes the exact values. */
static void flush(struct rr_memcg *m, uint64_t ts_ns)
{
	if (m->rstat_valid)
		memcpy(m->rstat_prev_lru, m->rstat_lru, sizeof(m->rstat_lru));
	else
		rr_memcg_hier_lru(m, m->rstat_prev_lru);
	memcpy(m->rstat_prev_ws_activate, m->rstat_ws_activate, sizeof(m->rstat_ws_activate));
	m->rstat_prev_valid = true;
	m->rstat_flush_ns = ts_ns;
	rr_memcg_hier_lru(m, m->rstat_lru);
	m->rstat_ws_activate[0] = hier_ws(m, 0);
	m->rstat_ws_activate[1] = hier_ws(m, 1);
	m->rstat_valid = true;
	for (int i = 0; i < m->nr_children; i++)
		flush(m->children[i], ts_ns);
}

void rr_memcg_rstat_at(const struct rr_memcg *m, uint64_t ts_ns, uint64_t lru[4],
		       int64_t ws_activate[2])
{
	if (m->rstat_prev_valid && ts_ns && m->rstat_flush_ns > ts_ns) {
		memcpy(lru, m->rstat_prev_lru, sizeof(m->rstat_prev_lru));
		if (ws_activate)
			memcpy(ws_activate, m->rstat_prev_ws_activate,
			       sizeof(m->rstat_prev_ws_activate));
		return;
	}
	rr_memcg_rstat_lru(m, lru);
	if (ws_activate)
		memcpy(ws_activate, m->rstat_ws_activate, sizeof(m->rstat_ws_activate));
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
	if (!cost && st->cost_zero_returns)
		return;
	for (; m; m = m->parent) {
		uint64_t sz[4];

		if (type)
			m->file_cost += cost;
		else
			m->anon_cost += cost;
		/* halving against the rstat view, hierarchical (§3.4) */
		rr_memcg_rstat_lru(m, sz);
		if (m->anon_cost + m->file_cost > (sz[0] + sz[1] + sz[2] + sz[3]) / 4) {
			m->anon_cost /= 2;
			m->file_cost /= 2;
		}
	}
}

static bool root_matches(const struct rr_state *st, int root)
{
	return root == st->memory_root;
}

int rr_state_apply(struct rr_state *st, const struct rr_event *ev)
{
	struct rr_memcg *m;

	switch (ev->type) {
	case RR_EV_CGROUP_MKDIR:
		if (!root_matches(st, ev->cgroup_root) || !ev->str)
			return 0;
		m = rr_state_find(st, ev->id);
		if (!m) {
			m = memcg_new(st, ev->id);
			if (!m)
				return -1;
			/* created in the trace: everything starts at 0 (§13.5) */
			m->baseline_known = true;
			m->rstat_valid = true;
			m->created_ns = ev->ts_ns ? ev->ts_ns : 1;
		}
		m->level = ev->cgroup_level;
		m->online = true;
		if (m->parent)
			m->swappiness = m->parent->swappiness;
		if (set_path(st, m, ev->str, (size_t)ev->str_len))
			return -1;
		if (m->parent)	/* v1: inherited from the parent at creation */
			m->swappiness = m->parent->swappiness;
		return 0;
	case RR_EV_CGROUP_RMDIR:
		if (!root_matches(st, ev->cgroup_root))
			return 0;
		m = rr_state_memcg(st, ev->id);
		if (!m)
			return -1;
		/* the css goes offline ~25 ms later; no event marks it (§12.3) */
		m->online = false;
		m->rmdir_ns = ev->ts_ns;
		if (!m->named && ev->str && set_path(st, m, ev->str, (size_t)ev->str_len))
			return -1;
		return 0;
	case RR_EV_CGROUP_RELEASE:
		if (!root_matches(st, ev->cgroup_root))
			return 0;
		m = rr_state_find(st, ev->id);
		if (m) {	/* the last reference is gone: it is about to be freed */
			m->online = false;
			m->release_ns = ev->ts_ns ? ev->ts_ns : 1;
		}
		return 0;
	case RR_EV_MOD_LRUVEC:
		m = rr_state_memcg(st, ev->id);
		if (!m)
			return -1;
		if (ev->item >= 0 && ev->item < RR_NR_LRU) {
			m->lru_sum[ev->item] += ev->val;
			if (m->lru_sum[ev->item] < m->lru_low[ev->item])
				m->lru_low[ev->item] = m->lru_sum[ev->item];
		} else if (ev->item == st->items.workingset_activate[0]) {
			m->ws_activate[0] += ev->val;
		} else if (ev->item == st->items.workingset_activate[1]) {
			m->ws_activate[1] += ev->val;
		} else if (ev->item == st->items.workingset_restore[0] && ev->val > 0) {
			/* lru_note_cost_refault(): folio pages x SWAP_CLUSTER_MAX */
			rr_state_note_cost(st, m, 0, (uint64_t)ev->val * 32);
		} else if (ev->item == st->items.workingset_restore[1] && ev->val > 0) {
			rr_state_note_cost(st, m, 1, (uint64_t)ev->val * 32);
		}
		return 0;
	case RR_EV_FLUSH:
		if (!ev->force && !ev->needs_flush)
			return 0;
		st->nr_flushes++;
		m = rr_state_find(st, ev->id);
		if (m) {
			flush(m, ev->ts_ns);
		} else {
			/* the root memcg, or an id never seen: flush every tree */
			struct rr_memcg *it, *tmp;

			HASH_ITER(hh, st->by_id, it, tmp)
				if (!it->parent)
					flush(it, ev->ts_ns);
		}
		return 0;
	default:
		return 0;
	}
}
