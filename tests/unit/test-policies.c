// SPDX-License-Identifier: GPL-2.0-only
/* Policy registry: built-ins, composition with '+', .so loading. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/policies/policies.h"
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

	CU_ASSERT_EQUAL(rr_hook_scan_fract_target(p, &a, &v), 0);
	return v;
}

static uint64_t chunk(const struct rr_resolved_policy *p, uint64_t total, uint64_t done)
{
	struct rr_proactive_chunk_args a = {
		.size = sizeof(a), .nr_requested_pages = total, .nr_reclaimed_pages = done,
	};
	uint64_t v = 999;

	CU_ASSERT_EQUAL(rr_hook_proactive_chunk(p, &a, &v), 0);
	return v;
}

static void test_builtins(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* 180/201 floored */
	CU_ASSERT_EQUAL(fract(&p, 3, false, 0), 1);	/* offline: ceil */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 250);	/* v6.9+: remainder / 4 */
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 1);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 100), 900);
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "cluster-cap", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 100), 32);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 990), 10);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* kernel's rounding kept */
	CU_ASSERT_STRING_EQUAL(p.hook[RR_HOOK_SCAN_FRACT_TARGET].from, "kernel");
	CU_ASSERT_STRING_EQUAL(p.hook[RR_HOOK_PROACTIVE_CHUNK].from, "cluster-cap");
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "proportional", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 0), 65536);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 262128), 4);	/* the host floors to 32 */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 997), 0);
	rr_policy_release(&p);

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "proportional-v1", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 262144, 0), 65536);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 997), 3);	/* r % 4 wins below 4 pages */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 993), 3);	/* max(7/4, 7%4) = 3 */
	rr_policy_release(&p);
}

/* fract() with any fraction/denominator */
static uint64_t fract_of(const struct rr_resolved_policy *p, uint64_t scan, uint64_t fraction,
			 uint64_t denominator, bool online)
{
	struct rr_scan_fract_args a = {
		.size = sizeof(a), .scan_pages = scan, .fraction = fraction,
		.denominator = denominator, .priority = 12, .lru = 0, .memcg_online = online,
	};
	uint64_t v = 999;

	CU_ASSERT_EQUAL(rr_hook_scan_fract_target(p, &a, &v), 0);
	return v;
}

/*
 * roundup-all and whole-remainder are the two halves of original: each
 * decides its own hook as original does and leaves the other to kernel.
 * Releases: 6.18 (floor online, remainder / 4) and 6.7 (cluster cap).
 */
