// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulator tests against the worked examples of
 * docs/kernel-model.md §17 and the seed threads: Gavin
 * Shan's 0x4000 vs 0x1000 pages, the memory.reclaim chunk tables, and the
 * structural C2 model (four children of 4 GiB cold page cache).
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/common/swappiness.h"
#include "../../src/sim/sim.h"
#include "unit.h"

static void resolve(struct rr_resolved_policy *p, const char *spec, const char *release,
		    struct rr_kernel_model *km)
{
	struct rr_error err;

	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(km, release), 0);
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(p, spec, km, 4096, &err), 0);
}

/* The priority-12 target of inactive anon for one memcg of @size pages. */
static uint64_t anon_target_p12(const char *spec, const char *release,
				uint64_t size, bool online)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 7, .parent = -1, .online = online, .swappiness = 60,
		.lru_pages = { size, 0, 0, 0 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true,
		.swap_present = true, .cursor = -1,
	};
	struct rr_sim_result res;
	struct rr_error err;
	uint64_t target = 0;

	memset(&res, 0, sizeof(res));
	resolve(&pol, spec, release, &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &res, &err), 0);
	for (size_t i = 0; i < res.nr_targets; i++)
		if (res.targets[i].priority == 12 && res.targets[i].lru == 0)
			target = res.targets[i].nr_pages;
	rr_sim_result_free(&res);
	rr_policy_release(&pol);
	return target;
}

/* §17.1 / seed 000: swappiness 60, priority 12, v5.6 fractions 60:140/201 */
static void test_gavin_thresholds(void)
{
	/* without round-up the first non-zero anon target needs 0x4000 pages */
	CU_ASSERT_EQUAL(anon_target_p12("online-roundup", "5.6", 0x3FFF, true), 0);
	CU_ASSERT_EQUAL(anon_target_p12("online-roundup", "5.6", 0x4000, true), 1);
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "5.6", 0x3000, true), 0);
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "5.6", 0x4000, true), 1);
	/* with round-up (68600f623d69) 0x1000 pages are enough */
	CU_ASSERT_EQUAL(anon_target_p12("original", "5.6", 0x0FFF, true), 0);
	CU_ASSERT_EQUAL(anon_target_p12("original", "5.6", 0x1000, true), 1);
	CU_ASSERT_EQUAL(anon_target_p12("original", "5.6", 0x4000, true), 2);
	/* the v5.5 kernel rounded up for everyone */
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "5.5", 0x1000, true), 1);
	/* v4.19 floored for everyone, offline too */
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "4.19", 0x1000, false), 0);
	/* 76073c646f5f still rounds up offline memcgs */
	CU_ASSERT_EQUAL(anon_target_p12("online-roundup", "5.6", 0x1000, false), 1);
	/* v5.8+ zero costs: 60:140 over 200, the same thresholds */
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "6.18", 0x3FFF, true), 0);
	CU_ASSERT_EQUAL(anon_target_p12("kernel", "6.18", 0x4000, true), 1);
	CU_ASSERT_EQUAL(anon_target_p12("original", "6.18", 0x1000, true), 1);
}

static void test_fractions(void)
{
	struct rr_kernel_model km;
	uint64_t ap, fp, d;

	rr_kernel_model_init(&km, "5.6");
	rr_scan_fractions(&km, 0, 0, 60, &ap, &fp, &d);
	CU_ASSERT_EQUAL(ap, 60);
	CU_ASSERT_EQUAL(fp, 140);
	CU_ASSERT_EQUAL(d, 201);
	rr_kernel_model_init(&km, "6.18");
	rr_scan_fractions(&km, 0, 0, 60, &ap, &fp, &d);
	CU_ASSERT_EQUAL(ap, 60);
	CU_ASSERT_EQUAL(fp, 140);
	CU_ASSERT_EQUAL(d, 200);
	/* §17.1 reference values, swappiness 60 */
	rr_scan_fractions(&km, 1000, 100, 60, &ap, &fp, &d);
	CU_ASSERT_EQUAL(ap, 94);
	CU_ASSERT_EQUAL(fp, 384);
	CU_ASSERT_EQUAL(d, 478);
	rr_scan_fractions(&km, 100, 1000, 60, &ap, &fp, &d);
	CU_ASSERT_EQUAL(ap, 164);
	CU_ASSERT_EQUAL(fp, 219);
	CU_ASSERT_EQUAL(d, 383);
	rr_scan_fractions(&km, 1141521, 7767, 60, &ap, &fp, &d);
	CU_ASSERT_EQUAL(ap, 90);
	CU_ASSERT_EQUAL(fp, 417);
	CU_ASSERT_EQUAL(d, 507);
}

static void test_inactive_is_low(void)
{
	/* 1 GiB = 262144 pages -> ratio int_sqrt(10) = 3 */
	CU_ASSERT_FALSE(rr_inactive_is_low(65536, 196608, 12));	/* 3*65536 = 196608 */
	CU_ASSERT_TRUE(rr_inactive_is_low(65535, 196609, 12));
	/* under 1 GiB: ratio 1 */
	CU_ASSERT_TRUE(rr_inactive_is_low(10, 11, 12));
	CU_ASSERT_FALSE(rr_inactive_is_low(11, 11, 12));
	CU_ASSERT_FALSE(rr_inactive_is_low(0, 0, 12));
	/* 10 GiB = 2621440 pages -> ratio 10 */
	CU_ASSERT_TRUE(rr_inactive_is_low(200000, 2421440, 12));
	CU_ASSERT_FALSE(rr_inactive_is_low(250000, 2371440, 12));
	/* ... and not 9: 240000 * 10 = 2400000 is not below 2381440 */
	CU_ASSERT_FALSE(rr_inactive_is_low(240000, 2381440, 12));
	/* 99 GiB -> int_sqrt(990) = 31; 100 GiB -> int_sqrt(1000) = 31 too */
	CU_ASSERT_TRUE(rr_inactive_is_low(800000, 25952256 - 800000, 12));	/* 24.8M < 25.1M */
	CU_ASSERT_FALSE(rr_inactive_is_low(820000, 26214400 - 820000, 12));	/* 25.4M > 25.3M */
	/* sizes a hostile snapshot claims: no overflow, no long loop */
	CU_ASSERT_FALSE(rr_inactive_is_low(1ULL << 62, 1ULL << 62, 12));
	CU_ASSERT_TRUE(rr_inactive_is_low(1, UINT64_MAX - 1, 12));
}

/* ---- chunk loop (§17.2 and §17.3 C1) ---- */

struct exact_ctx {
	uint64_t extra;		/* pages reclaimed beyond nr_to_reclaim */
};

/* each call reclaims its nr_to_reclaim (= max(chunk, 32)) plus extra */
static int exact_call(void *ctx, uint64_t nr_pages, uint64_t *got)
{
	const struct exact_ctx *c = ctx;

	*got = (nr_pages > 32 ? nr_pages : 32) + c->extra;
	return 0;
}

static void run_chunks(const char *spec, uint64_t extra, struct rr_sim_result *res)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct exact_ctx c = { extra };
	struct rr_error err;

	memset(res, 0, sizeof(*res));
	resolve(&pol, spec, "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_proactive_loop(&pol, 262144, exact_call, &c, res, &err), 0);
	rr_policy_release(&pol);
}

