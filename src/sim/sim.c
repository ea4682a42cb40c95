// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's memcg reclaim loops, in the order they nest:
 *
 *   rr_proactive_loop()      memory_reclaim() chunk loop (§10)
 *    do_try()                try_to_free_mem_cgroup_pages() / try_to_free_pages() +
 *                            do_try_to_free_pages(): priorities 12..0, retries (§7, §8.1, §23.3)
 *   kswapd_run()             balance_pgdat(): priorities 12..1, full walks (§23.2)
 *   node_run()               __node_reclaim(): priorities 4..0 (§23.4)
 *     walk()                 shrink_node_memcgs(): full or partial walk (§6, §6.3)
 *      shrink_lruvec()       batches of <= SWAP_CLUSTER_MAX, goal check, cut (§5)
 *       get_scan_count()     scan balance and per-list targets (§3)
 *
 * The simulator works on a private copy of the input memcgs, so one input
 * can be replayed under many policies.  One node is modelled.
 */
#include "sim.h"

#include "../common/swappiness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The most reclaim calls one memory.reclaim write makes in a replay: 2^23,
 * a 1 TiB write of 4 KiB pages in 32-page chunks (0388536ac291); the
 * per-call arrays then take 128 MiB */
#define MAX_CHUNK_CALLS ((1u << 23) + 1024)	/* (+ the -EAGAIN retries, tail calls) */
/* MAX_RECLAIM_RETRIES, mm/internal.h (d977aa939fca, v5.9) */
#define MAX_RECLAIM_RETRIES 16

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

struct run {
	const struct rr_sim_input *in;
	const struct rr_resolved_policy *pol;
	struct rr_sim_result *out;
	struct rr_error *err;
	struct rr_sim_memcg *m;		/* working copy */
	/* error diffusion accumulators per memcg (pages, or folios with a
	 * folio size): taken per list; reclaimed, activated and deactivated
	 * per type */
	uint64_t (*sim_scanned)[RR_NR_LRU_TYPES];
	uint64_t (*sim_requested)[RR_NR_EVICTABLE_LRU];
	uint64_t (*sim_activated)[RR_NR_LRU_TYPES];
	uint64_t (*sim_deactivated)[RR_NR_LRU_TYPES];
	size_t (*rec_pos)[RR_NR_EVICTABLE_LRU];		/* next recorded outcome per memcg and list */
	uint64_t (*removed)[RR_NR_EVICTABLE_LRU];	/* pages the run took off each list */
	uint64_t anon_cost, file_cost;	/* reclaim root's cost pair */
	/* scan_control of the current invocation */
	uint64_t nr_to_reclaim, nr_reclaimed;
	uint64_t nr_scanned;	/* sc->nr_scanned: inactive pages taken this pass */
	int priority;
	int order;		/* sc->order (kswapd drops it to 0) */
	bool no_cache_trim_mode, cache_trim_mode_failed;	/* kswapd retry (§23.2) */
	bool may_deactivate[RR_NR_LRU_TYPES], cache_trim_mode, file_is_tiny;
	bool force_deactivate, skipped_deactivate, memcg_full_walk;
	bool memcg_low_reclaim, memcg_low_skipped;
	uint64_t sc_anon_cost, sc_file_cost;	/* copied per pass */
	int cursor;
	/* before v5.4 (km->limit_walk_stops): the reclaim cookie's shared
	 * position per priority (mz->iter[priority] of the reclaim root on the
	 * node), index of the memcg last handed out, -1 for none */
	int iter_pos[RR_DEF_PRIORITY + 1];
	/* rr_sim_predict_call(): record batches, feed recorded reclaim */
	struct rr_pred_batch *pred;
	size_t pred_cap, nr_pred;
	const struct rr_call_input *feed;
	bool diverged;
	uint64_t exact_reclaimed;	/* RR_OUTCOME_EXACT: pages reclaimed so far */
	uint64_t exact_held;		/* ... and what the lists held, once known */
	bool exact_held_known;
};

/*
 * RR_OUTCOME_EXACT: the pages the walk's lists hold and reclaim may take
 * (file always, anon with swap and may_swap; unevictable never), less what
 * the run reclaimed already.  The active lists count: reclaim reaches them
 * by deactivation (shrink_active_list(), and the force_deactivate retry of
 * do_try_to_free_pages() when nothing else is left), as the structural
 * model does.  No outcome mode reclaims pages a list does not have.
 */
static uint64_t exact_available(struct run *r)
{
	if (!r->exact_held_known) {	/* (summed once per run, not per call) */
		for (size_t k = 0; k < r->in->nr_memcgs; k++) {
			const struct rr_sim_memcg *m = &r->in->memcgs[k];

			r->exact_held += m->lru_pages[RR_LRU_INACTIVE_FILE] +
					 m->lru_pages[RR_LRU_ACTIVE_FILE];
			if (r->in->swap_present && r->in->may_swap)
				r->exact_held += m->lru_pages[RR_LRU_INACTIVE_ANON] +
						 m->lru_pages[RR_LRU_ACTIVE_ANON];
		}
		r->exact_held_known = true;
	}
	return r->exact_held > r->exact_reclaimed ? r->exact_held - r->exact_reclaimed : 0;
}

/* A batch the kernel would emit an mm_vmscan_lru_isolate for. */
static void note_batch(struct run *r, int lru, uint64_t b)
{
	if (!r->out->batches++) {
		r->out->first_batch_forced = r->force_deactivate;
		r->out->first_batch_no_cache_trim = r->no_cache_trim_mode;
	}
	if (!r->pred)
		return;
	if (r->nr_pred < r->pred_cap)
		r->pred[r->nr_pred] = (struct rr_pred_batch){ .lru = lru, .nr_requested = b };
	r->nr_pred++;
}

/* Recorded reclaim of the batch just noted, while the prediction agrees. */
static uint64_t fed_reclaim(struct run *r, int lru, uint64_t b)
{
	size_t k = r->nr_pred - 1;
	const struct rr_call_input *f = r->feed;

	if (r->diverged || k >= f->nr_recorded || f->recorded[k].lru != lru ||
	    f->recorded[k].nr_requested != b) {
		r->diverged = true;
		return 0;
	}
	return f->recorded_reclaimed[k];
}

/* floor(sqrt(@x)), bit by bit as lib/math/int_sqrt.c (64 steps at most,
 * whatever sizes a snapshot claims) */
static uint64_t int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

bool rr_inactive_is_low(uint64_t inactive, uint64_t active, unsigned int page_shift)
{
	uint64_t total, gb, ratio, scaled;

	if (__builtin_add_overflow(inactive, active, &total))
		total = UINT64_MAX;
	gb = total >> (30 - page_shift);
	ratio = gb ? int_sqrt(10 * gb) : 1;
	/* (a product past 2^64 is surely not below @active) */
	return !__builtin_mul_overflow(inactive, ratio, &scaled) && scaled < active;
}

