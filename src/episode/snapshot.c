// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's markers applied to the state (src/markers parses them):
 * "meta" (swap, vm.swappiness, MGLRU, the v1 memory hierarchy), "items"
 * (node_stat_item numbers), the cgroup snapshots ("snapshot begin/end"
 * around one "memcg" line per cgroup) and the "proactive begin/end"
 * markers around a memory.reclaim write.  The "vm", "zone" and "node"
 * lines and the memcgs' hierarchical sizes go to nodes.c (global reclaim).  The start snapshot gives every
 * memcg that predates the trace its exact start sizes
 * (docs/kernel-model.md §14.3, §14.4) and its
 * v1 swappiness; later snapshots update the swappiness, limits and
 * protection only.
 */
#include "episode-local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../markers/markers.h"
#include "nodes.h"

static void on_meta(struct rr_builder *b, const struct rr_marker_meta *meta)
{
	b->stats.meta_seen = true;
	if (meta->page_size >= 512 && meta->page_size <= (1LL << 30))
		b->page_size_bytes = (uint64_t)meta->page_size;
	if (meta->swap_total_kb >= 0)
		b->stats.swap_from_meta = meta->swap_total_kb > 0;
	if (meta->vm_swappiness >= 0 && meta->vm_swappiness <= 200) {
		b->st.default_swappiness = (int)meta->vm_swappiness;
		b->st.default_swappiness_known = true;
	}
	/* a recording without the memcg: events (record --no-memcg-events,
	 * or a kernel before 6.13): its snapshots list each memcg's tasks */
	if (!strcmp(meta->memcg_events, "off") || !strcmp(meta->memcg_events, "absent")) {
		rr_builder_infer_attribution(b);
		b->tasks_in_snapshots = true;
	}
	if (meta->kernel_release[0])
		snprintf(b->stats.kernel_release, sizeof(b->stats.kernel_release), "%.63s",
			 meta->kernel_release);
	/* /sys/kernel/mm/lru_gen/enabled: "absent", or a mask, 0x0000 off */
	if (meta->mglru[0] && strcmp(meta->mglru, "absent") && strcmp(meta->mglru, "unknown") &&
	    strtoul(meta->mglru, NULL, 0) != 0)
		b->stats.mglru_from_meta = true;
}

static void on_items(struct rr_builder *b, const struct rr_marker_items *it)
{
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		if (it->workingset_activate[t] >= 0)
			b->st.items.workingset_activate[t] = (int)it->workingset_activate[t];
		if (it->workingset_restore[t] >= 0)
			b->st.items.workingset_restore[t] = (int)it->workingset_restore[t];
	}
	b->st.items.pgscan_proactive = it->pgscan_proactive >= 0 && it->pgscan_proactive < 4096 ?
				       (int)it->pgscan_proactive : -1;
	b->st.items.from_trace = true;
}

/* The start snapshot is over: no memcg line comes for the logs left. */
static void snap_log_end(struct rr_builder *b)
{
	struct rr_memcg *m, *tmp;

	HASH_ITER(hh, b->st.by_id, m, tmp) {
		free(m->snap_log);
		m->snap_log = NULL;
		m->nr_snap_log = m->cap_snap_log = 0;
	}
	b->snap_logging = false;
}

void rr_snap_log(struct rr_builder *b, const struct rr_event *ev)
{
	struct rr_memcg *m;

	if (!rr_lru_is_evictable(ev->item) || !(m = rr_state_memcg(&b->st, ev->id)) ||
	    m->v.baseline_known || m->snap_log_full)
		return;
	if (m->nr_snap_log == m->cap_snap_log) {
		uint32_t cap = m->cap_snap_log ? m->cap_snap_log * 2 : 16;
		struct rr_snap_delta *n = cap <= (1u << 20) ?
					  realloc(m->snap_log, cap * sizeof(*n)) : NULL;

		if (!n) {
			m->snap_log_full = true;
			return;
		}
		m->snap_log = n;
		m->cap_snap_log = cap;
	}
	m->snap_log[m->nr_snap_log++] = (struct rr_snap_delta){ ev->ts_ns, ev->val, ev->item };
}

