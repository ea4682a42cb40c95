// SPDX-License-Identifier: GPL-2.0-only
/*
 * Episode builder on hand-made event streams, in the order the 6.18 kernel
 * emits them (docs/kernel-model.md §12.3): attribution of batches,
 * the reclaim root, nr_to_reclaim inference, the v1 memory hierarchy among
 * other hierarchies' cgroup events, and LRU sizes of new memcgs.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/common/swappiness.h"
#include "../../src/episode/episode.h"
#include "feed.h"
#include "unit.h"

#define MAX_EPISODES 8

struct seen {
	int n;
	struct rr_episode ep[MAX_EPISODES];
	struct rr_batch batches[MAX_EPISODES][16];
	char root_path[MAX_EPISODES][64];
	uint64_t snap_lru[MAX_EPISODES][4];	/* of the root, at the start */
	size_t walk_n[MAX_EPISODES];		/* memcgs of the walk */
	uint64_t walk_lru[MAX_EPISODES][4][4];	/* their sizes at the start */
	uint64_t walk_min[MAX_EPISODES][4], walk_low[MAX_EPISODES][4], walk_unev[MAX_EPISODES][4];
	uint64_t walk_id[MAX_EPISODES][4];
	uint64_t chain_top[MAX_EPISODES][16];	/* each batch's last chain entry */
	bool compaction_known[MAX_EPISODES];
	int compaction_prio[MAX_EPISODES];
	uint64_t balance_pages[MAX_EPISODES];
	bool balance_interval[MAX_EPISODES];
	uint64_t unbalanced_pages[MAX_EPISODES];
	bool size_disproved[MAX_EPISODES][16];	/* each batch's ctx */
};

static int collect(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct seen *s = ctx;
	struct rr_sim_input in;
	struct rr_kernel_model km;
	struct rr_error err;

	if (s->n >= MAX_EPISODES || !ep->replayable)
		return 0;
	s->ep[s->n] = *ep;
	memcpy(s->batches[s->n], ep->batches,
	       (ep->nr_batches < 16 ? ep->nr_batches : 16) * sizeof(*ep->batches));
	snprintf(s->root_path[s->n], sizeof(s->root_path[0]), "%s",
		 ep->root_path ? ep->root_path : "");
	for (size_t i = 0; ep->ctx && i < ep->nr_batches && i < 16; i++)
		s->chain_top[s->n][i] = ep->ctx[i].valid && ep->ctx[i].depth ?
					ep->ctx[i].chain[ep->ctx[i].depth - 1].id : 0;
	for (size_t i = 0; ep->ctx && i < ep->nr_batches && i < 16; i++)
		s->size_disproved[s->n][i] = ep->ctx[i].valid && ep->ctx[i].size_disproved;
	rr_kernel_model_init(&km, "6.18");
	if (!rr_episode_sim_input(ep, st, &km, 12, 25000000, &in, &err)) {
		memcpy(s->snap_lru[s->n], in.memcgs[0].lru_pages, sizeof(s->snap_lru[0]));
		s->compaction_known[s->n] = in.compaction_ready_known;
		s->compaction_prio[s->n] = in.compaction_ready_priority;
		s->balance_pages[s->n] = in.balance_reclaim_pages;
		s->balance_interval[s->n] = in.balance_interval;
		s->unbalanced_pages[s->n] = in.balance_unbalanced_pages;
		s->walk_n[s->n] = in.nr_memcgs;
		for (size_t k = 0; k < in.nr_memcgs && k < 4; k++) {
			memcpy(s->walk_lru[s->n][k], in.memcgs[k].lru_pages, sizeof(s->walk_lru[0][0]));
			s->walk_id[s->n][k] = in.memcgs[k].id;
			s->walk_min[s->n][k] = in.memcgs[k].min_pages;
			s->walk_low[s->n][k] = in.memcgs[k].low_pages;
			s->walk_unev[s->n][k] = in.memcgs[k].unevictable_pages;
		}
		rr_episode_sim_input_free(&in);
	}
	s->n++;
	return 0;
}

static struct rr_builder *builder(struct seen *s)
{
	struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = -1 };

	memset(s, 0, sizeof(*s));
	return rr_builder_new(&o, collect, s);
}

static void mkdir_ev(struct rr_builder *b, int root, uint64_t id, const char *path)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_CGROUP_MKDIR, .cgroup_root = root,
				   .id = id, .str = path, .str_len = (int)strlen(path),
				   .pid = 1 });
}

static void delta(struct rr_builder *b, uint64_t id, int item, int val, int pid)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_MOD_LRUVEC, .id = id, .item = item,
				   .val = val, .pid = pid });
}

/* one inactive batch: isolate, decrement, PGSCAN, shrink */
static void batch(struct rr_builder *b, uint64_t id, int lru, uint64_t req,
		  uint64_t taken, uint64_t reclaimed, int prio)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = lru,
				   .nr_requested = req, .nr_scanned = taken, .nr_taken = taken });
	if (taken)
		delta(b, id, lru, -(int)taken, 100);
	unit_feed(b, (struct rr_event){ .type = RR_EV_COUNT_EVENTS, .id = id, .item = 30, .val = taken });
	if (taken)
		unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = taken,
					   .nr_reclaimed = reclaimed, .priority = prio });
}

/*
 * A refault (WORKINGSET_RESTORE) notes its pages as cost, x SWAP_CLUSTER_MAX
 * only from v6.2 (docs/kernel-model.md 3.6; it was x 32 for every release).
 */
static void test_refault_cost(void)
{
	struct rr_state st;
	struct rr_memcg *m;
	struct rr_event ev = { .type = RR_EV_MOD_LRUVEC, .id = 7, .val = 2 };

	rr_state_init(&st);
	ev.item = st.items.workingset_restore[RR_LRU_FILE];
	m = rr_state_memcg(&st, 7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* 10000 pages: the costs stay below a quarter, not halved */
	CU_ASSERT_EQUAL(rr_state_apply(&st, &(struct rr_event){ .type = RR_EV_MOD_LRUVEC,
			.id = 7, .item = RR_LRU_INACTIVE_FILE, .val = 10000 }), 0);
	st.cost_rotations_x32 = false;		/* v5.8 to v6.1 */
	CU_ASSERT_EQUAL(rr_state_apply(&st, &ev), 0);
	CU_ASSERT_EQUAL(m->v.file_cost, 2);
	st.cost_rotations_x32 = true;		/* v6.2 on: 2 x 32 more */
	CU_ASSERT_EQUAL(rr_state_apply(&st, &ev), 0);
	CU_ASSERT_EQUAL(m->v.file_cost, 66);
	CU_ASSERT_EQUAL(m->v.anon_cost, 0);
	/* a hostile trace's deltas saturate (signed overflow before) */
	ev.item = RR_LRU_ACTIVE_ANON;
	ev.val = INT64_MAX;
	CU_ASSERT_EQUAL(rr_state_apply(&st, &ev), 0);
	CU_ASSERT_EQUAL(rr_state_apply(&st, &ev), 0);
	CU_ASSERT_EQUAL(m->v.lru_sum[RR_LRU_ACTIVE_ANON], INT64_MAX);
	rr_state_free(&st);
}

static void test_attribution_and_root(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	/* v1: another hierarchy (2) uses the same ids and paths first */
	mkdir_ev(b, 2, 50, "/job");
	mkdir_ev(b, 4, 50, "/job");
	mkdir_ev(b, 4, 60, "/job/a");
	mkdir_ev(b, 4, 70, "/job/b");
	mkdir_ev(b, 2, 60, "/other");
	/* page cache charged to a and b; 4 pages in a's pending drain */
	delta(b, 60, 2, 4096, 200);
	delta(b, 70, 2, 8192, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_ATTACH, .cgroup_root = 4, .id = 70,
				   .attach_pid = 100, .pid = 1 });

	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	delta(b, 60, 2, 4, 100);	/* lru_add_drain() before the isolate */
	batch(b, 60, 2, 1, 32, 32, 12);
	batch(b, 70, 2, 2, 32, 32, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 64 });

	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(rr_builder_state(b)->memory_root, 4);
	CU_ASSERT_EQUAL(s.ep[0].nr_batches, 2);
	CU_ASSERT_EQUAL(s.batches[0][0].memcg_id, 60);
	CU_ASSERT_EQUAL(s.batches[0][1].memcg_id, 70);
	CU_ASSERT_EQUAL(s.batches[0][0].priority, 12);
	CU_ASSERT_EQUAL(s.batches[0][1].nr_reclaimed, 32);
	/* the reclaim root is the parent of both scanned memcgs */
	CU_ASSERT_EQUAL(s.ep[0].root_memcg_id, 50);
	CU_ASSERT_STRING_EQUAL(s.root_path[0], "/job");
	/* 64 reclaimed at priority 12 and stopped: T in (0, 64] -> 32 */
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_pages, 32);
	CU_ASSERT_STRING_EQUAL(s.ep[0].nr_to_reclaim_basis, "fit");
	/* the other hierarchy's /other never became a memcg */
	CU_ASSERT_STRING_EQUAL(rr_state_find(rr_builder_state(b), 60)->path, "/job/a");
	/* sizes: created in the trace, so exact; a lost 32 - 4 drained + 4 */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 60), 2), 4096 + 4 - 32);
	rr_builder_free(b);
}

