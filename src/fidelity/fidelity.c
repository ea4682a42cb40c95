// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fidelity checks; see fidelity.h (fidelity-local.h names the other
 * files of the check).  A call is the run of consecutive
 * batches of one episode with the same memcg and priority (one node is
 * modelled).  Predictions use the baseline policy's hooks, so a policy
 * plug-in could be scored the same way.
 */
#include "fidelity-local.h"

#include <stdlib.h>
#include <string.h>

/* Per-list totals of a batch sequence. */
static void totals(const struct rr_pred_batch *b, size_t n, uint64_t t[RR_NR_EVICTABLE_LRU])
{
	memset(t, 0, RR_NR_EVICTABLE_LRU * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		if (rr_lru_is_evictable(b[i].lru))
			t[b[i].lru] += b[i].nr_requested;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The root's entry in the captured ancestor chain of batch @i, or NULL. */
static int chain_index(const struct rr_batch_ctx *c, uint64_t root_id)
{
	for (int d = 0; d < c->depth; d++)
		if (c->chain[d].id == root_id)
			return d;
	return -1;
}

/* Describe the first call not exact; return whether the first list that
 * differs is an active one. */
static bool describe(char *buf, size_t len, const struct rr_state *st, uint64_t memcg,
		     int prio, const struct rr_pred_batch *rec, size_t nr_rec,
		     const struct rr_pred_batch *pred, size_t nr_pred)
{
	const struct rr_memcg *m = rr_state_find(st, memcg);
	uint64_t tr[RR_NR_EVICTABLE_LRU], tp[RR_NR_EVICTABLE_LRU];
	int l;

	totals(rec, nr_rec, tr);
	totals(pred, nr_pred, tp);
	for (l = 0; l < RR_NR_EVICTABLE_LRU && tr[l] == tp[l]; l++)
		;
	if (l == RR_NR_EVICTABLE_LRU) {
		snprintf(buf, len, "%s at priority %d: same totals, batches in another order "
			 "(%zu recorded, %zu predicted)", m ? m->path : "?", prio, nr_rec, nr_pred);
		return false;
	}
	snprintf(buf, len, "%s at priority %d: %s recorded %llu pages, predicted %llu",
		 m ? m->path : "?", prio, rr_lru_name(l), (unsigned long long)tr[l],
		 (unsigned long long)tp[l]);
	return rr_lru_is_active(l);
}

static int note_offline(struct rr_fidelity_facts *fx, uint64_t memcg_id, uint64_t ts_ns)
{
	struct rr_offline_seen *o;

	for (size_t i = 0; i < fx->nr_offline_seen; i++)
		if (fx->offline_seen[i].memcg_id == memcg_id)
			return 0;
	o = realloc(fx->offline_seen, (fx->nr_offline_seen + 1) * sizeof(*o));
	if (!o)
		return -1;
	fx->offline_seen = o;
	o[fx->nr_offline_seen++] = (struct rr_offline_seen){ memcg_id, ts_ns };
	return 0;
}

void rr_fidelity_facts_free(struct rr_fidelity_facts *fx)
{
	free(fx->offline_seen);
	fx->offline_seen = NULL;
	fx->nr_offline_seen = 0;
}

/* Was the call inside the rmdir -> offline window judged?  Both online
 * states are predicted: the call is scored only if they agree; if just
 * one matches the recording, that is the state the kernel saw. */

/*
 * The nr_to_reclaim values that fit the episode's checkpoints (low, high]
 * (infer.c): max(2^k, SWAP_CLUSTER_MAX), ascending.  Above the episode's
 * whole reclaim every value acts alike (no call's own reclaim reaches it),
 * so the list ends with the first such one.  Return: how many (<= @cap).
 */
static size_t nr_to_reclaim_candidates(const struct rr_episode *ep, uint64_t *out, size_t cap)
{
	size_t n = 0;

	/* direct and node reclaim: the kernel's rules give it; kswapd: the
	 * zones' watermarks, when recorded (else any value) */
	if (ep->kind != RR_KIND_SOFTLIMIT && ep->kind != RR_KIND_PROACTIVE && !ep->proactive &&
	    ep->kind != RR_KIND_DIRECT && ep->kind != RR_KIND_NODE &&
	    !(ep->kind == RR_KIND_KSWAPD && ep->nr_to_reclaim_pages))
		n = rr_nr_to_reclaim_fits(ep->nr_to_reclaim_low, ep->nr_to_reclaim_high,
					  ep->recorded_nr_reclaimed, out, cap);
	/* kswapd with a /proc/zoneinfo copy's watermarks (--zoneinfo): the
	 * ends of what every boost gives (infer.c) */
	if (ep->kind == RR_KIND_KSWAPD && ep->nr_to_reclaim_pages && ep->nr_to_reclaim_high &&
	    cap >= 2) {
		out[n++] = ep->nr_to_reclaim_low + 1;
		out[n++] = ep->nr_to_reclaim_high;
	}
	if (!n)		/* (the kernel's rules give it, or nothing fits) */
		out[n++] = ep->nr_to_reclaim_pages;
	return n;
}

/* kswapd_age_node() (mm/vmscan.c, v6.1+; age_active_anon() before):
 * shrink_active_list(SWAP_CLUSTER_MAX, active anon) on every memcg in
 * pre-order from the root, each one active anon isolate of 32 pages,
 * empty lists included, before the iteration's walk.  A run of at least
 * two such batches on distinct memcgs that begins at the root memcg is
 * one; return the index after it, or @i when batch @i begins none. */
static size_t age_node_run(const struct rr_episode *ep, size_t i)
{
	size_t j = i;

	while (j < ep->nr_batches && ep->batches[j].lru == RR_LRU_ACTIVE_ANON &&
	       ep->batches[j].nr_requested == RR_SWAP_CLUSTER_MAX &&
	       (j == i ? ep->batches[j].memcg_id == RR_ROOT_MEMCG_ID :
			 ep->batches[j].memcg_id != ep->batches[j - 1].memcg_id &&
			 ep->batches[j].memcg_id != RR_ROOT_MEMCG_ID))
		j++;
	return j - i >= 2 ? j : i;
}

/* Did a call of the pass that began at batch @from visit batch @i's
 * memcg?  (Bounded: past RR_PASS_SCAN_MAX batches back it says no.) */
#define RR_PASS_SCAN_MAX 4096
static bool visited_in_pass(const struct rr_episode *ep, size_t from, size_t i)
{
	uint64_t id = ep->batches[i].memcg_id;

	if (i - from > RR_PASS_SCAN_MAX)
		from = i - RR_PASS_SCAN_MAX;
	/* (the batch right before, of the same memcg, is the same call) */
	for (size_t k = from; k + 1 < i; k++)
		if (ep->batches[k].memcg_id == id && ep->batches[k + 1].memcg_id != id)
			return true;
	return false;
}

/* Score one judged call: @rec recorded against @pred predicted. */
static void score(struct rr_fidelity_facts *fx, const struct rr_state *st, uint64_t memcg_id,
		  int prio, const struct rr_pred_batch *rec, size_t n,
		  const struct rr_pred_batch *pred, size_t nr_pred)
{
	uint64_t tr[RR_NR_EVICTABLE_LRU], tp[RR_NR_EVICTABLE_LRU];
	bool within = true, off1 = true;

	fx->checked++;
	totals(rec, n, tr);
	totals(pred, nr_pred, tp);
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
		within &= absdiff(tr[l], tp[l]) <= RR_SWAP_CLUSTER_MAX;
		off1 &= absdiff(tr[l], tp[l]) <= 1;
	}
	if (rr_fid_same_batches(rec, n, pred, nr_pred)) {
		fx->exact++;
		fx->within_one_batch++;
		return;
	}
	if (off1)
		fx->off_by_one++;
	if (within)
		fx->within_one_batch++;
	else
		fx->mismatched++;
	if (!fx->not_exact++)
		fx->first_on_active = describe(fx->first, sizeof(fx->first), st, memcg_id, prio,
					       rec, n, pred, nr_pred);
}

/*
 * A memcg the walk visited between two recorded calls of one pass without
 * a batch (docs/kernel-model.md §19.1): predicted on its captured state
 * with the call's root inputs (@tmpl).  Predicted silent: counted apart
 * (silent); predicted batches: a judged call, never exact, counted in
 * predicted_unrecorded too.  Where the kernel may have skipped it
 * (memory.min/low) or its online state is a guess, it is not judged (nor
 * where another task's walk shared the cursor: the caller).
 */
static int judge_silent(struct rr_fidelity_facts *fx, const struct rr_state *st,
			const struct rr_call_input *tmpl, const struct rr_resolved_policy *kernel,
			const struct rr_silent_ctx *s, const struct rr_fidelity *trace,
			const struct hidden *h0, int prio, struct rr_pred_batch *pred,
			struct rr_pred_batch *alt, size_t cap, struct rr_error *err)
{
	struct rr_call_input ci = *tmpl;
	struct hidden h = *h0;
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	enum rr_unchecked why = RR_UC__COUNT;
	size_t nr_pred = 0;

	/* (a recorder that saw a subtree: where the memcgs only events name
	 * sit in the tree is not known -- their paths start at the
	 * hierarchy's root, the snapshot's at the view's -- nor whether the
	 * walk's memcgs outside it are online) */
	if (s->protected_ || s->in_window || st->view_root_id) {
		fx->silent_unjudged++;
		return 0;
	}
	ci.memcg.id = s->memcg_id;
	ci.memcg.online = s->online;
	ci.memcg.swappiness = s->swappiness;
	memcpy(ci.memcg.lru_pages, s->lru_pages, sizeof(ci.memcg.lru_pages));
	/* the open inputs of the recorded call's own memcg (other tasks'
	 * deltas on it, a dying memcg's sizes, its online state) are not this
	 * one's: they overwrote its sizes with the call's, and a silent visit
	 * before a call with concurrent deltas was never judged */
	h.nr_conc = h.nr_size = h.nr_online = 1;
	memcpy(ci.memcg.rstat_lru_pages, s->rstat_lru_pages, sizeof(ci.memcg.rstat_lru_pages));
	ci.recorded = NULL;
	ci.recorded_reclaimed = NULL;
	ci.nr_recorded = 0;
	/* flushed just before: its own exact hierarchical sizes (h0 holds the
	 * recorded call's memcg's) */
	if (h.nr_flush > 1) {
		if (!s->hier_valid) {
			fx->unchecked[RR_UC_FLUSH_UNKNOWN]++;
			return 0;
		}
		memcpy(h.memcg_hier_lru_pages, s->hier_lru_pages, sizeof(h.memcg_hier_lru_pages));
	}
	h.nr_swappiness = 1;
	h.swappiness[0] = s->swappiness;
	if (!s->swappiness_known) {
		const int each[] = { 0, 1, ci.km->swappiness_max };
		bool fitted = (h.nr_swap > 1 || h.swap[0]) &&
			      rr_fid_fit_of(trace, s->memcg_id, ci.km->swappiness_max, &h);

		for (size_t k = 0; !fitted && k < sizeof(each) / sizeof(each[0]); k++)
			if (each[k] != h.swappiness[0])
				h.swappiness[h.nr_swappiness++] = each[k];
		ci.memcg.swappiness = h.swappiness[0];
	}
	if (rr_sim_predict_call(&ci, kernel, pred, cap, &nr_pred, targets, err))
		return -1;
	if (nr_pred > cap)
		nr_pred = cap;
	if (rr_fid_h_combos(&h) > 1 &&
	    rr_fid_undecidable(&ci, kernel, &h, pred, nr_pred, alt, cap, &why, err))
		return -1;
	if (why != RR_UC__COUNT) {
		fx->unchecked[why]++;
		return 0;
	}
	if (!nr_pred) {
		fx->silent++;
		return 0;
	}
	fx->predicted_unrecorded++;
	score(fx, st, s->memcg_id, prio, NULL, 0, pred, nr_pred);
	return 0;
}

/*
 * The input of a call the recorder's shrink_lruvec() probe read
 * (docs/kernel-model.md §26): its memcg's exact sizes up to the call's
 * zone index, online flag, swappiness and rstat view, the reclaim root's
 * cost pair as prepare_scan_count() copied it, the switches it set, the
 * call's nr_to_reclaim and the free swap.  Nothing is hidden: one
 * prediction decides it.  @c: the call's context (NULL for a silent
 * visit: @memcg_id, sizes and online state from @s).
 */
static void probe_call_input(struct rr_call_input *ci, const struct rr_episode *ep,
			     const struct rr_lruvec_probe *p, const struct rr_batch_ctx *c,
			     const struct rr_silent_ctx *s, const struct rr_kernel_model *km,
			     unsigned int page_shift)
{
	memset(ci, 0, sizeof(*ci));
	ci->km = km;
	ci->kind = ep->kind == RR_KIND_SOFTLIMIT || rr_kind_global(ep->kind) ?
		   ep->kind : RR_KIND_MEMCG;
	ci->page_shift = page_shift;
	ci->priority = (int)p->v[RR_PF_PRIORITY];
	ci->nr_to_reclaim = rr_probe_has(p, RR_PF_NR_TO_RECLAIM) ? p->v[RR_PF_NR_TO_RECLAIM] :
			    ep->nr_to_reclaim_pages;
	ci->memcg.id = p->v[RR_PF_CGROUP_ID];
	ci->memcg.parent = -1;
	ci->memcg.online = c ? c->online : s->online;
	ci->memcg.swappiness = c ? c->swappiness : s->swappiness;
	memcpy(ci->memcg.lru_pages, c ? c->lru_pages : s->lru_pages, sizeof(ci->memcg.lru_pages));
	if (p->has_rstat)
		memcpy(ci->memcg.rstat_lru_pages, p->rstat_lru, sizeof(ci->memcg.rstat_lru_pages));
	else
		memcpy(ci->memcg.rstat_lru_pages, c ? c->chain[0].rstat_lru_pages : s->rstat_lru_pages,
		       sizeof(ci->memcg.rstat_lru_pages));
	ci->may_swap = !rr_probe_has(p, RR_PF_MAY_SWAP) || p->v[RR_PF_MAY_SWAP];
	ci->swap_present = rr_probe_has(p, RR_PF_NR_SWAP_PAGES) ?
			   (int64_t)p->v[RR_PF_NR_SWAP_PAGES] > 0 : ep->swap_inferred_present;
	ci->anon_cost = p->v[RR_PF_ANON_COST];
	ci->file_cost = p->v[RR_PF_FILE_COST];
	ci->switches_known = rr_probe_has(p, RR_PF_MAY_DEACTIVATE) &&
			     rr_probe_has(p, RR_PF_CACHE_TRIM_MODE);
	ci->may_deactivate = (unsigned int)p->v[RR_PF_MAY_DEACTIVATE];
	ci->cache_trim_mode = p->v[RR_PF_CACHE_TRIM_MODE];
	ci->file_is_tiny = p->v[RR_PF_FILE_IS_TINY];
	ci->force_deactivate = p->v[RR_PF_FORCE_DEACTIVATE];
}

/* Can the call's input come from its probe?  (A probe with the costs and
 * the switches: a recorder's of v5.9 to v6.x.) */
static bool probe_complete(const struct rr_lruvec_probe *p)
{
	return rr_probe_has(p, RR_PF_ANON_COST) && rr_probe_has(p, RR_PF_FILE_COST) &&
	       rr_probe_has(p, RR_PF_MAY_DEACTIVATE) && rr_probe_has(p, RR_PF_CACHE_TRIM_MODE);
}

/* A silent visit the probe saw (s->probe): predicted on its own inputs;
 * scored as judge_silent() does. */
static int judge_probed_silent(struct rr_fidelity_facts *fx, const struct rr_state *st,
			       const struct rr_episode *ep, const struct rr_silent_ctx *s,
			       const struct rr_kernel_model *km, unsigned int page_shift,
			       const struct rr_resolved_policy *kernel, struct rr_pred_batch *pred,
			       size_t cap, struct rr_error *err)
{
	const struct rr_lruvec_probe *p = &ep->probes[s->probe - 1];
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	struct rr_call_input ci;
	size_t nr_pred = 0;

	if (!probe_complete(p) || !s->swappiness_known) {
		fx->silent_unjudged++;
		return 0;
	}
	probe_call_input(&ci, ep, p, NULL, s, km, page_shift);
	if (rr_sim_predict_call(&ci, kernel, pred, cap, &nr_pred, targets, err))
		return -1;
	if (nr_pred > cap)
		nr_pred = cap;
	if (!nr_pred) {
		fx->silent++;
		return 0;
	}
	fx->predicted_unrecorded++;
	score(fx, st, s->memcg_id, ci.priority, NULL, 0, pred, nr_pred);
	return 0;
}

static int window_call(struct rr_fidelity_facts *fx, struct rr_call_input *ci,
		       const struct rr_resolved_policy *kernel, const struct rr_pred_batch *rec,
		       size_t n, const struct rr_pred_batch *pred, size_t nr_pred,
		       struct rr_pred_batch *alt, size_t cap, const struct rr_batch *b,
		       bool *judged, struct rr_error *err)
{
	uint64_t targets[RR_NR_EVICTABLE_LRU];
	size_t nr_alt = 0;
	bool pred_ok, alt_ok, online_ok, offline_ok;

	*judged = true;
	ci->memcg.online = !ci->memcg.online;
	if (rr_sim_predict_call(ci, kernel, alt, cap, &nr_alt, targets, err))
		return -1;
	if (nr_alt > cap)
		nr_alt = cap;
	if (rr_fid_same_batches(alt, nr_alt, pred, nr_pred))
		return 0;
	pred_ok = rr_fid_same_batches(rec, n, pred, nr_pred);
	alt_ok = rr_fid_same_batches(rec, n, alt, nr_alt);
	/* ci->memcg.online is now the alternative's state */
	online_ok = ci->memcg.online ? alt_ok : pred_ok;
	offline_ok = ci->memcg.online ? pred_ok : alt_ok;
	*judged = false;
	if (offline_ok && !online_ok && note_offline(fx, b->memcg_id, b->ts_ns)) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	return 0;
}

/* Swap presence after pass 0: one-sided evidence (this episode's, and
 * the earlier ones' in @trace) decides it; none or both ways leave both. */
static void swap_of_evidence(struct hidden *h, const struct rr_fidelity_facts *fx,
			     const struct rr_fidelity *trace)
{
	uint64_t ev_present = fx->swap_present_calls + (trace ? trace->swap_present_calls : 0);
	uint64_t ev_absent = fx->swap_absent_calls + (trace ? trace->swap_absent_calls : 0);

	if (ev_present && !ev_absent) {
		h->swap[0] = true;
	} else if (ev_absent && !ev_present) {
		h->swap[0] = false;
	} else {
		h->swap[1] = !h->swap[0];
		h->nr_swap = 2;
	}
}

/*
 * The recorded batches @i..@j-1 of one call into @rec and @rec_reclaimed
 * (*@n of them), and why the call cannot be judged (RR_UC__COUNT: it can;
 * @pass_start: the first batch of its priority pass, @retry: the pass is
 * a retry ladder); *@d the reclaim root's entry in the pass's chain.
 */
static enum rr_unchecked call_recorded(const struct rr_episode *ep, size_t i, size_t j,
				       int pass_start, bool retry, int pass,
				       struct rr_pred_batch *rec, uint64_t *rec_reclaimed,
				       size_t *n, int *d)
{
	const struct rr_batch *b = &ep->batches[i];
	enum rr_unchecked why = RR_UC__COUNT;

	for (size_t k = i; k < j; k++) {
		rec[*n] = (struct rr_pred_batch){ ep->batches[k].lru, ep->batches[k].nr_requested };
		rec_reclaimed[(*n)++] = ep->batches[k].nr_reclaimed;
		if (ep->batches[k].mglru)
			why = RR_UC_MGLRU;
		else if (ep->batches[k].attr == RR_ATTR_AMBIGUOUS)
			why = RR_UC_ATTR_AMBIGUOUS;
		else if (ep->batches[k].attr == RR_ATTR_ASSUMED)
			why = RR_UC_ATTR_ASSUMED;
		else if (k == i && ep->ctx && ep->ctx[k].valid && ep->ctx[k].sizes_stale &&
			 why == RR_UC__COUNT)
			why = RR_UC_SIZES_STALE;
		else if (ep->ctx && ep->ctx[k].valid && ep->ctx[k].size_disproved &&
			 why == RR_UC__COUNT)
			why = RR_UC_SIZE_DISPROVED;
	}
	if (!b->memcg_id)
		why = RR_UC_NO_ATTRIBUTION;
	else if (b->priority < 0)
		why = RR_UC_NO_PRIORITY;
	else if (ep->first_lost_ns && ep->first_lost_ns <= b->ts_ns)
		why = RR_UC_LOST_EVENTS;
	else if (retry && !(ep->ctx && ep->ctx[i].probe))	/* (a probe read the ladder's switches) */
		why = RR_UC_RETRY_PASS;
	else if (!ep->ctx[i].valid)
		why = RR_UC_NO_CONTEXT;
	else if (!ep->ctx[pass_start].valid)
		why = RR_UC_NO_CONTEXT;
	*d = why == RR_UC__COUNT ? chain_index(&ep->ctx[pass_start], ep->root_memcg_id) : -1;
	if (why == RR_UC__COUNT && *d < 0)
		why = RR_UC_ROOT_UNKNOWN;
	if (why == RR_UC__COUNT &&
	    (ep->ctx[pass_start].hier_missing || ep->ctx[i].hier_missing))
		why = RR_UC_FLUSH_UNKNOWN;
	if (why == RR_UC__COUNT && pass == 0 && ep->ctx[i].in_window)
		why = RR_UC_ONLINE_UNCERTAIN;	/* no evidence from here */
	return why;
}

/* The input of the call whose first batch is @i (@pass_start: its pass's
 * first, @d: the reclaim root in that one's chain), as the kernel saw it,
 * with swap @swap_present; nr_to_reclaim left to the caller. */
static void call_input(struct rr_call_input *ci, const struct rr_episode *ep, size_t i,
		       int pass_start, int d, const struct rr_kernel_model *km,
		       unsigned int page_shift, bool swap_present)
{
	const struct rr_batch *b = &ep->batches[i];

	memset(ci, 0, sizeof(*ci));
	ci->km = km;
	ci->kind = ep->kind == RR_KIND_SOFTLIMIT || rr_kind_global(ep->kind) ?
		   ep->kind : RR_KIND_MEMCG;
	ci->page_shift = page_shift;
	ci->priority = b->priority;
	ci->memcg.id = b->memcg_id;
	ci->memcg.parent = -1;
	ci->memcg.online = ep->ctx[i].online;
	ci->memcg.swappiness = ep->ctx[i].swappiness;
	memcpy(ci->memcg.lru_pages, ep->ctx[i].lru_pages, sizeof(ci->memcg.lru_pages));
	memcpy(ci->memcg.rstat_lru_pages, ep->ctx[i].chain[0].rstat_lru_pages,
	       sizeof(ci->memcg.rstat_lru_pages));
	ci->may_swap = true;
	ci->swap_present = swap_present;
	ci->anon_cost = ep->ctx[pass_start].chain[d].anon_cost;
	ci->file_cost = ep->ctx[pass_start].chain[d].file_cost;
	memcpy(ci->root_rstat_lru_pages, ep->ctx[pass_start].chain[d].rstat_lru_pages,
	       sizeof(ci->root_rstat_lru_pages));
	memcpy(ci->refaults_changed, ep->ctx[pass_start].chain[d].refaults_changed,
	       sizeof(ci->refaults_changed));
}

/* The inputs of the reclaim root (@d in the chain of the pass's first
 * batch @pass_start) and of the other admissible roots into @h; true when
 * one of those lies above the captured chain. */
static bool call_roots(struct hidden *h, const struct rr_episode *ep, int pass_start, int d)
{
	bool root_lost = false;

	h->nr_roots = 0;
	for (int r = -1; r < ep->nr_root_alternatives && h->nr_roots < 5; r++) {
		int dr = r < 0 ? d : chain_index(&ep->ctx[pass_start],
						 ep->root_alternatives[r]);
		struct root_inputs *ri = &h->roots[h->nr_roots];

		if (dr < 0) {	/* above the captured chain */
			root_lost = true;
			continue;
		}
		ri->anon_cost = ep->ctx[pass_start].chain[dr].anon_cost;
		ri->file_cost = ep->ctx[pass_start].chain[dr].file_cost;
		memcpy(ri->rstat_lru_pages, ep->ctx[pass_start].chain[dr].rstat_lru_pages,
		       sizeof(ri->rstat_lru_pages));
		memcpy(ri->refaults_changed,
		       ep->ctx[pass_start].chain[dr].refaults_changed,
		       sizeof(ri->refaults_changed));
		memcpy(ri->hier_lru_pages, ep->ctx[pass_start].chain[dr].hier_lru_pages,
		       sizeof(ri->hier_lru_pages));
		ri->anon_cost_fresh = ep->ctx[pass_start].chain[dr].anon_cost_fresh;
		ri->file_cost_fresh = ep->ctx[pass_start].chain[dr].file_cost_fresh;
		h->nr_roots++;
	}
	return root_lost;
}

/*
 * The views of the call whose first batch is @i into @h: the root's and
 * the memcg's rstat view where flushes are not in the trace, and the
 * sizes other tasks' deltas between the decision and the batch allow.
 * Return true when those deltas are not known (the call is not judged).
 */
static bool call_views(struct hidden *h, const struct rr_call_input *ci,
		       const struct rr_episode *ep, size_t i, int pass_start)
{
	/* no flush in the trace (yet): when the root's view was last
	 * refreshed is not known; try a flush just before the pass */
	h->nr_flush = ep->ctx[pass_start].flush_unknown ? 2 : 1;
	/* the memcg's own view: a flush seen since the pass began
	 * (ctx[i] not flush_unknown) fixed it; capture() filled
	 * hier_lru_pages only where it is flush_unknown */
	memcpy(h->memcg_hier_lru_pages,
	       ep->ctx[i].flush_unknown ? ep->ctx[i].chain[0].hier_lru_pages :
					  ep->ctx[i].chain[0].rstat_lru_pages,
	       sizeof(h->memcg_hier_lru_pages));
	/* other tasks' deltas between the decision and the batch */
	h->nr_conc = 1;
	if (ep->ctx[i].conc_unknown && !ep->ctx[i].sizes_bounded)
		return true;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU && !ep->ctx[i].sizes_bounded; l++)
		if (ep->ctx[i].conc_min[l] || ep->ctx[i].conc_max[l])
			h->nr_conc = 3;
	if (h->nr_conc > 1) {
		memcpy(h->conc_lru_pages[0], ci->memcg.lru_pages, sizeof(h->conc_lru_pages[0]));
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			int64_t lo = (int64_t)ci->memcg.lru_pages[l] + ep->ctx[i].conc_min[l];
			int64_t hi = (int64_t)ci->memcg.lru_pages[l] + ep->ctx[i].conc_max[l];

			h->conc_lru_pages[1][l] = lo > 0 ? (uint64_t)lo : 0;
			h->conc_lru_pages[2][l] = hi > 0 ? (uint64_t)hi : 0;
		}
	}
	return false;
}

