// SPDX-License-Identifier: GPL-2.0-only
/*
 * get_scan_count() (docs/kernel-model.md §3): the scan balance and each
 * list's target, with the memory.min/low scaling (§3.7) and the SCAN_FRACT
 * fractions (§3.5); and prepare_scan_control() (§4), which reads the
 * reclaim root's cost pair and rstat view for it once per shrink_node()
 * pass.
 */
#include "sim-local.h"

#include "../common/swappiness.h"

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

int rr_sim_get_scan_count(struct run *r, int mi, uint64_t nr[RR_NR_EVICTABLE_LRU])
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

void rr_sim_prepare_scan_control(struct run *r)
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
	/* the recording's pass here: the switches as the kernel set them */
	r->pass_matched = -1;
	for (size_t k = r->pass_cursor; r->in->passes && k < r->in->nr_passes; k++) {
		const struct rr_sim_pass *ps = &r->in->passes[k];

		if (ps->priority != r->priority || ps->call + 1 != (uint32_t)r->out->calls)
			continue;
		r->may_deactivate[RR_LRU_ANON] = ps->may_deactivate & 1;
		r->may_deactivate[RR_LRU_FILE] = ps->may_deactivate & 2;
		r->cache_trim_mode = ps->cache_trim_mode;
		r->file_is_tiny = ps->file_is_tiny;
		r->sc_anon_cost = ps->anon_cost;
		r->sc_file_cost = ps->file_cost;
		r->pass_cursor = k + 1;
		r->pass_matched = (long)k;
		break;
	}
}
