// SPDX-License-Identifier: GPL-2.0-only
/* The text reader and its helpers: line shapes, field names, values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/common/text.h"
#include "../../src/release/release.h"
#include "../../src/trace/decode.h"
#include "../../src/trace/trace.h"
#include "unit.h"

static void test_utf8_dup(void)
{
	char *s = rr_utf8_dup("/caf\xe9/\xc3\xa9t\xc3\xa9", 11);

	CU_ASSERT_STRING_EQUAL(s, "/caf\\xe9/\xc3\xa9t\xc3\xa9");
	free(s);
	s = rr_utf8_dup("a\0b\xc0\xaf", 5);	/* NUL and an overlong '/' */
	CU_ASSERT_STRING_EQUAL(s, "a\\x00b\\xc0\\xaf");
	free(s);
	s = rr_utf8_dup("\xed\xa0\x80", 3);	/* a UTF-16 surrogate */
	CU_ASSERT_STRING_EQUAL(s, "\\xed\\xa0\\x80");
	free(s);
}

static void test_one_line(void)
{
	char buf[16];

	rr_one_line(buf, sizeof(buf), "a\tb\x1b[1m", 0);
	CU_ASSERT_STRING_EQUAL(buf, "a\\x09b\\x1b[1m");	/* 15 bytes fit */
	rr_one_line(buf, sizeof(buf), "0123456789abcdef", 0);
	CU_ASSERT_STRING_EQUAL(buf, "0123456789ab...");
	rr_one_line(buf, sizeof(buf), "short", 1);	/* the start of more */
	CU_ASSERT_STRING_EQUAL(buf, "short...");
	rr_one_line(buf, sizeof(buf), "\n\n\n\n", 0);	/* an escape is never cut */
	CU_ASSERT_STRING_EQUAL(buf, "\\x0a\\x0a\\x0a...");
	/* a C1 control (CSI, U+009B) and invalid UTF-8 are escaped too */
	rr_one_line(buf, sizeof(buf), "a\xc2\x9b" "1m", 0);
	CU_ASSERT_STRING_EQUAL(buf, "a\\xc2\\x9b1m");
	rr_one_line(buf, sizeof(buf), "\xff\xc3\xa9", 0);	/* a stray byte, then é */
	CU_ASSERT_STRING_EQUAL(buf, "\\xff\xc3\xa9");
}

static void test_symbols(void)
{
	uint64_t v = 99;

	CU_ASSERT_EQUAL(rr_parse_lru_name("active_file", 11, &v), 0);
	CU_ASSERT_EQUAL(v, 3);
	CU_ASSERT_EQUAL(rr_parse_lru_name("inactive_filex", 14, &v), -1);
	CU_ASSERT_EQUAL(rr_parse_reclaim_flags("RECLAIM_WB_ANON|RECLAIM_WB_ASYNC", 32, &v), 0);
	CU_ASSERT_EQUAL(v, 0x9);
	CU_ASSERT_EQUAL(rr_parse_reclaim_flags("RECLAIM_WB_FILE|BOGUS", 21, &v), -1);
	CU_ASSERT_PTR_NOT_NULL(rr_event_desc_find("mm_vmscan_writepage", 19));
	CU_ASSERT_EQUAL(rr_event_desc_find("tracing_mark_write", 18)->type, RR_EV_MARKER);
	CU_ASSERT_PTR_NULL(rr_event_desc_find("mm_vmscan_lru", 13));
}

#define MAX_EV 16

struct got {
	struct rr_event ev[MAX_EV];
	char str[MAX_EV][64];
	int n;
};

static int collect(const struct rr_event *ev, void *ctx)
{
	struct got *g = ctx;

	if (g->n < MAX_EV) {
		g->ev[g->n] = *ev;
		if (ev->str)
			snprintf(g->str[g->n], sizeof(g->str[0]), "%.*s", ev->str_len, ev->str);
		g->n++;
	}
	return 0;
}

