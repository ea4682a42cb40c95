// SPDX-License-Identifier: GPL-2.0-only
/*
 * Marker lines of `reclaim-replay record`: one writer and one parser (see
 * markers.h).  The parser looks keys up by name, so it accepts the keys in
 * any order and ignores the ones it does not know.
 */
#include "markers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char prefix[] = RR_MARKER_PREFIX " ";
#define PREFIX_LEN (sizeof(prefix) - 1)

/*
 * The value of "key=" in @s (@len bytes): a key starts the body or follows
 * a space; the value runs to the next space, or, for "path", to the end
 * (so no other key is read from inside a path).
 * Copied into @buf (cut to @bufsz - 1 bytes).  NULL if the key is absent.
 */
static const char *val(const char *s, size_t len, const char *key, char *buf, size_t bufsz)
{
	size_t klen = strlen(key);
	bool rest = !strcmp(key, "path");

	/* the path is last and may hold spaces and "=": another key is only
	 * looked for before it (a cgroup named "x limit_bytes=1" is a name) */
	for (size_t i = 0; !rest && i + 5 < len; i++)
		if ((!i || s[i - 1] == ' ') && !memcmp(s + i, "path=", 5)) {
			len = i;
			break;
		}
	for (size_t i = 0; i + klen < len; i++) {
		size_t j, n = 0;

		if ((i && s[i - 1] != ' ') || memcmp(s + i, key, klen) || s[i + klen] != '=')
			continue;
		for (j = i + klen + 1; j < len && (rest || s[j] != ' ') && n < bufsz - 1; j++)
			buf[n++] = s[j];
		buf[n] = 0;
		return buf;
	}
	return NULL;
}

/* The integer of @key, @def when absent; *@bad (if not NULL) set when the
 * value is there but no whole integer ("sixty", "5000abc") */
static long long num_or_bad(const char *s, size_t len, const char *key, long long def,
			    bool *bad)
{
	char buf[64], *end;
	long long v;

	if (!val(s, len, key, buf, sizeof(buf)))
		return def;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end) {
		if (bad)
			*bad = true;
		return def;
	}
	return v;
}

static long long num(const char *s, size_t len, const char *key, long long def)
{
	return num_or_bad(s, len, key, def, NULL);
}

/* memory.min or memory.low in bytes: "max" or -1 (how `record` writes
 * "max"), a count of bytes, else RR_MARKER_BYTES_UNKNOWN */
static long long protection(const char *s, size_t len, const char *key)
{
	char buf[64], *end;
	long long v;

	if (!val(s, len, key, buf, sizeof(buf)))
		return RR_MARKER_BYTES_UNKNOWN;
	if (!strcmp(buf, "max"))
		return RR_MARKER_BYTES_MAX;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || v < -1)
		return RR_MARKER_BYTES_UNKNOWN;
	return v;
}

static void str(const char *s, size_t len, const char *key, char *out, size_t outsz)
{
	if (!val(s, len, key, out, outsz))
		out[0] = 0;
}

/* Does the body @s start with the keyword @kw followed by a space (or end
 * the line, where @alone allows a keyword without keys)? */
static bool keyword(const char *s, size_t len, const char *kw, bool alone)
{
	size_t n = strlen(kw);

	if (len < n || memcmp(s, kw, n))
		return false;
	return len == n ? alone : s[n] == ' ';
}

static void parse_meta(const char *s, size_t len, struct rr_marker_meta *m)
{
	str(s, len, "kernel_release", m->kernel_release, sizeof(m->kernel_release));
	m->page_size = num(s, len, "page_size", -1);
	m->cpus = num(s, len, "cpus", -1);
	m->cgroup_version = num(s, len, "cgroup_version", -1);
	m->memory_hierarchy_id = num(s, len, "memory_hierarchy_id", -1);
	m->swap_total_kb = num(s, len, "swap_total_kb", -1);
	m->vm_swappiness = num(s, len, "vm_swappiness", -1);
	str(s, len, "mglru", m->mglru, sizeof(m->mglru));
	m->buffer_kb = num(s, len, "buffer_kb", -1);
	m->duration_s = num(s, len, "duration_s", -1);
	str(s, len, "memcg_events", m->memcg_events, sizeof(m->memcg_events));
	m->snapshot_interval_ms = num(s, len, "snapshot_interval_ms", -1);
	str(s, len, "kernel_policy", m->kernel_policy, sizeof(m->kernel_policy));
}

