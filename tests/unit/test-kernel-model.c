// SPDX-License-Identifier: GPL-2.0-only
#include "../../src/release/release.h"
#include "unit.h"

static void test_parse_release(void)
{
	struct rr_kernel_model km;

	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.18.44-fc-v669"), 0);
	CU_ASSERT_EQUAL(km.major, 6);
	CU_ASSERT_EQUAL(km.minor, 18);
	CU_ASSERT_STRING_EQUAL(km.release, "6.18.44-fc-v669");
	CU_ASSERT_EQUAL(km.sublevel, 44);
	CU_ASSERT_TRUE(km.partial_walk);
	CU_ASSERT_TRUE(km.cost_zero_returns);
	CU_ASSERT_TRUE(km.cut_one_more_round);
	CU_ASSERT_FALSE(km.denominator_plus_one);
	CU_ASSERT_EQUAL(km.swappiness_max, 200);
	CU_ASSERT_TRUE(km.proactive_swappiness_key);
	CU_ASSERT_TRUE(km.proactive_swappiness_max);
}

static void test_version_switches(void)
{
	struct rr_kernel_model km;

	/* kswapd_shrink_node()'s max(scanned, reclaimed), 3f74e6bd3b84: v6.11,
	 * 6.6.y from 6.6.44; the cache-trim retry: v6.10 */
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.10.2"), 0);
	CU_ASSERT_FALSE(km.kswapd_progress_max);
	CU_ASSERT_TRUE(km.kswapd_cache_trim_retry);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.11"), 0);
	CU_ASSERT_TRUE(km.kswapd_progress_max);
	CU_ASSERT_EQUAL(km.sublevel, -1);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.6.44"), 0);
	CU_ASSERT_TRUE(km.kswapd_progress_max);
	CU_ASSERT_FALSE(km.kswapd_cache_trim_retry);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.6.43"), 0);
	CU_ASSERT_FALSE(km.kswapd_progress_max);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.6-rc1"), 0);
	CU_ASSERT_EQUAL(km.sublevel, -1);
	CU_ASSERT_FALSE(km.kswapd_progress_max);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.9"), 0);
	CU_ASSERT_FALSE(km.kswapd_cache_trim_retry);

	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "5.6"), 0);
	CU_ASSERT_TRUE(km.denominator_plus_one);	/* until a4fe1631f313, v5.8 */
	CU_ASSERT_FALSE(km.cost_fractions);
	CU_ASSERT_FALSE(km.cut_one_more_round);		/* f53af4285d77 is v6.1 */
	CU_ASSERT_FALSE(km.partial_walk);
	CU_ASSERT_EQUAL(km.swappiness_max, 100);

	/* limit reclaim's walk stop and shared per-priority position: before
	 * 1ba6fc9af35b (v5.4); the per-lruvec cache-trim and file-is-tiny
	 * anon choice: before b91ac374346b (v5.5) */
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "4.19.325"), 0);
	CU_ASSERT_TRUE(km.limit_walk_stops);
	CU_ASSERT_TRUE(km.cache_trim_per_lruvec);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "5.3"), 0);
	CU_ASSERT_TRUE(km.limit_walk_stops);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "5.4.293"), 0);
	CU_ASSERT_FALSE(km.limit_walk_stops);
	CU_ASSERT_TRUE(km.cache_trim_per_lruvec);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "5.5"), 0);
	CU_ASSERT_FALSE(km.limit_walk_stops);
	CU_ASSERT_FALSE(km.cache_trim_per_lruvec);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.18"), 0);
	CU_ASSERT_FALSE(km.limit_walk_stops);
	CU_ASSERT_FALSE(km.cache_trim_per_lruvec);

	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.10"), 0);
	CU_ASSERT_FALSE(km.proactive_swappiness_key);	/* 68cd9050d871 is v6.11 */
	CU_ASSERT_FALSE(km.partial_walk);
	CU_ASSERT_TRUE(km.cost_rotations_x32);
	CU_ASSERT_FALSE(km.cost_zero_returns);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.11"), 0);
	CU_ASSERT_TRUE(km.partial_walk);
	CU_ASSERT_TRUE(km.proactive_swappiness_key);
	CU_ASSERT_FALSE(km.proactive_swappiness_max);	/* swappiness=max: v6.16 */
	CU_ASSERT_TRUE(rr_kernel_at_least(&km, 6, 11));
	CU_ASSERT_FALSE(rr_kernel_at_least(&km, 6, 12));
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.15"), 0);
	CU_ASSERT_FALSE(km.proactive_swappiness_max);
	CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, "6.16"), 0);
	CU_ASSERT_TRUE(km.proactive_swappiness_max);
	CU_ASSERT_TRUE(rr_kernel_at_least(&km, 5, 19));
}

static void test_bad_release(void)
{
	struct rr_kernel_model km;

	CU_ASSERT_EQUAL(rr_kernel_model_init(&km, "abc"), -1);
	CU_ASSERT_EQUAL(rr_kernel_model_init(&km, "3.10.0"), -1);
	CU_ASSERT_EQUAL(rr_kernel_model_init(&km, "6"), -1);
	CU_ASSERT_EQUAL(rr_kernel_model_init(&km, ""), -1);
	CU_ASSERT_EQUAL(rr_kernel_model_init(&km, NULL), -1);
}

int register_kernel_model_tests(void)
{
	CU_pSuite s = CU_add_suite("kernel-model", NULL, NULL);

	if (!s || !CU_add_test(s, "parse 6.18 release string", test_parse_release) ||
	    !CU_add_test(s, "version switches", test_version_switches) ||
	    !CU_add_test(s, "bad release strings", test_bad_release))
		return -1;
	return 0;
}
