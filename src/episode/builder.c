// SPDX-License-Identifier: GPL-2.0-only
/*
 * Episode builder: the dispatch of each event to the job that owns it
 * (episode.h lists them); the cgroup v1 hierarchy resolution is
 * hierarchy.c's.
 *
 * The hot path is mod_memcg_lruvec_state (most events of a trace): one
 * cached memcg lookup and, only for a task in reclaim, one cached task
 * lookup; no allocation.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

struct rr_builder *rr_builder_new(const struct rr_builder_opts *opts,
				  rr_episode_cb cb, void *ctx)
{
	struct rr_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->stats.swap_from_meta = -1;
	b->opts = *opts;
	b->cb = cb;
	b->ctx = ctx;
	rr_state_init(&b->st);
	if (opts->infer_attribution || opts->drop_memcg_events)
		rr_builder_infer_attribution(b);
	return b;
}

void rr_builder_free(struct rr_builder *b)
{
	struct task *t, *tmp;
	struct task_memcg *tm, *tmt;

	if (!b)
		return;
	HASH_ITER(hh, b->tasks, t, tmp) {
		HASH_DEL(b->tasks, t);
		while (t->ep) {
			struct rr_episode *o = t->ep->outer;

			rr_episode_release(NULL, t->ep);
			t->ep = o;
		}
		free(t->pend);
		free(t);
	}
	HASH_ITER(hh, b->task_memcgs, tm, tmt) {
		HASH_DEL(b->task_memcgs, tm);
		free(tm);
	}
	while (b->runs) {
		struct rr_episode *o = b->runs->run_next;

		rr_episode_release(NULL, b->runs);
		b->runs = o;
	}
	while (b->free_eps) {
		struct rr_episode *o = b->free_eps->outer;

		rr_episode_release(NULL, b->free_eps);
		b->free_eps = o;
	}
	for (size_t i = 0; i < b->nr_held; i++)
		free(b->held[i].str);
	free(b->held);
	rr_probe_free(b);
	rr_state_free(&b->st);
	free(b);
}

struct rr_state *rr_builder_state(struct rr_builder *b)
{
	return &b->st;
}

const struct rr_builder_stats *rr_builder_stats(const struct rr_builder *b)
{
	return &b->stats;
}

/* ---- dispatch ---- */