static void parse_items(const char *s, size_t len, struct rr_marker_items *it)
{
	static const char *const type[RR_NR_LRU_TYPES] = { "anon", "file" };
	char key[64];

	str(s, len, "source", it->source, sizeof(it->source));
	it->nr_lru_base = num(s, len, "nr_lru_base", -1);
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		snprintf(key, sizeof(key), "workingset_refault_%s", type[t]);
		it->workingset_refault[t] = num(s, len, key, -1);
		snprintf(key, sizeof(key), "workingset_activate_%s", type[t]);
		it->workingset_activate[t] = num(s, len, key, -1);
		snprintf(key, sizeof(key), "workingset_restore_%s", type[t]);
		it->workingset_restore[t] = num(s, len, key, -1);
	}
	it->pgscan_kswapd = num(s, len, "pgscan_kswapd", -1);
	it->pgscan_direct = num(s, len, "pgscan_direct", -1);
	it->pgscan_proactive = num(s, len, "pgscan_proactive", -1);
	it->pgrefill = num(s, len, "pgrefill", -1);
}

/* the memcg line's hierarchical keys, for ->malformed (a static string) */
static const char *const hier_names[RR_NR_LRU] = {
	"hier_inactive_anon", "hier_active_anon", "hier_inactive_file", "hier_active_file",
	"hier_unevictable",
};

static void parse_memcg(const char *s, size_t len, struct rr_marker_memcg *mc)
{
	bool bad = false;

	mc->malformed = NULL;
	mc->id = num_or_bad(s, len, "id", -1, &bad);
	mc->level = num_or_bad(s, len, "level", -1, &bad);
	mc->swappiness = num_or_bad(s, len, "swappiness", -1, &bad);
	if (bad)
		mc->malformed = "id, level or swappiness";
	for (int l = 0; l < RR_NR_LRU; l++) {
		bool lbad = false;
		long long v = num_or_bad(s, len, rr_lru_names[l], 0, &lbad);

		/* (a list of more than 2^40 pages, 4 PiB of 4 KiB pages, or a
		 * negative one or no number: no kernel has written it) */
		if (lbad || v < 0 || (unsigned long long)v > RR_MARKER_MAX_PAGES) {
			if (!mc->malformed)
				mc->malformed = rr_lru_names[l];
			v = 0;
		}
		mc->lru_pages[l] = (uint64_t)v;
	}
	/* hierarchical sizes (recorders 0.3+): all five or none */
	mc->hier_known = true;
	for (int l = 0; l < RR_NR_LRU; l++) {
		char key[64];
		bool hbad = false;
		long long v;

		snprintf(key, sizeof(key), "hier_%s", rr_lru_names[l]);
		v = num_or_bad(s, len, key, -1, &hbad);
		if (hbad || v < -1 || v > (long long)RR_MARKER_MAX_PAGES) {
			if (!mc->malformed)
				mc->malformed = hier_names[l];
			v = -1;
		}
		if (v < 0)
			mc->hier_known = false;
		else
			mc->hier_pages[l] = (uint64_t)v;
	}
	if (!mc->hier_known)
		memset(mc->hier_pages, 0, sizeof(mc->hier_pages));
	mc->limit_bytes = num(s, len, "limit_bytes", 0);
	mc->min_bytes = protection(s, len, "min_bytes");
	mc->low_bytes = protection(s, len, "low_bytes");
	str(s, len, "path", mc->path, sizeof(mc->path));
}

/* "proactive begin/end": swappiness= is "0".."200" or "max" (what
 * memory.reclaim accepts); anything else reads as absent (-1) and names
 * the key in ->malformed, as a memcg line's bad values do */
/*
 * A page count or setting of a vm, zone or node line: -1 when absent; a
 * value that is no whole number from 0 to @max also reads as -1 and names
 * @key in *@malformed (the first such key only).
 */
static long long count(const char *s, size_t len, const char *key, long long max,
		       const char **malformed)
{
	bool bad = false;
	long long v = num_or_bad(s, len, key, -1, &bad);

	if (!bad && v >= -1 && v <= max)
		return v;	/* (-1: what a recorder writes for "not known") */
	if (!*malformed)
		*malformed = key;
	return -1;
}

