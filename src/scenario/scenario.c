// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario files (jansson).  Every value is checked with its JSON path in
 * the error, so a typo reads "cgroups[1].lru.inactive_anon: ..." rather
 * than a silent zero.  Unknown keys are errors too.
 */
#include "scenario.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <uthash.h>

#include "../common/swappiness.h"

bool rr_scenario_sniff(const char *path)
{
	struct stat st;
	FILE *f;
	int c;

	/* only regular files: opening a FIFO would wait for a writer */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	do
		c = fgetc(f);
	while (c != EOF && isspace(c));
	fclose(f);
	return c == '{';
}

struct ctx {
	const char *path;
	struct rr_error *err;
};

static int fail(struct ctx *c, const char *where, const char *what)
{
	rr_error_set(c->err, c->path, "%s: %s", where, what);
	return -1;
}

static int only_keys(struct ctx *c, json_t *obj, const char *where, const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(obj, k, v) {
		bool ok = false;
		char msg[160];

		(void)v;
		for (int i = 0; keys[i]; i++)
			ok |= !strcmp(k, keys[i]);
		if (!ok) {
			snprintf(msg, sizeof(msg), "unknown key '%.60s'", k);
			return fail(c, where, msg);
		}
	}
	return 0;
}

/* A whole number >= 0 (JSON integer, or a real with no fraction). */
static int get_u64(struct ctx *c, json_t *obj, const char *key, const char *where,
		   bool required, uint64_t def, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);
	char at[200];

	snprintf(at, sizeof(at), "%s%s%s", where, *where ? "." : "", key);
	if (!v) {
		if (required)
			return fail(c, at, "missing");
		*out = def;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return fail(c, at, "not a whole number >= 0");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_bool(struct ctx *c, json_t *obj, const char *key, const char *where,
		    bool def, bool *out)
{
	json_t *v = json_object_get(obj, key);
	char at[200];

	snprintf(at, sizeof(at), "%s%s%s", where, *where ? "." : "", key);
	if (!v) {
		*out = def;
		return 0;
	}
	if (!json_is_boolean(v))
		return fail(c, at, "not true or false");
	*out = json_is_true(v);
	return 0;
}

/* The cgroups by path: lookups stay O(1) with 100,000 cgroups. */
struct rr_scenario_path {
	int index;
	UT_hash_handle hh;
};

static int find_cgroup(const struct rr_scenario *sc, const char *path, size_t len)
{
	struct rr_scenario_path *p;

	HASH_FIND(hh, sc->by_path, path, len, p);
	return p ? p->index : -1;
}

static int index_cgroup(struct rr_scenario *sc, int i)
{
	struct rr_scenario_path *p = calloc(1, sizeof(*p));
	struct rr_scenario_cgroup *cg = &sc->cgroups[i];

	if (!p)
		return -1;
	p->index = i;
	HASH_ADD_KEYPTR(hh, sc->by_path, cg->path, strlen(cg->path), p);
	cg->first_child = cg->next_sibling = cg->last_child = -1;
	if (cg->parent >= 0) {	/* appended: siblings stay in list order */
		struct rr_scenario_cgroup *parent = &sc->cgroups[cg->parent];

		if (parent->last_child >= 0)
			sc->cgroups[parent->last_child].next_sibling = i;
		else
			parent->first_child = i;
		parent->last_child = i;
	}
	return 0;
}

/*
 * "folio_pages": { "anon": N, "file": N }, the folio size of a cgroup's
 * pages in pages (folio_nr_pages()): a power of two from 1 to
 * sc->max_folio_pages (HPAGE_PMD_NR of the page size: 512 of 4 KiB pages,
 * order 9; 8192 of 64 KiB pages, arm64's 512 MiB THP).
 * Either key may be left out: then @def's value.  @where names the object.
 */
static int get_folio_pages(struct ctx *c, const struct rr_scenario *sc, json_t *obj,
			   const char *where,
			   const uint64_t def[RR_NR_LRU_TYPES], uint64_t out[RR_NR_LRU_TYPES])
{
	static const char *const keys[] = { "anon", "file", NULL };
	json_t *v = json_object_get(obj, "folio_pages");
	char at[100];

	out[RR_LRU_ANON] = def[RR_LRU_ANON];
	out[RR_LRU_FILE] = def[RR_LRU_FILE];
	if (!v)
		return 0;
	snprintf(at, sizeof(at), "%s%sfolio_pages", where, *where ? "." : "");
	if (!json_is_object(v))
		return fail(c, at, "not an object: { \"anon\": PAGES, \"file\": PAGES }");
	if (only_keys(c, v, at, keys))
		return -1;
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		char key[120];

		if (get_u64(c, v, keys[t], at, false, def[t], &out[t]))
			return -1;
		if (!out[t] || out[t] > sc->max_folio_pages || (out[t] & (out[t] - 1))) {
			char msg[200];

			snprintf(key, sizeof(key), "%s.%s", at, keys[t]);
			snprintf(msg, sizeof(msg), "must be a power of two from 1 to %llu pages "
				 "(folio_nr_pages(); %llu is a PMD-sized THP of %llu-byte pages)",
				 (unsigned long long)sc->max_folio_pages,
				 (unsigned long long)sc->max_folio_pages,
				 (unsigned long long)sc->page_size_bytes);
			return fail(c, key, msg);
		}
	}
	return 0;
}

