// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's kprobe at the entry of shrink_lruvec() (record(1),
 * docs/kernel-model.md §26).  On a kernel without memcg: events it names
 * the memcg of every call, so the batches that follow a probe record (until
 * the task's next one) are that memcg's, and it holds what the call's
 * get_scan_count() read: the exact per-zone sizes, the online flag, the
 * swappiness, the reclaim root's cost pair and the switches
 * prepare_scan_count() set.  A probe record followed by no batch is a
 * silent visit, seen rather than inferred from the walk's order.
 *
 * Each replayable episode keeps its probe records in order (the contexts
 * of its batches and its silent visits point at them); the state takes the
 * sizes (without memcg events) and the rstat view of each probed memcg.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

/* The cgroup id of the memcg at @addr, 0 when no probe named it yet. */
static uint64_t addr_memcg(const struct rr_builder *b, uint64_t addr)
{
	struct probe_addr *pa;

	HASH_FIND(hh, b->probe_addrs, &addr, sizeof(addr), pa);
	return pa ? pa->memcg_id : 0;
}

/* The memcg at @addr is @id now (an address is reused once a memcg is
 * freed: the latest probe wins).  Return -1 on ENOMEM. */
static int note_addr(struct rr_builder *b, uint64_t addr, uint64_t id)
{
	struct probe_addr *pa;

	if (!addr)
		return 0;
	HASH_FIND(hh, b->probe_addrs, &addr, sizeof(addr), pa);
	if (pa) {
		pa->memcg_id = id;
		return 0;
	}
	pa = malloc(sizeof(*pa));
	if (!pa)
		return -1;
	pa->addr = addr;
	pa->memcg_id = id;
	HASH_ADD(hh, b->probe_addrs, addr, sizeof(pa->addr), pa);
	b->nr_probe_addrs++;
	return 0;
}

void rr_probe_free(struct rr_builder *b)
{
	struct probe_addr *pa, *tmp;

	HASH_ITER(hh, b->probe_addrs, pa, tmp) {
		HASH_DEL(b->probe_addrs, pa);
		free(pa);
	}
}

/* The probe's reclaim root: the memcg at target_mem_cgroup, the root memcg
 * for global reclaim (no target); 0 when its address was not seen yet. */
static uint64_t probe_root(const struct rr_builder *b, const struct rr_lruvec_probe *p,
			   bool *global)
{
	*global = false;
	if (!rr_probe_has(p, RR_PF_TARGET))
		return 0;
	if (!p->v[RR_PF_TARGET]) {
		*global = true;
		return RR_ROOT_MEMCG_ID;
	}
	return addr_memcg(b, p->v[RR_PF_TARGET]);
}

/* Keep @p in @ep's records; its index + 1, or 0 on ENOMEM. */
static uint32_t keep(struct rr_episode *ep, const struct rr_lruvec_probe *p)
{
	if (ep->nr_probes == ep->cap_probes) {
		size_t cap = ep->cap_probes ? ep->cap_probes * 2 : 16;
		struct rr_lruvec_probe *np;

		if (ep->nr_probes >= UINT32_MAX - 1)
			return 0;
		np = realloc(ep->probes, cap * sizeof(*np));
		if (!np)
			return 0;
		ep->probes = np;
		ep->cap_probes = cap;
	}
	ep->probes[ep->nr_probes++] = *p;
	return (uint32_t)ep->nr_probes;
}

/*
 * The task's call in progress ends (a new probe, or its episode's end):
 * a call that made no batch was a silent visit of its memcg, with the
 * probe's inputs.
 */
int rr_probe_task_end(struct rr_builder *b, struct task *t)
{
	struct rr_episode *ep = t->probe_ep;
	const struct rr_lruvec_probe *p = &t->probe;
	struct rr_silent_ctx *s;
	int reclaim_idx;
	bool oom;

	(void)b;
	if (!t->probe_valid || t->probe_batches || !ep || !t->probe_index) {
		t->probe_valid = false;
		return 0;
	}
	t->probe_valid = false;
	s = rr_episode_silent_add(ep, &oom);
	if (!s)
		return oom ? -1 : 0;
	s->before = ep->nr_batches;
	s->memcg_id = p->v[RR_PF_CGROUP_ID];
	s->probe = t->probe_index;
	reclaim_idx = rr_probe_has(p, RR_PF_RECLAIM_IDX) ? (int)p->v[RR_PF_RECLAIM_IDX] :
		      RR_PROBE_MAX_ZONES;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
		s->lru_pages[l] = rr_probe_lru_pages(p, l, reclaim_idx);
		s->rstat_lru_pages[l] = p->rstat_lru[l];
	}
	s->online = !rr_probe_has(p, RR_PF_CSS_FLAGS) || (p->v[RR_PF_CSS_FLAGS] & RR_CSS_ONLINE);
	s->swappiness = rr_probe_swappiness(b, p);
	s->swappiness_known = s->swappiness >= 0;
	if (!s->swappiness_known)
		s->swappiness = 60;
	s->protected_ = (rr_probe_has(p, RR_PF_EMIN) && p->v[RR_PF_EMIN]) ||
			(rr_probe_has(p, RR_PF_ELOW) && p->v[RR_PF_ELOW]);
	return 0;
}

