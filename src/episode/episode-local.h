/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the episode builder, shared by its files (episode.h lists
 * them and their jobs, each calling only the ones after it).  Not for
 * other stages.
 */
#ifndef RR_EPISODE_LOCAL_H
#define RR_EPISODE_LOCAL_H

#include "episode.h"

#define DRAIN_MAX 64

struct drain_delta {
	uint64_t id;
	int item;
	int64_t val;
};

/*
 * A task in reclaim: its stack of open episodes and the batch in flight,
 * the last mm_vmscan_lru_isolate, waiting for its memcg (the first
 * negative mod_memcg_lruvec_state of the isolated list, or the
 * count_memcg_events PGSCAN/PGREFILL that follows), its write-outs
 * (mm_vmscan_write_folio) and its closing lru_shrink_* event.  Freed when
 * the stack is empty and no batch is in flight.
 */
struct task {
	int pid;
	int nr_open_replayable;		/* of its open episodes, the replayable */
	struct rr_episode *ep;		/* innermost open episode, NULL none */
	/* this task's LRU deltas since its last vmscan event: the
	 * lru_add_drain() of the next batch; kept while a replayable episode
	 * is open */
	struct drain_delta drain[DRAIN_MAX];
	int nr_drain;
	bool drain_overflow;
	struct drain_delta batch_drain[DRAIN_MAX];	/* frozen at the isolate */
	int nr_batch_drain;		/* -1: the log overflowed */
	uint64_t last_vmscan_ns;	/* the task's last vmscan event */
	uint64_t batch_prev_vmscan_ns;	/* ... before the batch in flight */
	bool batch_open;		/* an isolate waits for its shrink event */
	bool awaiting_memcg;
	struct rr_batch batch;		/* the batch in flight */
	struct rr_episode *batch_ep;	/* the episode holding it, if it keeps batches */
	size_t batch_index;		/* its index there */
	bool batch_sum_valid;
	/* every list's running sum when it was attributed */
	int64_t batch_sums[RR_NR_EVICTABLE_LRU];
	/* the call of the batch in flight (infer.c): its episode, first
	 * batch's index, and per list the pages its batches asked for */
	const struct rr_episode *call_ep;
	size_t call_first;
	uint64_t call_requested[RR_NR_EVICTABLE_LRU];
	bool call_sums_valid;
	int64_t call_sums[RR_NR_EVICTABLE_LRU];	/* the running sums at its first batch */
	/* attribution without memcg: events (attribute.c): the batches of
	 * the task's priority pass in progress, closed but not yet
	 * attributed, and the episode, call and priority they belong to */
	struct attr_pend {
		size_t index;		/* in the episode's batches */
		struct rr_event ev;	/* its shrink event (has_ev) */
		bool has_ev;
		bool slab_before;	/* a shrink_slab event came before it in the pass */
		uint64_t prev_vmscan_ns;
		uint64_t truth_id;
	} *pend;
	size_t nr_pend, cap_pend;
	struct rr_episode *pend_ep;
	uint32_t pend_call;
	int pend_prio;			/* -1 not known yet */
	bool slab_seen;			/* since the last pending batch */
	int slab_prio;			/* ... at this priority */
	uint64_t attr_ep_seq;		/* the episode the target is for */
	uint64_t attr_target;		/* its reclaim root, 0 unknown */
	uint8_t attr_target_basis;	/* RR_ATTR_ASSUMED: a stand-in */
	uint64_t truth_id;		/* drop_memcg_events: the dropped event's memcg */
	bool awaiting_truth;
	uint64_t last_ts;		/* the task's last event */
	/* the recorder's shrink_lruvec() probe of the task's call in
	 * progress (probe.c): its memcg names the batches that follow, until
	 * the next probe; probe_index is 1 + its index in probe_ep's probes
	 * (0: that episode keeps none) */
	bool probe_valid;
	struct rr_lruvec_probe probe;
	struct rr_episode *probe_ep;
	uint32_t probe_index;
	uint32_t probe_batches;		/* batches of the call so far */
	bool batch_in_call;		/* the batch in flight is the probed call's */
	/* the memcg of the next active batch (the shrink_active_list()
	 * probe), pending until that batch's isolate */
	bool active_pending;
	uint64_t active_id;
	UT_hash_handle hh;
};