static void parse_vm(const char *s, size_t len, struct rr_marker_vm *vm)
{
	const long long max = INT32_MAX;

	vm->malformed = NULL;
	vm->min_free_kbytes = count(s, len, "min_free_kbytes", max, &vm->malformed);
	vm->watermark_scale_factor = count(s, len, "watermark_scale_factor", max, &vm->malformed);
	vm->watermark_boost_factor = count(s, len, "watermark_boost_factor", max, &vm->malformed);
	vm->laptop_mode = count(s, len, "laptop_mode", max, &vm->malformed);
	vm->zone_reclaim_mode = count(s, len, "zone_reclaim_mode", max, &vm->malformed);
	vm->numa_balancing = count(s, len, "numa_balancing", max, &vm->malformed);
	vm->demotion_enabled = count(s, len, "demotion_enabled", 1, &vm->malformed);
}

/* "protection=N,N,...": up to RR_MARKER_MAX_ZONES page counts */
static void parse_protection(const char *s, size_t len, struct rr_marker_zone *z)
{
	char buf[256], *p, *end;

	z->nr_protection = 0;
	for (int i = 0; i < RR_MARKER_MAX_ZONES; i++)
		z->protection[i] = -1;
	if (!val(s, len, "protection", buf, sizeof(buf)))
		return;
	for (p = buf; *p; p = end + (*end == ',')) {
		long long v;

		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || v < 0 ||
		    v > RR_MARKER_MAX_ZONE_PAGES || z->nr_protection == RR_MARKER_MAX_ZONES) {
			if (!z->malformed)
				z->malformed = "protection";
			z->nr_protection = 0;
			for (int i = 0; i < RR_MARKER_MAX_ZONES; i++)
				z->protection[i] = -1;
			return;
		}
		z->protection[z->nr_protection++] = v;
	}
}

static void parse_zone(const char *s, size_t len, struct rr_marker_zone *z)
{
	const long long max = RR_MARKER_MAX_ZONE_PAGES;
	const char **bad = &z->malformed;

	z->malformed = NULL;
	z->nid = count(s, len, "nid", 1 << 20, bad);
	z->zid = count(s, len, "zid", RR_MARKER_MAX_ZONES - 1, bad);
	str(s, len, "name", z->name, sizeof(z->name));
	z->managed = count(s, len, "managed", max, bad);
	z->present = count(s, len, "present", max, bad);
	z->spanned = count(s, len, "spanned", max, bad);
	z->free = count(s, len, "free", max, bad);
	z->min = count(s, len, "min", max, bad);
	z->low = count(s, len, "low", max, bad);
	z->high = count(s, len, "high", max, bad);
	z->boost = count(s, len, "boost", max, bad);
	z->promo = count(s, len, "promo", max, bad);
	parse_protection(s, len, z);
}

static void parse_node(const char *s, size_t len, struct rr_marker_node *n)
{
	const long long max = RR_MARKER_MAX_ZONE_PAGES;
	const char **bad = &n->malformed;

	n->malformed = NULL;
	n->nid = count(s, len, "nid", 1 << 20, bad);
	n->zones = count(s, len, "zones", RR_MARKER_MAX_ZONES, bad);
	str(s, len, "source", n->source, sizeof(n->source));
	n->nr_free_pages = count(s, len, "nr_free_pages", max, bad);
	n->nr_inactive_anon = count(s, len, "nr_inactive_anon", max, bad);
	n->nr_active_anon = count(s, len, "nr_active_anon", max, bad);
	n->nr_inactive_file = count(s, len, "nr_inactive_file", max, bad);
	n->nr_active_file = count(s, len, "nr_active_file", max, bad);
	n->nr_isolated_anon = count(s, len, "nr_isolated_anon", max, bad);
	n->nr_isolated_file = count(s, len, "nr_isolated_file", max, bad);
	n->nr_writeback = count(s, len, "nr_writeback", max, bad);
	n->nr_dirty = count(s, len, "nr_dirty", max, bad);
	/* KiB: 2^40 pages of 64 KiB at most */
	n->swap_free_kb = count(s, len, "swap_free_kb", max << 6, bad);
}

/* "tasks": pids= is a comma-separated list of thread ids */
static void parse_tasks(const char *s, size_t len, struct rr_marker_tasks *t)
{
	const char **bad = &t->malformed;
	char buf[RR_MARKER_MAX_LINE_BYTES + 1], *p, *end;

	t->malformed = NULL;
	t->memcg_id = count(s, len, "memcg", INT64_MAX, bad);
	t->threads = count(s, len, "threads", INT32_MAX, bad);
	t->left_out = count(s, len, "left_out", INT32_MAX, bad);
	if (t->threads >= 0 && t->left_out > t->threads && !*bad)
		*bad = "left_out";
	t->nr_pids = 0;
	if (!val(s, len, "pids", buf, sizeof(buf)) || !buf[0])
		return;
	for (p = buf; *p; p = end + (*end == ',')) {
		long long v;

		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || v <= 0 || v > (1 << 22) ||
		    t->nr_pids == RR_MARKER_TASKS_MAX_PIDS) {
			if (!*bad)
				*bad = "pids";
			t->nr_pids = 0;
			return;
		}
		t->pids[t->nr_pids++] = (int)v;
	}
}