void rr_scan_fractions(const struct rr_kernel_model *km, uint64_t anon_cost,
		       uint64_t file_cost, int swappiness, uint64_t *ap,
		       uint64_t *fp, uint64_t *denominator)
{
	uint64_t sw = (uint64_t)swappiness;

	if (!km->cost_fractions) {
		/* v5.6 form with recent_scanned == recent_rotated (§3.4) */
		*ap = sw;
		*fp = 200 - sw;
		*denominator = *ap + *fp + 1;
		return;
	}
	/* §3.5, mm/vmscan.c get_scan_count() v5.8+ */
	uint64_t total = anon_cost + file_cost;
	uint64_t a = total + anon_cost;
	uint64_t f = total + file_cost;
	uint64_t total2 = a + f;

	*ap = sw * (total2 + 1) / (a + 1);
	*fp = (200 - sw) * (total2 + 1) / (f + 1);
	*denominator = *ap + *fp;
	if (km->denominator_plus_one)
		(*denominator)++;
	if (!*denominator)
		*denominator = 1;
}

/* ---- results ---- */

static int add_target(struct run *r, int memcg, int lru, uint64_t nr)
{
	struct rr_sim_result *o = r->out;

	if (!nr)
		return 0;
	if (o->nr_targets == o->cap_targets) {
		size_t cap = o->cap_targets ? o->cap_targets * 2 : 64;
		struct rr_scan_target *t = realloc(o->targets, cap * sizeof(*t));

		if (!t)
			return -1;
		o->targets = t;
		o->cap_targets = cap;
	}
	o->targets[o->nr_targets++] = (struct rr_scan_target){
		.memcg_id = r->m[memcg].id, .priority = r->priority,
		.lru = lru, .nr_pages = nr,
	};
	return 0;
}

static int add_chunk(struct rr_sim_result *o, uint64_t nr_pages, uint64_t got)
{
	if (o->nr_chunks == o->cap_chunks) {
		size_t cap = o->cap_chunks ? o->cap_chunks * 2 : 64;
		uint64_t *c = realloc(o->chunk_requests, cap * sizeof(*c));

		if (!c)
			return -1;
		o->chunk_requests = c;
		c = realloc(o->chunk_reclaimed, cap * sizeof(*c));
		if (!c)
			return -1;
		o->chunk_reclaimed = c;
		o->cap_chunks = cap;
	}
	o->chunk_requests[o->nr_chunks] = nr_pages;
	o->chunk_reclaimed[o->nr_chunks++] = got;
	return 0;
}

void rr_sim_result_free(struct rr_sim_result *r)
{
	free(r->memcg_calls);
	free(r->memcg_reclaimed_pages);
	free(r->memcg_ids);
	free(r->targets);
	free(r->chunk_requests);
	free(r->chunk_reclaimed);
	memset(r, 0, sizeof(*r));
}

/* ---- cost bookkeeping on the reclaim root (§3.5 lru_note_cost()) ---- */

static void note_cost(struct run *r, int type, uint64_t cost)
{
	const uint64_t *sz = r->in->root_rstat_lru_pages;
	uint64_t lrusize = sz[0] + sz[1] + sz[2] + sz[3];

	if (!cost && r->in->km->cost_zero_returns)
		return;
	if (type)
		r->file_cost += cost;
	else
		r->anon_cost += cost;
	if (r->anon_cost + r->file_cost > lrusize / 4) {
		r->anon_cost /= 2;
		r->file_cost /= 2;
	}
}

/* ---- one batch ---- */

/* Error diffusion: the share of @n new units at ratio num/den, given
 * *@acc units so far: floor((acc+n)*q) - floor(acc*q).  den == 0: q = 1. */
static uint64_t diffuse(uint64_t *acc, uint64_t n, uint64_t num, uint64_t den)
{
	uint64_t before = *acc, after = before + n;

	*acc = after;
	if (!den)
		return n;
	return (uint64_t)((__uint128_t)after * num / den) -
	       (uint64_t)((__uint128_t)before * num / den);
}

/* The memcg's next recorded batch of @lru, if it asked for @b pages too
 * (then it is consumed); NULL otherwise. */
static const struct rr_sim_outcome *next_recorded(struct run *r, int mi, int lru, uint64_t b)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	size_t *pos = &r->rec_pos[mi][lru];

	while (*pos < m->nr_recorded && m->recorded[*pos].lru != lru)
		(*pos)++;
	if (*pos >= m->nr_recorded || m->recorded[*pos].nr_requested != b)
		return NULL;
	return &m->recorded[(*pos)++];
}

/*
 * isolate_lru_folios(): the pages a batch asking for @b pages takes from
 * list @lru of memcg @mi.  With a folio size f the kernel counts whole
 * folios' pages against @b (scan += folio_nr_pages(), since Yang Shi's
 * THP counters fix of 2019; the folio code of v6.6 and v6.18 alike; before
 * it, the loop stopped at nr_taken >= @b: the same folios on a list of one
 * folio size), so it takes ceil(@b / f) folios: one 512-page folio ends a
 * 32-page batch.  Without one, @b times the recorded
 * taken/requested ratio.  At most what the list holds.
 */
static uint64_t take(struct run *r, int mi, int lru, uint64_t b)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	int t = rr_lru_type(lru);
	uint64_t f = m->folio_pages[t], n;

	if (f > 1)
		n = (b + f - 1) / f * f;
	else
		n = diffuse(&r->sim_requested[mi][lru], b, m->taken_num[t], m->taken_den[t]);
	return n < m->lru_pages[lru] ? n : m->lru_pages[lru];
}

/*
 * The share num/den of @taken pages, by error diffusion on *@acc; den == 0
 * gives all of them, or none with @none_without_data.  With a folio size
 * @f > 1 the share is of whole folios (a folio is reclaimed, activated or
 * deactivated whole; a list's last partial folio counts as one).
 */
static uint64_t share(uint64_t *acc, uint64_t taken, uint64_t f, uint64_t num,
		      uint64_t den, bool none_without_data)
{
	uint64_t got;

	if (!den && none_without_data)
		return 0;
	if (f <= 1)
		return diffuse(acc, taken, num, den);
	got = diffuse(acc, (taken + f - 1) / f, num, den) * f;
	return got < taken ? got : taken;
}

/*
 * shrink_active_list() on list @lru (1 or 3) of memcg @mi, asking for @b
 * pages: take them from the tail of the list and move them to the
 * inactive list, except those it keeps active (referenced VM_EXEC file
 * folios; the memcg's recorded share, none without recorded active
 * batches).  Reclaims nothing; the deactivated pages are reclaimable by
 * later inactive batches.  A recorded batch of the list that asked for @b
 * gives what was taken and deactivated.
 */
static void shrink_active(struct run *r, int mi, int lru, uint64_t b)
{
	struct rr_sim_memcg *m = &r->m[mi];
	const struct rr_sim_outcome *o;
	int t = rr_lru_type(lru);
	uint64_t taken, moved;

	note_batch(r, lru, b);
	if (r->feed)
		return;	/* one recorded call's decisions: no sizes change */
	if (r->rec_pos && (o = next_recorded(r, mi, lru, b))) {
		taken = o->nr_taken < m->lru_pages[lru] ? o->nr_taken : m->lru_pages[lru];
		moved = o->nr_deactivate < taken ? o->nr_deactivate : taken;
	} else {
		taken = take(r, mi, lru, b);
		moved = share(&r->sim_deactivated[mi][t], taken, m->folio_pages[t],
			      m->deactivate_num[t], m->deactivate_den[t], false);
	}
	m->lru_pages[lru] -= moved;
	m->lru_pages[lru ^ 1] += moved;
	if (r->removed)
		rr_lru_removed(r->removed[mi], lru, 0, moved);
	/* v6.2+: lru_note_cost(file, 0, nr_rotated) when file folios rotated */
	if (t == RR_LRU_FILE && taken > moved && r->in->km->cost_rotations_x32 &&
	    r->in->km->cost_fractions)
		note_cost(r, t, taken - moved);
}

