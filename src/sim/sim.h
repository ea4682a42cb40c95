/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reclaim simulator: the kernel's memcg reclaim loops run over a
 * snapshot of cgroup state, calling a resolved policy's hooks at each
 * decision.  It needs no trace: the episode stage (src/episode) builds the
 * input from one, and the unit tests build it by hand.
 *
 * Modelled (docs/kernel-model.md): memory.reclaim chunk loop (§10),
 * try_to_free_mem_cgroup_pages() (§8.1), do_try_to_free_pages() priority
 * loop and retries (§7), the memcg walk: full (v5.4 - v6.10) or partial
 * with a shared per-root cursor (v6.11+, §6.3; before v5.4 limit reclaim
 * stops at the goal on a per-priority position, §6.5), get_scan_count() (§3.1,
 * §3.3, §3.5 fractions from the reclaim root's anon/file cost), the
 * shrink_lruvec() batch loop with the goal check and proportional cut (§5),
 * and the anon aging after the loop.  v1 soft-limit victim calls (§9).
 *
 * Outcome model (docs/kernel-model.md §20): a batch that repeats the
 * memcg's next recorded batch of the list (same nr_requested) takes what
 * that one took and does what it did: an inactive batch reclaims and
 * activates its pages, an active batch deactivates its pages.  Otherwise
 * it takes the list's next pages off the tape: the recorded batches'
 * outcomes spread evenly over the pages each took, read on from where the
 * run stands (past the last one, as the list's last 64 recorded pages
 * did).  The pages a batch asking for b pages takes: whole folios of
 * folio_pages[type] pages as isolate_lru_folios() does (ceil(b / f)
 * folios), or, without a folio size, b times the memcg's recorded
 * taken/requested ratio for the type; at most the pages left on the list.
 * On a list the episode has no recorded batch of, an inactive batch
 * reclaims the recorded (trace history) reclaimed/scanned share of what
 * it took and activates the recorded activated share of the rest
 * (referenced folios, shrink_folio_list()); an active batch
 * (shrink_active_list()) moves what it took to the inactive list, less
 * the recorded share that active batches kept active (referenced VM_EXEC
 * file folios; 0 without recorded active batches), where later inactive
 * batches may reclaim it.  The ratios are spread with integer error
 * diffusion, so results are exact and deterministic.
 *
 * All sizes are pages.
 */
#ifndef RR_SIM_H
#define RR_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uthash.h>

#include "../common/error.h"
#include "../common/lru.h"
#include "../common/reclaim-kind.h"
#include "../policies/policies.h"
#include "../release/release.h"

/*
 * The request kinds the simulator runs (enum rr_reclaim_kind):
 *  RR_KIND_MEMCG      one try_to_free_mem_cgroup_pages() call
 *  RR_KIND_PROACTIVE  a memory.reclaim write: the chunk loop
 *  RR_KIND_SOFTLIMIT  one v1 mem_cgroup_shrink_node() victim call
 *  RR_KIND_DIRECT     try_to_free_pages(): global direct reclaim, the walk
 *                     root [0] is the root memcg
 *  RR_KIND_KSWAPD     one balance_pgdat() run of kswapd: priority 12 down
 *                     to 1, one full walk from the root memcg [0] per
 *                     iteration (docs/kernel-model.md §23.2)
 *  RR_KIND_NODE       __node_reclaim(): priority 4 down to 0 (§23.4)
 */

/* How many pages a reclaim call gets (docs/kernel-model.md §17). */
enum rr_outcome_model {
	RR_OUTCOME_STRUCTURAL,	/* run the loops; batches reclaim by the ratios */
	RR_OUTCOME_EXACT,	/* each call reclaims its nr_to_reclaim plus
				 * exact_extra_pages (§17.2, §17.3 C1), at most
				 * what the walk's lists still hold (§20) */
};

/*
 * What one recorded batch of a memcg took and what came of it.  Inactive
 * lists (mm_vmscan_lru_shrink_inactive): nr_reclaimed, nr_activate and
 * nr_pageout.  Active lists (mm_vmscan_lru_shrink_active): nr_deactivate,
 * the pages moved to the inactive list; the others are 0.  Pages.
 */
struct rr_sim_outcome {
	int lru;
	uint64_t nr_requested, nr_taken, nr_reclaimed;
	uint64_t nr_activate;	/* taken pages put back on the active list */
	uint64_t nr_pageout;	/* folios written out (mm_vmscan_write_folio) */
	uint64_t nr_deactivate;	/* active batch: taken pages put on the inactive list */
};

/*
 * The exact sizes of a memcg's lists when the kernel began a recorded
 * shrink_lruvec() call at @priority, and how many pages the recorded
 * episode had removed from each list before it.  A simulated call at the
 * same priority (and, in a proactive episode, the same call number)
 * starts from these sizes, corrected by the difference
 * between what the simulation and the recording removed: the LRU activity
 * the trace shows (other tasks, putbacks) is kept, the policy's own
 * reclaim is its own.
 */
struct rr_sim_boundary {
	int priority;
	uint32_t call;	/* the reclaim call of a proactive episode (0, 1, ...);
			 * 0 in the others */
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];
	uint64_t removed_before[RR_NR_EVICTABLE_LRU];
};