static void test_chunk_tables(void)
{
	static const uint64_t quarter[] = {
		65536, 49152, 36864, 27648, 20736, 15552, 11664, 8748, 6561, 4920,
		3690, 2768, 2076, 1557, 1168, 876, 657, 492, 369, 277, 208, 156,
		117, 88, 66, 49, 37, 28, 20, 12, 4,
	};
	struct rr_sim_result r;

	/* 1 GiB = 262144 pages, each call reclaims exactly nr_to_reclaim */
	run_chunks("original", 0, &r);
	CU_ASSERT_EQUAL(r.calls, 1);
	CU_ASSERT_FALSE(r.eagain);	/* met in one call */
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262144);
	rr_sim_result_free(&r);

	run_chunks("cluster-cap", 0, &r);
	CU_ASSERT_EQUAL(r.calls, 8192);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262144);
	CU_ASSERT_EQUAL(r.chunk_requests[0], 32);
	rr_sim_result_free(&r);

	run_chunks("proportional", 0, &r);
	CU_ASSERT_EQUAL(r.calls, 31);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262160);	/* +16: the 32 floor */
	CU_ASSERT_EQUAL_FATAL(r.nr_chunks, sizeof(quarter) / sizeof(quarter[0]));
	for (size_t i = 0; i < r.nr_chunks; i++)
		CU_ASSERT_EQUAL(r.chunk_requests[i], quarter[i]);
	rr_sim_result_free(&r);

	/* T.J.'s first posting, max(r/4, r%4): the % 4 term is dead code */
	{
		struct rr_sim_result v1;

		run_chunks("proportional", 0, &r);
		run_chunks("proportional-v1", 0, &v1);
		CU_ASSERT_EQUAL(v1.calls, r.calls);
		CU_ASSERT_EQUAL(v1.nr_reclaimed_pages, r.nr_reclaimed_pages);
		CU_ASSERT_EQUAL_FATAL(v1.nr_chunks, r.nr_chunks);
		for (size_t i = 0; i < r.nr_chunks; i++)
			CU_ASSERT_EQUAL(v1.chunk_requests[i], r.chunk_requests[i]);
		rr_sim_result_free(&v1);
		rr_sim_result_free(&r);
	}

	/* the 6.18 kernel policy is the quarter rule */
	run_chunks("kernel", 0, &r);
	CU_ASSERT_EQUAL(r.calls, 31);
	rr_sim_result_free(&r);

	/* §17.3 C1: every call reclaims nr_to_reclaim + 32 */
	run_chunks("original", 32, &r);
	CU_ASSERT_EQUAL(r.calls, 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262176);
	rr_sim_result_free(&r);
	run_chunks("cluster-cap", 32, &r);
	CU_ASSERT_EQUAL(r.calls, 4096);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262144);
	rr_sim_result_free(&r);
	run_chunks("proportional", 32, &r);
	CU_ASSERT_EQUAL(r.calls, 27);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262201);
	rr_sim_result_free(&r);
}

static int zero_call(void *ctx, uint64_t nr_pages, uint64_t *got)
{
	(void)ctx;
	(void)nr_pages;
	*got = 0;
	return 0;
}

/* 16 zero-progress calls are tolerated, the 17th fails the write */
static void test_chunk_retries(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL(rr_proactive_loop(&pol, 1000, zero_call, NULL, &r, &err), 0);
	CU_ASSERT_EQUAL(r.calls, 17);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 0);
	CU_ASSERT_TRUE(r.eagain);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/* ---- §17.3 C2: root without pages, four children of 4 GiB cold file ---- */

static void run_c2(const char *release, const char *spec, struct rr_sim_result *res)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m[5];
	struct rr_sim_input in;
	struct rr_error err;

	memset(m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	memset(res, 0, sizeof(*res));
	for (int i = 0; i < 5; i++) {
		m[i].id = 100 + (uint64_t)i;
		m[i].parent = i ? 0 : -1;
		m[i].online = true;
		m[i].swappiness = 60;
		if (i)
			m[i].lru_pages[RR_LRU_INACTIVE_FILE] = 1048576;
	}
	resolve(&pol, spec, release, &km);
	in.km = &km;
	in.kind = RR_KIND_PROACTIVE;
	in.nr_pages = 262144;
	in.memcgs = m;
	in.nr_memcgs = 5;
	in.page_shift = 12;
	in.may_swap = true;
	in.swap_present = false;
	in.root_rstat_lru_pages[RR_LRU_INACTIVE_FILE] = 4 * 1048576ULL;
	in.cursor = -1;
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, res, &err), 0);
	rr_policy_release(&pol);
}

static void test_c2_structural(void)
{
	struct rr_sim_result r;

	/* whole remainder, full walk (v5.19 - v6.5) */
	run_c2("6.5", "kernel", &r);
	CU_ASSERT_EQUAL(r.calls, 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 501916);
	CU_ASSERT_EQUAL(r.lowest_priority, 4);
	rr_sim_result_free(&r);

	/* cluster cap, full walk (v6.6 - v6.8) */
	run_c2("6.8", "kernel", &r);
	CU_ASSERT_EQUAL(r.calls, 2048);
	CU_ASSERT_EQUAL(r.chunk_reclaimed[0], 128);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262144);
	CU_ASSERT_EQUAL(r.lowest_priority, 12);
	rr_sim_result_free(&r);

	/* quarter, full walk (v6.9 - v6.10) */
	run_c2("6.10", "kernel", &r);
	CU_ASSERT_EQUAL(r.calls, 12);
	CU_ASSERT_EQUAL(r.chunk_requests[0], 65536);
	CU_ASSERT_EQUAL(r.chunk_reclaimed[0], 128712);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262164);
	rr_sim_result_free(&r);

	/* quarter, partial walk with the shared cursor (v6.11+) */
	run_c2("6.11", "kernel", &r);
	CU_ASSERT_EQUAL(r.calls, 27);
	CU_ASSERT_EQUAL(r.chunk_reclaimed[0], 80313);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 262147);
	rr_sim_result_free(&r);

	/* a policy changes only its hook: cluster-cap on a 6.11 model */
	run_c2("6.11", "cluster-cap", &r);
	CU_ASSERT_EQUAL(r.chunk_requests[0], 32);
	CU_ASSERT_TRUE(r.nr_reclaimed_pages >= 262144);
	rr_sim_result_free(&r);
}

/*
 * shrink_lruvec() goal check and proportional cut (§5), post-v6.1: once
 * the lruvec's own reclaim reaches nr_to_reclaim the smaller type stops
 * and exactly one more round of the bigger type follows.
 */
static void test_shrink_lruvec_cut(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 9, .parent = -1, .online = true, .swappiness = 100,
		/* at priority 0 SCAN_EQUAL: targets are the whole lists */
		.lru_pages = { 64, 0, 640, 0 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_SOFTLIMIT, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true,
		.swap_present = true, .cursor = -1,
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	/* round 1: anon 32 + file 32 = 64 >= 32 -> cut: anon (smaller) stops,
	 * file keeps (1 - 32/65) of its target minus what it did; then one
	 * more round of 32 file pages and the loop ends */
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 96);
	CU_ASSERT_EQUAL(r.batches, 3);
	CU_ASSERT_EQUAL(r.lowest_priority, 0);
	rr_sim_result_free(&r);

	/* pre-v6.1: the bigger type's cut remainder is scanned to the end:
	 * 640 * (100 - 49) / 100 = 326, minus the 32 done = 294 more pages */
	rr_policy_release(&pol);
	resolve(&pol, "kernel", "6.0", &km);
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 64 + 294);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * memory.low (§3.7, §6, §7): a child whose usage is below its low is
 * skipped while another child can be reclaimed; when nothing else is left,
 * do_try_to_free_pages() retries with memcg_low_reclaim and takes it.
 */
