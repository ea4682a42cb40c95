// SPDX-License-Identifier: GPL-2.0-only
/*
 * --html: one self-contained page (inline SVG, no scripts, no network)
 * with the plots a reviewer would rather look at than read:
 *   1. pages reclaimed over time, cumulative, one line per policy;
 *   2. scan targets per priority for the cgroup with the most targets,
 *      one panel per priority on its own scale (priority 12's pages are
 *      few), one bar per policy, and the numbers in a table;
 *   3. the chunk asked for by each memory.reclaim call of the first
 *      proactive request, per policy, on log axes (1 to 262144 pages).
 * In each plot, policies with identical data are drawn once, labelled
 * "kernel = cluster-cap", so none hides under another.
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

/*
 * Policies whose data in a plot are identical are drawn once, as the
 * first of them (its colour and line style), labelled with every name:
 * "kernel = cluster-cap".  lead[p] is that first policy; lead[p] == p
 * when p is drawn.  Return the number of policies drawn.
 */
typedef bool (*same_fn)(const void *data, int a, int b);

static int group_policies(int np, same_fn same, const void *data, int lead[MAXP])
{
	int drawn = 0;

	for (int p = 0; p < np; p++) {
		lead[p] = p;
		for (int q = 0; q < p; q++) {
			if (lead[q] == q && same(data, q, p)) {
				lead[p] = q;
				break;
			}
		}
		drawn += lead[p] == p;
	}
	return drawn;
}

/* The names of the policies drawn as @p, escaped, joined by " = ". */
static void group_label(FILE *f, const struct rr_resolved_policy *policies, const int lead[],
			int np, int p)
{
	const char *sep = "";

	for (int q = p; q < np; q++) {
		if (lead[q] != p)
			continue;
		fputs(sep, f);
		esc(f, policies[q].name);
		sep = " = ";
	}
}

enum swatch { SWATCH_LINE, SWATCH_BAR };

/* Upper bound of a legend's height in px: 16 a name, 4 between entries. */
static int legend_height(int np)
{
	return np * 20;
}

/* The legend at (@x, @y): one entry per policy drawn, its names one per
 * row, the second and later ones as "= name"; every policy is named. */
static void legend(FILE *f, const struct rr_resolved_policy *policies, const int lead[], int np,
		   int x, int y, enum swatch kind)
{
	for (int p = 0; p < np; p++) {
		const char *sep = "";

		if (lead[p] != p)
			continue;
		fputs("<g class=\"legend\"><title>", f);
		group_label(f, policies, lead, np, p);
		fputs("</title>", f);
		if (kind == SWATCH_LINE)
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
				   "stroke-width=\"2\"%s/>", x, y + 6, x + 22, y + 6, colors[p % 8],
				dash(p));
		else
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"%s/>",
				x + 5, y, colors[p % 8], outline(p));
		for (int q = p; q < np; q++) {
			if (lead[q] != p)
				continue;
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s", x + 28, y + 11, sep);
			esc(f, policies[q].name);
			fputs("</text>", f);
			sep = "= ";
			y += 16;
		}
		fputs("</g>\n", f);
		y += 4;
	}
}

/* Series of at most this many points get a dot on each (a policy making
 * one call is one point, which a line alone would not show); longer ones
 * on their first and last. */
#define MARK_ALL_POINTS 64

static void mark(FILE *f, int p, double x, double y)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x, y, colors[p % 8]);
}

/*
 * log10(@v) for @v >= 1, without libm: v = 2^k * m with m in [1, 2), and
 * ln m = 2 atanh(z), z = (m - 1) / (m + 1) <= 1/3, summed to 20 terms
 * (error below 1e-15).  Deterministic: plain double arithmetic.
 */
static double log10_u64(uint64_t v)
{
	const double ln2 = 0.69314718055994530942, ln10 = 2.30258509299404568402;
	double m, z, z2, term, sum = 0;
	int k = 0;

	if (!v)
		return 0;
	while (k < 63 && v >> (k + 1))
		k++;
	m = (double)v / (double)(UINT64_C(1) << k);
	z = (m - 1) / (m + 1);
	z2 = z * z;
	term = z;
	for (int n = 1; n < 40; n += 2) {
		sum += term / n;
		term *= z2;
	}
	return (k * ln2 + 2 * sum) / ln10;
}