static int add_cgroup(struct ctx *c, struct rr_scenario *sc, json_t *jc, int idx)
{
	static const char *const keys[] = { "path", "online", "swappiness", "lru",
					    "scan_fraction", "min_pages", "low_pages",
					    "folio_pages", NULL };
	static const char *const lru_keys[] = { "inactive_anon", "active_anon",
						"inactive_file", "active_file",
						"unevictable", NULL };
	struct rr_scenario_cgroup *cg = &sc->cgroups[sc->nr_cgroups];
	char where[64];
	const char *path;
	json_t *lru, *frac;
	uint64_t sw;
	size_t len;

	snprintf(where, sizeof(where), "cgroups[%d]", idx);
	if (!json_is_object(jc))
		return fail(c, where, "not an object");
	if (only_keys(c, jc, where, keys))
		return -1;
	path = json_string_value(json_object_get(jc, "path"));
	if (path && strlen(path) > 4000)
		return fail(c, where, "path longer than 4000 bytes");
	if (!path || path[0] != '/' ||
	    (strlen(path) > 1 && path[strlen(path) - 1] == '/') || strstr(path, "//"))
		return fail(c, where, "path must be an absolute cgroup path like \"/a/b\"");
	len = strlen(path);
	if (find_cgroup(sc, path, len) >= 0)
		return fail(c, where, "path listed twice");
	cg->path = strdup(path);
	if (!cg->path)
		return fail(c, where, "out of memory");
	cg->parent = -1;
	if (len > 1) {
		size_t plen = len;

		while (path[plen - 1] != '/')
			plen--;
		plen = plen > 1 ? plen - 1 : 1;
		cg->parent = find_cgroup(sc, path, plen);
		if (cg->parent < 0) {
			free(cg->path);
			cg->path = NULL;
			return fail(c, where, "parent cgroup must be listed before its children");
		}
	}
	if (get_bool(c, jc, "online", where, true, &cg->online) ||
	    get_u64(c, jc, "swappiness", where, false, 60, &sw) ||
	    get_u64(c, jc, "min_pages", where, false, 0, &cg->min_pages) ||
	    get_u64(c, jc, "low_pages", where, false, 0, &cg->low_pages))
		goto bad;
	if (sw > 200) {
		fail(c, where, "swappiness must be 0..200");
		goto bad;
	}
	if (cg->min_pages > RR_SCENARIO_MAX_PAGES || cg->low_pages > RR_SCENARIO_MAX_PAGES) {
		fail(c, where, "min_pages and low_pages must be at most 2^40 pages");
		goto bad;
	}
	cg->swappiness = (int)sw;
	if (get_folio_pages(c, sc, jc, where, sc->folio_pages, cg->folio_pages))
		goto bad;
	if (index_cgroup(sc, sc->nr_cgroups)) {
		fail(c, where, "out of memory");
		goto bad;
	}
	lru = json_object_get(jc, "lru");
	if (lru) {
		char at[80];

		snprintf(at, sizeof(at), "%s.lru", where);
		if (!json_is_object(lru) || only_keys(c, lru, at, lru_keys)) {
			if (!json_is_object(lru))
				fail(c, at, "not an object");
			goto bad;
		}
		for (int l = 0; l < RR_NR_LRU; l++) {
			if (get_u64(c, lru, lru_keys[l], at, false, 0, &cg->lru_pages[l]))
				goto bad;
			if (cg->lru_pages[l] > RR_SCENARIO_MAX_PAGES) {
				fail(c, at, "an LRU list larger than 2^40 pages (no machine has one)");
				goto bad;
			}
		}
	}
	frac = json_object_get(jc, "scan_fraction");
	if (frac) {
		static const char *const fkeys[] = { "anon", "file", "denominator", NULL };
		char at[80];

		snprintf(at, sizeof(at), "%s.scan_fraction", where);
		if (!json_is_object(frac)) {
			fail(c, at, "not an object");
			goto bad;
		}
		if (only_keys(c, frac, at, fkeys) ||
		    get_u64(c, frac, "anon", at, true, 0, &cg->fraction[0]) ||
		    get_u64(c, frac, "file", at, true, 0, &cg->fraction[1]) ||
		    get_u64(c, frac, "denominator", at, true, 0, &cg->denominator))
			goto bad;
		if (!cg->denominator) {
			fail(c, at, "denominator must be > 0");
			goto bad;
		}
		cg->fraction_override = true;
	}
	sc->nr_cgroups++;
	return 0;
bad:
	if (find_cgroup(sc, cg->path, strlen(cg->path)) == sc->nr_cgroups) {
		sc->nr_cgroups++;	/* indexed: rr_scenario_free() frees it */
		return -1;
	}
	free(cg->path);
	cg->path = NULL;
	return -1;
}