/* A memcg's address as a probe read it, and its cgroup id (probe.c): the
 * reclaim root's address (scan_control's target_mem_cgroup) names it. */
struct probe_addr {
	uint64_t addr, memcg_id;
	UT_hash_handle hh;
};

/* The memcg a task was moved into (cgroup_attach_task), by pid. */
struct task_memcg {
	int pid;
	uint64_t memcg_id;
	UT_hash_handle hh;
};

/* A cgroup event held back until the memory hierarchy is known. */
struct held_event {
	struct rr_event ev;
	char *str;
};

/* How many shared walk positions attribute.c keeps */
#define RR_ATTR_CURSORS 64
/* How many of the latest LRU deltas the builder keeps (a power of 2). */
#define RR_RECENT_DELTAS 4096
/* How many changes of the root memcg's cost pair the builder keeps. */
#define RR_ROOT_COSTS 64
/* The most flushes of one start snapshot the builder keeps. */
#define RR_SNAP_FLUSHES 256

struct rr_builder {
	struct rr_builder_opts opts;
	rr_episode_cb cb;
	void *ctx;
	struct rr_state st;
	struct task *tasks;		/* hash by pid: tasks in reclaim */
	struct task *last_task;		/* cache of the last lookup */
	struct task_memcg *task_memcgs;	/* hash by pid */
	struct rr_episode *open;	/* every open episode (open_next list) */
	struct rr_episode *fresh;	/* see rr_episode.fresh_next */
	uint64_t nr_open_replayable;	/* open replayable episodes, all tasks */
	struct rr_episode *free_eps;	/* closed episodes kept for reuse */
	unsigned int nr_free_eps;
	uint64_t next_seq, next_replay_seq;
	bool anon_scanned_seen;
	uint64_t first_lost_ns;		/* the first record after lost events */
	int in_snapshot;		/* 1 start snapshot, 2 a later one */
	uint64_t start_snapshot_ns;	/* the start snapshot's end marker, 0 none yet */
	bool snapshot_has_root;		/* the snapshot in progress holds the
					 * root memcg: all of the hierarchy */
	uint64_t snapshot_view_root;	/* its "/" line, when not the root memcg */
	/* cgroup v1 puts every controller's hierarchy in the cgroup: events;
	 * until a memcg: event names an id of one of them, hold them back */
	struct held_event *held;
	size_t nr_held, cap_held;
	struct rr_episode *runs;	/* open inferred memory.reclaim writes */
	struct rr_builder_stats stats;
	/* the latest LRU deltas of every task (a ring): what other tasks
	 * changed in a memcg's lists between a reclaimer's decision and its
	 * batch (tasks.c) */
	struct recent_delta {
		uint64_t ts_ns, memcg_id;
		int64_t val;
		int pid, lru;
	} recent[RR_RECENT_DELTAS];
	unsigned int recent_head, nr_recent;
	/* during the start snapshot: the flushes that took effect (memcg id,
	 * time) and each memcg's LRU deltas (rr_memcg.snap_log), so that a
	 * memcg line gets the deltas since the flush its view came from */
	/* the root memcg's cost pair as it changed (a ring, noted after the
	 * events that note costs: shrink events, refaults): the pair a global
	 * decision read, between a task's previous vmscan event and its batch,
	 * when other tasks noted costs meanwhile (tasks.c) */
	uint64_t page_size_bytes;	/* from the meta marker, 0 unknown */
	bool tasks_in_snapshots;	/* the recorder lists each memcg's tasks */
	/* attribute.c: the shared walk positions (root, priority or -1) */
	struct { uint64_t root_id, memcg_id; int prio; } attr_cursors[RR_ATTR_CURSORS];
	unsigned int nr_attr_cursors, attr_cursor_next;
	uint64_t attr_limited_key, attr_limited_id;	/* limited()'s last answer */
	struct rr_memcg *root_memcg;
	struct { uint64_t ts_ns, anon, file; } root_costs[RR_ROOT_COSTS];
	unsigned int root_costs_head, nr_root_costs;
	bool snap_logging;
	struct { uint64_t id, ts_ns; } snap_flushes[RR_SNAP_FLUSHES];
	unsigned int nr_snap_flushes;
	struct probe_addr *probe_addrs;	/* hash by address (probe.c) */
	unsigned int nr_probe_addrs;
};