static void parse_proactive(const char *s, size_t len, struct rr_marker_proactive *p)
{
	char buf[64];
	int sw;

	p->bytes = num(s, len, "bytes", -1);
	str(s, len, "result", p->result, sizeof(p->result));
	p->errno_value = num(s, len, "errno", -1);
	p->swappiness = -1;
	p->malformed = NULL;
	if (val(s, len, "swappiness", buf, sizeof(buf))) {
		if (rr_swappiness_parse(buf, &sw))
			p->malformed = "swappiness";
		else
			p->swappiness = sw;
	}
	str(s, len, "path", p->path, sizeof(p->path));
}

enum rr_marker_kind rr_marker_parse(const char *text, size_t len, bool anywhere,
				    struct rr_marker *m)
{
	const char *s = text;

	m->kind = RR_MARKER_NONE;
	if (!text)
		return m->kind;
	if (len < PREFIX_LEN || memcmp(s, prefix, PREFIX_LEN)) {
		const char *p = anywhere ? memmem(text, len, prefix, PREFIX_LEN) : NULL;

		if (!p)
			return m->kind;
		s = p;
	}
	len -= (size_t)(s - text) + PREFIX_LEN;
	s += PREFIX_LEN;

	if (keyword(s, len, "meta", false)) {
		memset(&m->meta, 0, sizeof(m->meta));
		parse_meta(s, len, &m->meta);
		m->kind = RR_MARKER_META;
	} else if (keyword(s, len, "items", false)) {
		memset(&m->items, 0, sizeof(m->items));
		parse_items(s, len, &m->items);
		m->kind = RR_MARKER_ITEMS;
	} else if (keyword(s, len, "memcg", false)) {
		memset(&m->memcg, 0, sizeof(m->memcg));
		parse_memcg(s, len, &m->memcg);
		m->kind = RR_MARKER_MEMCG;
	} else if (keyword(s, len, "snapshot read", false)) {
		memset(&m->snapshot, 0, sizeof(m->snapshot));
		m->snapshot.cgroups = -1;
		m->snapshot.id = num(s, len, "id", -1);
		m->kind = RR_MARKER_SNAPSHOT_READ;
	} else if (keyword(s, len, "snapshot begin", false) ||
		   keyword(s, len, "snapshot end", true)) {
		memset(&m->snapshot, 0, sizeof(m->snapshot));
		str(s, len, "when", m->snapshot.when, sizeof(m->snapshot.when));
		m->snapshot.cgroups = num(s, len, "cgroups", -1);
		m->snapshot.id = -1;
		m->kind = s[9] == 'b' ? RR_MARKER_SNAPSHOT_BEGIN : RR_MARKER_SNAPSHOT_END;
	} else if (keyword(s, len, "proactive begin", false) ||
		   keyword(s, len, "proactive end", false)) {
		memset(&m->proactive, 0, sizeof(m->proactive));
		parse_proactive(s, len, &m->proactive);
		m->kind = s[10] == 'b' ? RR_MARKER_PROACTIVE_BEGIN : RR_MARKER_PROACTIVE_END;
	} else if (keyword(s, len, "vm", false)) {
		memset(&m->vm, 0, sizeof(m->vm));
		parse_vm(s, len, &m->vm);
		m->kind = RR_MARKER_VM;
	} else if (keyword(s, len, "zone", false)) {
		memset(&m->zone, 0, sizeof(m->zone));
		parse_zone(s, len, &m->zone);
		m->kind = RR_MARKER_ZONE;
	} else if (keyword(s, len, "node", false)) {
		memset(&m->node, 0, sizeof(m->node));
		parse_node(s, len, &m->node);
		m->kind = RR_MARKER_NODE;
	} else if (keyword(s, len, "tasks", false)) {
		/* (not memset: the pids array is 2 KiB; what is read is set) */
		parse_tasks(s, len, &m->tasks);
		m->kind = RR_MARKER_TASKS;
	} else if (keyword(s, len, "filters", false)) {
		m->kind = RR_MARKER_FILTERS;
	} else if (keyword(s, len, "events", false)) {
		m->kind = RR_MARKER_EVENTS;
	} else if (keyword(s, len, "lost", true)) {
		m->kind = RR_MARKER_LOST;
	} else {
		m->kind = RR_MARKER_OTHER;
	}
	return m->kind;
}