/*
 * "swappiness": the memory.reclaim key (68cd9050d871): 0..200, or "max"
 * (SWAPPINESS_ANON_ONLY).  Only a proactive request has it.  Whether the
 * modelled release accepts it is the replay's check (rr_sim_run()), since
 * --kernel may model another release than the file's.
 */
static int get_proactive_swappiness(struct ctx *c, json_t *jr, const char *where,
				    struct rr_scenario_request *rq)
{
	json_t *v = json_object_get(jr, "swappiness");
	char at[100], num[32];

	rq->has_proactive_swappiness = false;
	if (!v)
		return 0;
	snprintf(at, sizeof(at), "%s.swappiness", where);
	if (rq->kind != RR_KIND_PROACTIVE)
		return fail(c, at, "only a proactive request (a memory.reclaim write) has "
			    "a swappiness= key");
	if (json_is_integer(v))
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
	else if (json_is_string(v))
		snprintf(num, sizeof(num), "%s", strcmp(json_string_value(v), "max") ? "x" : "max");
	else
		num[0] = 0;
	if (rr_swappiness_parse(num, &rq->proactive_swappiness))
		return fail(c, at, "must be 0..200 or \"max\", as memory.reclaim takes");
	rq->has_proactive_swappiness = true;
	return 0;
}

/*
 * A kswapd request's node: "zones", a list of { "managed_pages",
 * "free_pages", "high_wmark_pages" } (the zones 0..highest_zoneidx of the
 * wake, high watermarks with any boost), or "reclaim_pages" (the run is
 * balanced once it reclaimed that many pages) with an optional "nr_pages"
 * (kswapd_shrink_node()'s target, default max(reclaim_pages, 32)).
 *
 * From zones: nr_to_reclaim = the sum over managed zones of max(high, 32)
 * (kswapd_shrink_node()); balanced (pgdat_balanced(): some managed zone
 * passes its high watermark, zone_watermark_ok_safe(): free > mark) once
 * the run's reclaim lifts one zone's free pages above its high watermark,
 * every reclaimed page counted toward each zone (which zone a page came
 * from is not modelled): min over managed zones of high + 1 - free, 0 if
 * one passes already or none is managed.  Lowmem reserves and the
 * free-block test of order > 0 are left out (docs/kernel-model.md §23.5).
 */