/* Read @text as a text trace; return the number of events, or -1. */
static int read_text(const char *text, struct got *g, struct rr_trace_info *info)
{
	char path[] = "/tmp/rr-unit-text.XXXXXX";
	struct rr_error err = { "", "" };
	struct rr_trace *t;
	int fd = mkstemp(path), ret;

	memset(g, 0, sizeof(*g));
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	t = rr_trace_open(path, &err);
	ret = t ? rr_trace_for_each(t, collect, g, &err) : -1;
	if (t && info)
		*info = *rr_trace_info(t);
	rr_trace_close(t);
	unlink(path);
	return ret ? -1 : g->n;
}

struct walk {
	struct rr_trace *t;
	uint64_t events;
	int last, backwards;
	unsigned int cpus;	/* bit c: an event on CPU c */
	int bad_cpu;		/* events on a CPU outside 0..31 */
};

/* (on the consumer's thread, as the replay reads it) */
static int watch(const struct rr_event *ev, void *ctx)
{
	struct walk *w = ctx;
	int p = rr_trace_progress(w->t);

	w->events++;
	if (ev->cpu >= 0 && ev->cpu < 32)
		w->cpus |= 1u << ev->cpu;
	else
		w->bad_cpu++;
	if (p < w->last)
		w->backwards++;
	w->last = p;
	return 0;
}

/* How far a walk is: rr_trace_progress() ends near 1000 per mille for every
 * bundled v6 trace, whose records' offsets lie in one section per CPU walked
 * in time order; a compressed v7 trace's offsets are those of the data
 * uncompressed, so it cannot tell (-1).  Never backwards.  (These traces
 * have their events in an instance buffer, and traces/extract-file-limit.dat
 * in the second of two.) */
static void test_progress(void)
{
	static const struct {
		const char *file;
		int lo, hi;
	} cases[] = {
		{ "traces/anon-swap.dat", 990, 1000 },
		{ "traces/file-limit.dat", 950, 1000 },
		{ "traces/offline-child.dat", 950, 1000 },
		{ "traces/extract-file-limit.dat", -1, -1 },	/* zstd */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rr_error err = { "", "" };
		struct rr_trace *t = rr_trace_open(cases[i].file, &err);
		struct walk w = { t, 0, t ? rr_trace_progress(t) : 0, 0, 0, 0 };
		int p;

		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_EQUAL(rr_trace_progress(t), cases[i].lo < 0 ? -1 : 0);
		CU_ASSERT_EQUAL(rr_trace_for_each(t, watch, &w, &err), 0);
		p = rr_trace_progress(t);
		if (p < cases[i].lo || p > cases[i].hi)
			fprintf(stderr, "%s: progress %d per mille at the end\n", cases[i].file, p);
		CU_ASSERT(p >= cases[i].lo && p <= cases[i].hi);
		CU_ASSERT_EQUAL(w.backwards, 0);
		/* the CPU of a record of an instance buffer is its own, not
		 * counted after the CPUs of the buffers before (a bug fixed) */
		CU_ASSERT_EQUAL(w.cpus, 0x3);	/* both CPUs, as trace-cmd report shows */
		CU_ASSERT_EQUAL(w.bad_cpu, 0);
		CU_ASSERT(w.events > 1000);
		rr_trace_close(t);
	}
}