static void test_protection(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m[3];
	struct rr_sim_input in;
	struct rr_sim_result r;
	struct rr_error err;

	memset(m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	for (int i = 0; i < 3; i++) {
		m[i].id = 10 + (uint64_t)i;
		m[i].parent = i ? 0 : -1;
		m[i].online = true;
		m[i].swappiness = 60;
	}
	m[1].lru_pages[RR_LRU_INACTIVE_FILE] = 8192;
	m[1].low_pages = 10000;			/* below low: protected */
	m[2].lru_pages[RR_LRU_INACTIVE_FILE] = 8192;
	resolve(&pol, "kernel", "6.18", &km);
	in.km = &km;
	in.kind = RR_KIND_MEMCG;
	in.nr_pages = 32;
	in.memcgs = m;
	in.nr_memcgs = 3;
	in.page_shift = 12;
	in.may_swap = true;
	in.cursor = -1;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	for (size_t i = 0; i < r.nr_targets; i++)
		CU_ASSERT_NOT_EQUAL(r.targets[i].memcg_id, 11);	/* never touched */
	CU_ASSERT_EQUAL(r.retries, 0);
	CU_ASSERT_TRUE(r.nr_reclaimed_pages >= 32);
	rr_sim_result_free(&r);

	/* only the protected child has pages: the low-reclaim retry takes it */
	m[2].lru_pages[RR_LRU_INACTIVE_FILE] = 0;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.retries, 2);		/* full-walk retry, then low */
	CU_ASSERT_TRUE(r.nr_reclaimed_pages >= 32);
	/* the retry scales by min (0), so the first target is 8192 >> 12 */
	CU_ASSERT_EQUAL_FATAL(r.nr_targets >= 1, 1);
	CU_ASSERT_EQUAL(r.targets[0].memcg_id, 11);
	CU_ASSERT_EQUAL(r.targets[0].nr_pages, 2);
	rr_sim_result_free(&r);

	/* min protection scales the target (v5.15+ formula): at priority 7
	 * the list holds 8192 - 15 reclaimed = 8177 pages, and
	 * 8177 - 8177 * 6000 / (8177 + 1) = 2178, >> 7 = 17 */
	m[1].low_pages = 0;
	m[1].min_pages = 6000;
	m[2].lru_pages[RR_LRU_INACTIVE_FILE] = 0;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	{
		bool seen = false;

		for (size_t i = 0; i < r.nr_targets; i++)
			if (r.targets[i].memcg_id == 11 && r.targets[i].priority == 7) {
				CU_ASSERT_EQUAL(r.targets[i].nr_pages, 17);
				seen = true;
			}
		CU_ASSERT_TRUE(seen);
	}
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/* Direct reclaim never checks the goal at priority 12 (§5 proportional):
 * the whole priority-12 target is scanned, unlike limit reclaim. */
static void test_direct_priority12(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 1, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 1 << 20, 0 },	/* 4 GiB inactive file */
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_DIRECT, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .cursor = -1,
		.root_rstat_lru_pages = { 0, 0, 1 << 20, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 256);	/* (1 << 20) >> 12 */
	CU_ASSERT_EQUAL(r.lowest_priority, 12);
	rr_sim_result_free(&r);
	in.kind = RR_KIND_MEMCG;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 32);	/* stops after one batch */
	rr_sim_result_free(&r);

	/* file_is_tiny (§4): free + file <= high watermarks, anon present:
	 * SCAN_ANON, only the anon lists get targets */
	m.lru_pages[RR_LRU_INACTIVE_FILE] = 100;
	m.lru_pages[RR_LRU_INACTIVE_ANON] = 65536;
	in.root_rstat_lru_pages[RR_LRU_INACTIVE_FILE] = 100;
	in.root_rstat_lru_pages[RR_LRU_INACTIVE_ANON] = 65536;
	in.kind = RR_KIND_DIRECT;
	in.swap_present = true;
	in.node_free_pages = 1000;
	in.node_high_wmark_pages = 2000;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL_FATAL(r.nr_targets >= 1, 1);
	CU_ASSERT_EQUAL(r.targets[0].lru, RR_LRU_INACTIVE_ANON);
	CU_ASSERT_EQUAL(r.targets[0].nr_pages, 16);	/* 65536 >> 12, SCAN_ANON */
	rr_sim_result_free(&r);
	/* plenty free: not tiny, SCAN_FRACT with zero costs: 16 * 60 / 200 */
	in.node_free_pages = 100000;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.targets[0].nr_pages, 4);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * The outcome model replays the recorded batches: a simulated batch that
 * asks for what the memcg's next recorded batch of the list asked for
 * takes and reclaims what it did; and a call at a recorded priority starts
 * from the recorded boundary sizes, corrected by the run's own removals.
 */
static void test_recorded_outcomes(void)
{
	static const struct rr_sim_outcome rec[] = {
		{ .lru = 2, .nr_requested = 16, .nr_taken = 512, .nr_reclaimed = 500 },
	};
	static const struct rr_sim_boundary bd[] = {
		/* the kernel saw 65536 pages at priority 12 (the snapshot said 60000) */
		{ .priority = 12, .lru_pages = { 0, 0, 65536, 0 } },
	};
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 5, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 60000, 0 },
		.recorded = rec, .nr_recorded = 1, .boundaries = bd, .nr_boundaries = 1,
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .cursor = -1,
		.root_rstat_lru_pages = { 0, 0, 65536, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	/* target 65536 >> 12 = 16 (not 60000 >> 12 = 14): one batch of 16
	 * that took a 512-page folio and reclaimed 500 */
	CU_ASSERT_EQUAL_FATAL(r.nr_targets, 1);
	CU_ASSERT_EQUAL(r.targets[0].nr_pages, 16);
	CU_ASSERT_EQUAL(r.nr_scanned_pages, 512);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 500);
	CU_ASSERT_EQUAL(r.lowest_priority, 12);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * Regression: pages a recorded batch activated leave the inactive list and
 * join the active one, in the simulation's count as in the recording's, so
 * a call at the next recorded boundary starts from the sizes the kernel
 * saw.  The simulation used to move them off the inactive list only: at
 * priority 11 the active-file list came out 32 pages short (target 9, not
 * 20496 >> 11 = 10).
 */
static void test_activated_at_boundary(void)
{
	static const struct rr_sim_outcome rec[] = {
		{ .lru = RR_LRU_INACTIVE_FILE, .nr_requested = 32, .nr_taken = 32,
		  .nr_reclaimed = 0, .nr_activate = 32 },
	};
	static const struct rr_sim_boundary bd[] = {
		{ .priority = 12, .lru_pages = { 0, 0, 131072, 20464 } },
		/* after the batch: 32 pages moved to the active list */
		{ .priority = 11, .lru_pages = { 0, 0, 131040, 20496 },
		  .removed_before = { 0, 0, 32, (uint64_t)-32 } },
	};
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 5, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 131072, 20464 },
		.recorded = rec, .nr_recorded = 1, .boundaries = bd, .nr_boundaries = 2,
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .cursor = -1,
		.root_rstat_lru_pages = { 0, 0, 131072, 20464 },
	};
	struct rr_sim_result r;
	struct rr_error err;
	int64_t af11 = -1;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	/* (the first pass at 11: past the recorded batch the tape activates
	 * every page as it did, the call reaches priority 0 and retries) */
	for (size_t i = 0; i < r.nr_targets && af11 < 0; i++)
		if (r.targets[i].priority == 11 && r.targets[i].lru == RR_LRU_ACTIVE_FILE)
			af11 = (int64_t)r.targets[i].nr_pages;
	CU_ASSERT_EQUAL(af11, 10);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * Regression (a swappiness-0 recording scored 94.5%): with no inactive
 * pages and the deactivation bits clear, the first ladders make no batch
 * and leave no event; do_try_to_free_pages() retries with
 * force_deactivate, and only that ladder shows in the trace (§7).
 */
static void test_silent_first_ladder(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 3, .parent = -1, .online = true, .swappiness = 0,
		.lru_pages = { 10348, 3, 0, 5888 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 256, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .swap_present = true,
		.cursor = -1, .root_rstat_lru_pages = { 10315, 3, 0, 0 },
	};
	struct rr_call_input ci;
	struct rr_pred_batch rec = { .lru = RR_LRU_ACTIVE_FILE, .nr_requested = 1 }, pred[8];
	uint64_t reclaimed = 0, targets[4];
	struct rr_sim_result r;
	struct rr_error err;
	size_t n = 0;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.retries, 2);		/* full walk, then force_deactivate */
	CU_ASSERT_TRUE(r.first_batch_forced);
	rr_sim_result_free(&r);

	memset(&ci, 0, sizeof(ci));
	ci.km = &km;
	ci.kind = RR_KIND_MEMCG;
	ci.page_shift = 12;
	ci.priority = 12;
	ci.nr_to_reclaim = 256;
	ci.memcg = m;
	ci.may_swap = ci.swap_present = true;
	memcpy(ci.root_rstat_lru_pages, in.root_rstat_lru_pages, sizeof(ci.root_rstat_lru_pages));
	ci.recorded = &rec;
	ci.recorded_reclaimed = &reclaimed;
	ci.nr_recorded = 1;
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, pred, 8, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(n, 0);			/* the bits are clear: no batch */
	ci.force_deactivate = true;
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, pred, 8, &n, targets, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);		/* 5888 >> 12 = 1 active file page */
	CU_ASSERT_EQUAL(pred[0].lru, RR_LRU_ACTIVE_FILE);
	CU_ASSERT_EQUAL(pred[0].nr_requested, 1);
	rr_policy_release(&pol);
}

/*
 * rr_sim_swappiness_run() against every value: a run ends exactly where
 * the targets (rr_sim_predict_call()'s, value by value) first change,
 * and the runs tile 1..200.  A call of v6.18 at priorities 12, 6 and 0
 * (SCAN_EQUAL at 0: one flat run), costs that tilt the fractions, and a
 * memcg protected by memory.low.
 */
