/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fidelity: does the baseline reproduce what the recording kernel did?
 * (kernel-reclaim-model.md §20.)
 *
 * Decisions: every recorded shrink_lruvec() call (an episode's batches on
 * one memcg at one priority) is replayed on the state the kernel saw (the
 * memcg's exact sizes at the call boundary, the root's cost pair and rstat
 * view), with the loop fed the recorded reclaim of each batch; the
 * predicted sequence of (list, nr_requested) batches is compared with the
 * recorded one: exact, off by one page, within one batch (32 pages), or
 * mismatched.  Calls that cannot be judged are counted by reason.
 *
 * Trajectory: the free-running replay of the episode against the
 * recording: the (memcg, priority) calls with inactive-list batches, the
 * priority where it stopped, and the pages reclaimed.
 */
#ifndef RR_FIDELITY_H
#define RR_FIDELITY_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "../episode/builder.h"
#include "../sim/sim.h"

enum rr_unchecked {
	RR_UC_NO_ATTRIBUTION,	/* a batch with no memcg */
	RR_UC_NO_PRIORITY,	/* no shrink or slab event gave the priority */
	RR_UC_ONLINE_UNCERTAIN,	/* inside the rmdir -> offline window */
	RR_UC_NO_CONTEXT,	/* state not captured (drain log overflow) */
	RR_UC_LOST_EVENTS,	/* after events were lost */
	RR_UC_MGLRU,		/* MAX_LRU_BATCH requests: MGLRU, not §3 */
	RR_UC_RETRY_PASS,	/* a do_try_to_free_pages() retry ladder */
	RR_UC_ROOT_UNKNOWN,	/* reclaim root not in the memcg's ancestry */
	RR_UC__COUNT
};

#define RR_FIDELITY_WORST 10

struct rr_fidelity_worst {
	uint64_t episode;
	char cgroup[128];
	uint64_t checked, mismatched;	/* mismatched: calls not exact */
	char first[200];	/* the first mismatching call, in words */
	const char *reason;	/* the likely cause found */
};

struct rr_fidelity {
	uint64_t decisions_checked, exact, off_by_one, within_one_batch, mismatched;
	uint64_t unchecked[RR_UC__COUNT];
	uint64_t kind_checked[RR_EP__COUNT], kind_exact[RR_EP__COUNT];
	uint64_t trajectory_checked, trajectory_exact;
	uint64_t trajectory_overlapped, trajectory_overlapped_exact;
	uint64_t trajectory_same_calls, trajectory_same_stop, trajectory_same_reclaimed;
	uint64_t episodes_total, episodes_checkable;
	uint64_t trajectory_unchecked_window;	/* episodes in an rmdir -> offline window */
	uint64_t offline_moments_inferred;	/* memcgs whose offline time the
						 * recorded decisions gave */
	struct rr_fidelity_worst worst[RR_FIDELITY_WORST];
	int nr_worst;
	bool swappiness_assumed;	/* no recorder snapshot gave it */
};

const char *rr_unchecked_name(enum rr_unchecked reason);

/**
 * rr_fidelity_episode() - check one recorded episode
 * @kernel:        the resolved baseline policy.
 * @kernel_result: its free-running replay of the episode (trajectory), or
 *                 NULL if the episode was not replayed.
 * @first_ladder_forced: the kernel's first ladders made no batch (so left no
 *                 event), and the first recorded one ran with force_deactivate.
 * @st:            updated when a call inside the rmdir -> offline window
 *                 shows which state the kernel saw: the memcg is taken as
 *                 offline from then on (a fitted value, counted in
 *                 offline_moments_inferred).
 * Return: 0, or -1 with @err set (a hook failed, out of memory).
 */
int rr_fidelity_episode(struct rr_fidelity *f, const struct rr_episode *ep,
			struct rr_state *st, const struct rr_kernel_model *km,
			unsigned int page_shift, const struct rr_resolved_policy *kernel,
			const struct rr_sim_result *kernel_result, bool first_ladder_forced,
			struct rr_error *err);

/* The "fidelity" object of the JSON diff (man reclaim-replay-json.5). */
json_t *rr_fidelity_json(const struct rr_fidelity *f);

/* Text for `report --fidelity` and the end of the compare table. */
void rr_fidelity_print(const struct rr_fidelity *f, FILE *out);

#endif