/* Without memcg: events the state has no deltas: the probe's sizes are
 * exact now (they become lower bounds again as tasks are charged,
 * attribute.c), and its rstat view is the memcg's. */
static void probe_state(struct rr_builder *b, struct rr_memcg *m, const struct rr_lruvec_probe *p,
			uint64_t ts_ns)
{
	struct rr_memcg_vals *v;
	int sw = rr_probe_swappiness(b, p);

	v = rr_memcg_mut(&b->st, m);
	if (b->stats.attr_inferred && p->nr_zones) {
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			v->lru_sum[l] = (int64_t)rr_probe_lru_pages(p, l, RR_PROBE_MAX_ZONES);
			v->lru_low[l] = 0;
		}
		m->sizes_snap_ns = ts_ns ? ts_ns : 1;
		m->standin = false;
	}
	if (p->has_rstat) {
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			v->rstat_lru[l] = p->rstat_lru[l];
		v->rstat_valid = true;
	}
	if (sw >= 0 && b->st.memory_root > 0 && m->id != RR_ROOT_MEMCG_ID) {
		v->swappiness = sw;
		v->swappiness_known = true;
	}
}

int rr_builder_probe(struct rr_builder *b, const struct rr_event *ev)
{
	const struct rr_lruvec_probe *p = ev->probe;
	struct rr_episode *ep;
	struct rr_memcg *m;
	struct task *t;

	if (!p)
		return 0;
	b->stats.probes++;
	t = rr_task_get(b, ev->pid);
	if (!t)
		return -1;
	t->last_ts = ev->ts_ns;
	if (rr_probe_task_end(b, t))
		return -1;
	m = rr_state_memcg(&b->st, p->v[RR_PF_CGROUP_ID]);
	if (!m || (rr_probe_has(p, RR_PF_MEMCG) && note_addr(b, p->v[RR_PF_MEMCG], m->id)))
		return -1;
	probe_state(b, m, p, ev->ts_ns);
	t->probe = *p;
	t->probe_valid = true;
	t->probe_batches = 0;
	t->probe_ep = NULL;
	t->probe_index = 0;
	ep = t->ep;
	if (ep && ep->replayable) {
		uint32_t k = keep(ep, p);

		if (!k)
			return -1;
		b->stats.probed_calls++;
		t->probe_ep = ep;
		t->probe_index = k;
		if (!ep->probed) {
			ep->probed = true;
			if (rr_probe_has(p, RR_PF_NR_TO_RECLAIM))
				ep->probe_nr_to_reclaim = p->v[RR_PF_NR_TO_RECLAIM];
		}
		/* (the root's address is named by the walk's first visit, the
		 * root itself: until then it may be unknown) */
		if (!ep->probe_root_id)
			ep->probe_root_id = probe_root(b, p, &ep->probe_global);
	}
	rr_task_put(b, t);
	return b->st.oom ? -1 : 0;
}

/* Does the probe of @t's call name the batch in flight's memcg?  (Its
 * episode is the batch's, and no batch of another call came between.) */
bool rr_probe_names_batch(const struct task *t)
{
	return t->probe_valid && (!t->probe_ep || t->probe_ep == t->ep);
}

/*
 * The batch in flight of @t was just isolated: its memcg, where a probe
 * names it (shrink_active_list()'s for an active batch, else the call's).
 * A batch outside the probed call (kswapd_age_node()'s, after the call's
 * return) gets its memcg but not the call's inputs.  Return -1 on ENOMEM.
 */
int rr_probe_isolate(struct rr_builder *b, struct task *t)
{
	uint64_t id = 0;
	bool in_call = false;
	struct rr_batch *eb;

	t->batch_in_call = false;
	if (t->batch.memcg_id)
		return 0;
	if (rr_lru_is_active(t->batch.lru) && t->active_pending) {
		id = t->active_id;
		in_call = rr_probe_names_batch(t) && id == t->probe.v[RR_PF_CGROUP_ID];
	} else if (rr_probe_names_batch(t)) {
		id = t->probe.v[RR_PF_CGROUP_ID];
		in_call = true;
	}
	t->active_pending = false;
	if (!id)
		return 0;
	if (in_call)
		t->probe_batches++;
	t->batch_in_call = in_call;
	rr_task_attribute(b, t, id);
	t->batch.attr = RR_ATTR_PROBE;
	eb = ep_batch(t);
	if (eb) {
		eb->attr = RR_ATTR_PROBE;
		if (t->batch_ep->replayable)
			b->stats.attr[RR_ATTR_PROBE]++;
	}
	return b->st.oom ? -1 : 0;
}

/* The call's end (the kretprobe on shrink_lruvec()), and the memcg of the
 * next active batch (the probe on shrink_active_list()). */
int rr_builder_probe_event(struct rr_builder *b, const struct rr_event *ev)
{
	struct task *t;

	if (ev->type == RR_EV_LRUVEC_RET) {
		t = rr_task_find(b, ev->pid);
		if (!t)
			return 0;
		t->last_ts = ev->ts_ns;
		if (rr_probe_task_end(b, t))
			return -1;
		rr_task_put(b, t);
		return 0;
	}
	t = rr_task_get(b, ev->pid);
	if (!t)
		return -1;
	t->last_ts = ev->ts_ns;
	t->active_pending = ev->id != 0;
	t->active_id = ev->id;
	return 0;
}