/* The recorded batch of the batch in flight, if its episode keeps batches. */
static inline struct rr_batch *ep_batch(struct task *t)
{
	if (!t->batch_ep || t->batch_index >= t->batch_ep->nr_batches)
		return NULL;
	return &t->batch_ep->batches[t->batch_index];
}

/* snapshot.c */
void rr_snap_log(struct rr_builder *b, const struct rr_event *ev);
int rr_builder_marker(struct rr_builder *b, const struct rr_event *ev);
/* write-probe.c */
int rr_proactive_probe(struct rr_builder *b, const struct rr_event *ev);

/* requests.c */
int rr_episode_begin(struct rr_builder *b, struct task *t, enum rr_reclaim_kind kind,
		     uint64_t ts_ns);
int rr_episode_end(struct rr_builder *b, struct task *t, enum rr_reclaim_kind kind,
		   const struct rr_event *ev, bool has_nr_reclaimed);
void rr_episodes_lost(struct rr_builder *b);
int rr_episodes_finish(struct rr_builder *b);
int rr_episode_hand_over(struct rr_builder *b, struct rr_episode *ep);

/* proactive.c: memory.reclaim writes inferred from plain memcg calls */
int rr_proactive_call(struct rr_builder *b, struct rr_episode *ep);
int rr_proactive_expire(struct rr_builder *b, uint64_t now_ns, int pid);
void rr_proactive_lost(struct rr_builder *b);

/* batches.c */
int rr_task_isolate(struct rr_builder *b, struct task *t, const struct rr_event *ev);
int rr_task_batch_close(struct rr_builder *b, struct task *t, const struct rr_event *ev);

/* attribute.c: attribution without memcg: events */
int rr_attr_defer(struct rr_builder *b, struct task *t, const struct rr_event *ev);
int rr_attr_flush(struct rr_builder *b, struct task *t, bool last_pass);
int rr_attr_visit_end(struct rr_builder *b, struct task *t, int priority);
void rr_attr_truth(struct rr_builder *b, const struct rr_event *ev);

/* attribute-root.c */
/*
 * How well a memcg fits a batch: FIT_NO, it cannot hold pages on the list
 * (empty at its last snapshot or mkdir, and no task in it since that could
 * have been charged); FIT_UNLIKELY, empty at a snapshot less than
 * ATTR_ZERO_FRESH_NS ago (attribute-root.c); FIT_MAYBE, nothing fixes its size; FIT_YES, the
 * sizes the snapshots and the batches give say it scans the list.
 */
enum fit { FIT_NO, FIT_UNLIKELY, FIT_MAYBE, FIT_YES };
enum fit rr_attr_list_fits(const struct rr_memcg *m, int lru, int priority, uint64_t now);
bool rr_attr_swap_absent(const struct rr_builder *b);
struct rr_memcg *rr_attr_walk_next(struct rr_memcg *root, struct rr_memcg *m);
struct rr_memcg *rr_attr_target(struct rr_builder *b, const struct rr_episode *ep, int pid,
				uint8_t *basis);