static uint64_t shrink_list(struct run *r, int mi, int lru, uint64_t b)
{
	struct rr_sim_memcg *m = &r->m[mi];
	const struct rr_sim_outcome *o;
	int t = rr_lru_type(lru);
	uint64_t scanned, reclaimed, cost, activated = 0, pageout = 0;
	bool from_recording = false;

	if (rr_lru_is_active(lru)) {
		if (!r->may_deactivate[t]) {
			r->skipped_deactivate = true;
			return 0;
		}
		shrink_active(r, mi, lru, b);
		return 0;
	}
	note_batch(r, lru, b);
	if (r->feed)
		return fed_reclaim(r, lru, b);
	if (r->rec_pos && (o = next_recorded(r, mi, lru, b))) {
		from_recording = true;
		scanned = o->nr_taken;
		reclaimed = o->nr_reclaimed;
		activated = o->nr_activate;
		pageout = o->nr_pageout;
		if (scanned > m->lru_pages[lru])
			scanned = m->lru_pages[lru];
		if (!scanned)
			return 0;
		if (activated > scanned - (reclaimed < scanned ? reclaimed : scanned))
			activated = 0;
	} else {
		scanned = take(r, mi, lru, b);
		if (!scanned)
			return 0;	/* nr_taken == 0: no note, no PGSTEAL */
		reclaimed = share(&r->sim_scanned[mi][t], scanned, m->folio_pages[t],
				  m->ratio_num[t], m->ratio_den[t], false);
		if (reclaimed > scanned)
			reclaimed = scanned;
		activated = share(&r->sim_activated[mi][t], scanned - reclaimed,
				  m->folio_pages[t], m->activate_num[t], m->activate_den[t], true);
		if (activated > scanned - reclaimed)
			activated = scanned - reclaimed;
	}
	/* activated folios go back to the active list */
	m->lru_pages[lru] -= activated;
	m->lru_pages[lru + 1] += activated;
	if (r->removed)
		rr_lru_removed(r->removed[mi], lru, 0, activated);
	if (reclaimed > scanned)
		reclaimed = scanned;
	m->lru_pages[lru] -= reclaimed;
	if (r->removed)
		rr_lru_removed(r->removed[mi], lru, reclaimed, 0);
	r->out->nr_scanned_pages += scanned;
	r->out->nr_scanned_type_pages[t] += scanned;
	r->nr_scanned += scanned;	/* shrink_folio_list(): sc->nr_scanned += nr_taken */
	r->out->nr_reclaimed_type_pages[t] += reclaimed;
	/* the cost note of shrink_inactive_list() */
	{
		if (!from_recording)
			pageout = m->pageout_den[t] ?
				  scanned * m->pageout_num[t] / m->pageout_den[t] : 0;
		if (r->in->km->cost_rotations_x32)
			cost = pageout * RR_SWAP_CLUSTER_MAX + (scanned - reclaimed);
		else
			cost = pageout;
		if (r->in->km->cost_fractions)
			note_cost(r, t, cost);
	}
	return reclaimed;
}

/* ---- get_scan_count() ---- */

static uint64_t usage_pages(const struct rr_sim_memcg *m)
{
	return m->lru_pages[0] + m->lru_pages[1] + m->lru_pages[2] + m->lru_pages[3] +
	       m->unevictable_pages;
}

/*
 * memory.min/low scaling of one list (§3.7, mm/vmscan.c get_scan_count()):
 * v5.14+ (f56ce412a59d) with the +1 of 32d4f4b782bb from v5.15; the
 * v5.6 - v5.13 form before.  The reclaim root ([0]) is never protected.
 */
static uint64_t protect(struct run *r, int mi, uint64_t size)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	const struct rr_kernel_model *km = r->in->km;
	uint64_t min = m->min_pages, low = m->low_pages, protection, cgroup_size, scan;

	if (mi == 0 || !(min || low))
		return size;
	if (km->protection_low_outside_retry) {
		if (!r->memcg_low_reclaim && low > min) {
			protection = low;
			r->memcg_low_skipped = true;
		} else {
			protection = min;
		}
	} else {
		protection = r->memcg_low_reclaim ? min : (min > low ? min : low);
		if (!protection)
			return size;
	}
	cgroup_size = usage_pages(m);
	if (cgroup_size < protection)
		cgroup_size = protection;
	if (km->protection_usage_plus_one)
		cgroup_size++;
	scan = size - (uint64_t)((__uint128_t)size * protection / (cgroup_size ? cgroup_size : 1));
	return scan > RR_SWAP_CLUSTER_MAX ? scan : RR_SWAP_CLUSTER_MAX;
}

/* cgroup_reclaim(): sc->target_mem_cgroup is set.  Global reclaim
 * (direct, kswapd, node reclaim) has none. */
static bool cgroup_reclaim(const struct run *r)
{
	return r->in->kind != RR_KIND_DIRECT && r->in->kind != RR_KIND_KSWAPD &&
	       r->in->kind != RR_KIND_NODE;
}

/*
 * Before v5.5 (km->cache_trim_per_lruvec): does the lruvec of memcg @m
 * have enough inactive pages of @type (0 anon, 1 file) for get_scan_count()
 * to scan that type alone?  !inactive_list_is_low(lruvec, type) and the
 * lruvec's inactive list >> priority is non-zero, both on the exact local
 * sizes (lruvec_lru_size(), all zones for memcg reclaim).  v4.19/v5.4
 * mm/vmscan.c; inactive_list_is_low() is false for anon without swap; its
 * refault part (a changed WORKINGSET_ACTIVATE since the lruvec's last
 * snapshot makes the file list "low") is not modelled: no per-memcg
 * snapshot is replayed, every lruvec counts as unchanged.
 */
static bool lruvec_inactive_enough(const struct run *r, const struct rr_sim_memcg *m, int type)
{
	int inactive = type == RR_LRU_FILE ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON;
	bool low = (type == RR_LRU_FILE || r->in->swap_present) &&
		   rr_inactive_is_low(m->lru_pages[inactive], m->lru_pages[inactive + 1],
				      r->in->page_shift);

	return !low && (m->lru_pages[inactive] >> r->priority) != 0;
}