static void test_swappiness_runs(void)
{
	static const int prios[] = { 12, 6, 0 };
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_call_input ci;
	struct rr_pred_batch pred[64];
	struct rr_error err;

	resolve(&pol, "kernel", "6.18", &km);
	for (size_t p = 0; p < sizeof(prios) / sizeof(prios[0]); p++) {
		int runs = 0;

		memset(&ci, 0, sizeof(ci));
		ci.km = &km;
		ci.kind = RR_KIND_MEMCG;
		ci.page_shift = 12;
		ci.priority = prios[p];
		ci.nr_to_reclaim = 1 << 20;
		ci.memcg = (struct rr_sim_memcg){
			.id = 5, .parent = -1, .online = true, .swappiness = 60,
			.lru_pages = { 300000, 20000, 90000, 40000 },
		};
		ci.may_swap = ci.swap_present = true;
		ci.anon_cost = 7000;
		ci.file_cost = 1300;
		for (int s = 1, last; s <= 200; s = last + 1) {
			uint64_t t0[4], t[4];
			size_t n = 0;

			ci.memcg.swappiness = s;
			CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, pred, 64, &n, t0, &err), 0);
			CU_ASSERT_EQUAL_FATAL(rr_sim_swappiness_run(&ci, &pol, s, 200, t0, &last, &err), 0);
			CU_ASSERT_TRUE_FATAL(last >= s && last <= 200);
			runs++;
			for (int v = s; v <= last + 1 && v <= 200; v++) {
				ci.memcg.swappiness = v;
				CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, pred, 64, &n, t,
									  &err), 0);
				/* the same up to @last, not after */
				CU_ASSERT_EQUAL(!memcmp(t, t0, sizeof(t)), v <= last);
			}
		}
		/* SCAN_EQUAL whatever the value at 0; fractions that move above */
		CU_ASSERT_TRUE(prios[p] == 0 ? runs == 1 : runs > 10);
	}
	rr_policy_release(&pol);
}

/*
 * get_scan_count() rule 3: SCAN_EQUAL at priority 0 only with swappiness
 * != 0 (docs/kernel-model.md §3.1).  Global direct reclaim skips rule 2,
 * so a swappiness-0 memcg with only anon pages reaches priority 0 with
 * SCAN_FRACT and an anon fraction of 0: no anon target at any priority.
 * Regression: SCAN_EQUAL scanned all 1000 anon pages at priority 0.
 */
static void test_scan_equal_needs_swappiness(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 1, .parent = -1, .online = true, .swappiness = 0,
		.lru_pages = { 1000, 0, 0, 0 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_DIRECT, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .swap_present = true,
		.cursor = -1, .root_rstat_lru_pages = { 1000, 0, 0, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.lowest_priority, 0);
	for (size_t i = 0; i < r.nr_targets; i++)
		CU_ASSERT_NOT_EQUAL(r.targets[i].lru, RR_LRU_INACTIVE_ANON);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 0);
	rr_sim_result_free(&r);
	/* with swappiness 60 anon is scanned, and the goal of 32 pages met */
	m.swappiness = 60;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_TRUE(r.nr_reclaimed_pages >= 32);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * The first priority-12 targets of a memory.reclaim write of 32 pages to
 * one online memcg of 0x4000 inactive anon and 0x4000 inactive file pages
 * (memcg swappiness 60, costs 0), with the write's swappiness= key
 * @key (-1: none).  @trim: the root's rstat shows the inactive file list
 * with no active list, so cache_trim_mode is set (§4); else the rstat view
 * is empty and it is not.  Return: 0, or -1 when rr_sim_run() refused.
 */
static int proactive_p12(const char *release, int key, bool trim, bool swap,
			 uint64_t target[RR_NR_EVICTABLE_LRU], char *msg, size_t msglen)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 9, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0x4000, 0, 0x4000, 0 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_PROACTIVE, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .swap_present = swap,
		.cursor = -1, .has_proactive_swappiness = key >= 0,
		.proactive_swappiness = key,
		.root_rstat_lru_pages = { trim ? 0x4000 : 0, 0, trim ? 0x4000 : 0, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err = { "", "" };
	int ret;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", release, &km);
	ret = rr_sim_run(&in, &pol, &r, &err);
	for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
		target[l] = 0;
	for (size_t i = 0; i < r.nr_targets; i++)
		if (r.targets[i].priority == 12 && !target[r.targets[i].lru])
			target[r.targets[i].lru] = r.targets[i].nr_pages;
	if (msg)
		snprintf(msg, msglen, "%s", err.msg);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
	return ret ? -1 : 0;
}

/*
 * sc->proactive_swappiness in get_scan_count() (68cd9050d871; "max" as
 * SWAPPINESS_ANON_ONLY).  At priority 12 each list asks 0x4000 >> 12 = 4
 * pages; with costs 0 the v5.8+ fractions are ap = sw, fp = 200 - sw over
 * 200 (§3.5), floored for an online memcg (76073c646f5f).
 */
static void test_proactive_swappiness(void)
{
	uint64_t t[RR_NR_EVICTABLE_LRU];
	char msg[600];

	/* no cache_trim_mode: SCAN_FRACT; 4 * 60/200 = 1.2 -> 1, 4 * 140/200 = 2.8 -> 2 */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", -1, false, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 1);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 2);
	/* swappiness=0: cgroup reclaim with swappiness 0 is SCAN_FILE */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", 0, false, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 4);
	/* swappiness=200: SCAN_FRACT with fp = 0: 4 * 200/200 = 4 and 0 */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", 200, false, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 4);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 0);
	/* swappiness=max: SCAN_ANON, the whole 4 pages, no file */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", RR_SWAPPINESS_ANON_ONLY, false, true, t,
					    NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 4);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 0);

	/* cache_trim_mode comes before SCAN_FRACT: 200 still scans file only
	 * (the case "max" was added for), max comes before it and scans anon */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", 200, true, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 4);
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", RR_SWAPPINESS_ANON_ONLY, true, true, t,
					    NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 4);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 0);
	/* no swap is tested first: max without swap scans file */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.18", RR_SWAPPINESS_ANON_ONLY, false, false, t,
					    NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_FILE], 4);

	/* releases: the key from v6.11, max from v6.16; else EINVAL */
	CU_ASSERT_EQUAL(proactive_p12("6.11", 0, false, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(proactive_p12("6.10", 0, false, true, t, msg, sizeof(msg)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "no swappiness= key"));
	CU_ASSERT_EQUAL(proactive_p12("6.16", RR_SWAPPINESS_ANON_ONLY, false, true, t,
				      NULL, 0), 0);
	CU_ASSERT_EQUAL(proactive_p12("6.15", RR_SWAPPINESS_ANON_ONLY, false, true, t,
				      msg, sizeof(msg)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "swappiness=max"));
	CU_ASSERT_EQUAL(proactive_p12("6.18", 202, false, true, t, msg, sizeof(msg)), -1);
	/* on 6.10 a write without the key replays as before */
	CU_ASSERT_EQUAL_FATAL(proactive_p12("6.10", -1, false, true, t, NULL, 0), 0);
	CU_ASSERT_EQUAL(t[RR_LRU_INACTIVE_ANON], 1);
}

/*
 * shrink_active_list() moves pages to the inactive list (§5.3, §20): a
 * 6.18 limit reclaim of 32 pages from a memcg with 100,000 active and no
 * inactive file pages, no swap (SCAN_FILE).  inactive_is_low(0, 100000)
 * holds (fewer than 1 GiB: ratio 1), so may_deactivate file is set at
 * every priority.  Per priority, targets size >> p; an inactive batch
 * reclaims all it takes (ratio 1), an active batch deactivates all it
 * takes; the goal check after a round with anon at 0 ends the loop:
 *   p12: active 100000 >> 12 = 24 moved         -> inactive 24, active 99976
 *   p11: 99976 >> 11 = 48 moved                 -> 72, 99928
 *   p10: 99928 >> 10 = 97 moved                 -> 169, 99831
 *   p9:  99831 >> 9 = 194 moved                 -> 363, 99637
 *   p8:  363 >> 8 = 1 reclaimed, 389 moved      -> 751, 99248     (1)
 *   p7:  751 >> 7 = 5 reclaimed, 775 moved      -> 1521, 98473    (6)
 *   p6:  1521 >> 6 = 23 reclaimed, 1538 moved   -> 3036, 96935    (29)
 *   p5:  3036 >> 5 = 94, 96935 >> 5 = 3029: round 1 reclaims 32 and
 *        moves 32; local 32 >= 32 and no anon: break               (61)
 * 61 pages in one call, lowest priority 5; 1 + 2 + 4 + 7 + 14 + 26 + 50
 * + 2 = 106 batches.  Before, active batches moved nothing: 0 pages.
 */
static void test_deactivation(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 4, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 0, 100000 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .swap_present = false,
		.cursor = -1, .root_rstat_lru_pages = { 0, 0, 0, 100000 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.calls, 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 61);
	CU_ASSERT_EQUAL(r.nr_scanned_pages, 61);
	CU_ASSERT_EQUAL(r.lowest_priority, 5);
	CU_ASSERT_EQUAL(r.batches, 106);
	CU_ASSERT_EQUAL(r.retries, 0);
	rr_sim_result_free(&r);

	/* a recorded share kept active (referenced VM_EXEC file folios), 1 of
	 * 4: each priority moves floor(3/4) of the pages taken so far, less
	 * what it moved before (error diffusion):
	 *   p12: 24 taken, 18 moved      -> inactive 18, active 99982
	 *   p11: 48, 54 - 18 = 36        -> 54, 99946
	 *   p10: 97, 126 - 54 = 72       -> 126, 99874
	 *   p9:  195, 273 - 126 = 147    -> 273, 99727
	 *   p8:  1 reclaimed; 389, 291   -> 563, 99436      (1)
	 *   p7:  4 reclaimed; 776, 582   -> 1141, 98854     (5)
	 *   p6:  17 reclaimed; 1544, 1158 -> 2282, 97696    (22)
	 *   p5:  2282 >> 5 = 71: round 1 reclaims 32, goal  (54) */
	m.deactivate_num[RR_LRU_FILE] = 3;
	m.deactivate_den[RR_LRU_FILE] = 4;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 54);
	CU_ASSERT_EQUAL(r.lowest_priority, 5);
	CU_ASSERT_EQUAL(r.batches, 106);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/*
 * Ratio-driven inactive batches activate the recorded share of what they
 * take, and the activated pages count as moved from the inactive to the
 * active list (rr_lru_removed()), as the recording's batches do.  One
 * memcg of 65547 inactive file pages, reclaimed/taken 1/4, activated/taken
 * 2/4 (2/3 of the pages not reclaimed), no recorded batch; a boundary at
 * priority 11 gives the kernel's sizes there (65547 inactive, 4095
 * active) with nothing removed before.
 *   p12: target 65547 >> 12 = 16: takes 16, reclaims 16/4 = 4, activates
 *        12 * 2/3 = 8 of the other 12; the run removed 12 inactive and
 *        -8 active pages
 *   p11: sizes 65547 - 12 = 65535 and 4095 + 8 = 4103: targets
 *        65535 >> 11 = 31 and 4103 >> 11 = 2.
 * Without the activation: 65543 >> 11 = 32 and 4095 >> 11 = 1.
 */
static void test_ratio_activation(void)
{
	static const struct rr_sim_boundary bd[] = {
		{ .priority = 11, .lru_pages = { 0, 0, 65547, 4095 } },
	};
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 6, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 65547, 0 },
		.ratio_num = { 1, 1 }, .ratio_den = { 4, 4 },
		/* 2/4 of those taken: 2/3 of those not reclaimed */
		.activate_num = { 2, 2 }, .activate_den = { 3, 3 },
		.boundaries = bd, .nr_boundaries = 1,
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .cursor = -1,
		.root_rstat_lru_pages = { 0, 0, 65547, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;
	uint64_t p11[RR_NR_EVICTABLE_LRU] = { 0 };

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	for (size_t i = 0; i < r.nr_targets; i++)
		if (r.targets[i].priority == 11)
			p11[r.targets[i].lru] = r.targets[i].nr_pages;
	CU_ASSERT_EQUAL(r.targets[0].nr_pages, 16);
	CU_ASSERT_EQUAL(p11[RR_LRU_INACTIVE_FILE], 31);
	CU_ASSERT_EQUAL(p11[RR_LRU_ACTIVE_FILE], 2);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/* A limit reclaim of 32 pages from 4 GiB of inactive file pages of
 * @folio pages each (6.18, no swap), every page reclaimable unless
 * @half: then half the folios are. */
static void folio_run(uint64_t folio, bool half, struct rr_sim_result *r)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 8, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 0, 0, 1048576, 0 },
		.folio_pages = { 1, folio },
		.ratio_num = { 1, 1 }, .ratio_den = { half ? 2 : 1, half ? 2 : 1 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = 32, .memcgs = &m,
		.nr_memcgs = 1, .page_shift = 12, .may_swap = true, .cursor = -1,
		.root_rstat_lru_pages = { 0, 0, 1048576, 0 },
	};
	struct rr_error err;

	memset(r, 0, sizeof(*r));
	resolve(&pol, "kernel", "6.18", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, r, &err), 0);
	rr_policy_release(&pol);
}