static void test_original_halves(void)
{
	static const char *const rel[] = { "6.18", "6.7", "6.1" };
	/* scan, fraction, denominator, online: 1 * 60/201 floors to 0 and
	 * ceils to 1 online; 0x4000 >> 12 = 4 pages * 141/201 = 2.8 -> 2 or 3 */
	static const struct { uint64_t scan, fr, den; bool online; } fa[] = {
		{ 1, 60, 201, true }, { 1, 60, 201, false }, { 4, 141, 201, true },
		{ 3, 180, 201, true }, { 32, 60, 201, false }, { 0, 60, 201, true },
	};
	/* requested, reclaimed: 262144 / 4 = 65536 on 6.18, 32 on 6.7 */
	static const struct { uint64_t total, done; } ca[] = {
		{ 262144, 0 }, { 1000, 100 }, { 1000, 997 }, { 33, 0 },
	};

	for (size_t k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		struct rr_kernel_model km;
		struct rr_resolved_policy kern, orig, ra, wr;
		struct rr_error err;

		CU_ASSERT_EQUAL_FATAL(rr_kernel_model_init(&km, rel[k]), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&kern, "kernel", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&orig, "original", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&ra, "roundup-all", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&wr, "whole-remainder", &km, 4096, &err), 0);
		for (size_t i = 0; i < sizeof(fa) / sizeof(fa[0]); i++) {
			uint64_t o = fract_of(&orig, fa[i].scan, fa[i].fr, fa[i].den, fa[i].online);

			CU_ASSERT_EQUAL(fract_of(&ra, fa[i].scan, fa[i].fr, fa[i].den, fa[i].online), o);
			CU_ASSERT_EQUAL(fract_of(&wr, fa[i].scan, fa[i].fr, fa[i].den, fa[i].online),
					fract_of(&kern, fa[i].scan, fa[i].fr, fa[i].den, fa[i].online));
		}
		for (size_t i = 0; i < sizeof(ca) / sizeof(ca[0]); i++) {
			uint64_t o = chunk(&orig, ca[i].total, ca[i].done);

			CU_ASSERT_EQUAL(chunk(&wr, ca[i].total, ca[i].done), o);
			CU_ASSERT_EQUAL(chunk(&ra, ca[i].total, ca[i].done),
					chunk(&kern, ca[i].total, ca[i].done));
		}
		CU_ASSERT_STRING_EQUAL(ra.hook[RR_HOOK_PROACTIVE_CHUNK].from, "kernel");
		CU_ASSERT_STRING_EQUAL(wr.hook[RR_HOOK_SCAN_FRACT_TARGET].from, "kernel");
		rr_policy_release(&kern);
		rr_policy_release(&orig);
		rr_policy_release(&ra);
		rr_policy_release(&wr);
	}

	/* the values, from the formulas (an online memcg, where they differ) */
	{
		struct rr_kernel_model km;
		struct rr_resolved_policy kern, ra, wr;
		struct rr_error err;

		rr_kernel_model_init(&km, "6.18");
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&kern, "kernel", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&ra, "roundup-all", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&wr, "whole-remainder", &km, 4096, &err), 0);
		CU_ASSERT_EQUAL(fract_of(&ra, 1, 60, 201, true), 1);	/* ceil(60/201) */
		CU_ASSERT_EQUAL(fract_of(&kern, 1, 60, 201, true), 0);	/* floor, 76073c646f5f */
		CU_ASSERT_EQUAL(fract_of(&ra, 4, 141, 201, true), 3);	/* ceil(564/201) */
		CU_ASSERT_EQUAL(fract_of(&wr, 4, 141, 201, true), 2);	/* floor(564/201) */
		CU_ASSERT_EQUAL(chunk(&wr, 262144, 0), 262144);	/* 94968384dde1 */
		CU_ASSERT_EQUAL(chunk(&ra, 262144, 0), 65536);	/* 287d5fedb377 */
		CU_ASSERT_EQUAL(chunk(&wr, 1000, 997), 3);	/* the host floors it to 32 */
		rr_policy_release(&kern);
		rr_policy_release(&ra);
		rr_policy_release(&wr);
	}
}

static void test_kernel_by_release(void)
{
	struct rr_kernel_model km;
	struct rr_resolved_policy p;
	struct rr_error err;

	rr_kernel_model_init(&km, "6.7");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);	/* 0388536ac291 */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "6.1");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 1000);	/* 94968384dde1 */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "5.0");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 1, true, 0), 1);	/* 68600f623d69: ceil for all */
	rr_policy_release(&p);
	rr_kernel_model_init(&km, "4.14");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "kernel", &km, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 1, false, 0), 0);	/* floor for all */
	rr_policy_release(&p);
}

static void test_compose(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original+cluster-cap", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 1);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);
	CU_ASSERT_STRING_EQUAL(p.name, "original+cluster-cap");
	rr_policy_release(&p);
	/* a later hook wins */
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "original+online-roundup", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 1000);	/* original's chunk stays */
	rr_policy_release(&p);
}