static void test_line_shapes(void)
{
	struct rr_trace_info info;
	struct got g;

	/* ftrace with tgid and flags; trace-cmd -l; perf; --ts-diff; bare */
	CU_ASSERT_EQUAL(read_text(
		"# tracer: nop\n"
		"   kworker/u8:2-77 (     77) [003] d..1.  12.500000: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=40 nr_skipped=0 nr_taken=30 lru=active_anon\n"
		"  my-task  0d..1.   12.600001: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=30 nr_reclaimed=7 nr_activate_anon=2 nr_activate_file=3 priority=9 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n"
		" stress  4242 [001] 12.700000: memcg:mod_memcg_lruvec_state: memcg_id=18446744073 item=2 val=-32\n"
		"   cat-5 [000]  12.800000: (+100000) mm_vmscan_memcg_reclaim_end: nr_reclaimed=38\n"
		"CPU:1 [LOST 7 EVENTS]\n"
		"cgroup_mkdir: root=4 id=12 level=2 path=/a b/c d\n"
		"   x-9 [000] 12.900000: print: 0xffffffff8149ab1a: reclaim-replay: hello\n",
		&g, &info), 6);
	CU_ASSERT_EQUAL(g.ev[0].type, RR_EV_LRU_ISOLATE);
	CU_ASSERT_EQUAL(g.ev[0].pid, 77);
	CU_ASSERT_EQUAL(g.ev[0].cpu, 3);
	CU_ASSERT_EQUAL(g.ev[0].ts_ns, 12500000000ULL);
	CU_ASSERT_EQUAL(g.ev[0].lru, 1);
	CU_ASSERT_EQUAL(g.ev[0].nr_requested, 32);
	CU_ASSERT_EQUAL(g.ev[0].nr_scanned, 40);
	CU_ASSERT_EQUAL(g.ev[0].nr_taken, 30);
	CU_ASSERT_EQUAL(g.ev[1].type, RR_EV_SHRINK_INACTIVE);
	CU_ASSERT_EQUAL(g.ev[1].pid, 0);	/* "my-task": no pid after the dash */
	CU_ASSERT_EQUAL(g.ev[1].ts_ns, 12600001000ULL);
	CU_ASSERT_EQUAL(g.ev[1].nr_activate, 5);
	CU_ASSERT_EQUAL(g.ev[1].priority, 9);
	CU_ASSERT_EQUAL(g.ev[1].reclaim_flags, 0x9);
	CU_ASSERT_EQUAL(g.ev[2].type, RR_EV_MOD_LRUVEC);
	CU_ASSERT_EQUAL(g.ev[2].pid, 4242);
	CU_ASSERT_EQUAL(g.ev[2].cpu, 1);
	CU_ASSERT_EQUAL(g.ev[2].id, 18446744073ULL);
	CU_ASSERT_EQUAL(g.ev[2].val, -32);
	CU_ASSERT_EQUAL(g.ev[3].type, RR_EV_MEMCG_RECLAIM_END);
	CU_ASSERT_EQUAL(g.ev[3].nr_reclaimed, 38);
	CU_ASSERT_EQUAL(g.ev[4].type, RR_EV_CGROUP_MKDIR);
	CU_ASSERT_EQUAL(g.ev[4].lost_before, 7);
	CU_ASSERT_STRING_EQUAL(g.str[4], "/a b/c d");
	CU_ASSERT_EQUAL(g.ev[4].cgroup_level, 2);
	CU_ASSERT_EQUAL(g.ev[5].type, RR_EV_MARKER);
	CU_ASSERT_STRING_EQUAL(g.str[5], "reclaim-replay: hello");
	CU_ASSERT_EQUAL(info.nr_missed_events, 7);
	CU_ASSERT(info.timestamps_synthetic);	/* the bare line */
	CU_ASSERT_EQUAL(info.format, RR_FORMAT_TEXT);
}

