/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory-cgroup state rebuilt from a trace: the tree (cgroup_mkdir paths),
 * online state (cgroup_rmdir), exact local LRU sizes (running sums of
 * mod_memcg_lruvec_state deltas), the rstat view as of the last recorded
 * flush (memcg_flush_stats), anon/file reclaim costs (lru_note_cost()
 * replayed from shrink events), and the outcome statistics the simulator's
 * outcome model is calibrated with.  Sizes are in pages.
 * (docs/kernel-model.md §2.)
 *
 * Start states without copies.  A replay needs every memcg as it was when
 * its episode began, but copying the table at every begin costs
 * O(memcgs) per episode.  Instead each begin opens an *epoch*
 * (rr_state_epoch_begin()), and the values an episode reads live in
 * struct rr_memcg_vals, which is only written through rr_memcg_mut(): the
 * first write to a memcg after an epoch opened saves the old values as a
 * version tagged with that epoch.  rr_memcg_at() then gives the values of
 * any open epoch.  Versions no open epoch can read are dropped, so memory
 * grows with the memcgs touched while episodes are open, not with events.
 */
#ifndef RR_EPISODE_STATE_H
#define RR_EPISODE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include <uthash.h>

#include "../common/lru.h"
#include "../trace/trace.h"
#include "../markers/markers.h"

/* node_stat_item numbers of the WORKINGSET items the model reads
 * (docs/kernel-model.md §15; measured on 6.18). */
struct rr_item_map {
	int workingset_activate[RR_NR_LRU_TYPES];	/* anon, file */
	int workingset_restore[RR_NR_LRU_TYPES];
	int pgscan_proactive;		/* vm_event_item PGSCAN_PROACTIVE; -1 unknown */
	bool from_trace;		/* false: 6.18 numbers assumed */
};

/* Outcome statistics of a memcg's inactive batches, per type, in pages. */
struct rr_outcome_stats {
	uint64_t scanned[RR_NR_LRU_TYPES], reclaimed[RR_NR_LRU_TYPES];
	uint64_t pageouts[RR_NR_LRU_TYPES];	/* mm_vmscan_write_folio events */
	uint64_t requested[RR_NR_LRU_TYPES], taken[RR_NR_LRU_TYPES];
	uint64_t activated[RR_NR_LRU_TYPES];	/* nr_activate of lru_shrink_inactive */
};

/*
 * The values of a memcg that a replay reads as they were at its episode's
 * start.  Write them only through rr_memcg_mut().
 */
struct rr_memcg_vals {
	bool online;
	uint64_t rmdir_ns;		/* its cgroup_rmdir, 0 none */
	/* the recorded decisions showed the offline rules from this time on
	 * (a fitted value inside the rmdir -> offline window) */
	uint64_t offline_seen_ns;
	int swappiness;
	bool swappiness_known;		/* a snapshot gave it, or inherited from a
					 * known parent at mkdir (v1) */
	bool baseline_known;		/* created in the trace, or a snapshot gave
					 * the start sizes: sums are exact */
	/* exact local sizes: running sum; lowest running sum seen (a
	 * negative low means the start size was at least -low) */
	int64_t lru_sum[RR_NR_LRU];
	int64_t lru_low[RR_NR_LRU];
	/* rstat view: hierarchical sizes and WORKINGSET_ACTIVATE counts at
	 * the last flush that covered this memcg */
	bool rstat_valid;		/* a flush (or mkdir) fixed the view */
	uint64_t rstat_lru[RR_NR_EVICTABLE_LRU];
	int64_t rstat_ws_activate[RR_NR_LRU_TYPES];
	int64_t refault_snapshot[RR_NR_LRU_TYPES];	/* snapshot_refaults(), reclaim roots only */
	bool refault_snapshot_valid;
	/* the flush the snapshot's view came from (0: a view from before the
	 * trace, whose counts the trace does not hold) */
	uint64_t refault_snapshot_flush_ns;
	uint64_t anon_cost, file_cost;	/* lru_note_cost() */
	uint32_t cost_halvings;		/* halvings of the pair in the trace */
	/* how much more each of the pair may hold than noted: write-outs of
	 * large folios whose size the trace does not give (halved with it) */
	uint64_t cost_uncertain[RR_NR_LRU_TYPES];
	/* the pair just before its last halving (anon, file): one halving
	 * more or less than the kernel's, which the pair before the trace may
	 * have caused, weighs the notes since then twice or half as much */
	uint64_t cost_pre_halving[RR_NR_LRU_TYPES];
	/* the same, halved against the exact sizes instead of the last
	 * flushed view: what a view flushed before every note would give
	 * (kept while no flush is in the trace, nr_flushes == 0) */
	uint64_t anon_cost_fresh, file_cost_fresh;
	struct rr_outcome_stats stats;
};

