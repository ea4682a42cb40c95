// SPDX-License-Identifier: GPL-2.0-only
/* Policy registry: built-ins, composition with '+', .so loading. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/policies/registry.h"
#include "unit.h"

static struct rr_kernel_model km618;

static uint64_t fract(const struct rr_resolved_policy *p, uint64_t scan, bool online,
		      int lru)
{
	struct rr_scan_fract_args a = {
		.size = sizeof(a), .scan_pages = scan, .fraction = 60,
		.denominator = 201, .priority = 12, .lru = lru, .memcg_online = online,
	};
	uint64_t v = 999;

	CU_ASSERT_EQUAL(p->scan_fract_target(p->scan_fract_priv, &a, &v), 0);
	return v;
}

static uint64_t chunk(const struct rr_resolved_policy *p, uint64_t total, uint64_t done)
{
	struct rr_proactive_chunk_args a = {
		.size = sizeof(a), .nr_requested_pages = total, .nr_reclaimed_pages = done,
	};
	uint64_t v = 999;

	CU_ASSERT_EQUAL(p->proactive_chunk(p->chunk_priv, &a, &v), 0);
	return v;
}

static void test_builtins(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km618, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* 180/201 floored */
	CU_ASSERT_EQUAL(fract(&p, 3, false, 0), 1);	/* offline: ceil */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 250);	/* v6.9+: remainder / 4 */
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original", &km618, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 1);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 100), 900);
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "cluster-cap", &km618, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 100), 32);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 990), 10);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* kernel's rounding kept */
	CU_ASSERT_STRING_EQUAL(p.scan_fract_from, "kernel");
	CU_ASSERT_STRING_EQUAL(p.chunk_from, "cluster-cap");
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "proportional", &km618, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 0), 65536);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 262128), 4);	/* the host floors to 32 */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 997), 0);
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "proportional-v1", &km618, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 0), 65536);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 997), 3);	/* r % 4 wins below 4 pages */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 993), 3);	/* max(7/4, 7%4) = 3 */
	rr_policy_release(&p);
}

static void test_kernel_by_release(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy p;
	struct rr_error err;

	rr_kernel_model_init(&km, "6.7");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);	/* 0388536ac291 */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "6.1");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 1000);	/* 94968384dde1 */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "5.0");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 1, true, 0), 1);	/* 68600f623d69: ceil for all */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "4.14");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 1, false, 0), 0);	/* floor for all */
	rr_policy_release(&p);
}

static void test_compose(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original+cluster-cap", &km618, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 1);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);
	CU_ASSERT_STRING_EQUAL(p.name, "original+cluster-cap");
	rr_policy_release(&p);
	/* a later hook wins */
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original+online-roundup", &km618, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 1000);	/* original's chunk stays */
	rr_policy_release(&p);
}

static void test_errors(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "no-such-policy", &km618, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "no-such-policy");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown policy"));
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "original+bogus", &km618, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "bogus");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "", &km618, &err), -1);
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "./does-not-exist.so", &km618, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "./does-not-exist.so");
}

static void plugin_path(char *buf, size_t len, const char *name)
{
	const char *dir = getenv("RR_TEST_PLUGIN_DIR");

	snprintf(buf, len, "%s/%s", dir ? dir : "build/tests/plugins", name);
}

static void test_plugins(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;
	char path[512], spec[600];

	plugin_path(path, sizeof(path), "ceil-file.so");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, path, &km618, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 2), 1);	/* file: ceil */
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* anon: floor */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 250);	/* kernel's chunk */
	CU_ASSERT_STRING_EQUAL(p.scan_fract_from, "ceil-file");
	rr_policy_release(&p);

	snprintf(spec, sizeof(spec), "%s+cluster-cap", path);
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, spec, &km618, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 2), 1);
	rr_policy_release(&p);

	plugin_path(path, sizeof(path), "bad-abi.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ABI version 99"));

	plugin_path(path, sizeof(path), "no-entry.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rr_policy_entry"));
}

int register_policy_tests(void)
{
	CU_pSuite s = CU_add_suite("policies", NULL, NULL);

	rr_kernel_model_init(&km618, "6.18.44");
	if (!s || !CU_add_test(s, "built-in hooks", test_builtins) ||
	    !CU_add_test(s, "kernel policy follows the release", test_kernel_by_release) ||
	    !CU_add_test(s, "composition with +", test_compose) ||
	    !CU_add_test(s, "errors name the spec", test_errors) ||
	    !CU_add_test(s, "loadable .so policies", test_plugins))
		return -1;
	return 0;
}
