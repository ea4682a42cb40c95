// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inference of the inputs a trace does not give (docs/kernel-model.md
 * §8.2, §14), each labelled where it is output:
 *  - the reclaim root of an episode: the lowest common ancestor of the
 *    memcgs it scanned and the task's memcg, raised to the nearest memcg
 *    with a limit when the recorder's snapshot knows the limits;
 *  - nr_to_reclaim, from the checkpoints where reclaim went on or stopped;
 *  - swap presence: the option, the recorder's meta marker, or whether
 *    memcg reclaim isolated inactive anon pages earlier in the trace;
 *  - whether a memcg of the walk was inside the rmdir -> offline window;
 *  - start sizes of memcgs that predate the trace, raised by the isolate
 *    bound nr_requested << priority of their batches.
 */
#include "episode-local.h"
#include "nodes.h"

/* The lowest common ancestor of the memcgs @ep's batches scanned; NULL
 * when none was attributed.  What a memory.reclaim call's root is bounded
 * by: the writer's own memcg and the limits say nothing of it. */
struct rr_memcg *rr_infer_batches_root(struct rr_builder *b, const struct rr_episode *ep)
{
	struct rr_memcg *root = NULL;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		struct rr_memcg *m = ep->batches[i].memcg_id ?
				     rr_state_find(&b->st, ep->batches[i].memcg_id) : NULL;

		if (m)
			root = rr_memcg_lca(root, m);
	}
	return root;
}

static struct rr_memcg *reclaim_root(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *root = NULL;
	bool spans = false;

	/* the recorder's probe read scan_control's target_mem_cgroup (probe.c) */
	if (ep->probed && ep->probe_root_id && ep->kind != RR_KIND_PROACTIVE &&
	    (root = rr_state_find(&b->st, ep->probe_root_id)))
		return root;

	/* global reclaim walks the whole tree from the root memcg
	 * (target_mem_cgroup NULL: shrink_node_memcgs() starts at the root) */
	if (rr_kind_global(ep->kind))
		return rr_state_memcg(&b->st, RR_ROOT_MEMCG_ID);
	/* a v1 soft-limit call reclaims from its victim alone */
	if (ep->kind == RR_KIND_SOFTLIMIT && ep->nr_batches && ep->batches[0].memcg_id)
		return rr_state_find(&b->st, ep->batches[0].memcg_id);
	/* memory.reclaim reclaims from the memcg written to, whoever writes:
	 * the recorder's marker names it; without, the scanned memcgs bound it */
	if (ep->kind == RR_KIND_PROACTIVE && ep->proactive_memcg_id)
		return rr_state_find(&b->st, ep->proactive_memcg_id);
	if (ep->proactive && ep->proactive->proactive_memcg_id)
		return rr_state_find(&b->st, ep->proactive->proactive_memcg_id);
	if (ep->task_memcg_id && ep->kind != RR_KIND_PROACTIVE && !ep->proactive)
		root = rr_state_find(&b->st, ep->task_memcg_id);
	for (size_t i = 0; i < ep->nr_batches; i++) {
		struct rr_memcg *m;

		if (!ep->batches[i].memcg_id)
			continue;
		m = rr_state_find(&b->st, ep->batches[i].memcg_id);
		if (m) {
			spans |= root && root != m;
			root = rr_memcg_lca(root, m);
		}
	}
	if (root && spans && ep->kind == RR_KIND_MEMCG && !ep->proactive)
		root->spanned_root = true;
	/*
	 * A charge hits the limit of the memcg or of an ancestor, and that one
	 * is the reclaim root: when the snapshot knows the limits, climb from
	 * the LCA to the nearest memcg with one (the task's own memcg may be
	 * unknown: a forked child has no cgroup_attach_task event).
	 */
	if (root && ep->kind == RR_KIND_MEMCG && !ep->proactive && b->stats.snapshot_memcgs) {
		struct rr_memcg *a = root;

		while (a && a->limit_bytes <= 0 && a->parent)
			a = a->parent;
		if (a && a->limit_bytes > 0) {
			/* the charge fails at the first counter over its limit
			 * (page_counter_try_charge(), from the memcg up): a
			 * limited ancestor further up may have been the one, as
			 * the snapshot has no usage */
			for (struct rr_memcg *u = a->parent;
			     u && u->parent && ep->nr_root_alternatives < 4; u = u->parent)
				if (u->limit_bytes > 0)
					ep->root_alternatives[ep->nr_root_alternatives++] = u->id;
			return a;
		}
	}
	/*
	 * Otherwise the limit that was hit may be an ancestor's: the ones
	 * made in the trace (a workload's parent) or seen spanning another
	 * episode's batches are admissible too; the fidelity check tries each.
	 */
	if (root && ep->kind == RR_KIND_MEMCG && !ep->proactive)
		for (struct rr_memcg *a = root->parent;
		     a && a->parent && ep->nr_root_alternatives < 4; a = a->parent)
			if (a->created_ns || a->spanned_root)
				ep->root_alternatives[ep->nr_root_alternatives++] = a->id;
	return root;
}

