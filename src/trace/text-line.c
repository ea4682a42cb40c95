// SPDX-License-Identifier: GPL-2.0-only
/*
 * One line of a text trace (text.c has the formats): its header (task,
 * pid, CPU, time), its kind, and its `name=value` fields decoded into an
 * event through the descriptors of decode.h, every field problem counted.
 */
#include "text-local.h"
#include "../common/probe.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KV_MAX 96	/* the shrink_lruvec() probe: 52 fields with 4 zones, 68 with 8 */

struct kv {
	const char *key, *val;
	size_t key_len, val_len;
};

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* "100.000100" (seconds) or "123456" (a counter clock) -> ns */
static bool parse_ts(const char *s, size_t n, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	if (!n || !isdigit((unsigned char)s[0]))
		return false;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
		if (!digits)
			return false;
	}
	if (i != n || sec > (UINT64_MAX - 999999999ULL) / 1000000000ULL)
		return false;	/* (the nanoseconds would wrap) */
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	*ns = sec * 1000000000ULL + frac;
	return true;
}

/* The most CPUs a text trace may name (NR_CPUS is at most 8192 in the
 * kernel's Kconfig; room to spare) */
#define RR_TEXT_MAX_CPUS 65536

/* The CPU number at @s (digits), or -1 beyond RR_TEXT_MAX_CPUS - 1. */
int rr_text_cpu_number(const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || v >= RR_TEXT_MAX_CPUS)
		return -1;
	return (int)v;
}

/* "comm-pid", "comm-pid (  tgid) [cpu] flags", "comm-pid  0d..1.",
 * "comm  pid [cpu]" (perf script); l->cpu is -1 when the CPU column holds
 * a number no machine has */
static void parse_header(char *h, size_t n, struct line *l)
{
	char *lb = NULL, *end;

	while (n && isspace((unsigned char)h[n - 1]))
		n--;
	h[n] = 0;
	l->cpu = 0;
	/* the CPU column: the last "[digits]" followed by blank or the end
	 * (a task named "foo [1]-42" keeps its brackets) */
	for (char *p = h; *p; p++)
		if (*p == '[' && isdigit((unsigned char)p[1])) {
			char *rb = p + 1;

			while (isdigit((unsigned char)*rb))
				rb++;
			if (*rb == ']' && (!rb[1] || isspace((unsigned char)rb[1])))
				lb = p;
		}
	if (lb) {
		l->cpu = rr_text_cpu_number(lb + 1);
		*lb = 0;
	} else {
		/* -l: the last token is the CPU glued to the flags */
		char *sp = strrchr(h, ' ');

		if (sp && isdigit((unsigned char)sp[1])) {
			l->cpu = rr_text_cpu_number(sp + 1);
			*sp = 0;
		}
	}
	n = strlen(h);
	while (n && isspace((unsigned char)h[n - 1]))
		h[--n] = 0;
	if (n && h[n - 1] == ')') {	/* the tgid column */
		char *lp = strrchr(h, '(');

		if (lp) {
			*lp = 0;
			n = strlen(h);
			while (n && isspace((unsigned char)h[n - 1]))
				h[--n] = 0;
		}
	}
	end = strrchr(h, '-');
	if (!end || !end[1] || strspn(end + 1, "0123456789") != strlen(end + 1))
		end = strrchr(h, ' ');	/* perf script: "comm  pid" */
	if (end && end[1] && strspn(end + 1, "0123456789") == strlen(end + 1) &&
	    strlen(end + 1) <= 9)
		l->pid = (int)strtol(end + 1, NULL, 10);
}

enum line_kind rr_text_classify(char *s, struct line *l, uint64_t *lost)
{
	char *p = s, *q;