/*
 * A pass of the recording (priority, and call of a proactive episode) whose
 * switches the recorder's shrink_lruvec() probe read (docs/kernel-model.md
 * §26): what prepare_scan_count() set from counters the trace does not
 * carry (refaults, the flushed rstat views of 6.1, the node's free pages).
 * A pass of the simulation at the same place, the same nth time, takes
 * them as the kernel had them, as a recorded boundary gives it the sizes.
 */
struct rr_sim_pass {
	int priority;
	uint32_t call;
	uint8_t may_deactivate;		/* DEACTIVATE_ANON 1 | DEACTIVATE_FILE 2 */
	bool cache_trim_mode, file_is_tiny;
	/* the reclaim root's cost pair as prepare_scan_count() copied it */
	uint64_t anon_cost, file_cost;
	/* pages shrink_node() credited at the pass's end beyond its LRU
	 * batches: reclaim_state's slab pages, which v6.1 adds to every
	 * reclaimer's nr_reclaimed (docs/kernel-model.md §25), as the probes'
	 * nr_reclaimed and the batches tell; 0 where none was */
	uint64_t slab_pages;
};

/*
 * What a batch of list @lru removes from the lists: the pages it reclaimed
 * and those it moved leave @lru, and the moved ones join the other list of
 * the pair (@lru ^ 1).  An inactive batch moves the pages it activated to
 * the active list (shrink_folio_list(), move_folios_to_lru()); an active
 * batch reclaims nothing and moves the pages it deactivated to the
 * inactive list (shrink_active_list()).  Counts modulo 2^64: a list's
 * "removed" goes below zero as it grows, and differences of two counts
 * are taken as int64.  The recording's count (siminput.c) and the
 * simulation's (sim.c) must follow the same rule, or a call at a recorded
 * boundary starts from the wrong sizes.
 */
static inline void rr_lru_removed(uint64_t removed[RR_NR_EVICTABLE_LRU], int lru,
				  uint64_t reclaimed, uint64_t moved)
{
	removed[lru] += reclaimed + moved;
	removed[lru ^ 1] -= moved;
}

/* PAGE_ALLOC_COSTLY_ORDER of include/linux/mmzone.h */
#define RR_PAGE_ALLOC_COSTLY_ORDER 3

/* The largest folio the simulator takes (pages): HPAGE_PMD_NR of 64 KiB
 * pages (a 512 MiB THP of arm64, order 13).  A scenario allows at most
 * HPAGE_PMD_NR of its page size (page_size / 8: 512 of 4 KiB pages). */
#define RR_MAX_FOLIO_PAGES 8192