static int get_scan_count(struct run *r, int mi, uint64_t nr[RR_NR_EVICTABLE_LRU])
{
	const struct rr_sim_memcg *m = &r->m[mi];
	const bool per_lruvec = r->in->km->cache_trim_per_lruvec;
	enum scan_balance balance;
	uint64_t fraction[RR_NR_LRU_TYPES] = { 1, 1 }, denominator = 1;
	/* sc_swappiness(): a memory.reclaim write's swappiness= key
	 * (sc->proactive_swappiness, 68cd9050d871) overrides the memcg's */
	int swappiness = r->in->kind == RR_KIND_PROACTIVE && r->in->has_proactive_swappiness ?
			 r->in->proactive_swappiness : m->swappiness;

	/* no swap comes first: swappiness=max without swap scans file */
	if (!r->in->may_swap || !r->in->swap_present)
		balance = SCAN_FILE;
	else if (cgroup_reclaim(r) && swappiness == 0)
		balance = SCAN_FILE;
	else if (swappiness == RR_SWAPPINESS_ANON_ONLY)
		balance = SCAN_ANON;	/* swappiness=max, before SCAN_EQUAL */
	else if (r->priority == 0 && swappiness)
		balance = SCAN_EQUAL;
	else if (r->file_is_tiny && (!per_lruvec || lruvec_inactive_enough(r, m, RR_LRU_ANON)))
		balance = SCAN_ANON;	/* before v5.5 only with this lruvec's inactive anon */
	else if (per_lruvec ? lruvec_inactive_enough(r, m, RR_LRU_FILE) : r->cache_trim_mode)
		balance = SCAN_FILE;	/* before v5.5 per lruvec, then at the root */
	else
		balance = SCAN_FRACT;
	if (balance == SCAN_FRACT && m->fraction_override) {
		fraction[RR_LRU_ANON] = m->override_fraction[RR_LRU_ANON];
		fraction[RR_LRU_FILE] = m->override_fraction[RR_LRU_FILE];
		denominator = m->override_denominator ? m->override_denominator : 1;
	} else if (balance == SCAN_FRACT) {
		/* the kernel's u64 products (swappiness * (total_cost + 1)) stay
		 * below 2^64 for any cost a machine accrues; larger ones come from
		 * damaged input and would wrap */
		if (r->sc_anon_cost > RR_SIM_MAX_COST || r->sc_file_cost > RR_SIM_MAX_COST) {
			rr_error_set(r->err, "", "reclaim costs of %llu (anon) and %llu (file) pages "
				     "exceed 2^52: get_scan_count()'s fractions would overflow "
				     "(input out of range?)", (unsigned long long)r->sc_anon_cost,
				     (unsigned long long)r->sc_file_cost);
			return -1;
		}
		rr_scan_fractions(r->in->km, r->sc_anon_cost, r->sc_file_cost,
				  swappiness, &fraction[RR_LRU_ANON], &fraction[RR_LRU_FILE], &denominator);
	}

	for (int lru = 0; lru < RR_NR_EVICTABLE_LRU; lru++) {
		uint64_t size = m->lru_pages[lru];
		uint64_t scan = protect(r, mi, size) >> r->priority;
		int t = rr_lru_type(lru);

		/* "scrape out" dying cgroups */
		if (!scan && !m->online)
			scan = size < RR_SWAP_CLUSTER_MAX ? size : RR_SWAP_CLUSTER_MAX;
		switch (balance) {
		case SCAN_EQUAL:
			break;
		case SCAN_FRACT: {
			struct rr_scan_fract_args a = {
				.size = sizeof(a), .scan_pages = scan,
				.fraction = fraction[t], .denominator = denominator,
				.priority = r->priority, .lru = lru,
				.memcg_online = m->online, .memcg_id = m->id,
			};
			uint64_t v = 0, product;
			int ret;

			/* scan * fraction[file] is a u64 product in the kernel too:
			 * one past 2^64 is input no machine gives, not a target */
			if (__builtin_mul_overflow(scan, fraction[t], &product) ||
			    product > UINT64_MAX - denominator) {
				rr_error_set(r->err, "", "scan target of %llu pages times a fraction "
					     "of %llu/%llu overflows 64 bits (input out of range?)",
					     (unsigned long long)scan, (unsigned long long)fraction[t],
					     (unsigned long long)denominator);
				return -1;
			}
			ret = rr_hook_scan_fract_target(r->pol, &a, &v);

			if (ret) {
				rr_error_set(r->err, r->pol->name,
					     "policy hook scan_fract_target (%s) failed: %s",
					     r->pol->hook[RR_HOOK_SCAN_FRACT_TARGET].from,
					     rr_hook_error(r->pol, RR_HOOK_SCAN_FRACT_TARGET, ret));
				return -1;
			}
			scan = v > scan ? scan : v;
			break;
		}
		case SCAN_FILE:
			if (!t)
				scan = 0;
			break;
		case SCAN_ANON:
			if (t)
				scan = 0;
			break;
		}
		nr[lru] = scan;
		if (add_target(r, mi, lru, scan)) {
			rr_error_set(r->err, "", "out of memory");
			return -1;
		}
	}
	return 0;
}

/* ---- shrink_lruvec() ---- */

static int shrink_lruvec(struct run *r, int mi)
{
	uint64_t targets[RR_NR_EVICTABLE_LRU], nr[RR_NR_EVICTABLE_LRU];
	uint64_t local = 0;
	bool scan_adjusted = false;	/* pre-v6.1: no more checks after the cut */
	/* proportional_reclaim: global reclaim that is not kswapd, at
	 * priority 12 (direct reclaim; node reclaim starts at 4), never
	 * checks the goal (§23.3) */
	bool proportional = !cgroup_reclaim(r) && r->in->kind != RR_KIND_KSWAPD &&
			    r->priority == RR_DEF_PRIORITY;
	struct rr_sim_memcg *m = &r->m[mi];

	r->out->shrink_lruvec_calls++;
	if (r->out->memcg_calls)
		r->out->memcg_calls[mi]++;
	/* start from the sizes the kernel saw at a recorded call here */
	for (size_t k = 0; r->removed && k < m->nr_boundaries; k++) {
		const struct rr_sim_boundary *bd = &m->boundaries[k];

		if (bd->priority != r->priority || bd->call + 1 != r->out->calls)
			continue;
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			int64_t v = (int64_t)bd->lru_pages[l] -
				    ((int64_t)r->removed[mi][l] - (int64_t)bd->removed_before[l]);

			m->lru_pages[l] = v > 0 ? (uint64_t)v : 0;
		}
		break;
	}
	if (get_scan_count(r, mi, nr))
		return -1;
	memcpy(targets, nr, sizeof(nr));

	while (nr[RR_LRU_INACTIVE_ANON] || nr[RR_LRU_INACTIVE_FILE] || nr[RR_LRU_ACTIVE_FILE]) {
		for (int lru = 0; lru < RR_NR_EVICTABLE_LRU; lru++) {
			if (nr[lru]) {
				uint64_t b = nr[lru] < RR_SWAP_CLUSTER_MAX ?
					     nr[lru] : RR_SWAP_CLUSTER_MAX;

				nr[lru] -= b;
				local += shrink_list(r, mi, lru, b);
			}
		}
		if (r->out->batches > RR_SIM_MAX_BATCHES) {
			rr_error_set(r->err, "", "the simulation exceeds %llu LRU batches (scan "
				     "targets of %llu pages at priority %d): LRU sizes beyond what "
				     "the replay simulates (input out of range?)",
				     (unsigned long long)RR_SIM_MAX_BATCHES,
				     (unsigned long long)(targets[0] + targets[1] + targets[2] +
							  targets[3]), r->priority);
			return -1;
		}
		if (local < r->nr_to_reclaim || scan_adjusted || proportional)
			continue;
		uint64_t nr_anon = nr[RR_LRU_INACTIVE_ANON] + nr[RR_LRU_ACTIVE_ANON];
		uint64_t nr_file = nr[RR_LRU_INACTIVE_FILE] + nr[RR_LRU_ACTIVE_FILE];
		int small, big;
		uint64_t pct;

		if (!nr_anon || !nr_file)
			break;
		if (nr_file > nr_anon) {
			small = RR_LRU_INACTIVE_ANON;
			big = RR_LRU_INACTIVE_FILE;
			pct = nr_anon * 100 / (targets[RR_LRU_INACTIVE_ANON] +
					       targets[RR_LRU_ACTIVE_ANON] + 1);
		} else {
			small = RR_LRU_INACTIVE_FILE;
			big = RR_LRU_INACTIVE_ANON;
			pct = nr_file * 100 / (targets[RR_LRU_INACTIVE_FILE] +
					       targets[RR_LRU_ACTIVE_FILE] + 1);
		}
		nr[small] = nr[small + 1] = 0;
		for (int l = big; l <= big + 1; l++) {
			uint64_t done = targets[l] - nr[l];

			nr[l] = targets[l] * (100 - pct) / 100;
			nr[l] -= nr[l] < done ? nr[l] : done;
		}
		if (!r->in->km->cut_one_more_round)
			scan_adjusted = true;
	}
	r->nr_reclaimed += local;
	if (r->out->memcg_reclaimed_pages)
		r->out->memcg_reclaimed_pages[mi] += local;

	/* age the active anon list if it is short on inactive pages (rstat) */
	if (r->in->swap_present &&
	    rr_inactive_is_low(m->rstat_lru_pages[RR_LRU_INACTIVE_ANON],
			       m->rstat_lru_pages[RR_LRU_ACTIVE_ANON],
			       r->in->page_shift))
		shrink_active(r, mi, RR_LRU_ACTIVE_ANON, RR_SWAP_CLUSTER_MAX);
	return 0;
}