	memset(l, 0, sizeof(*l));
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return L_BLANK;
	/* "CPU:%d [LOST %lu EVENTS]" (ftrace) */
	if (!strncmp(p, "CPU:", 4) && (q = strstr(p, "[LOST ")) != NULL) {
		unsigned long long n = strtoull(q + 6, NULL, 10);

		*lost = n ? n : 1;
		return L_LOST;
	}
	if (!strncmp(p, "CPU:", 4) && (q = strstr(p, "EVENTS DROPPED]")) != NULL) {
		const char *b = strchr(p, '[');
		unsigned long long n = b ? strtoull(b + 1, NULL, 10) : 0;

		*lost = n ? n : 1;
		return L_LOST;
	}
	if (!strncmp(p, "cpus=", 5))
		return L_CPUS;
	if (!strncmp(p, "version = ", 10))	/* trace-cmd 2.x report preamble */
		return L_BLANK;
	/* header form: the first "<number>: [(+diff)] [system:]<ident>:" */
	for (q = strstr(p, ": "); q; q = strstr(q + 1, ": ")) {
		char *tok = q, *r, *id;
		uint64_t ts;

		while (tok > p && !isspace((unsigned char)tok[-1]))
			tok--;
		if (!parse_ts(tok, (size_t)(q - tok), &ts))
			continue;
		r = q + 2;
		while (*r == ' ')
			r++;
		if (r[0] == '(' && r[1] == '+') {	/* trace-cmd report --ts-diff */
			r = strchr(r, ')');
			if (!r)
				continue;
			r++;
			while (*r == ' ')
				r++;
		}
		id = r;
		while (is_ident_char((unsigned char)*r))
			r++;
		if (r == id || *r != ':')
			continue;
		if (is_ident_char((unsigned char)r[1])) {	/* perf: "vmscan:mm_...:" */
			id = ++r;
			while (is_ident_char((unsigned char)*r))
				r++;
			if (*r != ':')
				continue;
		}
		l->event = id;
		l->event_len = (size_t)(r - id);
		l->ts_ns = ts;
		l->has_header = true;
		r++;
		while (*r == ' ')
			r++;
		l->body = r;
		parse_header(p, (size_t)(tok - p), l);
		return L_EVENT;
	}
	/* bare form: a known event name at the start of the line */
	for (q = p; is_ident_char((unsigned char)*q); q++)
		;
	if (q > p && *q == ':' && (q[1] == ' ' || !q[1]) &&
	    rr_event_desc_find(p, (size_t)(q - p))) {
		l->event = p;
		l->event_len = (size_t)(q - p);
		q++;
		while (*q == ' ')
			q++;
		l->body = q;
		return L_EVENT;
	}
	return L_OTHER;
}

/* Split "a=1 b=x y c=2" into keys and values; a token without '=' extends
 * the previous value (a path with spaces). */
static int split_kv(const char *body, struct kv *kv, bool *overflow)
{
	int n = 0;

	if (overflow)
		*overflow = false;
	const char *p = body;

	while (*p) {
		const char *tok, *eq;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		eq = memchr(tok, '=', (size_t)(p - tok));
		if (eq && eq > tok) {
			const char *k = tok;

			while (k < eq && is_ident_char((unsigned char)*k))
				k++;
			if (k == eq && n == KV_MAX && overflow)
				*overflow = true;
			if (k == eq && n < KV_MAX) {
				kv[n].key = tok;
				kv[n].key_len = (size_t)(eq - tok);
				kv[n].val = eq + 1;
				kv[n].val_len = (size_t)(p - eq - 1);
				n++;
				continue;
			}
		}
		if (n)
			kv[n - 1].val_len = (size_t)(p - kv[n - 1].val);
	}
	return n;
}

static const struct kv *kv_find(const struct kv *kv, int n, const char *names)
{
	while (*names) {
		size_t len = strcspn(names, "|");

		for (int i = 0; i < n; i++)
			if (kv[i].key_len == len && !memcmp(kv[i].key, names, len))
				return &kv[i];
		names += len + (names[len] == '|');
	}
	return NULL;
}

