// SPDX-License-Identifier: GPL-2.0-only
/*
 * --html: one self-contained page (inline SVG, no scripts, no network)
 * with the plots a reviewer would rather look at than read:
 *   1. pages reclaimed over time, cumulative, one line per policy;
 *   2. scan targets per priority for the cgroup with the most targets,
 *      one bar per policy and priority;
 *   3. the chunk asked for by each memory.reclaim call of the first
 *      proactive request, per policy.
 * The data is gathered while the episodes stream by (rr_html_note), in
 * memory that does not grow with the trace: plot 1 sums each policy's
 * reclaim into HTML_BINS bins of equal width over the episodes' start
 * times (and, for inputs without time, over their order), doubling the
 * width and merging neighbours when an episode falls beyond the last bin;
 * plot 2 keeps 13 sums per policy and cgroup; plot 3 the first request's
 * calls.  It does not depend on which episodes the JSON lists.
 */
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "output.h"

#define MAXP RR_MAX_POLICIES
#define HTML_BINS 1024

struct html_cg {
	uint64_t id;		/* hash key */
	char *path;
	uint64_t sum[MAXP][RR_DEF_PRIORITY + 1];	/* target pages per policy and priority */
	uint64_t total;
	UT_hash_handle hh;
};

/* Fixed-width bins over a growing key (ns since the first episode, or the
 * episode's number). */
struct bins {
	uint64_t width;			/* key units per bin, a power of two */
	size_t used;			/* bins up to the last non-empty one */
	bool any[HTML_BINS];
	uint64_t last_key[HTML_BINS];	/* the largest key that fell in the bin */
	uint64_t rec[MAXP][HTML_BINS];	/* pages reclaimed per policy */
};

struct rr_html {
	int np;
	const char *cgroup;	/* --html-cgroup, or NULL */
	uint64_t n;		/* episodes replayed */
	uint64_t t0, t1;	/* start of the first one, latest start */
	struct bins by_time, by_index;
	struct html_cg *cg;	/* hash by memcg id */
	uint64_t *chunks[MAXP];	/* the first proactive request's calls */
	size_t nr_chunks[MAXP];
	bool have_chunks;
};

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

struct rr_html *rr_html_new(int nr_policies, const char *cgroup)
{
	struct rr_html *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->np = nr_policies < MAXP ? nr_policies : MAXP;
	h->cgroup = cgroup;
	h->by_time.width = h->by_index.width = 1;
	return h;
}

static void bins_add(struct bins *b, int np, uint64_t key, const struct rr_sim_result *results)
{
	size_t i;

	while (key / b->width >= HTML_BINS) {
		/* twice as wide: bin i takes bins 2i and 2i + 1 */
		for (i = 0; i < HTML_BINS / 2; i++) {
			size_t a = 2 * i, c = 2 * i + 1;

			b->any[i] = b->any[a] || b->any[c];
			b->last_key[i] = b->any[c] ? b->last_key[c] : b->last_key[a];
			for (int p = 0; p < np; p++)
				b->rec[p][i] = b->rec[p][a] + b->rec[p][c];
		}
		memset(b->any + HTML_BINS / 2, 0, HTML_BINS / 2 * sizeof(b->any[0]));
		for (int p = 0; p < np; p++)
			memset(b->rec[p] + HTML_BINS / 2, 0, HTML_BINS / 2 * sizeof(b->rec[p][0]));
		b->used = (b->used + 1) / 2;
		b->width *= 2;
	}
	i = (size_t)(key / b->width);
	if (!b->any[i] || key > b->last_key[i])
		b->last_key[i] = key;
	b->any[i] = true;
	for (int p = 0; p < np; p++)
		b->rec[p][i] += results[p].nr_reclaimed_pages;
	if (i + 1 > b->used)
		b->used = i + 1;
}

