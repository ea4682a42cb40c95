// SPDX-License-Identifier: GPL-2.0-only
/*
 * For attribution without memcg: events (attribute.c, docs/kernel-model.md
 * §24): the reclaim root of a task's episode, whose subtree the walk
 * visits, and how well a memcg of it fits a batch of a list.
 */
#include "episode-local.h"

#include <stdio.h>

/* A snapshot's "this list is empty" is trusted for this long; after it,
 * pages may have been charged that no event shows */
#define ATTR_ZERO_FRESH_NS 1000000000ULL

/* Stand-in memcgs for tasks of a trace that names none: ids above any
 * kernel's cgroup id and below the builder's synthetic ones (state.c) */
#define ATTR_STANDIN_ID_BASE (1ULL << 62)

enum fit rr_attr_list_fits(const struct rr_memcg *m, int lru, int priority, uint64_t now)
{
	uint64_t pages = rr_memcg_lru_pages(m, lru);
	uint64_t since = m->sizes_snap_ns ? m->sizes_snap_ns : m->created_ns;

	if (m->standin)
		return FIT_MAYBE;
	if (pages && (priority < 0 || priority > RR_DEF_PRIORITY || (pages >> priority)))
		return FIT_YES;
	if (!since || m->task_in_ns > since)
		return FIT_MAYBE;	/* never read, or a task came since */
	/* no task was in it since its sizes were read: nothing was charged
	 * to it (charges go to the charging task's memcg; swap-ins aside) */
	if ((m->created_ns || m->tasks_known) && !m->nr_tasks)
		return FIT_NO;
	/* an empty or small list read a moment ago */
	if (now >= since && now - since <= ATTR_ZERO_FRESH_NS)
		return FIT_UNLIKELY;
	return FIT_MAYBE;
}

/* Is there surely no swap (the option, or the recorder's meta)? */
bool rr_attr_swap_absent(const struct rr_builder *b)
{
	return b->opts.swap_present == 0 ||
	       (b->opts.swap_present < 0 && b->stats.swap_from_meta == 0);
}

/* The memcg after @m in the pre-order walk of @root's subtree, or NULL. */
struct rr_memcg *rr_attr_walk_next(struct rr_memcg *root, struct rr_memcg *m)
{
	struct rr_memcg *n = rr_preorder_next(m);

	return n && rr_memcg_is_ancestor(root, n) ? n : NULL;
}

/* A stand-in memcg for @pid (the trace names none): under the root. */
static struct rr_memcg *standin(struct rr_builder *b, int pid)
{
	char path[48];
	struct rr_memcg *m = rr_state_memcg(&b->st, ATTR_STANDIN_ID_BASE + (uint64_t)(unsigned int)pid);

	if (!m)
		return NULL;
	if (!m->standin) {
		m->standin = true;
		snprintf(path, sizeof(path), "/(memcg of pid %d)", pid);
		if (rr_state_name(&b->st, m, path))
			return NULL;
		rr_memcg_mut(&b->st, m)->online = true;
	}
	return m;
}

/* Does the state know any memcg of the trace (not a stand-in)? */
static bool memcgs_known(const struct rr_builder *b)
{
	struct rr_memcg *m, *tmp;

	HASH_ITER(hh, b->st.by_id, m, tmp)
		if (!m->standin && m->id != RR_ROOT_MEMCG_ID)
			return true;
	return false;
}

/* @m's usage as its last snapshot's hierarchical sizes give it, in
 * thousandths of its limit; 0 when not known */
static uint64_t usage_permille(const struct rr_memcg *m, uint64_t page)
{
	uint64_t pages = 0;

	if (m->limit_bytes <= 0 || !m->v.rstat_valid)
		return 0;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		pages += m->v.rstat_lru[l];
	return pages * page / ((uint64_t)m->limit_bytes / 1000 + 1);
}

/*
 * The memcg whose limit a limit reclaim of a task in @m is for: the
 * lowest of @m and its ancestors with a limit whose usage, as the last
 * snapshot's hierarchical sizes give it, is within a tenth of that limit
 * (try_charge_memcg(): mem_over_limit is the counter that failed); else
 * the lowest with a limit; else @m.
 */