/*
 * isolate_lru_folios() counts every page of a folio against nr_to_scan
 * (scan += folio_nr_pages(), since 2019; the same in v6.6 and v6.18), so a
 * batch asking for b pages takes ceil(b / f) whole folios.  Priority 12
 * of 1048576 pages targets 256: the first batch asks for 32 and the goal
 * (32) is met after it (no anon: the loop ends).
 */
static void test_folio_pages(void)
{
	static const struct {
		uint64_t folio, taken;
	} t[] = {
		{ 1, 32 },	/* 32 folios */
		{ 4, 32 },	/* 8 folios of 4 */
		{ 64, 64 },	/* one 64-page folio passes 32 */
		{ 512, 512 },	/* one THP ends the 32-page batch */
	};
	struct rr_sim_result r;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		folio_run(t[i].folio, false, &r);
		CU_ASSERT_EQUAL(r.batches, 1);
		CU_ASSERT_EQUAL(r.nr_scanned_pages, t[i].taken);
		CU_ASSERT_EQUAL(r.nr_reclaimed_pages, t[i].taken);
		CU_ASSERT_EQUAL(r.lowest_priority, 12);
		rr_sim_result_free(&r);
	}
	/* whole folios are reclaimed: at 1/2, the first THP is kept (floor(1/2)
	 * = 0 folios), the second reclaimed (floor(2/2) - 0 = 1): 512 pages
	 * after two batches of 512 taken */
	folio_run(512, true, &r);
	CU_ASSERT_EQUAL(r.batches, 2);
	CU_ASSERT_EQUAL(r.nr_scanned_pages, 1024);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 512);
	rr_sim_result_free(&r);
}

/*
 * The recorded cursor in timestamp order (issue 16): episodes arrive as they
 * end.  Under root 1 with memcgs 1, 2, 3, 4: one episode ended at 100 ns
 * stopping on its goal at 2, another at 300 ns at 3.  An episode that
 * began at 400 ns starts after 3; one that began at 200 ns (it ran while
 * the second did) after 2, where the cursor was when it began; one that
 * began at 50 ns, before both, just before its own first memcg (4: after 3).
 */
static void test_cursor_timestamp_order(void)
{
	struct rr_sim_memcg m[4] = { { .id = 1, .parent = -1 }, { .id = 2 }, { .id = 3 }, { .id = 4 } };
	struct rr_sim_input in = { .memcgs = m, .nr_memcgs = 4 };
	struct rr_cursors cs = { NULL };
	struct rr_cursor *c;

	c = rr_cursor_start(&cs, 1, &in, 2, 10);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->pos_id[0], 1);	/* first under the root: before 2 */
	rr_cursor_recorded(c, 2, 12, 100);
	rr_cursor_recorded(c, 3, 11, 300);
	CU_ASSERT_EQUAL(rr_cursor_start(&cs, 1, &in, 4, 400)->pos_id[0], 3);
	CU_ASSERT_EQUAL(rr_cursor_start(&cs, 1, &in, 4, 200)->pos_id[1], 2);
	CU_ASSERT_EQUAL(rr_cursor_start(&cs, 1, &in, 4, 50)->pos_id[0], 3);
	CU_ASSERT_EQUAL(rr_cursor_start(&cs, 1, &in, 4, 0)->pos_id[0], 3);
	/* an episode that ran to priority 0 leaves the cursor at the start */
	rr_cursor_recorded(c, 4, 0, 500);
	CU_ASSERT_EQUAL(rr_cursor_start(&cs, 1, &in, 2, 600)->pos_id[0], 0);
	rr_cursors_free(&cs);
}


/* Global reclaim (docs/kernel-model.md §23): a kswapd run over @n memcgs
 * of @s inactive anon pages in @f-page folios, 64 KiB pages, v5.6. */