/* The time of the latest flush of the start snapshot that covered @m
 * before its memory.stat was read (its own, an ancestor's, the root's),
 * or 0 when none did. */
static uint64_t snapshot_view_ns(const struct rr_builder *b, const struct rr_memcg *m)
{
	uint64_t best = 0;

	if (!m->read_marked || !m->read_ns)
		return 0;
	for (unsigned int k = 0; k < b->nr_snap_flushes; k++) {
		uint64_t id = b->snap_flushes[k].id, ts = b->snap_flushes[k].ts_ns;
		const struct rr_memcg *a;

		if (ts > m->read_ns + 1000000 || ts <= best)
			continue;
		/* (the read's own flush comes right after its marker) */
		if (ts > m->read_ns && id != m->id)
			continue;
		for (a = m; a && a->id != id; a = a->parent)
			;
		if (a || id == RR_ROOT_MEMCG_ID)
			best = ts;
	}
	return best;
}

static int on_memcg(struct rr_builder *b, const struct rr_marker_memcg *mc, uint64_t ts_ns)
{
	struct rr_memcg *m;
	struct rr_memcg_vals *v;

	if (mc->malformed) {	/* dropped, counted, the episodes around flagged */
		if (!b->stats.markers_malformed++)
			snprintf(b->stats.first_malformed_marker,
				 sizeof(b->stats.first_malformed_marker),
				 "memcg id=%lld: %s not a number in range", mc->id, mc->malformed);
		rr_episodes_lost(b);
		return 0;
	}
	if (mc->id <= 0)
		return 0;
	m = rr_state_memcg(&b->st, (uint64_t)mc->id);
	if (!m)
		return -1;
	v = rr_memcg_mut(&b->st, m);
	if (mc->swappiness >= 0 && mc->swappiness <= 200) {
		v->swappiness = (int)mc->swappiness;
		v->swappiness_known = true;
	}
	m->limit_bytes = mc->limit_bytes;
	m->min_bytes = mc->min_bytes;
	m->low_bytes = mc->low_bytes;
	m->snapshotted = true;
	/* a snapshot read its directory: it is live (a memcg first seen after
	 * the start snapshot was taken for dying, or outside the view) */
	if (m->dying_inferred || m->online_unknown) {
		m->dying_inferred = m->online_unknown = false;
		v->online = true;
	}
	if (rr_memcg_protected(m))
		b->stats.snapshot_protected++;
	if (m->limit_bytes > (1LL << 60))
		m->limit_bytes = -1;	/* v1 "unlimited" is a huge number */
	/* memory.stat printed the rstat view as of its flush: the view the
	 * kernel's decisions read (the hierarchical sizes, dying descendants
	 * included) */
	if (mc->hier_known) {
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			v->rstat_lru[l] = mc->hier_pages[l];
		v->rstat_valid = true;
	}
	/* "/" is the root memcg only outside a cgroup namespace and a
	 * container's mount of its own cgroup: else the view's top */
	if (mc->id == RR_ROOT_MEMCG_ID)
		b->snapshot_has_root = true;
	else if (!strcmp(mc->path, "/"))
		b->snapshot_view_root = (uint64_t)mc->id;
	if (b->stats.attr_inferred) {
		/* no deltas keep the sizes: every snapshot sets them, and they
		 * are lower bounds until the next (attribute.c) */
		for (int l = 0; l < RR_NR_LRU; l++) {
			v->lru_sum[l] = (int64_t)mc->lru_pages[l];
			v->lru_low[l] = 0;
		}
		v->baseline_known = false;
		m->standin = false;	/* (a root stood in before the snapshot) */
		/* its tasks, if any, follow in "tasks" lines */
		if (b->tasks_in_snapshots) {
			m->tasks_known = true;
			m->nr_tasks = 0;
		}
		m->sizes_snap_ns = ts_ns ? ts_ns : 1;
		b->stats.attr_snapshot_sizes++;
		if (b->in_snapshot == 1)
			b->stats.snapshot_memcgs++;
		if (!m->named && mc->path[0] && rr_state_name(&b->st, m, mc->path))
			return -1;
		return 0;
	}
	if (b->in_snapshot != 1)
		return 0;
	b->stats.snapshot_memcgs++;
	if (!m->named && mc->path[0] && rr_state_name(&b->st, m, mc->path))
		return -1;
	if (!v->baseline_known) {
		/*
		 * memory.stat prints the flushed view: the sizes as of the last
		 * flush that covered the memcg (the read flushes only past a
		 * threshold of pending updates): its own, an ancestor's or the
		 * root's during the snapshot, else one before it.  The deltas
		 * since that flush, or, where the trace holds none, since the
		 * read (a recorder from 0.3 says when), are not in the line.
		 */
		int64_t since[RR_NR_LRU];
		uint64_t view_ns = snapshot_view_ns(b, m);
		const int64_t *then = m->rstat_flush_ns ? m->flush_lru_sum :
				      m->read_marked ? m->read_lru_sum : NULL;

		if (view_ns && !m->snap_log_full) {
			memset(since, 0, sizeof(since));
			for (uint32_t k = 0; k < m->nr_snap_log; k++)
				if (m->snap_log[k].ts_ns > view_ns)
					since[m->snap_log[k].lru] += m->snap_log[k].val;
			for (int l = 0; l < RR_NR_LRU; l++)
				since[l] = v->lru_sum[l] - since[l];
			then = since;
		}
		for (int l = 0; l < RR_NR_LRU; l++) {
			v->lru_sum[l] = (int64_t)mc->lru_pages[l] + (then ? v->lru_sum[l] - then[l] : 0);
			v->lru_low[l] = 0;
		}
		v->baseline_known = true;
	}
	free(m->snap_log);
	m->snap_log = NULL;
	m->nr_snap_log = m->cap_snap_log = 0;
	m->read_marked = false;
	return 0;
}

