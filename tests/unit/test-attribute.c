// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution without memcg: events (src/episode/attribute.c,
 * docs/kernel-model.md §24) on hand-made event streams of a kernel before
 * 6.13: vmscan and cgroup events and the recorder's snapshot markers only.
 * Each case holds the memcg and the basis the walk gives each batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/episode/episode.h"
#include "feed.h"
#include "unit.h"

#define MAX_EPISODES 4
#define MAX_BATCHES 16

struct got {
	int n;
	uint64_t memcg[MAX_EPISODES][MAX_BATCHES];
	uint8_t attr[MAX_EPISODES][MAX_BATCHES];
	size_t nr_batches[MAX_EPISODES];
	bool stale[MAX_EPISODES][MAX_BATCHES];
};

static int collect(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct got *g = ctx;

	(void)st;
	if (g->n >= MAX_EPISODES || !ep->replayable)
		return 0;
	g->nr_batches[g->n] = ep->nr_batches;
	for (size_t i = 0; i < ep->nr_batches && i < MAX_BATCHES; i++) {
		g->memcg[g->n][i] = ep->batches[i].memcg_id;
		g->attr[g->n][i] = ep->batches[i].attr;
		g->stale[g->n][i] = ep->ctx && ep->ctx[i].sizes_stale;
	}
	g->n++;
	return 0;
}

static struct rr_builder *builder(struct got *g, bool drop)
{
	struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = 0,
				     .infer_attribution = true, .drop_memcg_events = drop };

	memset(g, 0, sizeof(*g));
	return rr_builder_new(&o, collect, g);
}

static void memcg_line(struct rr_builder *b, uint64_t id, int level, uint64_t inactive_file,
		       long long limit_bytes, const char *path)
{
	char line[256];

	snprintf(line, sizeof(line), "reclaim-replay: memcg id=%llu level=%d swappiness=60 "
		 "inactive_anon=0 active_anon=0 inactive_file=%llu active_file=0 "
		 "unevictable=0 limit_bytes=%lld min_bytes=0 low_bytes=0 path=%s",
		 (unsigned long long)id, level, (unsigned long long)inactive_file, limit_bytes,
		 path);
	unit_marker(b, line);
}

static void begin(struct rr_builder *b)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .order = 0 });
}

static void end(struct rr_builder *b, uint64_t reclaimed)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = reclaimed });
}

/* one inactive file batch that reclaims what it takes; with @truth, the
 * memcg: events a 6.13 kernel prints after the isolate */
static void batch(struct rr_builder *b, uint64_t req, int prio, uint64_t truth)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = RR_LRU_INACTIVE_FILE,
				   .nr_requested = req, .nr_scanned = req, .nr_taken = req,
				   .order = -1, .classzone = -1 });
	if (truth)
		unit_feed(b, (struct rr_event){ .type = RR_EV_MOD_LRUVEC, .id = truth,
					   .item = RR_LRU_INACTIVE_FILE, .val = -(int64_t)req });
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = req,
				   .nr_reclaimed = req, .priority = prio });
}

static void slab(struct rr_builder *b, int prio)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_SLAB_START, .priority = prio });
}

/* A recorder's trace: the meta, and a start snapshot of the root and a
 * parent P (10) with a 64 MiB limit and children C (11) and D (12) */
static void tree(struct rr_builder *b, uint64_t c_pages, uint64_t d_pages)
{
	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.6.0 page_size=4096 "
		  "memory_hierarchy_id=4 swap_total_kb=0 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	memcg_line(b, 1, 0, 0, -1, "/");
	memcg_line(b, 10, 1, 0, 67108864, "/P");
	memcg_line(b, 11, 2, c_pages, -1, "/P/C");
	memcg_line(b, 12, 2, d_pages, -1, "/P/D");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=4");
}