int rr_marker_format_meta(char *buf, size_t len, const struct rr_marker_meta *m)
{
	return snprintf(buf, len,
			"meta version=%d kernel_release=%s page_size=%lld cpus=%lld "
			"cgroup_version=%lld memory_hierarchy_id=%lld swap_total_kb=%lld "
			"vm_swappiness=%lld mglru=%s buffer_kb=%lld duration_s=%lld "
			"memcg_events=%s snapshot_interval_ms=%lld%s%s",
			RR_MARKER_VERSION, m->kernel_release, m->page_size, m->cpus,
			m->cgroup_version, m->memory_hierarchy_id, m->swap_total_kb,
			m->vm_swappiness, m->mglru, m->buffer_kb, m->duration_s,
			m->memcg_events[0] ? m->memcg_events : "on", m->snapshot_interval_ms,
			m->kernel_policy[0] ? " kernel_policy=" : "", m->kernel_policy);
}

int rr_marker_format_items(char *buf, size_t len, const struct rr_marker_items *it)
{
	return snprintf(buf, len,
			"items source=%s nr_lru_base=%lld workingset_refault_anon=%lld "
			"workingset_refault_file=%lld workingset_activate_anon=%lld "
			"workingset_activate_file=%lld workingset_restore_anon=%lld "
			"workingset_restore_file=%lld pgscan_kswapd=%lld pgscan_direct=%lld "
			"pgscan_proactive=%lld pgrefill=%lld",
			it->source, it->nr_lru_base, it->workingset_refault[0],
			it->workingset_refault[1], it->workingset_activate[0],
			it->workingset_activate[1], it->workingset_restore[0],
			it->workingset_restore[1], it->pgscan_kswapd, it->pgscan_direct,
			it->pgscan_proactive, it->pgrefill);
}

int rr_marker_format_filter(char *buf, size_t len, const char *event, const char *filter)
{
	return snprintf(buf, len, "filters %s=%s", event, filter);
}

int rr_marker_format_events(char *buf, size_t len, const char *enabled)
{
	return snprintf(buf, len, "events enabled=%s", enabled);
}

int rr_marker_format_snapshot_read(char *buf, size_t len, unsigned long long id)
{
	return snprintf(buf, len, "snapshot read id=%llu", id);
}

int rr_marker_format_snapshot(char *buf, size_t len, bool begin,
			      const struct rr_marker_snapshot *s)
{
	if (begin)
		return snprintf(buf, len, "snapshot begin when=%s", s->when);
	return snprintf(buf, len, "snapshot end when=%s cgroups=%lld", s->when, s->cgroups);
}

int rr_marker_format_memcg(char *buf, size_t len, const struct rr_marker_memcg *mc)
{
	char hier[256] = "";

	if (mc->hier_known)
		snprintf(hier, sizeof(hier),
			 " hier_inactive_anon=%llu hier_active_anon=%llu hier_inactive_file=%llu"
			 " hier_active_file=%llu hier_unevictable=%llu",
			 (unsigned long long)mc->hier_pages[RR_LRU_INACTIVE_ANON],
			 (unsigned long long)mc->hier_pages[RR_LRU_ACTIVE_ANON],
			 (unsigned long long)mc->hier_pages[RR_LRU_INACTIVE_FILE],
			 (unsigned long long)mc->hier_pages[RR_LRU_ACTIVE_FILE],
			 (unsigned long long)mc->hier_pages[RR_LRU_UNEVICTABLE]);
	/* path= last: it runs to the end of the line */
	return snprintf(buf, len,
			"memcg id=%lld level=%lld swappiness=%lld inactive_anon=%llu "
			"active_anon=%llu inactive_file=%llu active_file=%llu unevictable=%llu "
			"limit_bytes=%lld min_bytes=%lld low_bytes=%lld%s path=%s",
			mc->id, mc->level, mc->swappiness,
			(unsigned long long)mc->lru_pages[RR_LRU_INACTIVE_ANON],
			(unsigned long long)mc->lru_pages[RR_LRU_ACTIVE_ANON],
			(unsigned long long)mc->lru_pages[RR_LRU_INACTIVE_FILE],
			(unsigned long long)mc->lru_pages[RR_LRU_ACTIVE_FILE],
			(unsigned long long)mc->lru_pages[RR_LRU_UNEVICTABLE],
			mc->limit_bytes, mc->min_bytes, mc->low_bytes, hier, mc->path);
}

