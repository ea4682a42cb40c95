// SPDX-License-Identifier: GPL-2.0-only
/*
 * `reclaim-replay merge`: fold the JSON diffs of many traces (one per
 * host, say) into one document of the same schema.  Counts add up, lowest
 * priorities take the minimum, shares are computed again from the summed
 * counts, per-cgroup totals add up by cgroup path (ids differ from host to
 * host), and the fidelity's worst episodes are the worst of all.  The
 * episodes themselves stay in the parts: the merged "episodes" is empty.
 */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* Fold @b into @a, key by key (@a's order first): integers add up, a
 * "lowest_priority" takes the minimum, objects fold, other values stay.
 * Returns -1 when a sum leaves the range of a JSON integer (int64), which
 * no real count reaches: such a part is not what compare wrote. */
static int fold(json_t *a, const json_t *b)
{
	const char *key;
	json_t *vb;

	json_object_foreach((json_t *)b, key, vb) {
		json_t *va = json_object_get(a, key);

		if (!va) {
			json_object_set_new(a, key, json_deep_copy(vb));
		} else if (json_is_integer(va) && json_is_integer(vb)) {
			json_int_t x = json_integer_value(va), y = json_integer_value(vb), sum;

			if (!strcmp(key, "lowest_priority"))
				sum = x < y ? x : y;
			else if (__builtin_add_overflow(x, y, &sum))
				return -1;
			json_integer_set(va, sum);
		} else if (json_is_object(va) && json_is_object(vb)) {
			if (fold(va, vb))
				return -1;
		} else if (json_is_null(va) && !json_is_null(vb)) {
			json_object_set_new(a, key, json_deep_copy(vb));
		}
	}
	return 0;
}

static double ratio(const json_t *o, const char *num, const char *den)
{
	json_int_t d = json_integer_value(json_object_get(o, den));

	return d ? (double)json_integer_value(json_object_get(o, num)) / (double)d : 0.0;
}

/* The fidelity's shares, from the summed counts. */
static void shares(json_t *f)
{
	const char *kind;
	json_t *k;

	if (!json_is_object(f))
		return;
	json_object_set_new(f, "exact_share", json_real(ratio(f, "exact", "decisions_checked")));
	json_object_set_new(f, "within_one_batch_share",
			    json_real(ratio(f, "within_one_batch", "decisions_checked")));
	json_object_set_new(f, "trajectory_exact_share",
			    json_real(ratio(f, "trajectory_exact", "trajectory_checked")));
	json_object_foreach(json_object_get(f, "by_kind"), kind, k)
		json_object_set_new(k, "exact_share", json_real(ratio(k, "exact", "decisions_checked")));
}

/* A cgroup's key across hosts: its path, or its id when it had none. */
static void cgroup_key(const json_t *cg, char *buf, size_t len)
{
	const char *path = json_string_value(json_object_get(cg, "cgroup"));

	if (path)
		snprintf(buf, len, "p:%s", path);
	else
		snprintf(buf, len, "i:%lld", json_integer_value(json_object_get(cg, "cgroup_id")));
}

static int cmp_cgroups(const void *x, const void *y)
{
	const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
	const char *pa = json_string_value(json_object_get(a, "cgroup"));
	const char *pb = json_string_value(json_object_get(b, "cgroup"));
	json_int_t ia = json_integer_value(json_object_get(a, "cgroup_id"));
	json_int_t ib = json_integer_value(json_object_get(b, "cgroup_id"));
	int c;

	if (pa && pb && (c = strcmp(pa, pb)))
		return c;
	if (!pa != !pb)
		return pa ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* summary.cgroups of every part, folded by cgroup, in output order. */
static json_t *merge_cgroups(json_t *const *docs, int n, int *bad)
{
	json_t *by_key = json_object(), *out = json_array(), *cg;
	json_t **v;
	const char *key;
	size_t i, nr = 0;

	for (int d = 0; d < n; d++) {
		json_array_foreach(json_object_get(json_object_get(docs[d], "summary"), "cgroups"),
				   i, cg) {
			char k[4200];
			json_t *have;

			cgroup_key(cg, k, sizeof(k));
			have = json_object_get(by_key, k);
			if (have) {
				json_t *c = json_deep_copy(cg);

				json_object_del(c, "cgroup_id");	/* the first host's stays */
				if (fold(have, c) && *bad < 0)
					*bad = d;
				json_decref(c);
			} else {
				json_object_set_new(by_key, k, json_deep_copy(cg));
			}
		}
	}
	v = calloc(json_object_size(by_key) + 1, sizeof(*v));
	json_object_foreach(by_key, key, cg)
		if (v)
			v[nr++] = cg;
	if (v)
		qsort(v, nr, sizeof(*v), cmp_cgroups);
	for (i = 0; i < nr; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(by_key);
	return out;
}

/* The worst episodes of all the parts: by calls not exact, at most 10. */
static json_t *merge_worst(json_t *const *docs, int n)
{
	json_t *all = json_array(), *out = json_array(), *w;
	size_t i;

	for (int d = 0; d < n; d++)
		json_array_foreach(json_object_get(json_object_get(docs[d], "fidelity"),
						   "worst_episodes"), i, w) {
			json_t *c = json_deep_copy(w);

			/* its episode number is its part's: say which part */
			json_object_set_new(c, "part", json_integer(d));
			json_array_append_new(all, c);
		}
	/* a stable selection: repeatedly the first of the largest left */
	for (int k = 0; k < RR_FIDELITY_WORST && json_array_size(all); k++) {
		size_t best = 0;

		json_array_foreach(all, i, w)
			if (json_integer_value(json_object_get(w, "not_exact")) >
			    json_integer_value(json_object_get(json_array_get(all, best), "not_exact")))
				best = i;
		json_array_append(out, json_array_get(all, best));
		json_array_remove(all, best);
	}
	json_decref(all);
	return out;
}

/* Check that @doc is a compare diff comparable with @first. */
static int check_part(const char *file, const json_t *doc, const json_t *first,
		      struct rr_error *err)
{
	const json_t *pa, *pb;
	size_t i;

	if (!json_is_object(doc) || json_integer_value(json_object_get(doc, "schema_version")) !=
	    RR_JSON_SCHEMA_VERSION || !json_is_object(json_object_get(doc, "summary")) ||
	    !json_is_array(json_object_get(doc, "policies"))) {
		rr_error_set(err, file, "not a reclaim-replay compare diff of schema_version %d",
			     RR_JSON_SCHEMA_VERSION);
		return -1;
	}
	if (!first)
		return 0;
	pa = json_object_get(doc, "policies");
	pb = json_object_get(first, "policies");
	if (json_array_size(pa) != json_array_size(pb))
		goto differ;
	for (i = 0; i < json_array_size(pa); i++)
		if (!json_equal(json_object_get(json_array_get(pa, i), "name"),
				json_object_get(json_array_get(pb, i), "name")))
			goto differ;
	if (!json_equal(json_object_get(doc, "baseline"), json_object_get(first, "baseline")))
		goto differ;
	return 0;
differ:
	rr_error_set(err, file, "compares other policies (or another baseline) than the first "
		     "diff: merge diffs of one 'compare -p ...' command");
	return -1;
}

/* The merged "input": the parts, their common release and page size, and
 * their stats added up. */
static json_t *merge_input(const char *const *files, json_t *const *docs, int n,
			   int *bad)
{
	json_t *in = json_object(), *from = json_array(), *as = json_array(), *stats = json_object();
	const json_t *rel = json_object_get(json_object_get(docs[0], "input"), "kernel_release");
	json_int_t page = json_integer_value(json_object_get(json_object_get(docs[0], "input"),
							     "page_size_bytes"));
	bool same_rel = true, same_page = true;
	size_t i;
	json_t *a;

	for (int d = 0; d < n; d++) {
		json_t *din = json_object_get(docs[d], "input"), *p = json_object();

		same_rel &= json_equal(json_object_get(din, "kernel_release"), rel);
		same_page &= json_integer_value(json_object_get(din, "page_size_bytes")) == page;
		json_object_set_new(p, "file", json_string(files[d]));
		json_object_set(p, "input_file", json_object_get(din, "file"));
		json_object_set(p, "kernel_release", json_object_get(din, "kernel_release"));
		json_object_set(p, "page_size_bytes", json_object_get(din, "page_size_bytes"));
		json_array_append_new(from, p);
		json_array_foreach(json_object_get(din, "assumptions"), i, a) {
			size_t k;
			json_t *have;
			bool seen = false;

			json_array_foreach(as, k, have)
				seen |= json_equal(have, a);
			if (!seen)
				json_array_append(as, a);
		}
		if (fold(stats, json_object_get(din, "stats")) && *bad < 0)
			*bad = d;
	}
	if (!same_page)
		json_array_append_new(as, json_string("the parts have different page sizes: page "
						      "counts add pages of different sizes; the "
						      "*_bytes totals are exact"));
	json_object_set_new(in, "file", json_string("merged"));
	json_object_set_new(in, "kernel_release", same_rel && json_is_string(rel) ?
			    json_deep_copy(rel) : json_string("mixed"));
	json_object_set_new(in, "kernel_release_source", json_string("merged"));
	json_object_set_new(in, "page_size_bytes", u64(same_page ? (uint64_t)page : 0));
	json_object_set_new(in, "assumptions", as);
	/* reader_first_warning and other strings of one part mean nothing summed */
	for (void *it = json_object_iter(stats); it;) {
		void *next = json_object_iter_next(stats, it);

		if (!json_is_integer(json_object_iter_value(it)))
			json_object_del(stats, json_object_iter_key(it));
		it = next;
	}
	json_object_set_new(in, "stats", stats);
	json_object_set_new(in, "merged_from", from);
	return in;
}

int rr_merge(const char *const *files, int n, json_t **out, struct rr_error *err)
{
	json_t **docs = calloc((size_t)n + 1, sizeof(*docs));
	json_t *doc = NULL, *summary, *fid = NULL;
	int ret = -1, bad = -1;

	if (!docs) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	for (int d = 0; d < n; d++) {
		json_error_t je;

		docs[d] = json_load_file(files[d], 0, &je);
		if (!docs[d]) {
			rr_error_set(err, files[d],
				     "not JSON (merge reads what compare -o writes): %s (line %d)",
				     je.text, je.line);
			goto out;
		}
		if (check_part(files[d], docs[d], d ? docs[0] : NULL, err))
			goto out;
	}
	doc = rr_json_root();
	json_object_set_new(doc, "input", merge_input(files, docs, n, &bad));
	json_object_set(doc, "policies", json_object_get(docs[0], "policies"));
	json_object_set(doc, "baseline", json_object_get(docs[0], "baseline"));
	json_object_set_new(doc, "episodes", json_array());
	summary = json_deep_copy(json_object_get(docs[0], "summary"));
	for (int d = 1; d < n; d++)
		if (fold(summary, json_object_get(docs[d], "summary")) && bad < 0)
			bad = d;
	/* the merged document lists no episode of its own */
	json_object_set_new(summary, "episodes_listed", u64(0));
	json_object_set_new(summary, "cgroups", merge_cgroups(docs, n, &bad));
	json_object_set_new(doc, "summary", summary);
	for (int d = 0; d < n; d++) {
		json_t *f = json_object_get(docs[d], "fidelity");

		if (!json_is_object(f))
			continue;
		if (!fid)
			fid = json_deep_copy(f);
		else if (fold(fid, f) && bad < 0)
			bad = d;
	}
	if (fid) {
		shares(fid);
		json_object_set_new(fid, "worst_episodes", merge_worst(docs, n));
	}
	json_object_set_new(doc, "fidelity", fid ? fid : json_null());
	if (bad >= 0) {
		rr_error_set(err, files[bad], "counts too large to add to the other parts' "
			     "(beyond 2^63): not a diff that compare wrote");
		goto out;
	}
	*out = doc;
	doc = NULL;
	ret = 0;
out:
	json_decref(doc);
	for (int d = 0; d < n; d++)
		json_decref(docs[d]);
	free(docs);
	return ret;
}