int rr_html_note(struct rr_html *h, const struct rr_episode_diff *d)
{
	const struct rr_sim_result *results = d->results;
	const struct rr_episode *ep = d->ep;
	int np = h->np;

	if (!results)
		return 0;
	if (!h->n++)
		h->t0 = h->t1 = ep->start_ns;
	if (ep->start_ns > h->t1)
		h->t1 = ep->start_ns;
	/* an episode that began before the first one listed: the first bin */
	bins_add(&h->by_time, np, ep->start_ns > h->t0 ? ep->start_ns - h->t0 : 0, results);
	bins_add(&h->by_index, np, h->n - 1, results);
	for (int p = 0; p < np; p++) {
		for (size_t i = 0; i < results[p].nr_targets; i++) {
			const struct rr_scan_target *t = &results[p].targets[i];
			struct html_cg *c;

			HASH_FIND(hh, h->cg, &t->memcg_id, sizeof(t->memcg_id), c);
			if (!c) {
				const struct rr_memcg *m = rr_state_find(d->names, t->memcg_id);

				c = calloc(1, sizeof(*c));
				if (!c || !(c->path = strdup(m && m->path ? m->path : "?"))) {
					free(c);
					return -1;
				}
				c->id = t->memcg_id;
				HASH_ADD(hh, h->cg, id, sizeof(c->id), c);
			}
			if (t->priority >= 0 && t->priority <= RR_DEF_PRIORITY) {
				c->sum[p][t->priority] += t->nr_pages;
				c->total += t->nr_pages;
			}
		}
	}
	if (!h->have_chunks && ep->kind == RR_KIND_PROACTIVE &&
	    (!h->cgroup || (ep->root_path && !strcmp(ep->root_path, h->cgroup)))) {
		for (int p = 0; p < np; p++) {
			h->chunks[p] = malloc((results[p].nr_chunks + 1) * sizeof(uint64_t));
			if (!h->chunks[p])
				return -1;
			if (results[p].nr_chunks)
				memcpy(h->chunks[p], results[p].chunk_requests,
				       results[p].nr_chunks * sizeof(uint64_t));
			h->nr_chunks[p] = results[p].nr_chunks;
		}
		h->have_chunks = true;
	}
	return 0;
}

void rr_html_free(struct rr_html *h)
{
	struct html_cg *c, *tmp;

	if (!h)
		return;
	for (int p = 0; p < MAXP; p++)
		free(h->chunks[p]);
	HASH_ITER(hh, h->cg, c, tmp) {
		HASH_DEL(h->cg, c);
		free(c->path);
		free(c);
	}
	free(h);
}

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* Line style: the first policy solid, policies 2-8 dashed, 9-16 dotted
 * (the colours repeat after 8). */
static const char *dash(int p)
{
	return !p ? "" : p < 8 ? " stroke-dasharray=\"6 4\"" : " stroke-dasharray=\"2 3\"";
}

/* Bars and swatches of policies 9-16 get a black outline. */
static const char *outline(int p)
{
	return p < 8 ? "" : " stroke=\"black\"";
}

static void legend(FILE *f, const struct rr_resolved_policy *policies, int np, int x, int y)
{
	for (int p = 0; p < np; p++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"%s/>"
			   "<text x=\"%d\" y=\"%d\" font-size=\"12\">", x, y + p * 16,
			colors[p % 8], outline(p), x + 16, y + p * 16 + 11);
		esc(f, policies[p].name);
		fputs("</text>\n", f);
	}
}

