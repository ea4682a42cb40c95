/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the fidelity check, shared by its files (each calls only
 * those after it): fidelity.c (the judging of an episode's calls),
 * trajectory.c (its free run against the recording), fits.c (swap
 * presence and swappiness fitted from the evidence), hidden.c (the ranges
 * of the inputs the trace does not give).
 * totals.c sums the facts.  Not for other stages.
 */
#ifndef RR_FIDELITY_LOCAL_H
#define RR_FIDELITY_LOCAL_H

#include "fidelity.h"

/* What prepare_scan_control() reads of one candidate reclaim root. */
struct root_inputs {
	uint64_t anon_cost, file_cost;
	uint64_t rstat_lru_pages[RR_NR_EVICTABLE_LRU];
	/* the exact hierarchical sizes when the call began: its view had a
	 * flush come just before (where flushes are not in the trace) */
	uint64_t hier_lru_pages[RR_NR_EVICTABLE_LRU];
	uint64_t anon_cost_fresh, file_cost_fresh;	/* halved against those */
	bool refaults_changed[RR_NR_LRU_TYPES];
};

/* A value of the root's deactivation input of one type (struct hidden
 * refault[][]): refaults_changed[] false, true, or false with its view's
 * inactive list at least its active one, so that inactive_is_low() is
 * false (prepare_scan_control(): DEACTIVATE_* set by either). */
enum { H_DEACT_NO_REFAULT, H_DEACT_REFAULT, H_DEACT_NOT_LOW };

/* The admissible values of the hidden inputs of one call; [0] of each is
 * the one the call is predicted with first. */
struct hidden {
	bool swap[2];
	int nr_swap;
	int swappiness[4];
	int nr_swappiness;
	uint64_t nr_to_reclaim[48];
	size_t nr_nr_to_reclaim;
	struct root_inputs roots[5];
	int nr_roots;
	/* 2 where no flush is in the trace: the rstat views as last known, or
	 * flushed just before the call; the memcg's own exact hierarchical
	 * sizes for the second */
	int nr_flush;
	uint64_t memcg_hier_lru_pages[RR_NR_EVICTABLE_LRU];
	/* a dying memcg's sizes (exact and its own rstat view alike): the
	 * lower bounds, the upper ones, and the two mixes that most and least
	 * favour inactive_is_low(); a list's target grows with its size */
	int nr_size;
	uint64_t size_lru_pages[4][RR_NR_EVICTABLE_LRU];
	/* the root's refaults_changed[] (anon, file) where no
	 * snapshot_refaults() of it is in the trace yet: each combination;
	 * where its sizes are lower bounds, inactive_is_low() of each type
	 * either way too (H_DEACT_*) */
	int nr_refault;
	int8_t refault[9][RR_NR_LRU_TYPES];
	bool root_lower_bound;	/* ... and the root's view is of lower bounds */
	/* file_is_tiny (global reclaim): the node's high watermarks as the
	 * call's input, free pages 0 (0/0 never tiny), per value */
	int nr_tiny;
	uint64_t tiny_high[2];
	/* the root's cost pair before the trace (global reclaim): added to
	 * the pair the trace gives, at the ends of its range */
	int nr_cost;
	int64_t cost_anon_add[3], cost_file_add[3];
	/* other tasks' LRU deltas between the decision and the batch: the
	 * call's sizes at both ends of their range (rr_batch_ctx conc_*) */
	int nr_conc;
	uint64_t conc_lru_pages[3][RR_NR_EVICTABLE_LRU];
	/* global reclaim: a later pass at the same priority may have begun
	 * before this call without a batch to show it (kswapd's next
	 * iteration visiting other memcgs, a should_continue_reclaim()
	 * repeat): the root's inputs as of the call itself */
	int nr_pass;
	struct root_inputs pass_alt;
	/* a memcg outside the recorder's view (rr_batch_ctx online_unknown):
	 * online, or offline (dying): its scrape and its rounding differ */
	int nr_online;
};

/* trajectory.c */
void rr_fid_trajectory(struct rr_fidelity_facts *fx, const struct rr_episode *ep,
		       const struct rr_sim_result *kr);
int rr_fid_first_ladders_forced(const struct rr_sim_input *in,
				const struct rr_resolved_policy *kernel,
				const struct rr_sim_result *kernel_result, bool *forced,
				bool *no_trim, struct rr_error *err);

/* fits.c */
int rr_fid_swap_evidence(struct rr_fidelity_facts *fx, struct rr_call_input *ci,
			 const struct rr_resolved_policy *kernel, const struct hidden *h,
			 const struct rr_batch_ctx *c, const struct rr_pred_batch *rec, size_t n,
			 struct rr_pred_batch *alt, size_t cap, struct rr_error *err);
int rr_fid_fit_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
			  const struct rr_resolved_policy *kernel, const struct hidden *h,
			  const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
			  size_t cap, struct rr_error *err);
