// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trajectory of an episode: its free-running replay under the
 * baseline against the recording (the (memcg, priority) calls, where it
 * stopped, what it reclaimed), and what the free run says of the ladders
 * that left no event.
 */
#include "fidelity-local.h"

#include <stdlib.h>
#include <string.h>

/* The free-running replay of the episode against the recording. */
void rr_fid_trajectory(struct rr_fidelity_facts *fx, const struct rr_episode *ep,
		       const struct rr_sim_result *kr)
{
	bool calls = true;
	size_t k = 0;
	int lowest = RR_DEF_PRIORITY;

	for (size_t i = 0; i < ep->nr_batches; i++) {
		const struct rr_batch *b = &ep->batches[i];

		if (b->priority < lowest)
			lowest = b->priority;
		if (rr_lru_is_active(b->lru))
			continue;	/* calls are compared by their inactive lists */
		if (i && rr_fid_same_call(ep, i - 1, i))
			continue;
		while (k < kr->nr_targets && (rr_lru_is_active(kr->targets[k].lru) ||
		       (k && kr->targets[k].memcg_id == kr->targets[k - 1].memcg_id &&
			kr->targets[k].priority == kr->targets[k - 1].priority)))
			k++;
		if (k >= kr->nr_targets || kr->targets[k].memcg_id != b->memcg_id ||
		    kr->targets[k].priority != b->priority) {
			calls = false;
			break;
		}
		k++;
	}
	while (calls && k < kr->nr_targets) {
		if (!rr_lru_is_active(kr->targets[k].lru) &&
		    !(k && kr->targets[k].memcg_id == kr->targets[k - 1].memcg_id &&
		      kr->targets[k].priority == kr->targets[k - 1].priority))
			calls = false;	/* the replay made more calls */
		k++;
	}
	fx->trajectory_checked = true;
	fx->same_calls = calls;
	fx->same_stop = kr->lowest_priority == lowest;
	fx->same_reclaimed = kr->nr_reclaimed_pages == ep->recorded_nr_reclaimed;
}

/*
 * Ladders that make no batch leave no event.  The model alone (no recorded
 * sizes or outcomes, which come from the kernel's later ladder) says
 * whether the first ones were silent, so that the first recorded ladder
 * ran with force_deactivate (docs/kernel-model.md §7).
 */
int rr_fid_first_ladders_forced(const struct rr_sim_input *in,
				const struct rr_resolved_policy *kernel,
				const struct rr_sim_result *kernel_result, bool *forced,
				bool *no_trim, struct rr_error *err)
{
	struct rr_sim_input pure = *in;
	struct rr_sim_result pr;
	int ret;

	*forced = kernel_result->first_batch_forced;
	*no_trim = kernel_result->first_batch_no_cache_trim;
	if (*forced || *no_trim)
		return 0;
	memset(&pr, 0, sizeof(pr));
	pure.memcgs = malloc(in->nr_memcgs * sizeof(*pure.memcgs));
	if (!pure.memcgs) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	memcpy(pure.memcgs, in->memcgs, in->nr_memcgs * sizeof(*pure.memcgs));
	for (size_t k = 0; k < in->nr_memcgs; k++) {
		pure.memcgs[k].nr_recorded = 0;
		pure.memcgs[k].nr_boundaries = 0;
	}
	/* (a failing hook already failed the baseline's run: this fails on
	 * memory, and says so) */
	ret = rr_sim_run(&pure, kernel, &pr, err);
	if (!ret) {
		*forced = pr.first_batch_forced;
		*no_trim = pr.first_batch_no_cache_trim;
	}
	rr_sim_result_free(&pr);
	free(pure.memcgs);
	return ret;
}