/* Plot 1: cumulative pages reclaimed over time, one point per bin. */
static void plot_reclaim(FILE *f, const struct rr_resolved_policy *policies,
			 const struct rr_html *h, int np)
{
	const int W = 760, H = 300, L = 70, B = 40;
	/* scenarios have no time: plot against the request's index */
	bool by_index = h->t1 == h->t0;
	const struct bins *b = by_index ? &h->by_index : &h->by_time;
	uint64_t span = by_index ? h->n : h->t1 - h->t0, ymax = 1;

	for (int p = 0; p < np; p++) {
		uint64_t s = 0;

		for (size_t i = 0; i < b->used; i++)
			s += b->rec[p][i];
		if (s > ymax)
			ymax = s;
	}
	fprintf(f, "<h2>Pages reclaimed over time</h2>\n<svg width=\"%d\" height=\"%d\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">\n", W + 180, H + B + 20);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>"
		   "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		L, H + 10, L + W - L, H + 10, L, L, H + 10);
	if (by_index)
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%llu</text>", W - 60, H + 28,
			(unsigned long long)h->n);
	else
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%.3f s</text>", W - 60, H + 28,
			(double)span / 1e9);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">0</text>"
		   "<text x=\"2\" y=\"20\" font-size=\"12\">%llu pg</text>"
		   "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
		L, H + 28, (unsigned long long)ymax, L + 200, H + 45,
		by_index ? "request" : "time since the first episode");
	for (int p = 0; p < np; p++) {
		uint64_t s = 0;

		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			colors[p % 8], dash(p));
		if (by_index)
			fprintf(f, "%d,%d ", L, H + 10);
		for (size_t i = 0; i < b->used; i++) {
			double x = by_index ? L + (double)(b->last_key[i] + 1) * (W - L) / (double)span :
				   L + (double)b->last_key[i] * (W - L) / (double)span;

			if (!b->any[i])
				continue;
			s += b->rec[p][i];
			fprintf(f, "%.1f,%.1f ", x, H + 10 - (double)s * H / (double)ymax);
		}
		fputs("\"/>\n", f);
	}
	legend(f, policies, np, W + 10, 20);
	fputs("</svg>\n", f);
}

/* The cgroup of plot 2: --html-cgroup's, or the one with the most
 * scan-target pages (the first seen on a tie); NULL if none has targets. */
static const struct html_cg *targets_cgroup(const struct rr_html *h)
{
	const struct html_cg *c, *best = NULL;

	for (c = h->cg; c; c = c->hh.next) {
		if (h->cgroup ? !strcmp(c->path, h->cgroup) :
		    !best || c->total > best->total)
			best = c;
	}
	return best;
}

