// SPDX-License-Identifier: GPL-2.0-only
/*
 * reclaim-replay verify (verify.h): a policy's prediction from a stock
 * recording against the recording of a kernel that runs the policy.  Both
 * sides are JSON diffs of one replay each (reclaim-replay-json(5)); the
 * predicted time is the stock trace's batch model (timing.h) applied to
 * the policy's own calls, pages and shrink_lruvec() calls, over the same
 * model of the kernel's, times the time the stock kernel measured for the
 * same episode; the measured time what the patched kernel spent inside
 * its reclaim calls.
 */
#include "verify.h"

#include <math.h>
#include <string.h>

#include "../timing/timing.h"

/* Kinds compared, in output order, with their row names. */
static const struct {
	const char *kind, *name;
} kinds[] = {
	{ "memcg", "limit reclaim (memcg)" },
	{ "softlimit", "soft-limit reclaim" },
	{ "proactive", "memory.reclaim writes" },
	{ "kswapd", "kswapd" },
	{ "direct", "direct reclaim" },
	{ "node", "node reclaim" },
};

static uint64_t u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

/* The stock trace's batch model from its JSON, for the estimate of one
 * write; false when it was not fitted. */
static bool batch_fit(json_t *doc, struct rr_batch_cost_fit *f)
{
	json_t *bm = json_object_get(json_object_get(doc, "time_model"), "batch_model");
	static const char *const type[2] = { "anon", "file" };

	memset(f, 0, sizeof(*f));
	if (!json_is_true(json_object_get(bm, "fitted")))
		return false;
	f->fitted = true;
	for (int t = 0; t < 2; t++) {
		json_t *o = json_object_get(json_object_get(bm, "types"), type[t]);

		if (!json_is_true(json_object_get(o, "fitted")))
			continue;
		f->type[t].terms = RR_COST_TERM_FIXED | RR_COST_TERM_SCAN | RR_COST_TERM_RECLAIM;
		f->type[t].fixed_ns = num(o, "fixed_ns_per_batch");
		f->type[t].scan_ns_per_page = num(o, "scan_ns_per_page");
		f->type[t].reclaim_ns_per_page = num(o, "reclaim_ns_per_page");
		f->mean_taken[t] = num(o, "mean_pages_per_batch");
	}
	f->rest_per_call_ns = num(bm, "rest_ns_per_call");
	f->rest_per_lruvec_ns = num(bm, "rest_ns_per_shrink_lruvec_call");
	return true;
}

/* A side from kind totals (or an episode's result): pages and calls. */
static void side_of(json_t *o, struct rr_verify_side *s)
{
	memset(s, 0, sizeof(*s));
	s->calls = u64(o, "calls");
	s->nr_scanned = u64(o, "nr_scanned");
	s->nr_reclaimed = u64(o, "nr_reclaimed");
	s->over_reclaim_pages = u64(o, "over_reclaim_pages");
}

/* Add side @x into the total @sum (time only while every side has one). */
static void side_add(struct rr_verify_side *sum, const struct rr_verify_side *x)
{
	sum->calls += x->calls;
	sum->nr_scanned += x->nr_scanned;
	sum->nr_reclaimed += x->nr_reclaimed;
	sum->over_reclaim_pages += x->over_reclaim_pages;
	sum->ns += x->ns;
	sum->has_ns &= x->has_ns;
}

/*
 * The predicted time of episodes: each recorded episode's own measured
 * time, scaled by the batch model's cost of the policy's work over its
 * cost of the kernel's (the stock replay's calls, passes and pages): a
 * ratio estimate, which keeps what the model does not see (the pages'
 * state, the swap device, the machine's speed during that episode) as
 * the recording measured it.  Refused where more than half of the
 * policy's modelled cost is the rest per pass (RR_VERIFY_MAX_REST): an
 * average the recording took over passes unlike the policy's.
 */
#define RR_VERIFY_MAX_REST 0.5

struct time_est {
	double pred_ns, model_ns, rest_ns;
	uint64_t episodes, unscaled, passes, recorded_passes;
};