static void kswapd_vms_in(const char *spec, uint64_t balance, bool interval,
			  uint64_t unbalanced, struct rr_sim_result *res)
{
	static struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m[5];
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_KSWAPD, .memcgs = m, .nr_memcgs = 5,
		.page_shift = 16, .may_swap = true, .swap_present = true, .cursor = -1,
		.kswapd_nr_to_reclaim_pages = 884, .balance_reclaim_pages = balance,
		.root_rstat_lru_pages = { 4 * 8192, 4 * 8192, 0, 0 },
		.balance_interval = interval, .balance_unbalanced_pages = unbalanced,
	};
	struct rr_error err;

	memset(m, 0, sizeof(m));
	for (int i = 0; i < 5; i++) {
		m[i].id = (uint64_t)i + 1;
		m[i].parent = i ? 0 : -1;
		m[i].online = true;
		m[i].swappiness = 60;
		if (i) {
			m[i].lru_pages[RR_LRU_INACTIVE_ANON] = 8192;
			m[i].lru_pages[RR_LRU_ACTIVE_ANON] = 8192;
			m[i].rstat_lru_pages[RR_LRU_INACTIVE_ANON] = 8192;
			m[i].rstat_lru_pages[RR_LRU_ACTIVE_ANON] = 8192;
			m[i].folio_pages[RR_LRU_ANON] = 8192;
		}
	}
	resolve(&pol, spec, "5.6", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, res, &err), 0);
	rr_policy_release(&pol);
}

static void kswapd_vms(const char *spec, uint64_t balance, struct rr_sim_result *res)
{
	kswapd_vms_in(spec, balance, false, 0, res);
}

/* A balance point inferred from a recording: the interval between what
 * the recorded run had before its lowest priority (not balanced) and what
 * it reclaimed (balanced); a replayed total strictly inside it at a
 * balance check is undecidable (sim.h). */
static void test_kswapd_balance_interval(void)
{
	struct rr_sim_result r;

	memset(&r, 0, sizeof(r));
	/* one pass reclaims 4 * 8192 = 32768 >= 1000: balanced at the first
	 * check after it, none inside (0, 1000) */
	kswapd_vms_in("original", 1000, true, 0, &r);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_BALANCED);
	CU_ASSERT_FALSE(r.kswapd_balance_undecidable);
	/* 0 at 12, 32768 at 11: inside (0, 40000) at the next check; the run
	 * goes on as if not balanced and reaches priority 1 */
	rr_sim_result_clear(&r);
	kswapd_vms_in("online-roundup", 40000, true, 0, &r);
	CU_ASSERT_TRUE(r.kswapd_balance_undecidable);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_LADDER);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 4 * 8192);
	/* the lower end itself is known not balanced: (32768, 40000) */
	rr_sim_result_clear(&r);
	kswapd_vms_in("online-roundup", 40000, true, 32768, &r);
	CU_ASSERT_FALSE(r.kswapd_balance_undecidable);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_LADDER);
	/* a scenario's balance point is exact: no interval, never said */
	rr_sim_result_clear(&r);
	kswapd_vms_in("online-roundup", 40000, false, 0, &r);
	CU_ASSERT_FALSE(r.kswapd_balance_undecidable);
	rr_sim_result_free(&r);
}

static void test_kswapd_run(void)
{
	struct rr_sim_result r;

	memset(&r, 0, sizeof(r));
	/* 8192 >> 12 = 2: ceil(2 * 60 / 201) = 1 page, one whole 8192-page
	 * folio per memcg in the first pass; 4 * 8192 scanned >= 884 and
	 * progress: priority 12 kept, balanced at the next check */
	kswapd_vms("original", 1000, &r);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_BALANCED);
	CU_ASSERT_EQUAL(r.kswapd_passes, 1);
	CU_ASSERT_EQUAL(r.lowest_priority, 12);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 4 * 8192);
	CU_ASSERT_EQUAL_FATAL(r.nr_memcg_slots, 5);
	/* the full walk visits the root too; each VM gives one folio */
	for (int i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(r.memcg_calls[i], 1);
		CU_ASSERT_EQUAL(r.memcg_reclaimed_pages[i], i ? 8192 : 0);
	}
	/* floor(2 * 60 / 201) = 0: nothing at 12, priority 11 (4 * 60 / 201
	 * = 1) reclaims the folios; the arrays are reused after a clear */
	rr_sim_result_clear(&r);
	kswapd_vms("online-roundup", 1000, &r);
	CU_ASSERT_EQUAL(r.kswapd_passes, 2);
	CU_ASSERT_EQUAL(r.lowest_priority, 11);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 4 * 8192);
	CU_ASSERT_EQUAL(r.memcg_calls[1], 2);
	/* never balanced: after the lists are empty nothing is reclaimed, the
	 * priority falls every pass: 12 (nothing), 11 (4 folios), 11 again
	 * (progress, 32768 scanned >= 884), then 10 .. 1 with nothing left
	 * on the inactive lists (active anon is not deactivated: inactive is
	 * not low) */
	rr_sim_result_clear(&r);
	kswapd_vms("online-roundup", UINT64_MAX, &r);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_LADDER);
	CU_ASSERT_EQUAL(r.lowest_priority, 1);
	CU_ASSERT_EQUAL(r.kswapd_passes, 1 + 2 + 10);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 4 * 8192);
	rr_sim_result_free(&r);
}

/* The cache-trim retry (v6.10+): the root's stale rstat view claims a
 * large inactive file list (cache_trim_mode: SCAN_FILE) while the exact
 * lists hold only anon; the ladder reclaims nothing, then the run starts
 * over with cache_trim_mode off and SCAN_FRACT scans anon:
 * 65536 >> 12 = 16, 16 * 60 / 200 = 4 (v5.8+ zero costs). */
static void test_kswapd_cache_trim_retry(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m = {
		.id = 1, .parent = -1, .online = true, .swappiness = 60,
		.lru_pages = { 65536, 0, 0, 0 },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_KSWAPD, .memcgs = &m, .nr_memcgs = 1,
		.page_shift = 12, .may_swap = true, .swap_present = true, .cursor = -1,
		.kswapd_nr_to_reclaim_pages = 32, .balance_reclaim_pages = 4,
		.root_rstat_lru_pages = { 65536, 0, 1 << 20, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.10", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.retries, 1);
	CU_ASSERT_EQUAL(r.kswapd_passes, 12 + 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 4);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_BALANCED);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.9", &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.retries, 0);
	CU_ASSERT_EQUAL(r.kswapd_passes, 12);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 0);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_LADDER);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/* kswapd_age_node(): with swap and the root's inactive anon low, one
 * 32-page active anon batch per memcg of the walk, empty ones included. */
static void test_kswapd_age_node(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m[3];
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_KSWAPD, .memcgs = m, .nr_memcgs = 3,
		.page_shift = 12, .may_swap = true, .swap_present = true, .cursor = -1,
		.kswapd_nr_to_reclaim_pages = 32, .balance_reclaim_pages = 0,
		/* inactive anon low at the root: 100 * 1 < 1000 */
		.root_rstat_lru_pages = { 100, 1000, 0, 0 },
	};
	struct rr_sim_result r;
	struct rr_error err;

	memset(m, 0, sizeof(m));
	for (int i = 0; i < 3; i++) {
		m[i].id = (uint64_t)i + 1;
		m[i].parent = i ? 0 : -1;
		m[i].online = true;
		m[i].swappiness = 60;
	}
	m[2].lru_pages[RR_LRU_ACTIVE_ANON] = 1000;
	memset(&r, 0, sizeof(r));
	resolve(&pol, "kernel", "6.18", &km);
	/* balanced at the first check: no pass, no aging */
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	CU_ASSERT_EQUAL(r.kswapd_passes, 0);
	CU_ASSERT_EQUAL(r.batches, 0);
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_BALANCED);
	rr_sim_result_clear(&r);
	/* one iteration: kswapd_age_node() gives every memcg, empty ones
	 * included, one 32-page active anon batch (3 events), then the pass */
	in.balance_reclaim_pages = 1;
	in.nr_memcgs = 3;
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, &r, &err), 0);
	/* each iteration ages 32 active pages of [2] onto its inactive list
	 * (3 batches: [0], [1], [2]); SCAN_FRACT 60/200 (zero costs) with the
	 * anon deactivation bit set (the root's inactive is low):
	 *   p12..p8: inactive 32k >> p and active (1000 - 32k) >> p give 0
	 *   p7: inactive 192 >> 7 = 1 -> 0; active 808 >> 7 = 6 -> 1
	 *   p6: 224 >> 6 = 3 -> 0; 776 >> 6 = 12 -> 3
	 *   (an active anon target alone runs no round: shrink_lruvec()
	 *   loops on inactive anon and both file lists only)
	 *   p5: 256 >> 5 = 8 -> 2 reclaimed; 744 >> 5 = 23 -> 6 moved
	 * progress 0 until p5: 8 passes, 24 aging + 2 pass batches; [1] is
	 * empty (below min: skipped), the root and [2] get a call per pass */
	CU_ASSERT_EQUAL(r.kswapd_end, RR_KSWAPD_END_BALANCED);
	CU_ASSERT_EQUAL(r.kswapd_passes, 8);
	CU_ASSERT_EQUAL(r.lowest_priority, 5);
	CU_ASSERT_EQUAL(r.batches, 3 * 8 + 2);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 2);
	CU_ASSERT_EQUAL(r.memcg_calls[0], 8);
	CU_ASSERT_EQUAL(r.memcg_calls[1], 0);
	CU_ASSERT_EQUAL(r.memcg_calls[2], 8);
	CU_ASSERT_EQUAL(r.memcg_reclaimed_pages[2], 2);
	rr_sim_result_free(&r);
	rr_policy_release(&pol);
}

