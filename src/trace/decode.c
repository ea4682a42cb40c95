// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one event decoder (decode.h): the event descriptors shared by the
 * trace.dat and the text front end, the fields' symbolic values, and what
 * both note in struct rr_trace_info (skipped events, field problems, the
 * recorder's meta marker).
 */
#include "decode.h"
#include "../markers/markers.h"

#include <stdio.h>
#include <string.h>

const struct rr_event_desc rr_known_events[] = {
	/* memcg_id: 7.1's begin events and some vendor kernels' name the
	 * reclaim root (attribute.c) */
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", RR_EV_MEMCG_RECLAIM_BEGIN,
	  { [F_ID] = "memcg_id|memcg|cgroup_ino" }, 0, "gfp_flags" },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", RR_EV_MEMCG_RECLAIM_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" }, (1u << F_NR_RECLAIMED), "nr_reclaimed" },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", RR_EV_SOFTLIMIT_BEGIN, {0},
	  0, "gfp_flags" },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", RR_EV_SOFTLIMIT_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" }, (1u << F_NR_RECLAIMED), "nr_reclaimed" },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", RR_EV_DIRECT_BEGIN,
	  { [F_ORDER] = "order" }, 0, "gfp_flags" },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", RR_EV_DIRECT_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" }, (1u << F_NR_RECLAIMED), "nr_reclaimed" },
	{ "vmscan", "mm_vmscan_node_reclaim_begin", RR_EV_NODE_RECLAIM_BEGIN,
	  { [F_NID] = "nid", [F_ORDER] = "order" }, (1u << F_NID), "gfp_flags" },
	{ "vmscan", "mm_vmscan_node_reclaim_end", RR_EV_NODE_RECLAIM_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" }, (1u << F_NR_RECLAIMED), "nr_reclaimed" },
	/* zid: the run's highest_zoneidx (binary only on most releases) */
	{ "vmscan", "mm_vmscan_kswapd_wake", RR_EV_KSWAPD_WAKE,
	  { [F_NID] = "nid", [F_ORDER] = "order", [F_CLASSZONE] = "zid" },
	  (1u << F_NID), "order" },
	{ "vmscan", "mm_vmscan_kswapd_sleep", RR_EV_KSWAPD_SLEEP, { [F_NID] = "nid" },
	  (1u << F_NID), "nid" },
	{ "vmscan", "mm_vmscan_lru_isolate", RR_EV_LRU_ISOLATE,
	  { [F_NR_REQUESTED] = "nr_requested", [F_NR_SCANNED] = "nr_scanned",
	    [F_NR_TAKEN] = "nr_taken", [F_LRU] = "lru", [F_FILE] = "file",
	    [F_ORDER] = "order", [F_CLASSZONE] = "highest_zoneidx|classzone|classzone_idx",
	    [F_ID] = "memcg_id|memcg|cgroup_ino" },
	  (1u << F_NR_REQUESTED | 1u << F_NR_SCANNED | 1u << F_NR_TAKEN | 1u << F_LRU),
	  "lru|file" },
	/* ≤ v4.10: the memcg flavour of the isolate event */
	{ "vmscan", "mm_vmscan_memcg_isolate", RR_EV_LRU_ISOLATE,
	  { [F_NR_REQUESTED] = "nr_requested", [F_NR_SCANNED] = "nr_scanned",
	    [F_NR_TAKEN] = "nr_taken", [F_LRU] = "lru", [F_FILE] = "file" },
	  (1u << F_NR_REQUESTED | 1u << F_NR_SCANNED | 1u << F_NR_TAKEN | 1u << F_LRU),
	  "lru|file" },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", RR_EV_SHRINK_INACTIVE,
	  { [F_NID] = "nid", [F_NR_SCANNED] = "nr_scanned",
	    [F_NR_RECLAIMED] = "nr_reclaimed", [F_PRIORITY] = "priority",
	    [F_FLAGS] = "reclaim_flags|flags",
	    [F_NR_ACTIVATE0] = "nr_activate0|nr_activate_anon|nr_activate",
	    [F_NR_ACTIVATE1] = "nr_activate1|nr_activate_file" },
	  (1u << F_NR_SCANNED | 1u << F_NR_RECLAIMED), "reclaim_flags|flags" },
	{ "vmscan", "mm_vmscan_lru_shrink_active", RR_EV_SHRINK_ACTIVE,
	  { [F_NID] = "nid", [F_NR_TAKEN] = "nr_taken",
	    [F_NR_REFERENCED] = "nr_referenced",
	    [F_NR_DEACTIVATED] = "nr_deactivated",
	    [F_PRIORITY] = "priority", [F_FLAGS] = "reclaim_flags|flags" },
	  (1u << F_NR_TAKEN | 1u << F_NR_REFERENCED | 1u << F_NR_DEACTIVATED),
	  "reclaim_flags|flags" },
	{ "vmscan", "mm_vmscan_write_folio", RR_EV_WRITE_FOLIO,
	  { [F_FLAGS] = "reclaim_flags|flags" }, 0, "reclaim_flags|flags" },
	{ "vmscan", "mm_vmscan_writepage", RR_EV_WRITE_FOLIO,
	  { [F_FLAGS] = "reclaim_flags|flags" }, 0, "reclaim_flags|flags" },
	{ "vmscan", "mm_shrink_slab_start", RR_EV_SLAB_START,
	  { [F_NID] = "nid", [F_PRIORITY] = "priority" }, 0, NULL },
	{ "memcg", "mod_memcg_lruvec_state", RR_EV_MOD_LRUVEC,
	  { [F_ID] = "id|memcg_id", [F_ITEM] = "item", [F_VAL] = "val" },
	  (1u << F_ID | 1u << F_ITEM | 1u << F_VAL), "val" },
	{ "memcg", "count_memcg_events", RR_EV_COUNT_EVENTS,
	  { [F_ID] = "id|memcg_id", [F_ITEM] = "item", [F_VAL] = "val" },
	  (1u << F_ID | 1u << F_ITEM | 1u << F_VAL), "val" },
	{ "memcg", "memcg_flush_stats", RR_EV_FLUSH,
	  { [F_ID] = "id|memcg_id", [F_FORCE] = "force",
	    [F_NEEDS_FLUSH] = "needs_flush" },
	  (1u << F_ID | 1u << F_FORCE | 1u << F_NEEDS_FLUSH), "needs_flush" },
	{ "cgroup", "cgroup_mkdir", RR_EV_CGROUP_MKDIR,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" },
	  (1u << F_ROOT | 1u << F_LEVEL | 1u << F_ID | 1u << F_STR), "path" },
	{ "cgroup", "cgroup_rmdir", RR_EV_CGROUP_RMDIR,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" },
	  (1u << F_ROOT | 1u << F_LEVEL | 1u << F_ID | 1u << F_STR), "path" },
	{ "cgroup", "cgroup_release", RR_EV_CGROUP_RELEASE,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" },
	  (1u << F_ROOT | 1u << F_LEVEL | 1u << F_ID | 1u << F_STR), "path" },
	{ "cgroup", "cgroup_attach_task", RR_EV_ATTACH,
	  { [F_ROOT] = "dst_root", [F_LEVEL] = "dst_level", [F_ID] = "dst_id",
	    [F_PID] = "pid", [F_STR] = "dst_path" },
	  (1u << F_ROOT | 1u << F_LEVEL | 1u << F_ID | 1u << F_PID | 1u << F_STR), "comm" },
	/* a child starts in its parent's cgroups, with no attach event: the
	 * recorder takes it without the memcg: events (attribute.c) */
	{ "sched", "sched_process_fork", RR_EV_FORK, { [F_PID] = "child_pid" },
	  (1u << F_PID), "child_pid" },
	{ "ftrace", "print", RR_EV_MARKER, { [F_STR] = "buf" }, 0, NULL },
	/* the name /sys/kernel/tracing/trace prints for ftrace:print */
	{ "ftrace", "tracing_mark_write", RR_EV_MARKER, { [F_STR] = "buf" }, 0, NULL },
};