/* The online states and the passes the call whose first batch is @i may
 * have run in, into @h. */
static void call_online_pass(struct hidden *h, const struct rr_episode *ep, size_t i,
			     int pass_start)
{
	/* outside the recorder's view: live or dying */
	h->nr_online = ep->ctx[i].online_unknown ? 2 : 1;
	/* a later pass at this priority may have begun unseen */
	h->nr_pass = 1;
	if (rr_kind_global(ep->kind) && (int)i != pass_start) {
		int di = chain_index(&ep->ctx[i], ep->root_memcg_id);

		if (di >= 0) {
			struct root_inputs *pa = &h->pass_alt;

			pa->anon_cost = ep->ctx[i].chain[di].anon_cost;
			pa->file_cost = ep->ctx[i].chain[di].file_cost;
			memcpy(pa->rstat_lru_pages, ep->ctx[i].chain[di].rstat_lru_pages,
			       sizeof(pa->rstat_lru_pages));
			memcpy(pa->refaults_changed, ep->ctx[i].chain[di].refaults_changed,
			       sizeof(pa->refaults_changed));
			h->nr_pass = 2;
		}
	}
}

int rr_fidelity_check(const struct rr_episode *ep, const struct rr_state *st,
		      const struct rr_kernel_model *km, unsigned int page_shift,
		      const struct rr_resolved_policy *kernel, const struct rr_sim_input *in,
		      const struct rr_sim_result *kernel_result,
		      struct rr_fidelity *trace,
		      struct rr_fidelity_facts *fx, struct rr_error *err)
{
	bool first_ladder_forced = false, first_ladder_no_trim = false, open_swappiness = false;
	uint64_t cands[48];
	size_t nr_cands;
	struct hidden h = { .nr_swap = 1 };
	struct rr_pred_batch *rec = NULL, *pred = NULL, *alt = NULL, *spred = NULL;
	size_t sk = 0;
	uint64_t *rec_reclaimed = NULL;
	bool episode_ok = true, retry = false, new_walk = false;
	int pass_start = -1, prev_prio = 99;
	size_t cap = ep->nr_batches + 8, pcap = cap * 2 + 64;
	int ret = -1;

