// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fidelity totals of a trace: each episode's facts added, the
 * episodes that fit worst kept.
 */
#include "fidelity-local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rr_fidelity_free(struct rr_fidelity *f)
{
	struct rr_swappiness_fit *fit, *tmp;

	HASH_ITER(hh, f->swappiness_fits, fit, tmp) {
		HASH_DEL(f->swappiness_fits, fit);
		free(fit);
	}
}

static void note_worst(struct rr_fidelity *f, const struct rr_episode *ep,
		       const struct rr_fidelity_facts *fx, const char *reason)
{
	int i, at;

	if (!fx->not_exact)
		return;
	for (at = 0; at < f->nr_worst; at++)
		if (fx->not_exact > f->worst[at].mismatched)
			break;
	if (at >= RR_FIDELITY_WORST)
		return;
	if (f->nr_worst < RR_FIDELITY_WORST)
		f->nr_worst++;
	for (i = f->nr_worst - 1; i > at; i--)
		f->worst[i] = f->worst[i - 1];
	f->worst[at].episode = ep->replay_seq;
	snprintf(f->worst[at].cgroup, sizeof(f->worst[at].cgroup), "%s",
		 ep->root_path ? ep->root_path : "?");
	f->worst[at].checked = fx->checked;
	f->worst[at].mismatched = fx->not_exact;
	snprintf(f->worst[at].first, sizeof(f->worst[at].first), "%s", fx->first);
	f->worst[at].reason = reason;
}

void rr_fidelity_add(struct rr_fidelity *f, const struct rr_episode *ep,
		     const struct rr_fidelity_facts *fx, uint64_t offline_inferred)
{
	f->episodes_total++;
	f->decisions_checked += fx->checked;
	f->exact += fx->exact;
	f->off_by_one += fx->off_by_one;
	f->within_one_batch += fx->within_one_batch;
	f->mismatched += fx->mismatched;
	for (int i = 0; i < RR_UC__COUNT; i++)
		f->unchecked[i] += fx->unchecked[i];
	f->kind_checked[ep->kind] += fx->checked;
	f->kind_exact[ep->kind] += fx->exact;
	f->kind_within[ep->kind] += fx->within_one_batch;
	f->kind_episodes[ep->kind]++;
	for (int i = 0; i < RR_UC__COUNT; i++)
		f->kind_unchecked[ep->kind] += fx->unchecked[i];
	f->age_node_batches += fx->age_node_batches;
	f->offline_moments_inferred += offline_inferred;
	f->swappiness_fitted_calls += fx->swappiness_fitted;
	f->swap_present_calls += fx->swap_present_calls;
	f->swap_absent_calls += fx->swap_absent_calls;
	f->silent += fx->silent;
	f->predicted_unrecorded += fx->predicted_unrecorded;
	f->silent_unjudged += fx->silent_unjudged;
	f->decisions_probed += fx->probed;
	f->decisions_on_lower_bounds += fx->on_lower_bounds;
	f->decisions_on_lower_bounds_exact += fx->on_lower_bounds_exact;
	f->silent_cut += ep->silent_cut;
	note_worst(f, ep, fx,
		   ep->overlapped ? "concurrent reclaimers (shared lists and walk cursor)" :
		   fx->first_on_active ? "deactivation (rstat view or refault snapshot)" :
		   "model");
	f->trajectory_unchecked_window += fx->unchecked_window;
	f->trajectory_unchecked_interleaved += fx->unchecked_interleaved;
	if (fx->trajectory_checked) {
		bool exact = fx->same_calls && fx->same_stop && fx->same_reclaimed;

		f->episodes_checkable++;
		f->trajectory_checked++;
		f->trajectory_same_calls += fx->same_calls;
		f->trajectory_same_stop += fx->same_stop;
		f->trajectory_same_reclaimed += fx->same_reclaimed;
		f->trajectory_exact += exact;
		if (fx->trajectory_assumed) {
			f->trajectory_assumed++;
			f->trajectory_assumed_exact += exact;
		}
		if (ep->overlapped) {
			f->trajectory_overlapped++;
			f->trajectory_overlapped_exact += exact;
		}
	}
}
