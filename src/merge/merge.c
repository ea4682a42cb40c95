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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../output/output.h"

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

/* A cgroup's key across hosts: its path, or its id when it had none
 * (malloc'ed, whole: two long paths of one prefix stay two cgroups). */
static char *cgroup_key(const json_t *cg)
{
	const char *path = json_string_value(json_object_get(cg, "cgroup"));
	char *k;

	if (path ? asprintf(&k, "p:%s", path) < 0 :
	    asprintf(&k, "i:%lld", json_integer_value(json_object_get(cg, "cgroup_id"))) < 0)
		return NULL;
	return k;
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

/* summary.cgroups of every part, folded by cgroup, in output order; NULL
 * when memory runs out. */
static json_t *merge_cgroups(json_t *const *docs, int n, int *bad)
{
	json_t *by_key = json_object(), *out = json_array(), *cg;
	json_t **v;
	const char *key;
	size_t i, nr = 0;

	for (int d = 0; d < n; d++) {
		json_array_foreach(json_object_get(json_object_get(docs[d], "summary"), "cgroups"),
				   i, cg) {
			char *k = cgroup_key(cg);
			json_t *have;

			if (!k)
				goto oom;
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
			free(k);
		}
	}
	v = calloc(json_object_size(by_key) + 1, sizeof(*v));
	if (!v)
		goto oom;
	json_object_foreach(by_key, key, cg)
		v[nr++] = cg;
	qsort(v, nr, sizeof(*v), cmp_cgroups);
	for (i = 0; i < nr; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(by_key);
	return out;
oom:
	json_decref(by_key);
	json_decref(out);
	return NULL;
}

/* A merged part's list of its own parts, or NULL. */
static const json_t *merged_from(const json_t *doc)
{
	return json_object_get(json_object_get(doc, "input"), "merged_from");
}

/* The worst episodes of all the parts: by calls not exact, at most 10. */
static json_t *merge_worst(json_t *const *docs, int n)
{
	json_t *all = json_array(), *out = json_array(), *w;
	size_t i, base = 0;

	for (int d = 0; d < n; d++) {
		const json_t *from = merged_from(docs[d]);

		json_array_foreach(json_object_get(json_object_get(docs[d], "fidelity"),
						   "worst_episodes"), i, w) {
			json_t *c = json_deep_copy(w);

			/* its episode number is its part's: say which part (in
			 * a merged part, which of its parts) */
			json_object_set_new(c, "part", json_integer((json_int_t)base +
				(from ? json_integer_value(json_object_get(w, "part")) : 0)));
			json_array_append_new(all, c);
		}
		base += from ? json_array_size(from) : 1;
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

/*
 * What merge relies on in a part, checked before anything is added: every
 * count an integer >= 0, a lowest_priority 0..12, shares numbers (they are
 * computed again), strings and nulls only where compare writes them, and
 * the same keys as in the first part.  A part edited by hand or cut short
 * is named with the first value that is wrong, instead of being folded
 * into totals that no trace had.
 */
struct checking {
	const char *file;
	struct rr_error *err;
	char path[256];		/* "summary.policies.kernel.nr_scanned" */
};

static int wrong(struct checking *c, const char *what)
{
	rr_error_set(c->err, c->file, "%s: %s: not a diff that compare wrote, or edited",
		     c->path, what);
	return -1;
}

/* Append ".@key" to c->path for the length of one check. */
static size_t enter(struct checking *c, const char *key)
{
	size_t len = strlen(c->path);

	if (*key)
		snprintf(c->path + len, sizeof(c->path) - len, "%s%s", len ? "." : "", key);
	return len;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* @v, the value of @key in a subtree of counts: see above.  @strings lists
 * the keys whose value may be a string or null in it. */
static int check_counts(struct checking *c, const char *key, const json_t *v,
			const char *const *strings)
{
	size_t at = enter(c, key);
	int ret = 0;

	if (json_is_object(v)) {
		const char *k;
		json_t *x;

		json_object_foreach((json_t *)v, k, x)
			if ((ret = check_counts(c, k, x, strings)))
				break;
	} else if (ends_with(key, "_share")) {
		if (!json_is_number(v) && !json_is_null(v))
			ret = wrong(c, "a share (a number, or null of nothing judged) expected");
	} else if (!strcmp(key, "lowest_priority")) {
		if (!json_is_null(v) && (!json_is_integer(v) || json_integer_value(v) < 0 ||
					 json_integer_value(v) > 12))
			ret = wrong(c, "a priority (0 to 12) expected");
	} else if (json_is_string(v) || json_is_null(v)) {
		bool ok = false;

		for (int i = 0; strings && strings[i]; i++)
			ok |= !strcmp(key, strings[i]);
		if (!ok)
			ret = wrong(c, "a count (an integer >= 0) expected");
	} else if (!json_is_integer(v) || json_integer_value(v) < 0) {
		ret = wrong(c, "a count (an integer >= 0) expected");
	}
	c->path[at] = 0;
	return ret;
}

/* Every key of @a in @b with a value of the same type, and the other way
 * round (objects compared key by key; a null against an object passes:
 * a scenario's "recorded"). */
static int same_shape(struct checking *c, const char *key, const json_t *a, const json_t *b)
{
	size_t at = enter(c, key);
	const char *k;
	json_t *x;
	int ret = 0;

	/* maps whose keys are what the trace had: kinds of episodes, reasons,
	 * buckets of the per-episode change */
	if (!strcmp(key, "by_kind") || !strcmp(key, "unchecked_reasons") ||
	    !strcmp(key, "delta_distributions")) {
		c->path[at] = 0;
		return 0;
	}
	if (json_is_null(a) || json_is_null(b) || json_typeof(a) != json_typeof(b)) {
		if (!json_is_null(a) && !json_is_null(b) && !(json_is_number(a) && json_is_number(b)))
			ret = wrong(c, "of another type than in the first diff");
	} else if (json_is_object(a)) {
		json_object_foreach((json_t *)a, k, x) {
			const json_t *y = json_object_get(b, k);

			if (!y) {
				enter(c, k);
				ret = wrong(c, "missing (the first diff has it)");
			} else {
				ret = same_shape(c, k, x, y);
			}
			if (ret)
				break;
		}
		json_object_foreach((json_t *)b, k, x) {
			if (ret || json_object_get(a, k))
				continue;
			enter(c, k);
			ret = wrong(c, "not in the first diff");
		}
	}
	c->path[at] = 0;
	return ret;
}

/* @num <= @den in the object @o (a fidelity or one of its kinds). */
static int at_most(struct checking *c, const json_t *o, const char *num, const char *den)
{
	json_t *n = json_object_get(o, num), *d = json_object_get(o, den);

	if (json_is_integer(n) && json_is_integer(d) &&
	    json_integer_value(n) > json_integer_value(d)) {
		size_t at = enter(c, num);
		int ret;
		char what[128];

		snprintf(what, sizeof(what), "more than %s", den);
		ret = wrong(c, what);
		c->path[at] = 0;
		return ret;
	}
	return 0;
}

static int check_fidelity(struct checking *c, const json_t *f)
{
	static const char *const strings[] = { NULL };
	const char *k;
	json_t *x, *w;
	size_t i;

	snprintf(c->path, sizeof(c->path), "fidelity");
	if (json_is_null(f))
		return 0;
	if (!json_is_object(f))
		return wrong(c, "an object or null expected");
	json_object_foreach((json_t *)f, k, x) {
		if (!strcmp(k, "worst_episodes"))
			continue;
		if (check_counts(c, k, x, strings))
			return -1;
	}
	if (at_most(c, f, "exact", "within_one_batch") ||
	    at_most(c, f, "within_one_batch", "decisions_checked") ||
	    at_most(c, f, "off_by_one", "decisions_checked") ||
	    at_most(c, f, "mismatched", "decisions_checked") ||
	    at_most(c, f, "trajectory_exact", "trajectory_checked") ||
	    at_most(c, f, "trajectory_same_calls", "trajectory_checked") ||
	    at_most(c, f, "trajectory_same_stop_priority", "trajectory_checked") ||
	    at_most(c, f, "trajectory_same_nr_reclaimed", "trajectory_checked") ||
	    at_most(c, f, "trajectory_concurrent_exact", "trajectory_concurrent") ||
	    at_most(c, f, "episodes_checkable", "episodes_total"))
		return -1;
	json_object_foreach(json_object_get(f, "by_kind"), k, x) {
		enter(c, "by_kind");
		enter(c, k);
		if (at_most(c, x, "exact", "decisions_checked"))
			return -1;
		snprintf(c->path, sizeof(c->path), "fidelity");
	}
	w = json_object_get(f, "worst_episodes");
	enter(c, "worst_episodes");
	if (!json_is_array(w) || json_array_size(w) > RR_FIDELITY_WORST)
		return wrong(c, "an array of at most 10 expected");
	json_array_foreach(w, i, x) {
		json_t *e = json_object_get(x, "episode"), *ne = json_object_get(x, "not_exact");
		json_t *cg = json_object_get(x, "cgroup");

		if (!json_is_object(x) || !json_is_integer(e) || json_integer_value(e) < 1 ||
		    !json_is_integer(ne) || json_integer_value(ne) < 0 ||
		    !(json_is_string(cg) || json_is_null(cg)))
			return wrong(c, "an entry without an episode (>= 1), not_exact (>= 0) "
				     "and cgroup");
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A cgroup (the same id and path) listed twice in one part would be
 * counted twice.  (One path with two ids is two cgroups: a name reused.) */
static int check_cgroups_once(struct checking *c, const json_t *cgroups)
{
	size_t n = json_array_size(cgroups), i;
	char **keys = calloc(n + 1, sizeof(*keys));
	int ret = 0;

	if (!keys)
		return wrong(c, "out of memory");
	for (i = 0; i < n; i++) {
		const json_t *cg = json_array_get(cgroups, i);
		const char *path = json_string_value(json_object_get(cg, "cgroup"));

		if (asprintf(&keys[i], "%lld\x1f%s",
			     (long long)json_integer_value(json_object_get(cg, "cgroup_id")),
			     path ? path : "\x1e") < 0) {
			keys[i] = NULL;
			ret = wrong(c, "out of memory");
			goto out;
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 1; i < n; i++)
		if (!strcmp(keys[i - 1], keys[i])) {
			ret = wrong(c, "a cgroup (the same cgroup_id and path) listed twice");
			break;
		}
out:
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	return ret;
}

static int check_cgroups(struct checking *c, const json_t *cgroups, const json_t *policies)
{
	static const char *const strings[] = { "cgroup", NULL };
	const json_t *cg;
	size_t i;

	snprintf(c->path, sizeof(c->path), "summary.cgroups");
	if (!json_is_array(cgroups))
		return wrong(c, "an array expected");
	json_array_foreach(cgroups, i, cg) {
		const char *k;
		json_t *x;
		char idx[32];

		snprintf(idx, sizeof(idx), "%zu", i);
		enter(c, idx);
		if (!json_is_object(cg) || !json_object_get(cg, "cgroup_id") ||
		    !json_is_object(json_object_get(cg, "policies")))
			return wrong(c, "an object with cgroup, cgroup_id and policies expected");
		if (!json_is_string(json_object_get(cg, "cgroup")) &&
		    !json_is_null(json_object_get(cg, "cgroup"))) {
			enter(c, "cgroup");
			return wrong(c, "a path or null expected");
		}
		if (check_counts(c, "", cg, strings))
			return -1;
		json_object_foreach(json_object_get(cg, "policies"), k, x)
			if (!json_object_get(policies, k)) {
				enter(c, "policies");
				enter(c, k);
				return wrong(c, "a policy the diff does not compare");
			}
		snprintf(c->path, sizeof(c->path), "summary.cgroups");
	}
	return check_cgroups_once(c, cgroups);
}

/* input.assumptions strings; a merged part's merged_from entries objects
 * with a file, and its worst episodes' parts among them. */
static int check_input(struct checking *c, const json_t *input, const json_t *fidelity)
{
	const json_t *from = json_object_get(input, "merged_from"), *x;
	size_t i;

	snprintf(c->path, sizeof(c->path), "input.assumptions");
	json_array_foreach(json_object_get(input, "assumptions"), i, x)
		if (!json_is_string(x))
			return wrong(c, "strings expected");
	if (!from)
		return 0;
	snprintf(c->path, sizeof(c->path), "input.merged_from");
	if (!json_is_array(from) || !json_array_size(from))
		return wrong(c, "a list of parts expected");
	json_array_foreach(from, i, x)
		if (!json_is_object(x) || !json_is_string(json_object_get(x, "file")))
			return wrong(c, "a part without a file");
	snprintf(c->path, sizeof(c->path), "fidelity.worst_episodes");
	json_array_foreach(json_object_get(fidelity, "worst_episodes"), i, x) {
		const json_t *p = json_object_get(x, "part");

		if (!json_is_integer(p) || json_integer_value(p) < 0 ||
		    (size_t)json_integer_value(p) >= json_array_size(from))
			return wrong(c, "an entry whose part is not one of input.merged_from");
	}
	return 0;
}

/* The counts of @doc, and their shape against @first's (unless NULL). */
static int check_values(const char *file, const json_t *doc, const json_t *first,
			struct rr_error *err)
{
	static const char *const summary_strings[] = { "recorded", NULL };
	static const char *const stats_strings[] = { "reader_first_warning", NULL };
	struct checking c = { file, err, "" };
	const json_t *sum = json_object_get(doc, "summary");
	const json_t *stats = json_object_get(json_object_get(doc, "input"), "stats");
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)sum, k, x) {
		if (!strcmp(k, "cgroups"))
			continue;
		c.path[0] = 0;
		enter(&c, "summary");
		if (check_counts(&c, k, x, summary_strings))
			return -1;
	}
	if (check_cgroups(&c, json_object_get(sum, "cgroups"), json_object_get(sum, "policies")))
		return -1;
	if (stats) {
		snprintf(c.path, sizeof(c.path), "input");
		if (!json_is_object(stats)) {
			enter(&c, "stats");
			return wrong(&c, "an object expected");
		}
		if (check_counts(&c, "stats", stats, stats_strings))
			return -1;
	}
	if (check_fidelity(&c, json_object_get(doc, "fidelity")) ||
	    check_input(&c, json_object_get(doc, "input"), json_object_get(doc, "fidelity")))
		return -1;
	/* a trace's diff has both (its recording), a scenario's neither */
	if (json_is_null(json_object_get(sum, "recorded")) !=
	    json_is_null(json_object_get(doc, "fidelity"))) {
		snprintf(c.path, sizeof(c.path), "summary.recorded");
		return wrong(&c, "null where fidelity is not, or the other way round (a trace's "
			     "diff has both, a scenario's neither)");
	}
	{
		const json_t *ps = json_object_get(json_object_get(doc, "input"), "page_size_bytes");
		json_int_t v = json_integer_value(ps);

		/* 0: a merge of parts of different page sizes */
		if (ps && (!json_is_integer(ps) || (v && (v < 512 || v > (1 << 30) || (v & (v - 1)))))) {
			snprintf(c.path, sizeof(c.path), "input.page_size_bytes");
			return wrong(&c, "a power of two from 512 to 2^30 (or 0) expected");
		}
	}
	if (!first)
		return 0;
	{
		json_t *a = json_deep_copy(json_object_get(first, "summary"));
		json_t *b = json_deep_copy(sum);
		int ret;

		/* (cgroups differ from trace to trace: checked one by one above) */
		json_object_del(a, "cgroups");
		json_object_del(b, "cgroups");
		c.path[0] = 0;
		ret = same_shape(&c, "summary", a, b);
		json_decref(a);
		json_decref(b);
		if (ret)
			return -1;
	}
	c.path[0] = 0;
	return same_shape(&c, "fidelity", json_object_get(first, "fidelity"),
			  json_object_get(doc, "fidelity"));
}

static bool is_scenario(const json_t *doc)
{
	const char *src = json_string_value(json_object_get(json_object_get(doc, "input"),
							    "kernel_release_source"));

	return src && !strcmp(src, "scenario");
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
	{
		const char *mo = json_string_value(json_object_get(json_object_get(doc, "input"),
								   "outcome_model"));
		const char *mf = json_string_value(json_object_get(json_object_get(first, "input"),
								   "outcome_model"));

		if ((mo || mf) && (!mo || !mf || strcmp(mo, mf))) {
			rr_error_set(err, file, "replayed with the %s outcome model, the first diff "
				     "with the %s one (compare --outcome): their outcomes do not add "
				     "up", mo ? mo : "(unnamed)", mf ? mf : "(unnamed)");
			return -1;
		}
	}
	if (is_scenario(doc) != is_scenario(first)) {
		rr_error_set(err, file, "%s, the first diff %s: a scenario's requests and a trace's "
			     "episodes do not add up", is_scenario(doc) ? "a scenario's diff" :
			     "a trace's diff", is_scenario(first) ? "a scenario's" : "a trace's");
		return -1;
	}
	return 0;
differ:
	rr_error_set(err, file, "compares other policies (or another baseline) than the first "
		     "diff: merge diffs of one 'compare -p ...' command");
	return -1;
}

/* The merged "input": the parts, their common release and page size, and
 * their stats added up. */
/* Append @v (a new reference) to @list unless an equal value is there. */
static void add_unique(json_t *list, json_t *v)
{
	size_t i;
	json_t *have;

	json_array_foreach(list, i, have)
		if (json_equal(have, v)) {
			json_decref(v);
			return;
		}
	json_array_append_new(list, v);
}

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
		json_t *din = json_object_get(docs[d], "input"), *p;
		const json_t *nested = merged_from(docs[d]);

		same_rel &= json_equal(json_object_get(din, "kernel_release"), rel);
		same_page &= json_integer_value(json_object_get(din, "page_size_bytes")) == page;
		if (nested) {	/* a merged part: its parts, one by one */
			json_array_extend(from, (json_t *)nested);
		} else {
			p = json_object();
			json_object_set_new(p, "file", json_string(files[d]));
			json_object_set(p, "input_file", json_object_get(din, "file"));
			json_object_set(p, "kernel_release", json_object_get(din, "kernel_release"));
			json_object_set(p, "page_size_bytes", json_object_get(din, "page_size_bytes"));
			/* (what tells one trace's diff from another's: see twice()) */
			json_object_set(p, "stats", json_object_get(din, "stats"));
			json_array_append_new(from, p);
		}
		json_array_foreach(json_object_get(din, "assumptions"), i, a)
			add_unique(as, json_incref(a));
		if (fold(stats, json_object_get(din, "stats")) && *bad < 0)
			*bad = d;
	}
	if (!same_page)
		add_unique(as, json_string("the parts have different page sizes: page counts add "
					   "pages of different sizes; the *_bytes totals are exact"));
	json_object_set_new(in, "file", json_string("merged"));
	json_object_set_new(in, "kernel_release", same_rel && json_is_string(rel) ?
			    json_deep_copy(rel) : json_string("mixed"));
	json_object_set_new(in, "kernel_release_source", json_string("merged"));
	json_object_set(in, "outcome_model",
			json_object_get(json_object_get(docs[0], "input"), "outcome_model"));
	json_object_set_new(in, "page_size_bytes", rr_json_u64(same_page ? (uint64_t)page : 0));
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

/* Read part @d: "-" is standard input.  (A part given twice is found by
 * twice(), whatever its name.) */
static json_t *load_part(const char *const *files, int d, struct rr_error *err)
{
	const char *file = files[d];
	bool in = !strcmp(file, "-");
	struct stat st;
	json_error_t je;
	json_t *doc;
	FILE *f;

	for (int k = 0; in && k < d; k++)
		if (!strcmp(files[k], "-")) {
			rr_error_set(err, file, "standard input given twice");
			return NULL;
		}
	f = in ? stdin : fopen(file, "r");
	if (!f) {
		rr_error_set(err, file, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		rr_error_set(err, file, "is a directory");
		fclose(f);
		return NULL;
	}
	doc = json_loadf(f, 0, &je);
	if (!in)
		fclose(f);
	if (!doc)
		rr_error_set(err, in ? "<stdin>" : file,
			     "not JSON (merge reads what compare -o writes): %s (line %d)",
			     je.text, je.line);
	return doc;
}

/*
 * One trace's diff reached through two parts (a copy of a part, or a part
 * also inside a merged one) would be added twice.  Parts are told apart by
 * what their trace gave: its file name, release, page size and reader
 * stats (event counts and more), which two different traces do not share.
 */
static const char *text_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

/* "FILE" for a part given on the command line, "PART (in FILE)" for one
 * inside a merged part: the file the user named comes first. */
static void part_name(char *buf, size_t len, const json_t *entry, const char *given)
{
	const char *file = json_string_value(json_object_get(entry, "file"));

	if (!file || !strcmp(file, given))
		snprintf(buf, len, "%s", given);
	else
		snprintf(buf, len, "%s (in %s)", file, given);
}

/* @given[i]: the command-line file merged_from entry i came from */
static int twice(const json_t *from, const char *const *given, struct rr_error *err)
{
	size_t i, k;
	json_t *a, *b;

	json_array_foreach(from, i, a) {
		if (!json_object_get(a, "stats"))
			continue;	/* (merged by a version that did not keep them) */
		for (k = 0; k < i; k++) {
			b = json_array_get(from, k);
			if (json_equal(json_object_get(a, "stats"), json_object_get(b, "stats")) &&
			    json_equal(json_object_get(a, "input_file"), json_object_get(b, "input_file")) &&
			    json_equal(json_object_get(a, "kernel_release"),
				       json_object_get(b, "kernel_release")) &&
			    json_equal(json_object_get(a, "page_size_bytes"),
				       json_object_get(b, "page_size_bytes"))) {
				char na[300], nb[300];

				part_name(na, sizeof(na), a, given[i]);
				part_name(nb, sizeof(nb), b, given[k]);
				rr_error_set(err, na, "the diff of the same trace (%s) as %s: "
					     "its counts would be added twice",
					     text_of(a, "input_file"), nb);
				return -1;
			}
		}
	}
	return 0;
}

static int cmp_bucket(const void *x, const void *y)
{
	long long a = strtoll(*(const char *const *)x, NULL, 10);
	long long b = strtoll(*(const char *const *)y, NULL, 10);

	return (a > b) - (a < b);
}

/* The buckets of each folded distribution (summary.delta_distributions)
 * in the order compare writes them: by the change, lowest first. */
static int sort_buckets(json_t *dists)
{
	const char *pol, *what;
	json_t *p, *h;

	json_object_foreach(dists, pol, p) {
		json_object_foreach(p, what, h) {
			size_t nk = json_object_size(h), i = 0;
			const char **keys = calloc(nk + 1, sizeof(*keys));
			json_t *sorted = json_object();
			const char *k;
			json_t *v;

			if (!keys || !sorted) {
				free(keys);
				json_decref(sorted);
				return -1;
			}
			json_object_foreach(h, k, v)
				keys[i++] = k;
			qsort(keys, nk, sizeof(*keys), cmp_bucket);
			for (i = 0; i < nk; i++)
				json_object_set(sorted, keys[i], json_object_get(h, keys[i]));
			free(keys);
			json_object_set_new(p, what, sorted);	/* (h freed: not used after) */
		}
	}
	return 0;
}

int rr_merge(const char *const *files, int n, json_t **out, struct rr_error *err)
{
	json_t **docs = calloc((size_t)n + 1, sizeof(*docs));
	json_t *doc = NULL, *summary, *fid = NULL, *cgroups;
	int ret = -1, bad = -1;

	if (!docs) {
		rr_error_set(err, "", "out of memory");
		return -1;
	}
	for (int d = 0; d < n; d++) {
		docs[d] = load_part(files, d, err);
		if (!docs[d])
			goto out;
		if (check_part(files[d], docs[d], d ? docs[0] : NULL, err) ||
		    check_values(files[d], docs[d], d ? docs[0] : NULL, err))
			goto out;
	}
	doc = rr_json_root();
	json_object_set_new(doc, "input", merge_input(files, docs, n, &bad));
	{
		const json_t *from = json_object_get(json_object_get(doc, "input"), "merged_from");
		const char **given = calloc(json_array_size(from) + 1, sizeof(*given));
		size_t at = 0;
		int dup;

		if (!given) {
			rr_error_set(err, "", "out of memory");
			goto out;
		}
		for (int d = 0; d < n; d++) {	/* (as merge_input() laid them out) */
			const json_t *nested = merged_from(docs[d]);
			size_t cnt = nested ? json_array_size(nested) : 1;

			for (size_t j = 0; j < cnt && at < json_array_size(from); j++)
				given[at++] = files[d];
		}
		dup = twice(from, given, err);
		free(given);
		if (dup)
			goto out;
	}
	json_object_set(doc, "policies", json_object_get(docs[0], "policies"));
	json_object_set(doc, "baseline", json_object_get(docs[0], "baseline"));
	json_object_set_new(doc, "episodes", json_array());
	summary = json_deep_copy(json_object_get(docs[0], "summary"));
	for (int d = 1; d < n; d++)
		if (fold(summary, json_object_get(docs[d], "summary")) && bad < 0)
			bad = d;
	/* the merged document lists no episode of its own */
	json_object_set_new(summary, "episodes_listed", rr_json_u64(0));
	if (sort_buckets(json_object_get(summary, "delta_distributions"))) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	json_object_set_new(doc, "summary", summary);
	cgroups = merge_cgroups(docs, n, &bad);
	if (!cgroups) {
		rr_error_set(err, "", "out of memory");
		goto out;
	}
	json_object_set_new(summary, "cgroups", cgroups);
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
		rr_fidelity_json_shares(fid);
		json_object_set_new(fid, "worst_episodes", merge_worst(docs, n));
	}
	json_object_set_new(doc, "fidelity", fid ? fid : json_null());
	/* each part's time model was fitted on its own calls: none is made
	 * for the sum (the parts keep theirs) */
	json_object_set_new(doc, "time_model", json_null());
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