	memset(fx, 0, sizeof(*fx));
	if (in && kernel_result &&
	    rr_fid_first_ladders_forced(in, kernel, kernel_result, &first_ladder_forced,
					&first_ladder_no_trim, err))
		return -1;
	rec = calloc(cap, sizeof(*rec));
	pred = calloc(pcap, sizeof(*pred));
	alt = calloc(pcap, sizeof(*alt));
	spred = calloc(pcap, sizeof(*spred));
	rec_reclaimed = calloc(cap, sizeof(*rec_reclaimed));
	if (!rec || !pred || !alt || !spred || !rec_reclaimed) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	nr_cands = nr_to_reclaim_candidates(ep, cands, sizeof(cands) / sizeof(cands[0]));
	/*
	 * Swap presence, where neither the option, the recorder's marker nor
	 * an anon batch said: pass 0 gathers this episode's evidence, added to
	 * the earlier episodes'; one-sided evidence decides it (a fitted
	 * value, said so in the output), none or both ways leave it open.
	 */
	h.swap[0] = ep->swap_inferred_present;
	for (size_t i = 0; i < ep->nr_batches && ep->ctx && trace; i++)
		open_swappiness |= ep->ctx[i].valid && !ep->ctx[i].swappiness_known;
	for (int pass = ep->swap_known && !open_swappiness ? 1 : 0; pass < 2; pass++) {
		if (pass == 1 && !ep->swap_known)
			swap_of_evidence(&h, fx, trace);
		retry = false;
		pass_start = -1;
		prev_prio = 99;
		new_walk = false;
		for (size_t i = 0; i < ep->nr_batches;) {
			const struct rr_batch *b = &ep->batches[i];
			size_t j = i, n = 0, nr_pred = 0;
			enum rr_unchecked why = RR_UC__COUNT;
			uint64_t targets[RR_NR_EVICTABLE_LRU];
			bool fitted, root_lost;
			struct rr_call_input ci;
			int d;

			/* kswapd_age_node(): one active anon batch on every memcg
			 * before the walk, not a shrink_lruvec() call */
			if (ep->kind == RR_KIND_KSWAPD && (j = age_node_run(ep, i)) > i) {
				if (pass == 1)
					fx->age_node_batches += j - i;
				i = j;
				new_walk = true;	/* the iteration's walk follows */
				continue;
			}
			j = i;
			while (j < ep->nr_batches && rr_fid_same_call(ep, i, j))
				j++;
			/* a new priority pass starts where the priority changes; going
			 * back up means a retry ladder of do_try_to_free_pages() */
			/* global reclaim: a walk visits a memcg once, so one visited
			 * again begins another pass at the same priority (kswapd's
			 * next iteration, a should_continue_reclaim() repeat): its
			 * own prepare_scan_control() */
			if (rr_kind_global(ep->kind) && pass_start >= 0 && !new_walk)
				new_walk = visited_in_pass(ep, (size_t)pass_start, i);
			if (b->priority != prev_prio || new_walk) {
				if (b->priority > prev_prio)
					retry = true;
				pass_start = (int)i;
				prev_prio = b->priority;
			}
			new_walk = false;
			why = call_recorded(ep, i, j, pass_start, retry, pass, rec, rec_reclaimed, &n, &d);
			if (why != RR_UC__COUNT) {
				if (pass == 0) {
					i = j;
					continue;
				}
				fx->unchecked[why]++;
				episode_ok = false;
				i = j;
				continue;
			}

			/* a call the recorder's probe read: its inputs, nothing hidden */
			if (ep->ctx[i].probe && probe_complete(&ep->probes[ep->ctx[i].probe - 1]) &&
			    ep->ctx[i].swappiness_known) {
				if (pass == 0) {
					i = j;
					continue;
				}
				probe_call_input(&ci, ep, &ep->probes[ep->ctx[i].probe - 1], &ep->ctx[i],
						 NULL, km, page_shift);
				ci.recorded = rec;
				ci.recorded_reclaimed = rec_reclaimed;
				ci.nr_recorded = n;
				/* the probed silent visits before it */
				for (; sk < ep->nr_silent && ep->silent[sk].before <= i; sk++)
					if (!ep->silent[sk].probe)
						fx->silent_unjudged++;
					else if (judge_probed_silent(fx, st, ep, &ep->silent[sk], km,
								     page_shift, kernel, spred, pcap, err))
						goto out;
				if (rr_sim_predict_call(&ci, kernel, pred, pcap, &nr_pred, targets, err))
					goto out;
				if (nr_pred > pcap)
					nr_pred = pcap;
				score(fx, st, b->memcg_id, b->priority, rec, n, pred, nr_pred);
				fx->probed++;
				i = j;
				continue;
			}
			call_input(&ci, ep, i, pass_start, d, km, page_shift, h.swap[0]);
			ci.nr_to_reclaim = ep->nr_to_reclaim_pages ? ep->nr_to_reclaim_pages : cands[0];
			rr_fid_call_candidates(&h, ci.nr_to_reclaim, cands, nr_cands, rec_reclaimed, n);
			/* the root's inputs, and those of the other admissible roots */
			root_lost = call_roots(&h, ep, pass_start, d);
			if (root_lost) {
				if (pass == 1) {
					fx->unchecked[RR_UC_ROOT_AMBIGUOUS]++;
					episode_ok = false;
				}
				i = j;
				continue;
			}
			/* the views; other tasks' deltas between the decision and the
			 * batch */
			if (call_views(&h, &ci, ep, i, pass_start)) {
				if (pass == 1) {
					fx->unchecked[RR_UC_CONCURRENT]++;
					episode_ok = false;
				}
				i = j;
				continue;
			}
			call_online_pass(&h, ep, i, pass_start);
			/* global reclaim's hidden inputs: a dying memcg's sizes, the
			 * root's refaults before its first snapshot_refaults() in
			 * the trace, the node's free pages for file_is_tiny */
			if (rr_fid_global_hidden(&h, &ci, ep, i, pass_start, d, st) && pass == 1) {
				fx->unchecked[RR_UC_DYING_SIZE]++;
				episode_ok = false;
				i = j;
				continue;
			}
			/* ladders that made no batch leave no event: when the free run's
			 * first batch came in the force_deactivate retry, so did the
			 * kernel's first recorded ladder */
			ci.force_deactivate = first_ladder_forced;
			ci.no_cache_trim_mode = first_ladder_no_trim;
			ci.recorded = rec;
			ci.recorded_reclaimed = rec_reclaimed;
			ci.nr_recorded = n;
			/* the inputs the trace does not give, under each admissible
			 * value: a swappiness the others of the memcg's calls fit */
			fitted = false;
			h.nr_swappiness = 1;
			h.swappiness[0] = ci.memcg.swappiness;
			if (!ep->ctx[i].swappiness_known) {
				const int each[] = { 0, 1, km->swappiness_max };

				if (trace && (!ep->swap_known || h.swap[0]) &&
				    rr_fid_fitted_swappiness(trace, &ci, kernel, rec, n, alt, pcap, &h,
							     &fitted, pass == 1, err))
					goto out;
				for (size_t k = 0; !fitted && k < sizeof(each) / sizeof(each[0]); k++)
					if (each[k] != h.swappiness[0])
						h.swappiness[h.nr_swappiness++] = each[k];
				ci.memcg.swappiness = h.swappiness[0];
			}
			/* the walk's silent visits before this call, in its pass */
			/* (those of calls not judged: not judged either) */
			while (pass == 1 && sk < ep->nr_silent && ep->silent[sk].before < i) {
				fx->silent_unjudged++;
				sk++;
			}
			for (; pass == 1 && sk < ep->nr_silent && ep->silent[sk].before == i; sk++)
				if ((int)i == pass_start)
					continue;
				/* with another walker under the root, the memcgs
				 * between may have gone to it from the shared cursor */
				else if (ep->walk_interleaved)
					fx->silent_unjudged++;
				else if (judge_silent(fx, st, &ci, kernel, &ep->silent[sk], trace, &h,
						      b->priority, spred, alt, pcap, err))
					goto out;
			if (rr_sim_predict_call(&ci, kernel, pred, pcap, &nr_pred, targets, err))
				goto out;
			if (nr_pred > pcap)
				nr_pred = pcap;
			if (pass == 0) {
				if (!ep->swap_known &&
				    rr_fid_swap_evidence(fx, &ci, kernel, &h, &ep->ctx[i], rec, n, alt, pcap, err))
					goto out;
				if (trace && !ep->ctx[i].swappiness_known &&
				    (!ep->swap_known || h.swap[0]) &&
				    rr_fid_fit_swappiness(trace, &ci, kernel, &h, rec, n, alt, pcap, err))
					goto out;
				i = j;
				continue;
			}
			if (ep->ctx[i].in_window) {
				bool judged;

				if (window_call(fx, &ci, kernel, rec, n, pred, nr_pred, alt, pcap, b,
						&judged, err))
					goto out;
				if (!judged) {
					fx->unchecked[RR_UC_ONLINE_UNCERTAIN]++;
					episode_ok = false;
					i = j;
					continue;
				}
			}

			if (rr_fid_h_combos(&h) > 1) {
				enum rr_unchecked hidden_why;

				if (rr_fid_undecidable(&ci, kernel, &h, pred, nr_pred, alt, pcap, &hidden_why, err))
					goto out;
				if (hidden_why != RR_UC__COUNT) {
					fx->unchecked[hidden_why]++;
					episode_ok = false;
					i = j;
					continue;
				}
			}

			fx->swappiness_fitted += fitted;
			if (ep->ctx[i].sizes_lower_bound) {
				uint64_t before = fx->exact;

				score(fx, st, b->memcg_id, b->priority, rec, n, pred, nr_pred);
				fx->on_lower_bounds++;
				fx->on_lower_bounds_exact += fx->exact - before;
			} else {
				score(fx, st, b->memcg_id, b->priority, rec, n, pred, nr_pred);
			}
			i = j;
		}
	}
	/* the probed silent visits after the last call (the last passes that
	 * made no batch) */
	for (; ep->probed && sk < ep->nr_silent; sk++)
		if (!ep->silent[sk].probe)
			fx->silent_unjudged++;
		else if (judge_probed_silent(fx, st, ep, &ep->silent[sk], km, page_shift, kernel,
					     spred, pcap, err))
			goto out;
	fx->silent_unjudged += ep->nr_silent > sk ? ep->nr_silent - sk : 0;
	/* inside an rmdir -> offline window the replay's online state is a guess */
	fx->unchecked_window = ep->in_offline_window && kernel_result;
	/* another walker under the root moved the shared cursor during the
	 * run, in an order the trace does not give: not judged */
	fx->unchecked_interleaved = ep->walk_interleaved && kernel_result && ep->nr_batches;
	if (episode_ok && kernel_result && ep->nr_batches && !ep->in_offline_window &&
	    !ep->walk_interleaved) {
		rr_fid_trajectory(fx, ep, kernel_result);
		/* the free run takes one value of what the trace does not say */
		fx->trajectory_assumed = !ep->swap_known;
		for (size_t i = 0; i < ep->nr_batches && ep->ctx && !fx->trajectory_assumed; i++)
			fx->trajectory_assumed = ep->ctx[i].valid && !ep->ctx[i].swappiness_known;
	}
	ret = 0;
out:
	free(rec);
	free(pred);
	free(alt);
	free(spred);
	free(rec_reclaimed);
	if (ret)
		rr_fidelity_facts_free(fx);
	return ret;
}