/* §8.2: an episode that went down to priority 4 and reclaimed 528 pages
 * had T in (264, 528]: a 512-page folio charge. */
static void test_nr_to_reclaim_inference(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	uint64_t cum = 0;

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 100000, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	for (int prio = 12; prio >= 4; prio--) {
		uint64_t got = prio == 5 ? 264 - cum : (prio == 4 ? 264 : 8);

		if (prio > 5)
			cum += got;
		batch(b, 9, 2, 32, got, got, prio);
	}
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 528 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_low, 264);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_high, 528);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_pages, 512);
	CU_ASSERT_STRING_EQUAL(s.ep[0].nr_to_reclaim_basis, "fit");
	/* the root's sizes at the episode start, before its batches */
	CU_ASSERT_EQUAL(s.snap_lru[0][2], 100000);
	rr_builder_free(b);
}

/* Inside one call, a round followed by another says T > the call's own
 * reclaim so far (§8.2): 4 file batches of 128 reclaimed pages at
 * priority 12, stopping there, give T in (384, 512]. */
static void test_nr_to_reclaim_rounds(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 100000, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	for (int k = 0; k < 4; k++)
		batch(b, 9, 2, 32, 128, 128, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 512 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_low, 384);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_high, 512);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_pages, 512);
	rr_builder_free(b);
}

/* A batch that took nothing has no shrink event: it gets the priority of
 * the next batch; an end without a begin is ignored. */
static void test_empty_batch_and_orphan_end(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 0, 10, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 3 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 5, 0, 0, 11);	/* empty file list, no shrink event */
	batch(b, 9, 0, 10, 10, 10, 11);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 10 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.ep[0].nr_batches, 2);
	CU_ASSERT_EQUAL(s.batches[0][0].priority, 11);
	CU_ASSERT_FALSE(s.batches[0][0].has_shrink);
	CU_ASSERT_EQUAL(s.batches[0][0].memcg_id, 9);	/* from the PGSCAN count */
	CU_ASSERT_EQUAL(s.ep[0].replay_seq, 1);
	CU_ASSERT_TRUE(s.ep[0].swap_inferred_present);	/* anon was isolated */
	CU_ASSERT_EQUAL(rr_builder_stats(b)->replay_ended[RR_KIND_MEMCG], 1);
	/* the end without a begin was an episode of its own, not replayed */
	CU_ASSERT_EQUAL(rr_builder_stats(b)->episodes[RR_KIND_MEMCG], 2);
	rr_builder_free(b);
}

/*
 * Regression (issue 16): an active batch that took nothing still has its
 * mm_vmscan_lru_shrink_active (shrink_active_list() emits it whatever it
 * took), and its priority is its own.  It was closed at its PGREFILL count
 * of 0, then given the next batch's priority, which split the call in two
 * and moved the anon aging batch into the next call.
 */
static void test_empty_active_batch(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 100000, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 24, 24, 24, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = 1, .nr_requested = 32 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_COUNT_EVENTS, .id = 9, .item = 26, .val = 0 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_ACTIVE, .priority = 12 });
	batch(b, 9, 2, 32, 32, 32, 11);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 56 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL_FATAL(s.ep[0].nr_batches, 3);
	CU_ASSERT_EQUAL(s.batches[0][1].lru, 1);
	CU_ASSERT_EQUAL(s.batches[0][1].memcg_id, 9);
	CU_ASSERT_EQUAL(s.batches[0][1].priority, 12);
	CU_ASSERT_TRUE(s.batches[0][1].has_shrink);
	CU_ASSERT_EQUAL(s.batches[0][2].priority, 11);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->shrink_without_isolate, 0);
	rr_builder_free(b);
}

/*
 * Regression (issue 16): without a snapshot, "/" is made from the cgroup
 * paths as the ancestor of everything; it is the root memcg, id 1, so the
 * periodic flush of id 1 (memcg_flush_stats) reaches the rstat view of
 * every memcg.  It was a stand-in with an id of its own, the flush of id 1
 * reached nothing, and the view of the memcgs under it stayed 0.
 */
static void test_root_flush_without_snapshot(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	struct rr_state *st = rr_builder_state(b);
	struct rr_memcg *p;
	const struct rr_memcg *root;

	unit_feed(b, (struct rr_event){ .type = RR_EV_MOD_LRUVEC, .id = 1, .item = 2, .val = 7, .pid = 3 });
	mkdir_ev(b, 0, 10, "/P");
	delta(b, 10, 2, 5000, 200);
	p = rr_state_find(st, 10);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	root = rr_state_find_path(st, "/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL(root->id, 1);
	CU_ASSERT_PTR_EQUAL(p->parent, root);
	CU_ASSERT_EQUAL(p->v.rstat_lru[2], 0);
	unit_feed(b, (struct rr_event){ .type = RR_EV_FLUSH, .id = 1, .force = true, .pid = 2 });
	CU_ASSERT_EQUAL(p->v.rstat_lru[2], 5000);
	CU_ASSERT_EQUAL(rr_state_find(st, 1)->v.rstat_lru[2], 5000 + 7);
	rr_builder_free(b);
}

/*
 * A call that scanned one type says nothing of nr_to_reclaim when the
 * other type's active list could hold a target that left no batch (issue
 * 16): 4 rounds of 32 anon pages at priority 12 with 100000 active file
 * pages (100000 >> 12 = 24: a target, deactivation skipped) may be the
 * kernel's cut and its last round, so only the episode's end bounds T.
 * With no active file pages the rounds bound T from below again.
 */
static void test_one_type_call_bound(void)
{
	for (int with_active_file = 1; with_active_file >= 0; with_active_file--) {
		struct seen s;
		struct rr_builder *b = builder(&s);

		mkdir_ev(b, 0, 9, "/w");
		delta(b, 9, 0, 100000, 200);
		if (with_active_file)
			delta(b, 9, 3, 100000, 200);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
		for (int k = 0; k < 4; k++)
			batch(b, 9, 0, 32, 32, 32, 12);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 128 });
		CU_ASSERT_EQUAL_FATAL(s.n, 1);
		CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_low, with_active_file ? 0 : 96);
		CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_high, 128);
		CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_pages, with_active_file ? 32 : 128);
		rr_builder_free(b);
	}
}

/*
 * Regression (issue 16): memory.reclaim is a cgroup v2 file.  A limit
 * reclaim with nr_to_reclaim above 512 pages (512-page folios: the pass at
 * priority 12 reclaimed 512 and did not stop) is an inferred write on v2
 * (hierarchy 0) and stays a memcg episode on v1 (hierarchy 4).
 */
static void test_no_proactive_inference_on_v1(void)
{
	for (int root = 0; root <= 4; root += 4) {
		struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = -1,
					     .proactive_min_pages = 512 };
		struct seen s;
		struct rr_builder *b;

		memset(&s, 0, sizeof(s));
		b = rr_builder_new(&o, collect, &s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		mkdir_ev(b, root, 9, "/w");
		delta(b, 9, 2, 1 << 20, 200);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
		batch(b, 9, 2, 32, 512, 512, 12);
		batch(b, 9, 2, 32, 512, 512, 11);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 1024 });
		CU_ASSERT_EQUAL_FATAL(rr_builder_finish(b), 0);
		CU_ASSERT_EQUAL(rr_builder_state(b)->memory_root, root);
		/* v2: the call, then the write it makes up; v1: the call alone */
		CU_ASSERT_EQUAL_FATAL(s.n, root ? 1 : 2);
		CU_ASSERT_EQUAL(s.ep[0].kind, RR_KIND_MEMCG);
		CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_low, 512);
		if (!root)
			CU_ASSERT_EQUAL(s.ep[1].kind, RR_KIND_PROACTIVE);
		CU_ASSERT_EQUAL(rr_builder_stats(b)->proactive_inferred, root ? 0 : 1);
		rr_builder_free(b);
	}
}

/* one inactive batch of task @pid (batch() is task 100's) */
static void batch_of(struct rr_builder *b, int pid, uint64_t id, uint64_t req, uint64_t reclaimed)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = 2, .nr_requested = req,
				   .nr_scanned = req, .nr_taken = req, .pid = pid });
	delta(b, id, 2, -(int)req, pid);
	unit_feed(b, (struct rr_event){ .type = RR_EV_COUNT_EVENTS, .id = id, .item = 30, .val = req,
				   .pid = pid });
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = req,
				   .nr_reclaimed = reclaimed, .priority = 12, .pid = pid });
}

/*
 * Six tasks, each reclaiming its own child of X at the same time (each
 * child its own reclaim root: six cursors): no walk is interleaved,
 * however many neighbours reclaim (the first version kept four memcg ids
 * and took a fifth neighbour for a shared cursor).
 */
