// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision diff (src/diff) and each renderer of it (src/output) on
 * hand-made data: no trace, no simulator run.  Two policies: the baseline
 * and one that rounds up, so that episodes differ in known ways.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/diff/diff.h"
#include "../../src/output/jw.h"
#include "../../src/output/output.h"
#include "unit.h"

/* A memcg table that names ids 1 (/) and 2 (/a). */
static void names(struct rr_state *st)
{
	struct rr_event ev = { .type = RR_EV_CGROUP_MKDIR, .id = 2, .str = "/a", .str_len = 2 };

	rr_state_init(st);
	st->memory_root = 0;
	CU_ASSERT_EQUAL(rr_state_apply(st, &ev), 0);
}

static void target(struct rr_sim_result *r, uint64_t id, int prio, int lru, uint64_t pages)
{
	r->targets = realloc(r->targets, (r->nr_targets + 1) * sizeof(*r->targets));
	r->targets[r->nr_targets++] = (struct rr_scan_target){ id, prio, lru, pages };
}

static void chunk(struct rr_sim_result *r, uint64_t req, uint64_t got)
{
	r->chunk_requests = realloc(r->chunk_requests, (r->nr_chunks + 1) * sizeof(uint64_t));
	r->chunk_reclaimed = realloc(r->chunk_reclaimed, (r->nr_chunks + 1) * sizeof(uint64_t));
	r->chunk_requests[r->nr_chunks] = req;
	r->chunk_reclaimed[r->nr_chunks++] = got;
}

/*
 * Episode 7 at /a, nr_to_reclaim 64: the baseline scans 32 inactive file
 * pages at priority 12 and reclaims 64 in one call; "up" also targets
 * inactive anon at 12, scans 40 and reclaims 80 in two calls.
 */
static void episode(struct rr_episode *ep, struct rr_batch *b, struct rr_sim_result res[2])
{
	memset(ep, 0, sizeof(*ep));
	memset(res, 0, 2 * sizeof(*res));
	*b = (struct rr_batch){ .memcg_id = 2, .lru = RR_LRU_INACTIVE_FILE, .priority = 12,
				.nr_requested = 32, .nr_scanned = 32, .nr_taken = 32,
				.nr_reclaimed = 30 };
	ep->kind = RR_KIND_MEMCG;
	ep->replay_seq = 7;
	ep->root_memcg_id = 2;
	ep->root_path = "/a";
	ep->start_ns = 1000;
	ep->end_ns = 3000;
	ep->nr_to_reclaim_pages = 64;
	ep->nr_to_reclaim_basis = "fit";
	ep->recorded_nr_reclaimed = 30;
	ep->batches = b;
	ep->nr_batches = 1;
	res[0] = (struct rr_sim_result){ .nr_scanned_pages = 32, .nr_reclaimed_pages = 64,
					 .calls = 1, .lowest_priority = 12 };
	res[0].nr_scanned_type_pages[RR_LRU_FILE] = 32;
	res[0].nr_reclaimed_type_pages[RR_LRU_FILE] = 64;
	target(&res[0], 2, 12, RR_LRU_INACTIVE_FILE, 32);
	chunk(&res[0], 64, 64);
	res[1] = (struct rr_sim_result){ .nr_scanned_pages = 40, .nr_reclaimed_pages = 80,
					 .calls = 2, .lowest_priority = 12 };
	res[1].nr_reclaimed_type_pages[RR_LRU_ANON] = 16;
	target(&res[1], 2, 12, RR_LRU_INACTIVE_FILE, 32);
	target(&res[1], 2, 12, RR_LRU_INACTIVE_ANON, 8);
	chunk(&res[1], 64, 60);
	chunk(&res[1], 4, 20);
}

static void free_results(struct rr_sim_result res[2])
{
	rr_sim_result_free(&res[0]);
	rr_sim_result_free(&res[1]);
}