/* rr_sim_predict_call() for global reclaim: swappiness 0 keeps SCAN_FRACT
 * (anon fraction 0, so file only here), direct reclaim at priority 12
 * takes its whole target, kswapd stops after the round that reaches its
 * nr_to_reclaim, file_is_tiny from the node fields gives SCAN_ANON. */
static void test_predict_global(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_pred_batch out[64];
	uint64_t got[64], targets[RR_NR_EVICTABLE_LRU];
	struct rr_call_input ci = {
		.km = &km, .kind = RR_KIND_DIRECT, .page_shift = 12, .priority = 12,
		.nr_to_reclaim = 32, .may_swap = true, .swap_present = true,
		.memcg = { .id = 1, .parent = -1, .online = true, .swappiness = 0,
			   .lru_pages = { 65536, 0, 65536, 0 } },
		.root_rstat_lru_pages = { 65536, 0, 65536, 65536 * 8 },
		.recorded_reclaimed = got,
	};
	struct rr_error err;
	size_t n;

	for (int i = 0; i < 64; i++)
		got[i] = 32;
	resolve(&pol, "kernel", "6.18", &km);
	/* direct, swappiness 0: SCAN_FRACT with ap = 0: anon 0, file
	 * 16 * 200 / 200 = 16; no goal check at 12: one batch of 16 */
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_ANON], 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_FILE], 16);
	/* swappiness 60: anon 16 * 60 / 200 = 4, file 16 * 140 / 200 = 11 */
	ci.memcg.swappiness = 60;
	ci.memcg.lru_pages[RR_LRU_INACTIVE_FILE] = 1 << 20;	/* file 256 -> 179 */
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_FILE], 256 * 140 / 200);
	/* direct at 12: every batch of the 179-page target, 32 at a time,
	 * plus the anon one: ceil(179 / 32) = 6 file batches + 1 anon */
	CU_ASSERT_EQUAL(n, 6 + 1);
	/* kswapd with nr_to_reclaim 32, fed the recorded reclaim of a first
	 * round of 4 anon and 32 file pages: 36 >= 32, the cut leaves no anon
	 * to scan and ends the call after that round (v6.1+) */
	{
		static const struct rr_pred_batch rec[] = {
			{ RR_LRU_INACTIVE_ANON, 4 }, { RR_LRU_INACTIVE_FILE, 32 },
		};

		got[0] = 4;
		ci.recorded = rec;
		ci.nr_recorded = 2;
		ci.kind = RR_KIND_KSWAPD;
		CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
		CU_ASSERT_EQUAL(n, 2);
		/* direct reclaim at 12 goes on whatever it reclaimed */
		ci.kind = RR_KIND_DIRECT;
		CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
		CU_ASSERT_EQUAL(n, 6 + 1);
		ci.recorded = NULL;
		ci.nr_recorded = 0;
	}
	/* a memcg call with swappiness 0 scans file only (SCAN_FILE) */
	ci.kind = RR_KIND_MEMCG;
	ci.memcg.swappiness = 0;
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_FILE], 256);
	/* file_is_tiny: free 100 + file (rstat 65536 + 524288) <= high */
	ci.kind = RR_KIND_DIRECT;
	ci.memcg.swappiness = 60;
	ci.node_free_pages = 100;
	ci.node_high_wmark_pages = 1 << 20;
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_ANON], 16);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_FILE], 0);
	/* the same node fields mean nothing to a memcg call */
	ci.kind = RR_KIND_MEMCG;
	CU_ASSERT_EQUAL_FATAL(rr_sim_predict_call(&ci, &pol, out, 64, &n, targets, &err), 0);
	CU_ASSERT_EQUAL(targets[RR_LRU_INACTIVE_ANON], 4);
	rr_policy_release(&pol);
}

/*
 * Before v5.5 (docs/kernel-model.md §6.5): limit reclaim of a parent
 * memcg [0] (empty lists) with two children.  Sizes in 4 KiB pages, 6 %
 * of a GiB or less, so inactive_list_is_low()'s ratio is 1 (gb = 0):
 * a list is "low" when inactive < active.
 *
 *   A (id 2): inactive_anon 40960, inactive_file 40960, active_file 8192
 *   B (id 3): inactive_anon 40960, inactive_file 4096, active_file 20480
 *
 * The reclaim root's rstat view is the sum: inactive_file 45056, active
 * file 28672: not low, and 45056 >> 12 = 11, so from v5.5
 * prepare_scan_control()/shrink_node() sets cache_trim_mode once and
 * every lruvec gets SCAN_FILE.  Before, get_scan_count() asks each lruvec:
 * A is not low (40960 >= 8192) and 40960 >> 12 = 10 > 0: SCAN_FILE; B is
 * low (4096 < 20480): SCAN_FRACT with the v4.19/v5.4 weights (equal
 * recent_scanned and rotated, §3.4) ap = 60, fp = 140, denominator 201.
 */
static void two_children(const char *release, uint64_t nr_pages, int cursor,
			 bool file_only, struct rr_sim_result *res)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy pol;
	struct rr_sim_memcg m[3] = {
		{ .id = 1, .parent = -1, .online = true, .swappiness = 60 },
		{ .id = 2, .parent = 0, .online = true, .swappiness = 60,
		  .lru_pages = { 40960, 0, 40960, 8192 } },
		{ .id = 3, .parent = 0, .online = true, .swappiness = 60,
		  .lru_pages = { 40960, 0, 4096, 20480 } },
	};
	struct rr_sim_input in = {
		.km = &km, .kind = RR_KIND_MEMCG, .nr_pages = nr_pages, .memcgs = m,
		.nr_memcgs = 3, .page_shift = 12, .may_swap = !file_only,
		.swap_present = !file_only, .cursor = cursor,
		.root_rstat_lru_pages = { 81920, 0, 45056, 28672 },
	};
	struct rr_error err;

	if (file_only) {	/* file only: 131072 inactive file pages each */
		for (int i = 1; i < 3; i++) {
			memset(m[i].lru_pages, 0, sizeof(m[i].lru_pages));
			m[i].lru_pages[RR_LRU_INACTIVE_FILE] = 131072;
		}
		memset(in.root_rstat_lru_pages, 0, sizeof(in.root_rstat_lru_pages));
		in.root_rstat_lru_pages[RR_LRU_INACTIVE_FILE] = 262144;
	}
	memset(res, 0, sizeof(*res));
	resolve(&pol, "kernel", release, &km);
	CU_ASSERT_EQUAL_FATAL(rr_sim_run(&in, &pol, res, &err), 0);
	rr_policy_release(&pol);
}

/* The priority-12 target of list @lru of memcg @id (0 when none). */
static uint64_t p12_target(const struct rr_sim_result *r, uint64_t id, int lru)
{
	for (size_t i = 0; i < r->nr_targets; i++)
		if (r->targets[i].memcg_id == id && r->targets[i].priority == 12 &&
		    r->targets[i].lru == lru)
			return r->targets[i].nr_pages;
	return 0;
}

