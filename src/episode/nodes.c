// SPDX-License-Identifier: GPL-2.0-only
/*
 * Zone, node and vm state of the recorder's snapshots, and the memcgs'
 * hierarchical sizes (see nodes.h).  Each node keeps every snapshot it
 * had, oldest first (a few hundred bytes each), so that a decision can read
 * the one before it; each memcg keeps its latest line only.
 */
#include "nodes.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "state.h"
#include <reclaim-replay/policy.h>	/* RR_SWAP_CLUSTER_MAX */

static struct rr_nodes *nodes_of(struct rr_state *st)
{
	if (!st->nodes) {
		st->nodes = calloc(1, sizeof(*st->nodes));
		if (!st->nodes)
			st->oom = true;
	}
	return st->nodes;
}

static void node_reset(struct rr_node_snapshot *n, int nid)
{
	memset(n, 0, sizeof(*n));
	n->nid = nid;
	for (int z = 0; z < RR_MARKER_MAX_ZONES; z++)
		n->zones[z].zid = -1;
	n->node.nid = -1;
}

/* The history of @nid, grown to hold it; NULL for ids out of range or on
 * out of memory (st->oom set). */
static struct rr_node_hist *hist(struct rr_state *st, long long nid)
{
	struct rr_nodes *ns = nodes_of(st);

	if (!ns || nid < 0 || nid >= RR_MAX_NODES)
		return NULL;
	if (nid >= ns->nr_nodes) {
		struct rr_node_hist *nn = realloc(ns->nodes, (size_t)(nid + 1) * sizeof(*nn));

		if (!nn) {
			st->oom = true;
			return NULL;
		}
		for (long long i = ns->nr_nodes; i <= nid; i++) {
			memset(&nn[i], 0, sizeof(nn[i]));
			node_reset(&nn[i].cur, (int)i);
		}
		ns->nodes = nn;
		ns->nr_nodes = (int)nid + 1;
	}
	return &ns->nodes[nid];
}

int rr_nodes_snapshot_begin(struct rr_state *st, uint64_t ts_ns)
{
	struct rr_nodes *ns = nodes_of(st);

	(void)ts_ns;
	if (!ns)
		return -1;
	ns->seq++;
	/* zone lines of a snapshot cut before its node line are dropped */
	for (int i = 0; i < ns->nr_nodes; i++) {
		node_reset(&ns->nodes[i].cur, i);
		ns->nodes[i].cur_used = false;
	}
	return 0;
}

int rr_nodes_vm(struct rr_state *st, const struct rr_marker_vm *vm, uint64_t ts_ns)
{
	struct rr_nodes *ns = nodes_of(st);

	(void)ts_ns;
	if (!ns)
		return -1;
	ns->vm = *vm;
	ns->vm.malformed = NULL;
	ns->vm_known = true;
	return 0;
}

int rr_nodes_zone(struct rr_state *st, const struct rr_marker_zone *z, uint64_t ts_ns)
{
	struct rr_node_hist *h;

	(void)ts_ns;
	if (z->zid < 0 || z->zid >= RR_MARKER_MAX_ZONES)
		return 0;
	h = hist(st, z->nid);
	if (!h)
		return st->oom ? -1 : 0;
	h->cur.zones[z->zid] = *z;
	h->cur.zones[z->zid].malformed = NULL;
	h->cur_used = true;
	return 0;
}

int rr_nodes_node(struct rr_state *st, const struct rr_marker_node *n, uint64_t ts_ns)
{
	struct rr_node_hist *h = hist(st, n->nid);
	struct rr_node_snapshot *s;
	int seen = 0;

	if (!h)
		return st->oom ? -1 : 0;
	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 16;
		struct rr_node_snapshot *ns = realloc(h->snaps, cap * sizeof(*ns));

		if (!ns) {
			st->oom = true;
			return -1;
		}
		h->snaps = ns;
		h->cap = cap;
	}
	s = &h->snaps[h->nr++];
	*s = h->cur;
	s->nid = (int)n->nid;
	s->ts_ns = ts_ns;
	s->node = *n;
	s->node.malformed = NULL;
	for (int z = 0; z < RR_MARKER_MAX_ZONES; z++)
		seen += s->zones[z].zid >= 0;
	s->complete = n->zones >= 0 && seen == n->zones;
	node_reset(&h->cur, (int)n->nid);
	h->cur_used = false;
	return 0;
}