static void test_diff(void)
{
	struct rr_state st;
	struct rr_episode ep;
	struct rr_batch b;
	struct rr_sim_result res[2];
	struct rr_episode_diff d;
	const struct rr_change *c;

	names(&st);
	episode(&ep, &b, res);
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL, false), 0);
	CU_ASSERT_EQUAL(d.id, 7);
	CU_ASSERT_TRUE(d.listed);
	CU_ASSERT_FALSE(d.differs[0]);
	CU_ASSERT_TRUE(d.differs[1]);
	CU_ASSERT_EQUAL(d.nr_differing, 1);
	CU_ASSERT_EQUAL(d.outcome[0], RR_OUTCOME_MET);
	CU_ASSERT_EQUAL(d.over_reclaim[0], 0);
	CU_ASSERT_EQUAL(d.over_reclaim[1], 16);
	/* the recording: one target of 32 inactive file pages */
	CU_ASSERT_EQUAL(d.recorded.nr_targets, 1);
	CU_ASSERT_EQUAL(d.recorded.targets[0].nr_pages, 32);
	CU_ASSERT_TRUE(d.matches_recording[0]);
	CU_ASSERT_FALSE(d.matches_recording[1]);
	c = &d.changes[1];
	CU_ASSERT_EQUAL(c->nr_scanned_delta, 8);
	CU_ASSERT_EQUAL(c->nr_reclaimed_delta, 16);
	CU_ASSERT_EQUAL(c->nr_reclaimed_type_delta[RR_LRU_ANON], 16);
	CU_ASSERT_EQUAL(c->nr_reclaimed_type_delta[RR_LRU_FILE], -64);
	CU_ASSERT_EQUAL(c->calls_delta, 1);
	CU_ASSERT_EQUAL(c->over_reclaim_delta_pages, 16);
	/* call 2 exists only under "up" */
	CU_ASSERT_EQUAL(c->chunk_call, 2);
	CU_ASSERT_TRUE(c->chunk_has_policy);
	CU_ASSERT_FALSE(c->chunk_has_baseline);
	CU_ASSERT_EQUAL(c->chunk_pages, 4);
	/* inactive anon at 12 is "eligible" under "up" only */
	CU_ASSERT_EQUAL_FATAL(c->nr_gained, 1);
	CU_ASSERT_EQUAL(res[1].targets[c->gained[0]].lru, RR_LRU_INACTIVE_ANON);
	CU_ASSERT_EQUAL(c->nr_lost, 0);
	rr_diff_episode_free(&d);

	/* both the same: counted, not listed unless asked */
	free_results(res);
	episode(&ep, &b, res);
	rr_sim_result_free(&res[1]);
	res[1] = res[0];
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL, false), 0);
	CU_ASSERT_FALSE(d.listed);
	CU_ASSERT_FALSE(d.differs[1]);
	rr_diff_episode_free(&d);
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL, true), 0);
	CU_ASSERT_TRUE(d.listed);
	rr_diff_episode_free(&d);
	rr_sim_result_free(&res[0]);

	/* a skipped episode is listed with its reason */
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, NULL, 2, 0, "why", false), 0);
	CU_ASSERT_TRUE(d.listed);
	CU_ASSERT_STRING_EQUAL(d.skip_reason, "why");
	rr_diff_episode_free(&d);
	rr_state_free(&st);
}