static int get_kswapd_node(struct ctx *c, json_t *jr, const char *where,
			   struct rr_scenario_request *rq)
{
	static const char *const zkeys[] = { "managed_pages", "free_pages",
					     "high_wmark_pages", NULL };
	json_t *zones = json_object_get(jr, "zones"), *rp = json_object_get(jr, "reclaim_pages");
	char at[120];
	uint64_t v;

	if (rq->kind != RR_KIND_KSWAPD) {
		if (zones || rp)
			return fail(c, where, "zones and reclaim_pages are for a kswapd request");
		return 0;
	}
	if (!!zones == !!rp)
		return fail(c, where, "a kswapd request gives zones or reclaim_pages (one of them)");
	if (rp) {
		if (get_u64(c, jr, "reclaim_pages", where, true, 0, &v))
			return -1;
		if (v > RR_SCENARIO_MAX_PAGES)
			return fail(c, where, "reclaim_pages larger than 2^40 pages");
		rq->balance_reclaim_pages = v;
		if (get_u64(c, jr, "nr_pages", where, false,
			    v > RR_SWAP_CLUSTER_MAX ? v : RR_SWAP_CLUSTER_MAX, &rq->nr_pages))
			return -1;
		if (rq->nr_pages > RR_SCENARIO_MAX_PAGES)
			return fail(c, where, "request larger than 2^40 pages");
		return 0;
	}
	if (json_object_get(jr, "nr_pages"))
		return fail(c, where, "with zones, nr_pages is the zones' sum of high watermarks");
	snprintf(at, sizeof(at), "%s.zones", where);
	if (!json_is_array(zones) || !json_array_size(zones) || json_array_size(zones) > 8)
		return fail(c, at, "a list of 1 to 8 zones");
	rq->has_zones = true;
	rq->nr_pages = 0;
	rq->balance_reclaim_pages = 0;
	{
		bool first = true;

		for (size_t z = 0; z < json_array_size(zones); z++) {
			json_t *jz = json_array_get(zones, z);
			uint64_t managed, free, high, need;
			char zat[160];

			snprintf(zat, sizeof(zat), "%s[%zu]", at, z);
			if (!json_is_object(jz))
				return fail(c, zat, "not an object");
			if (only_keys(c, jz, zat, zkeys) ||
			    get_u64(c, jz, "managed_pages", zat, true, 0, &managed) ||
			    get_u64(c, jz, "free_pages", zat, true, 0, &free) ||
			    get_u64(c, jz, "high_wmark_pages", zat, true, 0, &high))
				return -1;
			if (managed > RR_SCENARIO_MAX_PAGES || free > managed || high > managed)
				return fail(c, zat, "free_pages and high_wmark_pages must be at "
					    "most managed_pages, at most 2^40");
			if (!managed)
				continue;	/* managed_zone() false: not counted */
			rq->nr_pages += high > RR_SWAP_CLUSTER_MAX ? high : RR_SWAP_CLUSTER_MAX;
			rq->zones_free_pages += free;
			rq->zones_high_wmark_pages += high;
			need = free > high ? 0 : high + 1 - free;
			if (first || need < rq->balance_reclaim_pages)
				rq->balance_reclaim_pages = need;
			first = false;
		}
	}
	return 0;
}

