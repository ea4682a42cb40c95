/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The decision diff as plain data.  For each episode: what the recording
 * shows, what every policy decided (the simulator's results, borrowed),
 * and how each policy differs from the baseline; computed once here, then
 * handed to every renderer (src/output), which only formats it.  The
 * running totals (per policy, per reclaim root, the recording's, the
 * episodes that differ most) are kept here too: constant size, or one
 * entry per cgroup.  All counts are in pages unless a name says bytes.
 */
#ifndef RR_DIFF_H
#define RR_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include <uthash.h>

#include "../episode/episode.h"
#include "../policies/policies.h"
#include "../sim/sim.h"
#include "../timing/timing.h"

#define RR_TOP_MAX 50

/* How a request ended (the JSON's "outcome"):
 * met     nr_to_reclaim pages were reclaimed;
 * short   a reclaim pass ended below it (try_to_free_mem_cgroup_pages()
 *         returns what it got; the caller retries or OOMs);
 * eagain  memory.reclaim gave up: -EAGAIN once MAX_RECLAIM_RETRIES calls in
 *         a row reclaimed nothing (memory_reclaim(), mm/memcontrol.c). */
enum rr_outcome { RR_OUTCOME_MET, RR_OUTCOME_SHORT, RR_OUTCOME_EAGAIN };
const char *rr_outcome_name(enum rr_outcome o);

/* What the recording shows for one episode. */
struct rr_recorded_episode {
	uint64_t nr_scanned;		/* nr_taken of the inactive batches */
	uint64_t nr_reclaimed;		/* mm_vmscan_memcg_reclaim_end */
	uint64_t nr_reclaimed_by_batches;
	uint64_t batches, scan_request_pages;
	/* anon and file: nr_taken of the inactive batches, their nr_reclaimed */
	uint64_t nr_scanned_type[RR_NR_LRU_TYPES], nr_reclaimed_type[RR_NR_LRU_TYPES];
	uint64_t memcgs_scanned;	/* distinct memcgs with a batch */
	/* shrink_lruvec() calls: the recorder's probe counts them, else the
	 * runs of batches of one memcg and priority (silent visits left out) */
	uint64_t lruvec_calls;
	int lowest_priority;
	uint64_t calls;			/* reclaim calls: 1, or a proactive write's */
	uint64_t over_reclaim;		/* reclaimed beyond nr_to_reclaim, pages */
	uint64_t duration_ns;		/* begin to end */
	uint64_t in_calls_ns;		/* inside the reclaim calls (their begin to end) */
	enum rr_outcome outcome;	/* a proactive write's from its end marker */
	/* nr_requested summed per (memcg, priority, lru) within each
	 * shrink_lruvec() call, in order of first appearance */
	struct rr_scan_target *targets;
	size_t nr_targets;
};

/* A policy against the baseline in one episode (where it differs). */
struct rr_change {
	int64_t nr_scanned_delta, nr_reclaimed_delta;
	int64_t nr_scanned_type_delta[RR_NR_LRU_TYPES];
	int64_t nr_reclaimed_type_delta[RR_NR_LRU_TYPES];
	int64_t over_reclaim_delta_pages;
	int64_t calls_delta;
	int lowest_priority_delta;
	/* the first memory.reclaim call whose chunk differs (1-based; 0:
	 * none), and both chunks; absent when that call was not made */
	uint64_t chunk_call;
	bool chunk_has_policy, chunk_has_baseline;
	uint64_t chunk_pages, chunk_baseline_pages;
	/* targets (memcg, priority, lru) one made and the other did not:
	 * indices into the policy's (gained) or the baseline's (lost)
	 * results[].targets */
	size_t *gained, *lost;
	size_t nr_gained, nr_lost;
};

struct rr_episode_diff {
	const struct rr_episode *ep;	/* identity and inferred inputs (borrowed) */
	const struct rr_state *names;	/* cgroup paths by id (borrowed) */
	uint64_t id;			/* ep->replay_seq; the scenario's request number */
	uint64_t page_size_bytes;	/* of the traced kernel, for byte units */
	const char *skip_reason;	/* NULL: replayed */
	bool has_recording;		/* false for scenarios */
	struct rr_recorded_episode recorded;
	int nr_policies, baseline;
	const struct rr_sim_result *results;	/* one per policy (borrowed); NULL if skipped */
	enum rr_outcome outcome[RR_MAX_POLICIES];
	uint64_t over_reclaim[RR_MAX_POLICIES];	/* reclaimed beyond nr_to_reclaim */
	bool differs[RR_MAX_POLICIES];	/* targets, calls or reclaim differ */
	bool matches_recording[RR_MAX_POLICIES];	/* inactive targets == recorded */
	int nr_differing;
	struct rr_change changes[RR_MAX_POLICIES];	/* where differs[] */
	bool listed;			/* shown by the per-episode outputs */
};

/**
 * rr_diff_episode() - compute the diff of one episode
 * @results: one per policy, or NULL when the episode was not replayed
 *           (@skip_reason says why).
 * @all_episodes: list episodes where nothing differs too.
 * Return: 0, or -1 on ENOMEM.  Free with rr_diff_episode_free().
 */
int rr_diff_episode(struct rr_episode_diff *d, const struct rr_episode *ep,
		    const struct rr_state *names, uint64_t page_size_bytes, bool has_recording,
		    const struct rr_sim_result *results, int nr_policies, int baseline,
		    const char *skip_reason, bool all_episodes);
void rr_diff_episode_free(struct rr_episode_diff *d);

/* How much policy @p's result of @d differs from the baseline's: |change
 * of pages reclaimed| + |of pages scanned| + |of calls| (the weight by
 * which --top ranks episodes).  @d must have results. */
uint64_t rr_diff_weight(const struct rr_episode_diff *d, int p);

/* Per-policy totals over all replayed episodes, in pages. */
/*
 * The distribution of a per-episode change against the baseline: bucket
 * RR_DELTA_ZERO holds the episodes with none, RR_DELTA_ZERO + k those with
 * a change in [2^(k-1), 2^k) pages, RR_DELTA_ZERO - k those with one in
 * (-2^k, -2^(k-1)]: a fixed size, whatever the number of episodes.
 */
#define RR_DELTA_ZERO 64
#define RR_DELTA_BUCKETS (2 * RR_DELTA_ZERO + 1)
enum { RR_DELTA_RECLAIMED, RR_DELTA_SCANNED, RR_NR_DELTAS };

/* The bucket of a change of @delta pages (above). */
int rr_delta_bucket(int64_t delta);

struct rr_policy_totals {
	/* per replayed episode, this policy's pages reclaimed and scanned
	 * less the baseline's (RR_DELTA_*) */
	uint64_t delta_hist[RR_NR_DELTAS][RR_DELTA_BUCKETS];
	uint64_t nr_scanned, nr_reclaimed, calls, shrink_lruvec_calls, batches;
	uint64_t scan_target_pages;
	uint64_t nr_reclaimed_anon;		/* anon pages reclaimed (swapped out) */
	uint64_t over_reclaim;			/* reclaimed beyond the request, summed */
	uint64_t eligible_p12;			/* (episode, cgroup, list) with a target at priority 12 */
	uint64_t episodes_differing;	/* scan targets or reclaim differ from baseline */
	uint64_t episodes_matching_recording;	/* inactive-list targets == recorded */
	uint64_t eagain;		/* memory.reclaim requests that ended in -EAGAIN */
	int lowest_priority;
};

/* What the recording itself shows, over the same episodes. */
struct rr_recorded_totals {
	uint64_t nr_scanned, nr_reclaimed, batches, scan_request_pages;
	int lowest_priority;
	uint64_t calls, over_reclaim, duration_ns, in_calls_ns, eagain;
};

/*
 * Totals of one kind of episode (the proactive ones: memory.reclaim
 * writes), per policy and as recorded, in pages; time in ns.
 */
struct rr_kind_counts {
	uint64_t nr_scanned, nr_reclaimed, calls, over_reclaim, eagain;
	/* anon, file: pages taken off inactive lists, pages reclaimed (anon
	 * reclaimed: swapped out); 0 under the exact outcome model */
	uint64_t nr_scanned_type[RR_NR_LRU_TYPES], nr_reclaimed_type[RR_NR_LRU_TYPES];
	uint64_t memcgs_scanned;	/* summed over episodes: memcgs with a scan target
					 * (recorded: with a batch) */
	/* shrink_lruvec() calls (recorded: the probe's, else the runs of
	 * batches of one memcg and priority): the time model's */
	uint64_t lruvec_calls;
	/* kswapd runs whose replay reached the recorded run's balance
	 * interval (sim.h kswapd_balance_undecidable); policies only */
	uint64_t balance_undecidable;
	int lowest_priority;
	/* episodes by the lowest priority they reached, 0..12 */
	uint64_t stop_priority[RR_DEF_PRIORITY + 1];
};

/* Pages one memcg supplied in the episodes of a kind (global reclaim):
 * [0..nr_policies) per policy, [RR_MAX_POLICIES] recorded. */
struct rr_supplier {
	uint64_t memcg_id;		/* hash key */
	uint64_t nr_reclaimed[RR_MAX_POLICIES + 1];
	UT_hash_handle hh;
};

struct rr_kind_totals {
	uint64_t replayed, skipped;
	uint64_t inferred;	/* replayed ones inferred from plain calls */
	struct rr_kind_counts policy[RR_MAX_POLICIES], recorded;
	uint64_t recorded_duration_ns, recorded_in_calls_ns;
	struct rr_supplier *suppliers;	/* global kinds only: by memcg id */
};

/* How many memcgs a kind's totals name as suppliers, per policy. */
#define RR_SUPPLIERS_SHOWN 5

/* Per policy totals of the episodes rooted at one cgroup. */
struct rr_cgroup_policy_totals {
	uint64_t nr_scanned, nr_reclaimed, calls, over_reclaim, episodes_differing;
};

struct rr_cgroup_totals {
	uint64_t memcg_id;		/* hash key */
	char *path;			/* NULL when the trace never named it */
	uint64_t episodes;
	struct rr_cgroup_policy_totals p[RR_MAX_POLICIES];
	UT_hash_handle hh;
};

/* An episode that differs much from the baseline, for the table. */
struct rr_top {
	uint64_t episode, start_ns;
	char *cgroup;		/* owned; the reclaim root's path or "?" */
	int policy;
	int64_t delta_reclaimed, delta_scanned, delta_calls;
	uint64_t weight;
};

/* Why episodes were not replayed, and how many (the first reasons seen). */
#define RR_SKIP_REASONS_MAX 8
struct rr_skip_reason {
	const char *reason;	/* static text, or the episode's (copied) */
	char *owned;
	uint64_t n;
};

struct rr_totals {
	int nr_policies, baseline;
	bool has_recording;
	uint64_t page_size_bytes;
	uint64_t nr_episodes, nr_replayed, nr_skipped, nr_listed;
	struct rr_policy_totals policy[RR_MAX_POLICIES];
	struct rr_recorded_totals recorded;
	struct rr_kind_totals proactive;	/* the memory.reclaim writes among them */
	struct rr_kind_totals kinds[RR_KIND__COUNT];	/* every kind, the writes too */
	const struct rr_state *names;	/* cgroup paths by id: the episodes' (borrowed) */
	/* every recorded reclaim call, for the time model (cost-model.h) */
	struct rr_cost_data cost;
	uint64_t cost_global_calls;	/* ... of them direct or node reclaim calls */
	/* ... and its batches, for the batch model (timing.h) */
	struct rr_batch_cost_data batch_cost;
	struct rr_cgroup_totals *cgroups;	/* hash by reclaim root id */
	struct rr_skip_reason skip_reasons[RR_SKIP_REASONS_MAX];
	int nr_skip_reasons;
	uint64_t skips_other;			/* skipped for a reason not listed */
	int top_wanted;				/* --top N */
	struct rr_top top[RR_TOP_MAX];
	int nr_top;
};

void rr_totals_init(struct rr_totals *t, int nr_policies, int baseline, bool has_recording,
		    uint64_t page_size_bytes, int top_wanted);
/* Add one episode.  Return 0, or -1 on ENOMEM. */
int rr_totals_add(struct rr_totals *t, const struct rr_episode_diff *d);
/* The per-cgroup totals in output order (paths in byte order, unnamed
 * ones last by id); the array is malloc'ed, its entries borrowed. */
struct rr_cgroup_totals **rr_totals_cgroups(const struct rr_totals *t, size_t *n);
void rr_totals_free(struct rr_totals *t);

/**
 * rr_kind_suppliers() - the memcgs that supplied the most pages to policy
 * @p (RR_MAX_POLICIES: the recording) in the episodes of @k
 * @out: up to @cap entries, most pages first (ties: lower id first).
 * Return: how many (memcgs with 0 pages are not named).
 */
size_t rr_kind_suppliers(const struct rr_kind_totals *k, int p, const struct rr_supplier **out,
			 size_t cap);

#endif