static void test_old_fields_and_bad_values(void)
{
	struct rr_trace_info info;
	struct got g;

	/* ≤ v4.10: file=1 and a single nr_activate */
	CU_ASSERT_EQUAL(read_text(
		"  a-1 [000] 1.000000: mm_vmscan_lru_isolate: isolate_mode=1 order=0 nr_requested=32 nr_scanned=32 nr_taken=32 file=1\n"
		"  a-1 [000] 1.000001: mm_vmscan_lru_shrink_inactive: nid=0 zid=2 nr_scanned=32 nr_reclaimed=31 nr_activate=4 priority=12 flags=RECLAIM_WB_FILE\n"
		"  a-1 [000] 1.000002: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=-32 nr_reclaimed=1 priority=12\n"
		"  a-1 [000] 1.000003: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=3 nr_reclaimed=1 priority=13\n"
		"  a-1 [000] 1.000004: mm_vmscan_memcg_reclaim_end: nr_reclaimed=99999999999999999999\n"
		"  a-1 [000] 1.000005: mm_vmscan_memcg_reclaim_end: nr_reclaimed=12\n",
		&g, &info), 3);
	CU_ASSERT_EQUAL(g.ev[0].lru, 2);
	CU_ASSERT_EQUAL(g.ev[1].nr_activate, 4);
	CU_ASSERT_EQUAL(g.ev[1].nr_reclaimed, 31);
	CU_ASSERT_EQUAL(g.ev[2].nr_reclaimed, 12);
	CU_ASSERT_EQUAL(g.ev[2].lost_before, 3);	/* the three dropped lines */
	CU_ASSERT_EQUAL(info.malformed_events, 3);
	CU_ASSERT_EQUAL(info.era_hi, 410);
}


/* The count of field @field of @event with @problem, 0 if none. */
static uint64_t fp(const struct rr_trace_info *info, const char *event, const char *field,
		   enum rr_field_problem problem)
{
	for (int i = 0; i < info->nr_field_problems; i++)
		if (!strcmp(info->field_problems[i].event, event) &&
		    !strcmp(info->field_problems[i].field, field) &&
		    info->field_problems[i].problem == problem)
			return info->field_problems[i].count;
	return 0;
}

#define ISO "mm_vmscan_lru_isolate"
#define SHI "mm_vmscan_lru_shrink_inactive"

/* numeric lru= is the enum lru_list number; its type is checked against the
 * flags of the task's next shrink event */
static void test_numeric_lru(void)
{
	struct rr_trace_info info;
	struct got g;

	CU_ASSERT_EQUAL(read_text(
		"  a-1 [000] 1.000000: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=2\n"
		"  b-2 [001] 1.000001: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=8 nr_scanned=8 nr_skipped=0 nr_taken=8 lru=3\n"
		"  a-1 [000] 1.000002: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
		"  b-2 [001] 1.000003: mm_vmscan_lru_shrink_active: nid=0 nr_taken=8 nr_active=0 nr_deactivated=8 nr_referenced=0 priority=11 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
		/* lru=0 (inactive_anon), but its shrink event says FILE: dropped */
		"  a-1 [000] 1.000004: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=0\n"
		"  a-1 [000] 1.000005: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
		"  a-1 [000] 1.000006: mm_vmscan_memcg_reclaim_end: nr_reclaimed=30\n",
		&g, &info), 5);
	/* file order kept: a's isolate waited for its shrink event, b's too */
	CU_ASSERT_EQUAL(g.ev[0].type, RR_EV_LRU_ISOLATE);
	CU_ASSERT_EQUAL(g.ev[0].lru, RR_LRU_INACTIVE_FILE);
	CU_ASSERT_EQUAL(g.ev[0].pid, 1);
	CU_ASSERT_EQUAL(g.ev[1].lru, RR_LRU_ACTIVE_FILE);
	CU_ASSERT_EQUAL(g.ev[1].pid, 2);
	CU_ASSERT_EQUAL(g.ev[2].type, RR_EV_SHRINK_INACTIVE);
	CU_ASSERT_EQUAL(g.ev[2].priority, 12);
	CU_ASSERT_EQUAL(g.ev[3].type, RR_EV_SHRINK_ACTIVE);
	CU_ASSERT_EQUAL(g.ev[3].priority, 11);
	CU_ASSERT_EQUAL(g.ev[4].type, RR_EV_MEMCG_RECLAIM_END);
	CU_ASSERT_EQUAL(g.ev[4].lost_before, 2);	/* the batch's two events */
	CU_ASSERT_EQUAL(fp(&info, ISO, "lru", RR_FP_FLAGS_MISMATCH), 1);
	CU_ASSERT_EQUAL(info.malformed_events, 2);
	CU_ASSERT_EQUAL(info.nr_field_problems, 1);
}

