/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recorder's kprobe on shrink_lruvec(): on kernels without memcg:
 * events (before 6.13) no event says which memcg a batch scanned, nor the
 * LRU sizes, costs and switches get_scan_count() read.  Where the kernel
 * has kprobe events, BTF (/sys/kernel/btf/vmlinux) and shrink_lruvec() as
 * a function of its own (not inlined), one probe at its entry reads them
 * all from the kernel's own structures, once per shrink_lruvec() call:
 *
 *   cgroup_id      the lruvec's memcg, as its cgroup id (the inode number
 *                  cgroup_mkdir and the snapshots name)
 *   memcg          that memcg's address (maps target= to a cgroup id)
 *   css_flags      its css flags (CSS_ONLINE, bit 1)
 *   swappiness     memcg->swappiness (cgroup v1; v2 reads vm_swappiness)
 *   vm_swappiness  the sysctl
 *   nr_swap_pages  free swap pages, system-wide (can_reclaim_anon_pages())
 *   emin, elow, usage   memcg->memory's effective protection and usage
 *   zZ_L           mem_cgroup_per_node.lru_zone_size[Z][L], pages: the
 *                  exact per-zone sizes of the four evictable lists
 *                  (L: ia aa if af, rr_probe_lru_names)
 *   rs_L           the lruvec's rstat view (lruvec_stats.state[]) of the
 *                  four lists, hierarchical, as of the last flush
 *   lv_anon_cost, lv_file_cost   this lruvec's cost pair
 *   and scan_control's nr_to_reclaim, nr_reclaimed, nr_scanned, priority,
 *   reclaim_idx, order, anon_cost, file_cost (the reclaim root's pair as
 *   prepare_scan_count() copied it), target (target_mem_cgroup's address,
 *   0 for global reclaim), gfp_mask and the bits may_deactivate,
 *   force_deactivate, skipped_deactivate, may_writepage, may_unmap,
 *   may_swap, proactive, memcg_low_reclaim, memcg_low_skipped,
 *   cache_trim_mode, file_is_tiny.
 *
 * A field the running kernel's structures lack (a bit of a later release)
 * is left out of the event; the reader takes what is there.  Mirrors
 * mm/vmscan.c of v6.1 (get_scan_count(), prepare_scan_count()); the member
 * names have held from v5.9 (anon_cost in scan_control, 1431d4d11abb) on.
 */
#ifndef RR_RECORD_PROBES_H
#define RR_RECORD_PROBES_H

#include <stdbool.h>
#include <stddef.h>

/* the field names, RR_PROBE_EVENT and RR_PROBE_GROUP_PREFIX */
#include "../common/probe.h"

struct rr_probe_plan {
	char group[48];		/* RR_PROBE_GROUP_PREFIX<pid> */
	char *definition;	/* the kprobe_events line ("p:GROUP/EVENT ..."),
				 * malloc'ed; NULL when the probe cannot be made */
	/* the optional ones (RR_PROBE_RET_EVENT, RR_PROBE_ACTIVE_EVENT,
	 * RR_PROBE_WRITE_EVENT, RR_PROBE_WRITE_RET_EVENT): their lines, NULL
	 * where the kernel does not allow them (not created) */
#define RR_PROBE_NR_EXTRA 4
	char *extra[RR_PROBE_NR_EXTRA];
	const char *extra_event[RR_PROBE_NR_EXTRA];
	int nr_fields;
	int nr_zones;		/* MAX_NR_ZONES of the running kernel */
	char why[256];		/* when definition is NULL: why, for the summary */
};

/**
 * rr_probe_plan() - work out the shrink_lruvec() probe for the running kernel
 * @p:   filled in; rr_probe_plan_free() it
 * @pid: the recorder's pid (names the probe's group)
 * @btf_path: the kernel's BTF, normally "/sys/kernel/btf/vmlinux"
 * @kallsyms: normally "/proc/kallsyms": shrink_lruvec must be a symbol of
 *        its own (a kernel that inlined it cannot be probed there)
 * Return: 0 with @p->definition set; -1 with @p->why saying what is
 * missing (no BTF, a structure or member not found, no such symbol).
 * Nothing is written to tracefs.
 */
int rr_probe_plan(struct rr_probe_plan *p, int pid, const char *btf_path, const char *kallsyms);
void rr_probe_plan_free(struct rr_probe_plan *p);

/**
 * rr_probe_create() - add the planned probes to @tracing/kprobe_events
 * Return: 0, or -1 with @why (of @why_len bytes) set: no kprobe_events
 * (a kernel without CONFIG_KPROBE_EVENTS), or the kernel refused the line
 * (its error_log line is quoted where there is one).  An optional probe the
 * kernel refuses is dropped from @p (its extra[] set to NULL).
 */
int rr_probe_create(struct rr_probe_plan *p, const char *tracing, char *why, size_t why_len);

/**
 * rr_probe_remove() - remove the probes of group @group from kprobe_events
 * (after every instance that enabled them is gone).  Return 0 or -1
 * (errno) for the main one; the optional ones may not exist.
 */
int rr_probe_remove(const char *tracing, const char *group);

/**
 * rr_probe_remove_stale() - remove the probes of recorders that died
 * without removing them (RR_PROBE_GROUP_PREFIX<pid>, pid gone).
 */
void rr_probe_remove_stale(const char *tracing);

#endif