static void test_many_neighbours_not_interleaved(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	char path[16];

	mkdir_ev(b, 0, 9, "/X");
	for (uint64_t k = 0; k < 6; k++) {
		snprintf(path, sizeof(path), "/X/c%d", (int)k);
		mkdir_ev(b, 0, 10 + k, path);
		delta(b, 10 + k, 2, 1 << 20, 300);
	}
	for (int k = 0; k < 6; k++)
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 100 + k });
	for (int r = 0; r < 2; r++)
		for (int k = 0; k < 6; k++)
			batch_of(b, 100 + k, 10 + (uint64_t)k, 32, 16);
	for (int k = 0; k < 6; k++)
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32,
					   .pid = 100 + k });
	CU_ASSERT_EQUAL_FATAL(s.n, 6);
	for (int k = 0; k < 6; k++) {
		CU_ASSERT_TRUE(s.ep[k].overlapped);
		CU_ASSERT_FALSE(s.ep[k].walk_interleaved);
	}
	rr_builder_free(b);
}

/*
 * Concurrent walkers (issue 16): two tasks reclaiming from the children of
 * one parent X (batches on A, C and on B, D: X is both roots) share X's
 * walk cursor while both run: both episodes are walk_interleaved.  Two
 * tasks under different top-level memcgs (X/A, X/C and Y/B, Y/D) have
 * separate roots and cursors: neither is.
 */
static void test_interleaved_walks(void)
{
	for (int same_parent = 1; same_parent >= 0; same_parent--) {
		struct seen s;
		struct rr_builder *b = builder(&s);

		mkdir_ev(b, 0, 9, "/X");
		mkdir_ev(b, 0, 8, "/Y");
		mkdir_ev(b, 0, 10, "/X/A");
		mkdir_ev(b, 0, 11, same_parent ? "/X/B" : "/Y/B");
		mkdir_ev(b, 0, 12, "/X/C");
		mkdir_ev(b, 0, 13, same_parent ? "/X/D" : "/Y/D");
		for (uint64_t id = 10; id <= 13; id++)
			delta(b, id, 2, 1 << 20, 300);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 100 });
		batch_of(b, 100, 10, 32, 16);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 200 });
		batch_of(b, 200, 11, 32, 16);
		batch_of(b, 100, 12, 32, 16);
		batch_of(b, 200, 13, 32, 16);
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32,
					   .pid = 100 });
		unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32,
					   .pid = 200 });
		CU_ASSERT_EQUAL_FATAL(s.n, 2);
		CU_ASSERT_STRING_EQUAL(s.root_path[0], "/X");
		CU_ASSERT_STRING_EQUAL(s.root_path[1], same_parent ? "/X" : "/Y");
		CU_ASSERT_TRUE(s.ep[0].overlapped);
		CU_ASSERT_TRUE(s.ep[1].overlapped);
		CU_ASSERT_EQUAL(s.ep[0].walk_interleaved, same_parent);
		CU_ASSERT_EQUAL(s.ep[1].walk_interleaved, same_parent);
		rr_builder_free(b);
	}
}

/*
 * The reclaim root's alternatives (issue 16).  With the snapshot's limits:
 * batches on /a/b under a limited /a/b and a limited /a: the root is /a/b
 * (the nearest limit), and /a, whose limit may have been the one hit (no
 * usage in the snapshot), is admissible too.  Without a snapshot: batches
 * on /q/p/x alone have /q/p/x as their common ancestor, and its ancestors
 * made in the trace (/q/p, /q) are admissible too; an episode with batches
 * on /q/p/x and /q/y has /q as its root, with nothing above it.
 */
static void test_root_alternatives(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=0 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: memcg id=1 level=0 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=0 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/");
	unit_marker(b, "reclaim-replay: memcg id=20 level=1 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=0 active_file=0 unevictable=0 "
		     "limit_bytes=1073741824 min_bytes=0 low_bytes=0 path=/a");
	unit_marker(b, "reclaim-replay: memcg id=30 level=2 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=100000 active_file=0 unevictable=0 "
		     "limit_bytes=67108864 min_bytes=0 low_bytes=0 path=/a/b");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=3");
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 30, 2, 24, 24, 24, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 24 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.ep[0].root_memcg_id, 30);
	CU_ASSERT_EQUAL_FATAL(s.ep[0].nr_root_alternatives, 1);
	CU_ASSERT_EQUAL(s.ep[0].root_alternatives[0], 20);
	rr_builder_free(b);

	b = builder(&s);
	mkdir_ev(b, 0, 50, "/q");
	mkdir_ev(b, 0, 60, "/q/p");
	mkdir_ev(b, 0, 70, "/q/p/x");
	mkdir_ev(b, 0, 80, "/q/y");
	delta(b, 70, 2, 100000, 200);
	delta(b, 80, 2, 100000, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 70, 2, 24, 24, 24, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 24 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 70, 2, 24, 24, 24, 12);
	batch(b, 80, 2, 24, 24, 24, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 48 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 70, 2, 24, 24, 24, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 24 });
	CU_ASSERT_EQUAL_FATAL(s.n, 3);
	CU_ASSERT_EQUAL(s.ep[0].root_memcg_id, 70);
	CU_ASSERT_EQUAL_FATAL(s.ep[0].nr_root_alternatives, 2);	/* made in the trace */
	CU_ASSERT_EQUAL(s.ep[0].root_alternatives[0], 60);
	CU_ASSERT_EQUAL(s.ep[0].root_alternatives[1], 50);
	CU_ASSERT_EQUAL(s.ep[1].root_memcg_id, 50);
	CU_ASSERT_EQUAL(s.ep[1].nr_root_alternatives, 0);	/* nothing above /q */
	CU_ASSERT_EQUAL(s.ep[2].root_memcg_id, 70);
	CU_ASSERT_EQUAL(s.ep[2].nr_root_alternatives, 2);
	rr_builder_free(b);
}

/*
 * The recorder's markers: meta (memory hierarchy, swap), the start
 * snapshot's sizes and swappiness for memcgs that predate the trace, in any
 * order (a child named before its parent gets a stand-in parent that the
 * real one replaces), and a flush of the root reaching all of them.
 * Regression: with children first, a new cgroup hung off the stand-in
 * chain and never saw the root's flush (rstat view stayed 0).
 */
static void test_markers(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	struct rr_state *st;
	struct rr_memcg *m;

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=1024 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: memcg id=30 level=2 swappiness=100 inactive_anon=700 "
		     "active_anon=1 inactive_file=0 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/a/b");
	unit_marker(b, "reclaim-replay: memcg id=20 level=1 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=5 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/a");
	unit_marker(b, "reclaim-replay: memcg id=1 level=0 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=0 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=3");
	mkdir_ev(b, 4, 40, "/a/b/new");
	unit_feed(b, (struct rr_event){ .type = RR_EV_FLUSH, .id = 1, .force = true });

	st = rr_builder_state(b);
	CU_ASSERT_EQUAL(st->memory_root, 4);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->swap_from_meta, 1);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->snapshot_memcgs, 3);
	m = rr_state_find(st, 30);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->v.swappiness, 100);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, 0), 700);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->parent);
	CU_ASSERT_EQUAL(m->parent->id, 20);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->parent->parent);
	CU_ASSERT_EQUAL(m->parent->parent->id, 1);
	CU_ASSERT_EQUAL(st->nr_memcgs, 4);	/* the stand-ins are gone */
	m = rr_state_find(st, 40);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->parent->id, 30);
	CU_ASSERT_EQUAL(m->v.swappiness, 100);	/* v1: inherited at mkdir */
	/* the root's flush reached the subtree: /a holds 5 + 701 pages */
	m = rr_state_find(st, 20);
	CU_ASSERT_TRUE(m->v.rstat_valid);
	CU_ASSERT_EQUAL(m->v.rstat_lru[0] + m->v.rstat_lru[1] + m->v.rstat_lru[2], 706);
	rr_builder_free(b);
}

/*
 * Start states: an episode replays the memcgs as they were at its begin,
 * though deltas, a new memcg and a second episode came while it ran
 * (state.h epochs).
 */
/*
 * memory.min/low of a snapshot reach the simulator for the children of the
 * reclaim root, where they are the effective protection; deeper ones are
 * not modelled (0).  Unevictable pages count in the usage.  (Trace replays
 * had no protection and no unevictable pages before.)
 */