static double model_of(const struct rr_batch_cost_fit *fit, json_t *res, bool rest_only)
{
	const uint64_t sc[2] = { rest_only ? 0 : u64(res, "nr_scanned_anon"),
				 rest_only ? 0 : u64(res, "nr_scanned_file") };
	const uint64_t rc[2] = { rest_only ? 0 : u64(res, "nr_reclaimed_anon"),
				 rest_only ? 0 : u64(res, "nr_reclaimed_file") };

	return rr_batch_cost_estimate_ns(fit, u64(res, "calls"), u64(res, "shrink_lruvec_calls"),
					 sc, rc);
}

static void time_add(struct time_est *t, const struct rr_batch_cost_fit *fit, json_t *ep,
		     const char *policy)
{
	json_t *rec = json_object_get(ep, "recorded");
	json_t *res = json_object_get(json_object_get(ep, "results"), policy);
	json_t *base = json_object_get(json_object_get(ep, "results"), "kernel");
	double ck, cp;

	if (!json_is_object(res) || !json_is_object(base))
		return;
	t->episodes++;
	ck = model_of(fit, base, false);
	cp = model_of(fit, res, false);
	t->model_ns += cp;
	t->rest_ns += model_of(fit, res, true);
	t->passes += u64(res, "shrink_lruvec_calls");
	t->recorded_passes += u64(base, "shrink_lruvec_calls");
	if (ck > 0)
		t->pred_ns += (double)u64(rec, "in_calls_ns") * cp / ck;
	else
		t->unscaled++;
}

/* The time of side @a from @t; false, with @note saying why, when none. */
static bool time_set(const struct time_est *t, struct rr_verify_side *a, const char *what,
		     char *note, size_t len)
{
	a->has_ns = false;
	if (!t->episodes || t->unscaled)
		return false;
	if (t->model_ns > 0 && t->rest_ns > RR_VERIFY_MAX_REST * t->model_ns) {
		if (!*note)
			snprintf(note, len, "no time predicted for %s: %.0f%% of the policy's "
				 "modelled cost is the rest of its %llu passes (shrink_lruvec() calls; "
				 "the kernel's replay made %llu), an average the recording took over "
				 "passes unlike these", what, 100.0 * t->rest_ns / t->model_ns,
				 (unsigned long long)t->passes,
				 (unsigned long long)t->recorded_passes);
		return false;
	}
	a->ns = t->pred_ns;
	a->has_ns = true;
	return true;
}

/* The proactive episodes of @doc, in their order (the JSON lists
 * episodes in order of their end: writes do not overlap within a task). */
static size_t writes_of(json_t *doc, json_t **out, size_t cap)
{
	json_t *eps = json_object_get(doc, "episodes"), *e;
	size_t i, n = 0;

	json_array_foreach(eps, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "kind")) ?: "", "proactive") &&
		    n < cap)
			out[n++] = e;
	return n;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / 1048576.0;
}

