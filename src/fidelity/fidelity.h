/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fidelity: does the baseline reproduce what the recording kernel did?
 * (docs/kernel-model.md §19.)
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

#include <uthash.h>

#include "../common/swappiness.h"
#include "../episode/episode.h"
#include "../sim/sim.h"

enum rr_unchecked {
	RR_UC_NO_ATTRIBUTION,	/* a batch with no memcg */
	RR_UC_NO_PRIORITY,	/* no shrink or slab event gave the priority */
	RR_UC_ONLINE_UNCERTAIN,	/* inside the rmdir -> offline window */
	RR_UC_NO_CONTEXT,	/* state not captured (drain log overflow) */
	RR_UC_LOST_EVENTS,	/* after events were lost */
	RR_UC_MGLRU,		/* MAX_LRU_BATCH requests: MGLRU, not get_scan_count() */
	RR_UC_RETRY_PASS,	/* a do_try_to_free_pages() retry ladder */
	RR_UC_ROOT_UNKNOWN,	/* reclaim root not in the memcg's ancestry */
	/* undecidable (docs/kernel-model.md §19.3): admissible values of an
	 * input the trace does not give predict differently */
	RR_UC_SWAP_UNKNOWN,	/* swap presence: nothing in the trace says */
	RR_UC_SWAPPINESS_UNKNOWN,	/* the memcg's swappiness: no snapshot */
	RR_UC_NR_TO_RECLAIM,	/* several nr_to_reclaim fit the checkpoints */
	RR_UC_ROOT_AMBIGUOUS,	/* an ancestor's limit may have been hit instead */
	RR_UC_FLUSH_UNKNOWN,	/* no rstat flush in the trace: the view's age unknown */
	RR_UC_DYING_SIZE,	/* a dying memcg's list sizes: only bounded */
	RR_UC_REFAULT_UNKNOWN,	/* the root's refaults since its last
				 * snapshot_refaults() before the trace */
	RR_UC_TINY_UNKNOWN,	/* file_is_tiny: the node's free pages then */
	RR_UC_COST_UNKNOWN,	/* the root's anon/file cost before the trace */
	RR_UC_CONCURRENT,	/* other tasks changed the memcg's lists between
				 * the decision and the batch */
	RR_UC_SIZE_DISPROVED,	/* a batch asked for more than the sizes the
				 * trace gives allow: pages the trace missed */
	RR_UC_PASS_UNKNOWN,	/* global reclaim: which pass (prepare_scan_control())
				 * a call belonged to */
	RR_UC_ATTR_AMBIGUOUS,	/* no memcg: events, and more than one memcg fits
				 * a batch of the call (attribute.c) */
	RR_UC_ATTR_ASSUMED,	/* the trace names no memcg: a stand-in's call */
	RR_UC_SIZES_STALE,	/* no memcg: events, and no recent snapshot of the
				 * memcg's sizes (rr_batch_ctx.sizes_stale) */
	RR_UC_DEACT_UNKNOWN,	/* global reclaim: the root's view holds lower
				 * bounds (no snapshot read it), so whether
				 * inactive_is_low() held is not known */
	RR_UC__COUNT
};

#define RR_FIDELITY_WORST 10
#define RR_FIDELITY_FIRST_LEN 200

/* A memcg the recorded decisions showed offline inside the rmdir ->
 * offline window: from @ts_ns on it is taken as offline (a fitted value). */
struct rr_offline_seen {
	uint64_t memcg_id, ts_ns;
};

/* The facts of one episode's check. */
struct rr_fidelity_facts {
	uint64_t checked, exact, off_by_one, within_one_batch, mismatched;
	uint64_t not_exact;		/* checked calls that were not exact */
	uint64_t unchecked[RR_UC__COUNT];
	/* the walk's visits without a batch between two recorded calls of a
	 * pass (struct rr_silent_ctx): predicted silent too (not judged), or
	 * predicted with batches (judged, in checked and not exact) */
	uint64_t silent, predicted_unrecorded;
	uint64_t silent_unjudged;	/* memory.min/low or online state unknown */
	/* judged calls whose inputs the recorder's shrink_lruvec() probe read
	 * (docs/kernel-model.md §26) */
	uint64_t probed;
	/* judged calls on lower-bound sizes (rr_batch_ctx.sizes_lower_bound),
	 * and of them exact */
	uint64_t on_lower_bounds, on_lower_bounds_exact;
	/* where the trace does not say whether swap was present: calls only
	 * "swap" fits (or whose first inactive-file request was below min(32,
	 * size >> priority): not SCAN_FILE, so anon was reclaimable), and
	 * calls only "no swap" fits */
	uint64_t swap_present_calls, swap_absent_calls;
	uint64_t swappiness_fitted;	/* judged calls with a fitted swappiness */
	uint64_t age_node_batches;	/* kswapd_age_node() batches: not calls */
	char first[RR_FIDELITY_FIRST_LEN];	/* the first call not exact, in words */
	bool first_on_active;		/* ... and it differed on an active list */
	/* trajectory: the free-running replay against the recording */
	bool trajectory_checked;	/* every call judged, outside a window */
	bool unchecked_window;		/* replayed, but inside an offline window */
	bool unchecked_interleaved;	/* replayed, but another walker shared the cursor */
	bool trajectory_assumed;	/* judged on a fitted/assumed swap or swappiness */
	bool same_calls, same_stop, same_reclaimed;
	struct rr_offline_seen *offline_seen;	/* malloc'ed; free with
						 * rr_fidelity_facts_free() */
	size_t nr_offline_seen;
};