/* One memcg of the reclaim root's subtree, in pre-order; [0] is the root. */
struct rr_sim_memcg {
	uint64_t id;
	int parent;			/* index in the array, -1 for [0] */
	bool online;			/* mem_cgroup_online() */
	int swappiness;			/* of this memcg (v1 per memcg, v2 global) */
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];	/* exact local sizes */
	uint64_t unevictable_pages;	/* counted in the usage only */
	/* effective memory.min / memory.low in pages (cgroup v2; 0 on v1),
	 * relative to the reclaim root (§3.7) */
	uint64_t min_pages, low_pages;
	/* a fixed SCAN_FRACT fraction instead of the computed one */
	bool fraction_override;
	uint64_t override_fraction[RR_NR_LRU_TYPES], override_denominator;
	/* rstat view, hierarchical (the last flush), for inactive_is_low() of
	 * the anon aging after the loop */
	uint64_t rstat_lru_pages[RR_NR_EVICTABLE_LRU];
	/* outcome model: reclaimed/scanned of inactive batches, per type
	 * (0 anon, 1 file); den == 0 means "no data", then ratio 1 is used */
	uint64_t ratio_num[RR_NR_LRU_TYPES], ratio_den[RR_NR_LRU_TYPES];
	/* pages taken per page requested by inactive batches, per type: more
	 * than 1 with large folios (one 512-page folio ends a 32-page batch);
	 * den == 0 means "no data", then 1 is used */
	uint64_t taken_num[RR_NR_LRU_TYPES], taken_den[RR_NR_LRU_TYPES];
	/* the folio size of the memcg's pages, per type, in pages (a power of
	 * two, 1..RR_MAX_FOLIO_PAGES): a batch asking for b pages takes
	 * ceil(b / f) whole folios (isolate_lru_folios()) and reclaims or
	 * activates whole folios; 0 = unknown, the taken ratio above decides */
	uint64_t folio_pages[RR_NR_LRU_TYPES];
	/* pages activated per page taken and not reclaimed by inactive
	 * batches, per type (nr_activate of mm_vmscan_lru_shrink_inactive
	 * over nr_taken - nr_reclaimed: the share conditional on the reclaim
	 * share, so the two never claim one page twice); den == 0 means "no
	 * data", then none is activated */
	uint64_t activate_num[RR_NR_LRU_TYPES], activate_den[RR_NR_LRU_TYPES];
	/* pages deactivated per page taken by active batches, per type
	 * (nr_deactivated of mm_vmscan_lru_shrink_active; the rest stayed
	 * active: referenced VM_EXEC file folios); den == 0 means "no data",
	 * then all of them are deactivated */
	uint64_t deactivate_num[RR_NR_LRU_TYPES], deactivate_den[RR_NR_LRU_TYPES];
	/* write-outs per scanned page, per type, for the cost notes */
	uint64_t pageout_num[RR_NR_LRU_TYPES], pageout_den[RR_NR_LRU_TYPES];
	/* the recorded batches of this memcg in the episode, in order: the
	 * k-th simulated batch of a list that asks for what the k-th recorded
	 * batch of that list asked for takes what it took and reclaims,
	 * activates or deactivates what it did (the same pages sit at the tail
	 * of the list); otherwise the ratios decide */
	const struct rr_sim_outcome *recorded;
	size_t nr_recorded;
	const struct rr_sim_boundary *boundaries;
	size_t nr_boundaries;
};