static bool parse_num(const char *s, size_t n, uint64_t *out)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	if (buf[0] == '-')
		*out = (uint64_t)strtoll(buf, &end, 0);
	else
		*out = strtoull(buf, &end, 0);
	if (errno || *end)
		return false;
	return true;
}

/* How field @f's value @v reads: 0 and *@out, or the problem. */
static int field_value(enum rr_field f, const struct kv *v, uint64_t *out)
{
	if (!v->val_len)
		return RR_FP_UNPARSEABLE;	/* "priority=": the value was cut */
	if (parse_num(v->val, v->val_len, out)) {
		if (rr_field_is_sentinel(f, *out))
			return RR_FP_SENTINEL;
		return rr_field_in_range(f, *out) ? 0 : RR_FP_OUT_OF_RANGE;
	}
	switch (f) {
	case F_LRU:
		return rr_parse_lru_name(v->val, v->val_len, out) ? RR_FP_UNPARSEABLE : 0;
	case F_FLAGS:
		return rr_parse_reclaim_flags(v->val, v->val_len, out) ? RR_FP_UNPARSEABLE : 0;
	case F_FORCE:
	case F_NEEDS_FLUSH:
		if (v->val_len == 4 && !memcmp(v->val, "true", 4)) {
			*out = 1;
			return 0;
		}
		if (v->val_len == 5 && !memcmp(v->val, "false", 5)) {
			*out = 0;
			return 0;
		}
		return RR_FP_UNPARSEABLE;
	default:
		return RR_FP_UNPARSEABLE;
	}
}

/* The text key of field @f of @d as the newest releases print it: the last
 * of its names ("reclaim_flags|flags" -> "flags"). */
static void text_key(const struct rr_event_desc *d, enum rr_field f, char *buf, size_t len)
{
	const char *names = d->fields[f], *last;

	if (f == F_CLASSZONE) {
		snprintf(buf, len, "classzone");
		return;
	}
	last = names ? strrchr(names, '|') : NULL;
	snprintf(buf, len, "%s", last ? last + 1 : names ? names : rr_field_name(f));
}

/* "...: nid: 0 objects to shrink 0 ... priority 8" (mm_shrink_slab_start):
 * false when a value is there but not a number */
static bool slab_fields(struct pass *ps, const struct rr_event_desc *d, const char *body,
			struct rr_event *ev)
{
	const char *p = strstr(body, "nid: "), *last = NULL;
	char *end;
	long v;

	if (p) {
		errno = 0;
		v = strtol(p + 5, &end, 10);
		if (errno || end == p + 5 || v < 0 || v > INT32_MAX) {
			rr_text_count_problem(ps, d->name, "nid", RR_FP_UNPARSEABLE);
			return false;
		}
		ev->nid = (int)v;
	}
	for (p = strstr(body, "priority "); p; p = strstr(p + 1, "priority "))
		last = p;
	if (!last) {	/* unknown, not 0 */
		rr_text_count_problem(ps, d->name, "priority", RR_FP_MISSING_KEPT);
		return true;
	}
	errno = 0;
	v = strtol(last + 9, &end, 10);
	if (errno || end == last + 9 || (*end && !isspace((unsigned char)*end))) {
		rr_text_count_problem(ps, d->name, "priority", RR_FP_UNPARSEABLE);
		return false;
	}
	if (v < 0 || v > RR_DEF_PRIORITY) {
		rr_text_count_problem(ps, d->name, "priority", RR_FP_OUT_OF_RANGE);
		return false;
	}
	ev->priority = (int)v;
	return true;
}