struct rr_memcg_version {
	uint64_t epoch;			/* valid for epochs <= this one (and after
					 * the version before it) */
	struct rr_memcg_vals v;
};

struct rr_memcg {
	uint64_t id;			/* cgroup_id(): the kernfs id */
	char *path;			/* "/a/b", or "memcg_id=N" if never named */
	struct rr_memcg *parent;
	struct rr_memcg **children;	/* sorted by id (creation order) */
	int nr_children, cap_children;
	bool named;			/* path known from a cgroup event */
	struct rr_memcg_vals v;		/* now; read freely, write via rr_memcg_mut() */
	bool lru_from_isolate;		/* a start size was raised to
					 * nr_requested << priority of a batch */
	uint64_t release_ns;		/* cgroup_release: freed, out of the tree */
	uint64_t created_ns;		/* its cgroup_mkdir, 0 if it predates the trace */
	int64_t ws_activate[RR_NR_LRU_TYPES];	/* exact local counts */
	int64_t limit_bytes;		/* from a snapshot: -1 none, 0 unknown */
	/* memory.min/low from a snapshot: RR_MARKER_BYTES_MAX ("max"),
	 * RR_MARKER_BYTES_UNKNOWN, or bytes */
	int64_t min_bytes, low_bytes;
	bool snapshotted;		/* a snapshot marker described it */
	/* not in a snapshot of the whole tree though it predates the trace:
	 * offline, not yet released (a dying memcg; inferred) */
	bool dying_inferred;
	/* outside the recorder's view (rr_state.view_root_id), no mkdir or
	 * rmdir seen: another container's live memcg or a dying one, which
	 * the trace cannot tell apart (both are tried) */
	bool online_unknown;
	/* its running sums when a snapshot read its memory.stat ("snapshot
	 * read" marker): the deltas since then come on top of what its line
	 * says */
	int64_t read_lru_sum[RR_NR_LRU];
	bool read_marked;
	/* its running sums at the last flush that covered it (rstat_flush_ns):
	 * what a memory.stat read since then printed (the flushed view) */
	int64_t flush_lru_sum[RR_NR_LRU];
	/* its LRU deltas during the start snapshot, until its line (snapshot.c) */
	struct rr_snap_delta { uint64_t ts_ns; int64_t val; int lru; } *snap_log;
	uint32_t nr_snap_log, cap_snap_log;
	bool snap_log_full;		/* out of memory for it: not known */
	uint64_t read_ns;		/* its "snapshot read" marker */
	/* without memcg: events (attribute.c): when a snapshot line last set
	 * its sizes (0 never), and whether it is a stand-in for a memcg the
	 * trace never names */
	uint64_t sizes_snap_ns;
	bool standin;
	/* tasks the trace puts in it (cgroup_attach_task, the recorder's task
	 * markers), and when the last came; tasks_known: every task in it is
	 * known (made in the trace, or a task marker listed them all) */
	uint32_t nr_tasks;
	uint64_t task_in_ns;
	bool tasks_known;
	/* the latest batch of a replayable episode in its subtree (time, task),
	 * and the latest by a task other than that one (tasks.c, infer.c) */
	uint64_t visit_ns, visit_other_ns;
	int visit_pid;
	bool spanned_root;		/* the common ancestor of an episode's
					 * batches on two or more of its memcgs:
					 * a reclaim root some time (infer.c) */
	/* the view before the last flush, and when that flush was: a decision
	 * taken before it read the older values */
	uint64_t rstat_prev_lru[RR_NR_EVICTABLE_LRU];
	int64_t rstat_prev_ws_activate[RR_NR_LRU_TYPES];
	bool rstat_prev_valid;
	uint64_t rstat_flush_ns;
	uint64_t rstat_prev_flush_ns;	/* the flush before that one, 0 none */
	/* start states (see the top of this file) */
	uint64_t born_epoch;		/* in the table since this epoch was current */
	uint64_t released_epoch;	/* released while this one was; UINT64_MAX never */
	uint64_t saved_epoch;		/* values of epochs up to this one are fixed */
	struct rr_memcg_version *versions;	/* oldest first */
	uint32_t nr_versions, cap_versions;
	UT_hash_handle hh;		/* by id */
	UT_hash_handle hh_path;		/* by path, named memcgs only */
};