struct rr_sim_input {
	const struct rr_kernel_model *km;
	enum rr_reclaim_kind kind;
	/* RR_KIND_MEMCG / SOFTLIMIT: nr_pages passed to reclaim (the kernel
	 * floors it to SWAP_CLUSTER_MAX); RR_KIND_PROACTIVE: the whole request */
	uint64_t nr_pages;
	/* RR_KIND_PROACTIVE: the write's swappiness= key
	 * (sc->proactive_swappiness), when has_proactive_swappiness: 0..200,
	 * or RR_SWAPPINESS_ANON_ONLY (201) for "max" */
	bool has_proactive_swappiness;
	int proactive_swappiness;
	/* the recorded episode reclaimed all it could: a memory.reclaim write
	 * that ended in -EAGAIN.  Past a list's last recorded batch its pages
	 * reclaim nothing (the outcome model's tape, lruvec.c) */
	bool recorded_exhausted;
	enum rr_outcome_model outcome;
	uint64_t exact_extra_pages;	/* RR_OUTCOME_EXACT */
	struct rr_sim_memcg *memcgs;
	size_t nr_memcgs;
	struct rr_sim_outcome *outcomes;	/* storage behind memcgs[].recorded */
	struct rr_sim_boundary *boundaries;	/* storage behind memcgs[].boundaries */
	/* the recorded passes' switches, in the recording's order (NULL none) */
	const struct rr_sim_pass *passes;
	size_t nr_passes;
	unsigned int page_shift;	/* log2(PAGE_SIZE in bytes), e.g. 12 */
	bool may_swap;			/* MEMCG_RECLAIM_MAY_SWAP */
	bool swap_present;		/* free swap (or demotion) exists: anon is
					 * reclaimable and anon aging runs */
	/* the reclaim root's cost pair and rstat view for prepare_scan_control() */
	uint64_t anon_cost, file_cost;
	uint64_t root_rstat_lru_pages[RR_NR_EVICTABLE_LRU];
	bool refaults_changed[RR_NR_LRU_TYPES];	/* WORKINGSET_ACTIVATE_* differs from snapshot */
	/* global reclaim (RR_KIND_DIRECT, KSWAPD, NODE), for file_is_tiny
	 * (§4, §23.1): the node's free pages and the sum of its zones' high
	 * watermarks, pages; 0/0 = never tiny */
	uint64_t node_free_pages, node_high_wmark_pages;
	/* RR_KIND_DIRECT, KSWAPD, NODE: sc->order, the allocation's order
	 * (direct_reclaim_begin, node_reclaim_begin) or the wake's
	 * (kswapd_wake); 0..10 (MAX_PAGE_ORDER).  kswapd drops it to 0 once
	 * the run reclaimed 2 << order pages; node reclaim stops once it
	 * reclaimed 1 << order; direct reclaim does not use it (its
	 * compaction_ready() exit for order > 3 is not modelled, §23.3) */
	int order;
	/* RR_KIND_KSWAPD, one balance_pgdat() run (docs/kernel-model.md §23):
	 * kswapd_nr_to_reclaim_pages is kswapd_shrink_node()'s
	 * sc->nr_to_reclaim, the sum over the managed zones 0..reclaim_idx of
	 * max(high watermark incl. boost, SWAP_CLUSTER_MAX), pages (>= 32);
	 * the node counts as balanced at the top of an iteration once the run
	 * has reclaimed balance_reclaim_pages pages (a recorded run: what it
	 * reclaimed when it ended balanced, inferred; a scenario: its
	 * reclaim_pages, or what its zones need), UINT64_MAX for never (the
	 * ladder runs to priority 1); 0 ends the run before any pass.
	 * kswapd_nr_to_reclaim_pages below 32 is taken as 32. */
	uint64_t kswapd_nr_to_reclaim_pages, balance_reclaim_pages;
	/* a balance point inferred from a recorded run (not a scenario's):
	 * the run was not balanced with balance_unbalanced_pages reclaimed
	 * (what the recorded run had before its lowest priority began; the
	 * balance check at the top of that iteration failed), and was with
	 * balance_reclaim_pages.  A replayed run whose total at the top of an
	 * iteration lies strictly between them cannot know whether the node
	 * was balanced there: it goes on (as the threshold were the upper
	 * end) and its result says so (kswapd_balance_undecidable). */
	bool balance_interval;
	uint64_t balance_unbalanced_pages;
	/* RR_KIND_DIRECT of an order above PAGE_ALLOC_COSTLY_ORDER (3): from
	 * the pass at compaction_ready_priority on, a zone is
	 * compaction_ready() (do_try_to_free_pages() stops and returns 1 when
	 * nothing was reclaimed).  Zone free pages are not in a trace: a
	 * recorded call that stopped short of nr_to_reclaim above priority 0
	 * shows it (inferred, docs/kernel-model.md §23) */
	bool compaction_ready_known;
	int compaction_ready_priority;
	/* the shared walk position: index of the memcg last handed out, -1
	 * for none.  v6.11+: the (root, node) cursor; before v5.4, limit
	 * reclaim only: the (root, node, priority 12) reclaim-cookie position,
	 * the lower priorities' start at the root (km->limit_walk_stops) */
	int cursor;
	/* for the policies' episode hooks: the episode's number and start */
	uint64_t episode_id, start_ns;
};

/* Why a simulated kswapd run (balance_pgdat()) ended. */
enum rr_kswapd_end {
	RR_KSWAPD_END_NONE,		/* not a kswapd run */
	RR_KSWAPD_END_BALANCED,		/* pgdat_balanced() at the top of an iteration */
	RR_KSWAPD_END_LADDER,		/* priority 1 done without balancing the node */
};