/* hierarchy.c */
bool rr_is_cgroup_event(enum rr_event_type type);
int rr_builder_hold(struct rr_builder *b, const struct rr_event *ev);
int rr_builder_cgroup_event(struct rr_builder *b, const struct rr_event *ev);
int rr_builder_replay_held(struct rr_builder *b, int root);
int rr_builder_resolve_memory_root(struct rr_builder *b, uint64_t id);
int rr_builder_resolve_only_hierarchy(struct rr_builder *b);
void rr_builder_infer_attribution(struct rr_builder *b);

/* batch-effects.c */
int rr_task_batch_memcg_close(struct rr_builder *b, struct task *t, const struct rr_event *ev);

/* capture.c */
int rr_probe_swappiness(const struct rr_builder *b, const struct rr_lruvec_probe *p);
void rr_probe_capture(const struct rr_builder *b, const struct task *t, struct rr_batch_ctx *c);
void rr_recent_delta(struct rr_builder *b, const struct rr_event *ev);
void rr_root_cost_note(struct rr_builder *b, uint64_t ts_ns);
void rr_task_attribute(struct rr_builder *b, struct task *t, uint64_t memcg_id);
struct rr_memcg *rr_preorder_next(struct rr_memcg *m);

/* episodes.c */
struct rr_episode *rr_episode_new(struct rr_builder *b);
void rr_episode_release(struct rr_builder *b, struct rr_episode *ep);
bool rr_episode_keeps_batches(const struct rr_builder *b, const struct rr_episode *ep);
int rr_episode_add_call(struct rr_episode *p, const struct rr_episode *c);
struct rr_episode *rr_episode_push(struct rr_builder *b, struct task *t,
				   enum rr_reclaim_kind kind, uint64_t ts_ns);
struct rr_episode *rr_episode_unknown(struct rr_builder *b, struct task *t, uint64_t ts_ns);
void rr_episode_fresh_unlink(struct rr_builder *b, struct rr_episode *ep);
void rr_episode_open_unlink(struct rr_builder *b, struct rr_episode *ep);
struct rr_memcg *rr_episode_closing(struct rr_builder *b, struct rr_episode *ep);
int rr_episode_deliver(struct rr_builder *b, struct rr_episode *ep, struct rr_memcg *root);

/* tasks.c */
struct task *rr_task_find(struct rr_builder *b, int pid);
struct task *rr_task_get(struct rr_builder *b, int pid);
void rr_task_put(struct rr_builder *b, struct task *t);	/* free if idle */
uint64_t rr_task_memcg(const struct rr_builder *b, int pid);
int rr_task_set_memcg(struct rr_builder *b, int pid, uint64_t memcg_id, uint64_t ts_ns);
int rr_task_place(struct rr_builder *b, int pid, uint64_t memcg_id);
int rr_task_inherit(struct rr_builder *b, int pid, uint64_t memcg_id);
void rr_task_drain_reset(struct task *t, uint64_t ts_ns);
void rr_task_drain_log(struct task *t, const struct rr_event *ev);

/* probe.c: the recorder's shrink_lruvec() probe */
/* capture.c: a new, zeroed silent visit of @ep, or NULL when past
 * RR_SILENT_MAX or out of memory (counted in ep->silent_cut; *@oom, if
 * given, true for the latter). */
struct rr_silent_ctx *rr_episode_silent_add(struct rr_episode *ep, bool *oom);
int rr_builder_probe(struct rr_builder *b, const struct rr_event *ev);
int rr_builder_probe_event(struct rr_builder *b, const struct rr_event *ev);
int rr_probe_isolate(struct rr_builder *b, struct task *t);
bool rr_probe_names_batch(const struct task *t);
int rr_probe_task_end(struct rr_builder *b, struct task *t);
void rr_probe_free(struct rr_builder *b);

/* infer.c */
void rr_infer_episode(struct rr_builder *b, struct rr_episode *ep);
void rr_infer_isolate_bound(struct rr_builder *b, struct task *t);
struct rr_memcg *rr_infer_batches_root(struct rr_builder *b, const struct rr_episode *ep);

#endif