static void test_errors(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;

	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "no-such-policy", &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "no-such-policy");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown policy"));
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "original+bogus", &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "bogus");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "", &km618, 4096, &err), -1);
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "./does-not-exist.so", &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "./does-not-exist.so");
	/* the spec names the policy in the JSON and the table: UTF-8 without
	 * control characters, refused before any file is opened (shown
	 * escaped) */
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "./x\xed\xbf\xbf.so", &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "./x\\xed\\xbf\\xbf.so");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "must be UTF-8 without control characters"));
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "original+\x1b[31m", &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, "original+\\x1b[31m");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "x\xc2\x9b", &km618, 4096, &err), -1);	/* C1 CSI */
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
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, path, &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 2), 1);	/* file: ceil */
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);	/* anon: floor */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 250);	/* kernel's chunk */
	CU_ASSERT_STRING_EQUAL(p.hook[RR_HOOK_SCAN_FRACT_TARGET].from, "ceil-file");
	rr_policy_release(&p);

	snprintf(spec, sizeof(spec), "%s+cluster-cap", path);
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, spec, &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 2), 1);
	rr_policy_release(&p);

	plugin_path(path, sizeof(path), "bad-abi.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.file, path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ABI version 99, this reclaim-replay speaks versions 1 to 2"));

	plugin_path(path, sizeof(path), "no-entry.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, 4096, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rr_policy_entry"));
}

/*
 * The host loads every ABI version it claims (1 and 2): a binary built in
 * version 1's day and kept in the tree, the same source as a test plug-in
 * built against the frozen version 1 header; it refuses a newer version
 * and a table too short for the version it says.
 */
static void test_abi_versions(void)
{
	struct rr_resolved_policy p;
	struct rr_error err;
	char path[512];

#if defined(__x86_64__)
	/* (the kept binary is x86-64 code: elsewhere ceil-file-v1.so below,
	 * built here against the same header, stands for it) */
	/* round to nearest: 3 * 60 / 201 = 0.9 -> 1 (floor would give 0) */
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "tests/plugins/abi-v1/round-nearest-v1.so",
						&km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(p.nr_components, 2);
	CU_ASSERT_EQUAL(p.comp[1].policy->abi_version, 1);
	CU_ASSERT_STRING_EQUAL(p.hook[RR_HOOK_SCAN_FRACT_TARGET].from, "round-nearest");
	CU_ASSERT_STRING_EQUAL(p.hook[RR_HOOK_PROACTIVE_CHUNK].from, "kernel");
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 1);
	CU_ASSERT_EQUAL(fract(&p, 2, true, 0), 1);	/* 0.597 */
	CU_ASSERT_EQUAL(fract(&p, 1, true, 0), 0);	/* 0.299 */
	rr_policy_release(&p);
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, "tests/plugins/abi-v1/round-nearest-v1.so:"
						"offline_only=1", &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);
	CU_ASSERT_EQUAL(fract(&p, 3, false, 0), 1);
	rr_policy_release(&p);
#else
	fprintf(stderr, "\n*** SKIP round-nearest-v1.so: an x86-64 binary ***\n");
#endif

	plugin_path(path, sizeof(path), "ceil-file-v1.so");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, path, &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(p.comp[1].policy->abi_version, 1);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 2), 1);
	CU_ASSERT_EQUAL(fract(&p, 3, true, 0), 0);
	rr_policy_release(&p);

	plugin_path(path, sizeof(path), "future-abi.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "policy ABI version 3, this reclaim-replay speaks "
			       "versions 1 to 2");
	plugin_path(path, sizeof(path), "short-v2.so");
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, path, &km618, 4096, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ABI v2 needs"));
	CU_ASSERT_EQUAL(rr_policy_size_of_version(1), offsetof(struct rr_policy, init_host));
}

/* ABI v2: the host context, the base's decision, episode hooks, and a
 * refusal that names its reason (examples/senpai-chunk.c). */