/* <= v4.10: file= names the type; the list is the inactive one only when a
 * shrink_inactive of the task follows */
static void test_file_isolate(void)
{
	struct rr_trace_info info;
	struct got g;

	CU_ASSERT_EQUAL(read_text(
		"  a-1 [000] 1.000000: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 file=0\n"
		"  a-1 [000] 1.000001: mm_vmscan_lru_shrink_inactive: nid=0 zid=2 nr_scanned=32 nr_reclaimed=20 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n"
		/* shrink_active_list() of <= v4.10: no event of its own */
		"  a-1 [000] 1.000002: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=16 nr_scanned=16 nr_skipped=0 nr_taken=16 file=1\n"
		"  a-1 [000] 1.000003: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 file=1\n"
		"  a-1 [000] 1.000004: mm_vmscan_lru_shrink_inactive: nid=0 zid=2 nr_scanned=32 nr_reclaimed=31 priority=11 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
		/* the trace ends after an isolate: its list is not known */
		"  a-1 [000] 1.000005: mm_vmscan_lru_isolate: isolate_mode=0 classzone=3 order=0 nr_requested=4 nr_scanned=4 nr_skipped=0 nr_taken=4 file=1\n",
		&g, &info), 4);
	CU_ASSERT_EQUAL(g.ev[0].lru, RR_LRU_INACTIVE_ANON);
	CU_ASSERT_EQUAL(g.ev[1].nr_reclaimed, 20);
	CU_ASSERT_EQUAL(g.ev[1].nr_activate, 0);	/* not printed: 0 assumed, counted */
	CU_ASSERT_EQUAL(g.ev[2].lru, RR_LRU_INACTIVE_FILE);
	CU_ASSERT_EQUAL(g.ev[2].nr_requested, 32);
	CU_ASSERT_EQUAL(g.ev[2].lost_before, 1);	/* the 16-page batch */
	CU_ASSERT_EQUAL(g.ev[3].priority, 11);
	CU_ASSERT_EQUAL(fp(&info, ISO, "file", RR_FP_LIST_UNKNOWN), 2);
	CU_ASSERT_EQUAL(fp(&info, SHI, "nr_activate", RR_FP_MISSING_ZERO), 2);
	CU_ASSERT_EQUAL(info.malformed_events, 2);
}