const size_t rr_nr_known_events = sizeof(rr_known_events) / sizeof(rr_known_events[0]);

static const char *const type_names[RR_EV__COUNT] = {
	[RR_EV_NONE] = "none",
	[RR_EV_MEMCG_RECLAIM_BEGIN] = "mm_vmscan_memcg_reclaim_begin",
	[RR_EV_MEMCG_RECLAIM_END] = "mm_vmscan_memcg_reclaim_end",
	[RR_EV_SOFTLIMIT_BEGIN] = "mm_vmscan_memcg_softlimit_reclaim_begin",
	[RR_EV_SOFTLIMIT_END] = "mm_vmscan_memcg_softlimit_reclaim_end",
	[RR_EV_DIRECT_BEGIN] = "mm_vmscan_direct_reclaim_begin",
	[RR_EV_DIRECT_END] = "mm_vmscan_direct_reclaim_end",
	[RR_EV_NODE_RECLAIM_BEGIN] = "mm_vmscan_node_reclaim_begin",
	[RR_EV_NODE_RECLAIM_END] = "mm_vmscan_node_reclaim_end",
	[RR_EV_KSWAPD_WAKE] = "mm_vmscan_kswapd_wake",
	[RR_EV_KSWAPD_SLEEP] = "mm_vmscan_kswapd_sleep",
	[RR_EV_LRU_ISOLATE] = "mm_vmscan_lru_isolate",
	[RR_EV_SHRINK_INACTIVE] = "mm_vmscan_lru_shrink_inactive",
	[RR_EV_SHRINK_ACTIVE] = "mm_vmscan_lru_shrink_active",
	[RR_EV_WRITE_FOLIO] = "mm_vmscan_write_folio",
	[RR_EV_SLAB_START] = "mm_shrink_slab_start",
	[RR_EV_MOD_LRUVEC] = "mod_memcg_lruvec_state",
	[RR_EV_COUNT_EVENTS] = "count_memcg_events",
	[RR_EV_FLUSH] = "memcg_flush_stats",
	[RR_EV_CGROUP_MKDIR] = "cgroup_mkdir",
	[RR_EV_CGROUP_RMDIR] = "cgroup_rmdir",
	[RR_EV_CGROUP_RELEASE] = "cgroup_release",
	[RR_EV_ATTACH] = "cgroup_attach_task",
	[RR_EV_MARKER] = "print",
	[RR_EV_FORK] = "sched_process_fork",
	[RR_EV_LRUVEC_PROBE] = "shrink_lruvec",
	[RR_EV_LRUVEC_RET] = "shrink_lruvec_ret",
	[RR_EV_ACTIVE_PROBE] = "shrink_active",
	[RR_EV_WRITE_PROBE] = "memory_reclaim",
	[RR_EV_WRITE_RET] = "memory_reclaim_ret",
};