struct rr_fidelity_worst {
	uint64_t episode;
	char cgroup[128];
	uint64_t checked, mismatched;	/* mismatched: calls not exact */
	char first[RR_FIDELITY_FIRST_LEN];	/* the first mismatching call, in words */
	const char *reason;	/* the likely cause found */
};

/*
 * A v1 memcg's swappiness the trace does not give, fitted from its
 * recorded calls: @match[s] of its @calls were predicted exactly with
 * swappiness s (swap present), s = 0..200.
 */
struct rr_swappiness_fit {
	uint64_t memcg_id;
	uint64_t calls;
	/* calls some swappiness value explains (under some admissible value
	 * of the other hidden inputs): a fit whose best values explain fewer
	 * is contradicted by the memcg's own calls, and not taken */
	uint64_t explained;
	uint64_t match[RR_MAX_SWAPPINESS + 1];
	UT_hash_handle hh;
};

/* Totals over a trace. */
struct rr_fidelity {
	uint64_t decisions_checked, exact, off_by_one, within_one_batch, mismatched;
	uint64_t unchecked[RR_UC__COUNT];
	uint64_t kind_checked[RR_KIND__COUNT], kind_exact[RR_KIND__COUNT];
	uint64_t kind_within[RR_KIND__COUNT], kind_unchecked[RR_KIND__COUNT];
	uint64_t kind_episodes[RR_KIND__COUNT];
	uint64_t age_node_batches;	/* kswapd_age_node() batches seen (not calls) */
	uint64_t trajectory_checked, trajectory_exact;
	uint64_t trajectory_overlapped, trajectory_overlapped_exact;
	/* judged trajectories whose free run took a swap presence or a v1
	 * swappiness the trace does not give (fitted or assumed) */
	uint64_t trajectory_assumed, trajectory_assumed_exact;
	uint64_t trajectory_same_calls, trajectory_same_stop, trajectory_same_reclaimed;
	uint64_t episodes_total, episodes_checkable;
	uint64_t trajectory_unchecked_window;	/* episodes in an rmdir -> offline window */
	/* episodes whose walk interleaved with another task's under the root */
	uint64_t trajectory_unchecked_interleaved;
	uint64_t offline_moments_inferred;	/* memcgs whose offline time the
						 * recorded decisions gave */
	struct rr_fidelity_worst worst[RR_FIDELITY_WORST];
	int nr_worst;
	/* rr_fidelity_facts' evidence of swap, summed */
	uint64_t swap_present_calls, swap_absent_calls;
	struct rr_swappiness_fit *swappiness_fits;	/* by memcg id; free with
							 * rr_fidelity_free() */
	uint64_t swappiness_fitted_calls;	/* judged under a fitted swappiness */
	/* rr_fidelity_facts' silent visits, summed */
	uint64_t silent, predicted_unrecorded, silent_unjudged, silent_cut;
	uint64_t decisions_probed;	/* judged on the probe's inputs */
	/* judged on lower-bound sizes of memcgs older than the trace, and
	 * of them exact */
	uint64_t decisions_on_lower_bounds, decisions_on_lower_bounds_exact;
};

/**
 * rr_fidelity_check() - check one recorded episode; changes nothing
 * @kernel:        the resolved baseline policy.
 * @in:            the episode's simulator input (its cursor where the
 *                 baseline's run started), or NULL if it was not replayed.
 * @kernel_result: the baseline's free-running replay of the episode
 *                 (trajectory), or NULL if it was not replayed.
 * @trace:         the totals of the episodes checked before (evidence of
 *                 swap found there holds here, and the swappiness fits,
 *                 which this episode's calls join), or NULL.
 * @facts:         filled; a call inside the rmdir -> offline window that
 *                 only the offline rules explain is listed in offline_seen
 *                 (the caller may take the memcg as offline from then on).
 *
 * Inputs the trace does not give (swap presence without the recorder's
 * marker or evidence, a v1 memcg's swappiness without a snapshot,
 * nr_to_reclaim where several candidates fit) are not scored on one
 * chosen value: the call is predicted under each admissible value, and
 * counted undecidable (RR_UC_SWAP_UNKNOWN, ...) where they differ
 * (docs/kernel-model.md §19.3, the spec's §20.3).  A swappiness the trace
 * does not give is admissible where it fits the memcg's other calls best
 * (leave-one-out: a call is never judged by a value fitted to itself).
 * Return: 0, or -1 with @err set (a hook failed, out of memory).
 */
int rr_fidelity_check(const struct rr_episode *ep, const struct rr_state *st,
		      const struct rr_kernel_model *km, unsigned int page_shift,
		      const struct rr_resolved_policy *kernel, const struct rr_sim_input *in,
		      const struct rr_sim_result *kernel_result,
		      struct rr_fidelity *trace,
		      struct rr_fidelity_facts *facts, struct rr_error *err);

/* Free what rr_fidelity_check() allocated in the totals. */
void rr_fidelity_free(struct rr_fidelity *f);

void rr_fidelity_facts_free(struct rr_fidelity_facts *facts);

/* Add one episode's facts to the totals (@offline_inferred: how many of
 * its offline_seen the caller took as new offline moments). */
void rr_fidelity_add(struct rr_fidelity *f, const struct rr_episode *ep,
		     const struct rr_fidelity_facts *facts, uint64_t offline_inferred);

#endif
