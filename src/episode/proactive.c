// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory.reclaim writes inferred from plain memcg calls: a trace made
 * without the recorder's "proactive begin/end" markers (a plain trace-cmd
 * recording, or a write by another agent such as a senpai-style daemon)
 * shows each try_to_free_mem_cgroup_pages() call of memory_reclaim() as
 * an mm_vmscan_memcg_reclaim_begin/end pair and nothing that names the
 * write (docs/kernel-model.md §10.4).  The tracepoints cannot tell a
 * memory.reclaim call from a charge's limit reclaim by their fields: both
 * print the same gfp_flags (try_to_free_mem_cgroup_pages() builds
 * sc.gfp_mask the same way).  The evidence used, each labelled:
 *
 *   "pgscan_proactive counter"  the call's batches were counted as
 *       PGSCAN_PROACTIVE (count_memcg_events; the recorder's "items"
 *       marker names the item), which only proactive reclaim counts;
 *   "probe" the recorder's shrink_lruvec() probe read scan_control's
 *       proactive bit (probe.c): exact, whatever the calls' sizes;
 *   "size"  the call surely asked for more than HPAGE_PMD_NR pages (the
 *       lower bound of its inferred nr_to_reclaim): no charge asks for
 *       more than its folio, at most a PMD.
 *
 * Such a call opens an inferred write rooted at the lowest common ancestor
 * of the memcgs it scanned (not the writer's memcg, nor a limited
 * ancestor: memory.reclaim reclaims from the memcg written to); the
 * task's next calls on the same root, or with no batch at all (the
 * -EAGAIN retries), join it while they follow within RUN_GAP_NS of the
 * last one's end (memory_reclaim() does nothing traced between calls) and
 * do not ask for more than the call before (a new write starts high).
 * The write's request is not in the trace: the replay infers it from the
 * calls and the release's chunk rule, and says so (replay.c).
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>


/* Calls of one write follow each other this closely, at most (the loop
 * runs lru_add_drain_all() before its last retry only). */
#define RUN_GAP_NS (10ULL * 1000 * 1000)
/* ... where the recorder's probe says each call is proactive: the gap
 * only separates two writes whose calls ask alike (cluster-cap's 32
 * pages), and lru_add_drain_all() on a slow (emulated) machine takes
 * longer than RUN_GAP_NS */
#define RUN_GAP_PROBED_NS (1000ULL * 1000 * 1000)

/* What the recorder's probe says of @ep: 1 its calls are proactive
 * (scan_control's proactive bit: memory.reclaim), 0 not, -1 unknown. */
static int probed_proactive(const struct rr_episode *ep)
{
	if (!ep->probed || !ep->nr_probes || !rr_probe_has(&ep->probes[0], RR_PF_PROACTIVE))
		return -1;
	return ep->probes[0].v[RR_PF_PROACTIVE] != 0;
}

static int close_run(struct rr_builder *b, struct rr_episode *r)
{
	struct rr_episode **pp = &b->runs;

	while (*pp != r)
		pp = &(*pp)->run_next;
	*pp = r->run_next;
	r->run_next = NULL;
	r->end_ns = r->run_last_end_ns > r->start_ns ? r->run_last_end_ns : r->start_ns;
	b->stats.proactive_inferred++;
	/* (a write is no memcg call: it joins no write, requests.c) */
	return rr_episode_deliver(b, r, rr_episode_closing(b, r));
}

/* Does call @ep ask for more than the last call of @r could have asked? */
static bool starts_anew(const struct rr_builder *b, const struct rr_episode *ep,
			const struct rr_episode *r)
{
	const struct rr_reclaim_call *last = r->nr_calls ? &r->calls[r->nr_calls - 1] : NULL;

	return last && last->nr_to_reclaim_high &&
	       ep->nr_to_reclaim_low >= b->opts.proactive_min_pages &&
	       ep->nr_to_reclaim_low >= last->nr_to_reclaim_high;
}