static void test_protection(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=1024 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: memcg id=1 level=0 swappiness=60 inactive_file=0 "
		     "min_bytes=0 low_bytes=0 path=/");
	unit_marker(b, "reclaim-replay: memcg id=20 level=1 swappiness=60 inactive_file=1000 "
		     "unevictable=7 min_bytes=409600 low_bytes=8192 path=/a");
	unit_marker(b, "reclaim-replay: memcg id=30 level=2 swappiness=60 inactive_file=2000 "
		     "min_bytes=4096 low_bytes=-1 path=/a/b");
	unit_marker(b, "reclaim-replay: memcg id=40 level=1 swappiness=60 inactive_file=3000 "
		     "min_bytes=-1 low_bytes=-1 path=/c");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=4");
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 30, 2, 32, 32, 32, 12);
	batch(b, 40, 2, 32, 32, 32, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 64 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL_FATAL(s.walk_n[0], 4);
	/* pre-order: /, /a, /a/b, /c */
	CU_ASSERT_EQUAL(s.walk_id[0][1], 20);
	CU_ASSERT_EQUAL(s.walk_min[0][1], 100);		/* 409600 >> 12 */
	CU_ASSERT_EQUAL(s.walk_low[0][1], 2);
	CU_ASSERT_EQUAL(s.walk_unev[0][1], 7);
	CU_ASSERT_EQUAL(s.walk_id[0][2], 30);
	CU_ASSERT_EQUAL(s.walk_min[0][2], 0);		/* deeper: not modelled */
	CU_ASSERT_EQUAL(s.walk_id[0][3], 40);
	/* -1 is how record writes "max": PAGE_COUNTER_MAX pages (a bug
	 * fixed: it read as "not known", no protection) */
	CU_ASSERT_EQUAL(s.walk_min[0][3], (uint64_t)INT64_MAX >> 12);
	CU_ASSERT_EQUAL(s.walk_low[0][3], (uint64_t)INT64_MAX >> 12);
	/* /a, /a/b and /c have protection: the replay says what it assumes */
	CU_ASSERT_EQUAL(rr_builder_stats(b)->snapshot_protected, 3);
	rr_builder_free(b);
}

static void test_start_state(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 5, "/r");
	mkdir_ev(b, 0, 6, "/r/x");
	delta(b, 6, 2, 1000, 300);
	unit_feed(b, (struct rr_event){ .type = RR_EV_ATTACH, .id = 5, .attach_pid = 100, .pid = 1 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_ATTACH, .id = 5, .attach_pid = 101, .pid = 1 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 100 });
	delta(b, 6, 2, 500, 300);		/* charged by another task meanwhile */
	mkdir_ev(b, 0, 7, "/r/y");
	delta(b, 7, 2, 200, 300);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 101 });
	delta(b, 6, 2, 7, 300);
	/* (priority 0: at 12, asking for 32 of 1507 pages disproves the sizes) */
	batch(b, 6, 2, 32, 32, 32, 0);		/* pid 100's batch */
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32, .pid = 100 });
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.ep[0].root_memcg_id, 5);
	CU_ASSERT_TRUE(s.ep[0].overlapped);
	/* /r/x as pid 100's episode began: 1000 pages; /r/y did not exist */
	CU_ASSERT_EQUAL(s.walk_n[0], 2);
	CU_ASSERT_EQUAL(s.walk_lru[0][1][2], 1000);
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = 2, .nr_requested = 32,
				   .nr_scanned = 32, .nr_taken = 32, .pid = 101 });
	delta(b, 7, 2, -32, 101);
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_INACTIVE, .nr_scanned = 32,
				   .nr_reclaimed = 32, .priority = 0, .pid = 101 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32, .pid = 101 });
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_TRUE(s.ep[1].overlapped);
	/* at pid 101's begin: /r/x 1500, /r/y 200 */
	CU_ASSERT_EQUAL(s.walk_n[1], 3);
	CU_ASSERT_EQUAL(s.walk_lru[1][1][2], 1500);
	CU_ASSERT_EQUAL(s.walk_lru[1][2][2], 200);
	/* and now: 1500 + 7 - 32 and 200 - 32 */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 6), 2), 1475);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 7), 2), 168);
	/* no start state is kept once no episode is open */
	CU_ASSERT_EQUAL(rr_builder_state(b)->nr_open_epochs, 0);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks, 0);
	rr_builder_free(b);
}

/* What the deactivation test keeps of its one episode. */
struct deact {
	int n;
	struct rr_sim_outcome rec[4];
	size_t nr_rec, nr_bounds;
	uint64_t removed_before_p11[RR_NR_EVICTABLE_LRU];
	uint64_t deact_num, deact_den;
	uint64_t p11[RR_NR_EVICTABLE_LRU];	/* the kernel replay's targets */
	int sim_ret;
};

static int collect_deact(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct deact *d = ctx;
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_input in;
	struct rr_sim_result r;
	struct rr_error err;
	const struct rr_sim_memcg *m;

	if (d->n++ || !ep->replayable)
		return 0;
	rr_kernel_model_init(&km, "6.18");
	if (rr_episode_sim_input(ep, st, &km, 12, 25000000, &in, &err))
		return 0;
	m = &in.memcgs[0];
	d->nr_rec = m->nr_recorded < 4 ? m->nr_recorded : 4;
	memcpy(d->rec, m->recorded, d->nr_rec * sizeof(*d->rec));
	d->nr_bounds = m->nr_boundaries;
	for (size_t k = 0; k < m->nr_boundaries; k++)
		if (m->boundaries[k].priority == 11)
			memcpy(d->removed_before_p11, m->boundaries[k].removed_before,
			       sizeof(d->removed_before_p11));
	d->deact_num = m->deactivate_num[RR_LRU_FILE];
	d->deact_den = m->deactivate_den[RR_LRU_FILE];
	memset(&r, 0, sizeof(r));
	d->sim_ret = rr_policy_resolve(&pol, "kernel", &km, 4096, &err);
	if (!d->sim_ret) {
		d->sim_ret = rr_sim_run(&in, &pol, &r, &err);
		for (size_t i = 0; i < r.nr_targets; i++)
			if (r.targets[i].priority == 11 && !d->p11[r.targets[i].lru])
				d->p11[r.targets[i].lru] = r.targets[i].nr_pages;
		rr_sim_result_free(&r);
		rr_policy_release(&pol);
	}
	rr_episode_sim_input_free(&in);
	return 0;
}

/*
 * A recorded active batch (shrink_active_list()) moves the pages it
 * deactivated from the active to the inactive list.  The recording's
 * "removed" count (siminput.c) and the simulation's (sim.c) follow one
 * rule, rr_lru_removed(), so the replay of the recording starts the next
 * recorded call from the sizes the kernel saw.  A 6.18 limit reclaim of
 * /w with 8173 inactive and 100372 active file pages, no swap, inactive
 * file low (8173 < 100372: may_deactivate file):
 *   priority 12: inactive file 8173 >> 12 = 1 page, reclaimed; active
 *     file 100372 >> 12 = 24 taken, 20 deactivated, 4 kept active
 *   priority 11 (the kernel's sizes): inactive 8173 - 1 + 20 = 8192,
 *     active 100372 - 20 = 100352: targets 8192 >> 11 = 4 and
 *     100352 >> 11 = 49.
 * Had only one side counted the move, the replay would start from 8212
 * and 100332 (targets 4 and 48) or 8172 and 100372 (3 and 49).
 */
static void test_deactivation_boundary(void)
{
	struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = -1 };
	struct deact d;
	struct rr_builder *b;

	memset(&d, 0, sizeof(d));
	b = rr_builder_new(&o, collect_deact, &d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, RR_LRU_INACTIVE_FILE, 8173, 200);
	delta(b, 9, RR_LRU_ACTIVE_FILE, 100372, 200);
	/* the rstat view prepare_scan_control() reads: a flush shows these */
	unit_feed(b, (struct rr_event){ .type = RR_EV_FLUSH, .id = 9, .force = true, .pid = 1 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, RR_LRU_INACTIVE_FILE, 1, 1, 1, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = RR_LRU_ACTIVE_FILE,
				   .nr_requested = 24, .nr_scanned = 24, .nr_taken = 24 });
	delta(b, 9, RR_LRU_ACTIVE_FILE, -24, 100);
	unit_feed(b, (struct rr_event){ .type = RR_EV_COUNT_EVENTS, .id = 9, .item = 30, .val = 24 });
	delta(b, 9, RR_LRU_ACTIVE_FILE, 4, 100);
	delta(b, 9, RR_LRU_INACTIVE_FILE, 20, 100);
	unit_feed(b, (struct rr_event){ .type = RR_EV_SHRINK_ACTIVE, .nr_taken = 24,
				   .nr_deactivated = 20, .nr_referenced = 4, .priority = 12 });
	batch(b, 9, RR_LRU_INACTIVE_FILE, 4, 4, 4, 11);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 5 });
	CU_ASSERT_EQUAL_FATAL(d.n, 1);
	CU_ASSERT_EQUAL_FATAL(d.sim_ret, 0);
	/* the active batch is a recorded outcome of its own list */
	CU_ASSERT_EQUAL_FATAL(d.nr_rec, 3);
	CU_ASSERT_EQUAL(d.rec[1].lru, RR_LRU_ACTIVE_FILE);
	CU_ASSERT_EQUAL(d.rec[1].nr_requested, 24);
	CU_ASSERT_EQUAL(d.rec[1].nr_taken, 24);
	CU_ASSERT_EQUAL(d.rec[1].nr_deactivate, 20);
	CU_ASSERT_EQUAL(d.deact_num, 20);
	CU_ASSERT_EQUAL(d.deact_den, 24);
	/* removed before priority 11: 1 reclaimed and 20 moved in off the
	 * inactive list (-19), 20 off the active list */
	CU_ASSERT_EQUAL(d.nr_bounds, 2);
	CU_ASSERT_EQUAL(d.removed_before_p11[RR_LRU_INACTIVE_FILE], (uint64_t)-19);
	CU_ASSERT_EQUAL(d.removed_before_p11[RR_LRU_ACTIVE_FILE], 20);
	CU_ASSERT_EQUAL(d.p11[RR_LRU_INACTIVE_FILE], 4);
	CU_ASSERT_EQUAL(d.p11[RR_LRU_ACTIVE_FILE], 49);
	rr_builder_free(b);
}