int rr_nodes_memcg(struct rr_state *st, const struct rr_marker_memcg *mc, uint64_t ts_ns)
{
	struct rr_nodes *ns;
	struct rr_hier_rec *r;
	uint64_t id;

	if (!mc->hier_known || mc->id <= 0)
		return 0;
	ns = nodes_of(st);
	if (!ns)
		return -1;
	id = (uint64_t)mc->id;
	HASH_FIND(hh, ns->by_id, &id, sizeof(id), r);
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r) {
			st->oom = true;
			return -1;
		}
		r->id = id;
		HASH_ADD(hh, ns->by_id, id, sizeof(r->id), r);
	}
	r->seq = ns->seq;
	r->ts_ns = ts_ns;
	memcpy(r->hier, mc->hier_pages, sizeof(r->hier));
	memcpy(r->local, mc->lru_pages, sizeof(r->local));
	return 0;
}

/* ---- readers ---- */

static const struct rr_node_hist *hist_of(const struct rr_state *st, int nid)
{
	const struct rr_nodes *ns = st->nodes;

	if (!ns || nid < 0 || nid >= ns->nr_nodes || !ns->nodes[nid].nr)
		return NULL;
	return &ns->nodes[nid];
}

const struct rr_node_snapshot *rr_state_node(const struct rr_state *st, int nid)
{
	const struct rr_node_hist *h = hist_of(st, nid);

	return h ? &h->snaps[h->nr - 1] : NULL;
}

const struct rr_node_snapshot *rr_state_node_at(const struct rr_state *st, int nid,
						uint64_t ts_ns)
{
	const struct rr_node_hist *h = hist_of(st, nid);
	size_t lo = 0, hi;

	if (!h)
		return NULL;
	/* the first snapshot after @ts_ns (times ascend: the trace's order) */
	hi = h->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->snaps[mid].ts_ns <= ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &h->snaps[lo - 1] : NULL;
}

const struct rr_marker_vm *rr_state_vm(const struct rr_state *st)
{
	return st->nodes && st->nodes->vm_known ? &st->nodes->vm : NULL;
}

long long rr_node_kswapd_nr_to_reclaim(const struct rr_node_snapshot *n, int reclaim_idx)
{
	long long sum = 0;

	if (!n || !n->complete || reclaim_idx < 0)
		return -1;
	for (int z = 0; z <= reclaim_idx && z < RR_MARKER_MAX_ZONES; z++) {
		const struct rr_marker_zone *zn = &n->zones[z];

		if (zn->zid < 0 || zn->managed == 0)
			continue;	/* no managed pages (managed_zone() false) */
		if (zn->high < 0 || zn->managed < 0)
			return -1;
		sum += zn->high > (long long)RR_SWAP_CLUSTER_MAX ? zn->high :
		       (long long)RR_SWAP_CLUSTER_MAX;
	}
	return sum;
}

/* Zone @zn's high watermark without boost and at its largest, pages;
 * false without the figures. */
static bool zone_high_range(const struct rr_marker_zone *zn, long long *lo, long long *hi)
{
	long long base, boost;

	if (zn->high < 0 || zn->boost < 0)
		return false;
	base = zn->high - zn->boost;
	if (base < 0)
		base = 0;
	boost = base * RR_BOOST_FACTOR_DEFAULT / 10000;
	if (boost < RR_PAGEBLOCK_PAGES)
		boost = RR_PAGEBLOCK_PAGES;
	*lo = base;
	*hi = base + boost;
	return true;
}

int rr_node_kswapd_nr_to_reclaim_range(const struct rr_node_snapshot *n, int reclaim_idx,
				       long long *lo, long long *hi)
{
	*lo = *hi = 0;
	if (!n || !n->complete || reclaim_idx < 0)
		return -1;
	for (int z = 0; z <= reclaim_idx && z < RR_MARKER_MAX_ZONES; z++) {
		const struct rr_marker_zone *zn = &n->zones[z];
		long long a, b;

		if (zn->zid < 0 || zn->managed == 0)
			continue;
		if (zn->managed < 0 || !zone_high_range(zn, &a, &b))
			return -1;
		*lo += a > (long long)RR_SWAP_CLUSTER_MAX ? a : (long long)RR_SWAP_CLUSTER_MAX;
		*hi += b > (long long)RR_SWAP_CLUSTER_MAX ? b : (long long)RR_SWAP_CLUSTER_MAX;
	}
	return 0;
}