/* Events of a task: the task record exists while it is in reclaim. */
static int task_event(struct rr_builder *b, const struct rr_event *ev)
{
	struct task *t;
	int ret = 0;

	switch (ev->type) {
	case RR_EV_MOD_LRUVEC:
		rr_recent_delta(b, ev);
		if (b->snap_logging)
			rr_snap_log(b, ev);
		t = rr_task_find(b, ev->pid);
		if (t) {
			t->last_ts = ev->ts_ns;
			if (t->awaiting_memcg && ev->val < 0 && ev->item == t->batch.lru)
				rr_task_attribute(b, t, ev->id);
			else if (rr_lru_is_evictable(ev->item) && !t->batch_open && t->ep &&
				 t->ep->replayable)
				rr_task_drain_log(t, ev);
		}
		ret = rr_state_apply(&b->st, ev);
		/* (a refault notes a cost: lruvec_delta()) */
		if (ev->item == b->st.items.workingset_restore[RR_LRU_ANON] ||
		    ev->item == b->st.items.workingset_restore[RR_LRU_FILE])
			rr_root_cost_note(b, ev->ts_ns);
		return ret;
	case RR_EV_COUNT_EVENTS:
		t = rr_task_find(b, ev->pid);
		if (!t)
			return 0;
		t->last_ts = ev->ts_ns;
		if (t->ep && b->st.items.pgscan_proactive >= 0 &&
		    ev->item == b->st.items.pgscan_proactive)
			t->ep->pgscan_proactive = true;
		if (t->awaiting_memcg) {
			rr_task_attribute(b, t, ev->id);
			/* an inactive batch that took nothing: no shrink event
			 * will close it (shrink_inactive_list() returns first);
			 * shrink_active_list() emits its event whatever it took,
			 * and that gives the batch its priority */
			if (!t->batch.nr_taken && t->batch_open && !rr_lru_is_active(t->batch.lru))
				ret = rr_task_batch_close(b, t, NULL);
		}
		break;
	case RR_EV_WRITE_FOLIO:
		t = rr_task_find(b, ev->pid);
		if (!t)
			return 0;
		t->last_ts = ev->ts_ns;
		if (t->batch_open)
			t->batch.nr_pageout++;
		return 0;
	case RR_EV_SHRINK_INACTIVE:
	case RR_EV_SHRINK_ACTIVE:
		t = rr_task_find(b, ev->pid);
		if (t)
			t->last_ts = ev->ts_ns;
		if (t && t->batch_open) {
			ret = rr_task_batch_close(b, t, ev);
		} else if (ev->type == RR_EV_SHRINK_INACTIVE || ev->nr_taken) {
			/* the outcome of a batch whose isolate event is missing
			 * (an inactive batch that took nothing has no shrink
			 * event; an active one always has): as if events were lost */
			b->stats.shrink_without_isolate++;
			for (struct rr_episode *q = t ? t->ep : NULL; q; q = q->outer)
				q->lost_events = true;
		}
		if (t)
			rr_task_drain_reset(t, ev->ts_ns);
		rr_root_cost_note(b, ev->ts_ns);	/* (the batch noted its cost) */
		break;
	case RR_EV_SLAB_START:
		t = rr_task_find(b, ev->pid);
		if (!t)
			return 0;
		t->last_ts = ev->ts_ns;
		rr_task_drain_reset(t, ev->ts_ns);
		if (b->stats.attr_inferred && rr_attr_visit_end(b, t, ev->priority))
			return -1;
		/* the batches before it, of the memcg visit it ends, ran at its
		 * priority */
		if (t->ep) {
			for (size_t i = t->ep->nr_batches; i-- > 0 &&
			     t->ep->batches[i].priority < 0;)
				t->ep->batches[i].priority = ev->priority;
		}
		if (t->batch_open && t->batch.priority < 0)
			t->batch.priority = ev->priority;
		return 0;
	case RR_EV_LRU_ISOLATE:
		t = rr_task_get(b, ev->pid);
		if (!t)
			return -1;
		t->last_ts = ev->ts_ns;
		ret = rr_task_isolate(b, t, ev);
		/* an isolate that names its memcg (a memcg_id= field some kernels
		 * print): as a memcg: event after it would */
		if (!ret && ev->id && t->awaiting_memcg)
			rr_task_attribute(b, t, ev->id);
		/* else the recorder's probe may name it */
		if (!ret)
			ret = rr_probe_isolate(b, t);
		return ret;
	default:
		return 0;
	}
	rr_task_put(b, t);
	return ret;
}

/* Begin and end events: the episode stack of the task. */
static int request_event(struct rr_builder *b, const struct rr_event *ev)
{
	static const struct {
		enum rr_reclaim_kind kind;
		bool begin, has_nr_reclaimed;
	} map[RR_EV__COUNT] = {
		[RR_EV_MEMCG_RECLAIM_BEGIN] = { RR_KIND_MEMCG, true, false },
		[RR_EV_MEMCG_RECLAIM_END] = { RR_KIND_MEMCG, false, true },
		[RR_EV_SOFTLIMIT_BEGIN] = { RR_KIND_SOFTLIMIT, true, false },
		[RR_EV_SOFTLIMIT_END] = { RR_KIND_SOFTLIMIT, false, true },
		[RR_EV_DIRECT_BEGIN] = { RR_KIND_DIRECT, true, false },
		[RR_EV_DIRECT_END] = { RR_KIND_DIRECT, false, true },
		[RR_EV_NODE_RECLAIM_BEGIN] = { RR_KIND_NODE, true, false },
		[RR_EV_NODE_RECLAIM_END] = { RR_KIND_NODE, false, true },
		[RR_EV_KSWAPD_WAKE] = { RR_KIND_KSWAPD, true, false },
		[RR_EV_KSWAPD_SLEEP] = { RR_KIND_KSWAPD, false, false },
	};
	struct task *t = rr_task_get(b, ev->pid);
	int ret;

	if (!t)
		return -1;
	t->last_ts = ev->ts_ns;
	if (map[ev->type].begin) {
		b->stats.begins[map[ev->type].kind]++;
		ret = rr_episode_begin(b, t, map[ev->type].kind, ev->ts_ns);
		if (!ret && t->ep) {
			/* a begin that names the reclaim root (memcg_id=) */
			t->ep->target_memcg_id = ev->id;
			t->ep->order = ev->order;
			t->ep->classzone = ev->classzone;
			t->ep->nid = ev->nid;
		}
	} else {
		ret = rr_episode_end(b, t, map[ev->type].kind, ev, map[ev->type].has_nr_reclaimed);
	}
	rr_task_put(b, t);
	return ret;
}