/*
 * Inside one shrink_lruvec() call: every round that another round followed
 * without a cut says T > the call's own reclaim at that point (the third
 * checkpoint).  Once its own reclaim reaches T, shrink_lruvec() stops
 * unless both types still have targets (then it cuts them and goes on), so
 * the bound holds only where the other type had none: a call that scanned
 * both types is never used (a cut, v6.1+, is followed by one more round),
 * nor one whose other type's active list could have had a target that left
 * no batch (its deactivation skipped: the recorded batches are of one type,
 * yet the kernel's nr_file or nr_anon was not 0).  That list's target is 0
 * for sure only when size >> priority is 0 in an online memcg (no offline
 * scrape), and, unless the memcg is known to be unprotected, 32 >> priority
 * is 0 too (memory.min/low raise a target to at least SWAP_CLUSTER_MAX
 * before the shift, get_scan_count()).
 */
static uint64_t call_round_bound(const struct rr_episode *ep, size_t i, size_t j)
{
	uint64_t local = 0, low = 0;
	bool anon = false, file = false;
	const struct rr_batch_ctx *c = ep->ctx ? &ep->ctx[i] : NULL;
	int other_active, prio = ep->batches[i].priority;

	for (size_t k = i; k < j; k++) {
		anon |= !rr_lru_is_file(ep->batches[k].lru);
		file |= rr_lru_is_file(ep->batches[k].lru);
	}
	if (anon && file)
		return 0;
	other_active = anon ? RR_LRU_ACTIVE_FILE : RR_LRU_ACTIVE_ANON;
	if (!c || !c->valid || !c->online || c->in_window || prio < 0 || prio > RR_DEF_PRIORITY ||
	    c->lru_pages[other_active] >> prio ||
	    (!c->unprotected && (RR_SWAP_CLUSTER_MAX >> prio)))
		return 0;
	for (size_t k = i; k < j; k++) {
		/* a new round starts when the list index does not grow */
		if (k > i && ep->batches[k].lru <= ep->batches[k - 1].lru && local > low)
			low = local;
		local += ep->batches[k].nr_reclaimed;
	}
	return low;
}

/*
 * kswapd_shrink_node()'s nr_to_reclaim: the sum over the zones up to the
 * run's highest zone index of max(high watermark, SWAP_CLUSTER_MAX), from
 * the recorder's zone lines (the snapshot before the run, else the first
 * after it; boosts between snapshots are not seen).  The zone index: the
 * wake's zid, else the isolates' classzone, else every zone.  0 where no
 * zone line is in the trace.
 */
