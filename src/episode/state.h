/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory-cgroup state rebuilt from a trace: the tree (cgroup_mkdir paths),
 * online state (cgroup_rmdir), exact local LRU sizes (running sums of
 * mod_memcg_lruvec_state deltas), the rstat view as of the last recorded
 * flush (memcg_flush_stats), anon/file reclaim costs (lru_note_cost()
 * replayed from shrink events), and the outcome statistics the simulator's
 * outcome model is calibrated with.  Sizes are in pages.
 */
#ifndef RR_EPISODE_STATE_H
#define RR_EPISODE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include <uthash.h>

#include "../trace/event.h"

#define RR_NR_LRU 5		/* enum lru_list incl. unevictable */

/* node_stat_item numbers of the WORKINGSET items the model reads
 * (kernel-reclaim-model.md §14.1, measured on 6.18). */
struct rr_item_map {
	int workingset_activate[2];	/* anon, file */
	int workingset_restore[2];
	bool from_trace;		/* false: 6.18 numbers assumed */
};

struct rr_memcg {
	uint64_t id;			/* cgroup_id(): the kernfs id */
	char *path;			/* "/a/b", or "memcg_id=N" if never named */
	int level;
	struct rr_memcg *parent;
	struct rr_memcg **children;	/* sorted by id (creation order) */
	int nr_children, cap_children;
	bool online;
	bool named;			/* path known from a cgroup event */
	bool baseline_known;		/* created in the trace: sizes start at 0 */
	bool lru_from_isolate;		/* a start size was raised to
					 * nr_requested << priority of a batch */
	uint64_t rmdir_ns;
	uint64_t release_ns;		/* cgroup_release: freed, out of the tree */
	uint64_t created_ns;		/* its cgroup_mkdir, 0 if it predates the trace */
	/* the recorded decisions showed the offline rules from this time on
	 * (a fitted value inside the rmdir -> offline window, §12.3, §20.3) */
	uint64_t offline_seen_ns;

	/* exact local sizes: running sum; lowest running sum seen (a
	 * negative low means the start size was at least -low) */
	int64_t lru_sum[RR_NR_LRU];
	int64_t lru_low[RR_NR_LRU];
	/* rstat view: hierarchical sizes and WORKINGSET_ACTIVATE counts at
	 * the last flush that covered this memcg */
	uint64_t rstat_lru[4];
	int64_t ws_activate[2];		/* exact local counts */
	int64_t rstat_ws_activate[2];	/* hierarchical, at last flush */
	int64_t refault_snapshot[2];	/* snapshot_refaults(), reclaim roots only */
	bool refault_snapshot_valid;

	uint64_t anon_cost, file_cost;	/* lru_note_cost() */
	/* outcome statistics of inactive batches, per type */
	uint64_t scanned[2], reclaimed[2], pageouts[2];
	uint64_t requested[2], taken[2];
	int swappiness;
	int64_t limit_bytes;		/* from a snapshot: -1 none, 0 unknown */
	int64_t min_bytes, low_bytes;	/* memory.min/low from a snapshot, -1 unknown */
	bool snapshotted;		/* a snapshot marker described it */
	bool rstat_valid;		/* a flush (or mkdir) fixed the view */
	/* the view before the last flush, and when that flush was: a decision
	 * taken before it read the older values */
	uint64_t rstat_prev_lru[4];
	int64_t rstat_prev_ws_activate[2];
	bool rstat_prev_valid;
	uint64_t rstat_flush_ns;
	UT_hash_handle hh;		/* by id */
	UT_hash_handle hh_path;		/* by path, named memcgs only */
};

struct rr_state {
	struct rr_memcg *by_id;
	struct rr_memcg *by_path;
	uint64_t next_synthetic_id;	/* for ancestors seen only as a path */
	int memory_root;		/* cgroup hierarchy id of memcg, -1 unknown;
					 * cgroup events of other hierarchies are ignored */
	struct rr_item_map items;
	bool cost_zero_returns, cost_rotations_x32, cost_fractions;
	int default_swappiness;
	uint64_t nr_flushes;
	uint64_t global_scanned[2], global_reclaimed[2];
	unsigned int nr_memcgs;
};

void rr_state_init(struct rr_state *st);
void rr_state_free(struct rr_state *st);

/* Find, or create as an unnamed top-level memcg. NULL only on ENOMEM. */
struct rr_memcg *rr_state_memcg(struct rr_state *st, uint64_t id);
struct rr_memcg *rr_state_find(const struct rr_state *st, uint64_t id);

/* The exact local size of one list, in pages: the running sum plus the
 * smallest start size consistent with it staying >= 0. */
uint64_t rr_memcg_lru_pages(const struct rr_memcg *m, int lru);

/* Apply an event that changes state (mkdir, rmdir, LRU deltas, flushes,
 * markers).  Return: 0, or -1 on out of memory. */
int rr_state_apply(struct rr_state *st, const struct rr_event *ev);

/* lru_note_cost() on @m and every ancestor (§3.4), @type 0 anon 1 file. */
void rr_state_note_cost(struct rr_state *st, struct rr_memcg *m, int type,
			uint64_t cost);

/* rstat view of @m's hierarchical list sizes (§2.1): as of the last flush,
 * or the exact sizes when no flush covered @m and it predates the trace. */
void rr_memcg_rstat_lru(const struct rr_memcg *m, uint64_t out[4]);

/* The rstat view as a decision taken at @ts_ns saw it (before a flush that
 * came later); @ws_activate may be NULL. */
void rr_memcg_rstat_at(const struct rr_memcg *m, uint64_t ts_ns, uint64_t lru[4],
		       int64_t ws_activate[2]);

/* Exact hierarchical sizes of the four evictable lists of @m's subtree. */
void rr_memcg_hier_lru(const struct rr_memcg *m, uint64_t out[4]);

/* Give @m the path @path (and so its parent); for snapshot markers. */
int rr_state_name(struct rr_state *st, struct rr_memcg *m, const char *path);

/* Is @a an ancestor of (or equal to) @m? */
bool rr_memcg_is_ancestor(const struct rr_memcg *a, const struct rr_memcg *m);

#endif