static int add_request(struct ctx *c, struct rr_scenario *sc, json_t *jr, int idx)
{
	static const char *const keys[] = { "kind", "cgroup", "nr_pages", "bytes", "may_swap",
					    "swappiness", "order", "zones", "reclaim_pages", NULL };
	struct rr_scenario_request *rq = &sc->requests[idx];
	const char *kind, *cg;
	char where[64];
	uint64_t v;

	snprintf(where, sizeof(where), "requests[%d]", idx);
	if (!json_is_object(jr))
		return fail(c, where, "not an object");
	if (only_keys(c, jr, where, keys))
		return -1;
	kind = json_string_value(json_object_get(jr, "kind"));
	if (!kind)
		return fail(c, where, "kind missing (limit, proactive, direct, kswapd or node)");
	if (!strcmp(kind, "limit"))
		rq->kind = RR_KIND_MEMCG;
	else if (!strcmp(kind, "proactive"))
		rq->kind = RR_KIND_PROACTIVE;
	else if (!strcmp(kind, "direct"))
		rq->kind = RR_KIND_DIRECT;
	else if (!strcmp(kind, "kswapd"))
		rq->kind = RR_KIND_KSWAPD;
	else if (!strcmp(kind, "node"))
		rq->kind = RR_KIND_NODE;
	else
		return fail(c, where, "kind must be limit, proactive, direct, kswapd or node");
	bool global = rq->kind == RR_KIND_DIRECT || rq->kind == RR_KIND_KSWAPD ||
		      rq->kind == RR_KIND_NODE;
	cg = json_string_value(json_object_get(jr, "cgroup"));
	if (global && !cg)
		cg = "/";
	if (!cg)
		return fail(c, where, "cgroup missing");
	rq->cgroup = find_cgroup(sc, cg, strlen(cg));
	if (rq->cgroup < 0)
		return fail(c, where, "cgroup is not in the cgroups list");
	if (global && rq->cgroup != 0) {
		char msg[120];

		snprintf(msg, sizeof(msg), "%s reclaim is global: its cgroup is \"/\"", kind);
		return fail(c, where, msg);
	}
	if (get_u64(c, jr, "order", where, false, 0, &v))
		return -1;
	if (json_object_get(jr, "order") && !global)
		return fail(c, where, "order is for direct, kswapd and node requests");
	/* MAX_PAGE_ORDER: 10 on x86-64, 13 on arm64 with 64 KiB pages */
	if (v > 13)
		return fail(c, where, "order must be 0..13 (MAX_PAGE_ORDER: 10 on x86-64, 13 on "
			    "arm64 with 64 KiB pages)");
	rq->order = (int)v;
	if (rq->kind == RR_KIND_KSWAPD) {
		if (json_object_get(jr, "bytes"))
			return fail(c, where, "a kswapd request has no bytes");
		if (get_kswapd_node(c, jr, where, rq) ||
		    get_bool(c, jr, "may_swap", where, true, &rq->may_swap))
			return -1;
		return get_proactive_swappiness(c, jr, where, rq);
	}
	if (get_kswapd_node(c, jr, where, rq))
		return -1;
	/* try_to_free_pages() asks for SWAP_CLUSTER_MAX, __node_reclaim() for
	 * max(1 << order, SWAP_CLUSTER_MAX): no request size to give */
	if ((rq->kind == RR_KIND_DIRECT || rq->kind == RR_KIND_NODE) &&
	    (json_object_get(jr, "nr_pages") || json_object_get(jr, "bytes")))
		return fail(c, where, rq->kind == RR_KIND_DIRECT ?
			    "a direct request reclaims SWAP_CLUSTER_MAX (32) pages: no nr_pages "
			    "or bytes" :
			    "a node request reclaims max(1 << order, 32) pages: no nr_pages or bytes");
	if (rq->kind == RR_KIND_NODE) {
		rq->nr_pages = (1ULL << rq->order) > RR_SWAP_CLUSTER_MAX ? 1ULL << rq->order :
			       RR_SWAP_CLUSTER_MAX;
		if (get_bool(c, jr, "may_swap", where, true, &rq->may_swap))
			return -1;
		return get_proactive_swappiness(c, jr, where, rq);
	}
	if (json_object_get(jr, "nr_pages") && json_object_get(jr, "bytes"))
		return fail(c, where, "give nr_pages or bytes, not both");
	if (json_object_get(jr, "bytes")) {
		if (get_u64(c, jr, "bytes", where, true, 0, &v))
			return -1;
		rq->nr_pages = v / sc->page_size_bytes;	/* memory_reclaim(): truncating */
	} else if (get_u64(c, jr, "nr_pages", where, !global, 32, &rq->nr_pages)) {
		return -1;
	}
	if (get_bool(c, jr, "may_swap", where, true, &rq->may_swap))
		return -1;
	if (rq->nr_pages > RR_SCENARIO_MAX_PAGES)
		return fail(c, where, "request larger than 2^40 pages");
	return get_proactive_swappiness(c, jr, where, rq);
}