static void test_totals(void)
{
	struct rr_state st;
	struct rr_episode ep;
	struct rr_batch b;
	struct rr_sim_result res[2];
	struct rr_episode_diff d;
	struct rr_totals t;
	struct rr_cgroup_totals **v;
	size_t n;

	names(&st);
	rr_totals_init(&t, 2, 0, true, 4096, 5);
	for (int i = 0; i < 3; i++) {
		episode(&ep, &b, res);
		ep.replay_seq = (uint64_t)i + 1;
		CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL,
						      false), 0);
		CU_ASSERT_EQUAL(rr_totals_add(&t, &d), 0);
		rr_diff_episode_free(&d);
		free_results(res);
	}
	CU_ASSERT_EQUAL(t.nr_episodes, 3);
	CU_ASSERT_EQUAL(t.nr_replayed, 3);
	CU_ASSERT_EQUAL(t.nr_listed, 3);
	CU_ASSERT_EQUAL(t.policy[0].nr_reclaimed, 192);
	CU_ASSERT_EQUAL(t.policy[1].nr_reclaimed, 240);
	CU_ASSERT_EQUAL(t.policy[1].episodes_differing, 3);
	CU_ASSERT_EQUAL(t.policy[0].episodes_matching_recording, 3);
	CU_ASSERT_EQUAL(t.policy[1].over_reclaim, 48);
	CU_ASSERT_EQUAL(t.policy[1].eligible_p12, 6);
	CU_ASSERT_EQUAL(t.recorded.nr_reclaimed, 90);
	CU_ASSERT_EQUAL(t.nr_top, 3);
	CU_ASSERT_EQUAL(t.top[0].weight, 8 + 16 + 1);
	v = rr_totals_cgroups(&t, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(v[0]->path, "/a");
	CU_ASSERT_EQUAL(v[0]->episodes, 3);
	CU_ASSERT_EQUAL(v[0]->p[1].calls, 6);
	free(v);
	rr_totals_free(&t);
	rr_state_free(&st);
}

static struct rr_resolved_policy policies[2] = {
	{ .name = "kernel" },
	{ .name = "up" },
};

static const struct rr_policy pol_kernel = { .name = "kernel", .summary = "k", .kernel_ref = "r" };
static const struct rr_policy pol_up = { .name = "up", .summary = "u", .kernel_ref = "r2" };

static void setup_policies(void)
{
	policies[0].comp[0].policy = &pol_kernel;
	policies[0].nr_components = 1;
	policies[0].hook[RR_HOOK_SCAN_FRACT_TARGET].from = "kernel";
	policies[0].hook[RR_HOOK_PROACTIVE_CHUNK].from = "kernel";
	policies[1].comp[0].policy = &pol_up;
	policies[1].nr_components = 1;
	policies[1].hook[RR_HOOK_SCAN_FRACT_TARGET].from = "up";
	policies[1].hook[RR_HOOK_PROACTIVE_CHUNK].from = "kernel";
}

/* The episode object: values where the schema puts them. */
static void test_json_episode(void)
{
	struct rr_state st;
	struct rr_episode ep;
	struct rr_batch b;
	struct rr_sim_result res[2];
	struct rr_episode_diff d;
	json_t *e;

	setup_policies();
	names(&st);
	episode(&ep, &b, res);
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL, false), 0);
	e = rr_json_episode(&d, policies);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "id")), 7);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "cgroup")), "/a");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "duration_ns")), 2000);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(e, "differs_from_baseline")), 1);
	{
		json_t *up = json_object_get(json_object_get(e, "results"), "up");
		json_t *ch = json_object_get(json_object_get(e, "changes"), "up");
		json_t *t = json_array_get(json_object_get(up, "scan_targets"), 1);

		CU_ASSERT_EQUAL(json_integer_value(json_object_get(up, "calls")), 2);
		/* the second call asked for 4 pages; the kernel floors it to 32 */
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(
			json_object_get(up, "call_nr_to_reclaim_pages"), 1)), 32);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(t, "lru")), "inactive_anon");
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(t, "cgroup")), "/a");
		CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(ch, "over_reclaim_delta_mib")),
				       16.0 * 4096 / 1048576, 1e-12);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(
			json_object_get(ch, "chunk_change"), "call")), 2);
		CU_ASSERT_TRUE(json_is_null(json_object_get(json_object_get(ch, "chunk_change"),
							    "baseline_nr_pages")));
		CU_ASSERT_EQUAL(json_array_size(json_object_get(ch, "eligible_gained")), 1);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ch, "outcome")), "met");
	}
	json_decref(e);
	rr_diff_episode_free(&d);
	free_results(res);
	rr_state_free(&st);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		buf = realloc(buf, cap += 65536);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The streamed document has the bytes of jansson's dump of the whole
 * document, for 0, 1 and 3 episodes. */