/*
 * A "tasks" line: threads of a memcg when the snapshot read it (a recorder
 * without the memcg: events writes them).  Each listed thread is placed in
 * it; none of them arrived now (attribute.c).  Return -1 on ENOMEM.
 */
static int on_tasks(struct rr_builder *b, const struct rr_marker_tasks *mt)
{
	struct rr_memcg *m;

	if (mt->malformed || mt->memcg_id <= 0 || mt->threads < 0 || mt->left_out < 0) {
		if (!b->stats.markers_malformed++)
			snprintf(b->stats.first_malformed_marker,
				 sizeof(b->stats.first_malformed_marker),
				 "tasks memcg=%lld: %s not a number in range", mt->memcg_id,
				 mt->malformed ? mt->malformed : "a key");
		return 0;
	}
	m = rr_state_memcg(&b->st, (uint64_t)mt->memcg_id);
	if (!m)
		return -1;
	for (int i = 0; i < mt->nr_pids; i++)
		if (rr_task_place(b, mt->pids[i], m->id))
			return -1;
	m->nr_tasks = mt->threads > UINT32_MAX ? UINT32_MAX : (uint32_t)mt->threads;
	m->tasks_known = mt->left_out == 0;
	return 0;
}

/* A vm, zone or node line with a value no kernel prints: dropped, counted
 * and named (the memcg episodes do not read them: none is flagged). */
static bool malformed(struct rr_builder *b, const char *what, const char *key)
{
	if (!key)
		return false;
	if (!b->stats.markers_malformed++)
		snprintf(b->stats.first_malformed_marker, sizeof(b->stats.first_malformed_marker),
			 "%s: %s not a number in range", what, key);
	return true;
}

/*
 * The start snapshot held the whole hierarchy (the root memcg's line): a
 * memcg the trace showed before it, not made in the trace and not in it,
 * had no directory -- removed, offline, still holding pages (a dying
 * memcg; global-reclaim.md §5.1).  Inferred, and said so in the report.
 */