/*
 * The parent's limit, the charging task in no memcg the trace names: the
 * root is the only memcg with a limit.  Pass 12: the parent's visit ends
 * with shrink_slab() and no batch, C gives 3 pages, which ends its
 * inactive file run (fewer than SWAP_CLUSTER_MAX), so the 2-page batch is
 * D's.  Pass 11: the same.  Every batch is decided by the walk.
 */
static void test_walk_two_children(void)
{
	struct got g;
	struct rr_builder *b = builder(&g, false);

	tree(b, 14000, 9000);
	begin(b);
	slab(b, 12);
	batch(b, 3, 12, 0);
	batch(b, 2, 12, 0);
	slab(b, 11);
	batch(b, 6, 11, 0);
	batch(b, 4, 11, 0);
	end(b, 15);
	CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(g.n, 1);
	CU_ASSERT_EQUAL(g.nr_batches[0], 4);
	CU_ASSERT_EQUAL(g.memcg[0][0], 11);
	CU_ASSERT_EQUAL(g.memcg[0][1], 12);
	CU_ASSERT_EQUAL(g.memcg[0][2], 11);
	CU_ASSERT_EQUAL(g.memcg[0][3], 12);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(g.attr[0][i], RR_ATTR_WALK);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr[RR_ATTR_WALK], 4);
	rr_builder_free(b);
}

/*
 * One batch in the pass and two children that both hold inactive file
 * pages, read 2 s before: either may have given it (C's size then was below
 * 1 << 12, but its tasks may have been charged since).  Marked ambiguous; the likelier (the larger size, then the first
 * in the walk) is taken.  The dropped memcg: event checks it.
 */
static void test_ambiguous_one_batch(void)
{
	struct got g;
	struct rr_builder *b = builder(&g, true);

	tree(b, 3000, 9000);	/* C: 3000 >> 12 = 0; D: 9000 >> 12 = 2 */
	unit_ts += 2000000000ULL;	/* 2 s on: C may have grown since, unseen */
	begin(b);
	slab(b, 12);
	batch(b, 2, 12, 12);
	end(b, 2);
	CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(g.n, 1);
	/* D fits at priority 12 (FIT_YES), C only may (its pages >> 12 are
	 * 0, but charges since the snapshot are not seen): two fits */
	CU_ASSERT_EQUAL(g.memcg[0][0], 12);
	CU_ASSERT_EQUAL(g.attr[0][0], RR_ATTR_AMBIGUOUS);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_checked, 1);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_ambiguous_agree, 1);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_wrong, 0);
	rr_builder_free(b);
}

/*
 * Only one memcg under the limit holds pages, and the others were made in
 * the trace with no task ever attached: it is the only fit (exact), and
 * the dropped events agree.
 */
static void test_single_holder(void)
{
	struct got g;
	struct rr_builder *b = builder(&g, true);
	const char *c = "/P/C", *d = "/P/D";

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.6.0 page_size=4096 "
		  "memory_hierarchy_id=4 swap_total_kb=0 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	memcg_line(b, 1, 0, 0, -1, "/");
	memcg_line(b, 10, 1, 20000, 67108864, "/P");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=2");
	unit_feed(b, (struct rr_event){ .type = RR_EV_CGROUP_MKDIR, .cgroup_root = 4, .id = 11,
				   .str = c, .str_len = 4, .pid = 1 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_CGROUP_MKDIR, .cgroup_root = 4, .id = 12,
				   .str = d, .str_len = 4, .pid = 1 });
	unit_ts += 2000000000ULL;	/* the snapshot is 2 s old: its sizes are stale */
	begin(b);
	batch(b, 4, 12, 10);
	batch(b, 9, 11, 10);
	end(b, 13);
	CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(g.n, 1);
	CU_ASSERT_EQUAL(g.memcg[0][0], 10);
	CU_ASSERT_EQUAL(g.memcg[0][1], 10);
	CU_ASSERT_EQUAL(g.attr[0][0], RR_ATTR_SINGLE);
	CU_ASSERT_EQUAL(g.attr[0][1], RR_ATTR_SINGLE);
	/* P predates the trace and its tasks are not known: 2 s after its
	 * snapshot its sizes are not known well enough to judge the call */
	CU_ASSERT_TRUE(g.stale[0][0]);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_agree, 2);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_wrong, 0);
	rr_builder_free(b);
}