static void kswapd_nr_to_reclaim(struct rr_builder *b, struct rr_episode *ep)
{
	const struct rr_node_snapshot *n;
	int idx = ep->classzone;
	long long t;

	for (size_t i = 0; idx < 0 && i < ep->nr_batches; i++)
		idx = ep->batches[i].classzone;
	n = rr_state_node_at(&b->st, ep->nid, ep->start_ns);
	if (!n)
		n = rr_state_node(&b->st, ep->nid);
	t = rr_node_kswapd_nr_to_reclaim(n, idx >= 0 ? idx : RR_MARKER_MAX_ZONES);
	ep->nr_to_reclaim_pages = t > 0 ? (uint64_t)t : 0;
	ep->nr_to_reclaim_basis = t > 0 ? "kswapd-watermarks" : "none";
	/* a user's /proc/zoneinfo copy (--zoneinfo) holds the boosts of
	 * another time: the replay takes the copy's, the check every boost
	 * the zones can have held (both ends, (low, high] = [lo - 1, hi]) */
	if (t > 0 && !strcmp(n->node.source, RR_NODE_SOURCE_ZONEINFO_COPY)) {
		long long lo, hi;

		ep->nr_to_reclaim_basis = "kswapd-zoneinfo-copy";
		if (!rr_node_kswapd_nr_to_reclaim_range(n, idx >= 0 ? idx : RR_MARKER_MAX_ZONES,
							&lo, &hi) && lo > 0 && hi >= lo) {
			ep->nr_to_reclaim_low = (uint64_t)lo - 1;
			ep->nr_to_reclaim_high = (uint64_t)hi;
		}
	}
}

/*
 * nr_to_reclaim from the checkpoints: every priority pass that was
 * followed by another says T > cumulative reclaim at its end; the last
 * pass, if reclaim stopped above priority 0 with some reclaim, says
 * T <= total.  Take the smallest max(2^k, 32) inside the interval.
 */
static void infer_nr_to_reclaim(struct rr_builder *b, struct rr_episode *ep, bool partial_walk)
{
	uint64_t low = 0, cum = 0, total = ep->recorded_nr_reclaimed;
	int prio = -1, last_prio = -1;
	bool upper = false;

	/* checkpoints inside calls, and (v6.11+) between the memcgs of a pass */
	for (size_t i = 0; i < ep->nr_batches;) {
		size_t j = i;
		uint64_t bound;

		while (j < ep->nr_batches && ep->batches[j].memcg_id == ep->batches[i].memcg_id &&
		       ep->batches[j].priority == ep->batches[i].priority)
			j++;
		bound = call_round_bound(ep, i, j);
		if (bound > low)
			low = bound;
		for (size_t k = i; k < j; k++)
			cum += ep->batches[k].nr_reclaimed;
		if (partial_walk && j < ep->nr_batches &&
		    ep->batches[j].priority == ep->batches[i].priority && cum > low)
			low = cum;	/* the walk went on to another memcg */
		i = j;
	}
	cum = 0;

	if (ep->kind == RR_KIND_SOFTLIMIT) {
		ep->nr_to_reclaim_pages = RR_SWAP_CLUSTER_MAX;	/* mem_cgroup_shrink_node() */
		ep->nr_to_reclaim_basis = "v1-softlimit";
		return;
	}
	if (ep->kind == RR_KIND_DIRECT) {
		ep->nr_to_reclaim_pages = RR_SWAP_CLUSTER_MAX;	/* try_to_free_pages() */
		ep->nr_to_reclaim_basis = "direct";
		return;
	}
	if (ep->kind == RR_KIND_NODE) {
		/* __node_reclaim(): max(1 << order, SWAP_CLUSTER_MAX) */
		uint64_t want = ep->order >= 0 && ep->order < 40 ? 1ULL << ep->order : 0;

		ep->nr_to_reclaim_pages = want > RR_SWAP_CLUSTER_MAX ? want : RR_SWAP_CLUSTER_MAX;
		ep->nr_to_reclaim_basis = ep->order >= 0 ? "node-order" : "none";
		return;
	}
	if (ep->kind == RR_KIND_KSWAPD) {
		kswapd_nr_to_reclaim(b, ep);
		return;
	}
	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_batch *bt = &ep->batches[i];

		if (bt->priority < 0)
			continue;
		if (prio >= 0 && bt->priority != prio && cum > low)
			low = cum;	/* the pass at `prio` did not stop reclaim */
		prio = bt->priority;
		cum += bt->nr_reclaimed;
		last_prio = prio;
	}
	/* stopped above priority 0 with some reclaim: the goal was met */
	if (total > 0 && last_prio > 0)
		upper = true;
	ep->nr_to_reclaim_low = low;
	ep->nr_to_reclaim_high = upper ? total : 0;
	if (rr_nr_to_reclaim_fits(low, ep->nr_to_reclaim_high, UINT64_MAX,
				  &ep->nr_to_reclaim_pages, 1)) {
		ep->nr_to_reclaim_basis = upper ? "fit" : "lower-bound";
		return;
	}
	ep->nr_to_reclaim_pages = RR_SWAP_CLUSTER_MAX;
	ep->nr_to_reclaim_basis = "none";
}

