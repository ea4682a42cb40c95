// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fidelity checks; see fidelity.h.  A call is the run of consecutive
 * batches of one episode with the same memcg and priority (one node is
 * modelled).  Predictions use the baseline policy's hooks, so a policy
 * plug-in could be scored the same way.
 */
#include "fidelity.h"

#include <stdlib.h>
#include <string.h>

static const char *const uc_names[RR_UC__COUNT] = {
	[RR_UC_NO_ATTRIBUTION] = "no_attribution",
	[RR_UC_NO_PRIORITY] = "no_priority",
	[RR_UC_ONLINE_UNCERTAIN] = "online_state_uncertain",
	[RR_UC_NO_CONTEXT] = "no_context",
	[RR_UC_LOST_EVENTS] = "lost_events",
	[RR_UC_MGLRU] = "mglru",
	[RR_UC_RETRY_PASS] = "retry_pass",
	[RR_UC_ROOT_UNKNOWN] = "root_unknown",
};


const char *rr_unchecked_name(enum rr_unchecked reason)
{
	return reason < RR_UC__COUNT ? uc_names[reason] : "unknown";
}

/* Per-list totals of a batch sequence. */
static void totals(const struct rr_pred_batch *b, size_t n, uint64_t t[4])
{
	memset(t, 0, 4 * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		if (b[i].lru >= 0 && b[i].lru < 4)
			t[b[i].lru] += b[i].nr_requested;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static void note_worst(struct rr_fidelity *f, const struct rr_episode *ep,
		       uint64_t checked, uint64_t mismatched, const char *first,
		       const char *reason)
{
	int i, at;

	if (!mismatched)
		return;
	for (at = 0; at < f->nr_worst; at++)
		if (mismatched > f->worst[at].mismatched)
			break;
	if (at >= RR_FIDELITY_WORST)
		return;
	if (f->nr_worst < RR_FIDELITY_WORST)
		f->nr_worst++;
	for (i = f->nr_worst - 1; i > at; i--)
		f->worst[i] = f->worst[i - 1];
	f->worst[at].episode = ep->seq;
	snprintf(f->worst[at].cgroup, sizeof(f->worst[at].cgroup), "%s",
		 ep->root_path ? ep->root_path : "?");
	f->worst[at].checked = checked;
	f->worst[at].mismatched = mismatched;
	snprintf(f->worst[at].first, sizeof(f->worst[at].first), "%s", first);
	f->worst[at].reason = reason;
}

/* The root's entry in the captured ancestor chain of batch @i, or NULL. */
static int chain_index(const struct rr_batch_ctx *c, uint64_t root_id)
{
	for (int d = 0; d < c->depth; d++)
		if (c->chain[d].id == root_id)
			return d;
	return -1;
}

static void describe(char *buf, size_t len, const struct rr_episode *ep,
		     const struct rr_state *st, uint64_t memcg, int prio,
		     const struct rr_pred_batch *rec, size_t nr_rec,
		     const struct rr_pred_batch *pred, size_t nr_pred)
{
	const struct rr_memcg *m = rr_state_find(st, memcg);
	uint64_t tr[4], tp[4];
	int l;

	(void)ep;
	totals(rec, nr_rec, tr);
	totals(pred, nr_pred, tp);
	for (l = 0; l < 4 && tr[l] == tp[l]; l++)
		;
	if (l == 4)
		snprintf(buf, len, "%s at priority %d: same totals, batches in another order "
			 "(%zu recorded, %zu predicted)", m ? m->path : "?", prio, nr_rec, nr_pred);
	else
		snprintf(buf, len, "%s at priority %d: %s recorded %llu pages, predicted %llu",
			 m ? m->path : "?", prio, rr_lru_name(l), (unsigned long long)tr[l],
			 (unsigned long long)tp[l]);
}

int rr_fidelity_episode(struct rr_fidelity *f, const struct rr_episode *ep,
			struct rr_state *st, const struct rr_kernel_model *km,
			unsigned int page_shift, const struct rr_resolved_policy *kernel,
			const struct rr_sim_result *kernel_result, bool first_ladder_forced,
			struct rr_error *err)
{
	struct rr_pred_batch *rec = NULL, *pred = NULL, *alt = NULL;
	uint64_t *rec_reclaimed = NULL;
	uint64_t checked = 0, mismatched = 0;
	char first[200] = "";
	bool episode_ok = true, retry = false;
	int pass_start = -1, prev_prio = 99;
	size_t cap = ep->nr_batches + 8;
	int ret = -1;

	f->episodes_total++;
	rec = calloc(cap, sizeof(*rec));
	pred = calloc(cap * 2 + 64, sizeof(*pred));
	alt = calloc(cap * 2 + 64, sizeof(*alt));
	rec_reclaimed = calloc(cap, sizeof(*rec_reclaimed));
	if (!rec || !pred || !alt || !rec_reclaimed) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ep->nr_batches;) {
		const struct rr_rec_batch *b = &ep->batches[i];
		size_t j = i, n = 0, nr_pred = 0;
		enum rr_unchecked why = RR_UC__COUNT;
		uint64_t targets[4], tr[4], tp[4];
		struct rr_call_input ci;
		bool within = true, off1 = true;
		int d;

		while (j < ep->nr_batches && ep->batches[j].memcg_id == b->memcg_id &&
		       ep->batches[j].priority == b->priority)
			j++;
		/* a new priority pass starts where the priority changes; going
		 * back up means a retry ladder of do_try_to_free_pages() */
		if (b->priority != prev_prio) {
			if (b->priority > prev_prio)
				retry = true;
			pass_start = (int)i;
			prev_prio = b->priority;
		}
		for (size_t k = i; k < j; k++) {
			rec[n] = (struct rr_pred_batch){ ep->batches[k].lru, ep->batches[k].nr_requested };
			rec_reclaimed[n++] = ep->batches[k].nr_reclaimed;
			if (ep->batches[k].nr_requested == 4096)
				why = RR_UC_MGLRU;
		}
		if (!b->memcg_id)
			why = RR_UC_NO_ATTRIBUTION;
		else if (b->priority < 0)
			why = RR_UC_NO_PRIORITY;
		else if (ep->first_lost_ns && ep->first_lost_ns <= b->ts_ns)
			why = RR_UC_LOST_EVENTS;
		else if (retry)
			why = RR_UC_RETRY_PASS;
		else if (!ep->ctx[i].valid)
			why = RR_UC_NO_CONTEXT;
		else if (!ep->ctx[pass_start].valid)
			why = RR_UC_NO_CONTEXT;
		d = why == RR_UC__COUNT ? chain_index(&ep->ctx[pass_start], ep->root_memcg_id) : -1;
		if (why == RR_UC__COUNT && d < 0)
			why = RR_UC_ROOT_UNKNOWN;
		if (why != RR_UC__COUNT) {
			f->unchecked[why]++;
			episode_ok = false;
			i = j;
			continue;
		}

		memset(&ci, 0, sizeof(ci));
		ci.km = km;
		ci.kind = ep->kind == RR_EP_SOFTLIMIT ? RR_SIM_SOFTLIMIT : RR_SIM_MEMCG;
		ci.page_shift = page_shift;
		ci.priority = b->priority;
		ci.nr_to_reclaim = ep->nr_to_reclaim_pages;
		ci.memcg.id = b->memcg_id;
		ci.memcg.parent = -1;
		ci.memcg.online = ep->ctx[i].online;
		ci.memcg.swappiness = ep->ctx[i].swappiness;
		memcpy(ci.memcg.lru_pages, ep->ctx[i].lru_pages, sizeof(ci.memcg.lru_pages));
		memcpy(ci.memcg.rstat_lru_pages, ep->ctx[i].chain[0].rstat_lru_pages,
		       sizeof(ci.memcg.rstat_lru_pages));
		ci.may_swap = true;
		ci.swap_present = ep->swap_inferred_present;
		ci.anon_cost = ep->ctx[pass_start].chain[d].anon_cost;
		ci.file_cost = ep->ctx[pass_start].chain[d].file_cost;
		memcpy(ci.root_rstat_lru_pages, ep->ctx[pass_start].chain[d].rstat_lru_pages,
		       sizeof(ci.root_rstat_lru_pages));
		memcpy(ci.refaults_changed, ep->ctx[pass_start].chain[d].refaults_changed,
		       sizeof(ci.refaults_changed));
		/* ladders that made no batch leave no event: when the free run's
		 * first batch came in the force_deactivate retry, so did the
		 * kernel's first recorded ladder (§7) */
		ci.force_deactivate = first_ladder_forced;
		ci.recorded = rec;
		ci.recorded_reclaimed = rec_reclaimed;
		ci.nr_recorded = n;
		if (rr_sim_predict_call(&ci, kernel, pred, cap * 2 + 64, &nr_pred, targets, err))
			goto out;
		if (nr_pred > cap * 2 + 64)
			nr_pred = cap * 2 + 64;
		if (ep->ctx[i].in_window) {
			/* online state unknown: score the call only if both states
			 * predict the same; if just one matches, that is the state
			 * the kernel saw (§20.3) */
			size_t nr_alt = 0;
			bool same, online_ok, offline_ok;

			ci.memcg.online = !ci.memcg.online;
			if (rr_sim_predict_call(&ci, kernel, alt, cap * 2 + 64, &nr_alt, targets, err))
				goto out;
			if (nr_alt > cap * 2 + 64)
				nr_alt = cap * 2 + 64;
			same = nr_alt == nr_pred && !memcmp(alt, pred, nr_pred * sizeof(*pred));
			if (!same) {
				bool pred_ok = nr_pred == n && !memcmp(rec, pred, n * sizeof(*rec));
				bool alt_ok = nr_alt == n && !memcmp(rec, alt, n * sizeof(*rec));

				/* ci.memcg.online is now the alternative's state */
				online_ok = ci.memcg.online ? alt_ok : pred_ok;
				offline_ok = ci.memcg.online ? pred_ok : alt_ok;
				if (offline_ok && !online_ok) {
					struct rr_memcg *m = rr_state_find(st, b->memcg_id);

					if (m && !m->offline_seen_ns) {
						m->offline_seen_ns = b->ts_ns;
						f->offline_moments_inferred++;
					}
				}
				f->unchecked[RR_UC_ONLINE_UNCERTAIN]++;
				episode_ok = false;
				i = j;
				continue;
			}
		}

		f->decisions_checked++;
		f->kind_checked[ep->kind]++;
		checked++;
		totals(rec, n, tr);
		totals(pred, nr_pred, tp);
		for (int l = 0; l < 4; l++) {
			within &= absdiff(tr[l], tp[l]) <= 32;
			off1 &= absdiff(tr[l], tp[l]) <= 1;
		}
		if (nr_pred == n && !memcmp(rec, pred, n * sizeof(*rec))) {
			f->exact++;
			f->kind_exact[ep->kind]++;
			f->within_one_batch++;
		} else {
			if (off1)
				f->off_by_one++;
			if (within)
				f->within_one_batch++;
			else
				f->mismatched++;
			if (!mismatched++)
				describe(first, sizeof(first), ep, st, b->memcg_id, b->priority,
					 rec, n, pred, nr_pred);
		}
		i = j;
	}
	note_worst(f, ep, checked, mismatched, first,
		   ep->overlapped ? "concurrent reclaimers (shared lists and walk cursor)" :
		   f->swappiness_assumed ? "inputs the trace lacks (no recorder snapshot)" :
		   strstr(first, "active_") ? "deactivation (rstat view or refault snapshot)" :
		   "model");

	/* trajectory: the free-running replay against the recording; inside
	 * an rmdir -> offline window the replay's online state is a guess */
	if (ep->in_offline_window && kernel_result)
		f->trajectory_unchecked_window++;
	if (episode_ok && kernel_result && ep->nr_batches && !ep->in_offline_window) {
		bool calls = true;
		size_t k = 0;
		int lowest = RR_DEF_PRIORITY;

		f->episodes_checkable++;
		f->trajectory_checked++;
		for (size_t i = 0; i < ep->nr_batches; i++) {
			const struct rr_rec_batch *b = &ep->batches[i];

			if (b->priority < lowest)
				lowest = b->priority;
			if (b->lru & 1)
				continue;	/* calls are compared by their inactive lists */
			if (i && b->memcg_id == ep->batches[i - 1].memcg_id &&
			    b->priority == ep->batches[i - 1].priority)
				continue;
			while (k < kernel_result->nr_targets && (kernel_result->targets[k].lru & 1 ||
			       (k && kernel_result->targets[k].memcg_id ==
				kernel_result->targets[k - 1].memcg_id &&
				kernel_result->targets[k].priority == kernel_result->targets[k - 1].priority)))
				k++;
			if (k >= kernel_result->nr_targets ||
			    kernel_result->targets[k].memcg_id != b->memcg_id ||
			    kernel_result->targets[k].priority != b->priority) {
				calls = false;
				break;
			}
			k++;
		}
		while (calls && k < kernel_result->nr_targets) {
			if (!(kernel_result->targets[k].lru & 1) &&
			    !(k && kernel_result->targets[k].memcg_id ==
			      kernel_result->targets[k - 1].memcg_id &&
			      kernel_result->targets[k].priority == kernel_result->targets[k - 1].priority))
				calls = false;	/* the replay made more calls */
			k++;
		}
		f->trajectory_same_calls += calls;
		f->trajectory_same_stop += kernel_result->lowest_priority == lowest;
		f->trajectory_same_reclaimed +=
			kernel_result->nr_reclaimed_pages == ep->recorded_nr_reclaimed;
		bool exact = calls && kernel_result->lowest_priority == lowest &&
			     kernel_result->nr_reclaimed_pages == ep->recorded_nr_reclaimed;

		f->trajectory_exact += exact;
		if (ep->overlapped) {
			f->trajectory_overlapped++;
			f->trajectory_overlapped_exact += exact;
		}
	}
	ret = 0;
out:
	free(rec);
	free(pred);
	free(alt);
	free(rec_reclaimed);
	return ret;
}

static double share(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

json_t *rr_fidelity_json(const struct rr_fidelity *f)
{
	json_t *j = json_object(), *uc = json_object(), *worst = json_array(),
	       *kinds = json_object();
	uint64_t total_uc = 0;

	for (int i = 0; i < RR_UC__COUNT; i++) {
		total_uc += f->unchecked[i];
		if (f->unchecked[i])
			json_object_set_new(uc, uc_names[i], json_integer((json_int_t)f->unchecked[i]));
	}
	json_object_set_new(j, "decisions_checked", json_integer((json_int_t)f->decisions_checked));
	json_object_set_new(j, "exact", json_integer((json_int_t)f->exact));
	json_object_set_new(j, "off_by_one", json_integer((json_int_t)f->off_by_one));
	json_object_set_new(j, "within_one_batch", json_integer((json_int_t)f->within_one_batch));
	json_object_set_new(j, "mismatched", json_integer((json_int_t)f->mismatched));
	json_object_set_new(j, "exact_share",
			    json_real(share(f->exact, f->decisions_checked)));
	json_object_set_new(j, "within_one_batch_share",
			    json_real(share(f->within_one_batch, f->decisions_checked)));
	json_object_set_new(j, "decisions_unchecked", json_integer((json_int_t)total_uc));
	json_object_set_new(j, "unchecked_reasons", uc);
	for (int k = 0; k < RR_EP__COUNT; k++) {
		json_t *o;

		if (!f->kind_checked[k])
			continue;
		o = json_object();
		json_object_set_new(o, "decisions_checked", json_integer((json_int_t)f->kind_checked[k]));
		json_object_set_new(o, "exact", json_integer((json_int_t)f->kind_exact[k]));
		json_object_set_new(o, "exact_share", json_real(share(f->kind_exact[k], f->kind_checked[k])));
		json_object_set_new(kinds, rr_episode_kind_name((enum rr_episode_kind)k), o);
	}
	json_object_set_new(j, "by_kind", kinds);
	json_object_set_new(j, "trajectory_checked", json_integer((json_int_t)f->trajectory_checked));
	json_object_set_new(j, "trajectory_exact", json_integer((json_int_t)f->trajectory_exact));
	json_object_set_new(j, "trajectory_exact_share",
			    json_real(share(f->trajectory_exact, f->trajectory_checked)));
	json_object_set_new(j, "trajectory_same_calls", json_integer((json_int_t)f->trajectory_same_calls));
	json_object_set_new(j, "trajectory_concurrent", json_integer((json_int_t)f->trajectory_overlapped));
	json_object_set_new(j, "trajectory_concurrent_exact",
			    json_integer((json_int_t)f->trajectory_overlapped_exact));
	json_object_set_new(j, "trajectory_same_stop_priority", json_integer((json_int_t)f->trajectory_same_stop));
	json_object_set_new(j, "trajectory_same_nr_reclaimed",
			    json_integer((json_int_t)f->trajectory_same_reclaimed));
	json_object_set_new(j, "episodes_total", json_integer((json_int_t)f->episodes_total));
	json_object_set_new(j, "episodes_checkable", json_integer((json_int_t)f->episodes_checkable));
	json_object_set_new(j, "trajectory_unchecked_offline_window",
			    json_integer((json_int_t)f->trajectory_unchecked_window));
	json_object_set_new(j, "offline_moments_inferred",
			    json_integer((json_int_t)f->offline_moments_inferred));
	for (int i = 0; i < f->nr_worst; i++) {
		json_t *w = json_object();

		json_object_set_new(w, "episode", json_integer((json_int_t)f->worst[i].episode));
		json_object_set_new(w, "cgroup", json_string(f->worst[i].cgroup));
		json_object_set_new(w, "decisions_checked", json_integer((json_int_t)f->worst[i].checked));
		json_object_set_new(w, "not_exact", json_integer((json_int_t)f->worst[i].mismatched));
		json_object_set_new(w, "first_mismatch", json_string(f->worst[i].first));
		json_object_set_new(w, "likely_cause", json_string(f->worst[i].reason));
		json_array_append_new(worst, w);
	}
	json_object_set_new(j, "worst_episodes", worst);
	return j;
}

void rr_fidelity_print(const struct rr_fidelity *f, FILE *out)
{
	uint64_t n = f->decisions_checked;

	fprintf(out, "fidelity of the baseline against the recording:\n");
	if (f->swappiness_assumed)
		fprintf(out, "  (v1 swappiness assumed 60: the trace does not say; a cgroup set otherwise "
			"shows as SCAN_FRACT mismatches)\n");
	fprintf(out, "  decisions (shrink_lruvec() calls) checked: %llu\n", (unsigned long long)n);
	fprintf(out, "    exact             %8llu  %6.2f%%\n", (unsigned long long)f->exact,
		100.0 * share(f->exact, n));
	fprintf(out, "    off by one page   %8llu  %6.2f%%  (not exact, every list within 1 page)\n",
		(unsigned long long)f->off_by_one, 100.0 * share(f->off_by_one, n));
	fprintf(out, "    within one batch  %8llu  %6.2f%%  (every list within 32 pages, exact included)\n",
		(unsigned long long)f->within_one_batch, 100.0 * share(f->within_one_batch, n));
	fprintf(out, "    mismatched        %8llu  %6.2f%%\n", (unsigned long long)f->mismatched,
		100.0 * share(f->mismatched, n));
	for (int i = 0; i < RR_UC__COUNT; i++)
		if (f->unchecked[i])
			fprintf(out, "  not judged (%s): %llu\n", uc_names[i],
				(unsigned long long)f->unchecked[i]);
	fprintf(out, "  trajectories checked: %llu of %llu episodes; exact %llu (%.2f%%): same calls %llu, "
		"same stop priority %llu, same pages reclaimed %llu\n",
		(unsigned long long)f->trajectory_checked, (unsigned long long)f->episodes_total,
		(unsigned long long)f->trajectory_exact,
		100.0 * share(f->trajectory_exact, f->trajectory_checked),
		(unsigned long long)f->trajectory_same_calls,
		(unsigned long long)f->trajectory_same_stop,
		(unsigned long long)f->trajectory_same_reclaimed);
	if (f->trajectory_overlapped)
		fprintf(out, "  (%llu of them overlap another task's reclaim, %llu exact: concurrent "
			"reclaimers share lists and the walk cursor, which a per-episode replay "
			"does not model)\n", (unsigned long long)f->trajectory_overlapped,
			(unsigned long long)f->trajectory_overlapped_exact);
	if (f->nr_worst)
		fprintf(out, "  worst episodes:\n");
	for (int i = 0; i < f->nr_worst; i++)
		fprintf(out, "    #%llu %s: %llu of %llu calls not exact (likely: %s); first: %s\n",
			(unsigned long long)f->worst[i].episode, f->worst[i].cgroup,
			(unsigned long long)f->worst[i].mismatched,
			(unsigned long long)f->worst[i].checked, f->worst[i].reason, f->worst[i].first);
}