const char *rr_event_type_name(enum rr_event_type type)
{
	if (type < 0 || type >= RR_EV__COUNT)
		return "unknown";
	return type_names[type];
}

static const struct rr_event_desc probe_descs[] = {
	{ "", RR_PROBE_EVENT, RR_EV_LRUVEC_PROBE, { 0 }, 0, NULL },
	{ "", RR_PROBE_RET_EVENT, RR_EV_LRUVEC_RET, { 0 }, 0, NULL },
	{ "", RR_PROBE_ACTIVE_EVENT, RR_EV_ACTIVE_PROBE,
	  { [F_ID] = "cgroup_id", [F_LRU] = "lru", [F_NR_REQUESTED] = "nr_to_scan",
	    [F_PRIORITY] = "priority" },
	  1u << F_ID | 1u << F_LRU | 1u << F_NR_REQUESTED | 1u << F_PRIORITY, NULL },
	{ "", RR_PROBE_WRITE_EVENT, RR_EV_WRITE_PROBE,
	  { [F_ID] = "cgroup_id", [F_NR_REQUESTED] = "nbytes", [F_STR] = "buf" }, 1u << F_ID, NULL },
	{ "", RR_PROBE_WRITE_RET_EVENT, RR_EV_WRITE_RET, { [F_VAL] = "ret" }, 1u << F_VAL, NULL },
};

const struct rr_event_desc *rr_probe_desc_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(probe_descs) / sizeof(probe_descs[0]); i++)
		if (strlen(probe_descs[i].name) == len && !memcmp(probe_descs[i].name, name, len))
			return &probe_descs[i];
	return NULL;
}

const struct rr_event_desc *rr_event_desc_find(const char *name, size_t len)
{
	for (size_t i = 0; i < rr_nr_known_events; i++)
		if (strlen(rr_known_events[i].name) == len &&
		    !memcmp(rr_known_events[i].name, name, len))
			return &rr_known_events[i];
	return NULL;
}