int rr_scenario_load(const char *path, struct rr_scenario *sc, struct rr_error *err)
{
	static const char *const keys[] = { "scenario", "kernel", "page_size", "swap",
					    "cgroups", "requests", "outcome", "node_free_pages",
					    "node_high_wmark_pages", "folio_pages", NULL };
	static const uint64_t base_folio[RR_NR_LRU_TYPES] = { 1, 1 };
	struct ctx c = { path, err };
	json_error_t jerr;
	json_t *root, *cgs, *reqs, *outcome;
	const char *kernel;
	uint64_t v;
	size_t i;

	memset(sc, 0, sizeof(*sc));
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		rr_error_set(err, path, "not valid JSON: %s (line %d, column %d)",
			     jerr.text, jerr.line, jerr.column);
		return -1;
	}
	if (!json_is_object(root)) {
		fail(&c, "top level", "not a JSON object");
		goto bad;
	}
	if (!json_object_get(root, "scenario")) {
		rr_error_set(err, path, json_object_get(root, "schema_version") ?
			     "not a trace: a reclaim-replay output document, not a trace or a "
			     "scenario (no \"scenario\" key)" :
			     "not a trace, and not a scenario: a JSON object without the "
			     "\"scenario\": 1 key (man 5 reclaim-replay-scenario)");
		goto bad;
	}
	if (get_u64(&c, root, "scenario", "", true, 0, &v))
		goto bad;
	if (v != RR_SCENARIO_VERSION) {
		fail(&c, "scenario", "unsupported version (this reclaim-replay reads 1)");
		goto bad;
	}
	if (only_keys(&c, root, "top level", keys))
		goto bad;
	kernel = json_string_value(json_object_get(root, "kernel"));
	if (!kernel) {
		fail(&c, "kernel", "missing: the release to model, e.g. \"6.18\"");
		goto bad;
	}
	snprintf(sc->kernel, sizeof(sc->kernel), "%s", kernel);
	if (get_u64(&c, root, "page_size", "", false, 4096, &sc->page_size_bytes))
		goto bad;
	if (sc->page_size_bytes < 4096 || sc->page_size_bytes > (1u << 20) ||
	    (sc->page_size_bytes & (sc->page_size_bytes - 1))) {
		fail(&c, "page_size", "must be a power of two from 4096 to 1048576 bytes");
		goto bad;
	}
	while ((1ULL << sc->page_shift) < sc->page_size_bytes)
		sc->page_shift++;
	sc->max_folio_pages = sc->page_size_bytes / 8;	/* HPAGE_PMD_NR */
	sc->has_node_pages = json_object_get(root, "node_free_pages") ||
			     json_object_get(root, "node_high_wmark_pages");
	if (get_bool(&c, root, "swap", "", true, &sc->swap) ||
	    get_u64(&c, root, "node_free_pages", "", false, 0, &sc->node_free_pages) ||
	    get_u64(&c, root, "node_high_wmark_pages", "", false, 0, &sc->node_high_wmark_pages) ||
	    get_folio_pages(&c, sc, root, "", base_folio, sc->folio_pages))
		goto bad;

	cgs = json_object_get(root, "cgroups");
	if (!json_is_array(cgs) || !json_array_size(cgs)) {
		fail(&c, "cgroups", "missing or empty: a list of cgroups, \"/\" first");
		goto bad;
	}
	sc->cgroups = calloc(json_array_size(cgs) + 1, sizeof(*sc->cgroups));
	if (!sc->cgroups) {
		fail(&c, "cgroups", "out of memory");
		goto bad;
	}
	for (i = 0; i < json_array_size(cgs); i++)
		if (add_cgroup(&c, sc, json_array_get(cgs, i), (int)i))
			goto bad;
	if (strcmp(sc->cgroups[0].path, "/")) {
		fail(&c, "cgroups[0]", "the first cgroup must be \"/\"");
		goto bad;
	}
	/* hierarchical sizes, children (listed after their parent) first */
	for (int k = sc->nr_cgroups; k-- > 0;) {
		struct rr_scenario_cgroup *cg = &sc->cgroups[k];

		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++) {
			cg->hier_pages[l] += cg->lru_pages[l];
			if (cg->parent >= 0)
				sc->cgroups[cg->parent].hier_pages[l] += cg->hier_pages[l];
		}
	}
	reqs = json_object_get(root, "requests");
	if (!json_is_array(reqs) || !json_array_size(reqs)) {
		fail(&c, "requests", "missing or empty");
		goto bad;
	}
	sc->requests = calloc(json_array_size(reqs), sizeof(*sc->requests));
	if (!sc->requests) {
		fail(&c, "requests", "out of memory");
		goto bad;
	}
	sc->nr_requests = (int)json_array_size(reqs);
	for (i = 0; i < json_array_size(reqs); i++)
		if (add_request(&c, sc, json_array_get(reqs, i), (int)i))
			goto bad;

	sc->outcome = RR_OUTCOME_STRUCTURAL;
	sc->ratio_num = sc->ratio_den = 1;
	sc->activate_num = 0;
	sc->activate_den = 1;
	outcome = json_object_get(root, "outcome");
	if (outcome) {
		static const char *const okeys[] = { "model", "reclaim_ratio", "activate_ratio",
						     "extra_pages", NULL };
		json_t *ratio = json_object_get(outcome, "reclaim_ratio");
		json_t *act = json_object_get(outcome, "activate_ratio");
		const char *model;

		if (!json_is_object(outcome) || only_keys(&c, outcome, "outcome", okeys)) {
			if (!json_is_object(outcome))
				fail(&c, "outcome", "not an object");
			goto bad;
		}
		model = json_string_value(json_object_get(outcome, "model"));
		if (model && !strcmp(model, "exact")) {
			sc->outcome = RR_OUTCOME_EXACT;
		} else if (model && strcmp(model, "structural")) {
			fail(&c, "outcome.model", "must be structural or exact");
			goto bad;
		}
		if (get_u64(&c, outcome, "extra_pages", "outcome", false, 0, &sc->exact_extra_pages))
			goto bad;
		if (ratio) {
			double r = json_number_value(ratio);

			if (!json_is_number(ratio) || r < 0 || r > 1) {
				fail(&c, "outcome.reclaim_ratio", "must be a number from 0 to 1");
				goto bad;
			}
			/* a fixed-point ratio: exact and deterministic */
			sc->ratio_den = 1000000;
			sc->ratio_num = (uint64_t)(r * 1000000.0 + 0.5);
		}
		if (act) {
			double a = json_number_value(act);

			if (!json_is_number(act) || a < 0 || a > 1) {
				fail(&c, "outcome.activate_ratio", "must be a number from 0 to 1");
				goto bad;
			}
			sc->activate_den = 1000000;
			sc->activate_num = (uint64_t)(a * 1000000.0 + 0.5);
			/* a page taken is reclaimed, activated or put back: one fate */
			if (sc->activate_num * sc->ratio_den + sc->ratio_num * sc->activate_den >
			    sc->ratio_den * sc->activate_den) {
				fail(&c, "outcome.activate_ratio", "reclaim_ratio + activate_ratio "
				     "is above 1 (a page taken is reclaimed, activated or put back)");
				goto bad;
			}
			/* the simulator's share is of the pages not reclaimed: a / (1 - r);
			 * r = 1 leaves none (den 0) */
			{
				uint64_t num = sc->activate_num * sc->ratio_den;
				uint64_t den = sc->activate_den * (sc->ratio_den - sc->ratio_num);

				sc->activate_num = den ? num : 0;
				sc->activate_den = den;
			}
		}
	}
	json_decref(root);
	return 0;
