// SPDX-License-Identifier: GPL-2.0-only
/*
 * The time model (src/timing/cost-model.c): least squares on known data.
 */
#include <math.h>

#include "unit.h"
#include "../../src/timing/timing.h"

#define NEAR(a, b, eps) CU_ASSERT_TRUE(fabs((a) - (b)) <= (eps))

/* Durations made exactly of 20 us + 60 ns/page scanned + 250 ns/page
 * reclaimed: the fit gives those terms back, no error, R^2 1. */
static void test_exact_terms(void)
{
	static const uint64_t scanned[] = { 32, 64, 640, 4096, 100, 7000, 32, 900, 1500, 64 };
	static const uint64_t reclaimed[] = { 32, 10, 600, 1000, 100, 7000, 0, 450, 1500, 64 };
	struct rr_cost_data d = { 0 };
	struct rr_cost_fit f;
	double total = 0;

	for (int i = 0; i < 10; i++) {
		uint64_t ns = 20000 + 60 * scanned[i] + 250 * reclaimed[i];

		rr_cost_add(&d, scanned[i], reclaimed[i], ns);
		total += (double)ns;
	}
	rr_cost_fit(&d, &f);
	CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_FIXED | RR_COST_TERM_SCAN | RR_COST_TERM_RECLAIM);
	CU_ASSERT_EQUAL(f.n, 10);
	NEAR(f.fixed_ns, 20000, 1e-6);
	NEAR(f.scan_ns_per_page, 60, 1e-9);
	NEAR(f.reclaim_ns_per_page, 250, 1e-9);
	NEAR(f.rms_error_ns, 0, 1e-3);
	NEAR(f.r2, 1, 1e-12);
	NEAR(f.total_ns, total, 1e-6);
	/* a policy's estimate: 3 calls, 96 pages scanned, 64 reclaimed */
	NEAR(rr_cost_estimate_ns(&f, 3, 96, 64), 3 * 20000 + 60 * 96 + 250 * 64, 1e-6);
}

/*
 * Noise: residuals +e, -e alternate on calls that pair up, so the fitted
 * terms stay the true ones and the residual standard error is
 * sqrt(n e^2 / (n - 3)).
 */
static void test_noise(void)
{
	struct rr_cost_data d = { 0 };
	struct rr_cost_fit f;
	const double e = 1000;
	int n = 0;

	/* pairs of identical (scanned, reclaimed) with +e and -e */
	for (int i = 0; i < 6; i++) {
		uint64_t s = 32 + (uint64_t)i * 100, r = (uint64_t)(i * i) * 7;
		uint64_t ns = 5000 + 100 * s + 300 * r;

		rr_cost_add(&d, s, r, ns + (uint64_t)e);
		rr_cost_add(&d, s, r, ns - (uint64_t)e);
		n += 2;
	}
	rr_cost_fit(&d, &f);
	CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_FIXED | RR_COST_TERM_SCAN | RR_COST_TERM_RECLAIM);
	NEAR(f.fixed_ns, 5000, 1e-6);
	NEAR(f.scan_ns_per_page, 100, 1e-9);
	NEAR(f.reclaim_ns_per_page, 300, 1e-9);
	NEAR(f.rms_error_ns, sqrt(n * e * e / (n - 3)), 1e-6);
	CU_ASSERT_TRUE(f.r2 > 0.99 && f.r2 < 1);
}

/* Every page scanned was reclaimed: one per-page term; every call the
 * same: the mean; fewer than 8 calls: no fit. */
static void test_degenerate(void)
{
	struct rr_cost_data d = { 0 }, same = { 0 }, few = { 0 };
	struct rr_cost_fit f;

	for (int i = 1; i <= 8; i++) {
		rr_cost_add(&d, 32 * (uint64_t)i, 32 * (uint64_t)i, 1000 + 310 * 32 * (uint64_t)i);
		rr_cost_add(&same, 32, 32, 4000 + (i % 2 ? 100 : 0));
	}
	rr_cost_fit(&d, &f);
	CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_FIXED | RR_COST_TERM_SCAN);
	NEAR(f.fixed_ns, 1000, 1e-6);
	NEAR(f.scan_ns_per_page, 310, 1e-9);
	NEAR(f.reclaim_ns_per_page, 0, 0);
	rr_cost_fit(&same, &f);
	CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_FIXED);
	NEAR(f.fixed_ns, 4050, 1e-9);
	for (int i = 0; i < RR_COST_MIN_CALLS - 1; i++)
		rr_cost_add(&few, 32, 32, 1000);
	rr_cost_fit(&few, &f);
	CU_ASSERT_EQUAL(f.terms, 0);
	CU_ASSERT_PTR_NOT_NULL(f.why_not);
	NEAR(rr_cost_estimate_ns(&f, 10, 320, 320), 0, 0);
}

/*
 * Durations that fall as pages are reclaimed (an unconstrained fit gives
 * reclaim -100 ns/page): the reclaim term is left out and the rest fitted
 * alone, every coefficient >= 0, as the best such fit.
 */
static void test_non_negative(void)
{
	struct rr_cost_data d = { 0 };
	struct rr_cost_fit f;

	for (int i = 0; i < 12; i++) {
		uint64_t s = 100 + 50 * (uint64_t)i, r = (uint64_t)(i % 3) * 40;

		rr_cost_add(&d, s, r, 10000 + 200 * s - 100 * r);
	}
	rr_cost_fit(&d, &f);
	CU_ASSERT_EQUAL(f.terms & RR_COST_TERM_RECLAIM, 0);
	CU_ASSERT_TRUE(f.fixed_ns >= 0 && f.scan_ns_per_page >= 0);
	NEAR(f.reclaim_ns_per_page, 0, 0);
	CU_ASSERT_TRUE(f.rms_error_ns > 0);
	/* an exact fit through the origin is not lost to rounding: y = 310 s
	 * with s = r keeps the scan term alone (a ~1e-8 ns fixed term and a
	 * rounding residual won before) */
	{
		struct rr_cost_data o = { 0 };

		for (int i = 1; i <= 12; i++)
			rr_cost_add(&o, 1000003 * (uint64_t)i, 1000003 * (uint64_t)i,
				    310 * 1000003 * (uint64_t)i);
		rr_cost_fit(&o, &f);
		CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_SCAN);
		NEAR(f.scan_ns_per_page, 310, 1e-6);
		NEAR(f.fixed_ns, 0, 0);
	}
	/* through the origin when the intercept would be negative */
	{
		struct rr_cost_data o = { 0 };

		for (int i = 1; i <= 10; i++)
			rr_cost_add(&o, 32 * (uint64_t)i, 0, 300 * 32 * (uint64_t)i - 5000);
		rr_cost_fit(&o, &f);
		CU_ASSERT_EQUAL(f.terms, RR_COST_TERM_SCAN);
		NEAR(f.fixed_ns, 0, 0);
		CU_ASSERT_TRUE(f.scan_ns_per_page > 250 && f.scan_ns_per_page < 300);
	}
}

int register_timing_tests(void)
{
	CU_pSuite s = CU_add_suite("timing", NULL, NULL);

	if (!s || !CU_add_test(s, "exact terms come back", test_exact_terms) ||
	    !CU_add_test(s, "noise: residual standard error", test_noise) ||
	    !CU_add_test(s, "collinear, constant, too few", test_degenerate) ||
	    !CU_add_test(s, "no negative term", test_non_negative))
		return -1;
	return 0;
}