/* ---- prepare_scan_control() (§4) ---- */

static void prepare_scan_control(struct run *r)
{
	const uint64_t *rs = r->in->root_rstat_lru_pages;

	if (r->force_deactivate) {
		r->may_deactivate[RR_LRU_ANON] = r->may_deactivate[RR_LRU_FILE] = true;
	} else {
		r->may_deactivate[RR_LRU_ANON] = r->in->refaults_changed[RR_LRU_ANON] ||
			rr_inactive_is_low(rs[RR_LRU_INACTIVE_ANON], rs[RR_LRU_ACTIVE_ANON],
					   r->in->page_shift);
		r->may_deactivate[RR_LRU_FILE] = r->in->refaults_changed[RR_LRU_FILE] ||
			rr_inactive_is_low(rs[RR_LRU_INACTIVE_FILE], rs[RR_LRU_ACTIVE_FILE],
					   r->in->page_shift);
	}
	/* kswapd's cache-trim retry vetoes it (no_cache_trim_mode, §23.2);
	 * before v5.5 there is no sc->cache_trim_mode: get_scan_count()
	 * decides per lruvec (lruvec_inactive_enough()) */
	r->cache_trim_mode = !r->in->km->cache_trim_per_lruvec &&
			     (rs[RR_LRU_INACTIVE_FILE] >> r->priority) != 0 &&
			     !r->may_deactivate[RR_LRU_FILE] && !r->no_cache_trim_mode;
	/* global reclaim only: anon is worth scanning when the file cache
	 * is tiny next to the high watermarks (53138cea7f39); the node's
	 * inactive anon decides from v5.5 (b91ac374346b), each lruvec's own
	 * before (get_scan_count()) */
	r->file_is_tiny = !cgroup_reclaim(r) && r->in->node_high_wmark_pages &&
		r->in->node_free_pages + rs[RR_LRU_INACTIVE_FILE] + rs[RR_LRU_ACTIVE_FILE] <=
		r->in->node_high_wmark_pages &&
		(r->in->km->cache_trim_per_lruvec ||
		 (!r->may_deactivate[RR_LRU_ANON] && (rs[RR_LRU_INACTIVE_ANON] >> r->priority) != 0));
	r->sc_anon_cost = r->anon_cost;
	r->sc_file_cost = r->file_cost;
}

/*
 * Skip a memcg the walk must not reclaim (mm/vmscan.c shrink_node_memcgs(),
 * mem_cgroup_below_min/low()).  The reclaim root ([0], also the root memcg
 * of direct reclaim) is never protected.  Below min covers an empty memcg
 * (emin 0 >= usage 0), on v1 too.  Below low is skipped unless this is the
 * memcg_low_reclaim retry.  Usage is approximated by the LRU sizes.
 */
static bool walk_skips(struct run *r, int mi)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	uint64_t usage = usage_pages(m);

	if (mi == 0)
		return false;
	if (m->min_pages >= usage)
		return true;
	if (m->low_pages >= usage) {
		if (!r->memcg_low_reclaim) {
			r->memcg_low_skipped = true;
			return true;
		}
	}
	return false;
}

/* ---- shrink_node_memcgs() ---- */

/*
 * The memcg walk of one shrink_node() pass.  Partial walks on a shared
 * position: v6.11+ for every reclaimer but kswapd and the memcg_full_walk
 * retry (shrink_node_memcgs(), one position per root and node); before
 * v5.4 for limit reclaim (shrink_node() with a reclaim cookie, one
 * position per root, node and priority, broken off by
 * mem_cgroup_iter_break() once sc->nr_reclaimed >= sc->nr_to_reclaim;
 * global reclaim walked to the end with the cookie too, which without a
 * concurrent walker is the full walk).  Full walks otherwise.
 */
static int walk(struct run *r)
{
	int n = (int)r->in->nr_memcgs;
	int *pos = NULL;

	if (r->in->km->partial_walk && !r->memcg_full_walk && r->in->kind != RR_KIND_KSWAPD)
		pos = &r->cursor;
	else if (r->in->km->limit_walk_stops && cgroup_reclaim(r))
		pos = &r->iter_pos[r->priority];
	if (pos) {
		int i = *pos + 1;

		if (*pos < 0 || i >= n)
			i = 0;	/* fresh cursor, or first hand-out found the end */
		for (; i < n; i++) {
			*pos = i;
			if (walk_skips(r, i))
				continue;
			if (shrink_lruvec(r, i))
				return -1;
			if (r->nr_reclaimed >= r->nr_to_reclaim)
				return 0;	/* position stays on this memcg */
		}
		*pos = -1;		/* round complete: generation bumped */
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (walk_skips(r, i))
			continue;
		if (shrink_lruvec(r, i))
			return -1;
	}
	return 0;
}

/* try_to_free_mem_cgroup_pages() (or try_to_free_pages() for direct
 * reclaim, nr_to_reclaim = SWAP_CLUSTER_MAX) + do_try_to_free_pages() */