/* missing and cut fields; -1 printed unsigned */
static void test_strict_fields(void)
{
	struct rr_trace_info info;
	struct got g;

	CU_ASSERT_EQUAL(read_text(
		/* no lru= or file=: not an inactive anon batch, dropped */
		"  a-1 [000] 1.000000: mm_vmscan_lru_isolate: classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32\n"
		/* no priority=: kept, priority unknown (-1, not 0) */
		"  a-1 [000] 1.000001: mm_vmscan_lru_isolate: classzone=3 order=0 nr_requested=8 nr_scanned=8 nr_skipped=0 nr_taken=8 lru=inactive_anon\n"
		"  a-1 [000] 1.000002: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n"
		/* cut after nr_reclaimed=3, and a value cut: priority= */
		"  a-1 [000] 1.000003: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=3\n"
		"  a-1 [000] 1.000004: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority= flags=RECLAIM_WB_ANON\n"
		"  a-1 [000] 1.000005: mm_vmscan_lru_shrink_active: nid=0 nr_taken=16 nr_active=0 nr_deactivated=16 nr_referenced=0 priority=12 flags=RECLAIM_WB_FI\n"
		/* -1 printed unsigned: (u32)-1 and (u64)-1 */
		"  a-1 [000] 1.000006: mm_vmscan_memcg_reclaim_end: nr_reclaimed=4294967295\n"
		"  a-1 [000] 1.000007: mm_vmscan_direct_reclaim_end: nr_reclaimed=18446744073709551615\n"
		"  a-1 [000] 1.000008: mm_vmscan_memcg_reclaim_end: nr_reclaimed=4294967294\n"
		"  a-1 [000] 1.000009: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 0000000012345678: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 10 delta 0 total_scan 0 priority\n",
		&g, &info), 4);
	CU_ASSERT_EQUAL(g.ev[0].type, RR_EV_LRU_ISOLATE);
	CU_ASSERT_EQUAL(g.ev[0].lru, RR_LRU_INACTIVE_ANON);
	CU_ASSERT_EQUAL(g.ev[0].nr_requested, 8);
	CU_ASSERT_EQUAL(g.ev[0].lost_before, 1);
	CU_ASSERT_EQUAL(g.ev[1].type, RR_EV_SHRINK_INACTIVE);
	CU_ASSERT_EQUAL(g.ev[1].priority, -1);
	CU_ASSERT_EQUAL(g.ev[2].type, RR_EV_MEMCG_RECLAIM_END);
	CU_ASSERT_EQUAL(g.ev[2].nr_reclaimed, 4294967294ULL);	/* a count, if a big one */
	CU_ASSERT_EQUAL(g.ev[2].lost_before, 5);
	CU_ASSERT_EQUAL(g.ev[3].type, RR_EV_SLAB_START);
	CU_ASSERT_EQUAL(g.ev[3].priority, -1);
	CU_ASSERT_EQUAL(fp(&info, ISO, "lru", RR_FP_MISSING), 1);
	CU_ASSERT_EQUAL(fp(&info, SHI, "priority", RR_FP_MISSING_KEPT), 1);
	CU_ASSERT_EQUAL(fp(&info, SHI, "flags", RR_FP_CUT), 1);
	CU_ASSERT_EQUAL(fp(&info, SHI, "priority", RR_FP_UNPARSEABLE), 1);
	CU_ASSERT_EQUAL(fp(&info, "mm_vmscan_lru_shrink_active", "flags", RR_FP_UNPARSEABLE), 1);
	CU_ASSERT_EQUAL(fp(&info, "mm_vmscan_memcg_reclaim_end", "nr_reclaimed",
			   RR_FP_SENTINEL), 1);
	CU_ASSERT_EQUAL(fp(&info, "mm_vmscan_direct_reclaim_end", "nr_reclaimed",
			   RR_FP_SENTINEL), 1);
	CU_ASSERT_EQUAL(fp(&info, "mm_shrink_slab_start", "priority", RR_FP_MISSING_KEPT), 1);
	CU_ASSERT_EQUAL(info.malformed_events, 6);
	CU_ASSERT(rr_field_is_sentinel(F_NR_SCANNED, UINT32_MAX));
	CU_ASSERT(!rr_field_is_sentinel(F_VAL, UINT64_MAX));	/* val=-1 is a delta */
	CU_ASSERT(!rr_field_in_range(F_NR_TAKEN, UINT32_MAX));
}

/* shrink events alone are a trace (their isolates were not recorded) */
static void test_shrink_only(void)
{
	struct rr_trace_info info;
	struct got g;

	CU_ASSERT_EQUAL(read_text(
		"  a-1 [000] 1.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n",
		&g, &info), 1);
	CU_ASSERT_EQUAL(g.ev[0].nr_reclaimed, 30);
	CU_ASSERT_EQUAL(info.nr_field_problems, 0);
}

/* Every switch rr_kernel_model_init() derives changes at a release of the
 * rule table, and the table's ranges hold what they say */