/* The sum over @n's zones with managed pages of @val of each (-1 when
 * @n is NULL or incomplete, or @val of a zone is below 0). */
static long long zones_sum(const struct rr_node_snapshot *n,
			   long long (*val)(const struct rr_marker_zone *))
{
	long long sum = 0, v;

	if (!n || !n->complete)
		return -1;
	for (int z = 0; z < RR_MARKER_MAX_ZONES; z++) {
		const struct rr_marker_zone *zn = &n->zones[z];

		if (zn->zid < 0 || zn->managed == 0)
			continue;
		if ((v = val(zn)) < 0)
			return -1;
		sum += v;
	}
	return sum;
}

static long long high_most(const struct rr_marker_zone *zn)
{
	long long a, b;

	return zone_high_range(zn, &a, &b) ? b : -1;
}

static long long managed(const struct rr_marker_zone *zn)
{
	return zn->managed;
}

long long rr_node_high_sum_most(const struct rr_node_snapshot *n)
{
	return zones_sum(n, high_most);
}

long long rr_node_managed_pages(const struct rr_node_snapshot *n)
{
	return zones_sum(n, managed);
}

int rr_node_tiny_inputs(const struct rr_node_snapshot *n, struct rr_node_tiny *out)
{
	uint64_t high = 0, zone_free = 0;
	bool zone_free_known = true;

	memset(out, 0, sizeof(*out));
	if (!n || !n->complete || n->node.nr_active_file < 0 || n->node.nr_inactive_file < 0 ||
	    n->node.nr_inactive_anon < 0)
		return -1;
	for (int z = 0; z < RR_MARKER_MAX_ZONES; z++) {
		const struct rr_marker_zone *zn = &n->zones[z];

		if (zn->zid < 0 || zn->managed == 0)
			continue;
		if (zn->high < 0)
			return -1;
		high += (uint64_t)zn->high;
		if (zn->free < 0)
			zone_free_known = false;
		else
			zone_free += (uint64_t)zn->free;
	}
	/* sum_zone_node_page_state(NR_FREE_PAGES): the node's own count, or
	 * the zones' where a node line lacks it */
	if (n->node.nr_free_pages >= 0)
		out->free = (uint64_t)n->node.nr_free_pages;
	else if (zone_free_known)
		out->free = zone_free;
	else
		return -1;
	out->file = (uint64_t)(n->node.nr_active_file + n->node.nr_inactive_file);
	out->high_sum = high;
	out->inactive_anon = (uint64_t)n->node.nr_inactive_anon;
	return 0;
}

int rr_state_dying_bound(const struct rr_state *st, const struct rr_memcg *m,
			 uint64_t out[RR_NR_LRU], uint64_t *ts_ns)
{
	const struct rr_nodes *ns = st->nodes;
	const struct rr_hier_rec *r;
	int64_t sum[RR_NR_LRU];

	memset(out, 0, RR_NR_LRU * sizeof(*out));
	if (!ns || !m || st->memory_root < 0)
		return -1;
	HASH_FIND(hh, ns->by_id, &m->id, sizeof(m->id), r);
	if (!r)
		return -1;
	for (int l = 0; l < RR_NR_LRU; l++)
		sum[l] = (int64_t)r->hier[l] - (st->memory_root > 0 ? (int64_t)r->local[l] : 0);
	for (int i = 0; i < m->nr_children; i++) {
		const struct rr_hier_rec *c;

		HASH_FIND(hh, ns->by_id, &m->children[i]->id, sizeof(m->children[i]->id), c);
		if (!c || c->seq != r->seq)
			continue;	/* not visible in that snapshot: dying or later */
		for (int l = 0; l < RR_NR_LRU; l++)
			sum[l] -= (int64_t)c->hier[l];
	}
	for (int l = 0; l < RR_NR_LRU; l++)
		out[l] = sum[l] > 0 ? (uint64_t)sum[l] : 0;
	if (ts_ns)
		*ts_ns = r->ts_ns;
	return 0;
}