const char *rr_field_name(enum rr_field f)
{
	static const char *const names[F__COUNT] = {
		[F_ID] = "id", [F_ITEM] = "item", [F_VAL] = "val", [F_FORCE] = "force",
		[F_NEEDS_FLUSH] = "needs_flush", [F_LRU] = "lru", [F_FILE] = "file",
		[F_PRIORITY] = "priority", [F_NID] = "nid", [F_FLAGS] = "reclaim_flags",
		[F_NR_REQUESTED] = "nr_requested", [F_NR_SCANNED] = "nr_scanned",
		[F_NR_TAKEN] = "nr_taken", [F_NR_RECLAIMED] = "nr_reclaimed",
		[F_NR_REFERENCED] = "nr_referenced", [F_NR_DEACTIVATED] = "nr_deactivated",
		[F_NR_ACTIVATE0] = "nr_activate0", [F_NR_ACTIVATE1] = "nr_activate1",
		[F_ROOT] = "root", [F_LEVEL] = "level", [F_PID] = "pid", [F_STR] = "str",
		[F_ORDER] = "order", [F_CLASSZONE] = "classzone",
	};

	return (unsigned int)f < F__COUNT ? names[f] : "?";
}

void rr_event_set_field(struct rr_event *ev, enum rr_field f, uint64_t v)
{
	switch (f) {
	case F_ID: ev->id = v; break;
	case F_ITEM: ev->item = (int)v; break;
	case F_VAL: ev->val = (int64_t)v; break;
	case F_FORCE: ev->force = v != 0; break;
	case F_NEEDS_FLUSH: ev->needs_flush = v != 0; break;
	case F_LRU: ev->lru = (int)v; break;
	case F_FILE: ev->lru = v ? 2 : 0; break;	/* LRU_INACTIVE_{FILE,ANON} */
	case F_PRIORITY: ev->priority = (int)v; break;
	case F_NID: ev->nid = (int)v; break;
	case F_FLAGS: ev->reclaim_flags = (int)v; break;
	case F_NR_REQUESTED: ev->nr_requested = v; break;
	case F_NR_SCANNED: ev->nr_scanned = v; break;
	case F_NR_TAKEN: ev->nr_taken = v; break;
	case F_NR_RECLAIMED: ev->nr_reclaimed = v; break;
	case F_NR_REFERENCED: ev->nr_referenced = v; break;
	case F_NR_DEACTIVATED: ev->nr_deactivated = v; break;
	case F_NR_ACTIVATE0:
	case F_NR_ACTIVATE1: ev->nr_activate += v; break;
	case F_ROOT: ev->cgroup_root = (int)v; break;
	case F_LEVEL: ev->cgroup_level = (int)v; break;
	case F_PID: ev->attach_pid = (int)v; break;
	case F_ORDER: ev->order = (int)v; break;
	case F_CLASSZONE: ev->classzone = (int)v; break;
	case F_STR:
	case F__COUNT: break;
	}
}

/* printed by __print_symbolic(lru, LRU_NAMES) in mm_vmscan_lru_isolate */
int rr_parse_lru_name(const char *s, size_t len, uint64_t *out)
{
	for (size_t i = 0; i < RR_NR_LRU; i++)
		if (strlen(rr_lru_names[i]) == len && !memcmp(rr_lru_names[i], s, len)) {
			*out = i;
			return 0;
		}
	return -1;
}

int rr_parse_reclaim_flags(const char *s, size_t len, uint64_t *out)
{
	/* RECLAIM_WB_* of include/trace/events/vmscan.h */
	static const struct { const char *name; unsigned int bit; } flags[] = {
		{ "RECLAIM_WB_ANON", 0x1 }, { "RECLAIM_WB_FILE", 0x2 },
		{ "RECLAIM_WB_MIXED", 0x10 }, { "RECLAIM_WB_SYNC", 0x4 },
		{ "RECLAIM_WB_ASYNC", 0x8 },
	};
	uint64_t v = 0;
	size_t i = 0;

	while (i < len) {
		size_t j = i, k;

		while (j < len && s[j] != '|')
			j++;
		for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
			if (strlen(flags[k].name) == j - i && !memcmp(flags[k].name, s + i, j - i))
				break;
		if (k == sizeof(flags) / sizeof(flags[0]))
			return -1;
		v |= flags[k].bit;
		i = j + 1;
	}
	*out = v;
	return 0;
}