/*
 * Decode one event line into @ev; the strings point into @l's buffer.
 * Return false when the event cannot be used: a required field (desc
 * ->required) missing, the line cut before its last key (desc->trailer),
 * or any field's value unparseable, -1 printed unsigned in a page count,
 * or out of range; every such field is counted (rr_text_count_problem()).
 * Fields left out keep what is unknown unknown: priority, order and classzone
 * -1 (priority counted as missing), nr_activate 0 pages (counted: the
 * releases before v4.11 print none).  *@type_only: the isolate printed
 * `file=` (<= v4.10: the type, not the list; ev->lru holds the inactive
 * list of the type until hand_over() learns the list).
 */
bool rr_text_decode(struct pass *ps, const struct rr_event_desc *d, struct line *l,
		    struct rr_event *ev, bool *type_only)
{
	struct kv kv[KV_MAX];
	char key[32];
	bool ok = true;
	int n;

	*type_only = false;
	ev->type = d->type;
	if (d->type == RR_EV_MARKER) {
		char *b = l->body;
		size_t len;

		/* trace-cmd prints "print: 0xffffffff8149ab1a: text" */
		if (b[0] == '0' && b[1] == 'x') {
			char *c = b + 2;

			while (isxdigit((unsigned char)*c))
				c++;
			if (*c == ':') {
				b = c + 1;
				while (*b == ' ')
					b++;
			}
		}
		len = strlen(b);
		while (len && (b[len - 1] == ' ' || b[len - 1] == '\n'))
			len--;
		ev->str = b;
		ev->str_len = (int)len;
		return true;
	}
	if (d->type == RR_EV_SLAB_START)
		return slab_fields(ps, d, l->body, ev);
	n = split_kv(l->body, kv, NULL);
	if (d->trailer && !kv_find(kv, n, d->trailer)) {
		/* the line ends before the key every release prints last */
		enum rr_field tf = F__COUNT;

		for (int f = 0; f < F__COUNT; f++)
			if ((d->required & (1u << f)) && d->fields[f] &&
			    !strcmp(d->fields[f], d->trailer))
				tf = (enum rr_field)f;
		if (d->type == RR_EV_LRU_ISOLATE)
			tf = F_LRU;
		if (tf != F__COUNT) {
			text_key(d, tf, key, sizeof(key));
			rr_text_count_problem(ps, d->name, key, RR_FP_MISSING);
		} else {
			const char *bar = strrchr(d->trailer, '|');

			rr_text_count_problem(ps, d->name, bar ? bar + 1 : d->trailer, RR_FP_CUT);
		}
		return false;
	}
	for (int f = 0; f < F__COUNT; f++) {
		const struct kv *v;
		uint64_t x;
		int why;

		if (!d->fields[f] || f == F_FILE)
			continue;
		v = kv_find(kv, n, d->fields[f]);
		if (f == F_LRU && !v && d->fields[F_FILE] &&
		    (v = kv_find(kv, n, d->fields[F_FILE])) != NULL) {
			/* <= v4.10: file=0|1 */
			why = field_value(F_FILE, v, &x);
			if (why) {
				rr_text_count_problem(ps, d->name, "file", (enum rr_field_problem)why);
				ok = false;
				continue;
			}
			ev->lru = x ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON;
			*type_only = true;
			continue;
		}
		if (!v) {
			text_key(d, (enum rr_field)f, key, sizeof(key));
			if (d->required & (1u << f)) {
				rr_text_count_problem(ps, d->name, key, RR_FP_MISSING);
				ok = false;
			} else if (f == F_PRIORITY ||
				   (f == F_NR_ACTIVATE0 && d->type == RR_EV_SHRINK_INACTIVE)) {
				rr_text_count_problem(ps, d->name,
						      f == F_PRIORITY ? key : "nr_activate",
						      f == F_PRIORITY ? RR_FP_MISSING_KEPT :
						      RR_FP_MISSING_ZERO);
			}
			continue;
		}
		if (f == F_STR) {
			if (!v->val_len) {
				snprintf(key, sizeof(key), "%.*s", (int)v->key_len, v->key);
				rr_text_count_problem(ps, d->name, key, RR_FP_UNPARSEABLE);
				ok = false;
				continue;
			}
			ev->str = v->val;
			ev->str_len = (int)v->val_len;
			/* `path=%s` ends the line of cgroup_mkdir/rmdir/release: a
			 * name may hold spaces and "=" ("/job x=1") */
			if (d->type == RR_EV_CGROUP_MKDIR || d->type == RR_EV_CGROUP_RMDIR ||
			    d->type == RR_EV_CGROUP_RELEASE) {
				size_t len = strlen(v->val);

				while (len && v->val[len - 1] == ' ')
					len--;
				ev->str_len = (int)len;
			}
			continue;
		}
		why = field_value((enum rr_field)f, v, &x);
		if (why) {
			snprintf(key, sizeof(key), "%.*s", (int)v->key_len, v->key);
			rr_text_count_problem(ps, d->name, key, (enum rr_field_problem)why);
			ok = false;
			continue;
		}
		rr_event_set_field(ev, (enum rr_field)f, x);
	}
	return ok;
}

