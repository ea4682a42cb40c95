// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup v1 memory hierarchy, and the cgroup events applied to the
 * state.
 *
 * On cgroup v1 every controller's hierarchy emits cgroup: events.  Until
 * the memory hierarchy is known (the recorder's meta marker says it, or a
 * memcg: event names an id that belongs to exactly one held hierarchy),
 * cgroup events are held back, then the memory hierarchy's are replayed
 * in order and the others dropped.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

bool rr_is_cgroup_event(enum rr_event_type type)
{
	return type == RR_EV_CGROUP_MKDIR || type == RR_EV_CGROUP_RMDIR ||
	       type == RR_EV_CGROUP_RELEASE || type == RR_EV_ATTACH;
}

int rr_builder_hold(struct rr_builder *b, const struct rr_event *ev)
{
	struct held_event *h;

	if (b->nr_held == b->cap_held) {
		size_t cap = b->cap_held ? b->cap_held * 2 : 64;

		h = realloc(b->held, cap * sizeof(*h));
		if (!h)
			return -1;
		b->held = h;
		b->cap_held = cap;
	}
	h = &b->held[b->nr_held];
	h->ev = *ev;
	h->str = ev->str ? strndup(ev->str, (size_t)ev->str_len) : NULL;
	if (ev->str && !h->str)
		return -1;
	h->ev.str = h->str;
	b->nr_held++;
	return 0;
}

/* A cgroup event (mkdir, rmdir, release, a flush, a task's move) applied
 * to the state. */
int rr_builder_cgroup_event(struct rr_builder *b, const struct rr_event *ev)
{
	switch (ev->type) {
	case RR_EV_CGROUP_MKDIR:
	case RR_EV_CGROUP_RMDIR:
	case RR_EV_CGROUP_RELEASE:
	case RR_EV_FLUSH:
		if (b->snap_logging && (ev->force || ev->needs_flush) &&
		    b->nr_snap_flushes < RR_SNAP_FLUSHES) {
			b->snap_flushes[b->nr_snap_flushes].id = ev->id;
			b->snap_flushes[b->nr_snap_flushes++].ts_ns = ev->ts_ns;
		}
		return rr_state_apply(&b->st, ev);
	case RR_EV_ATTACH:
		/* the moved task, not the writer of cgroup.procs */
		if (ev->cgroup_root != b->st.memory_root)
			return 0;
		return rr_task_set_memcg(b, ev->attach_pid, ev->id, ev->ts_ns);
	default:
		return 0;
	}
}

/*
 * A memcg whose cgroup_mkdir was held back comes into being now, after
 * episodes that began later than the mkdir: it belongs to their start
 * states, as it is now (nothing could change it in between: its first
 * memcg: event is what released the hold).
 */
static void born_earlier(struct rr_builder *b, const struct held_event *h)
{
	struct rr_memcg *m;
	uint64_t first = 0;

	if (h->ev.type != RR_EV_CGROUP_MKDIR || !(m = rr_state_find(&b->st, h->ev.id)) ||
	    !m->created_ns)
		return;
	for (const struct rr_episode *ep = b->open; ep; ep = ep->open_next)
		if (ep->epoch && ep->start_ns > m->created_ns && (!first || ep->epoch < first))
			first = ep->epoch;
	if (first && first - 1 < m->born_epoch) {
		m->born_epoch = first - 1;
		m->saved_epoch = first - 1;	/* the next write saves a version */
	}
}

/* The memory hierarchy is @root: feed its held cgroup events, drop the rest. */
int rr_builder_replay_held(struct rr_builder *b, int root)
{
	int ret = 0;

	b->st.memory_root = root;
	for (size_t i = 0; i < b->nr_held && !ret; i++)
		if (b->held[i].ev.cgroup_root == root)
			ret = rr_builder_cgroup_event(b, &b->held[i].ev);
	for (size_t i = 0; i < b->nr_held && !ret; i++)
		if (b->held[i].ev.cgroup_root == root)
			born_earlier(b, &b->held[i]);
	for (size_t i = 0; i < b->nr_held; i++)
		free(b->held[i].str);
	free(b->held);
	b->held = NULL;
	b->nr_held = b->cap_held = 0;
	return ret;
}

/*
 * Decide the memory hierarchy at the first memcg: id that belongs to
 * exactly one held hierarchy, then replay that hierarchy's held events.
 */
int rr_builder_resolve_memory_root(struct rr_builder *b, uint64_t id)
{
	int root = -1;

	for (size_t i = 0; i < b->nr_held; i++) {
		if (b->held[i].ev.id != id)
			continue;
		if (root >= 0 && root != b->held[i].ev.cgroup_root)
			return 0;	/* ambiguous: wait for another id */
		root = b->held[i].ev.cgroup_root;
	}
	if (root < 0)
		return 0;
	return rr_builder_replay_held(b, root);
}

/*
 * No memcg: event will name the memory hierarchy (a trace without them):
 * where every held cgroup event is of one hierarchy, that is it (said in
 * the output).  Return -1 on ENOMEM.
 */
int rr_builder_resolve_only_hierarchy(struct rr_builder *b)
{
	size_t i;

	if (b->st.memory_root >= 0 || !b->nr_held)
		return 0;
	for (i = 1; i < b->nr_held && b->held[i].ev.cgroup_root == b->held[0].ev.cgroup_root; i++)
		;
	if (i < b->nr_held)
		return 0;
	b->stats.attr_hierarchy_inferred = true;
	return rr_builder_replay_held(b, b->held[0].ev.cgroup_root);
}

/* The trace has no memcg: events (or they are dropped): infer each batch's
 * memcg, and keep the sizes from the snapshots and the batches. */
void rr_builder_infer_attribution(struct rr_builder *b)
{
	b->stats.attr_inferred = true;
	b->st.sizes_without_deltas = true;
}