static int add_row(struct rr_verify *v, const char *what, const char *kind,
		   const struct rr_verify_side *p, const struct rr_verify_side *m)
{
	struct rr_verify_row *r;

	if (v->nr_rows >= RR_VERIFY_ROWS)
		return -1;
	r = &v->rows[v->nr_rows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	r->predicted = *p;
	r->measured = *m;
	return 0;
}

/* Refuse two workloads whose memory.reclaim writes differ (count, target,
 * request within 0.5 %: a request inferred from a patched kernel's calls
 * is the roundest that fits them). */
static int same_writes(json_t **a, size_t na, json_t **b, size_t nb, const char *sa,
		       const char *sb, struct rr_error *err)
{
	if (na != nb) {
		rr_error_set(err, sb, "the workloads differ: %s holds %zu memory.reclaim writes, "
			     "%s %zu", sa, na, sb, nb);
		return -1;
	}
	for (size_t i = 0; i < na; i++) {
		const char *ca = json_string_value(json_object_get(a[i], "cgroup")) ?: "?";
		const char *cb = json_string_value(json_object_get(b[i], "cgroup")) ?: "?";
		bool ka = json_is_integer(json_object_get(a[i], "request_bytes")),
		     kb = json_is_integer(json_object_get(b[i], "request_bytes"));

		if (!ka || !kb) {
			rr_error_set(err, ka ? sb : sa, "write %zu: its request is not in the trace "
				     "(a write inferred from its calls that ended in -EAGAIN; record's "
				     "memory_reclaim() probe writes it): the workloads cannot be "
				     "compared", i + 1);
			return -1;
		}
		uint64_t ra = u64(a[i], "request_bytes"), rb = u64(b[i], "request_bytes");
		uint64_t d = ra > rb ? ra - rb : rb - ra;

		if (strcmp(ca, cb) || d * 200 > (ra > rb ? ra : rb)) {
			rr_error_set(err, sb, "the workloads differ: write %zu asks %.1f MiB of %s in "
				     "%s, %.1f MiB of %s in %s", i + 1, mib(ra), ca, sa, mib(rb), cb,
				     sb);
			return -1;
		}
	}
	return 0;
}

/* The cgroups of @doc's episodes of @kind, sorted, joined by ", " into
 * @buf (cut at @len). */
static void roots_of(json_t *doc, const char *kind, char *buf, size_t len)
{
	const char *names[64];
	size_t n = 0, i, at = 0;
	json_t *e;

	json_array_foreach(json_object_get(doc, "episodes"), i, e) {
		const char *c = json_string_value(json_object_get(e, "cgroup")) ?: "?";
		size_t k;

		if (strcmp(json_string_value(json_object_get(e, "kind")) ?: "", kind))
			continue;
		for (k = 0; k < n && strcmp(names[k], c); k++)
			;
		if (k == n && n < sizeof(names) / sizeof(names[0]))
			names[n++] = c;
	}
	for (i = 1; i < n; i++)		/* (insertion sort: a few names) */
		for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
			const char *t = names[k];

			names[k] = names[k - 1];
			names[k - 1] = t;
		}
	buf[0] = 0;
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", names[i]);
}

/* Refuse two workloads whose limit or soft-limit reclaim ran in other
 * cgroups (the reclaim roots of their episodes). */
static int same_roots(json_t *a, json_t *b, const char *sa, const char *sb, struct rr_error *err)
{
	static const char *const kinds_checked[] = { "memcg", "softlimit" };
	char ra[512], rb[512];

	for (size_t k = 0; k < 2; k++) {
		roots_of(a, kinds_checked[k], ra, sizeof(ra));
		roots_of(b, kinds_checked[k], rb, sizeof(rb));
		if (strcmp(ra, rb)) {
			rr_error_set(err, sb, "the workloads differ: %s reclaim in %s in %s, in %s in "
				     "%s", k ? "soft-limit" : "limit", *ra ? ra : "no cgroup", sa,
				     *rb ? rb : "no cgroup", sb);
			return -1;
		}
	}
	return 0;
}

/* The patched recording's memory.reclaim calls against its own replay
 * under kernel+POLICY: calls whose nr_to_reclaim the replay asked too,
 * position by position, and writes where every one matched. */
static void chunk_check(json_t **w, size_t n, struct rr_verify *v)
{
	for (size_t i = 0; i < n; i++) {
		json_t *rec = json_object_get(json_object_get(w[i], "recorded"), "call_nr_to_reclaim_pages");
		json_t *res = json_object_get(json_object_get(json_object_get(w[i], "results"), "kernel"),
					      "call_nr_to_reclaim_pages");
		size_t nr = json_array_size(rec), np = json_array_size(res), same = 0;

		if (!json_is_array(rec) || !json_is_array(res))
			continue;
		/* (the JSON lists the first calls of a long write only) */
		if (json_is_true(json_object_get(json_object_get(w[i], "recorded"), "call_arrays_cut")) ||
		    json_is_true(json_object_get(json_object_get(json_object_get(w[i], "results"),
								 "kernel"), "call_arrays_cut")))
			v->patched_writes_cut++;
		for (size_t k = 0; k < nr && k < np; k++)
			same += json_integer_value(json_array_get(rec, k)) ==
				json_integer_value(json_array_get(res, k));
		v->patched_writes++;
		v->patched_write_calls += nr > np ? nr : np;
		v->patched_write_calls_same += same;
		v->patched_writes_same += same == nr && nr == np;
	}
}