int rr_fid_fitted_swappiness(struct rr_fidelity *trace, struct rr_call_input *ci,
			     const struct rr_resolved_policy *kernel,
			     const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
			     size_t cap, struct hidden *h, bool *fitted, bool in_fit,
			     struct rr_error *err);
bool rr_fid_fit_of(const struct rr_fidelity *trace, uint64_t memcg_id, int max, struct hidden *h);

/* hidden.c */
/* Are batches @i and @j of @ep in one shrink_lruvec() call?  The same memcg
 * and priority, and, where the recorder's probe saw the calls, the same
 * call (a retry ladder's call at the same priority after silent passes is
 * another one). */
static inline bool rr_fid_same_call(const struct rr_episode *ep, size_t i, size_t j)
{
	return ep->batches[i].memcg_id == ep->batches[j].memcg_id &&
	       ep->batches[i].priority == ep->batches[j].priority &&
	       (!ep->ctx || !ep->ctx[i].probe || !ep->ctx[j].probe ||
		ep->ctx[i].probe == ep->ctx[j].probe);
}

bool rr_fid_same_batches(const struct rr_pred_batch *a, size_t na,
			 const struct rr_pred_batch *b, size_t nb);
int rr_fid_predicts(const struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		    const struct rr_pred_batch *pred, size_t nr_pred, struct rr_pred_batch *alt,
		    size_t cap, bool *same, struct rr_error *err);
void rr_fid_call_candidates(struct hidden *h, uint64_t base, const uint64_t *cands, size_t nr,
			    const uint64_t *rec_reclaimed, size_t n);
/* Set @ci's refaults_changed[] and, for H_DEACT_NOT_LOW, its root view's
 * inactive lists, to value @v (struct hidden refault[][]). */
void rr_fid_apply_refault(struct rr_call_input *ci, const int8_t v[RR_NR_LRU_TYPES]);

bool rr_fid_global_hidden(struct hidden *h, struct rr_call_input *ci, const struct rr_episode *ep,
			  size_t i, int pass_start, int d, const struct rr_state *st);
size_t rr_fid_h_combos(const struct hidden *h);
int rr_fid_undecidable(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		       const struct hidden *h, const struct rr_pred_batch *pred, size_t nr_pred,
		       struct rr_pred_batch *alt, size_t cap, enum rr_unchecked *why,
		       struct rr_error *err);
int rr_fid_fits_by_swappiness(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
			      const struct hidden *h, const struct rr_pred_batch *rec, size_t n,
			      struct rr_pred_batch *alt, size_t cap, int max, bool *hit,
			      struct rr_error *err);
int rr_fid_fits_any(struct rr_call_input *ci, const struct rr_resolved_policy *kernel,
		    const struct hidden *h, bool swap, int swappiness,
		    const struct rr_pred_batch *rec, size_t n, struct rr_pred_batch *alt,
		    size_t cap, bool *fits, struct rr_error *err);

#endif