/* Make call @ep one of write @r: its root is the write's (the call's own
 * inference counted the writer's memcg and the limits in). */
static void join(struct rr_builder *b, struct rr_episode *ep, struct rr_episode *r)
{
	struct rr_memcg *root = rr_state_find(&b->st, r->proactive_memcg_id);

	ep->proactive = r;
	ep->root_memcg_id = root ? root->id : 0;
	ep->root_path = root ? root->path : NULL;
}

int rr_proactive_call(struct rr_builder *b, struct rr_episode *ep)
{
	struct rr_memcg *root;
	struct rr_episode *r;
	const char *evidence = NULL;
	int probed = probed_proactive(ep);
	uint64_t gap = probed == 1 ? RUN_GAP_PROBED_NS : RUN_GAP_NS;

	/* memory.reclaim is a cgroup v2 file: a v1 hierarchy (id > 0) has
	 * none, and a call that ran to priority 0 there is a charge's */
	if (!b->opts.proactive_min_pages || b->st.memory_root > 0)
		return 0;
	for (r = b->runs; r && r->pid != ep->pid; r = r->run_next)
		;
	/* the probe read scan_control: a charge's call ends the task's write */
	if (probed == 0)
		return r ? close_run(b, r) : 0;
	if (probed == 1)
		evidence = "probe";
	else if (ep->pgscan_proactive)
		evidence = "pgscan_proactive counter";
	else if (ep->nr_to_reclaim_low >= b->opts.proactive_min_pages)
		evidence = "size";
	if (!r && !evidence)
		return 0;	/* (most calls: a charge's; no walk of the batches) */
	root = rr_infer_batches_root(b, ep);
	if (r) {
		/* a call with no batch (nothing left to scan: the -EAGAIN
		 * retries) names no memcg; it follows the write it follows */
		if ((!root || r->proactive_memcg_id == root->id) &&
		    ep->start_ns <= r->run_last_end_ns + gap && !starts_anew(b, ep, r)) {
			join(b, ep, r);
			return 0;
		}
		if (close_run(b, r))
			return -1;
	}
	if (!root || !evidence)
		return 0;
	r = rr_episode_new(b);
	if (!r)
		return -1;
	r->kind = RR_KIND_PROACTIVE;
	r->pid = ep->pid;
	r->start_ns = ep->start_ns;
	r->before_start_snapshot = ep->before_start_snapshot;
	r->run_last_end_ns = ep->end_ns;
	r->replayable = true;
	r->epoch = ep->epoch;		/* lent by the first call (episodes.c) */
	r->task_memcg_id = ep->task_memcg_id;
	r->proactive_memcg_id = root->id;
	r->proactive_inferred = evidence;
	r->lost_events = ep->lost_events;
	r->run_next = b->runs;
	b->runs = r;
	join(b, ep, r);
	return 0;
}

int rr_proactive_expire(struct rr_builder *b, uint64_t now_ns, int pid)
{
	struct rr_episode *r = b->runs, *next;

	for (; r; r = next) {
		struct task *t;

		next = r->run_next;
		/* a call of the task in progress decides when it closes */
		if (now_ns != UINT64_MAX && pid < 0 && (t = rr_task_find(b, r->pid)) && t->ep)
			continue;
		if ((pid >= 0 && r->pid == pid) || now_ns == UINT64_MAX ||
		    now_ns > r->run_last_end_ns + (r->proactive_inferred &&
						   !strcmp(r->proactive_inferred, "probe") ?
						   RUN_GAP_PROBED_NS : RUN_GAP_NS)) {
			if (close_run(b, r))
				return -1;
			next = b->runs;	/* (the list changed) */
		}
	}
	return 0;
}

void rr_proactive_lost(struct rr_builder *b)
{
	for (struct rr_episode *r = b->runs; r; r = r->run_next)
		r->lost_events = true;
}