int rr_verify_docs(json_t *stock, json_t *patched, const char *policy, const char *stock_name,
		   const char *patched_name, struct rr_verify *v, struct rr_error *err)
{
	json_t *sk = json_object_get(json_object_get(stock, "summary"), "by_kind");
	json_t *pk = json_object_get(json_object_get(patched, "summary"), "by_kind");
	json_t *bm = json_object_get(json_object_get(stock, "time_model"), "batch_model");
	json_t *sw[256], *pw[256];
	struct rr_verify_side tp = { .has_ns = true }, tm = { .has_ns = true };
	struct rr_batch_cost_fit fit;
	size_t nsw, npw;
	bool fitted;

	memset(v, 0, sizeof(*v));
	snprintf(v->policy, sizeof(v->policy), "%s", policy);
	v->page_size_bytes = u64(json_object_get(stock, "input"), "page_size_bytes");
	if (!json_is_object(sk) || !json_is_object(pk)) {
		rr_error_set(err, json_is_object(sk) ? patched_name : stock_name,
			     "no episode totals by kind in its replay");
		return -1;
	}
	nsw = writes_of(stock, sw, 256);
	npw = writes_of(patched, pw, 256);
	if (same_writes(sw, nsw, pw, npw, stock_name, patched_name, err) ||
	    same_roots(stock, patched, stock_name, patched_name, err))
		return -1;
	chunk_check(pw, npw, v);
	fitted = batch_fit(stock, &fit);
	if (!fitted)
		snprintf(v->time_note, sizeof(v->time_note), "no time predicted: %s",
			 json_string_value(json_object_get(bm, "why_not")) ?:
			 "the stock trace has no time model");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		json_t *s = json_object_get(sk, kinds[k].kind), *p = json_object_get(pk, kinds[k].kind);
		json_t *pred = json_object_get(json_object_get(s, "policies"), policy);
		json_t *meas = json_object_get(p, "recorded");
		struct rr_verify_side a, b;
		bool in_s = s && u64(s, "replayed"), in_p = p && u64(p, "replayed");

		if (!in_s && !in_p)
			continue;
		if (in_s != in_p) {
			rr_error_set(err, patched_name, "the workloads differ: %s replays %s, %s none",
				     in_s ? stock_name : patched_name, kinds[k].name,
				     in_s ? patched_name : stock_name);
			return -1;
		}
		if (!json_is_object(pred)) {
			rr_error_set(err, stock_name, "its replay has no results of policy %s", policy);
			return -1;
		}
		side_of(pred, &a);
		side_of(meas, &b);
		/* time: the ratio estimate over the kind's episodes */
		if (fitted) {
			struct time_est t = { 0 };
			json_t *e;
			size_t i;

			json_array_foreach(json_object_get(stock, "episodes"), i, e)
				if (!strcmp(json_string_value(json_object_get(e, "kind")) ?: "",
					    kinds[k].kind))
					time_add(&t, &fit, e, policy);
			time_set(&t, &a, kinds[k].name, v->time_note, sizeof(v->time_note));
		}
		b.has_ns = json_object_get(meas, "in_calls_ns") != NULL;
		b.ns = (double)u64(meas, "in_calls_ns");
		if (add_row(v, kinds[k].name, kinds[k].kind, &a, &b))
			goto full;
		side_add(&tp, &a);
		side_add(&tm, &b);
	}
	/* each write */
	for (size_t i = 0; i < nsw; i++) {
		json_t *res = json_object_get(json_object_get(sw[i], "results"), policy);
		json_t *rec = json_object_get(pw[i], "recorded");
		uint64_t req = u64(sw[i], "request_bytes");
		uint64_t req_pages = v->page_size_bytes ? req / v->page_size_bytes : 0;
		struct rr_verify_side a, b;
		char what[96];

		if (!json_is_object(res) || !json_is_object(rec))
			continue;	/* (skipped on one side: its reason is in its diff) */
		side_of(res, &a);
		a.over_reclaim_pages = a.nr_reclaimed > req_pages ? a.nr_reclaimed - req_pages : 0;
		if (fitted) {
			struct time_est t = { 0 };
			char w[32];

			snprintf(w, sizeof(w), "write %zu", i + 1);
			time_add(&t, &fit, sw[i], policy);
			time_set(&t, &a, w, v->time_note, sizeof(v->time_note));
		}
		side_of(rec, &b);
		b.ns = (double)u64(rec, "in_calls_ns");
		b.has_ns = true;
		snprintf(what, sizeof(what), "write %zu: %.0f MiB of %s", i + 1, mib(req),
			 json_string_value(json_object_get(sw[i], "cgroup")) ?: "?");
		if (add_row(v, what, "proactive", &a, &b))
			goto full;
		{
			struct rr_verify_row *r = &v->rows[v->nr_rows - 1];
			json_t *en = json_object_get(pw[i], "errno");

			r->write = (int)i + 1;
			snprintf(r->cgroup, sizeof(r->cgroup), "%s",
				 json_string_value(json_object_get(sw[i], "cgroup")) ?: "");
			r->request_bytes = req;
			r->measured_errno = json_is_integer(en) ? (int)json_integer_value(en) : -1;
			if (r->measured_errno > 0) {
				size_t at = strlen(r->what);

				snprintf(r->what + at, sizeof(r->what) - at, r->measured_errno == 11 ?
					 " (-EAGAIN)" : " (errno %d)", r->measured_errno);
			}
		}
	}
	if (add_row(v, "total", "total", &tp, &tm))
		goto full;
	{
		json_t *f = json_object_get(patched, "fidelity");

		v->patched_decisions = u64(f, "decisions_checked");
		v->patched_exact = u64(f, "exact");
		v->patched_trajectories = u64(f, "trajectory_checked");
		v->patched_trajectories_exact = u64(f, "trajectory_exact");
	}
	return 0;