/* One get_scan_count() target, as the JSON scan_targets entries. */
struct rr_scan_target {
	uint64_t memcg_id;
	int priority;
	int lru;
	uint64_t nr_pages;
};

struct rr_sim_result {
	uint64_t nr_scanned_pages;	/* pages isolated (scanned) by all batches */
	uint64_t nr_reclaimed_pages;
	uint64_t nr_reclaimed_type_pages[RR_NR_LRU_TYPES];	/* anon, file (0 with the exact model) */
	uint64_t nr_scanned_type_pages[RR_NR_LRU_TYPES];	/* anon, file (0 with the exact model) */
	uint64_t calls;			/* try_to_free_mem_cgroup_pages() calls */
	uint64_t shrink_lruvec_calls;
	uint64_t batches;		/* mm_vmscan_lru_isolate events it would emit */
	int lowest_priority;		/* lowest priority reached; 12 if none */
	int retries;			/* do_try_to_free_pages() retries taken */
	/* RR_KIND_KSWAPD: why the run ended (RR_KSWAPD_END_*) and how many
	 * priority iterations (shrink_node() passes) it made */
	int kswapd_end;
	/* RR_KIND_KSWAPD with an inferred balance point: at the top of an
	 * iteration the run's total lay inside the recorded run's balance
	 * interval (balance_unbalanced_pages, balance_reclaim_pages): whether
	 * it ended there is not in the trace; what follows is one of two
	 * possible outcomes */
	bool kswapd_balance_undecidable;
	bool compaction_ready;		/* RR_KIND_DIRECT: stopped on compaction_ready() */
	uint64_t kswapd_passes;	/* shrink_node() passes, cache-trim retry
				 * included (its restart counts in retries) */
	/* every kind: shrink_lruvec() calls per memcg of the input, and the
	 * pages each memcg's calls reclaimed (the anon aging batches of
	 * kswapd_age_node() are not shrink_lruvec() calls and reclaim
	 * nothing), nr_memcg_slots entries each = the last run's nr_memcgs,
	 * in the input's order: which memcgs a walk visited and which
	 * supplied the pages.  All 0 with RR_OUTCOME_EXACT, which runs no
	 * walk.  The arrays (cap_memcg_slots entries) survive
	 * rr_sim_result_clear() and grow as needed. */
	uint64_t *memcg_calls, *memcg_reclaimed_pages;
	uint64_t *memcg_ids;		/* the input's memcgs[].id, same order */
	size_t nr_memcg_slots, cap_memcg_slots;
	bool eagain;			/* memory.reclaim gave up: -EAGAIN after
					 * MAX_RECLAIM_RETRIES calls reclaimed nothing */
	/* RR_KIND_KSWAPD: the first batch came in the cache-trim retry (a
	 * ladder in cache_trim_mode that made no batch and reclaimed nothing
	 * went before it) */
	bool first_batch_no_cache_trim;
	bool first_batch_forced;	/* the first batch came in the force_deactivate
					 * retry: the ladders before made no batch */
	int cursor;			/* the v6.11+ cursor (before v5.4: the
					 * priority-12 position) afterwards */
	struct rr_scan_target *targets;	/* non-zero targets, in decision order */
	size_t nr_targets, cap_targets;
	uint64_t *chunk_requests;	/* nr_pages of each reclaim call, in order */
	uint64_t *chunk_reclaimed;	/* ... and what each call reclaimed */
	size_t nr_chunks, cap_chunks;
};

/**
 * rr_sim_run() - replay one reclaim request under one policy
 * @in:     the request and the state at its start; not modified.
 * @policy: resolved hooks.
 * @out:    zeroed by the caller, or cleared with rr_sim_result_clear();
 *          filled; free with rr_sim_result_free().
 *
 * Return: 0, or -1 with @err set (a hook failed; out of memory; input
 * with no memcgs or more than 2^20 chunk calls; a swappiness= key on a
 * request that is not RR_KIND_PROACTIVE, out of 0..200 and max, or on a
 * release whose memory.reclaim refuses it with -EINVAL: the key before
 * v6.11 (68cd9050d871), "max" before v6.16).
 */