size_t rr_nr_to_reclaim_fits(uint64_t low, uint64_t high, uint64_t stop_above, uint64_t *out,
			     size_t cap)
{
	size_t n = 0;

	for (uint64_t c = RR_SWAP_CLUSTER_MAX; c <= (1ULL << 40) && n < cap; c *= 2) {
		if (c <= low)
			continue;
		if (high && c > high)
			break;
		out[n++] = c;
		if (c > stop_above)
			break;
	}
	return n;
}

/* Is a memcg of @root's subtree, as it was at the episode's start, inside
 * the rmdir -> offline window at that start? */
static bool walk_in_window(const struct rr_builder *b, const struct rr_episode *ep,
			   const struct rr_memcg *m)
{
	bool window = false;

	if (!rr_memcg_in_epoch(m, ep->epoch))
		return false;
	rr_vals_online_at(rr_memcg_at(m, ep->epoch), ep->start_ns, b->opts.offline_delay_ns,
			  &window);
	for (int i = 0; i < m->nr_children && !window; i++)
		window = walk_in_window(b, ep, m->children[i]);
	return window;
}

/*
 * The passes of @ep as its probes read them (sim.h struct rr_sim_pass): a
 * pass begins at the walk's first memcg, the reclaim root, or where the
 * priority changes; its switches and the root's cost pair are those of
 * its first probe (scan_control holds them for the whole pass).  A memcg
 * call's pass also gets the pages credited beyond its LRU batches: the next
 * pass's nr_reclaimed at its start (or the end event's count, after the
 * last) less this one's and less what its batches reclaimed.  Return -1 on
 * ENOMEM.
 */