full:
	rr_error_set(err, stock_name, "more than %d rows to compare", RR_VERIFY_ROWS);
	return -1;
}

/* (predicted - measured) / measured in %, into @buf; "-" when measured is 0. */
static const char *err_pct(char *buf, size_t len, double p, double m, bool ok)
{
	if (!ok || m <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * (p - m) / m);
	return buf;
}

static const char *secs(char *buf, size_t len, const struct rr_verify_side *s)
{
	if (!s->has_ns)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", s->ns / 1e9);
	return buf;
}

static const char *rate(char *buf, size_t len, const struct rr_verify_side *s)
{
	if (!s->has_ns || s->ns <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", (double)s->nr_reclaimed / (s->ns / 1e9));
	return buf;
}

void rr_verify_print(FILE *f, const struct rr_verify *v, bool markdown)
{
	double page_mib = (double)(v->page_size_bytes ? v->page_size_bytes : 4096) / 1048576.0;
	char e[6][24], a[4][24], b[4][24];

	fprintf(f, "%s predicted from the stock recording, against the kernel that runs it "
		"(predicted / measured, error):\n\n", v->policy);
	if (markdown)
		fprintf(f, "| episodes | calls | pages scanned | pages reclaimed | over-reclaim MiB "
			"| seconds | pages/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
	else
		fprintf(f, "%-40s %23s %29s %29s %21s %23s %23s\n", "episodes", "calls",
			"pages scanned", "pages reclaimed", "over-reclaim MiB", "seconds", "pages/s");
	for (int i = 0; i < v->nr_rows; i++) {
		const struct rr_verify_row *r = &v->rows[i];
		const struct rr_verify_side *p = &r->predicted, *m = &r->measured;
		double po = (double)p->over_reclaim_pages * page_mib,
		       mo = (double)m->over_reclaim_pages * page_mib;
		double pr = p->has_ns && p->ns > 0 ? (double)p->nr_reclaimed / p->ns : 0,
		       mr = m->has_ns && m->ns > 0 ? (double)m->nr_reclaimed / m->ns : 0;
		char c[6][96];

		err_pct(e[0], sizeof(e[0]), (double)p->calls, (double)m->calls, true);
		err_pct(e[1], sizeof(e[1]), (double)p->nr_scanned, (double)m->nr_scanned, true);
		err_pct(e[2], sizeof(e[2]), (double)p->nr_reclaimed, (double)m->nr_reclaimed, true);
		snprintf(e[3], sizeof(e[3]), "%+.1f", po - mo);
		err_pct(e[4], sizeof(e[4]), p->ns, m->ns, p->has_ns && m->has_ns);
		err_pct(e[5], sizeof(e[5]), pr, mr, pr > 0 && mr > 0);
		snprintf(c[0], sizeof(c[0]), "%llu / %llu %s", (unsigned long long)p->calls,
			 (unsigned long long)m->calls, e[0]);
		snprintf(c[1], sizeof(c[1]), "%llu / %llu %s", (unsigned long long)p->nr_scanned,
			 (unsigned long long)m->nr_scanned, e[1]);
		snprintf(c[2], sizeof(c[2]), "%llu / %llu %s", (unsigned long long)p->nr_reclaimed,
			 (unsigned long long)m->nr_reclaimed, e[2]);
		snprintf(c[3], sizeof(c[3]), "%.1f / %.1f %s", po, mo, e[3]);
		snprintf(c[4], sizeof(c[4]), "%s / %s %s", secs(a[0], sizeof(a[0]), p),
			 secs(b[0], sizeof(b[0]), m), e[4]);
		snprintf(c[5], sizeof(c[5]), "%s / %s %s", rate(a[1], sizeof(a[1]), p),
			 rate(b[1], sizeof(b[1]), m), e[5]);
		if (markdown)
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", r->what, c[0], c[1], c[2],
				c[3], c[4], c[5]);
		else
			fprintf(f, "%-40.40s %23s %29s %29s %21s %23s %23s\n", r->what, c[0], c[1],
				c[2], c[3], c[4], c[5]);
	}
	fprintf(f, "\nover-reclaim: MiB reclaimed beyond each request (writes) or call's "
		"nr_to_reclaim; seconds: inside the reclaim calls (predicted: each stock episode's "
		"measured time times the batch model's cost of the policy's calls, passes and "
		"pages over that of the kernel's, an estimate)\n");
	if (v->time_note[0])
		fprintf(f, "%s\n", v->time_note);
	if (!strcmp(v->policy_source, "option"))
		fprintf(f, "the patched recording carries no record --kernel-policy marker: that "
			"its kernel ran %s is taken from -p\n", v->policy);
	if (v->patched_decisions || v->patched_trajectories || v->patched_writes)
		fprintf(f, "the patched recording replayed with %s%s:\n", strcmp(v->policy, "kernel") ?
			"kernel+" : "", v->policy);
	if (v->patched_writes)
		fprintf(f, "  memory.reclaim calls asking the recorded nr_to_reclaim (the policy's "
			"chunk rule): %llu of %llu (%.2f%%), every call of %llu of %llu writes\n",
			(unsigned long long)v->patched_write_calls_same,
			(unsigned long long)v->patched_write_calls,
			v->patched_write_calls ? 100.0 * (double)v->patched_write_calls_same /
						 (double)v->patched_write_calls : 0.0,
			(unsigned long long)v->patched_writes_same,
			(unsigned long long)v->patched_writes);
	if (v->patched_writes_cut)
		fprintf(f, "  (of %llu writes the first calls only: the JSON lists so many)\n",
			(unsigned long long)v->patched_writes_cut);
	if (v->patched_trajectories)
		fprintf(f, "  trajectories (whole calls replayed free) exact: %llu of %llu (%.2f%%)\n",
			(unsigned long long)v->patched_trajectories_exact,
			(unsigned long long)v->patched_trajectories,
			100.0 * (double)v->patched_trajectories_exact /
			(double)v->patched_trajectories);
	if (v->patched_decisions)
		fprintf(f, "  shrink_lruvec() decisions exact: %llu of %llu (%.2f%%; a chunk policy "
			"does not change them)\n", (unsigned long long)v->patched_exact,
			(unsigned long long)v->patched_decisions,
			100.0 * (double)v->patched_exact / (double)v->patched_decisions);
}

static json_t *side_json(const struct rr_verify_side *s, uint64_t page_size)
{
	json_t *o = json_object();

	json_object_set_new(o, "calls", json_integer((json_int_t)s->calls));
	json_object_set_new(o, "nr_scanned", json_integer((json_int_t)s->nr_scanned));
	json_object_set_new(o, "nr_reclaimed", json_integer((json_int_t)s->nr_reclaimed));
	json_object_set_new(o, "over_reclaim_pages", json_integer((json_int_t)s->over_reclaim_pages));
	json_object_set_new(o, "over_reclaim_bytes",
			    json_integer((json_int_t)(s->over_reclaim_pages * page_size)));
	json_object_set_new(o, "seconds", s->has_ns ? json_real(s->ns / 1e9) : json_null());
	json_object_set_new(o, "pages_per_second", s->has_ns && s->ns > 0 ?
			    json_real((double)s->nr_reclaimed / (s->ns / 1e9)) : json_null());
	return o;
}

static json_t *rel_json(double p, double m, bool ok)
{
	return ok && m > 0 ? json_real((p - m) / m) : json_null();
}

json_t *rr_verify_json(const struct rr_verify *v, const char *stock_name,
		       const char *patched_name)
{
	json_t *j = json_object(), *rows = json_array();
	uint64_t ps = v->page_size_bytes ? v->page_size_bytes : 4096;

	json_object_set_new(j, "schema_version", json_integer(1));
	json_object_set_new(j, "policy", json_string(v->policy));
	json_object_set_new(j, "stock", json_string(stock_name));
	json_object_set_new(j, "patched", json_string(patched_name));
	json_object_set_new(j, "page_size_bytes", json_integer((json_int_t)ps));
	for (int i = 0; i < v->nr_rows; i++) {
		const struct rr_verify_row *r = &v->rows[i];
		const struct rr_verify_side *p = &r->predicted, *m = &r->measured;
		json_t *o = json_object(), *e = json_object();
		bool t = p->has_ns && m->has_ns;

		json_object_set_new(o, "episodes", json_string(r->what));
		json_object_set_new(o, "kind", json_string(r->kind));
		json_object_set_new(o, "write", r->write ? json_integer(r->write) : json_null());
		json_object_set_new(o, "cgroup", r->write ? json_string(r->cgroup) : json_null());
		json_object_set_new(o, "request_bytes", r->write ?
				    json_integer((json_int_t)r->request_bytes) : json_null());
		json_object_set_new(o, "measured_errno", r->write && r->measured_errno >= 0 ?
				    json_integer(r->measured_errno) : json_null());
		json_object_set_new(o, "predicted", side_json(p, ps));
		json_object_set_new(o, "measured", side_json(m, ps));
		json_object_set_new(e, "calls", rel_json((double)p->calls, (double)m->calls, true));
		json_object_set_new(e, "nr_scanned",
				    rel_json((double)p->nr_scanned, (double)m->nr_scanned, true));
		json_object_set_new(e, "nr_reclaimed",
				    rel_json((double)p->nr_reclaimed, (double)m->nr_reclaimed, true));
		json_object_set_new(e, "over_reclaim_bytes",
				    json_integer((json_int_t)(p->over_reclaim_pages * ps) -
						 (json_int_t)(m->over_reclaim_pages * ps)));
		json_object_set_new(e, "seconds", rel_json(p->ns, m->ns, t));
		json_object_set_new(e, "pages_per_second",
				    t && p->ns > 0 && m->ns > 0 ?
				    rel_json((double)p->nr_reclaimed / p->ns,
					     (double)m->nr_reclaimed / m->ns, true) : json_null());
		json_object_set_new(o, "error", e);
		json_array_append_new(rows, o);
	}
	json_object_set_new(j, "rows", rows);
	json_object_set_new(j, "time_note", v->time_note[0] ? json_string(v->time_note) : json_null());
	json_object_set_new(j, "patched_decisions_checked",
			    json_integer((json_int_t)v->patched_decisions));
	json_object_set_new(j, "patched_decisions_exact", json_integer((json_int_t)v->patched_exact));
	json_object_set_new(j, "patched_trajectories_checked",
			    json_integer((json_int_t)v->patched_trajectories));
	json_object_set_new(j, "patched_trajectories_exact",
			    json_integer((json_int_t)v->patched_trajectories_exact));
	json_object_set_new(j, "patched_write_calls", json_integer((json_int_t)v->patched_write_calls));
	json_object_set_new(j, "patched_write_calls_same_nr_to_reclaim",
			    json_integer((json_int_t)v->patched_write_calls_same));
	json_object_set_new(j, "policy_source", json_string(v->policy_source[0] ? v->policy_source :
								 "trace"));
	return j;
}