static int do_try(struct run *r, uint64_t nr_pages, uint64_t *reclaimed)
{
	r->nr_to_reclaim = nr_pages > RR_SWAP_CLUSTER_MAX ? nr_pages : RR_SWAP_CLUSTER_MAX;
	if (r->in->kind == RR_KIND_DIRECT)
		r->nr_to_reclaim = RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->force_deactivate = false;
	r->skipped_deactivate = false;
	r->memcg_full_walk = false;
	r->memcg_low_reclaim = false;
	r->memcg_low_skipped = false;
	r->out->calls++;

	if (r->in->outcome == RR_OUTCOME_EXACT) {
		uint64_t avail = exact_available(r);

		*reclaimed = r->nr_to_reclaim + r->in->exact_extra_pages;
		if (*reclaimed > avail)
			*reclaimed = avail;
		r->exact_reclaimed += *reclaimed;
		r->out->nr_scanned_pages += *reclaimed;
		return 0;
	}

	if (r->in->kind == RR_KIND_SOFTLIMIT) {
		/* mem_cgroup_shrink_node(): priority 0, no prepare_scan_control() */
		r->priority = 0;
		r->may_deactivate[RR_LRU_ANON] = r->may_deactivate[RR_LRU_FILE] = false;
		r->cache_trim_mode = false;
		r->sc_anon_cost = r->sc_file_cost = 0;
		r->out->lowest_priority = 0;
		if (shrink_lruvec(r, 0))
			return -1;
		*reclaimed = r->nr_reclaimed;
		return 0;
	}
	for (;;) {
		for (r->priority = RR_DEF_PRIORITY; r->priority >= 0; r->priority--) {
			if (r->priority < r->out->lowest_priority)
				r->out->lowest_priority = r->priority;
			prepare_scan_control(r);
			if (walk(r))
				return -1;
			if (r->nr_reclaimed >= r->nr_to_reclaim)
				break;
			/* shrink_zones() found a zone compaction_ready() for a
			 * costly order: do_try_to_free_pages() returns 1 */
			if (r->in->kind == RR_KIND_DIRECT && r->in->order > RR_PAGE_ALLOC_COSTLY_ORDER &&
			    r->in->compaction_ready_known &&
			    r->priority <= r->in->compaction_ready_priority) {
				r->out->compaction_ready = true;
				break;
			}
		}
		if (r->nr_reclaimed || r->out->compaction_ready)
			break;
		if (r->in->km->full_walk_retry && !r->memcg_full_walk) {
			r->memcg_full_walk = true;
			r->out->retries++;
			continue;
		}
		if (r->skipped_deactivate) {
			r->force_deactivate = true;
			r->skipped_deactivate = false;
			r->out->retries++;
			continue;
		}
		if (r->memcg_low_skipped) {
			r->force_deactivate = false;
			r->memcg_low_reclaim = true;
			r->memcg_low_skipped = false;
			r->out->retries++;
			continue;
		}
		break;
	}
	*reclaimed = r->nr_reclaimed;
	return 0;
}

static int do_try_cb(void *ctx, uint64_t nr_pages, uint64_t *nr_reclaimed)
{
	return do_try(ctx, nr_pages, nr_reclaimed);
}

/* RR_OUTCOME_EXACT: one node pass reclaims @goal + exact_extra_pages, at
 * most what the lists still hold; it counts as scanned too. */
static uint64_t exact_pass(struct run *r, uint64_t goal)
{
	uint64_t avail = exact_available(r), got = goal + r->in->exact_extra_pages;

	if (got > avail)
		got = avail;
	r->exact_reclaimed += got;
	r->out->nr_scanned_pages += got;
	r->nr_scanned = got;
	r->nr_reclaimed += got;
	return got;
}

/* One shrink_node() pass of global reclaim at r->priority: the node flags,
 * then the memcg walk (full for kswapd; partial on the root's cursor for
 * the others from v6.11).  kswapd's cache-trim bookkeeping: a pass in
 * cache_trim_mode that reclaimed nothing sets cache_trim_mode_failed. */
static int node_pass(struct run *r, uint64_t goal)
{
	uint64_t before = r->nr_reclaimed;

	r->nr_scanned = 0;
	if (r->priority < r->out->lowest_priority)
		r->out->lowest_priority = r->priority;
	if (r->in->outcome == RR_OUTCOME_EXACT) {
		exact_pass(r, goal);
		return 0;
	}
	prepare_scan_control(r);
	if (walk(r))
		return -1;
	if (r->cache_trim_mode && r->nr_reclaimed == before)
		r->cache_trim_mode_failed = true;
	return 0;
}

/*
 * kswapd_age_node() (v6.1+; age_active_anon() before): when anon can be
 * aged (swap) and the root memcg's anon is short on inactive pages in the
 * rstat view, one shrink_active_list() of SWAP_CLUSTER_MAX pages on the
 * active anon list of every memcg, root first, in pre-order: no
 * protection check, empty lists included (the batch's event is emitted
 * all the same).
 */
static void kswapd_age_node(struct run *r)
{
	const uint64_t *rs = r->in->root_rstat_lru_pages;

	if (!r->in->swap_present || r->in->outcome == RR_OUTCOME_EXACT ||
	    !rr_inactive_is_low(rs[RR_LRU_INACTIVE_ANON], rs[RR_LRU_ACTIVE_ANON],
				r->in->page_shift))
		return;
	for (size_t i = 0; i < r->in->nr_memcgs; i++)
		shrink_active(r, (int)i, RR_LRU_ACTIVE_ANON, RR_SWAP_CLUSTER_MAX);
}

/*
 * balance_pgdat() of kswapd (mm/vmscan.c; docs/kernel-model.md §23.2):
 * priority 12 down to 1, per iteration the balance check, the anon aging,
 * one node pass and kswapd_shrink_node()'s order drop and "enough
 * scanned" verdict; the priority falls unless enough was scanned and the
 * pass reclaimed something.  After the ladder, the cache-trim retry where
 * the release has it.  Boost, the v1 soft-limit calls and
 * should_continue_reclaim() are not modelled.
 */
static int kswapd_run(struct run *r, uint64_t *reclaimed)
{
	const struct rr_kernel_model *km = r->in->km;

	r->nr_to_reclaim = r->in->kswapd_nr_to_reclaim_pages > RR_SWAP_CLUSTER_MAX ?
			   r->in->kswapd_nr_to_reclaim_pages : RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->order = r->in->order;
	r->out->calls = 1;
	r->out->kswapd_end = RR_KSWAPD_END_LADDER;
restart:
	r->priority = RR_DEF_PRIORITY;
	do {
		uint64_t before = r->nr_reclaimed, progress;
		bool enough;

		/* pgdat_balanced() at the top of the iteration */
		if (r->nr_reclaimed >= r->in->balance_reclaim_pages) {
			r->out->kswapd_end = RR_KSWAPD_END_BALANCED;
			break;
		}
		if (r->in->balance_interval && r->nr_reclaimed > r->in->balance_unbalanced_pages)
			r->out->kswapd_balance_undecidable = true;
		kswapd_age_node(r);
		/* kswapd_shrink_node(): one shrink_node() */
		if (node_pass(r, r->nr_to_reclaim))
			return -1;
		r->out->kswapd_passes++;
		if (r->order && r->nr_reclaimed >= (2ULL << r->order))
			r->order = 0;	/* compact_gap(order) reclaimed */
		progress = r->nr_reclaimed - before;
		enough = km->kswapd_progress_max ?
			 (r->nr_scanned > progress ? r->nr_scanned : progress) >= r->nr_to_reclaim :
			 r->nr_scanned >= r->nr_to_reclaim;
		if (!enough || !progress)
			r->priority--;
	} while (r->priority >= 1);
	if (r->out->kswapd_end == RR_KSWAPD_END_LADDER && km->kswapd_cache_trim_retry &&
	    !r->nr_reclaimed && !r->no_cache_trim_mode && r->cache_trim_mode_failed) {
		r->no_cache_trim_mode = true;
		r->out->retries++;
		goto restart;
	}
	*reclaimed = r->nr_reclaimed;
	return 0;
}

/*
 * __node_reclaim() (mm/vmscan.c, NUMA node_reclaim_mode;
 * docs/kernel-model.md §23.4): nr_to_reclaim = max(1 << order, 32); one
 * shrink_node() per priority from NODE_RECLAIM_PRIORITY (4) down to 0
 * while the call has reclaimed fewer than 1 << order pages (the loop
 * tests 1 << order, not nr_to_reclaim).  The node_reclaim_mode bits
 * (may_unmap, may_writepage) and the page-cache/slab preconditions of
 * node_reclaim() are not modelled.
 */