static int probe_passes(struct rr_episode *ep)
{
	size_t *first = NULL, np = 0;
	uint64_t *lru = NULL;

	ep->nr_passes = 0;
	first = malloc(ep->nr_probes * sizeof(*first));
	if (!first)
		return -1;
	for (size_t k = 0; k < ep->nr_probes; k++) {
		const struct rr_lruvec_probe *p = &ep->probes[k];
		int prio = (int)p->v[RR_PF_PRIORITY];
		struct rr_sim_pass *ps;

		if (!rr_probe_has(p, RR_PF_MAY_DEACTIVATE) || !rr_probe_has(p, RR_PF_CACHE_TRIM_MODE))
			continue;
		if (k && prio == (int)ep->probes[k - 1].v[RR_PF_PRIORITY] &&
		    p->v[RR_PF_CGROUP_ID] != ep->root_memcg_id)
			continue;
		if (ep->nr_passes == ep->cap_passes) {
			size_t cap = ep->cap_passes ? ep->cap_passes * 2 : 16;
			struct rr_sim_pass *np2 = realloc(ep->passes, cap * sizeof(*np2));

			if (!np2) {
				free(first);
				return -1;
			}
			ep->passes = np2;
			ep->cap_passes = cap;
		}
		first[ep->nr_passes] = k;
		ps = &ep->passes[ep->nr_passes++];
		memset(ps, 0, sizeof(*ps));
		ps->priority = prio;
		ps->may_deactivate = (uint8_t)p->v[RR_PF_MAY_DEACTIVATE];
		ps->cache_trim_mode = p->v[RR_PF_CACHE_TRIM_MODE];
		ps->file_is_tiny = p->v[RR_PF_FILE_IS_TINY];
		ps->anon_cost = p->v[RR_PF_ANON_COST];
		ps->file_cost = p->v[RR_PF_FILE_COST];
	}
	np = ep->nr_passes;
	/* the credit beyond the batches: memcg calls (kswapd's scan_control
	 * starts afresh each iteration) whose probes read nr_reclaimed */
	if (ep->kind != RR_KIND_MEMCG || !np || !ep->has_nr_reclaimed || !ep->ctx ||
	    !rr_probe_has(&ep->probes[0], RR_PF_NR_RECLAIMED)) {
		free(first);
		return 0;
	}
	lru = calloc(np, sizeof(*lru));
	if (!lru) {
		free(first);
		return -1;
	}
	/* each batch to the pass of its probe (passes are in probe order) */
	for (size_t i = 0, k = 0; i < ep->nr_batches; i++) {
		size_t pi = ep->ctx[i].probe;

		if (!pi)
			continue;
		while (k + 1 < np && first[k + 1] < pi)
			k++;
		lru[k] += ep->batches[i].nr_reclaimed;
	}
	for (size_t k = 0; k < np; k++) {
		uint64_t at = ep->probes[first[k]].v[RR_PF_NR_RECLAIMED];
		uint64_t next = k + 1 < np ? ep->probes[first[k + 1]].v[RR_PF_NR_RECLAIMED] :
			       ep->recorded_nr_reclaimed;

		ep->passes[k].slab_pages = next > at + lru[k] ? next - at - lru[k] : 0;
	}
	free(lru);
	free(first);
	return 0;
}

void rr_infer_episode(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *root = reclaim_root(b, ep);

	ep->root_memcg_id = root ? root->id : 0;
	ep->root_path = root ? root->path : NULL;
	/* another task's batch under the root while this one ran: their walks
	 * shared the cursor, in an order the trace does not give */
	if (root) {
		uint64_t other_ns = root->visit_pid != ep->pid ? root->visit_ns :
				    root->visit_other_ns;

		ep->walk_interleaved = other_ns && other_ns >= ep->start_ns;
	}
	ep->swap_inferred_present = b->opts.swap_present >= 0 ? b->opts.swap_present :
				    b->stats.swap_from_meta >= 0 ? b->stats.swap_from_meta :
				    b->anon_scanned_seen;
	ep->swap_known = b->opts.swap_present >= 0 || b->stats.swap_from_meta >= 0 ||
			 b->anon_scanned_seen;
	if (ep->kind == RR_KIND_PROACTIVE) {
		/* the request itself, in bytes; the replay converts it with the
		 * traced kernel's page size */
		ep->nr_to_reclaim_basis = "memory.reclaim request";
		ep->nr_to_reclaim_low = ep->nr_to_reclaim_high = 0;
	}
	/* (no rmdir within the delay before the start: no memcg is in its
	 * window, and no walk is needed) */
	ep->in_offline_window = root && b->st.last_rmdir_ns &&
				ep->start_ns < b->st.last_rmdir_ns + b->opts.offline_delay_ns &&
				walk_in_window(b, ep, root);
	if (ep->kind != RR_KIND_PROACTIVE)
		infer_nr_to_reclaim(b, ep, b->opts.partial_walk);
	/* what the recorder's probe read is not inferred (probe.c): the free
	 * swap and the request of the first call; the passes' switches */
	if (ep->probed && ep->nr_probes && ep->kind != RR_KIND_PROACTIVE &&
	    probe_passes(ep))
		b->st.oom = true;
	if (ep->probed && ep->nr_probes) {
		const struct rr_lruvec_probe *p = &ep->probes[0];

		if (rr_probe_has(p, RR_PF_NR_SWAP_PAGES)) {
			ep->swap_inferred_present = (int64_t)p->v[RR_PF_NR_SWAP_PAGES] > 0;
			ep->swap_known = true;
		}
		if (ep->probe_nr_to_reclaim && ep->kind != RR_KIND_PROACTIVE &&
		    ep->kind != RR_KIND_DIRECT) {
			ep->nr_to_reclaim_pages = ep->probe_nr_to_reclaim;
			ep->nr_to_reclaim_low = ep->probe_nr_to_reclaim - 1;
			ep->nr_to_reclaim_high = ep->probe_nr_to_reclaim;
			ep->nr_to_reclaim_basis = "probe";
		}
	}
}