/*
 * The most LRU batches (each at most SWAP_CLUSTER_MAX pages) one
 * rr_sim_run() simulates: 2^26, i.e. 2^31 pages scanned (8 TiB of 4 KiB
 * pages), about a second of work.  Real episodes stay far below (a 1 TiB
 * memory.reclaim is 2^23 batches); sizes that need more come from damaged or
 * crafted input, and the run fails with an error saying so instead of
 * running for hours.
 */
#define RR_SIM_MAX_BATCHES (1ULL << 26)

/* The largest anon/file reclaim cost (pages) get_scan_count() takes:
 * beyond 2^52 its u64 fractions would wrap; rr_sim_run() fails instead. */
#define RR_SIM_MAX_COST (1ULL << 52)

int rr_sim_run(const struct rr_sim_input *in, const struct rr_resolved_policy *policy,
	       struct rr_sim_result *out, struct rr_error *err);

void rr_sim_result_free(struct rr_sim_result *r);

/* Empty @r for another run, keeping its arrays (no allocation per run). */
void rr_sim_result_clear(struct rr_sim_result *r);

/* Free this thread's working memory of rr_sim_run() (kept between runs). */
void rr_sim_scratch_free(void);

/* One batch of a shrink_lruvec() call: its list and nr_requested. */
struct rr_pred_batch {
	int lru;
	uint64_t nr_requested;
};

/* One recorded shrink_lruvec() call, for the decision check (§19.1). */
struct rr_call_input {
	const struct rr_kernel_model *km;
	/* RR_KIND_MEMCG, SOFTLIMIT, PROACTIVE (cgroup reclaim), DIRECT or
	 * KSWAPD (global reclaim: swappiness 0 does not force SCAN_FILE;
	 * file_is_tiny from the node fields below; direct reclaim at
	 * priority 12 consumes its targets without the goal check; kswapd
	 * checks the goal against nr_to_reclaim, §23) */
	enum rr_reclaim_kind kind;
	unsigned int page_shift;
	int priority;
	/* of the episode, in pages (floored to 32); DIRECT: ignored, 32;
	 * KSWAPD: the pass's kswapd_shrink_node() target */
	uint64_t nr_to_reclaim;
	/* DIRECT and KSWAPD, file_is_tiny (§4): the node's free pages and
	 * the sum of its zones' high watermarks (boost included), pages;
	 * 0/0 = never tiny */
	uint64_t node_free_pages, node_high_wmark_pages;
	struct rr_sim_memcg memcg;	/* sizes at the call boundary */
	bool may_swap, swap_present;
	/* the reclaim root's, as prepare_scan_control() read them */
	uint64_t anon_cost, file_cost;
	uint64_t root_rstat_lru_pages[RR_NR_EVICTABLE_LRU];
	bool refaults_changed[RR_NR_LRU_TYPES];
	bool force_deactivate;		/* a do_try_to_free_pages() retry ladder */
	bool no_cache_trim_mode;	/* kswapd's cache-trim retry ladder (§23) */
	/* the switches prepare_scan_count() set, where a probe read them
	 * (docs/kernel-model.md §26): taken as they are, not rebuilt from the
	 * root's rstat view and refaults; may_deactivate is DEACTIVATE_ANON
	 * (1) | DEACTIVATE_FILE (2) */
	bool switches_known;
	unsigned int may_deactivate;
	bool cache_trim_mode, file_is_tiny;
	/* the recorded batches: the loop is fed their reclaim */
	const struct rr_pred_batch *recorded;
	const uint64_t *recorded_reclaimed;
	size_t nr_recorded;
};

/**
 * rr_sim_predict_call() - the batches one shrink_lruvec() call would make
 * @out:    up to @cap batches, in order, including the anon aging batch
 *          after the loop; *@nr_out may exceed @cap (then @out is cut).
 * @targets: the four get_scan_count() targets, in pages.
 *
 * Conditioned on the recorded call (docs/kernel-model.md §19.1): batch k
 * reclaims what recorded batch k reclaimed while the predicted batches
 * still agree with the recorded ones, 0 after.
 * Return: 0, or -1 with @err set when a policy hook fails.
 */
