/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The v6.11+ memcg walk cursor across episodes (docs/kernel-model.md
 * §6.3, §6.4).  mem_cgroup_iter() keeps one position per (reclaim root,
 * node); each policy's own decisions move it, so each policy carries its
 * own, per root.  The position is hidden from the trace, and other
 * reclaimers under the root move it too: every policy starts an episode
 * where the recording left it (after the memcg whose batches ended the
 * previous recorded episode under the root), and the first episode under a
 * root starts just before the first memcg the kernel visited.  Episodes
 * arrive in the order they end; one that began while others under its root
 * ran starts where the recording left the cursor when it began (the last
 * one that ended before its start), not after the ones that ended during
 * it (timestamp order).  Memory: one entry per reclaim root.
 */
#ifndef RR_SIM_CURSOR_H
#define RR_SIM_CURSOR_H

#include <stdint.h>

#include <uthash.h>

#include "sim.h"

struct rr_cursor {
	uint64_t root_id;
	uint64_t pos_id[RR_MAX_POLICIES];	/* memcg last handed out, 0 none */
	uint64_t recorded_pos_id;		/* where the recording left it */
	bool recorded_pos_valid;
	/* the last RR_CURSOR_PAST recorded positions with the end of the
	 * episode that left each, oldest first from past_head */
	struct { uint64_t end_ns, pos_id; } past[16];
	int nr_past, past_head;
	UT_hash_handle hh;
};

struct rr_cursors {
	struct rr_cursor *by_root;
};

/**
 * rr_cursor_start() - the cursor of @in's root at an episode's start
 * @first_memcg_id: the memcg of the episode's first attributed batch (0
 *                  none), for a root seen for the first time, or one whose
 *                  recorded episodes all ended after @start_ns.
 * @start_ns:       the episode's start (0: unknown, take the last recorded
 *                  position).
 * Return: the entry (its pos_id[] set for every policy), or NULL on ENOMEM.
 */
struct rr_cursor *rr_cursor_start(struct rr_cursors *c, uint64_t root_id,
				  const struct rr_sim_input *in, uint64_t first_memcg_id,
				  uint64_t start_ns);

/* The index in @in of memcg @id, -1 for none (what rr_sim_input.cursor takes). */
int rr_cursor_index(const struct rr_sim_input *in, uint64_t id);

/* Policy @p's run ended with the cursor at @in index @res_cursor (-1 none). */
void rr_cursor_moved(struct rr_cursor *cur, int p, const struct rr_sim_input *in, int res_cursor);

/* Where the recording left the cursor: after @memcg_id if the episode
 * (which ended at @end_ns) stopped on its goal above priority 0, else at
 * the start. */
void rr_cursor_recorded(struct rr_cursor *cur, uint64_t memcg_id, int priority, uint64_t end_ns);

void rr_cursors_free(struct rr_cursors *c);

#endif
