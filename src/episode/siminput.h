/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's input for a recorded episode: the reclaim root's subtree
 * as it was when the episode began (pre-order, siblings in creation
 * order), each memcg's start sizes, online state, swappiness and outcome
 * statistics, the recorded batches of each memcg (for the outcome model)
 * and the sizes the kernel saw at each recorded shrink_lruvec() call.
 */
#ifndef RR_EPISODE_SIMINPUT_H
#define RR_EPISODE_SIMINPUT_H

#include "../common/error.h"
#include "../sim/sim.h"
#include "builder.h"
#include "state.h"

/**
 * rr_episode_sim_input() - the simulator input for a replayable episode
 * @offline_delay_ns: the assumed rmdir -> offline delay (for online states).
 * @in:   filled; in->memcgs, in->outcomes and in->boundaries are
 *        allocated (free all three with rr_episode_sim_input_free());
 *        cursor set to -1.
 * Memcgs created after the episode's start are left out.
 * Return: 0, or -1 when the root is unknown or did not exist at the start
 * (@err says which), or on ENOMEM.
 */
int rr_episode_sim_input(const struct rr_episode *ep, const struct rr_state *st,
			 const struct rr_kernel_model *km, unsigned int page_shift,
			 uint64_t offline_delay_ns, struct rr_sim_input *in,
			 struct rr_error *err);

void rr_episode_sim_input_free(struct rr_sim_input *in);

#endif
