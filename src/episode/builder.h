/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Episode builder: cuts the event stream into reclaim episodes, one per
 * reclaim request (a mm_vmscan_memcg_reclaim_begin/end pair of one task, or
 * a v1 soft-limit victim call), attributes each LRU batch to a memcg
 * (kernel-reclaim-model.md §13.3), and when an episode ends hands it over
 * with a snapshot of the memcg state at its start, ready for the simulator.
 * Memory: the memcg table plus the open episodes; events are not kept.
 */
#ifndef RR_EPISODE_BUILDER_H
#define RR_EPISODE_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../sim/sim.h"
#include "../trace/event.h"
#include "state.h"

enum rr_episode_kind {
	RR_EP_MEMCG,		/* charge path / v1 limit write / force_empty */
	RR_EP_SOFTLIMIT,	/* v1 soft-limit victim call */
	RR_EP_PROACTIVE,	/* a memory.reclaim write (scenarios) */
	RR_EP_DIRECT,		/* global direct reclaim (scenarios) */
	RR_EP__COUNT
};

const char *rr_episode_kind_name(enum rr_episode_kind kind);

#define RR_CHAIN_MAX 8

/*
 * State the kernel's decisions read when a batch began, captured when the
 * batch was attributed to its memcg (before its own decrement): the
 * memcg's exact sizes before this task's lru_add_drain() deltas (§3.2,
 * §12.4), and for the memcg and each ancestor the cost pair and rstat view
 * that prepare_scan_control() would copy if it were the reclaim root.
 */
struct rr_batch_ctx {
	bool valid;
	bool online;
	bool in_window;		/* inside the rmdir -> offline window: online unknown */
	int swappiness;
	uint64_t lru_pages[4];
	int depth;
	struct {
		uint64_t id;
		uint64_t anon_cost, file_cost;
		uint64_t rstat_lru_pages[4];
		bool refaults_changed[2];
	} chain[RR_CHAIN_MAX];	/* [0] the memcg itself, then its ancestors */
};

/* One recorded LRU batch (one mm_vmscan_lru_isolate). */
struct rr_rec_batch {
	uint64_t memcg_id;	/* 0: not attributed */
	int lru;
	int priority;		/* -1 until known */
	uint64_t nr_requested, nr_scanned, nr_taken;
	uint64_t nr_reclaimed;	/* from lru_shrink_inactive; 0 for active */
	uint64_t nr_activate;	/* from lru_shrink_inactive: put back active */
	uint64_t nr_pageout;	/* mm_vmscan_write_folio events of the batch */
	bool has_shrink;	/* an lru_shrink_* event closed the batch */
	uint64_t ts_ns;
};

/* Per-memcg values at the episode's start. */
struct rr_snap_memcg {
	uint64_t id;
	bool online;
	int swappiness;
	uint64_t lru_pages[4];
	uint64_t rstat_lru_pages[4];	/* hierarchical rstat view */
	uint64_t anon_cost, file_cost;
	int64_t rstat_ws_activate[2];
	int64_t refault_snapshot[2];
	bool refault_snapshot_valid;
	uint64_t scanned[2], reclaimed[2], pageouts[2];
	uint64_t requested[2], taken[2];
};

struct rr_episode {
	uint64_t seq;			/* 1, 2, ... in order of start */
	enum rr_episode_kind kind;
	int pid;
	uint64_t start_ns, end_ns;
	uint64_t task_memcg_id;		/* from cgroup_attach_task, 0 unknown */
	uint64_t root_memcg_id;		/* inferred reclaim root, 0 unknown */
	const char *root_path;		/* valid during the callback */
	uint64_t recorded_nr_reclaimed;	/* mm_vmscan_memcg_reclaim_end */
	struct rr_rec_batch *batches;
	struct rr_batch_ctx *ctx;	/* one per batch */
	size_t nr_batches, cap_batches;
	uint64_t first_lost_ns;		/* events were lost before this (0: none) */
	struct rr_snap_memcg *snap;	/* sorted by id */
	size_t nr_snap;
	/* nr_to_reclaim inferred from the checkpoints (§8.2) */
	uint64_t nr_to_reclaim_pages;
	const char *nr_to_reclaim_basis;	/* "fit", "lower-bound", "v1-softlimit" */
	uint64_t nr_to_reclaim_low, nr_to_reclaim_high;	/* (low, high], 0 = open */
	bool swap_inferred_present;
	bool in_offline_window;		/* a memcg of the subtree was within the
					 * rmdir -> offline window */
	bool no_recording;		/* a scenario request: nothing recorded */
	bool overlapped;		/* another task reclaimed at the same time */
	bool mglru;			/* Multi-Gen LRU batches (§11): no verdict */
	UT_hash_handle hh;
};

/*
 * Reclaim requests of every kind, for `report`: what the trace shows, not
 * what the simulator can replay.  One per begin/end pair of a task
 * (kswapd: wake .. sleep; proactive: the recorder's "proactive begin/end"
 * markers around its memory.reclaim write), nested per task.
 */
