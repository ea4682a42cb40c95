/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoded reclaim events.  The reader turns every trace record it knows into
 * one struct rr_event and hands it to a callback; the record itself is not
 * kept.  Field names follow the tracepoints (include/trace/events/vmscan.h,
 * memcg.h, cgroup.h); every count is in pages.
 */
#ifndef RR_TRACE_EVENT_H
#define RR_TRACE_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/lru.h"
#include "../common/probe.h"

enum rr_event_type {
	RR_EV_NONE = 0,
	/* the begin and end events of reclaim requests, together
	 * (rr_event_is_request()) */
	RR_EV_MEMCG_RECLAIM_BEGIN,	/* vmscan:mm_vmscan_memcg_reclaim_begin */
	RR_EV_MEMCG_RECLAIM_END,	/* ..._end: nr_reclaimed */
	RR_EV_SOFTLIMIT_BEGIN,		/* mm_vmscan_memcg_softlimit_reclaim_begin */
	RR_EV_SOFTLIMIT_END,
	RR_EV_DIRECT_BEGIN,		/* mm_vmscan_direct_reclaim_begin */
	RR_EV_DIRECT_END,
	RR_EV_NODE_RECLAIM_BEGIN,	/* mm_vmscan_node_reclaim_begin */
	RR_EV_NODE_RECLAIM_END,
	RR_EV_KSWAPD_WAKE,		/* mm_vmscan_kswapd_wake: nid */
	RR_EV_KSWAPD_SLEEP,
	RR_EV_LRU_ISOLATE,		/* mm_vmscan_lru_isolate */
	RR_EV_SHRINK_INACTIVE,		/* mm_vmscan_lru_shrink_inactive */
	RR_EV_SHRINK_ACTIVE,		/* mm_vmscan_lru_shrink_active */
	RR_EV_WRITE_FOLIO,		/* mm_vmscan_write_folio */
	RR_EV_SLAB_START,		/* mm_shrink_slab_start: nid, priority */
	RR_EV_MOD_LRUVEC,		/* memcg:mod_memcg_lruvec_state */
	RR_EV_COUNT_EVENTS,		/* memcg:count_memcg_events */
	RR_EV_FLUSH,			/* memcg:memcg_flush_stats */
	RR_EV_CGROUP_MKDIR,		/* cgroup:cgroup_mkdir */
	RR_EV_CGROUP_RMDIR,
	RR_EV_CGROUP_RELEASE,
	RR_EV_ATTACH,			/* cgroup:cgroup_attach_task */
	RR_EV_MARKER,			/* ftrace:print (trace_marker lines) */
	RR_EV_FORK,			/* sched:sched_process_fork: attach_pid the
					 * child, pid the parent */
	RR_EV_LRUVEC_PROBE,		/* reclaim_replay_PID:shrink_lruvec, the
					 * recorder's kprobe: @probe */
	RR_EV_LRUVEC_RET,		/* ...:shrink_lruvec_ret: the call's end */
	RR_EV_ACTIVE_PROBE,		/* ...:shrink_active: id the memcg, lru,
					 * nr_requested (nr_to_scan), priority */
	RR_EV_WRITE_PROBE,		/* ...:memory_reclaim: a memory.reclaim
					 * write; id the cgroup written to,
					 * nr_requested its bytes (nbytes), str
					 * the text written */
	RR_EV_WRITE_RET,		/* ...:memory_reclaim_ret: val the return
					 * (nbytes, or -errno) */
	RR_EV__COUNT
};

/* Does @type begin or end a reclaim request (an episode's bounds): a memcg
 * limit, soft-limit, direct or node reclaim call, a kswapd wake or sleep? */
static inline bool rr_event_is_request(enum rr_event_type type)
{
	return type >= RR_EV_MEMCG_RECLAIM_BEGIN && type <= RR_EV_KSWAPD_SLEEP;
}

/**
 * struct rr_event - one decoded record
 * Only the fields of the record's type are meaningful; the others are 0.
 * @str points into the record and is valid only during the callback.
 */
struct rr_event {
	enum rr_event_type type;
	uint64_t ts_ns;
	int pid;
	int cpu;
	uint64_t lost_before;	/* events the ring buffer dropped before this one */

	uint64_t id;		/* memcg/cgroup id (cgroup_id(), the kernfs id) */
	int item;		/* memcg events: node_stat_item / vm_event_item */
	int64_t val;		/* memcg events: delta in pages, or count */
	bool force, needs_flush;	/* memcg_flush_stats */

	int lru;		/* isolate: enum lru_list 0..4 */
	int priority;		/* shrink_inactive/active, slab_start */
	int nid;
	/* isolate, direct/node reclaim begin, kswapd_wake: sc->order; isolate:
	 * the highest zone index reclaim may take from (classzone), kswapd_wake:
	 * zid (the run's highest_zoneidx); -1 when the record has no such field */
	int order, classzone;
	int reclaim_flags;
	uint64_t nr_requested, nr_scanned, nr_taken, nr_reclaimed;
	uint64_t nr_referenced, nr_deactivated;
	uint64_t nr_activate;	/* shrink_inactive: pages moved to the active list */

	int cgroup_root, cgroup_level;	/* cgroup events */
	int attach_pid;			/* cgroup_attach_task: the task moved */
	const char *str;		/* cgroup path or marker text */
	int str_len;
	const struct rr_lruvec_probe *probe;	/* RR_EV_LRUVEC_PROBE */
};

const char *rr_event_type_name(enum rr_event_type type);

#endif
