/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fields of the recorder's kprobe at the entry of shrink_lruvec()
 * (record(1), src/record/probes.c writes it, the trace readers decode it,
 * docs/kernel-model.md §26): what one call's get_scan_count() reads, taken
 * from the kernel's structures.  The names here are the probe's field
 * names, so the recorder and the readers share them.
 */
#ifndef RR_COMMON_PROBE_H
#define RR_COMMON_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "lru.h"

/*
 * The recorder's kprobe at the entry of shrink_lruvec() (record(1),
 * src/record/probes.h, docs/kernel-model.md §26): what one call's
 * get_scan_count() reads, taken from the kernel's structures.  A field the
 * record lacks (an older or newer kernel's structures) is not in @present.
 * Sizes and costs in pages.
 */
enum rr_probe_field {
	RR_PF_CGROUP_ID,	/* the lruvec's memcg, as its cgroup id */
	RR_PF_MEMCG,		/* its address (maps RR_PF_TARGET to an id) */
	RR_PF_TARGET,		/* sc->target_mem_cgroup's address, 0 global */
	RR_PF_CSS_FLAGS,	/* CSS_ONLINE is bit 1 */
	RR_PF_SWAPPINESS,	/* memcg->swappiness (cgroup v1's) */
	RR_PF_VM_SWAPPINESS,
	RR_PF_NR_SWAP_PAGES,	/* free swap pages, signed */
	RR_PF_EMIN, RR_PF_ELOW,	/* effective protection, pages */
	RR_PF_USAGE,		/* memcg->memory's page counter, pages */
	RR_PF_LV_ANON_COST, RR_PF_LV_FILE_COST,	/* this lruvec's pair */
	RR_PF_NR_TO_RECLAIM, RR_PF_NR_RECLAIMED, RR_PF_NR_SCANNED,
	RR_PF_PRIORITY, RR_PF_RECLAIM_IDX, RR_PF_ORDER,
	RR_PF_ANON_COST, RR_PF_FILE_COST,	/* the reclaim root's, as copied */
	RR_PF_GFP_MASK,
	RR_PF_MAY_DEACTIVATE,	/* DEACTIVATE_ANON 1 | DEACTIVATE_FILE 2 */
	RR_PF_FORCE_DEACTIVATE, RR_PF_SKIPPED_DEACTIVATE, RR_PF_MAY_WRITEPAGE,
	RR_PF_MAY_UNMAP, RR_PF_MAY_SWAP, RR_PF_PROACTIVE, RR_PF_MEMCG_LOW_RECLAIM,
	RR_PF_MEMCG_LOW_SKIPPED, RR_PF_CACHE_TRIM_MODE, RR_PF_FILE_IS_TINY,
	RR_PF__COUNT
};

/* The most zones a probe record holds (MAX_NR_ZONES is at most 5 today) */
#define RR_PROBE_MAX_ZONES 8

struct rr_lruvec_probe {
	uint64_t v[RR_PF__COUNT];
	uint64_t present;		/* bit f: v[f] was in the record */
	/* mem_cgroup_per_node.lru_zone_size[z][l]: exact, per zone */
	uint64_t zone_lru[RR_PROBE_MAX_ZONES][RR_NR_EVICTABLE_LRU];
	int nr_zones;			/* zones whose four lists are all there */
	/* the lruvec's rstat view (lruvec_stats.state[]), hierarchical */
	uint64_t rstat_lru[RR_NR_EVICTABLE_LRU];
	bool has_rstat;
};

static inline bool rr_probe_has(const struct rr_lruvec_probe *p, enum rr_probe_field f)
{
	return p->present >> f & 1;
}

/* The exact size of list @lru over the zones up to @reclaim_idx (what
 * lruvec_lru_size() reads), pages. */
static inline uint64_t rr_probe_lru_pages(const struct rr_lruvec_probe *p, int lru,
					  int reclaim_idx)
{
	uint64_t sum = 0;

	for (int z = 0; z < p->nr_zones && z <= reclaim_idx; z++)
		sum += p->zone_lru[z][lru];
	return sum;
}

/**
 * rr_probe_check() - is every value of @p one a kernel writes?
 * (cgroup id above 0, priority 0..12, swappiness 0..200, the switches 0 or
 * 1, sizes and counts below 2^40 pages, ...: a damaged or crafted trace)
 * Return: 0, or -1 with the first bad field's name in *@bad and its value
 * in *@badv.
 */
int rr_probe_check(const struct rr_lruvec_probe *p, const char **bad, uint64_t *badv);

/* The probe's field name of @f ("cgroup_id", "nr_to_reclaim", ...). */
const char *rr_probe_field_name(enum rr_probe_field f);

/* The field names of the per-zone sizes, "z<Z>_<L>", and of the rstat view,
 * "rs_<L>", with <L> one of these (enum lru_list order 0..3). */
extern const char *const rr_probe_lru_names[RR_NR_EVICTABLE_LRU];

/* The probe's group is RR_PROBE_GROUP_PREFIX<pid>, its event RR_PROBE_EVENT.
 * Two more where the kernel allows: RR_PROBE_RET_EVENT, a kretprobe on
 * shrink_lruvec() (the call's end: batches after it and before the next
 * call are not the call's, kswapd_age_node()'s), and RR_PROBE_ACTIVE_EVENT
 * at the entry of shrink_active_list() (fields cgroup_id, lru, nr_to_scan,
 * priority: the memcg of every active batch, the aging ones included). */
#define RR_PROBE_EVENT "shrink_lruvec"
#define RR_PROBE_RET_EVENT "shrink_lruvec_ret"
#define RR_PROBE_ACTIVE_EVENT "shrink_active"
/* And a pair around every write to a memory.reclaim file, by any task
 * (docs/kernel-model.md §26 item 5): RR_PROBE_WRITE_EVENT at the entry of
 * memory_reclaim() (v5.19+: fields cgroup_id, the cgroup written to, its
 * kernfs directory's id; nbytes; buf, the text written) and
 * RR_PROBE_WRITE_RET_EVENT at its return (ret: nbytes or -errno).  The
 * replay makes each pair one proactive episode with its exact request,
 * as the recorder's own proactive markers. */
#define RR_PROBE_WRITE_EVENT "memory_reclaim"
#define RR_PROBE_WRITE_RET_EVENT "memory_reclaim_ret"
#define RR_PROBE_GROUP_PREFIX "reclaim_replay_"

/* CSS_ONLINE of include/linux/cgroup-defs.h */
#define RR_CSS_ONLINE (1u << 1)

#endif
