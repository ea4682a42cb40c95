// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_lruvec() (§5): batches of at most SWAP_CLUSTER_MAX pages from
 * each list's target, the goal check and the proportional cut, the anon
 * aging after the loop; shrink_list() and shrink_active_list() under the
 * outcome model (sim.h): what a batch takes, reclaims, activates or
 * deactivates, and the cost it notes on the reclaim root.
 */
#include "sim-local.h"

#include <string.h>

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

/* The memcg's next recorded batch of @lru, if the tape stands at its
 * start and it asked for @b pages too (then it is consumed); NULL
 * otherwise. */
static const struct rr_sim_outcome *next_recorded(struct run *r, int mi, int lru, uint64_t b)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	size_t *pos = &r->rec_pos[mi][lru];

	if (r->rec_off[mi][lru])
		return NULL;
	while (*pos < m->nr_recorded && m->recorded[*pos].lru != lru)
		(*pos)++;
	if (*pos >= m->nr_recorded || m->recorded[*pos].nr_requested != b)
		return NULL;
	return &m->recorded[(*pos)++];
}

/* The part of @total that falls on pages [@off, @off + @k) of a batch
 * that took @taken pages, spread evenly (floor at both ends: the parts
 * of one batch add up to @total). */
static uint64_t part(uint64_t total, uint64_t off, uint64_t k, uint64_t taken)
{
	return (uint64_t)((__uint128_t)total * (off + k) / taken) -
	       (uint64_t)((__uint128_t)total * off / taken);
}

/*
 * The tape (docs/kernel-model.md §20, "the tape"): the pages a list gives up in LRU
 * order are the same pages whichever batches take them, so a batch that
 * does not repeat the next recorded one takes its @n pages from where the
 * recorded batches of the list stand: the outcome of the recorded pages
 * [pos, pos + n), each recorded batch's reclaimed, activated, written
 * and deactivated pages spread evenly over the pages it took.  Past the
 * recording's last batch of the list, the pages further up behave as its
 * last SWAP_CLUSTER_MAX * 2 pages did (the end of a full reclaim: the
 * pages no pass could free stay unfreeable, instead of yielding the
 * episode's average share; after a write that ended in -EAGAIN, none of
 * them is freed).  Returns true with @o the outcome; false
 * when the list has no recorded batch at all (then the ratios decide).
 */
static bool tape(struct run *r, int mi, int lru, uint64_t n, struct rr_sim_outcome *o)
{
	const struct rr_sim_memcg *m = &r->m[mi];
	size_t *pos = &r->rec_pos[mi][lru];
	uint64_t *off = &r->rec_off[mi][lru], left = n, wt = 0, wr = 0, wa = 0, wp = 0, wd = 0;
	size_t last = m->nr_recorded;

	memset(o, 0, sizeof(*o));
	while (left) {
		const struct rr_sim_outcome *b;
		uint64_t k;

		while (*pos < m->nr_recorded &&
		       (m->recorded[*pos].lru != lru || !m->recorded[*pos].nr_taken)) {
			(*pos)++;
			*off = 0;
		}
		if (*pos >= m->nr_recorded)
			break;
		b = &m->recorded[*pos];
		k = b->nr_taken - *off < left ? b->nr_taken - *off : left;
		o->nr_reclaimed += part(b->nr_reclaimed, *off, k, b->nr_taken);
		o->nr_activate += part(b->nr_activate, *off, k, b->nr_taken);
		o->nr_pageout += part(b->nr_pageout, *off, k, b->nr_taken);
		o->nr_deactivate += part(b->nr_deactivate, *off, k, b->nr_taken);
		left -= k;
		*off += k;
		if (*off == b->nr_taken) {
			(*pos)++;
			*off = 0;
		}
	}
	if (!left)
		return true;
	/* past the end: the window of the list's last recorded pages */
	while (last-- > 0 && wt < 2 * RR_SWAP_CLUSTER_MAX) {
		const struct rr_sim_outcome *b = &m->recorded[last];

		if (b->lru != lru)
			continue;
		wt += b->nr_taken;
		wr += b->nr_reclaimed;
		wa += b->nr_activate;
		wp += b->nr_pageout;
		wd += b->nr_deactivate;
	}
	if (!wt)
		return false;	/* (nothing covered: the list has no batch) */
	/* (the offset, unused past the end, diffuses the window's shares);
	 * after a write that ended in -EAGAIN the pages past the recording
	 * are those no pass could free: rotated back, reclaimed by none */
	if (!r->in->recorded_exhausted) {
		o->nr_reclaimed += part(wr, *off, left, wt);
		o->nr_activate += part(wa, *off, left, wt);
		o->nr_pageout += part(wp, *off, left, wt);
	}
	o->nr_deactivate += part(wd, *off, left, wt);
	*off += left;
	return true;
}

/* @pages rounded to whole folios of @f pages, at most @cap. */
static uint64_t folios(uint64_t pages, uint64_t f, uint64_t cap)
{
	if (f > 1)
		pages = (pages + f / 2) / f * f;
	return pages < cap ? pages : cap;
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
void rr_sim_shrink_active(struct run *r, int mi, int lru, uint64_t b)
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
		struct rr_sim_outcome to;

		taken = take(r, mi, lru, b);
		if (taken && tape(r, mi, lru, taken, &to))
			moved = folios(to.nr_deactivate, m->folio_pages[t], taken);
		else
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
	struct rr_sim_outcome to;
	int t = rr_lru_type(lru);
	uint64_t scanned, reclaimed, cost, activated = 0, pageout = 0;
	bool from_recording = false;

	if (rr_lru_is_active(lru)) {
		if (!r->may_deactivate[t]) {
			r->skipped_deactivate = true;
			return 0;
		}
		rr_sim_shrink_active(r, mi, lru, b);
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
	} else if ((scanned = take(r, mi, lru, b)) && tape(r, mi, lru, scanned, &to)) {
		from_recording = true;
		reclaimed = folios(to.nr_reclaimed, m->folio_pages[t], scanned);
		activated = folios(to.nr_activate, m->folio_pages[t], scanned - reclaimed);
		pageout = to.nr_pageout;
	} else {
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

int rr_sim_shrink_lruvec(struct run *r, int mi)
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
	if (rr_sim_get_scan_count(r, mi, nr))
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
		rr_sim_shrink_active(r, mi, RR_LRU_ACTIVE_ANON, RR_SWAP_CLUSTER_MAX);
	return 0;
}