/*
 * A trace that names no memcg at all (a bug report's excerpt): the limit
 * reclaim's batches go to a stand-in for the task's memcg, the global
 * reclaim's to the root, both said to be assumed.
 */
static void test_stand_ins(void)
{
	struct got g;
	struct rr_builder *b = builder(&g, false);
	const struct rr_memcg *m;

	begin(b);
	batch(b, 32, 12, 0);
	end(b, 32);
	unit_feed(b, (struct rr_event){ .type = RR_EV_DIRECT_BEGIN, .order = 0, .pid = 200 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = RR_LRU_INACTIVE_FILE,
				   .nr_requested = 32, .nr_scanned = 32, .nr_taken = 32,
				   .order = 0, .classzone = 3, .pid = 200 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = 32,
				   .nr_reclaimed = 20, .priority = 12, .pid = 200 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_DIRECT_END, .nr_reclaimed = 20, .pid = 200 });
	CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(g.n, 2);
	m = rr_state_find(rr_builder_state(b), g.memcg[0][0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_EQUAL(m->path, "/(memcg of pid 100)");
	CU_ASSERT_EQUAL(g.attr[0][0], RR_ATTR_ASSUMED);
	CU_ASSERT_EQUAL(g.memcg[1][0], 1);
	CU_ASSERT_EQUAL(g.attr[1][0], RR_ATTR_ASSUMED);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr[RR_ATTR_ASSUMED], 2);
	rr_builder_free(b);
}

/*
 * Without deltas, a snapshot sets a memcg's sizes and a closed batch takes
 * what it reclaimed off its list (and moves what it activated).
 */
static void test_sizes_from_snapshot_and_batches(void)
{
	struct got g;
	struct rr_builder *b = builder(&g, false);
	const struct rr_memcg *m;

	tree(b, 14000, 0);
	begin(b);
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = RR_LRU_INACTIVE_FILE,
				   .nr_requested = 3, .nr_scanned = 3, .nr_taken = 3,
				   .order = -1, .classzone = -1 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = 3,
				   .nr_reclaimed = 2, .nr_activate = 1, .priority = 12 });
	end(b, 2);
	CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
	m = rr_state_find(rr_builder_state(b), 11);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, RR_LRU_INACTIVE_FILE), 13997);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, RR_LRU_ACTIVE_FILE), 1);
	/* P and D were empty a moment ago (FIT_UNLIKELY, not FIT_NO: their
	 * tasks are not known): decided by the walk, not the only fit */
	CU_ASSERT_EQUAL(g.memcg[0][0], 11);
	CU_ASSERT_EQUAL(g.attr[0][0], RR_ATTR_WALK);
	/* a later snapshot sets the sizes again */
	unit_marker(b, "reclaim-replay: snapshot begin when=periodic");
	memcg_line(b, 11, 2, 500, -1, "/P/C");
	unit_marker(b, "reclaim-replay: snapshot end when=periodic cgroups=1");
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, RR_LRU_INACTIVE_FILE), 500);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, RR_LRU_ACTIVE_FILE), 0);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->attr_periodic_snapshots, 1);
	rr_builder_free(b);
}

int register_attribute_tests(void)
{
	CU_pSuite s = CU_add_suite("attribution without memcg events", NULL, NULL);

	if (!s || !CU_add_test(s, "the walk decides two children", test_walk_two_children) ||
	    !CU_add_test(s, "one batch, two fits: ambiguous", test_ambiguous_one_batch) ||
	    !CU_add_test(s, "the only holder under the limit", test_single_holder) ||
	    !CU_add_test(s, "stand-ins when no memcg is named", test_stand_ins) ||
	    !CU_add_test(s, "sizes from snapshots and batches",
			 test_sizes_from_snapshot_and_batches))
		return -1;
	return 0;
}