static void test_host_context(void)
{
	struct rr_resolved_policy p;
	struct rr_kernel_model km66;
	struct rr_error err;
	struct rr_episode_args b = { .size = sizeof(b), .kind = RR_POLICY_EPISODE_PROACTIVE,
				     .nr_to_reclaim_pages = 1000 };
	struct rr_episode_end_args e = { .size = sizeof(e), .nr_reclaimed_pages = 1500,
					 .nr_calls = 3 };
	char path[512], spec[600];
	const char *dir = getenv("RR_TEST_PLUGIN_DIR");

	snprintf(path, sizeof(path), "%s/../../examples/senpai-chunk.so",
		 dir ? dir : "build/tests/plugins");
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, path, &km618, 4096, &err), 0);
	CU_ASSERT_EQUAL(p.comp[1].policy->abi_version, 2);
	CU_ASSERT_STRING_EQUAL(p.comp[1].host.kernel_release, "6.18.44");
	CU_ASSERT_EQUAL(p.comp[1].host.page_size_bytes, 4096);
	/* step 128 under the kernel's 1000 / 4 = 250 */
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 128);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 900), 25);	/* the base's 100 / 4 */
	/* a write that overshot halves the step of the next */
	CU_ASSERT_EQUAL(rr_policy_episode_begin(&p, &b, &err), 0);
	CU_ASSERT_EQUAL(rr_policy_episode_end(&p, &e, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 64);
	/* one that took more than 8 calls doubles it */
	e.nr_reclaimed_pages = 1000;
	e.nr_calls = 9;
	CU_ASSERT_EQUAL(rr_policy_episode_begin(&p, &b, &err), 0);
	CU_ASSERT_EQUAL(rr_policy_episode_end(&p, &e, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 128);
	rr_policy_release(&p);

	/* on 6.6 the base is cluster-cap's 32 pages */
	rr_kernel_model_init(&km66, "6.6");
	snprintf(spec, sizeof(spec), "%s:step=512", path);
	CU_ASSERT_EQUAL_FATAL(rr_policy_resolve(&p, spec, &km66, 4096, &err), 0);
	CU_ASSERT_EQUAL(chunk(&p, 1000, 0), 32);
	rr_policy_release(&p);

	snprintf(spec, sizeof(spec), "%s:stp=3", path);
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, spec, &km618, 4096, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "policy 'senpai-chunk' init failed: unknown key in "
			       "'stp=3' (the key is step)");
	snprintf(spec, sizeof(spec), "%s:step=5", path);
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, spec, &km618, 4096, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "step must be 32..1048576 pages, not '5'"));
	/* control characters in a parameter: refused with the spec, before the
	 * plug-in sees them (the spec names the policy in the table); shown
	 * escaped (a plug-in's own error text is made one printable line
	 * too, rr_one_line()) */
	snprintf(spec, sizeof(spec), "%s:x=\x1b[31m\nred", path);
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, spec, &km618, 4096, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.file, ":x=\\x1b[31m\\x0ared"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "must be UTF-8 without control characters"));
	/* the kernel policy refuses parameters, saying so */
	CU_ASSERT_EQUAL(rr_policy_resolve(&p, "original+kernel:x=1", &km618, 4096, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "takes no parameters"));
}

int register_policy_tests(void)
{
	CU_pSuite s = CU_add_suite("policies", NULL, NULL);

	rr_kernel_model_init(&km618, "6.18.44");
	if (!s || !CU_add_test(s, "built-in hooks", test_builtins) ||
	    !CU_add_test(s, "kernel policy follows the release", test_kernel_by_release) ||
	    !CU_add_test(s, "roundup-all and whole-remainder are original's halves",
			 test_original_halves) ||
	    !CU_add_test(s, "composition with +", test_compose) ||
	    !CU_add_test(s, "errors name the spec", test_errors) ||
	    !CU_add_test(s, "loadable .so policies", test_plugins) ||
	    !CU_add_test(s, "ABI versions 1 and 2", test_abi_versions) ||
	    !CU_add_test(s, "ABI v2 host context and episode hooks", test_host_context))
		return -1;
	return 0;
}