bad:
	json_decref(root);
	rr_scenario_free(sc);
	return -1;
}

void rr_scenario_free(struct rr_scenario *sc)
{
	struct rr_scenario_path *p, *tmp;

	HASH_ITER(hh, sc->by_path, p, tmp) {
		HASH_DEL(sc->by_path, p);
		free(p);
	}
	for (int i = 0; i < sc->nr_cgroups; i++)
		free(sc->cgroups[i].path);
	free(sc->cgroups);
	free(sc->requests);
	memset(sc, 0, sizeof(*sc));
}

/* The subtree of @node in pre-order, siblings in list order. */
static void preorder(const struct rr_scenario *sc, int node, int parent_out,
		     struct rr_sim_memcg *out, size_t *n)
{
	const struct rr_scenario_cgroup *cg = &sc->cgroups[node];
	struct rr_sim_memcg *m = &out[*n];
	int me = (int)(*n)++;

	memset(m, 0, sizeof(*m));
	m->id = (uint64_t)node + 1;
	m->parent = parent_out;
	m->online = cg->online;
	m->swappiness = cg->swappiness;
	memcpy(m->lru_pages, cg->lru_pages, sizeof(m->lru_pages));
	m->unevictable_pages = cg->lru_pages[RR_LRU_UNEVICTABLE];
	m->min_pages = cg->min_pages;
	m->low_pages = cg->low_pages;
	m->fraction_override = cg->fraction_override;
	m->override_fraction[RR_LRU_ANON] = cg->fraction[RR_LRU_ANON];
	m->override_fraction[RR_LRU_FILE] = cg->fraction[RR_LRU_FILE];
	m->override_denominator = cg->denominator;
	/* the rstat view of a settled system: the exact hierarchical sizes */
	memcpy(m->rstat_lru_pages, cg->hier_pages, sizeof(m->rstat_lru_pages));
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		m->ratio_num[t] = sc->ratio_num;
		m->ratio_den[t] = sc->ratio_den;
		m->taken_num[t] = m->taken_den[t] = 1;
		/* whole folios per batch (isolate_lru_folios()) */
		m->folio_pages[t] = cg->folio_pages[t];
		/* shrink_folio_list() activations; active batches deactivate
		 * all they take (deactivate_den 0: no VM_EXEC rotation) */
		m->activate_num[t] = sc->activate_num;
		m->activate_den[t] = sc->activate_den;	/* (of the pages not reclaimed) */
	}
	for (int c = cg->first_child; c >= 0; c = sc->cgroups[c].next_sibling)
		preorder(sc, c, me, out, n);
}

