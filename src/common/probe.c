// SPDX-License-Identifier: GPL-2.0-only
/* The shrink_lruvec() probe's field names (probe.h). */
#include "probe.h"

#include <stddef.h>

const char *const rr_probe_lru_names[RR_NR_EVICTABLE_LRU] = { "ia", "aa", "if", "af" };

const char *rr_probe_field_name(enum rr_probe_field f)
{
	static const char *const names[RR_PF__COUNT] = {
		[RR_PF_CGROUP_ID] = "cgroup_id", [RR_PF_MEMCG] = "memcg",
		[RR_PF_TARGET] = "target", [RR_PF_CSS_FLAGS] = "css_flags",
		[RR_PF_SWAPPINESS] = "swappiness", [RR_PF_VM_SWAPPINESS] = "vm_swappiness",
		[RR_PF_NR_SWAP_PAGES] = "nr_swap_pages", [RR_PF_EMIN] = "emin",
		[RR_PF_ELOW] = "elow", [RR_PF_USAGE] = "usage",
		[RR_PF_LV_ANON_COST] = "lv_anon_cost", [RR_PF_LV_FILE_COST] = "lv_file_cost",
		[RR_PF_NR_TO_RECLAIM] = "nr_to_reclaim", [RR_PF_NR_RECLAIMED] = "nr_reclaimed",
		[RR_PF_NR_SCANNED] = "nr_scanned", [RR_PF_PRIORITY] = "priority",
		[RR_PF_RECLAIM_IDX] = "reclaim_idx", [RR_PF_ORDER] = "order",
		[RR_PF_ANON_COST] = "anon_cost", [RR_PF_FILE_COST] = "file_cost",
		[RR_PF_GFP_MASK] = "gfp_mask", [RR_PF_MAY_DEACTIVATE] = "may_deactivate",
		[RR_PF_FORCE_DEACTIVATE] = "force_deactivate",
		[RR_PF_SKIPPED_DEACTIVATE] = "skipped_deactivate",
		[RR_PF_MAY_WRITEPAGE] = "may_writepage", [RR_PF_MAY_UNMAP] = "may_unmap",
		[RR_PF_MAY_SWAP] = "may_swap", [RR_PF_PROACTIVE] = "proactive",
		[RR_PF_MEMCG_LOW_RECLAIM] = "memcg_low_reclaim",
		[RR_PF_MEMCG_LOW_SKIPPED] = "memcg_low_skipped",
		[RR_PF_CACHE_TRIM_MODE] = "cache_trim_mode", [RR_PF_FILE_IS_TINY] = "file_is_tiny",
	};

	return (unsigned int)f < RR_PF__COUNT ? names[f] : "?";
}

int rr_probe_check(const struct rr_lruvec_probe *p, const char **bad, uint64_t *badv)
{
	/* the largest value a kernel writes in each (sizes and counts in
	 * pages: 2^40 pages is 4 PiB of 4 KiB pages) */
	static const struct {
		enum rr_probe_field f;
		uint64_t max;
	} lim[] = {
		{ RR_PF_CGROUP_ID, 1ull << 48 }, { RR_PF_PRIORITY, 12 },
		{ RR_PF_RECLAIM_IDX, RR_PROBE_MAX_ZONES - 1 }, { RR_PF_ORDER, 20 },
		{ RR_PF_SWAPPINESS, 200 }, { RR_PF_VM_SWAPPINESS, 200 },
		{ RR_PF_NR_TO_RECLAIM, 1ull << 40 }, { RR_PF_NR_RECLAIMED, 1ull << 40 },
		{ RR_PF_NR_SCANNED, 1ull << 40 }, { RR_PF_EMIN, 1ull << 52 },
		{ RR_PF_ELOW, 1ull << 52 }, { RR_PF_USAGE, 1ull << 52 },
		{ RR_PF_ANON_COST, 1ull << 56 }, { RR_PF_FILE_COST, 1ull << 56 },
		{ RR_PF_LV_ANON_COST, 1ull << 56 }, { RR_PF_LV_FILE_COST, 1ull << 56 },
		{ RR_PF_MAY_DEACTIVATE, 3 }, { RR_PF_FORCE_DEACTIVATE, 1 },
		{ RR_PF_SKIPPED_DEACTIVATE, 1 }, { RR_PF_MAY_WRITEPAGE, 1 },
		{ RR_PF_MAY_UNMAP, 1 }, { RR_PF_MAY_SWAP, 1 }, { RR_PF_PROACTIVE, 1 },
		{ RR_PF_MEMCG_LOW_RECLAIM, 1 }, { RR_PF_MEMCG_LOW_SKIPPED, 1 },
		{ RR_PF_CACHE_TRIM_MODE, 1 }, { RR_PF_FILE_IS_TINY, 1 },
	};

	if (rr_probe_has(p, RR_PF_CGROUP_ID) && !p->v[RR_PF_CGROUP_ID]) {
		*bad = rr_probe_field_name(RR_PF_CGROUP_ID);
		*badv = 0;
		return -1;
	}
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (rr_probe_has(p, lim[i].f) && p->v[lim[i].f] > lim[i].max) {
			*bad = rr_probe_field_name(lim[i].f);
			*badv = p->v[lim[i].f];
			return -1;
		}
	if (p->nr_zones < 0 || p->nr_zones > RR_PROBE_MAX_ZONES) {
		*bad = "z0_ia";
		*badv = (uint64_t)p->nr_zones;
		return -1;
	}
	for (int z = 0; z < p->nr_zones; z++)
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			if (p->zone_lru[z][l] > 1ull << 40) {
				*bad = "zone size";
				*badv = p->zone_lru[z][l];
				return -1;
			}
	for (int l = 0; p->has_rstat && l < RR_NR_EVICTABLE_LRU; l++)
		if (p->rstat_lru[l] > 1ull << 40) {
			*bad = "rstat size";
			*badv = p->rstat_lru[l];
			return -1;
		}
	return 0;
}