static void test_json_stream(void)
{
	char dir[] = "/tmp/rr-unit-json.XXXXXX", path[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	for (int n = 0; n <= 3; n += n ? 2 : 1) {
		struct rr_error err = { "", "" };
		struct rr_json_stream *s = rr_json_stream_open(path, NULL, &err);
		json_t *doc = rr_json_root(), *whole, *eps = json_array();
		char *want, *got;

		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		for (int i = 0; i < n; i++) {
			json_t *e = json_pack("{s:i, s:s, s:[i, i], s:{}, s:[], s:{s:[{s:i}]}}",
					      "id", i, "cgroup", "/caf\xc3\xa9\n", "calls", 1, 2,
					      "empty", "none", "results", "k", "x", i);

			CU_ASSERT_EQUAL(rr_json_stream_episode(s, e, &err), 0);
			json_array_append_new(eps, e);
		}
		json_object_set_new(doc, "input", json_pack("{s:s}", "file", "t.dat"));
		whole = json_deep_copy(doc);
		json_object_set_new(doc, "episodes", json_array());
		json_object_set_new(doc, "summary", json_pack("{s:i}", "episodes", n));
		json_object_set_new(whole, "episodes", eps);
		json_object_set_new(whole, "summary", json_pack("{s:i}", "episodes", n));
		CU_ASSERT_EQUAL(rr_json_stream_finish(s, doc, &err), 0);
		want = json_dumps(whole, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		got = slurp(path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_EQUAL(strlen(got), strlen(want) + 1);
		CU_ASSERT_EQUAL(strncmp(got, want, strlen(want)), 0);
		free(want);
		free(got);
		json_decref(doc);
		json_decref(whole);
	}
	/* an aborted stream leaves nothing beside the old file */
	{
		struct rr_error err = { "", "" };
		struct rr_json_stream *s = rr_json_stream_open(path, NULL, &err);
		char cmd[128];

		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		rr_json_stream_abort(s);
		snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) = 1", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	unlink(path);
	rmdir(dir);
}

/* --jsonl: the header, each episode (streamed through yajl) holding the
 * bytes of jansson's compact dump of the same episode's tree, the tail. */
static void test_jsonl(void)
{
	char *buf = NULL, *want_ep;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *root = rr_json_root(), *pols = json_pack("[{s:s}]", "name", "kernel");
	json_t *in = json_object(), *sum = json_object(), *tree;
	struct rr_jw *w = rr_jw_stream_new();
	struct rr_state st;
	struct rr_episode ep;
	struct rr_batch b;
	struct rr_sim_result res[2];
	struct rr_episode_diff d;
	struct rr_error err;
	char want[8192];

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	setup_policies();
	names(&st);
	episode(&ep, &b, res);
	CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL, false), 0);
	/* (the values are borrowed: the caller keeps its references) */
	CU_ASSERT_EQUAL(rr_jsonl_header(f, root, pols, "kernel"), 0);
	CU_ASSERT_EQUAL(rr_jsonl_episode(f, w, &d, policies, &err), 0);
	CU_ASSERT_EQUAL(rr_jsonl_episode(f, w, &d, policies, &err), 0);	/* the writer is reused */
	CU_ASSERT_EQUAL(rr_jsonl_tail(f, in, sum, json_null(), json_null()), 0);
	json_decref(in);
	json_decref(sum);
	fclose(f);
	tree = json_pack("{s:o}", "episode", rr_json_episode(&d, policies));
	want_ep = json_dumps(tree, JSON_COMPACT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want_ep);
	/* a real where it is one (over_reclaim_delta_mib: 16 pages = 0.0625) */
	CU_ASSERT_PTR_NOT_NULL(strstr(want_ep, "\"over_reclaim_delta_mib\":0.0625,"));
	snprintf(want, sizeof(want),
		 "{\"schema_version\":1,\"tool\":{\"name\":\"reclaim-replay\",\"version\":\""
		 RR_VERSION "\"},\"policies\":[{\"name\":\"kernel\"}],\"baseline\":\"kernel\"}\n"
		 "%s\n%s\n"
		 "{\"input\":{},\"summary\":{},\"fidelity\":null,\"time_model\":null}\n",
		 want_ep, want_ep);
	CU_ASSERT_STRING_EQUAL(buf, want);
	free(want_ep);
	json_decref(tree);
	free(buf);
	rr_jw_free(w);
	json_decref(root);
	json_decref(pols);
	rr_diff_episode_free(&d);
	free_results(res);
	rr_state_free(&st);
}

/* Write the same values through @w; @s is a string to carry. */
static void jw_values(struct rr_jw *w, const char *s, double real)
{
	rr_jw_object_begin(w, NULL);
	rr_jw_str(w, "s", s);
	rr_jw_str(w, "none", NULL);
	rr_jw_u64(w, "u", UINT64_C(1) << 62);
	rr_jw_i64(w, "i", -42);
	rr_jw_real(w, "r", real);
	rr_jw_bool(w, "t", true);
	rr_jw_array_begin(w, "a");
	rr_jw_null(w, NULL);
	rr_jw_object_begin(w, NULL);
	rr_jw_object_end(w);
	rr_jw_array_begin(w, NULL);
	rr_jw_array_end(w);
	rr_jw_array_end(w);
	rr_jw_object_end(w);
}

/* The stream's text is jansson's compact dump of the tree, byte for byte,
 * for hostile strings and awkward reals; what jansson refuses fails in
 * both sinks. */
static void test_jw(void)
{
	static const char *strings[] = {
		"", "/a", "q\"b\\s/", "\t\n\r\b\f\x01\x1f\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
	};
	static const double reals[] = { 0.0, 3.0, 0.1, 1.0 / 3, 1e-7, 1e20, 123456789012.5,
					-2.5e-300, 4.9e-324, 1e100, -0.0 };

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		for (size_t j = 0; j < sizeof(reals) / sizeof(reals[0]); j++) {
			struct rr_jw *t = rr_jw_tree_new(), *st = rr_jw_stream_new();
			const char *text = NULL;
			char *want;
			size_t len = 0;
			json_t *v, *back;

			CU_ASSERT_PTR_NOT_NULL_FATAL(t);
			CU_ASSERT_PTR_NOT_NULL_FATAL(st);
			jw_values(t, strings[i], reals[j]);
			jw_values(st, strings[i], reals[j]);
			v = rr_jw_tree_finish(t);
			CU_ASSERT_PTR_NOT_NULL_FATAL(v);
			CU_ASSERT_TRUE_FATAL(rr_jw_stream_text(st, &text, &len));
			want = json_dumps(v, JSON_COMPACT);
			back = json_loadb(text, len, 0, NULL);
			/* it reads back as the same value (jansson's reals
			 * compare exactly) */
			CU_ASSERT_TRUE(back && json_equal(back, v));
			/* and is the same text */
			if (want && (len != strlen(want) || memcmp(text, want, len)))
				CU_FAIL("stream text differs from jansson's dump");
			free(want);
			json_decref(back);
			json_decref(v);
			rr_jw_free(st);
		}
	}
	{
		struct rr_jw *t = rr_jw_tree_new(), *st = rr_jw_stream_new();
		const char *text;
		size_t len;

		/* not UTF-8 */
		rr_jw_str(t, NULL, "a\xff");
		rr_jw_str(st, NULL, "a\xff");
		CU_ASSERT_TRUE(rr_jw_failed(t));
		CU_ASSERT_TRUE(rr_jw_failed(st));
		CU_ASSERT_STRING_EQUAL(rr_jw_error(st), "a string that is not UTF-8");
		CU_ASSERT_PTR_NULL(rr_jw_tree_finish(t));
		CU_ASSERT_FALSE(rr_jw_stream_text(st, &text, &len));
		/* what yajl's own check lets through and json_string() refuses
		 * (a helper's finding: 4,480 such sequences of 1-4 bytes):
		 * overlong forms, surrogates, lead bytes past U+10FFFF; as a
		 * key too */
		static const char *bad[] = { "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80",
					     "\xed\xbf\xbf", "\xf5\x80\x80\x80", "\xf4\x90\x80\x80" };
		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			json_t *v = json_string(bad[k]);

			CU_ASSERT_PTR_NULL(v);	/* (jansson refuses it) */
			json_decref(v);
			rr_jw_stream_reset(st);
			rr_jw_str(st, NULL, bad[k]);
			CU_ASSERT_TRUE(rr_jw_failed(st));
			rr_jw_stream_reset(st);
			rr_jw_object_begin(st, NULL);
			rr_jw_null(st, bad[k]);
			CU_ASSERT_TRUE(rr_jw_failed(st));
			t = rr_jw_tree_new();
			rr_jw_object_begin(t, NULL);
			rr_jw_null(t, bad[k]);
			CU_ASSERT_STRING_EQUAL(rr_jw_error(t), "a key that is not UTF-8");
			CU_ASSERT_PTR_NULL(rr_jw_tree_finish(t));
		}
		/* the stream is usable again after a reset */
		rr_jw_stream_reset(st);
		rr_jw_real(st, NULL, 1.0 / 0.0);	/* not finite */
		CU_ASSERT_TRUE(rr_jw_failed(st));
		rr_jw_stream_reset(st);
		rr_jw_object_begin(st, NULL);
		rr_jw_u64(st, NULL, 1);			/* no key in an object */
		CU_ASSERT_TRUE(rr_jw_failed(st));
		rr_jw_stream_reset(st);
		rr_jw_object_begin(st, NULL);
		rr_jw_str(st, NULL, "x");		/* (yajl would take it for a key) */
		CU_ASSERT_STRING_EQUAL(rr_jw_error(st), "a value without a key in an object");
		rr_jw_stream_reset(st);
		rr_jw_array_begin(st, NULL);
		rr_jw_str(st, "k", "x");		/* a key in an array */
		CU_ASSERT_STRING_EQUAL(rr_jw_error(st), "a key outside an object");
		rr_jw_stream_reset(st);
		rr_jw_array_begin(st, NULL);
		rr_jw_object_end(st);			/* not the one open */
		CU_ASSERT_TRUE(rr_jw_failed(st));
		rr_jw_stream_reset(st);
		for (int k = 0; k <= RR_JW_DEPTH; k++)
			rr_jw_array_begin(st, NULL);
		CU_ASSERT_TRUE(rr_jw_failed(st));
		rr_jw_stream_reset(st);
		rr_jw_array_begin(st, NULL);		/* open: no text */
		CU_ASSERT_FALSE(rr_jw_stream_text(st, &text, &len));
		rr_jw_array_end(st);
		CU_ASSERT_TRUE(rr_jw_stream_text(st, &text, &len));
		CU_ASSERT_EQUAL(len, 2);
		CU_ASSERT_NSTRING_EQUAL(text, "[]", 2);
		rr_jw_free(st);
		t = rr_jw_tree_new();
		rr_jw_object_begin(t, NULL);
		rr_jw_u64(t, NULL, 1);
		CU_ASSERT_TRUE(rr_jw_failed(t));
		CU_ASSERT_PTR_NULL(rr_jw_tree_finish(t));
		t = rr_jw_tree_new();
		rr_jw_array_begin(t, NULL);		/* never closed */
		CU_ASSERT_PTR_NULL(rr_jw_tree_finish(t));
	}
}