static struct rr_memcg *over_limit(const struct rr_builder *b, struct rr_memcg *m)
{
	uint64_t page = b->page_size_bytes ? b->page_size_bytes : 4096;
	struct rr_memcg *lowest = NULL;

	for (struct rr_memcg *a = m; a; a = a->parent) {
		if (a->limit_bytes <= 0)
			continue;
		if (!lowest)
			lowest = a;
		if (usage_permille(a, page) >= 900)
			return a;
	}
	return lowest ? lowest : m;
}

/*
 * A limit reclaim whose task's memcg the trace does not give: the memcg
 * with a limit (not the root), the only one, or the one whose last
 * snapshot's usage is nearest its limit; NULL when no memcg has one.
 */
static struct rr_memcg *limited(struct rr_builder *b)
{
	uint64_t page = b->page_size_bytes ? b->page_size_bytes : 4096;
	struct rr_memcg *m, *tmp, *best = NULL;
	uint64_t best_permille = 0;

	/* (once per change of the table or of the snapshots' sizes: a trace of
	 * 10^5 memcgs asks for every episode) */
	if (b->attr_limited_key == b->st.nr_memcgs + (b->stats.attr_snapshot_sizes << 32) + 1)
		return b->attr_limited_id ? rr_state_find(&b->st, b->attr_limited_id) : NULL;
	HASH_ITER(hh, b->st.by_id, m, tmp) {
		uint64_t pm;

		if (m->limit_bytes <= 0 || m->id == RR_ROOT_MEMCG_ID || m->release_ns)
			continue;
		pm = usage_permille(m, page);
		if (!best || pm > best_permille || (pm == best_permille && m->id < best->id)) {
			best = m;
			best_permille = pm;
		}
	}
	b->attr_limited_key = b->st.nr_memcgs + (b->stats.attr_snapshot_sizes << 32) + 1;
	b->attr_limited_id = best ? best->id : 0;
	return best;
}

/* The reclaim root of @t's episode, and whether it is a stand-in. */
struct rr_memcg *rr_attr_target(struct rr_builder *b, const struct rr_episode *ep, int pid,
				uint8_t *basis)
{
	struct rr_memcg *m = NULL;

	*basis = RR_ATTR_WALK;
	if (ep->target_memcg_id && (m = rr_state_memcg(&b->st, ep->target_memcg_id)))
		return m;	/* the begin event named it */
	if (ep->kind == RR_KIND_PROACTIVE && ep->proactive_memcg_id)
		return rr_state_find(&b->st, ep->proactive_memcg_id);
	if (ep->kind == RR_KIND_MEMCG || ep->kind == RR_KIND_PROACTIVE) {
		uint64_t id = rr_task_memcg(b, pid);

		m = id ? rr_state_find(&b->st, id) : NULL;
		if (m)
			return over_limit(b, m);
		if ((m = limited(b)))
			return m;
		if (!memcgs_known(b)) {
			*basis = RR_ATTR_ASSUMED;
			return standin(b, pid);
		}
	}
	/* global reclaim, soft limit reclaim (a memcg of the whole tree), or a
	 * limit reclaim whose task's memcg is not known: the whole tree */
	m = rr_state_find(&b->st, RR_ROOT_MEMCG_ID);
	if (!m && memcgs_known(b) && rr_kind_global(ep->kind)) {
		/* (the root exists, whether the trace names it or not) */
		m = rr_state_memcg(&b->st, RR_ROOT_MEMCG_ID);
		if (m && !m->named && rr_state_name(&b->st, m, "/"))
			return NULL;
		return m;
	}
	if (!memcgs_known(b)) {
		/* nothing names a memcg: the root stands for all (one lruvec, as
		 * without CONFIG_MEMCG) */
		if (!m)
			m = rr_state_memcg(&b->st, RR_ROOT_MEMCG_ID);
		if (m && !m->named && rr_state_name(&b->st, m, "/"))
			return NULL;
		if (m) {
			m->standin = true;
			rr_memcg_mut(&b->st, m)->online = true;
		}
		*basis = RR_ATTR_ASSUMED;
	}
	return m;
}