/* The longest cgroup path taken from a trace, bytes (PATH_MAX) */
#define RR_MAX_CGROUP_PATH_BYTES 4096

/*
 * The recorder's snapshots of zones, nodes and vm sysctls, and the memcgs'
 * hierarchical sizes: what nodes.c keeps and reads (nodes.h), freed with
 * the state.
 */
/* One node as one snapshot recorded it. */
struct rr_node_snapshot {
	int nid;
	uint64_t ts_ns;			/* the node line's time (its zone lines came
					 * just before it, in the same snapshot) */
	/* per zone index (zid, enum zone_type order): the zone line, or
	 * .zid == -1 when the snapshot has none (the zone has no managed
	 * pages, or the node line says a line is missing: !complete) */
	struct rr_marker_zone zones[RR_MARKER_MAX_ZONES];
	struct rr_marker_node node;	/* its counters; -1 where absent */
	/* every zone line the node line announced (zones=) arrived: a zone
	 * without a line has no managed pages */
	bool complete;
};

struct rr_hier_rec {
	uint64_t id;			/* memcg id */
	uint64_t seq;			/* the snapshot it came from */
	uint64_t ts_ns;
	uint64_t hier[RR_NR_LRU], local[RR_NR_LRU];
	UT_hash_handle hh;
};

struct rr_node_hist {
	struct rr_node_snapshot cur;	/* zone lines since the last node line */
	bool cur_used;
	struct rr_node_snapshot *snaps;	/* committed, oldest first */
	size_t nr, cap;
};

struct rr_nodes {
	struct rr_node_hist *nodes;	/* by nid */
	int nr_nodes;
	struct rr_marker_vm vm;
	bool vm_known;
	uint64_t seq;			/* snapshots begun */
	struct rr_hier_rec *by_id;
};

struct rr_state {
	struct rr_memcg *by_id;
	struct rr_memcg *by_path;
	struct rr_memcg *last;		/* the last memcg looked up by id */
	uint64_t next_synthetic_id;	/* for ancestors seen only as a path */
	int memory_root;		/* cgroup hierarchy id of memcg, -1 unknown;
					 * cgroup events of other hierarchies are ignored */
	struct rr_item_map items;
	bool cost_zero_returns, cost_rotations_x32;
	int default_swappiness;
	bool default_swappiness_known;	/* vm.swappiness from the recorder's meta */
	uint64_t last_rmdir_ns;		/* the latest cgroup_rmdir seen, 0 none */
	/* a start snapshot held the whole hierarchy: a memcg first seen later
	 * without a mkdir is a dying one (snapshot.c) */
	bool whole_tree_seen;
	/* a start snapshot held only the subtree of this memcg (its "/" line
	 * was not the root memcg: the recorder ran in a cgroup namespace, or
	 * a container mounted its own cgroup as the hierarchy): a memcg
	 * first seen later without a mkdir is outside that view; 0 none */
	uint64_t view_root_id;
	/* what all dying memcgs together held per type (anon, file; pages) at
	 * the whole-tree start snapshot: each one's lists are at most that
	 * (no new charges reach an offline memcg); known only where every
	 * line gave its hierarchical sizes (nodes.c rr_state_dying_bound()) */
	uint64_t dying_ub_type[RR_NR_LRU_TYPES];
	bool dying_ub_known;
	uint64_t nr_flushes;
	uint64_t first_ts_ns;		/* the first event applied, 0 none yet */
	unsigned int nr_memcgs;
	bool oom;			/* a version or a parent could not be made */
	/* cgroup paths that would have made a memcg its own ancestor (a
	 * damaged or crafted trace): the link was refused */
	uint64_t tree_conflicts;
	/* cgroup paths longer than RR_MAX_CGROUP_PATH_BYTES: not taken */
	uint64_t long_paths;
	/* epochs: 1, 2, ... one per episode start state; the open ones */
	uint64_t epoch;
	uint64_t min_open_epoch, max_open_epoch;	/* 0 when none is open */
	/* the epochs begun, ascending (each begin is the newest), those ended
	 * marked in open_closed[] and dropped from the ends at once, from the
	 * middle when they are the most: a begin and an end cost O(log n) */
	uint64_t *open_epochs;
	uint8_t *open_closed;
	unsigned int nr_open_epochs, cap_open_epochs;	/* entries, open or not */
	unsigned int open_head, nr_open_live;
	/* zones, nodes, vm sysctls and memcgs' hierarchical sizes from the
	 * snapshots (nodes.h); NULL until a snapshot gave one */
	struct rr_nodes *nodes;
	/* no memcg: events keep the sizes (attribute.c): each memcg's are its
	 * last snapshot's less what the batches took, lower bounds */
	bool sizes_without_deltas;
};