void rr_text_count_problem(struct pass *ps, const char *event, const char *key,
			   enum rr_field_problem p)
{
	if (!ps->cb)	/* (counted once: on the pass that hands events over) */
		return;
	rr_trace_info_field_problem(ps->info, event, key, p);
	if (p != RR_FP_MISSING_KEPT && p != RR_FP_MISSING_ZERO)
		snprintf(ps->why, sizeof(ps->why), "%.48s: %.24s %s", event, key,
			 rr_field_problem_name(p));
}


/* "(ffffffff81184e70)" or "(ffffffff81184e70 <- ffffffff81185ce2)" */
static bool probe_address(const char *p)
{
	if (*p++ != '(' || !isxdigit((unsigned char)*p))
		return false;
	while (isxdigit((unsigned char)*p))
		p++;
	if (*p == ')')
		return true;
	if (strncmp(p, " <- ", 4))
		return false;
	p += 4;
	if (!isxdigit((unsigned char)*p))
		return false;
	while (isxdigit((unsigned char)*p))
		p++;
	return *p == ')';
}

const struct rr_event_desc *rr_text_probe_desc(const char *name, size_t len, const char *body,
					       bool lenient)
{
	if (!lenient && !probe_address(body))
		return NULL;
	return rr_probe_desc_find(name, len);
}

/* @kv's number under @name into *@out: 1; 0 when absent; -1 (with
 * *@bad = @name, the first) when not a number. */
static int kv_num(const struct kv *kv, int n, const char *name, uint64_t *out,
		  const char **bad)
{
	const struct kv *v = kv_find(kv, n, name);

	if (!v)
		return 0;
	if (parse_num(v->val, v->val_len, out))
		return 1;
	if (!*bad)
		*bad = name;
	return -1;
}

bool rr_text_decode_probe(struct pass *ps, const struct rr_event_desc *d, struct line *l,
			  struct rr_event *ev)
{
	struct rr_lruvec_probe *p = &ps->probe;
	struct kv kv[KV_MAX];
	const char *bad = NULL, *unparsed = NULL, *q;
	uint64_t badv = 0, x;
	char name[32];
	bool ok, overflow;
	int n;