static void test_rule_changes(void)
{
	static const int last_minor[] = { [4] = 20, [5] = 19, [6] = 18 };
	struct rr_kernel_model prev = { 0 }, km;
	const struct rr_rule_change *c;
	char rel[16];
	int prev_code = 0;

	for (int major = 4; major <= 6; major++)
		for (int minor = 0; minor <= last_minor[major]; minor++) {
			int code = major * 100 + minor;

			snprintf(rel, sizeof(rel), "%d.%d", major, minor);
			CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, rel), 0);
			if (prev_code) {
				bool differ = prev.denominator_plus_one != km.denominator_plus_one ||
					prev.cost_fractions != km.cost_fractions ||
					prev.cost_rotations_x32 != km.cost_rotations_x32 ||
					prev.cost_zero_returns != km.cost_zero_returns ||
					prev.cut_one_more_round != km.cut_one_more_round ||
					prev.partial_walk != km.partial_walk ||
					prev.full_walk_retry != km.full_walk_retry ||
					prev.swappiness_max != km.swappiness_max ||
					prev.proactive_swappiness_key != km.proactive_swappiness_key ||
					prev.proactive_swappiness_max != km.proactive_swappiness_max ||
					prev.kswapd_progress_max != km.kswapd_progress_max ||
					prev.kswapd_cache_trim_retry != km.kswapd_cache_trim_retry ||
					prev.limit_walk_stops != km.limit_walk_stops ||
					prev.cache_trim_per_lruvec != km.cache_trim_per_lruvec;

				if (differ && rr_rule_changes(prev_code, code, &c) != 1)
					CU_FAIL("a kernel-model switch changes at a release the "
						"rule table does not list");
			}
			prev = km;
			prev_code = code;
		}
	/* the fixtures' ranges */
	CU_ASSERT_EQUAL(rr_rule_changes(411, 501, &c), 1);	/* linux-4.19.txt */
	CU_ASSERT_EQUAL(c[0].release, 420);
	CU_ASSERT_EQUAL(rr_rule_changes(502, 517, &c), 6);	/* linux-5.4/5.15.txt */
	CU_ASSERT_EQUAL(c[0].release, 504);	/* the full walk (1ba6fc9af35b) */
	CU_ASSERT_EQUAL(c[1].release, 505);	/* cache trim at the root (b91ac374346b) */
	CU_ASSERT_EQUAL(c[5].release, 515);
	CU_ASSERT_EQUAL(rr_rule_changes(518, 606, &c), 4);	/* linux-6.6.txt */
	CU_ASSERT_EQUAL(rr_rule_changes(613, 618, &c), 2);	/* linux-6.18.txt */
	CU_ASSERT_EQUAL(rr_rule_changes(612, 615, &c), 0);	/* one rule set */
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_EQUAL(rr_rule_changes(618, 618, &c), 0);
	rr_release_name(517, rel, sizeof(rel));
	CU_ASSERT_STRING_EQUAL(rel, "5.17");
}

int register_trace_tests(void)
{
	CU_pSuite s = CU_add_suite("trace", NULL, NULL);

	if (!s || !CU_add_test(s, "UTF-8 escaping of cgroup names", test_utf8_dup) ||
	    !CU_add_test(s, "symbolic values and event names", test_symbols) ||
	    !CU_add_test(s, "one printable line", test_one_line) ||
	    !CU_add_test(s, "text line shapes", test_line_shapes) ||
	    !CU_add_test(s, "how far a walk is", test_progress) ||
	    !CU_add_test(s, "old field names, values no kernel prints", test_old_fields_and_bad_values) ||
	    !CU_add_test(s, "numeric lru= checked against the shrink flags", test_numeric_lru) ||
	    !CU_add_test(s, "file= isolates of <= v4.10", test_file_isolate) ||
	    !CU_add_test(s, "missing, cut and -1 fields, by field", test_strict_fields) ||
	    !CU_add_test(s, "a trace of shrink events only", test_shrink_only) ||
	    !CU_add_test(s, "the model's rule changes by release", test_rule_changes))
		return -1;
	return 0;
}