void rr_state_init(struct rr_state *st);
void rr_state_free(struct rr_state *st);

/* Find, or create as an unnamed top-level memcg. NULL only on ENOMEM. */
struct rr_memcg *rr_state_memcg(struct rr_state *st, uint64_t id);
struct rr_memcg *rr_state_find(const struct rr_state *st, uint64_t id);
/* The named memcg at @path ("/a/b", relative to the hierarchy); NULL none. */
struct rr_memcg *rr_state_find_path(struct rr_state *st, const char *path);

/**
 * rr_memcg_mut() - the values of @m, for writing
 * Saves the current values first when an open epoch may still read them.
 * Never fails: without memory for the version, st->oom is set and the
 * replay fails at the next check (rr_state_ok()).
 */
struct rr_memcg_vals *rr_memcg_save(struct rr_state *st, struct rr_memcg *m);
static inline struct rr_memcg_vals *rr_memcg_mut(struct rr_state *st, struct rr_memcg *m)
{
	return m->saved_epoch < st->max_open_epoch ? rr_memcg_save(st, m) : &m->v;
}

/* Open a start state now: return its epoch (> 0), or 0 on ENOMEM. */
uint64_t rr_state_epoch_begin(struct rr_state *st);
/* The episode of @epoch no longer needs its start state. */
void rr_state_epoch_end(struct rr_state *st, uint64_t epoch);

/* Was @m in the table when @epoch began (and not yet released)?  A memcg
 * created (or whose mkdir was replayed) later is not. */
bool rr_memcg_in_epoch(const struct rr_memcg *m, uint64_t epoch);
/* @m's values as of @epoch (an open one); 0 means now. */
const struct rr_memcg_vals *rr_memcg_at(const struct rr_memcg *m, uint64_t epoch);

/* Did a snapshot give @m a memory.min or memory.low ("max" included)? */
static inline bool rr_memcg_protected(const struct rr_memcg *m)
{
	return m->min_bytes > 0 || m->low_bytes > 0 || m->min_bytes == RR_MARKER_BYTES_MAX ||
	       m->low_bytes == RR_MARKER_BYTES_MAX;
}

/* Where no flush is in the trace, exact hierarchical sizes are summed (for
 * each batch's ancestors, and the costs' halving) up to this many memcgs. */
#define RR_HIER_MEMCGS_MAX 4096

/* The periodic rstat flush (flush_memcg_stats_dwork(), FLUSH_TIME = 2 s,
 * forced), with slack: a trace that recorded memcg_flush_stats shows one
 * within this long of its start. */
#define RR_FLUSH_PERIOD_MAX_NS 2500000000ULL

/* The root memcg's id: the first mem_cgroup_id() (and cgroup id) handed
 * out, at boot (mm/memcontrol.c). */
#define RR_ROOT_MEMCG_ID 1

/*
 * Does the trace say @m's swappiness?  mem_cgroup_swappiness() (mm/vmscan.c,
 * include/linux/swap.h) returns vm.swappiness on cgroup v2 and for the root
 * memcg (id 1), the memcg's own memory.swappiness on v1: known when the
 * recorder's meta gave vm.swappiness, or a snapshot (or the parent's at
 * mkdir) gave the memcg's.
 */
static inline bool rr_memcg_swappiness_known(const struct rr_state *st, const struct rr_memcg *m)
{
	return m->v.swappiness_known ||
	       (st->default_swappiness_known && (st->memory_root == 0 || m->id == RR_ROOT_MEMCG_ID));
}

/*
 * Is @m known to have no memory.min/low protection from its ancestors or
 * itself?  cgroup v1 has none; on v2 (or an unknown hierarchy) every memcg
 * from @m up to the top's child must have had min and low given as 0 by a
 * snapshot (the effective protection, mem_cgroup_calculate_protection(),
 * can come from any of them; memory_recursiveprot included).
 */