struct kinds {
	int n;
	enum rr_reclaim_kind kind[16];
	bool replayable[16], no_begin[16], no_end[16], end_inferred[16];
	int depth[16], nr_batches[16];
	uint64_t seq[16], parent_seq[16], bytes[16];
	bool in_proactive[16];
	uint64_t nr_calls[16], recorded_nr_reclaimed[16], call_reclaimed[16], call_scanned[16];
	uint32_t last_batch_call[16];
	int proactive_errno[16], proactive_swappiness[16];
	uint64_t proactive_memcg_id[16];
	bool write_probed[16];
};

static int collect_kinds(struct rr_episode *ep, struct rr_state *st, void *ctx)
{
	struct kinds *k = ctx;

	(void)st;
	if (k->n >= 16)
		return 0;
	k->kind[k->n] = ep->kind;
	k->replayable[k->n] = ep->replayable;
	k->no_begin[k->n] = ep->no_begin;
	k->no_end[k->n] = ep->no_end;
	k->end_inferred[k->n] = ep->end_inferred;
	k->depth[k->n] = ep->depth;
	k->nr_batches[k->n] = (int)ep->nr_batches;
	k->seq[k->n] = ep->seq;
	k->parent_seq[k->n] = ep->parent_seq;
	k->bytes[k->n] = ep->proactive_bytes;
	k->in_proactive[k->n] = ep->proactive != NULL;
	k->nr_calls[k->n] = ep->nr_calls;
	k->recorded_nr_reclaimed[k->n] = ep->recorded_nr_reclaimed;
	k->call_reclaimed[k->n] = ep->nr_calls ? ep->calls[ep->nr_calls - 1].nr_reclaimed_pages : 0;
	k->call_scanned[k->n] = ep->nr_calls ? ep->calls[ep->nr_calls - 1].nr_scanned_pages : 0;
	k->last_batch_call[k->n] = ep->nr_batches ? ep->batches[ep->nr_batches - 1].call : 99;
	k->proactive_errno[k->n] = ep->proactive_errno;
	k->proactive_swappiness[k->n] = ep->proactive_swappiness;
	k->proactive_memcg_id[k->n] = ep->proactive_memcg_id;
	k->write_probed[k->n] = ep->write_probed;
	k->n++;
	return 0;
}

/*
 * The recorder's memory_reclaim() probe: a write by any task is one
 * proactive episode with the request, swappiness= key and cgroup the
 * kernel read (memparse(): "0x100000" is 1 MiB, "2m" 2 MiB), its errno
 * from the return; a text the kernel refuses opens nothing, a return
 * without its entry closes nothing, and a write between the recorder's
 * own markers is theirs.
 */
static void test_probed_write(void)
{
	struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = -1,
				     .keep_all_batches = true };
	struct kinds k;
	struct rr_builder *b;

	memset(&k, 0, sizeof(k));
	b = rr_builder_new(&o, collect_kinds, &k);
	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 10000, 200);
	/* pid 100: "2m swappiness=max", two calls, -EAGAIN */
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_PROBE, .pid = 100, .id = 9,
				   .nr_requested = 18, .str = "2m swappiness=max\n", .str_len = 18 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 100 });
	batch(b, 9, 2, 32, 32, 32, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .pid = 100, .nr_reclaimed = 32 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 100 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .pid = 100, .nr_reclaimed = 0 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_RET, .pid = 100, .val = -11 });
	/* a text the kernel refuses, and a return without its entry */
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_PROBE, .pid = 301, .id = 9,
				   .nr_requested = 3, .str = "12x", .str_len = 3 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_RET, .pid = 301, .val = -22 });
	/* a key a 6.1 kernel refuses (-EINVAL, no call): no write */
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_PROBE, .pid = 302, .id = 9,
				   .nr_requested = 15, .str = "4096 swappiness=60", .str_len = 18 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_RET, .pid = 302, .val = -22 });
	/* the recorder's own write: its markers around the probe's pair */
	unit_feed(b, (struct rr_event){ .type = RR_EV_MARKER, .pid = 300,
				   .str = "reclaim-replay: proactive begin bytes=1048576",
				   .str_len = 45 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_PROBE, .pid = 300, .id = 9,
				   .nr_requested = 8, .str = "0x100000", .str_len = 8 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .pid = 300 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .pid = 300, .nr_reclaimed = 0 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_WRITE_RET, .pid = 300, .val = 8 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MARKER, .pid = 300,
				   .str = "reclaim-replay: proactive end bytes=1048576 result=ok errno=0",
				   .str_len = 61 });
	CU_ASSERT_EQUAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(k.n, 6);
	CU_ASSERT_EQUAL(k.kind[0], RR_KIND_MEMCG);
	CU_ASSERT_TRUE(k.in_proactive[0] && k.in_proactive[1]);
	CU_ASSERT_EQUAL(k.kind[2], RR_KIND_PROACTIVE);
	CU_ASSERT_TRUE(k.write_probed[2] && k.replayable[2]);
	CU_ASSERT_EQUAL(k.bytes[2], 2 << 20);
	CU_ASSERT_EQUAL(k.proactive_swappiness[2], RR_SWAPPINESS_ANON_ONLY);
	CU_ASSERT_EQUAL(k.proactive_memcg_id[2], 9);
	CU_ASSERT_EQUAL(k.proactive_errno[2], 11);
	CU_ASSERT_EQUAL(k.nr_calls[2], 2);
	CU_ASSERT_EQUAL(k.recorded_nr_reclaimed[2], 32);
	/* the refused key: handed over, not to be replayed */
	CU_ASSERT_EQUAL(k.kind[3], RR_KIND_PROACTIVE);
	CU_ASSERT_FALSE(k.replayable[3]);
	CU_ASSERT_EQUAL(k.proactive_errno[3], 22);
	/* the recorder's write: one episode, of its markers */
	CU_ASSERT_EQUAL(k.kind[4], RR_KIND_MEMCG);
	CU_ASSERT_EQUAL(k.kind[5], RR_KIND_PROACTIVE);
	CU_ASSERT_FALSE(k.write_probed[5]);
	CU_ASSERT_EQUAL(k.bytes[5], 1048576);
	CU_ASSERT_EQUAL(k.proactive_errno[5], 0);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks, 0);
	rr_builder_free(b);
}

/*
 * Episodes of every kind from one stack per task: kswapd runs cut by a
 * second wake, a memcg call nested in a memory.reclaim write, batches
 * before any begin, a direct reclaim left open at the end; task records
 * exist only while a task reclaims.
 */
