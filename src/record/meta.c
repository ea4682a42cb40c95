// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the recorder writes into the trace besides events, as marker lines
 * (src/markers): the meta line, the snapshots of the memory cgroups, the
 * zones and nodes, and the memory.reclaim writes of --proactive.
 */
#include "record-local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

static long long swap_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char key[64];
	long long v, total = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld kB", key, &v) == 2)
		if (!strcmp(key, "SwapTotal:"))
			total = v;
	fclose(f);
	return total;
}

int rr_rec_marker(struct rec *r, const char *line)
{
	return tracefs_printf(r->inst, RR_MARKER_PREFIX " %s\n", line) < 0 ? -1 : 0;
}

static int marker_cb(const char *line, void *ctx)
{
	return rr_rec_marker(ctx, line);
}

int rr_rec_snapshot(struct rec *r, const char *when, int *count, int *nodes)
{
	struct rr_marker_snapshot ms = { .cgroups = -1 };
	char line[256];
	long long left_out = 0;
	int n;

	snprintf(ms.when, sizeof(ms.when), "%s", when);
	rr_marker_format_snapshot(line, sizeof(line), true, &ms);
	if (rr_rec_marker(r, line))
		return -1;
	/* the zones' watermarks and free pages, the nodes' counters (global
	 * reclaim's inputs), then the memcgs */
	n = rr_zone_snapshot("/proc", "/sys", marker_cb, r, r->err);
	if (n < 0)
		return -1;
	if (nodes)
		*nodes = n;
	/* "zones": the zones and nodes alone, before any event (a kswapd run
	 * that ends before the start snapshot reads its watermarks) */
	n = strcmp(when, "zones") ?
	    rr_cgroup_snapshot(&r->fs, r->page_size, r->vm_swappiness, marker_cb, r, r->err) : 0;
	if (n < 0)
		return -1;
	if (count)
		*count = n;
	ms.cgroups = n;
	/* without the memcg events no batch says whose memcg it scanned: the
	 * replay takes it from the reclaiming task's memcg */
	if (r->follow_tasks && strcmp(when, "zones")) {
		if (rr_cgroup_tasks(&r->fs, RR_RECORD_MAX_TASKS_PER_SNAPSHOT, marker_cb, r, &left_out,
				    r->err) < 0)
			return -1;
		r->tasks_left_out += left_out;
	}
	rr_marker_format_snapshot(line, sizeof(line), false, &ms);
	return rr_rec_marker(r, line);
}

int rr_rec_write_meta(struct rec *r, const char *lruvec_filter, const char *events_filter)
{
	struct rr_marker_meta meta = {
		.page_size = r->page_size, .cpus = r->nr_cpus, .cgroup_version = r->fs.version,
		.memory_hierarchy_id = r->fs.hierarchy_id, .swap_total_kb = swap_total_kb(),
		.vm_swappiness = r->vm_swappiness, .mglru = "absent",
		.buffer_kb = r->o->buffer_kb, .duration_s = r->o->duration_s,
		.snapshot_interval_ms = r->snapshot_interval_ms,
	};
	struct rr_marker_items items = {
		.nr_lru_base = r->items.nr_lru_base,
		.pgscan_kswapd = r->items.pgscan[0], .pgscan_direct = r->items.pgscan[1],
		.pgscan_proactive = r->items.pgscan[3], .pgrefill = r->items.pgrefill,
	};
	struct rr_marker_vm vm;
	char line[2048];
	struct utsname u;
	FILE *f;

	f = fopen("/sys/kernel/mm/lru_gen/enabled", "r");
	if (f) {
		if (!fgets(meta.mglru, sizeof(meta.mglru), f))
			snprintf(meta.mglru, sizeof(meta.mglru), "unknown");
		meta.mglru[strcspn(meta.mglru, "\n")] = 0;
		fclose(f);
	}
	uname(&u);
	snprintf(meta.kernel_release, sizeof(meta.kernel_release), "%s", u.release);
	if (r->o->kernel_policy)
		snprintf(meta.kernel_policy, sizeof(meta.kernel_policy), "%s", r->o->kernel_policy);
	snprintf(meta.memcg_events, sizeof(meta.memcg_events), "%s",
		 r->memcg_events == RR_RECORD_MEMCG_EVENTS_ON ? "on" :
		 r->memcg_events == RR_RECORD_MEMCG_EVENTS_OFF ? "off" : "absent");
	rr_marker_format_meta(line, sizeof(line), &meta);
	if (rr_rec_marker(r, line))
		return -1;
	snprintf(items.source, sizeof(items.source), "%s", r->items.source);
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		items.workingset_refault[t] = r->items.workingset_refault[t];
		items.workingset_activate[t] = r->items.workingset_activate[t];
		items.workingset_restore[t] = r->items.workingset_restore[t];
	}
	rr_marker_format_items(line, sizeof(line), &items);
	if (rr_rec_marker(r, line))
		return -1;
	rr_vm_read("/proc", "/sys", &vm);
	rr_marker_format_vm(line, sizeof(line), &vm);
	if (rr_rec_marker(r, line))
		return -1;
	if (r->memcg_events != RR_RECORD_MEMCG_EVENTS_ON)
		return 0;	/* no filters: the events are off */
	rr_marker_format_filter(line, sizeof(line), "mod_memcg_lruvec_state", lruvec_filter);
	if (rr_rec_marker(r, line))
		return -1;
	rr_marker_format_filter(line, sizeof(line), "count_memcg_events", events_filter);
	return rr_rec_marker(r, line);
}

/* One memory.reclaim write, with markers before and after (§10). */
void rr_rec_proactive(struct rec *r)
{
	rr_proactive_write(&r->fs, r->cgroup_dir, r->o->proactive_bytes,
			   r->o->proactive_swappiness, marker_cb, r);
}