static void mark_dying(struct rr_builder *b)
{
	struct rr_memcg *m, *tmp;

	bool known = true;

	memset(b->st.dying_ub_type, 0, sizeof(b->st.dying_ub_type));
	HASH_ITER(hh, b->st.by_id, m, tmp) {
		uint64_t bound[RR_NR_LRU];

		if (m->snapshotted) {
			if (rr_state_dying_bound(&b->st, m, bound, NULL)) {
				known = false;
				continue;
			}
			for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
				b->st.dying_ub_type[rr_lru_type(l)] += bound[l];
			continue;
		}
		if (m->created_ns || m->release_ns || m->id == RR_ROOT_MEMCG_ID)
			continue;
		m->dying_inferred = true;
		rr_memcg_mut(&b->st, m)->online = false;
	}
	b->st.dying_ub_known = known;
	b->st.whole_tree_seen = true;
}

/*
 * The start snapshot held the subtree of memcg @view_root only: the
 * recorder's "/" was not the root memcg (a cgroup namespace, or a
 * container that mounts its own cgroup as the hierarchy).  A memcg the
 * trace showed before it, not in it and not made in the trace, is
 * outside the view: another container's, live, or a dying one.  The trace
 * cannot tell which: its online state is unknown (the fidelity check
 * tries both), its sizes lower bounds.
 */
static void mark_outside_view(struct rr_builder *b, uint64_t view_root)
{
	struct rr_memcg *m, *tmp;

	HASH_ITER(hh, b->st.by_id, m, tmp)
		if (!m->snapshotted && !m->created_ns && !m->release_ns && !m->v.rmdir_ns &&
		    m->id != RR_ROOT_MEMCG_ID && !m->standin && !rr_memcg_synthetic(m))
			m->online_unknown = true;
	b->st.view_root_id = view_root;
}