int rr_trace_info_skip_slot(struct rr_trace_info *info, const char *name)
{
	int i;

	for (i = 0; i < info->nr_skipped_names; i++)
		if (!strcmp(info->skipped[i].name, name))
			return i;
	if (info->nr_skipped_names == RR_SKIPPED_NAMES - 1) {
		/* the last slot collects the rest */
		snprintf(info->skipped[i].name, sizeof(info->skipped[i].name), "(other)");
		info->nr_skipped_names++;
		return i;
	}
	if (i == RR_SKIPPED_NAMES)
		return RR_SKIPPED_NAMES - 1;
	snprintf(info->skipped[i].name, sizeof(info->skipped[i].name), "%s", name);
	info->nr_skipped_names++;
	return i;
}

/* Each field problem's words for the table and its JSON key. */
static const struct {
	const char *name, *token;
} field_problems[RR_FP__COUNT] = {
	[RR_FP_MISSING] = { "missing", "missing" },
	[RR_FP_MISSING_KEPT] = { "missing (event kept, value unknown)", "missing_kept" },
	[RR_FP_MISSING_ZERO] = { "missing (event kept, 0 pages assumed)", "missing_zero" },
	[RR_FP_UNPARSEABLE] = { "unparseable", "unparseable" },
	[RR_FP_OUT_OF_RANGE] = { "out of range", "out_of_range" },
	[RR_FP_SENTINEL] = { "-1 printed unsigned (unknown)", "minus_one_unsigned" },
	[RR_FP_CUT] = { "line cut before it", "line_cut" },
	[RR_FP_FLAGS_MISMATCH] = { "not the type the next shrink event's flags give",
				   "flags_mismatch" },
	[RR_FP_LIST_UNKNOWN] = { "list unknown (file= and no shrink_inactive after it)",
				 "list_unknown" },
};

const char *rr_field_problem_name(enum rr_field_problem p)
{
	return (unsigned int)p < RR_FP__COUNT ? field_problems[p].name : "?";
}

const char *rr_field_problem_token(enum rr_field_problem p)
{
	return (unsigned int)p < RR_FP__COUNT ? field_problems[p].token : "?";
}

void rr_trace_info_field_problem(struct rr_trace_info *info, const char *event,
				 const char *field, enum rr_field_problem problem)
{
	int i;

	for (i = 0; i < info->nr_field_problems; i++)
		if (info->field_problems[i].problem == problem &&
		    !strncmp(info->field_problems[i].event, event,
			     sizeof(info->field_problems[i].event) - 1) &&
		    !strncmp(info->field_problems[i].field, field,
			     sizeof(info->field_problems[i].field) - 1))
			break;
	if (i == info->nr_field_problems) {
		if (i == RR_FIELD_PROBLEM_SLOTS) {
			info->field_problems_other++;
			return;
		}
		snprintf(info->field_problems[i].event, sizeof(info->field_problems[i].event),
			 "%s", event);
		snprintf(info->field_problems[i].field, sizeof(info->field_problems[i].field),
			 "%s", field);
		info->field_problems[i].problem = problem;
		info->field_problems[i].count = 0;
		info->nr_field_problems++;
	}
	info->field_problems[i].count++;
}

void rr_trace_info_count_skipped(struct rr_trace_info *info, int slot)
{
	info->nr_skipped_events++;
	if (slot >= 0 && slot < RR_SKIPPED_NAMES)
		info->skipped[slot].count++;
}

void rr_trace_info_meta(struct rr_trace_info *info, const char *text, size_t len)
{
	struct rr_marker m;

	if (rr_marker_parse(text, len, true, &m) != RR_MARKER_META)
		return;
	if (m.meta.kernel_release[0])
		snprintf(info->kernel_release, sizeof(info->kernel_release), "%.63s",
			 m.meta.kernel_release);
	if (m.meta.kernel_policy[0])
		snprintf(info->kernel_policy, sizeof(info->kernel_policy), "%s",
			 m.meta.kernel_policy);
	if (m.meta.page_size > 0 && m.meta.page_size <= INT32_MAX) {
		info->page_size_bytes = (int)m.meta.page_size;
		info->page_size_assumed = false;
	}
}