static void test_table(void)
{
	struct rr_totals t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	setup_policies();
	rr_totals_init(&t, 2, 0, false, 4096, 0);
	t.nr_episodes = t.nr_replayed = t.nr_listed = 2;
	t.policy[0].nr_reclaimed = 512;
	t.policy[1].nr_reclaimed = 768;
	t.policy[1].over_reclaim = 256;
	t.policy[1].episodes_differing = 1;
	f = open_memstream(&buf, &len);
	rr_table_print(f, &t, policies, NULL, false);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "episodes: 2 replayed, 0 skipped, 2 listed; page size 4096 bytes"));
	/* 768 pages of 4 KiB = 3.0 MiB, 256 over = 1.0 MiB */
	{
		const char *row = strstr(buf, "\nup ");
		unsigned long long scanned = 9, reclaimed = 0;
		double mib = 0, over = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		CU_ASSERT_EQUAL(sscanf(row, " up %llu %llu %lf %lf", &scanned, &reclaimed, &mib,
				       &over), 4);
		CU_ASSERT_EQUAL(scanned, 0);
		CU_ASSERT_EQUAL(reclaimed, 768);
		CU_ASSERT_DOUBLE_EQUAL(mib, 3.0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(over, 1.0, 1e-9);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "up         +256 pages reclaimed (+1.0 MiB)"));
	CU_ASSERT_PTR_NULL(strstr(buf, "(recorded)"));	/* a scenario */
	free(buf);
	f = open_memstream(&buf, &len);
	rr_table_print(f, &t, policies, NULL, true);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| up | 2 | 0 | 0 | 768 | 1.0 | 0.0 | 0 | 12 | 1 |"));
	free(buf);
	rr_totals_free(&t);
}