static inline bool rr_memcg_unprotected_known(const struct rr_state *st, const struct rr_memcg *m)
{
	if (st->memory_root > 0)
		return true;
	for (; m && m->parent; m = m->parent)
		if (m->min_bytes != 0 || m->low_bytes != 0)
			return false;
	return m != NULL;
}

/* The exact local size of one list, in pages: the running sum plus the
 * smallest start size consistent with it staying >= 0. */
uint64_t rr_vals_lru_pages(const struct rr_memcg_vals *v, int lru);
static inline uint64_t rr_memcg_lru_pages(const struct rr_memcg *m, int lru)
{
	return rr_vals_lru_pages(&m->v, lru);
}

/* Memcgs whose start sizes the trace does not give (no snapshot line
 * read them, not made in the trace): their lists are lower bounds.  The
 * root and stand-ins are not counted. */
unsigned int rr_state_nr_sizes_unread(const struct rr_state *st);
/* An ancestor known only from a path (no id of its own in the trace). */
bool rr_memcg_synthetic(const struct rr_memcg *m);
/* Memcgs outside the recorder's view (rr_memcg.online_unknown) now. */
unsigned int rr_state_nr_outside_view(const struct rr_state *st);

/* Is the memcg online at @ts_ns?  The css goes offline some time after
 * cgroup_rmdir that no event marks: online until @offline_delay_ns after
 * the rmdir (then *@in_window is set: a guess), unless the recorded
 * decisions showed the offline rules earlier (offline_seen_ns). */
bool rr_vals_online_at(const struct rr_memcg_vals *v, uint64_t ts_ns,
		       uint64_t offline_delay_ns, bool *in_window);

/* Apply an event that changes state (mkdir, rmdir, release, LRU deltas,
 * flushes).  Return: 0, or -1 on out of memory. */
int rr_state_apply(struct rr_state *st, const struct rr_event *ev);

/* lru_note_cost() on @m and every ancestor, @type RR_LRU_ANON or
 * RR_LRU_FILE, @cost in pages (docs/kernel-model.md §3.6). */
/* As rr_state_note_cost(), with @uncertain more pages of cost the note
 * may have carried (kept apart, as rr_memcg_vals.cost_uncertain). */
void rr_state_note_cost_range(struct rr_state *st, struct rr_memcg *m, int type,
			      uint64_t cost, uint64_t uncertain);
void rr_state_note_cost(struct rr_state *st, struct rr_memcg *m, int type,
			uint64_t cost);

/* rstat view of @m's hierarchical list sizes: as of the last flush, or
 * the exact sizes when no flush covered @m and it predates the trace;
 * @epoch as rr_memcg_at(). */
void rr_memcg_rstat_lru(const struct rr_memcg *m, uint64_t epoch,
			uint64_t out[RR_NR_EVICTABLE_LRU]);

/* The rstat view as a decision taken at @ts_ns saw it (before a flush that
 * came later); @ws_activate may be NULL. */
/* The time of the flush behind @m's view at @ts_ns (0: a view from before
 * the trace's first flush of it). */
uint64_t rr_memcg_view_flush_ns(const struct rr_memcg *m, uint64_t ts_ns);
void rr_memcg_rstat_at(const struct rr_memcg *m, uint64_t ts_ns,
		       uint64_t lru[RR_NR_EVICTABLE_LRU], int64_t ws_activate[RR_NR_LRU_TYPES]);

/* Exact hierarchical sizes of the four evictable lists of @m's subtree as
 * of @epoch (0: now), counting the memcgs that existed then. */
void rr_memcg_hier_lru(const struct rr_memcg *m, uint64_t epoch,
		       uint64_t out[RR_NR_EVICTABLE_LRU]);

/* Give @m the path @path (and so its parent); for snapshot markers. */
int rr_state_name(struct rr_state *st, struct rr_memcg *m, const char *path);

/* Is @a an ancestor of (or equal to) @m? */
bool rr_memcg_is_ancestor(const struct rr_memcg *a, const struct rr_memcg *m);

/* The lowest common ancestor of @a and @b (either may be NULL: the other);
 * NULL if they share no tree.  O(depth^2). */
struct rr_memcg *rr_memcg_lca(struct rr_memcg *a, struct rr_memcg *b);

#endif