#define NODE_RECLAIM_PRIORITY 4
static int node_run(struct run *r, uint64_t *reclaimed)
{
	uint64_t nr_pages = 1ULL << r->in->order;

	r->nr_to_reclaim = nr_pages > RR_SWAP_CLUSTER_MAX ? nr_pages : RR_SWAP_CLUSTER_MAX;
	r->nr_reclaimed = 0;
	r->order = r->in->order;
	r->out->calls = 1;
	r->priority = NODE_RECLAIM_PRIORITY;
	do {
		if (node_pass(r, r->nr_to_reclaim))
			return -1;
	} while (r->nr_reclaimed < nr_pages && --r->priority >= 0);
	if (r->priority < 0)
		r->priority = 0;
	*reclaimed = r->nr_reclaimed;
	return 0;
}

int rr_proactive_loop(const struct rr_resolved_policy *policy,
		      uint64_t nr_requested_pages, rr_reclaim_call_fn call,
		      void *ctx, struct rr_sim_result *out, struct rr_error *err)
{
	uint64_t done = 0, calls = 0;
	int retries = MAX_RECLAIM_RETRIES;

	while (done < nr_requested_pages) {
		struct rr_proactive_chunk_args a = {
			.size = sizeof(a), .nr_requested_pages = nr_requested_pages,
			.nr_reclaimed_pages = done, .nr_calls = calls,
		};
		uint64_t chunk = 0, got = 0;
		int ret = rr_hook_proactive_chunk(policy, &a, &chunk);

		if (ret) {
			rr_error_set(err, policy->name,
				     "policy hook proactive_chunk (%s) failed: %s",
				     policy->hook[RR_HOOK_PROACTIVE_CHUNK].from,
				     rr_hook_error(policy, RR_HOOK_PROACTIVE_CHUNK, ret));
			return -1;
		}
		if (++calls > MAX_CHUNK_CALLS) {
			rr_error_set(err, policy->name,
				     "memory.reclaim loop exceeded %u calls", MAX_CHUNK_CALLS);
			return -1;
		}
		if (call(ctx, chunk, &got))
			return -1;
		if (add_chunk(out, chunk, got)) {
			rr_error_set(err, "", "out of memory");
			return -1;
		}
		if (!got) {
			if (!retries) {
				out->eagain = true;	/* -EAGAIN */
				break;
			}
			retries--;
		}
		done += got;
	}
	out->nr_reclaimed_pages = done;
	if (!out->calls)
		out->calls = calls;
	return 0;
}

int rr_sim_predict_call(const struct rr_call_input *ci,
			const struct rr_resolved_policy *policy,
			struct rr_pred_batch *out, size_t cap, size_t *nr_out,
			uint64_t targets[RR_NR_EVICTABLE_LRU], struct rr_error *err)
{
	struct rr_sim_memcg m = ci->memcg;
	struct rr_sim_input in;
	struct rr_sim_result res;
	uint64_t zero[1][RR_NR_LRU_TYPES] = { { 0, 0 } }, zero2[1][RR_NR_EVICTABLE_LRU] = { { 0 } };
	uint64_t zero3[1][RR_NR_LRU_TYPES] = { { 0, 0 } }, zero4[1][RR_NR_LRU_TYPES] = { { 0, 0 } };
	struct run r;
	int ret;

	memset(&in, 0, sizeof(in));
	memset(&res, 0, sizeof(res));
	memset(&r, 0, sizeof(r));
	in.km = ci->km;
	in.kind = ci->kind;
	in.nr_pages = ci->nr_to_reclaim;
	in.memcgs = &m;
	in.nr_memcgs = 1;
	in.page_shift = ci->page_shift;
	in.may_swap = ci->may_swap;
	in.swap_present = ci->swap_present;
	if (ci->kind == RR_KIND_DIRECT || ci->kind == RR_KIND_KSWAPD) {
		in.node_free_pages = ci->node_free_pages;
		in.node_high_wmark_pages = ci->node_high_wmark_pages;
	}
	in.anon_cost = ci->anon_cost;
	in.file_cost = ci->file_cost;
	memcpy(in.root_rstat_lru_pages, ci->root_rstat_lru_pages, sizeof(in.root_rstat_lru_pages));
	memcpy(in.refaults_changed, ci->refaults_changed, sizeof(in.refaults_changed));
	r.in = &in;
	r.pol = policy;
	r.out = &res;
	r.err = err;
	r.m = &m;
	r.sim_scanned = zero;
	r.sim_requested = zero2;
	r.sim_activated = zero3;
	r.sim_deactivated = zero4;
	r.anon_cost = ci->anon_cost;
	r.file_cost = ci->file_cost;
	r.pred = out;
	r.pred_cap = cap;
	r.feed = ci;
	r.priority = ci->priority;
	r.nr_to_reclaim = ci->nr_to_reclaim > RR_SWAP_CLUSTER_MAX ?
			  ci->nr_to_reclaim : RR_SWAP_CLUSTER_MAX;
	if (ci->kind == RR_KIND_DIRECT)
		r.nr_to_reclaim = RR_SWAP_CLUSTER_MAX;	/* try_to_free_pages() */
	if (ci->kind == RR_KIND_SOFTLIMIT) {
		r.sc_anon_cost = r.sc_file_cost = 0;	/* no prepare_scan_control() */
	} else {
		r.force_deactivate = ci->force_deactivate;
		r.no_cache_trim_mode = ci->no_cache_trim_mode;
		prepare_scan_control(&r);
	}
	ret = shrink_lruvec(&r, 0);
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		targets[l] = 0;
	for (size_t i = 0; i < res.nr_targets; i++)
		targets[res.targets[i].lru] = res.targets[i].nr_pages;
	*nr_out = r.nr_pred;
	rr_sim_result_free(&res);
	return ret;
}

/*
 * The working copy of a run's memcgs and its per-memcg counters, in one
 * block per thread that only grows: no allocation per run once it has
 * the size of the largest walk (the replay runs every policy on every
 * episode).
 */
static __thread struct {
	void *buf;
	size_t cap;
} work;

static int scratch(struct run *r, size_t n)
{
	size_t m = n * sizeof(*r->m), counters = n * (sizeof(*r->sim_scanned) +
		   sizeof(*r->sim_requested) + sizeof(*r->sim_activated) +
		   sizeof(*r->sim_deactivated) + sizeof(*r->rec_pos) + sizeof(*r->removed));
	char *p;

	if (m + counters > work.cap) {
		void *b = realloc(work.buf, m + counters);

		if (!b)
			return -1;
		work.buf = b;
		work.cap = m + counters;
	}
	p = work.buf;
	r->m = (struct rr_sim_memcg *)p;
	p += m;
	memset(p, 0, counters);
	r->sim_scanned = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_scanned);
	r->sim_requested = (uint64_t (*)[RR_NR_EVICTABLE_LRU])p;
	p += n * sizeof(*r->sim_requested);
	r->sim_activated = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_activated);
	r->sim_deactivated = (uint64_t (*)[RR_NR_LRU_TYPES])p;
	p += n * sizeof(*r->sim_deactivated);
	r->rec_pos = (size_t (*)[RR_NR_EVICTABLE_LRU])p;
	p += n * sizeof(*r->rec_pos);
	r->removed = (uint64_t (*)[RR_NR_EVICTABLE_LRU])p;
	return 0;
}