/* 3,000 episodes over 3 s: the page plots them from at most 1,024 bins, and
 * each policy's line ends at its total. */
static void test_html(void)
{
	struct rr_html *h;
	struct rr_totals t;
	struct rr_state st;
	char dir[] = "/tmp/rr-unit-html.XXXXXX", path[64];
	struct rr_error err = { "", "" };
	char *page, *p;
	struct rr_outfile *out;
	int points = 0;

	setup_policies();
	names(&st);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/p.html", dir);
	h = rr_html_new(2, NULL);
	rr_totals_init(&t, 2, 0, true, 4096, 0);
	for (int i = 0; i < 3000; i++) {
		struct rr_episode ep;
		struct rr_batch b;
		struct rr_sim_result res[2];
		struct rr_episode_diff d;

		episode(&ep, &b, res);
		ep.start_ns = (uint64_t)i * 1000000;
		CU_ASSERT_EQUAL_FATAL(rr_diff_episode(&d, &ep, &st, 4096, true, res, 2, 0, NULL,
						      false), 0);
		CU_ASSERT_EQUAL(rr_html_note(h, &d), 0);
		rr_totals_add(&t, &d);
		rr_diff_episode_free(&d);
		free_results(res);
	}
	out = rr_outfile_open(path, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(rr_html_write(h, &t, policies, "t.dat", path, out, &err), 0);
	CU_ASSERT_EQUAL(rr_outfile_commit(out, &err), 0);
	page = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	/* the first plot's y axis tops at the larger total: 3000 x 80 pages */
	CU_ASSERT_PTR_NOT_NULL(strstr(page, ">240000 pg</text>"));
	p = strstr(page, "points=\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (p += 8; *p != '"'; p++)
		points += *p == ' ';
	CU_ASSERT_TRUE(points > 500 && points <= 1024);
	/* the baseline's line ends at 192000 of 240000 pages: y = 310 - 0.8 * 300 */
	CU_ASSERT_PTR_NOT_NULL(strstr(page, ",70.0 \"/>"));
	free(page);
	rr_html_free(h);
	rr_totals_free(&t);
	rr_state_free(&st);
	unlink(path);
	rmdir(dir);
}

int register_output_tests(void)
{
	CU_pSuite s = CU_add_suite("diff and renderers", NULL, NULL);

	if (!s || !CU_add_test(s, "per-episode diff", test_diff) ||
	    !CU_add_test(s, "running totals", test_totals) ||
	    !CU_add_test(s, "JSON of an episode", test_json_episode) ||
	    !CU_add_test(s, "-o: streamed document = one dump", test_json_stream) ||
	    !CU_add_test(s, "--jsonl lines", test_jsonl) ||
	    !CU_add_test(s, "JSON writer: yajl stream = jansson dump", test_jw) ||
	    !CU_add_test(s, "table: text and markdown", test_table) ||
	    !CU_add_test(s, "--html: fixed bins", test_html))
		return -1;
	return 0;
}