int rr_builder_marker(struct rr_builder *b, const struct rr_event *ev)
{
	struct rr_marker mk;
	struct task *t;

	switch (rr_marker_parse(ev->str, ev->str_len > 0 ? (size_t)ev->str_len : 0, false, &mk)) {
	case RR_MARKER_META:
		on_meta(b, &mk.meta);
		/* the memory hierarchy is known: replay what was held */
		if (mk.meta.memory_hierarchy_id >= 0 && b->st.memory_root < 0)
			return rr_builder_replay_held(b, (int)mk.meta.memory_hierarchy_id);
		return 0;
	case RR_MARKER_ITEMS:
		on_items(b, &mk.items);
		return 0;
	case RR_MARKER_EVENTS:
		/* a recording made without memcg: events (record
		 * --no-memcg-events, or a kernel before 6.13) */
		if (!memmem(ev->str, (size_t)ev->str_len, "memcg:", 6))
			rr_builder_infer_attribution(b);
		return 0;
	case RR_MARKER_SNAPSHOT_BEGIN:
		if (!strcmp(mk.snapshot.when, "periodic"))
			b->stats.attr_periodic_snapshots++;
		b->in_snapshot = !strcmp(mk.snapshot.when, "start") ? 1 : 2;
		/* (an end marker lost: nothing of that snapshot carries over) */
		b->snapshot_has_root = false;
		b->snapshot_view_root = 0;
		b->snap_logging = b->in_snapshot == 1 && !b->start_snapshot_ns;
		b->nr_snap_flushes = 0;
		return rr_nodes_snapshot_begin(&b->st, ev->ts_ns);
	case RR_MARKER_VM:
		return malformed(b, "vm", mk.vm.malformed) ? 0 : rr_nodes_vm(&b->st, &mk.vm, ev->ts_ns);
	case RR_MARKER_ZONE:
		return malformed(b, "zone", mk.zone.malformed) ? 0 :
		       rr_nodes_zone(&b->st, &mk.zone, ev->ts_ns);
	case RR_MARKER_NODE:
		return malformed(b, "node", mk.node.malformed) ? 0 :
		       rr_nodes_node(&b->st, &mk.node, ev->ts_ns);
	case RR_MARKER_SNAPSHOT_READ:
		if (b->in_snapshot && mk.snapshot.id > 0) {
			struct rr_memcg *m = rr_state_memcg(&b->st, (uint64_t)mk.snapshot.id);

			if (!m)
				return -1;
			memcpy(m->read_lru_sum, m->v.lru_sum, sizeof(m->read_lru_sum));
			m->read_marked = true;
			m->read_ns = ev->ts_ns;
		}
		return 0;
	case RR_MARKER_SNAPSHOT_END:
		if (b->snap_logging)
			snap_log_end(b);
		if (b->in_snapshot == 1 && b->snapshot_has_root)
			mark_dying(b);
		else if (b->in_snapshot == 1 && b->snapshot_view_root)
			mark_outside_view(b, b->snapshot_view_root);
		if (b->in_snapshot == 1 && !b->start_snapshot_ns)
			b->start_snapshot_ns = ev->ts_ns ? ev->ts_ns : 1;
		b->in_snapshot = 0;
		b->snapshot_has_root = false;
		b->snapshot_view_root = 0;
		return 0;
	case RR_MARKER_MEMCG:
		if (!b->in_snapshot || on_memcg(b, &mk.memcg, ev->ts_ns))
			return b->in_snapshot ? -1 : 0;
		/* the hierarchical sizes, for the dying descendants' bound */
		return mk.memcg.malformed ? 0 : rr_nodes_memcg(&b->st, &mk.memcg, ev->ts_ns);
	case RR_MARKER_TASKS:
		return b->in_snapshot ? on_tasks(b, &mk.tasks) : 0;
	case RR_MARKER_PROACTIVE_BEGIN:
		t = rr_task_get(b, ev->pid);
		if (!t || rr_episode_begin(b, t, RR_KIND_PROACTIVE, ev->ts_ns))
			return -1;
		/* a swappiness= no kernel accepts: counted, and the episodes
		 * open (this write's too) flagged, as a memcg line's bad values */
		if (mk.proactive.malformed) {
			if (!b->stats.markers_malformed++)
				snprintf(b->stats.first_malformed_marker,
					 sizeof(b->stats.first_malformed_marker),
					 "proactive begin: %s not 0..200 or max",
					 mk.proactive.malformed);
			rr_episodes_lost(b);
		}
		if (t->ep && t->ep->kind == RR_KIND_PROACTIVE) {
			struct rr_memcg *m = mk.proactive.path[0] ?
					     rr_state_find_path(&b->st, mk.proactive.path) : NULL;

			t->ep->proactive_bytes = mk.proactive.bytes > 0 ?
						 (uint64_t)mk.proactive.bytes : 0;
			t->ep->proactive_swappiness = (int)mk.proactive.swappiness;
			t->ep->proactive_memcg_id = m ? m->id : 0;
			if (mk.proactive.path[0] && !m && !b->stats.proactive_paths_unknown++)
				snprintf(b->stats.first_unknown_path, sizeof(b->stats.first_unknown_path),
					 "%.80s%s", mk.proactive.path,
					 strlen(mk.proactive.path) > 80 ? "..." : "");
			if (mk.proactive.malformed)
				t->ep->calls_incomplete = "memory.reclaim write: its begin marker's "
							  "swappiness= is no value a kernel accepts";
		}
		return 0;
	case RR_MARKER_PROACTIVE_END: {
		int ret;

		t = rr_task_get(b, ev->pid);
		if (!t)
			return -1;
		t->last_ts = ev->ts_ns;
		for (struct rr_episode *q = t->ep; q; q = q->outer)
			if (q->kind == RR_KIND_PROACTIVE) {
				/* the recorder writes result=ok errno=0 or result=error
				 * errno=N; anything else says nothing sure */
				bool ok = !strcmp(mk.proactive.result, "ok");
				bool error = !strcmp(mk.proactive.result, "error");
				long long e = mk.proactive.errno_value;

				q->proactive_errno = ok && e == 0 ? 0 :
						     error && e > 0 && e < 4096 ? (int)e : -1;
				break;
			}
		ret = rr_episode_end(b, t, RR_KIND_PROACTIVE, ev, false);
		rr_task_put(b, t);
		return ret;
	}
	default:
		return 0;
	}
}