enum rr_request_kind {
	RR_REQ_MEMCG,		/* mm_vmscan_memcg_reclaim_begin/end */
	RR_REQ_SOFTLIMIT,	/* mm_vmscan_memcg_softlimit_reclaim_begin/end */
	RR_REQ_DIRECT,		/* mm_vmscan_direct_reclaim_begin/end */
	RR_REQ_KSWAPD,		/* mm_vmscan_kswapd_wake .. _sleep */
	RR_REQ_NODE,		/* mm_vmscan_node_reclaim_begin/end */
	RR_REQ_PROACTIVE,	/* one memory.reclaim write by `record --proactive` */
	RR_REQ_UNKNOWN,		/* batches of a task whose begin and end were
				 * both outside the trace */
	RR_REQ__COUNT
};

const char *rr_request_kind_name(enum rr_request_kind kind);

/* One LRU batch as `report` sees it; counts in pages. */
struct rr_req_batch {
	uint64_t memcg_id;	/* 0: not attributed (no memcg: events) */
	int lru;		/* enum lru_list */
	int priority;		/* -1: unknown */
	uint64_t ts_ns;
	uint64_t nr_requested, nr_scanned, nr_taken;
	uint64_t nr_reclaimed;	/* inactive batches */
	uint64_t nr_pageout;
};

struct rr_request {
	uint64_t seq;			/* 1, 2, ... in order of creation */
	uint64_t parent_seq;		/* the enclosing request of the task, 0 none */
	int depth;			/* 0 outermost */
	enum rr_request_kind kind;
	int pid;
	uint64_t start_ns, end_ns;	/* start: begin event, or first event seen */
	bool no_begin;			/* started before the trace (end without begin) */
	bool no_end;			/* no end event: the trace stopped, or the
					 * end was lost (a begin of the same task
					 * or an outer end came first) */
	bool end_inferred;		/* kswapd: ended by its next wake, not a sleep */
	bool lost_events;		/* events were lost while it was open */
	bool mglru;			/* MGLRU batches (nr_requested > SWAP_CLUSTER_MAX) */
	bool has_nr_reclaimed;
	uint64_t recorded_nr_reclaimed;	/* from the end event */
	uint64_t proactive_bytes;	/* proactive: bytes asked for */
	struct rr_req_batch *batches;
	size_t nr_batches, cap_batches;
	struct rr_request *outer;	/* builder's stack link */
};

/* Called once per finished request (@rq valid only during the call), and
 * once more with @rq NULL after rr_builder_finish(), with the final state. */
typedef int (*rr_request_cb)(const struct rr_request *rq, const struct rr_state *st,
			     void *ctx);

struct rr_builder_opts {
	uint64_t offline_delay_ns;	/* rmdir -> offline assumed delay */
	bool partial_walk;		/* v6.11+: goal checked after each memcg */
	int swap_present;		/* -1 infer from anon scanning, 0, 1 */
};

typedef int (*rr_episode_cb)(struct rr_episode *ep, struct rr_state *st, void *ctx);

struct rr_builder;

struct rr_builder *rr_builder_new(const struct rr_builder_opts *opts,
				  rr_episode_cb cb, void *ctx);
void rr_builder_free(struct rr_builder *b);
struct rr_state *rr_builder_state(struct rr_builder *b);

/* Also report requests of every kind to @cb (see rr_request_cb). */
void rr_builder_set_request_cb(struct rr_builder *b, rr_request_cb cb, void *ctx);

/* Feed one event.  Return 0, the callback's non-zero value, or -1 on ENOMEM. */
int rr_builder_feed(struct rr_builder *b, const struct rr_event *ev);

/* Close the episodes still open at the end of the trace (they are counted,
 * not replayed: their outcome is unknown), and the requests still open
 * (flagged no_end).  Return the number of episodes closed; -1 when the
 * request callback failed. */
int rr_builder_finish(struct rr_builder *b);

struct rr_builder_stats {
	uint64_t events;
	uint64_t episodes[RR_EP__COUNT];
	uint64_t unterminated_episodes;
	uint64_t other_reclaim[3];	/* direct, kswapd wakes, node reclaim */
	uint64_t batches, batches_unattributed;
	uint64_t markers;
	uint64_t requests[RR_REQ__COUNT];
	uint64_t mglru_batches;		/* isolates with nr_requested > 32 */
	uint64_t lru_isolate_bounds;	/* start sizes raised by isolate_bound() */
	uint64_t shrink_without_isolate;	/* lru_shrink_* with no isolate before it */
	bool mglru_from_meta;		/* the recorder saw lru_gen enabled */
	/* from `reclaim-replay record` markers (man reclaim-replay-record.1) */
	bool meta_seen;			/* the "meta" marker */
	int swap_from_meta;		/* -1 unknown, 0 no swap, 1 swap */
	uint64_t snapshot_memcgs;	/* memcgs in the start snapshot */
	char kernel_release[64];	/* from the meta marker */
};
const struct rr_builder_stats *rr_builder_stats(const struct rr_builder *b);

/**
 * rr_episode_sim_input() - the simulator input for an episode
 * @in:   filled; in->memcgs, in->outcomes and in->boundaries are
 *        allocated (free all three);
 *        cursor set to -1.
 * Uses the snapshot of the episode and the tree of @st (pre-order of the
 * root's subtree; memcgs created after the episode's start are left out).
 * Return: 0, or -1 when the root is unknown or on ENOMEM (@err set).
 */
int rr_episode_sim_input(const struct rr_episode *ep, const struct rr_state *st,
			 const struct rr_kernel_model *km, unsigned int page_shift,
			 struct rr_sim_input *in, struct rr_error *err);

#endif