static void test_episode_kinds(void)
{
	struct rr_builder_opts o = { .offline_delay_ns = 25000000, .swap_present = -1,
				     .keep_all_batches = true };
	struct kinds k;
	struct rr_builder *b;

	memset(&k, 0, sizeof(k));
	b = rr_builder_new(&o, collect_kinds, &k);
	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 10000, 200);
	/* kswapd (pid 50): batches before its first wake, two runs, a sleep */
	unit_feed(b, (struct rr_event){ .type = RR_EV_LRU_ISOLATE, .lru = 2, .nr_requested = 32,
				   .nr_taken = 0, .pid = 50 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_KSWAPD_WAKE, .pid = 50 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_KSWAPD_WAKE, .pid = 50 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_KSWAPD_SLEEP, .pid = 50 });
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks, 0);
	/* a memory.reclaim write (pid 100) with one memcg call inside */
	unit_feed(b, (struct rr_event){ .type = RR_EV_MARKER, .pid = 100,
				   .str = "reclaim-replay: proactive begin bytes=1048576",
				   .str_len = 45 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 32, 32, 32, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 32, 32, 20, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 20 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MARKER, .pid = 100,
				   .str = "reclaim-replay: proactive end bytes=1048576 result=ok errno=0",
				   .str_len = 61 });
	/* direct reclaim of pid 70, still open when the trace ends */
	unit_feed(b, (struct rr_event){ .type = RR_EV_DIRECT_BEGIN, .pid = 70 });
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks, 1);
	/* (a direct call is replayed: one open at the end is unterminated) */
	CU_ASSERT_EQUAL(rr_builder_finish(b), 1);

	CU_ASSERT_EQUAL_FATAL(k.n, 7);
	/* the batches before the first wake were a kswapd run cut by it */
	CU_ASSERT_EQUAL(k.kind[0], RR_KIND_KSWAPD);
	CU_ASSERT_TRUE(k.no_begin[0] && k.end_inferred[0]);
	CU_ASSERT_EQUAL(k.nr_batches[0], 1);
	CU_ASSERT_EQUAL(k.kind[1], RR_KIND_KSWAPD);
	CU_ASSERT_TRUE(k.end_inferred[1]);
	CU_ASSERT_EQUAL(k.kind[2], RR_KIND_KSWAPD);
	CU_ASSERT_FALSE(k.end_inferred[2] || k.no_end[2] || k.no_begin[2]);
	/* the memcg calls close first, nested in the proactive write, which
	 * holds their batches (the second call's tagged call 1) and sums */
	CU_ASSERT_EQUAL(k.kind[3], RR_KIND_MEMCG);
	CU_ASSERT_TRUE(k.replayable[3] && k.in_proactive[3]);
	CU_ASSERT_EQUAL(k.depth[3], 1);
	CU_ASSERT_EQUAL(k.kind[4], RR_KIND_MEMCG);
	CU_ASSERT_TRUE(k.in_proactive[4]);
	CU_ASSERT_EQUAL(k.last_batch_call[4], 0);	/* its own batches are not renumbered */
	CU_ASSERT_EQUAL(k.kind[5], RR_KIND_PROACTIVE);
	CU_ASSERT_EQUAL(k.parent_seq[3], k.seq[5]);
	CU_ASSERT_EQUAL(k.parent_seq[4], k.seq[5]);
	CU_ASSERT_EQUAL(k.bytes[5], 1048576);
	CU_ASSERT_TRUE(k.replayable[5]);
	CU_ASSERT_FALSE(k.in_proactive[5]);
	CU_ASSERT_EQUAL(k.nr_calls[5], 2);
	CU_ASSERT_EQUAL(k.nr_batches[5], 2);
	CU_ASSERT_EQUAL(k.last_batch_call[5], 1);
	CU_ASSERT_EQUAL(k.recorded_nr_reclaimed[5], 52);
	CU_ASSERT_EQUAL(k.call_reclaimed[5], 20);
	CU_ASSERT_EQUAL(k.call_scanned[5], 32);
	CU_ASSERT_EQUAL(k.proactive_errno[5], 0);
	CU_ASSERT_EQUAL(k.kind[6], RR_KIND_DIRECT);
	CU_ASSERT_TRUE(k.no_end[6]);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks, 0);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->tasks_peak, 1);
	CU_ASSERT_EQUAL(rr_builder_stats(b)->begins[RR_KIND_KSWAPD], 2);
	rr_builder_free(b);
}

/*
 * Global reclaim (issue 13): the walk starts at the root memcg and holds
 * every memcg, those without a known parent after the root's subtree; a
 * direct call reclaims SWAP_CLUSTER_MAX pages (try_to_free_pages()); a
 * costly-order call that ended short above priority 0 stopped on
 * compaction_ready(); a kswapd run's reclaim is its batches' sum, and it
 * ended balanced at that reclaim unless it reached priority 1.
 */
static void test_global_episodes(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 5000, 200);
	delta(b, 50, 2, 300, 200);	/* a memcg the trace never names */
	unit_feed(b, (struct rr_event){ .type = RR_EV_DIRECT_BEGIN, .order = 9 });
	batch(b, 9, 2, 32, 32, 8, 12);
	batch(b, 50, 2, 32, 32, 4, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_DIRECT_END, .nr_reclaimed = 12 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_KSWAPD_WAKE, .order = 0 });
	batch(b, 9, 2, 32, 32, 30, 12);
	batch(b, 9, 2, 32, 32, 31, 12);
	batch(b, 9, 2, 16, 16, 16, 11);
	unit_feed(b, (struct rr_event){ .type = RR_EV_KSWAPD_SLEEP });
	/* node reclaim of order 6: max(1 << 6, 32) pages (__node_reclaim()) */
	unit_feed(b, (struct rr_event){ .type = RR_EV_NODE_RECLAIM_BEGIN, .order = 6 });
	batch(b, 9, 2, 32, 32, 32, 4);
	unit_feed(b, (struct rr_event){ .type = RR_EV_NODE_RECLAIM_END, .nr_reclaimed = 32 });
	CU_ASSERT_EQUAL(rr_builder_finish(b), 0);
	CU_ASSERT_EQUAL_FATAL(s.n, 3);
	CU_ASSERT_EQUAL(s.ep[2].kind, RR_KIND_NODE);
	CU_ASSERT_EQUAL(s.ep[2].root_memcg_id, RR_ROOT_MEMCG_ID);
	CU_ASSERT_EQUAL(s.ep[2].nr_to_reclaim_pages, 64);

	CU_ASSERT_EQUAL(s.ep[0].kind, RR_KIND_DIRECT);
	CU_ASSERT_EQUAL(s.ep[0].root_memcg_id, RR_ROOT_MEMCG_ID);
	CU_ASSERT_EQUAL(s.ep[0].nr_to_reclaim_pages, 32);
	CU_ASSERT_EQUAL(s.ep[0].order, 9);
	CU_ASSERT_EQUAL(s.walk_n[0], 3);
	CU_ASSERT_EQUAL(s.walk_id[0][0], RR_ROOT_MEMCG_ID);
	CU_ASSERT_EQUAL(s.walk_id[0][1], 9);
	CU_ASSERT_EQUAL(s.walk_id[0][2], 50);
	CU_ASSERT_EQUAL(s.walk_lru[0][2][2], 300);
	/* the orphan's chain ends at the root, whose inputs it reads */
	CU_ASSERT_EQUAL(s.chain_top[0][0], RR_ROOT_MEMCG_ID);
	CU_ASSERT_EQUAL(s.chain_top[0][1], RR_ROOT_MEMCG_ID);
	/* 12 < 32 pages at priority 12, order 9 > 3: compaction_ready() */
	CU_ASSERT_TRUE(s.compaction_known[0]);
	CU_ASSERT_EQUAL(s.compaction_prio[0], 12);

	CU_ASSERT_EQUAL(s.ep[1].kind, RR_KIND_KSWAPD);
	CU_ASSERT_EQUAL(s.ep[1].root_memcg_id, RR_ROOT_MEMCG_ID);
	CU_ASSERT_EQUAL(s.ep[1].recorded_nr_reclaimed, 77);
	CU_ASSERT_EQUAL(s.ep[1].order, 0);
	CU_ASSERT_FALSE(s.compaction_known[1]);
	CU_ASSERT_EQUAL(s.balance_pages[1], 77);	/* ended above priority 1: balanced */
	/* not balanced at the check that began priority 11: 30 + 31 pages */
	CU_ASSERT_TRUE(s.balance_interval[1]);
	CU_ASSERT_EQUAL(s.unbalanced_pages[1], 61);
	CU_ASSERT_FALSE(s.balance_interval[0]);	/* not a kswapd run */
	rr_builder_free(b);
}

/*
 * The start snapshot of the whole tree (issue 13): the LRU deltas between
 * a "snapshot read" marker and the memcg's line come on top of what the
 * line says (three 512-page folios under page-cache pressure made every
 * call one page off before); the hierarchical sizes are the memcg's rstat
 * view; a memcg the trace shows that is in no such snapshot and was not
 * made in the trace is dying: offline, its sizes only bounded.
 */
static void test_whole_tree_snapshot(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	const struct rr_memcg *m, *dead;

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=0 vm_swappiness=60");
	delta(b, 77, 3, -27, 300);	/* a memcg with no directory */
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: snapshot read id=30");
	delta(b, 30, 2, 512, 300);	/* after the read, before the line */
	delta(b, 30, 2, 512, 300);
	unit_marker(b, "reclaim-replay: snapshot read id=1");
	unit_marker(b, "reclaim-replay: memcg id=1 level=0 swappiness=60 inactive_anon=5 "
		     "active_anon=0 inactive_file=7 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 hier_inactive_anon=5 hier_active_anon=0 "
		     "hier_inactive_file=100207 hier_active_file=300 hier_unevictable=0 path=/");
	unit_marker(b, "reclaim-replay: memcg id=30 level=1 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=100000 active_file=0 unevictable=0 "
		     "limit_bytes=-1 min_bytes=0 low_bytes=0 hier_inactive_anon=0 "
		     "hier_active_anon=0 hier_inactive_file=100000 hier_active_file=0 "
		     "hier_unevictable=0 path=/a");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=2");
	m = rr_state_find(rr_builder_state(b), 30);
	dead = rr_state_find(rr_builder_state(b), 77);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dead);
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, 2), 101024);	/* 100000 + 2 x 512 */
	CU_ASSERT_TRUE(rr_state_find(rr_builder_state(b), 1)->v.rstat_valid);
	CU_ASSERT_EQUAL(rr_state_find(rr_builder_state(b), 1)->v.rstat_lru[2], 100207);
	CU_ASSERT_EQUAL(rr_state_find(rr_builder_state(b), 1)->v.rstat_lru[3], 300);
	CU_ASSERT_TRUE(dead->dying_inferred);
	CU_ASSERT_FALSE(dead->v.online);
	CU_ASSERT_FALSE(m->dying_inferred);
	/* the dying ones hold what the root's hierarchy has beyond its own
	 * pages and its visible child's: 200 inactive + 300 active file */
	CU_ASSERT_TRUE(rr_builder_state(b)->dying_ub_known);
	CU_ASSERT_EQUAL(rr_builder_state(b)->dying_ub_type[RR_LRU_FILE], 500);
	/* one first seen after it is dying too */
	delta(b, 88, 2, -3, 300);
	CU_ASSERT_TRUE(rr_state_find(rr_builder_state(b), 88)->dying_inferred);
	rr_builder_free(b);
}