static void test_cache_trim_per_lruvec(void)
{
	struct rr_sim_result r;
	/* nr_to_reclaim of 2^20 pages: no pass meets it, both children are
	 * walked at priority 12 under every release */
	const uint64_t big = 1 << 20;

	/* v4.19: A SCAN_FILE: inactive file 40960 >> 12 = 10, active file
	 * 8192 >> 12 = 2, no anon.  B SCAN_FRACT, floor (div64_u64()):
	 * inactive anon 40960 >> 12 = 10, 10 * 60 / 201 = 2; inactive file
	 * 4096 >> 12 = 1, 1 * 140 / 201 = 0; active file 20480 >> 12 = 5,
	 * 5 * 140 / 201 = 3 */
	two_children("4.19", big, -1, false, &r);
	CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_ANON), 0);
	CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_FILE), 10);
	CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_ACTIVE_FILE), 2);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_ANON), 2);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_FILE), 0);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_ACTIVE_FILE), 3);
	rr_sim_result_free(&r);

	/* v5.4: the same per-lruvec choice; SCAN_FRACT rounds up
	 * (68600f623d69, v4.20 - v5.6-rc2): ceil(600 / 201) = 3,
	 * ceil(140 / 201) = 1, ceil(700 / 201) = 4 */
	two_children("5.4", big, -1, false, &r);
	CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_ANON), 0);
	CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_FILE), 10);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_ANON), 3);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_FILE), 1);
	CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_ACTIVE_FILE), 4);
	rr_sim_result_free(&r);

	/* v5.5 and 6.18: one decision at the root, SCAN_FILE for both: B
	 * scans inactive file 1 and active file 5, no anon */
	for (int k = 0; k < 2; k++) {
		two_children(k ? "6.18" : "5.5", big, -1, false, &r);
		CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_ANON), 0);
		CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_INACTIVE_FILE), 10);
		CU_ASSERT_EQUAL(p12_target(&r, 2, RR_LRU_ACTIVE_FILE), 2);
		CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_ANON), 0);
		CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_INACTIVE_FILE), 1);
		CU_ASSERT_EQUAL(p12_target(&r, 3, RR_LRU_ACTIVE_FILE), 5);
		rr_sim_result_free(&r);
	}
}

/*
 * Limit reclaim's walk stop before v5.4 (shrink_node(): break once
 * sc->nr_reclaimed >= sc->nr_to_reclaim, 1ba6fc9af35b removed it).  The
 * children hold 131072 inactive file pages each and no swap: SCAN_FILE,
 * priority-12 target 131072 >> 12 = 32 = one batch, every page taken is
 * reclaimed (no recorded ratio: 1).  nr_to_reclaim = 32.  The walk hands
 * out the parent (no pages: 0), then A: 32 pages, 32 >= 32, the walk
 * breaks and do_try_to_free_pages() stops at priority 12 with 32.
 * v5.4 - v6.10 walk everything: A and B, 64 pages.  v6.11+ stops after A
 * again (partial walk, §6.3).
 */
static void test_limit_walk_stop(void)
{
	struct rr_sim_result r;
	static const struct {
		const char *release;
		uint64_t reclaimed, calls_b;
	} rows[] = {
		{ "4.19", 32, 0 }, { "5.3", 32, 0 }, { "5.4", 64, 1 }, { "5.5", 64, 1 },
		{ "6.10", 64, 1 }, { "6.18", 32, 0 },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		two_children(rows[k].release, 32, -1, true, &r);
		CU_ASSERT_EQUAL(r.nr_reclaimed_pages, rows[k].reclaimed);
		CU_ASSERT_EQUAL(r.nr_scanned_pages, rows[k].reclaimed);
		CU_ASSERT_EQUAL(r.lowest_priority, 12);
		CU_ASSERT_EQUAL(r.memcg_calls[0], 1);
		CU_ASSERT_EQUAL(r.memcg_calls[1], 1);
		CU_ASSERT_EQUAL(r.memcg_reclaimed_pages[1], 32);
		CU_ASSERT_EQUAL(r.memcg_calls[2], rows[k].calls_b);
		rr_sim_result_free(&r);
	}

	/* v4.19's cookie: the priority-12 position stays on A (index 1);
	 * the next call's walk starts after it, at B (32 pages, stop), and
	 * the one after that finds the end of the subtree first and
	 * restarts at the parent, then A */
	two_children("4.19", 32, -1, true, &r);
	CU_ASSERT_EQUAL(r.cursor, 1);
	rr_sim_result_free(&r);
	two_children("4.19", 32, 1, true, &r);
	CU_ASSERT_EQUAL(r.memcg_calls[0], 0);
	CU_ASSERT_EQUAL(r.memcg_calls[1], 0);
	CU_ASSERT_EQUAL(r.memcg_calls[2], 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 32);
	CU_ASSERT_EQUAL(r.cursor, 2);
	rr_sim_result_free(&r);
	two_children("4.19", 32, 2, true, &r);
	CU_ASSERT_EQUAL(r.memcg_calls[0], 1);
	CU_ASSERT_EQUAL(r.memcg_calls[1], 1);
	CU_ASSERT_EQUAL(r.memcg_calls[2], 0);
	CU_ASSERT_EQUAL(r.cursor, 1);
	rr_sim_result_free(&r);

	/* 96 pages: priority 12 walks parent, A, B (64 < 96, generation
	 * ends, position reset); priority 11 (its own position, fresh)
	 * starts at the parent again: A's target 131040 >> 11 = 63 pages,
	 * two batches (32 + 31): 64 + 63 = 127 >= 96, stop after A */
	two_children("4.19", 96, -1, true, &r);
	CU_ASSERT_EQUAL(r.lowest_priority, 11);
	CU_ASSERT_EQUAL(r.memcg_calls[0], 2);
	CU_ASSERT_EQUAL(r.memcg_calls[1], 2);
	CU_ASSERT_EQUAL(r.memcg_calls[2], 1);
	CU_ASSERT_EQUAL(r.nr_reclaimed_pages, 127);
	CU_ASSERT_EQUAL(r.cursor, -1);
	rr_sim_result_free(&r);
}

int register_sim_tests(void)
{
	CU_pSuite s = CU_add_suite("sim", NULL, NULL);

	if (!s || !CU_add_test(s, "Gavin's 0x4000 vs 0x1000 thresholds", test_gavin_thresholds) ||
	    !CU_add_test(s, "get_scan_count fractions", test_fractions) ||
	    !CU_add_test(s, "inactive_is_low ratios", test_inactive_is_low) ||
	    !CU_add_test(s, "memory.reclaim chunk tables (16.2, C1)", test_chunk_tables) ||
	    !CU_add_test(s, "memory.reclaim retry budget", test_chunk_retries) ||
	    !CU_add_test(s, "C2 structural model (16.3)", test_c2_structural) ||
	    !CU_add_test(s, "shrink_lruvec proportional cut", test_shrink_lruvec_cut) ||
	    !CU_add_test(s, "memory.min/low protection", test_protection) ||
	    !CU_add_test(s, "direct reclaim at priority 12", test_direct_priority12) ||
	    !CU_add_test(s, "recorded outcomes and boundary sizes", test_recorded_outcomes) ||
	    !CU_add_test(s, "activated pages at a recorded boundary", test_activated_at_boundary) ||
	    !CU_add_test(s, "silent first ladders, force_deactivate", test_silent_first_ladder) ||
	    !CU_add_test(s, "SCAN_EQUAL needs swappiness", test_scan_equal_needs_swappiness) ||
	    !CU_add_test(s, "swappiness runs of equal targets", test_swappiness_runs) ||
	    !CU_add_test(s, "memory.reclaim swappiness= and max", test_proactive_swappiness) ||
	    !CU_add_test(s, "active batches deactivate", test_deactivation) ||
	    !CU_add_test(s, "ratio batches activate", test_ratio_activation) ||
	    !CU_add_test(s, "whole folios per batch", test_folio_pages) ||
	    !CU_add_test(s, "the recorded cursor in timestamp order", test_cursor_timestamp_order) ||
	    !CU_add_test(s, "kswapd run: eligibility, passes, end", test_kswapd_run) ||
	    !CU_add_test(s, "kswapd run: the recorded balance interval", test_kswapd_balance_interval) ||
	    !CU_add_test(s, "kswapd cache-trim retry (v6.10)", test_kswapd_cache_trim_retry) ||
	    !CU_add_test(s, "kswapd_age_node batches", test_kswapd_age_node) ||
	    !CU_add_test(s, "per-call prediction of global reclaim", test_predict_global) ||
	    !CU_add_test(s, "cache trim per lruvec before v5.5", test_cache_trim_per_lruvec) ||
	    !CU_add_test(s, "limit reclaim walk stop before v5.4", test_limit_walk_stop))
		return -1;
	return 0;
}