	ev->type = d->type;
	if (!probe_address(l->body)) {
		rr_text_count_problem(ps, d->name, "address", RR_FP_UNPARSEABLE);
		return false;
	}
	if (d->type == RR_EV_ACTIVE_PROBE || d->type == RR_EV_WRITE_RET) {
		bool type_only;

		return rr_text_decode(ps, d, l, ev, &type_only);
	}
	if (d->type == RR_EV_LRUVEC_RET)
		return true;
	if (d->type == RR_EV_WRITE_PROBE) {
		bool type_only;
		char *b;

		if (!rr_text_decode(ps, d, l, ev, &type_only))
			return false;
		/* buf="TEXT": the written text, to the line's last quote (it
		 * may hold spaces: "1G swappiness=60") */
		q = strstr(l->body, " buf=\"");
		b = q ? (char *)q + 6 : NULL;
		q = b ? strrchr(b, '"') : NULL;
		if (!q) {
			rr_text_count_problem(ps, d->name, "buf", RR_FP_MISSING);
			return false;
		}
		ev->str = b;
		ev->str_len = (int)(q - b);
		return true;
	}
	/* the shrink_lruvec() probe */
	memset(p, 0, sizeof(*p));
	n = split_kv(l->body, kv, &overflow);
	if (overflow) {		/* (the recorder's probe has at most 68) */
		rr_text_count_problem(ps, d->name, "fields", RR_FP_UNPARSEABLE);
		return false;
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < i; k++)
			if (kv[i].key_len == kv[k].key_len &&
			    !memcmp(kv[i].key, kv[k].key, kv[i].key_len)) {
				snprintf(name, sizeof(name), "%.*s", (int)kv[i].key_len, kv[i].key);
				rr_text_count_problem(ps, d->name, name, RR_FP_UNPARSEABLE);
				return false;	/* a key twice: which one the kernel wrote? */
			}
	/* every line of the probe holds the same keys: one with fewer than
	 * the longest in the file (the first pass counted them) was cut (a
	 * value cut with it would read as another number) */
	if (n < ps->info->text_probe_keys) {
		rr_text_count_problem(ps, d->name, "fields", RR_FP_CUT);
		return false;
	}
	for (int f = 0; f < RR_PF__COUNT; f++)
		if (kv_num(kv, n, rr_probe_field_name((enum rr_probe_field)f), &x, &unparsed) > 0) {
			p->v[f] = x;
			p->present |= 1ull << f;
		}
	for (int z = 0; z < RR_PROBE_MAX_ZONES; z++) {
		bool all = true;

		for (int k = 0; k < RR_NR_EVICTABLE_LRU && all; k++) {
			snprintf(name, sizeof(name), "z%d_%s", z, rr_probe_lru_names[k]);
			all = kv_num(kv, n, name, &p->zone_lru[z][k], &unparsed) > 0;
		}
		if (!all)
			break;
		p->nr_zones = z + 1;
	}
	p->has_rstat = true;
	for (int k = 0; k < RR_NR_EVICTABLE_LRU && p->has_rstat; k++) {
		snprintf(name, sizeof(name), "rs_%s", rr_probe_lru_names[k]);
		p->has_rstat = kv_num(kv, n, name, &x, &unparsed) > 0;
		/* (signed in the probe: a moment below 0 reads as 0, as dat.c) */
		p->rstat_lru[k] = (int64_t)x > 0 ? x : 0;
	}
	if (!p->has_rstat)
		memset(p->rstat_lru, 0, sizeof(p->rstat_lru));
	if (unparsed) {
		rr_text_count_problem(ps, d->name, unparsed, RR_FP_UNPARSEABLE);
		return false;
	}
	/* without its memcg and priority it places nothing (as dat.c) */
	if (!rr_probe_has(p, RR_PF_CGROUP_ID) || !rr_probe_has(p, RR_PF_PRIORITY) ||
	    !p->nr_zones) {
		rr_text_count_problem(ps, d->name, !rr_probe_has(p, RR_PF_CGROUP_ID) ? "cgroup_id" :
				      !rr_probe_has(p, RR_PF_PRIORITY) ? "priority" : "z0_ia",
				      RR_FP_MISSING);
		return false;
	}
	ok = !rr_probe_check(p, &bad, &badv);
	if (!ok) {
		rr_text_count_problem(ps, d->name, bad ? bad : "?", RR_FP_OUT_OF_RANGE);
		return false;
	}
	ev->probe = p;
	return true;
}

int rr_text_count_kv(const char *body)
{
	struct kv kv[KV_MAX];

	return split_kv(body, kv, NULL);
}