void rr_sim_scratch_free(void)
{
	free(work.buf);
	work.buf = NULL;
	work.cap = 0;
}

void rr_sim_result_clear(struct rr_sim_result *r)
{
	struct rr_sim_result keep = *r;

	memset(r, 0, sizeof(*r));
	r->targets = keep.targets;
	r->cap_targets = keep.cap_targets;
	r->chunk_requests = keep.chunk_requests;
	r->chunk_reclaimed = keep.chunk_reclaimed;
	r->cap_chunks = keep.cap_chunks;
	r->memcg_calls = keep.memcg_calls;
	r->memcg_reclaimed_pages = keep.memcg_reclaimed_pages;
	r->memcg_ids = keep.memcg_ids;
	r->cap_memcg_slots = keep.cap_memcg_slots;
}

/* The per-memcg result arrays for @in's memcgs, zeroed (ids set); kept
 * across runs. */
static int memcg_slots(struct rr_sim_result *o, const struct rr_sim_input *in)
{
	size_t n = in->nr_memcgs;

	if (n > o->cap_memcg_slots) {
		uint64_t *c = realloc(o->memcg_calls, n * sizeof(*c));

		if (!c)
			return -1;
		o->memcg_calls = c;
		c = realloc(o->memcg_reclaimed_pages, n * sizeof(*c));
		if (!c)
			return -1;
		o->memcg_reclaimed_pages = c;
		c = realloc(o->memcg_ids, n * sizeof(*c));
		if (!c)
			return -1;
		o->memcg_ids = c;
		o->cap_memcg_slots = n;
	}
	memset(o->memcg_calls, 0, n * sizeof(*o->memcg_calls));
	memset(o->memcg_reclaimed_pages, 0, n * sizeof(*o->memcg_reclaimed_pages));
	for (size_t k = 0; k < n; k++)
		o->memcg_ids[k] = in->memcgs[k].id;
	o->nr_memcg_slots = n;
	return 0;
}

/* The plug-in ABI's number of a kind: fixed in policy.h, whatever order
 * the internal enum takes. */
static int policy_kind(enum rr_reclaim_kind kind)
{
	switch (kind) {
	case RR_KIND_MEMCG:
		return RR_POLICY_EPISODE_MEMCG;
	case RR_KIND_SOFTLIMIT:
		return RR_POLICY_EPISODE_SOFTLIMIT;
	case RR_KIND_DIRECT:
		return RR_POLICY_EPISODE_DIRECT;
	case RR_KIND_KSWAPD:
		return RR_POLICY_EPISODE_KSWAPD;
	case RR_KIND_NODE:
		return RR_POLICY_EPISODE_NODE;
	case RR_KIND_PROACTIVE:
		return RR_POLICY_EPISODE_PROACTIVE;
	default:
		return -1;	/* (the simulator runs no other kind) */
	}
}

const char *rr_proactive_swappiness_refused(const struct rr_kernel_model *km, int swappiness)
{
	if (swappiness < RR_MIN_SWAPPINESS || swappiness > RR_SWAPPINESS_ANON_ONLY)
		return "not 0..200 or max";
	if (!km->proactive_swappiness_key)
		return "the release has no swappiness= key in memory.reclaim (68cd9050d871, "
		       "v6.11): the write fails with EINVAL";
	if (swappiness == RR_SWAPPINESS_ANON_ONLY && !km->proactive_swappiness_max)
		return "the release has no swappiness=max in memory.reclaim (~v6.16): the "
		       "write fails with EINVAL";
	return NULL;
}

/* The swappiness= key of a request: only a proactive one has it, and only
 * what its release accepts (there is nothing to replay otherwise). */
static int check_proactive_swappiness(const struct rr_sim_input *in, struct rr_error *err)
{
	const char *why;

	int v = in->proactive_swappiness;

	if (!in->has_proactive_swappiness)
		return 0;
	if (in->kind != RR_KIND_PROACTIVE) {
		rr_error_set(err, "", "a swappiness= key is for a memory.reclaim write "
			     "(a proactive request), not a %s one", rr_reclaim_kind_name(in->kind));
		return -1;
	}
	if ((why = rr_proactive_swappiness_refused(in->km, v))) {
		rr_error_set(err, "", "kernel %s, memory.reclaim swappiness=%d: %s",
			     in->km->release, v, why);
		return -1;
	}
	return 0;
}

int rr_sim_run(const struct rr_sim_input *in, const struct rr_resolved_policy *policy,
	       struct rr_sim_result *out, struct rr_error *err)
{
	struct run r;
	uint64_t got = 0;
	int ret = -1;

	if (!in->nr_memcgs) {
		rr_error_set(err, "", "reclaim request with no memcg to reclaim from");
		return -1;
	}
	if (check_proactive_swappiness(in, err))
		return -1;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.pol = policy;
	r.out = out;
	r.err = err;
	r.anon_cost = in->anon_cost;
	r.file_cost = in->file_cost;
	r.cursor = in->cursor;
	/* before v5.4 the input's cursor is the priority-12 position, where
	 * a reclaim call's first walk starts; the other priorities' positions
	 * are not in the trace and start at the root */
	for (int p = 0; p <= RR_DEF_PRIORITY; p++)
		r.iter_pos[p] = -1;
	r.iter_pos[RR_DEF_PRIORITY] = in->cursor;
	if (scratch(&r, in->nr_memcgs) || memcg_slots(out, in)) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	memcpy(r.m, in->memcgs, in->nr_memcgs * sizeof(*r.m));
	out->lowest_priority = RR_DEF_PRIORITY;
	{
		struct rr_episode_args a = {
			.size = sizeof(a), .id = in->episode_id, .kind = policy_kind(in->kind),
			.nr_to_reclaim_pages = in->nr_pages,
			.root_memcg_id = in->memcgs[0].id, .start_ns = in->start_ns,
		};

		if (rr_policy_episode_begin(policy, &a, err))
			goto out;
	}

	if (in->kind == RR_KIND_PROACTIVE) {
		if (rr_proactive_loop(policy, in->nr_pages, do_try_cb, &r, out, err))
			goto out;
	} else {
		int ret2 = in->kind == RR_KIND_KSWAPD ? kswapd_run(&r, &got) :
			   in->kind == RR_KIND_NODE ? node_run(&r, &got) :
			   do_try(&r, in->nr_pages, &got);

		if (ret2)
			goto out;
		if (add_chunk(out, in->nr_pages, got)) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
		out->nr_reclaimed_pages = got;
	}
	out->cursor = in->km->limit_walk_stops && cgroup_reclaim(&r) ?
		      r.iter_pos[RR_DEF_PRIORITY] : r.cursor;
	{
		struct rr_episode_end_args a = {
			.size = sizeof(a), .id = in->episode_id,
			.nr_scanned_pages = out->nr_scanned_pages,
			.nr_reclaimed_pages = out->nr_reclaimed_pages, .nr_calls = out->calls,
			.lowest_priority = out->lowest_priority, .eagain = out->eagain,
		};

		if (rr_policy_episode_end(policy, &a, err))
			goto out;
	}
	ret = 0;
out:
	return ret;
}