int rr_scenario_sim_input(const struct rr_scenario *sc, int req,
			  const struct rr_kernel_model *km, struct rr_sim_input *in)
{
	const struct rr_scenario_request *rq = &sc->requests[req];
	size_t n = 0;

	memset(in, 0, sizeof(*in));
	in->memcgs = calloc((size_t)sc->nr_cgroups, sizeof(*in->memcgs));
	if (!in->memcgs)
		return -1;
	preorder(sc, rq->cgroup, -1, in->memcgs, &n);
	in->nr_memcgs = n;
	in->km = km;
	in->kind = rq->kind;
	in->nr_pages = rq->nr_pages;
	in->outcome = sc->outcome;
	in->exact_extra_pages = sc->exact_extra_pages;
	in->page_shift = sc->page_shift;
	in->may_swap = rq->may_swap;
	in->has_proactive_swappiness = rq->has_proactive_swappiness;
	in->proactive_swappiness = rq->proactive_swappiness;
	in->swap_present = sc->swap;
	in->node_free_pages = sc->node_free_pages;
	in->node_high_wmark_pages = sc->node_high_wmark_pages;
	if (rq->has_zones && !sc->has_node_pages) {	/* the zones' own */
		in->node_free_pages = rq->zones_free_pages;
		in->node_high_wmark_pages = rq->zones_high_wmark_pages;
	}
	in->order = rq->order;
	if (rq->kind == RR_KIND_KSWAPD) {
		in->kswapd_nr_to_reclaim_pages = rq->nr_pages;
		in->balance_reclaim_pages = rq->balance_reclaim_pages;
	}
	in->cursor = -1;
	memcpy(in->root_rstat_lru_pages, sc->cgroups[rq->cgroup].hier_pages,
	       sizeof(in->root_rstat_lru_pages));
	return 0;
}