/* Plot 2: scan targets per priority for one cgroup. */
static void plot_targets(FILE *f, const struct rr_resolved_policy *policies,
			 const struct rr_html *h, int np)
{
	const struct html_cg *c = targets_cgroup(h);
	const int W = 760, H = 260, L = 70;
	uint64_t ymax = 1;

	fputs("<h2>Scan targets per priority</h2>\n", f);
	if (!c) {
		fputs("<p>No scan targets.</p>\n", f);
		return;
	}
	for (int p = 0; p < np; p++)
		for (int pr = 0; pr <= 12; pr++)
			if (c->sum[p][pr] > ymax)
				ymax = c->sum[p][pr];
	fputs("<p>cgroup <code>", f);
	esc(f, c->path);
	fputs("</code>: pages of all its get_scan_count() targets at each priority, summed over the "
	      "episodes</p>\n", f);
	fprintf(f, "<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		W + 180, H + 60);
	for (int pr = 12; pr >= 0; pr--) {
		double gx = L + (12 - pr) * (double)(W - L) / 13.0;
		double bw = (W - L) / 13.0 / (np + 1);

		for (int p = 0; p < np; p++) {
			double bh = (double)c->sum[p][pr] * H / (double)ymax;

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s>"
				   "<title>priority %d, ", gx + p * bw, H + 10 - bh, bw, bh,
				colors[p % 8], outline(p), pr);
			esc(f, policies[p].name);
			fprintf(f, ": %llu pages</title></rect>\n", (unsigned long long)c->sum[p][pr]);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%d</text>\n", gx, H + 28, pr);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">priority</text>"
		   "<text x=\"2\" y=\"20\" font-size=\"12\">%llu pg</text>\n", L + 300, H + 48,
		(unsigned long long)ymax);
	legend(f, policies, np, W + 10, 20);
	fputs("</svg>\n", f);
}

/* Plot 3: memory.reclaim chunk per call. */
static void plot_chunks(FILE *f, const struct rr_resolved_policy *policies,
			const struct rr_html *h, int np)
{
	const int W = 760, H = 220, L = 70;
	size_t most = 1;
	uint64_t ymax = 1;

	fputs("<h2>memory.reclaim chunk per call</h2>\n", f);
	if (!h->have_chunks) {
		if (h->cgroup) {
			fputs("<p>No proactive (memory.reclaim) request at <code>", f);
			esc(f, h->cgroup);
			fputs("</code> in this input.</p>\n", f);
		} else {
			fputs("<p>No proactive (memory.reclaim) request in this input.</p>\n", f);
		}
		return;
	}
	for (int p = 0; p < np; p++) {
		if (h->nr_chunks[p] > most)
			most = h->nr_chunks[p];
		for (size_t i = 0; i < h->nr_chunks[p]; i++)
			if (h->chunks[p][i] > ymax)
				ymax = h->chunks[p][i];
	}
	fputs("<p>nr_pages of each try_to_free_mem_cgroup_pages() call of the first request, in "
	      "order</p>\n", f);
	fprintf(f, "<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		W + 180, H + 50);
	for (int p = 0; p < np; p++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			colors[p % 8], dash(p));
		for (size_t i = 0; i < h->nr_chunks[p]; i++)
			fprintf(f, "%.1f,%.1f ", L + (double)i * (W - L) / (double)most,
				H + 10 - (double)h->chunks[p][i] * H / (double)ymax);
		fputs("\"/>\n", f);
	}
	fprintf(f, "<text x=\"2\" y=\"20\" font-size=\"12\">%llu pg</text>"
		   "<text x=\"%d\" y=\"%d\" font-size=\"12\">call (up to %zu)</text>\n",
		(unsigned long long)ymax, L + 300, H + 35, most);
	legend(f, policies, np, W + 10, 20);
	fputs("</svg>\n", f);
}

int rr_html_write(const struct rr_html *h, const struct rr_totals *t,
		  const struct rr_resolved_policy *policies, const char *title,
		  const char *path, struct rr_outfile *out, struct rr_error *err)
{
	int np = h->np;
	FILE *f = rr_outfile_stream(out);

	if (h->cgroup && !targets_cgroup(h)) {
		char some[512] = "";
		size_t n = 0;
		int nr = 0;

		/* name a few cgroups that do have targets */
		for (const struct html_cg *c = h->cg; c && n < sizeof(some); c = c->hh.next)
			n += (size_t)snprintf(some + n, sizeof(some) - n, "%s%s",
					      nr++ ? ", " : "", c->path);
		rr_error_set(err, title ? title : path,
			     "--html-cgroup %s: no policy made a scan target in that cgroup "
			     "(%u cgroups have targets: %s%s)", h->cgroup, HASH_COUNT(h->cg),
			     nr ? some : "none", n >= sizeof(some) ? "..." : "");
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>reclaim-replay</title>\n<style>body{font-family:sans-serif;margin:2em}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
	      "text-align:right}th:first-child,td:first-child{text-align:left}</style>"
	      "</head><body>\n<h1>reclaim-replay: ", f);
	esc(f, title ? title : "");
	fputs("</h1>\n<table><tr><th>policy</th><th>pages reclaimed</th><th>pages scanned</th>"
	      "<th>calls</th><th>episodes that differ</th></tr>\n", f);
	for (int p = 0; p < t->nr_policies; p++) {
		fputs("<tr><td>", f);
		esc(f, policies[p].name);
		fprintf(f, "</td><td>%llu</td><td>%llu</td><td>%llu</td><td>",
			(unsigned long long)t->policy[p].nr_reclaimed,
			(unsigned long long)t->policy[p].nr_scanned,
			(unsigned long long)t->policy[p].calls);
		if (p == t->baseline)
			fputs("baseline</td></tr>\n", f);
		else
			fprintf(f, "%llu</td></tr>\n",
				(unsigned long long)t->policy[p].episodes_differing);
	}
	fputs("</table>\n", f);
	plot_reclaim(f, policies, h, np);
	plot_targets(f, policies, h, np);
	plot_chunks(f, policies, h, np);
	fputs("</body></html>\n", f);
	if (ferror(f)) {
		rr_error_set(err, path, "write failed");
		return -1;
	}
	return 0;
}