/*
 * No snapshot knows the start size of a memcg that predates the trace:
 * beyond the running sums, the batches bound it.  get_scan_count() gives
 * each list a target of at most size >> priority pages, and every batch of
 * shrink_lruvec() takes min(nr[lru], SWAP_CLUSTER_MAX) off it (the
 * proportional cut only lowers it): the requests of one list in one call
 * add up to at most the target, so size >= their sum << priority at the
 * decision.  An offline memcg (and one in the rmdir -> offline window, or
 * outside the recorder's view) whose size >> priority is 0 is scraped
 * instead, min(size, SWAP_CLUSTER_MAX) once (get_scan_count()'s "scrape
 * out the remaining cache", v4.x to today): there only size >= the sum,
 * unless the size known at the decision (@known_pages, a lower bound)
 * rules the scrape out.  memory.low/min protection (max(scan,
 * SWAP_CLUSTER_MAX)) is not in the trace; the bound assumes none.
 * Return: the least size, pages.
 */
static int64_t least_size(const struct rr_memcg *m, uint64_t requested, int p,
			  int64_t known_pages)
{
	bool offline = !m->v.online || m->v.rmdir_ns || m->online_unknown;

	if (offline && known_pages < ((int64_t)1 << p))
		return (int64_t)requested;
	return (int64_t)requested << p;
}

/*
 * Is the builder's call of @t's batch in flight (a run of batches of one
 * memcg at one priority) surely one shrink_lruvec() call of each lruvec?
 * Then every batch of it, not only the first, bounds the size: the
 * requests of one list add up to at most its target.  kswapd repeats a
 * priority (balance_pgdat() lowers it only when a pass reclaimed too
 * little), and so does should_continue_reclaim() for a costly or
 * compacting order: those runs may hold two calls of one lruvec.  Memcg
 * limit reclaim (order 0), a memory.reclaim call (the batch's call index
 * splits the write) and order-0 direct or node reclaim walk each node's
 * lruvec once per priority.  (Two nodes' calls of one memcg in one run
 * still bound the memcg's total, which is what the sums hold.)
 */
static bool call_is_whole(const struct rr_builder *b, const struct task *t)
{
	const struct rr_episode *ep = t->batch_ep;

	if (!ep || b->stats.attr_inferred)
		return false;
	switch (ep->kind) {
	case RR_KIND_MEMCG:
	case RR_KIND_PROACTIVE:
		return true;
	case RR_KIND_DIRECT:
	case RR_KIND_NODE:
		return ep->order == 0 && t->batch.order <= 0;
	default:
		return false;
	}
}

/*
 * The sizes of the batch in flight's memcg against what its call asked
 * for (least_size()), at the call's decision: the context of the call's
 * first batch.  The call was predicted on those sizes; where they are too
 * small it is not judged (size_disproved).  Where the builder's call (a
 * run of batches of one memcg at one priority) may hold two of the
 * kernel's (kswapd repeating a priority, should_continue_reclaim();
 * call_is_whole()), only its first batch raises them, as a sum over both
 * would raise them too high; elsewhere every batch does (lower bounds
 * only: exact sizes are raised by the first).  Later batches of such a
 * call only mark, with memcg: events and lower bounds
 * (without the events the contexts are taken as a pass is solved, not as
 * each call begins).  Skipped for MGLRU and the anon aging batch.
 */