/* Decades of a log axis from 1 that reaches @max: 1 to 20. */
static int log_decades(uint64_t max)
{
	uint64_t top = 1;
	int k = 0;

	while (top < max && k < 19) {
		top *= 10;
		k++;
	}
	if (top < max)
		k++;		/* 10^20 > UINT64_MAX */
	return k ? k : 1;
}

/* The label of 10^@k: the number up to a million, 1e7 beyond. */
static void print_pow10(FILE *f, int k)
{
	if (k > 6) {
		fprintf(f, "1e%d", k);
		return;
	}
	fputc('1', f);
	while (k-- > 0)
		fputc('0', f);
}

static bool same_reclaim(const void *data, int a, int b)
{
	const struct bins *bn = data;

	for (size_t i = 0; i < bn->used; i++)
		if (bn->rec[a][i] != bn->rec[b][i])
			return false;
	return true;
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
	int lead[MAXP], height = H + B + 20;

	if (!span)
		span = 1;
	group_policies(np, same_reclaim, b, lead);
	for (int p = 0; p < np; p++) {
		uint64_t s = 0;

		for (size_t i = 0; i < b->used; i++)
			s += b->rec[p][i];
		if (s > ymax)
			ymax = s;
	}
	if (legend_height(np) + 30 > height)
		height = legend_height(np) + 30;
	fprintf(f, "<h2>Pages reclaimed over time</h2>\n<svg id=\"plot-reclaim\" width=\"%d\" "
		   "height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n", W + 180, height);
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
		size_t nr_points = 0, k = 0;
		uint64_t s = 0;

		if (lead[p] != p)
			continue;
		for (size_t i = 0; i < b->used; i++)
			nr_points += b->any[i];
		fputs("<g class=\"series\"><title>", f);
		group_label(f, policies, lead, np, p);
		fprintf(f, "</title><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			colors[p % 8], dash(p));
		if (by_index)
			fprintf(f, "%d,%d ", L, H + 10);
		for (size_t i = 0; i < b->used; i++) {
			double x = L + (double)(b->last_key[i] + by_index) * (W - L) / (double)span;

			if (!b->any[i])
				continue;
			s += b->rec[p][i];
			fprintf(f, "%.1f,%.1f ", x, H + 10 - (double)s * H / (double)ymax);
		}
		fputs("\"/>", f);
		s = 0;
		for (size_t i = 0; i < b->used; i++) {
			double x = L + (double)(b->last_key[i] + by_index) * (W - L) / (double)span;

			if (!b->any[i])
				continue;
			s += b->rec[p][i];
			if (nr_points <= MARK_ALL_POINTS || !k || k + 1 == nr_points)
				mark(f, p, x, H + 10 - (double)s * H / (double)ymax);
			k++;
		}
		fputs("</g>\n", f);
	}
	legend(f, policies, lead, np, W + 10, 20, SWATCH_LINE);
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

static bool same_targets(const void *data, int a, int b)
{
	const struct html_cg *c = data;

	return !memcmp(c->sum[a], c->sum[b], sizeof(c->sum[a]));
}

/*
 * Plot 2: scan targets per priority for one cgroup, one panel per
 * priority (12 first, where reclaim starts), each on its own linear scale
 * from 0 to the panel's largest bar: the 1 against 2 pages the rounding
 * rules make at priority 12 are half and whole panel heights, not a sliver
 * beside the thousands of pages at priority 0.  A non-zero bar is at least
 * 2 px tall.  A panel whose bars differ has a red title ending in an
 * unequal sign; the exact pages follow in a table, the cells that differ
 * from the baseline's shaded.
 */
static void plot_targets(FILE *f, const struct rr_resolved_policy *policies,
			 const struct rr_html *h, int np, int baseline)
{
	const struct html_cg *c = targets_cgroup(h);
	/* 7 panels a row; panel pitch, bar area, space for its two labels */
	const int W = 760, L = 10, COLS = 7, PW = 104, PBW = 90, PH = 110, PTOP = 34;
	const int RH = PTOP + PH + 22;
	int lead[MAXP], drawn, height = 10 + 2 * RH;
	double bw;

	fputs("<h2>Scan targets per priority</h2>\n", f);
	if (!c) {
		fputs("<p>No scan targets.</p>\n", f);
		return;
	}
	drawn = group_policies(np, same_targets, c, lead);
	bw = (double)PBW / (drawn ? drawn : 1);
	if (bw > 24)
		bw = 24;
	if (legend_height(np) + 30 > height)
		height = legend_height(np) + 30;
	fputs("<p>cgroup <code>", f);
	esc(f, c->path);
	fputs("</code>: pages of all its get_scan_count() targets at each priority, summed over the "
	      "episodes; one panel per priority, each on its own scale from 0 (its largest bar "
	      "fills it)</p>\n", f);
	fprintf(f, "<svg id=\"plot-targets\" width=\"%d\" height=\"%d\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">\n",
		W + 180, height);
	for (int idx = 0; idx <= RR_DEF_PRIORITY; idx++) {
		int pr = RR_DEF_PRIORITY - idx, g = 0;
		int px = L + idx % COLS * PW, py = 10 + idx / COLS * RH, base = py + PTOP + PH;
		uint64_t pmax = 0;
		bool differ = false;

		for (int p = 0; p < np; p++) {
			if (c->sum[p][pr] > pmax)
				pmax = c->sum[p][pr];
			differ |= c->sum[p][pr] != c->sum[0][pr];
		}
		/* a panel whose bars differ, by one page of 682 even, is marked */
		fprintf(f, "<g class=\"panel\" data-priority=\"%d\" data-max-pages=\"%llu\">"
			   "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\"%s>"
			   "priority %d%s</text>", pr, (unsigned long long)pmax, px, py + 12,
			differ ? " fill=\"#d62728\"" : "", pr, differ ? " &#8800;" : "");
		if (pmax)
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">0 to %llu pg"
				   "</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\" "
				   "stroke-dasharray=\"2 2\"/>", px, py + 26, (unsigned long long)pmax,
				px, py + PTOP, px + PBW, py + PTOP);
		else
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">no targets"
				   "</text>", px, py + 26);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
			px, base, px + PBW, base);
		for (int p = 0; p < np; p++) {
			uint64_t v = c->sum[p][pr];
			double bh = pmax ? (double)v * PH / (double)pmax : 0;

			if (lead[p] != p)
				continue;
			if (v && bh < 2)
				bh = 2;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s>"
				   "<title>priority %d, ", px + g * bw + 1, base - bh, bw - 2, bh,
				colors[p % 8], outline(p), pr);
			group_label(f, policies, lead, np, p);
			fprintf(f, ": %llu pages</title></rect>\n", (unsigned long long)v);
			g++;
		}
		fputs("</g>\n", f);
	}
	legend(f, policies, lead, np, W + 10, 20, SWATCH_BAR);
	fputs("</svg>\n", f);

	/* the numbers behind the bars */
	fputs("<table class=\"targets\"><tr><th>pages at priority</th>", f);
	for (int pr = RR_DEF_PRIORITY; pr >= 0; pr--)
		fprintf(f, "<th>%d</th>", pr);
	fputs("</tr>\n", f);
	for (int p = 0; p < np; p++) {
		if (lead[p] != p)
			continue;
		fputs("<tr><th>", f);
		group_label(f, policies, lead, np, p);
		fputs("</th>", f);
		for (int pr = RR_DEF_PRIORITY; pr >= 0; pr--) {
			bool differs = baseline >= 0 && baseline < np &&
				       c->sum[p][pr] != c->sum[baseline][pr];

			fprintf(f, "<td%s>%llu</td>", differs ? " class=\"differs\"" : "",
				(unsigned long long)c->sum[p][pr]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static bool same_chunks(const void *data, int a, int b)
{
	const struct rr_html *h = data;

	return h->nr_chunks[a] == h->nr_chunks[b] &&
	       (!h->nr_chunks[a] ||
		!memcmp(h->chunks[a], h->chunks[b], h->nr_chunks[a] * sizeof(uint64_t)));
}

/*
 * Plot 3: memory.reclaim chunk per call, both axes log scale with ticks at
 * powers of ten: a call of 1 page sits four decades below one of 8192, and
 * the kernel's 27 calls spread over a third of the width beside
 * cluster-cap's 8192.  A call of 0 pages is drawn on a 0 line below the
 * 1-page tick, apart from the log scale.
 */
static void plot_chunks(FILE *f, const struct rr_resolved_policy *policies,
			const struct rr_html *h, int np)
{
	const int W = 760, H = 240, L = 70, TOP = 24, ZERO_GAP = 22, X0 = L + 8;
	const double y_zero = H + TOP, y_one = y_zero - ZERO_GAP;
	int lead[MAXP], ydec_nr, xdec_nr, height = H + TOP + 50;
	double ydec, xdec;
	size_t most = 1;
	uint64_t ymax = 1;
	bool zero = false;

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
		for (size_t i = 0; i < h->nr_chunks[p]; i++) {
			if (h->chunks[p][i] > ymax)
				ymax = h->chunks[p][i];
			zero |= !h->chunks[p][i];
		}
	}
	group_policies(np, same_chunks, h, lead);
	ydec_nr = log_decades(ymax);
	xdec_nr = log_decades(most);
	ydec = (y_one - TOP) / ydec_nr;
	xdec = (double)(W - X0) / xdec_nr;
	if (legend_height(np) + 30 > height)
		height = legend_height(np) + 30;
	fputs("<p>nr_pages of each try_to_free_mem_cgroup_pages() call of the first request, in "
	      "order; both axes log scale</p>\n", f);
	fprintf(f, "<svg id=\"plot-chunks\" width=\"%d\" height=\"%d\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">\n",
		W + 180, height);
	/* y ticks and grid at 1, 10, 100 ... pages */
	for (int k = 0; k <= ydec_nr; k++) {
		double y = y_one - k * ydec;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text class=\"ytick\" data-pages-log10=\"%d\" x=\"%d\" y=\"%.1f\" "
			   "font-size=\"11\" text-anchor=\"end\">", L, y, W, y, k, L - 4, y + 4);
		print_pow10(f, k);
		fputs("</text>\n", f);
	}
	if (zero)
		fprintf(f, "<text class=\"ytick\" data-pages=\"0\" x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			   "text-anchor=\"end\">0</text>\n", L - 4, y_zero + 4);
	/* x ticks at call 1, 10, 100 ... */
	for (int k = 0; k <= xdec_nr; k++) {
		double x = X0 + k * xdec;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">",
			x, y_zero, x, y_zero + 4, x, y_zero + 16);
		print_pow10(f, k);
		fputs("</text>\n", f);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n",
		L, y_zero, W, y_zero, L, TOP, L, y_zero);
	fprintf(f, "<text x=\"2\" y=\"12\" font-size=\"12\">pages (log)</text>"
		   "<text x=\"%d\" y=\"%.1f\" font-size=\"12\">call (log scale; up to %zu)</text>\n",
		L + 260, y_zero + 34, most);
	for (int p = 0; p < np; p++) {
		size_t n = h->nr_chunks[p];

		if (lead[p] != p)
			continue;
		fputs("<g class=\"series\"><title>", f);
		group_label(f, policies, lead, np, p);
		fprintf(f, ": %zu calls</title><polyline fill=\"none\" stroke=\"%s\" "
			   "stroke-width=\"2\"%s points=\"", n, colors[p % 8], dash(p));
		for (size_t i = 0; i < n; i++) {
			uint64_t v = h->chunks[p][i];

			fprintf(f, "%.1f,%.1f ", X0 + log10_u64(i + 1) * xdec,
				v ? y_one - log10_u64(v) * ydec : y_zero);
		}
		fputs("\"/>", f);
		for (size_t i = 0; i < n; i++) {
			uint64_t v = h->chunks[p][i];

			if (n <= MARK_ALL_POINTS || !i || i + 1 == n)
				mark(f, p, X0 + log10_u64(i + 1) * xdec,
				     v ? y_one - log10_u64(v) * ydec : y_zero);
		}
		fputs("</g>\n", f);
	}
	legend(f, policies, lead, np, W + 10, 20, SWATCH_LINE);
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
	      "text-align:right}th:first-child,td:first-child{text-align:left}"
	      "td.differs{background:#fdd;font-weight:bold}</style>"
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
	plot_targets(f, policies, h, np, t->baseline);
	plot_chunks(f, policies, h, np);
	fputs("</body></html>\n", f);
	if (ferror(f)) {
		rr_error_set(err, path, "write failed");
		return -1;
	}
	return 0;
}