/*
 * A start snapshot of a subtree: the recorder ran in a container (a
 * cgroup namespace, or its own cgroup mounted as the hierarchy), so its
 * "/" line is memcg 50, not the root memcg.  Memcgs outside that view
 * are another container's or dying: not inferred dying (they were, and
 * were judged as offline on sizes bounded by the view's), their online
 * state unknown until an rmdir says.
 */
static void test_partial_view_snapshot(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	const struct rr_state *st;
	const struct rr_memcg *before, *after;

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=0 vm_swappiness=60");
	delta(b, 77, 2, 500, 300);	/* outside the view, seen before the snapshot */
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: snapshot read id=50");
	unit_marker(b, "reclaim-replay: memcg id=50 level=0 swappiness=60 inactive_anon=5 "
		     "active_anon=0 inactive_file=7 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 hier_inactive_anon=5 hier_active_anon=0 "
		     "hier_inactive_file=7 hier_active_file=0 hier_unevictable=0 path=/");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=1");
	delta(b, 88, 2, 40, 300);	/* first seen after it */
	st = rr_builder_state(b);
	before = rr_state_find(st, 77);
	after = rr_state_find(st, 88);
	CU_ASSERT_PTR_NOT_NULL_FATAL(before);
	CU_ASSERT_PTR_NOT_NULL_FATAL(after);
	CU_ASSERT_EQUAL(st->view_root_id, 50);
	CU_ASSERT_FALSE(st->whole_tree_seen);
	CU_ASSERT_FALSE(before->dying_inferred);
	CU_ASSERT_FALSE(after->dying_inferred);
	CU_ASSERT_TRUE(before->online_unknown);
	CU_ASSERT_TRUE(after->online_unknown);
	CU_ASSERT_TRUE(before->v.online);	/* (the replay's assumption) */
	CU_ASSERT_FALSE(rr_state_find(st, 50)->online_unknown);
	CU_ASSERT_EQUAL(rr_state_nr_outside_view(st), 2);
	/* an rmdir says: the window's rules from here */
	unit_feed(b, (struct rr_event){ .type = RR_EV_CGROUP_RMDIR, .cgroup_root = 4, .id = 88,
				   .str = "/x", .str_len = 2, .ts_ns = 5000 });
	CU_ASSERT_FALSE(after->online_unknown);
	CU_ASSERT_FALSE(after->v.online);
	CU_ASSERT_EQUAL(rr_state_nr_outside_view(st), 1);
	/* a later snapshot reads 77: inside the view after all, and live */
	unit_marker(b, "reclaim-replay: snapshot begin when=periodic");
	unit_marker(b, "reclaim-replay: memcg id=77 level=1 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=500 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/late");
	unit_marker(b, "reclaim-replay: snapshot end when=periodic cgroups=1");
	CU_ASSERT_FALSE(before->online_unknown);
	CU_ASSERT_TRUE(before->v.online);
	CU_ASSERT_EQUAL(rr_state_nr_outside_view(st), 0);
	rr_builder_free(b);
}

/*
 * Exact sizes that a batch disproves (issue 13): the first batch of a call
 * asked for 32 pages at priority 2, so the list held at least 128 pages
 * when the call began, but the deltas give 100 (the trace missed pages):
 * the size is raised to the bound and counted; a later batch of the same
 * call (large folios, pages taken since) raises nothing.
 */
static void test_sizes_disproved(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);

	mkdir_ev(b, 0, 9, "/w");
	delta(b, 9, 2, 100, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 32, 32, 32, 2);
	batch(b, 9, 2, 32, 32, 32, 2);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 64 });
	CU_ASSERT_EQUAL(rr_builder_stats(b)->lru_sizes_raised, 1);
	/* 100 raised to 128, minus the two batches */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 9), 2), 64);
	rr_builder_free(b);
}

/* A memcg no snapshot read, @known inactive file pages by its deltas,
 * removed; then a limit reclaim call whose one batch at priority 12 asks
 * for 32 of them and takes @taken (nothing reclaimed). */
static void offline_call(struct rr_builder *b, uint64_t id, int known, uint64_t taken,
			 uint64_t ts_ns)
{
	delta(b, id, 2, known, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_CGROUP_RMDIR, .cgroup_root = 0, .id = id,
				   .str = "/gone", .str_len = 5, .ts_ns = ts_ns - 50000000 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .ts_ns = ts_ns });
	batch(b, id, 2, 32, taken, 0, 12);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 0 });
}

/*
 * Lower bounds a batch raises (0.4.2; CI's t64 run on 0.4.1 judged 62
 * calls one page short, each on a memcg no snapshot read: predicted 31,
 * recorded 32 at priority 12): a memcg no snapshot read holds at least the
 * running sums' deficit; the first batch of a call asking for 32 pages at
 * priority 2 says its list held 128 when the call began.  The call was
 * predicted on the lower bound (100), which its own batch disproves: it is
 * marked, not judged; the bound rises.  An offline memcg is scraped,
 * min(size, SWAP_CLUSTER_MAX) when size >> priority is 0, so there the
 * bound is nr_requested alone (it was not raised at all).  A batch that
 * takes more than was known raises the bound through the running sum, and
 * its call is marked too.  Other tasks' deltas between the decision and
 * the batch count on the decision's side.  Every batch of a call bounds
 * where the call is surely one of the kernel's (0.6.x: a plain global
 * extract had 1,637 of 2,043 calls not judged, each bounded by its first
 * batch alone).
 */
