/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the simulator, shared by its files.  Not for other stages.
 *
 * The kernel's reclaim loops, in the order they nest (each file calls
 * only the ones below it):
 *
 *   sim.c             rr_sim_run(), rr_sim_predict_call(): the entry points
 *   memory-reclaim.c  memory_reclaim() chunk loop (§10)
 *   try-to-free.c     try_to_free_mem_cgroup_pages() / try_to_free_pages() +
 *                     do_try_to_free_pages(): priorities 12..0, retries (§7, §8.1, §23.3)
 *   kswapd.c          balance_pgdat(): priorities 12..1, full walks (§23.2)
 *   node.c            shrink_node_memcgs(): full or partial walk (§6, §6.3);
 *                     __node_reclaim(): priorities 4..0 (§23.4)
 *   lruvec.c          shrink_lruvec(): batches of <= SWAP_CLUSTER_MAX, goal
 *                     check, cut (§5); shrink_list(), shrink_active_list()
 *   scan-count.c      get_scan_count(): scan balance and per-list targets (§3);
 *                     prepare_scan_control() (§4)
 *   cursor.c          the v6.11+ walk cursor across episodes (sim.h)
 */
#ifndef RR_SIM_LOCAL_H
#define RR_SIM_LOCAL_H

#include "sim.h"

/* The most reclaim calls one memory.reclaim write makes in a replay: 2^23,
 * a 1 TiB write of 4 KiB pages in 32-page chunks (0388536ac291); the
 * per-call arrays then take 128 MiB */
#define MAX_CHUNK_CALLS ((1u << 23) + 1024)	/* (+ the -EAGAIN retries, tail calls) */

/* MAX_RECLAIM_RETRIES, mm/internal.h (d977aa939fca, v5.9) */
#define MAX_RECLAIM_RETRIES 16

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

struct run {
	const struct rr_sim_input *in;
	const struct rr_resolved_policy *pol;
	struct rr_sim_result *out;
	struct rr_error *err;
	struct rr_sim_memcg *m;		/* working copy */
	/* error diffusion accumulators per memcg (pages, or folios with a
	 * folio size): taken per list; reclaimed, activated and deactivated
	 * per type */
	uint64_t (*sim_scanned)[RR_NR_LRU_TYPES];
	uint64_t (*sim_requested)[RR_NR_EVICTABLE_LRU];
	uint64_t (*sim_activated)[RR_NR_LRU_TYPES];
	uint64_t (*sim_deactivated)[RR_NR_LRU_TYPES];
	size_t (*rec_pos)[RR_NR_EVICTABLE_LRU];		/* next recorded outcome per memcg and list */
	uint64_t (*rec_off)[RR_NR_EVICTABLE_LRU];	/* pages of it already taken (the tape) */
	uint64_t (*removed)[RR_NR_EVICTABLE_LRU];	/* pages the run took off each list */
	uint64_t anon_cost, file_cost;	/* reclaim root's cost pair */
	/* scan_control of the current invocation */
	uint64_t nr_to_reclaim, nr_reclaimed;
	uint64_t nr_scanned;	/* sc->nr_scanned: inactive pages taken this pass */
	int priority;
	int order;		/* sc->order (kswapd drops it to 0) */
	bool no_cache_trim_mode, cache_trim_mode_failed;	/* kswapd retry (§23.2) */
	bool may_deactivate[RR_NR_LRU_TYPES], cache_trim_mode, file_is_tiny;
	bool force_deactivate, skipped_deactivate, memcg_full_walk;
	bool memcg_low_reclaim, memcg_low_skipped;
	uint64_t sc_anon_cost, sc_file_cost;	/* copied per pass */
	size_t pass_cursor;		/* the next of in->passes to match */
	long pass_matched;		/* the one this pass took, -1 none */
	int cursor;
	/* before v5.4 (km->limit_walk_stops): the reclaim cookie's shared
	 * position per priority (mz->iter[priority] of the reclaim root on the
	 * node), index of the memcg last handed out, -1 for none */
	int iter_pos[RR_DEF_PRIORITY + 1];
	/* rr_sim_predict_call(): record batches, feed recorded reclaim */
	struct rr_pred_batch *pred;
	size_t pred_cap, nr_pred;
	const struct rr_call_input *feed;
	bool diverged;
	uint64_t exact_reclaimed;	/* RR_OUTCOME_EXACT: pages reclaimed so far */
	uint64_t exact_held;		/* ... and what the lists held, once known */
	bool exact_held_known;
};

static inline uint64_t usage_pages(const struct rr_sim_memcg *m)
{
	return m->lru_pages[0] + m->lru_pages[1] + m->lru_pages[2] + m->lru_pages[3] +
	       m->unevictable_pages;
}

/* cgroup_reclaim(): sc->target_mem_cgroup is set.  Global reclaim
 * (direct, kswapd, node reclaim) has none. */
static inline bool cgroup_reclaim(const struct run *r)
{
	return r->in->kind != RR_KIND_DIRECT && r->in->kind != RR_KIND_KSWAPD &&
	       r->in->kind != RR_KIND_NODE;
}

/* memory-reclaim.c */
int rr_sim_add_chunk(struct rr_sim_result *o, uint64_t nr_pages, uint64_t got);

/* try-to-free.c */
int rr_sim_do_try(struct run *r, uint64_t nr_pages, uint64_t *reclaimed);
int rr_sim_do_try_cb(void *ctx, uint64_t nr_pages, uint64_t *nr_reclaimed);

/* kswapd.c */
int rr_sim_kswapd_run(struct run *r, uint64_t *reclaimed);

/* node.c */
uint64_t rr_sim_exact_available(struct run *r);
int rr_sim_walk(struct run *r);
int rr_sim_node_pass(struct run *r, uint64_t goal);
int rr_sim_node_run(struct run *r, uint64_t *reclaimed);

/* lruvec.c */
int rr_sim_shrink_lruvec(struct run *r, int mi);
void rr_sim_shrink_active(struct run *r, int mi, int lru, uint64_t b);

/* scan-count.c */
int rr_sim_get_scan_count(struct run *r, int mi, uint64_t nr[RR_NR_EVICTABLE_LRU]);
void rr_sim_prepare_scan_control(struct run *r);

#endif