int rr_marker_format_vm(char *buf, size_t len, const struct rr_marker_vm *vm)
{
	return snprintf(buf, len,
			"vm min_free_kbytes=%lld watermark_scale_factor=%lld "
			"watermark_boost_factor=%lld laptop_mode=%lld zone_reclaim_mode=%lld "
			"numa_balancing=%lld demotion_enabled=%lld",
			vm->min_free_kbytes, vm->watermark_scale_factor, vm->watermark_boost_factor,
			vm->laptop_mode, vm->zone_reclaim_mode, vm->numa_balancing,
			vm->demotion_enabled);
}

int rr_marker_format_zone(char *buf, size_t len, const struct rr_marker_zone *z)
{
	char promo[48] = "", prot[32 + RR_MARKER_MAX_ZONES * 24] = "";
	size_t n;

	if (z->promo >= 0)
		snprintf(promo, sizeof(promo), " promo=%lld", z->promo);
	for (int i = 0; i < z->nr_protection && i < RR_MARKER_MAX_ZONES; i++) {
		n = strlen(prot);
		snprintf(prot + n, sizeof(prot) - n, "%s%lld", i ? "," : " protection=",
			 z->protection[i]);
	}
	return snprintf(buf, len,
			"zone nid=%lld zid=%lld name=%s managed=%lld present=%lld spanned=%lld "
			"free=%lld min=%lld low=%lld high=%lld boost=%lld%s%s",
			z->nid, z->zid, z->name[0] ? z->name : "?", z->managed, z->present,
			z->spanned, z->free, z->min, z->low, z->high, z->boost, promo, prot);
}

int rr_marker_format_node(char *buf, size_t len, const struct rr_marker_node *n)
{
	return snprintf(buf, len,
			"node nid=%lld zones=%lld source=%s nr_free_pages=%lld nr_inactive_anon=%lld "
			"nr_active_anon=%lld nr_inactive_file=%lld nr_active_file=%lld "
			"nr_isolated_anon=%lld nr_isolated_file=%lld nr_writeback=%lld "
			"nr_dirty=%lld swap_free_kb=%lld",
			n->nid, n->zones, n->source[0] ? n->source : "?", n->nr_free_pages,
			n->nr_inactive_anon, n->nr_active_anon, n->nr_inactive_file,
			n->nr_active_file, n->nr_isolated_anon, n->nr_isolated_file,
			n->nr_writeback, n->nr_dirty, n->swap_free_kb);
}

int rr_marker_format_proactive(char *buf, size_t len, bool begin,
			       const struct rr_marker_proactive *p)
{
	if (begin) {
		char sw[32] = "";

		if (p->swappiness == RR_SWAPPINESS_ANON_ONLY)
			snprintf(sw, sizeof(sw), " swappiness=max");
		else if (p->swappiness >= 0)
			snprintf(sw, sizeof(sw), " swappiness=%lld", p->swappiness);
		/* path= last: it runs to the end of the line */
		return snprintf(buf, len, "proactive begin bytes=%lld%s%s%s", p->bytes, sw,
				p->path[0] ? " path=" : "", p->path);
	}
	return snprintf(buf, len, "proactive end bytes=%lld result=%s errno=%lld",
			p->bytes, p->result, p->errno_value);
}

int rr_marker_format_tasks(char *buf, size_t len, const struct rr_marker_tasks *t)
{
	int n = snprintf(buf, len, "tasks memcg=%lld threads=%lld left_out=%lld", t->memcg_id,
			 t->threads, t->left_out);

	for (int i = 0; i < t->nr_pids && i < RR_MARKER_TASKS_MAX_PIDS && n >= 0; i++)
		n += snprintf(buf + ((size_t)n < len ? (size_t)n : len),
			      (size_t)n < len ? len - (size_t)n : 0, "%s%d", i ? "," : " pids=",
			      t->pids[i]);
	return n;
}

int rr_marker_format_lost(char *buf, size_t len, const uint64_t *lost, int nr_cpus)
{
	int n = snprintf(buf, len, "lost");

	for (int c = 0; c < nr_cpus && n >= 0 && (size_t)n + 32 < len; c++)
		n += snprintf(buf + n, len - (size_t)n, " cpu%d=%llu", c,
			      (unsigned long long)lost[c]);
	return n;
}