static void test_lower_bounds_disproved(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	const struct rr_builder_stats *bs;

	/* online, unread: 100 pages known of inactive_file; a limit reclaim
	 * call (one shrink_lruvec() call per priority: every batch bounds) */
	delta(b, 9, 2, 100, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 32, 32, 32, 2);
	batch(b, 9, 2, 32, 32, 32, 2);	/* same call: 64 << 2 */
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 64 });
	bs = rr_builder_stats(b);
	CU_ASSERT_EQUAL(bs->lru_isolate_bounds, 2);
	CU_ASSERT_EQUAL(bs->lru_bounds_disproved, 1);	/* (the call, once) */
	CU_ASSERT_EQUAL(bs->lru_sizes_raised, 0);	/* (not exact sizes) */
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_TRUE(s.size_disproved[0][0]);
	CU_ASSERT_FALSE(s.size_disproved[0][1]);
	/* 256 at the decision, less the two batches */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 9), 2), 192);
	/* a call on the raised bound is judged: 192 >> 1 = 96, asks 32 */
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN });
	batch(b, 9, 2, 32, 32, 32, 1);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32 });
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_FALSE(s.size_disproved[1][0]);
	CU_ASSERT_EQUAL(bs->lru_isolate_bounds, 2);

	/* offline (removed before the call), unread, one batch asking for 32
	 * at priority 12; each call predicted on a bound its batch disproves */
	static const struct {
		uint64_t id;
		int known;		/* pages its deltas give */
		uint64_t taken;
		uint64_t isolate_bounds;	/* the count after it */
		uint64_t size_after;		/* pages */
	} off[] = {
		/* the scrape asked for 32 and took 5: it held 32, not 32 << 12 */
		{ 11, 31, 5, 3, 27 },
		/* 32 of 31 known raise the bound by themselves (the running sum) */
		{ 12, 31, 32, 3, 0 },
		/* 131040 >> 12 is not 0: no scrape, 32 << 12 (CI's pattern) */
		{ 15, 131040, 32, 4, 131040 },
		/* 4096 >> 12 = 1: no scrape either (the boundary) */
		{ 16, 4096, 32, 5, 131040 },
	};
	for (size_t k = 0; k < sizeof(off) / sizeof(off[0]); k++) {
		offline_call(b, off[k].id, off[k].known, off[k].taken, 100000000 + k * 20000000);
		CU_ASSERT_EQUAL_FATAL(s.n, (int)k + 3);
		CU_ASSERT_TRUE(s.size_disproved[k + 2][0]);
		CU_ASSERT_EQUAL(bs->lru_isolate_bounds, off[k].isolate_bounds);
		CU_ASSERT_EQUAL(bs->lru_bounds_disproved, k + 2);
		CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), off[k].id), 2),
				off[k].size_after);
	}

	/* another task took 50 pages between this one's begin and its batch:
	 * the decision saw 100, so the start held >= 128 - 100 = 28 more than
	 * the sums give (not 78) */
	delta(b, 13, 2, 100, 200);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_BEGIN, .ts_ns = 200000000 });
	unit_feed(b, (struct rr_event){ .type = RR_EV_MOD_LRUVEC, .id = 13, .item = 2, .val = -50,
				   .pid = 300, .ts_ns = 200000100 });
	batch(b, 13, 2, 32, 32, 32, 2);
	unit_feed(b, (struct rr_event){ .type = RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 32 });
	CU_ASSERT_EQUAL_FATAL(s.n, 7);
	CU_ASSERT_TRUE(s.size_disproved[6][0]);
	/* 100 - 50 - 32 + 28 */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), 13), 2), 46);

	/* one call's requests of one list add up to at most size >> priority:
	 * 131072 known holds the first batch's 32 at priority 12, not the
	 * 32 + 16 of the call; the call is marked, and in limit reclaim (and
	 * order-0 direct reclaim) the sum raises the bound to 48 << 12; where
	 * a run of batches may hold two of the kernel's calls (a costly
	 * order's should_continue_reclaim(), kswapd) only the first batch
	 * bounds */
	static const struct {
		uint64_t id;
		int kind;		/* 0 limit, 1 direct */
		int order;
		uint64_t isolate_bounds;	/* the count after it */
		uint64_t size_after;		/* pages */
	} sum[] = {
		{ 17, 0, 0, 7, 196608 - 48 },
		{ 18, 1, 0, 8, 196608 - 48 },
		{ 19, 1, 3, 8, 131072 - 48 },
	};
	for (size_t k = 0; k < sizeof(sum) / sizeof(sum[0]); k++) {
		uint64_t ts = 300000000 + k * 20000000;

		delta(b, sum[k].id, 2, 131072, 200);
		unit_feed(b, (struct rr_event){ .type = sum[k].kind ? RR_EV_DIRECT_BEGIN :
						RR_EV_MEMCG_RECLAIM_BEGIN, .order = sum[k].order,
					   .ts_ns = ts });
		batch(b, sum[k].id, 2, 32, 32, 32, 12);
		batch(b, sum[k].id, 2, 16, 16, 16, 12);
		unit_feed(b, (struct rr_event){ .type = sum[k].kind ? RR_EV_DIRECT_END :
						RR_EV_MEMCG_RECLAIM_END, .nr_reclaimed = 48 });
		CU_ASSERT_EQUAL(bs->lru_isolate_bounds, sum[k].isolate_bounds);
		CU_ASSERT_EQUAL(rr_memcg_lru_pages(rr_state_find(rr_builder_state(b), sum[k].id), 2),
				sum[k].size_after);
	}
	CU_ASSERT_EQUAL_FATAL(s.n, MAX_EPISODES);	/* (the first eight are kept) */
	CU_ASSERT_TRUE(s.size_disproved[7][0]);
	CU_ASSERT_FALSE(s.size_disproved[7][1]);
	rr_builder_free(b);
}

/*
 * A snapshot line is the flushed view (issue 13): memory.stat of a memcg
 * whose pending updates stay below the flush threshold prints the sizes
 * of the last flush that covered it, here the root's at the snapshot's
 * start; the deltas since that flush come on top.  The root's flush holds
 * every memcg, also one not linked to it yet (a bug fixed: the root's
 * view held only its linked children, 0 pages before the snapshot).
 */
static void test_flushed_view_baseline(void)
{
	struct seen s;
	struct rr_builder *b = builder(&s);
	const struct rr_memcg *m, *root;

	unit_marker(b, "reclaim-replay: meta version=1 kernel_release=6.18.44 memory_hierarchy_id=4 "
		     "swap_total_kb=0 vm_swappiness=60");
	unit_marker(b, "reclaim-replay: items source=btf workingset_activate_anon=12 "
		     "workingset_activate_file=13");
	delta(b, 30, 2, 10, 300);	/* (a memcg not named yet) */
	unit_marker(b, "reclaim-replay: snapshot begin when=start");
	unit_marker(b, "reclaim-replay: snapshot read id=1");
	unit_feed(b, (struct rr_event){ .type = RR_EV_FLUSH, .id = 1, .needs_flush = true, .pid = 1 });
	delta(b, 30, 2, 512, 300);	/* after the flush */
	delta(b, 30, 13, 5, 300);	/* a refault activation */
	unit_marker(b, "reclaim-replay: snapshot read id=30");
	delta(b, 30, 2, 512, 300);	/* after the read */
	unit_marker(b, "reclaim-replay: memcg id=1 level=0 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=0 active_file=0 unevictable=0 limit_bytes=-1 "
		     "min_bytes=0 low_bytes=0 path=/");
	unit_marker(b, "reclaim-replay: memcg id=30 level=1 swappiness=60 inactive_anon=0 "
		     "active_anon=0 inactive_file=1000 active_file=0 unevictable=0 "
		     "limit_bytes=-1 min_bytes=0 low_bytes=0 path=/a");
	unit_marker(b, "reclaim-replay: snapshot end when=start cgroups=2");
	m = rr_state_find(rr_builder_state(b), 30);
	root = rr_state_find(rr_builder_state(b), 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	/* the view of the root's flush: 1000, then 2 x 512 since */
	CU_ASSERT_EQUAL(rr_memcg_lru_pages(m, 2), 2024);
	/* the root's flush counted memcg 30 before it was linked: 10 pages,
	 * and no activation yet (it came after the flush) */
	CU_ASSERT_TRUE(root->v.rstat_valid);
	CU_ASSERT_EQUAL(root->v.rstat_lru[2], 10);
	CU_ASSERT_EQUAL(root->v.rstat_ws_activate[RR_LRU_FILE], 0);
	unit_feed(b, (struct rr_event){ .type = RR_EV_FLUSH, .id = 1, .force = true, .pid = 1 });
	CU_ASSERT_EQUAL(root->v.rstat_ws_activate[RR_LRU_FILE], 5);
	CU_ASSERT_EQUAL(root->v.rstat_lru[2], 2024);
	rr_builder_free(b);
}

int register_builder_tests(void)
{
	CU_pSuite s = CU_add_suite("builder", NULL, NULL);

	if (!s || !CU_add_test(s, "refault cost by release", test_refault_cost) ||
	    !CU_add_test(s, "memory.min/low and unevictable of a snapshot", test_protection) ||
	    !CU_add_test(s, "attribution, root, v1 hierarchy", test_attribution_and_root) ||
	    !CU_add_test(s, "nr_to_reclaim from checkpoints", test_nr_to_reclaim_inference) ||
	    !CU_add_test(s, "nr_to_reclaim from rounds inside a call", test_nr_to_reclaim_rounds) ||
	    !CU_add_test(s, "empty batch, end without begin", test_empty_batch_and_orphan_end) ||
	    !CU_add_test(s, "empty active batch keeps its priority", test_empty_active_batch) ||
	    !CU_add_test(s, "root flush without a snapshot", test_root_flush_without_snapshot) ||
	    !CU_add_test(s, "one-type call bound", test_one_type_call_bound) ||
	    !CU_add_test(s, "no memory.reclaim inference on v1", test_no_proactive_inference_on_v1) ||
	    !CU_add_test(s, "memory.reclaim writes from the probe", test_probed_write) ||
	    !CU_add_test(s, "interleaved walks under one root", test_interleaved_walks) ||
	    !CU_add_test(s, "many neighbours, own roots: not interleaved",
			 test_many_neighbours_not_interleaved) ||
	    !CU_add_test(s, "the reclaim root's alternatives", test_root_alternatives) ||
	    !CU_add_test(s, "recorder markers and snapshot order", test_markers) ||
	    !CU_add_test(s, "start states (epochs)", test_start_state) ||
	    !CU_add_test(s, "deactivation at a recorded boundary", test_deactivation_boundary) ||
	    !CU_add_test(s, "episodes of every kind, nesting, task records", test_episode_kinds) ||
	    !CU_add_test(s, "global reclaim: root, walk, inferred inputs", test_global_episodes) ||
	    !CU_add_test(s, "whole-tree snapshot: read deltas, views, dying memcgs",
			 test_whole_tree_snapshot) ||
	    !CU_add_test(s, "a snapshot of a subtree: memcgs outside the view",
			 test_partial_view_snapshot) ||
	    !CU_add_test(s, "exact sizes a batch disproves are raised", test_sizes_disproved) ||
	    !CU_add_test(s, "lower bounds a batch raises, offline and concurrent",
			 test_lower_bounds_disproved) ||
	    !CU_add_test(s, "a snapshot line is the last flush's view", test_flushed_view_baseline))
		return -1;
	return 0;
}