int rr_sim_predict_call(const struct rr_call_input *in,
			const struct rr_resolved_policy *policy,
			struct rr_pred_batch *out, size_t cap, size_t *nr_out,
			uint64_t targets[RR_NR_EVICTABLE_LRU], struct rr_error *err);

/**
 * rr_sim_swappiness_run() - how far the call's get_scan_count() targets
 * stay those of swappiness @from
 * @from, @to: swappiness values, 1 <= @from <= @to <= the release's
 *             maximum (0 is its own rule, SCAN_FILE in cgroup reclaim).
 * @t0:        the targets at @from (rr_sim_predict_call() gives them).
 * @last:      set to the largest v in [@from, @to] whose targets (and so
 *             every value's between) are @t0.
 * @ci is taken as rr_sim_predict_call() takes it, its memcg's swappiness
 * replaced.  Swappiness reaches a call only through get_scan_count(): the
 * loop is fed the recorded reclaim, so values with the same targets
 * predict the same batches.  Each list's target is monotone in swappiness
 * from 1 up under the kernel's rules (the anon fraction grows with it,
 * get_scan_count(), in every modelled release; the fidelity check asks
 * for @policy the kernel's), so the values with @from's targets are an
 * interval: found by probing @from + 1, @to, then galloping and
 * bisecting, about 2 log2 of its length get_scan_count() calls.
 * Return: 0, or -1 with @err set when a policy hook fails.
 */
int rr_sim_swappiness_run(const struct rr_call_input *ci, const struct rr_resolved_policy *policy,
			  int from, int to, const uint64_t t0[RR_NR_EVICTABLE_LRU], int *last,
			  struct rr_error *err);

/* What one try_to_free_mem_cgroup_pages() call reclaimed, for the chunk loop. */
typedef int (*rr_reclaim_call_fn)(void *ctx, uint64_t nr_pages, uint64_t *nr_reclaimed);

/**
 * rr_proactive_loop() - the memory.reclaim loop of memory_reclaim() (§10)
 * @nr_requested_pages: bytes written / PAGE_SIZE.
 * @call: performs one try_to_free_mem_cgroup_pages(nr_pages) call; it gets
 *        the chunk the policy chose (before the kernel's 32-page floor).
 *
 * Stops when the request is met, or after the 17th call that reclaimed
 * nothing (the kernel's -EAGAIN after MAX_RECLAIM_RETRIES).  Fills
 * calls, nr_reclaimed_pages, chunk_requests and eagain of @out.
 * Return: 0, or -1 with @err set.
 */
int rr_proactive_loop(const struct rr_resolved_policy *policy,
		      uint64_t nr_requested_pages, rr_reclaim_call_fn call,
		      void *ctx, struct rr_sim_result *out, struct rr_error *err);

/**
 * rr_scan_fractions() - get_scan_count() SCAN_FRACT weights (§3.5)
 * @anon_cost, @file_cost: the reclaim root's cost pair (v5.8+).
 * @swappiness: 0..200.
 * Sets *@ap, *@fp, *@denominator; before v5.8 (no cost form) the weights
 * are swappiness and 200 - swappiness with denominator ap + fp + 1, i.e.
 * the v5.6 form with equal recent_scanned and recent_rotated.
 */
void rr_scan_fractions(const struct rr_kernel_model *km, uint64_t anon_cost,
		       uint64_t file_cost, int swappiness, uint64_t *ap,
		       uint64_t *fp, uint64_t *denominator);

/**
 * rr_proactive_swappiness_refused() - would release @km refuse a
 * memory.reclaim write's swappiness= key?
 * @swappiness: 0..200, or RR_SWAPPINESS_ANON_ONLY for "max".
 * Return: NULL when accepted (68cd9050d871, v6.11; "max" ~v6.16), else why
 * not (the kernel fails the write with -EINVAL before any reclaim).
 */
const char *rr_proactive_swappiness_refused(const struct rr_kernel_model *km, int swappiness);

/* inactive_is_low() of mm/vmscan.c (v5.5+): sizes in pages, page size in
 * bytes (for the GiB conversion). */
bool rr_inactive_is_low(uint64_t inactive_pages, uint64_t active_pages,
			unsigned int page_shift);

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