static int feed(struct rr_builder *b, const struct rr_event *ev)
{
	switch (ev->type) {
	case RR_EV_MOD_LRUVEC:
	case RR_EV_COUNT_EVENTS:
	case RR_EV_WRITE_FOLIO:
	case RR_EV_SHRINK_INACTIVE:
	case RR_EV_SHRINK_ACTIVE:
	case RR_EV_SLAB_START:
	case RR_EV_LRU_ISOLATE:
		return task_event(b, ev);
	case RR_EV_CGROUP_MKDIR:
	case RR_EV_CGROUP_RMDIR:
	case RR_EV_CGROUP_RELEASE:
	case RR_EV_FLUSH:
	case RR_EV_ATTACH:
		return rr_builder_cgroup_event(b, ev);
	case RR_EV_FORK: {
		/* the child starts in its parent's memcg (copy_process()) */
		uint64_t id = rr_task_memcg(b, ev->pid);

		return id && ev->attach_pid > 0 ? rr_task_inherit(b, ev->attach_pid, id) : 0;
	}
	case RR_EV_MARKER:
		b->stats.markers++;
		return rr_builder_marker(b, ev);
	case RR_EV_LRUVEC_PROBE:
		return rr_builder_probe(b, ev);
	case RR_EV_LRUVEC_RET:
	case RR_EV_ACTIVE_PROBE:
		return rr_builder_probe_event(b, ev);
	case RR_EV_WRITE_PROBE:
	case RR_EV_WRITE_RET:
		return rr_proactive_probe(b, ev);
	default:
		return rr_event_is_request(ev->type) ? request_event(b, ev) : 0;
	}
}

int rr_builder_feed(struct rr_builder *b, const struct rr_event *ev)
{
	int ret;

	b->stats.events++;
	if (!b->st.first_ts_ns)
		b->st.first_ts_ns = ev->ts_ns;
	if (ev->lost_before) {	/* every episode open across the gap */
		if (!b->first_lost_ns)
			b->first_lost_ns = ev->ts_ns ? ev->ts_ns : 1;
		rr_episodes_lost(b);
	}
	/* read as a kernel without memcg: events wrote it: the events only
	 * check the attribution (attribute.c) */
	if (b->opts.drop_memcg_events && (ev->type == RR_EV_MOD_LRUVEC ||
					  ev->type == RR_EV_COUNT_EVENTS ||
					  ev->type == RR_EV_FLUSH)) {
		b->stats.memcg_events_dropped++;
		if (ev->type != RR_EV_FLUSH)
			rr_attr_truth(b, ev);
		return 0;
	}
	if (b->st.memory_root < 0) {
		if (rr_is_cgroup_event(ev->type))
			return rr_builder_hold(b, ev);
		if ((ev->type == RR_EV_MOD_LRUVEC || ev->type == RR_EV_COUNT_EVENTS ||
		     ev->type == RR_EV_FLUSH) && b->nr_held &&
		    (ret = rr_builder_resolve_memory_root(b, ev->id)))
			return ret;
	}
	/* inferred memory.reclaim writes whose calls stopped (proactive.c) */
	if (b->runs && (ret = rr_proactive_expire(b, ev->ts_ns, -1)))
		return ret;
	ret = feed(b, ev);
	if (!ret && b->st.oom)
		ret = -1;
	return ret;
}

int rr_builder_finish(struct rr_builder *b)
{
	uint64_t before = b->stats.unterminated_episodes;

	if (rr_episodes_finish(b) || b->st.oom)
		return -1;
	return (int)(b->stats.unterminated_episodes - before);
}
