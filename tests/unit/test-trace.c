// SPDX-License-Identifier: GPL-2.0-only
/* The text reader and its helpers: line shapes, field names, values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/common/text.h"
#include "../../src/trace/event-desc.h"
#include "../../src/trace/reader.h"
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

int register_trace_tests(void)
{
	CU_pSuite s = CU_add_suite("trace", NULL, NULL);

	if (!s || !CU_add_test(s, "UTF-8 escaping of cgroup names", test_utf8_dup) ||
	    !CU_add_test(s, "symbolic values and event names", test_symbols) ||
	    !CU_add_test(s, "one printable line", test_one_line) ||
	    !CU_add_test(s, "text line shapes", test_line_shapes) ||
	    !CU_add_test(s, "how far a walk is", test_progress) ||
	    !CU_add_test(s, "old field names, values no kernel prints", test_old_fields_and_bad_values))
		return -1;
	return 0;
}