void rr_infer_isolate_bound(struct rr_builder *b, struct task *t)
{
	struct rr_memcg *m = t->batch.memcg_id ? rr_state_find(&b->st, t->batch.memcg_id) : NULL;
	const struct rr_batch *prev = t->batch_ep && t->batch_index ?
				      &t->batch_ep->batches[t->batch_index - 1] : NULL;
	int p = t->batch.priority, l = t->batch.lru;
	struct rr_batch_ctx *c0;
	int64_t need, most;
	bool first, whole;

	/* the call's records, for every batch of it */
	first = !prev || t->call_ep != t->batch_ep || prev->memcg_id != t->batch.memcg_id ||
		prev->priority != p || prev->call != t->batch.call;
	if (first) {
		t->call_ep = t->batch_ep;
		t->call_first = t->batch_index;
		memset(t->call_requested, 0, sizeof(t->call_requested));
		memcpy(t->call_sums, t->batch_sums, sizeof(t->call_sums));
		t->call_sums_valid = t->batch_sum_valid;
	}
	if (l < 0 || l >= RR_NR_EVICTABLE_LRU)
		return;
	t->call_requested[l] += t->batch.nr_requested;
	/* (an active anon batch may be anon aging, shrink_active_list(32)
	 * after the loop or kswapd_age_node(), whatever the list's size) */
	if (!m || t->batch.mglru || l == RR_LRU_ACTIVE_ANON || p < 0 || p > RR_DEF_PRIORITY ||
	    rr_memcg_protected(m))
		return;
	c0 = t->batch_ep && t->batch_ep->ctx && t->batch_ep->replayable &&
	     t->batch_ep->ctx[t->call_first].valid ? &t->batch_ep->ctx[t->call_first] : NULL;
	/* (other tasks' deltas since the decision: where the builder's ring
	 * does not reach back that far, no bound is taken) */
	if (c0 && c0->conc_unknown)
		return;
	need = least_size(m, t->call_requested[l], p,
			  c0 ? (int64_t)c0->lru_pages[l] + c0->conc_min[l] : 0);
	if (need <= 0)
		return;
	whole = !first && !m->v.baseline_known && call_is_whole(b, t);
	if (!first && !whole) {
		if (c0 && !m->v.baseline_known && !b->stats.attr_inferred &&
		    !c0->size_disproved && (int64_t)c0->lru_pages[l] + c0->conc_max[l] < need) {
			c0->size_disproved = true;
			b->stats.lru_bounds_disproved++;
		}
		return;
	}
	if (!t->call_sums_valid)
		return;
	/* the running sum at the decision was at most the one at the call's
	 * first batch plus what other tasks took before it (their deltas
	 * undone) */
	most = t->call_sums[l] + (c0 ? c0->conc_max[l] : 0);
	/* sizes the deltas gave exactly, yet below what the batch asked for:
	 * the trace missed pages of this memcg (an untraced move, a lost
	 * delta); from here on its size is at least the bound, and the call
	 * is not judged on the sizes it disproved */
	if (m->v.baseline_known) {
		if (!c0 || most >= need)
			return;
		rr_memcg_mut(&b->st, m)->lru_sum[l] += need - most;
		b->stats.lru_sizes_raised++;
		c0->size_disproved = true;
		return;
	}
	/* a start size the trace does not give (no snapshot read the memcg,
	 * or the sizes are the last snapshot's less what the batches took,
	 * without memcg: events): the lower bound rises (unless the batch's
	 * own deltas raised it already: it took more than was known) */
	if (most - need < m->v.lru_low[l]) {
		rr_memcg_mut(&b->st, m)->lru_low[l] = most - need;
		m->lru_from_isolate = true;
		b->stats.lru_isolate_bounds++;
	}
	/* the call was predicted on the bound of its decision, which its own
	 * batch disproves: not judged (the next calls read the raised one) */
	if (c0 && !c0->size_disproved && (int64_t)c0->lru_pages[l] + c0->conc_max[l] < need) {
		c0->size_disproved = true;
		b->stats.lru_bounds_disproved++;
	}
}
