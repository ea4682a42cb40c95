// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text trace reader.  Accepts, line by line:
 *  - /sys/kernel/tracing/trace and trace_pipe output, with or without the
 *    irq-flags column and the tgid column:
 *      "  stress-4242  [000] d..1.  100.000100: mm_vmscan_lru_isolate: ..."
 *  - `trace-cmd report` output (`cpus=2` header, padded event names) and
 *    `trace-cmd report -l`, where the CPU is glued to the flags:
 *      "  stress-4242   0d..1.   100.000100: mm_vmscan_lru_isolate: ..."
 *  - bare lines as quoted in commit messages and bug reports:
 *      "mm_vmscan_lru_isolate: classzone=3 order=0 nr_requested=32 ..."
 *    (only known event names count here; the task is pid 0 and the
 *    timestamps are the line order, flagged as synthetic)
 *  - `perf script` output ("stress  4242 [000] 100.000100: vmscan:mm_...:")
 *    and trace-cmd's --ts-diff column ("100.000100: (+10) event:");
 *  - "CPU:1 [LOST 123 EVENTS]" (ftrace) and "CPU:1 [123 EVENTS DROPPED]"
 *    (trace-cmd) lines: lost events before the next event;
 *  - "#" lines and blank lines: comments.
 * Fields are read by the `name=value` keys the event prints, with the
 * names of every release (decode.h); a value may hold spaces (cgroup
 * paths) up to the next key.  Symbolic values (lru=inactive_file,
 * flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC) are turned into the numbers the
 * binary format carries.  Events are handed over in file order.
 */
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../markers/markers.h"
#include "decode.h"

struct rr_text {
	char *path;
	char *name;		/* for messages; NULL: path */
};

#define KV_MAX 64

struct kv {
	const char *key, *val;
	size_t key_len, val_len;
};

struct line {
	bool has_header;	/* task-pid [cpu] ts: */
	int pid, cpu;
	uint64_t ts_ns;
	const char *event;
	size_t event_len;
	char *body;
};

enum line_kind { L_OTHER, L_BLANK, L_EVENT, L_LOST, L_CPUS };

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
static int cpu_number(const char *s)
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
		l->cpu = cpu_number(lb + 1);
		*lb = 0;
	} else {
		/* -l: the last token is the CPU glued to the flags */
		char *sp = strrchr(h, ' ');

		if (sp && isdigit((unsigned char)sp[1])) {
			l->cpu = cpu_number(sp + 1);
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

static enum line_kind classify(char *s, struct line *l, uint64_t *lost)
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
static int split_kv(const char *body, struct kv *kv)
{
	int n = 0;
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

struct pass;
static void count_problem(struct pass *ps, const char *event, const char *key,
			  enum rr_field_problem p);

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
			count_problem(ps, d->name, "nid", RR_FP_UNPARSEABLE);
			return false;
		}
		ev->nid = (int)v;
	}
	for (p = strstr(body, "priority "); p; p = strstr(p + 1, "priority "))
		last = p;
	if (!last) {	/* unknown, not 0 */
		count_problem(ps, d->name, "priority", RR_FP_MISSING_KEPT);
		return true;
	}
	errno = 0;
	v = strtol(last + 9, &end, 10);
	if (errno || end == last + 9 || (*end && !isspace((unsigned char)*end))) {
		count_problem(ps, d->name, "priority", RR_FP_UNPARSEABLE);
		return false;
	}
	if (v < 0 || v > RR_DEF_PRIORITY) {
		count_problem(ps, d->name, "priority", RR_FP_OUT_OF_RANGE);
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
 * or out of range; every such field is counted (count_problem()).  Fields
 * left out keep what is unknown unknown: priority, order and classzone
 * -1 (priority counted as missing), nr_activate 0 pages (counted: the
 * releases before v4.11 print none).  *@type_only: the isolate printed
 * `file=` (<= v4.10: the type, not the list; ev->lru holds the inactive
 * list of the type until hand_over() learns the list).
 */
static bool decode(struct pass *ps, const struct rr_event_desc *d, struct line *l,
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
	n = split_kv(l->body, kv);
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
			count_problem(ps, d->name, key, RR_FP_MISSING);
		} else {
			const char *bar = strrchr(d->trailer, '|');

			count_problem(ps, d->name, bar ? bar + 1 : d->trailer, RR_FP_CUT);
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
				count_problem(ps, d->name, "file", (enum rr_field_problem)why);
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
				count_problem(ps, d->name, key, RR_FP_MISSING);
				ok = false;
			} else if (f == F_PRIORITY ||
				   (f == F_NR_ACTIVATE0 && d->type == RR_EV_SHRINK_INACTIVE)) {
				count_problem(ps, d->name, f == F_PRIORITY ? key : "nr_activate",
					      f == F_PRIORITY ? RR_FP_MISSING_KEPT :
					      RR_FP_MISSING_ZERO);
			}
			continue;
		}
		if (f == F_STR) {
			if (!v->val_len) {
				snprintf(key, sizeof(key), "%.*s", (int)v->key_len, v->key);
				count_problem(ps, d->name, key, RR_FP_UNPARSEABLE);
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
			count_problem(ps, d->name, key, (enum rr_field_problem)why);
			ok = false;
			continue;
		}
		rr_event_set_field(ev, (enum rr_field)f, x);
	}
	return ok;
}

/*
 * An event held back until its isolate's list is checked: an isolate waits
 * for the next event of its task that ends or follows its batch
 * (hand_over()); the events after it wait behind it, so that the order is
 * kept.
 */
struct held {
	struct rr_event ev;
	const char *name;	/* the event's name (mm_vmscan_lru_isolate, ...) */
	char *str;		/* owned copy of ev.str */
	uint64_t line;		/* the line it was read from */
	bool open;		/* an isolate whose batch's shrink event may follow */
	bool type_only;		/* file= (<= v4.10): ev.lru is the type's inactive list */
	bool dropped;		/* counted, not handed over: like a lost event */
};

/* The most events held back behind one isolate: a task's shrink event
 * follows its isolate within a few events of other CPUs; past this the
 * oldest isolate is let go unchecked (or dropped, for file=). */
#define RR_TEXT_HOLD_MAX 4096

struct pass {
	struct rr_trace_info *info;
	rr_event_cb cb;		/* NULL: the checking pass of open */
	void *ctx;
	uint64_t events;	/* event lines, known or not */
	uint64_t pending_lost;
	uint64_t last_ts;
	int max_cpu;
	/* events held back (q[q0..qn)), the callback pass only */
	struct held *q;
	size_t q0, qn, qcap;
	bool oom;
	char why[140];		/* the last problem that dropped an event */
};

static void count_problem(struct pass *ps, const char *event, const char *key,
			  enum rr_field_problem p)
{
	if (!ps->cb)	/* (counted once: on the pass that hands events over) */
		return;
	rr_trace_info_field_problem(ps->info, event, key, p);
	if (p != RR_FP_MISSING_KEPT && p != RR_FP_MISSING_ZERO)
		snprintf(ps->why, sizeof(ps->why), "%.48s: %.24s %s", event, key,
			 rr_field_problem_name(p));
}

/* An event is dropped: for the episodes around it, like a lost event. */
static void note_malformed(struct pass *ps, uint64_t line, const char *what)
{
	if (!ps->info->malformed_events++)
		snprintf(ps->info->first_malformed, sizeof(ps->info->first_malformed),
			 "line %llu: %.140s", (unsigned long long)line, what);
}

/* RECLAIM_WB_ANON/FILE of a shrink event's flags: the type, or -1 when
 * the flags give neither or both (trace_reclaim_flags() of vmscan.c sets
 * exactly one) */
static int flags_type(int flags)
{
	bool anon = flags & 0x1, file = flags & 0x2;

	return anon == file ? -1 : file ? RR_LRU_FILE : RR_LRU_ANON;
}

/*
 * Held isolate @h's batch ended without a shrink event of its task (@ev is
 * NULL), or with @ev, the task's mm_vmscan_lru_shrink_inactive/active.
 * shrink_inactive_list() and shrink_active_list() (mm/vmscan.c) call
 * isolate_lru_pages() and fire their event after it, with the list's type
 * in the flags (trace_reclaim_flags(is_file_lru(lru))): the isolate's
 * list must be of that type, else the batch (both events) is dropped.  A
 * `file=` isolate (<= v4.10, which has no shrink_active event: 9d998b4f1e39
 * came in v4.11 with `lru=`) names only the type: followed by
 * shrink_inactive it was the inactive list of the type; with no shrink
 * event after it the list is not known (shrink_active_list(), or an
 * inactive batch that took nothing, or a trace that ends there) and the
 * batch is dropped and counted, not guessed.
 */
static void close_isolate(struct pass *ps, struct held *h, struct held *shrink)
{
	int t;

	h->open = false;
	if (!shrink) {
		if (h->type_only) {
			count_problem(ps, h->name, "file",
				      RR_FP_LIST_UNKNOWN);
			note_malformed(ps, h->line, "file= gives the type only, and no "
				       "shrink_inactive of the task followed");
			h->dropped = true;
		}
		return;
	}
	t = flags_type(shrink->ev.reclaim_flags);
	if (h->type_only) {
		int type = rr_lru_type(h->ev.lru);

		h->ev.lru = (type == RR_LRU_FILE ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON) +
			    (shrink->ev.type == RR_EV_SHRINK_ACTIVE);
	}
	if (t >= 0 && t != rr_lru_type(h->ev.lru)) {
		count_problem(ps, h->name,
			      h->type_only ? "file" : "lru", RR_FP_FLAGS_MISMATCH);
		note_malformed(ps, h->line, "the isolated list's type is not the one of the "
			       "flags of the task's next shrink event (batch dropped)");
		ps->info->malformed_events++;	/* (the shrink event too) */
		h->dropped = true;
		shrink->dropped = true;
	}
}

/* Whether an event of type @type ends the batch in flight of its task
 * without being its shrink event. */
static bool ends_batch(enum rr_event_type type)
{
	return type == RR_EV_LRU_ISOLATE || type == RR_EV_SLAB_START || rr_event_is_request(type);
}

/* Hand the held events over from the front while none waits; 0, or the
 * callback's non-zero value. */
static int deliver(struct pass *ps)
{
	uint64_t carry = 0;
	int ret = 0;

	while (ps->q0 < ps->qn && !ps->q[ps->q0].open) {
		struct held *h = &ps->q[ps->q0++];

		if (h->dropped) {
			carry += h->ev.lost_before + 1;
		} else if (!ret) {
			h->ev.lost_before += carry;
			carry = 0;
			ret = ps->cb(&h->ev, ps->ctx);
		}
		free(h->str);
		h->str = NULL;
	}
	if (ps->q0 == ps->qn) {
		ps->q0 = ps->qn = 0;
		ps->pending_lost += carry;	/* (for the next event read) */
	} else {
		ps->q[ps->q0].ev.lost_before += carry;
	}
	return ret;
}

/* Every held event, at the end of the file or of the walk. */
static int deliver_all(struct pass *ps)
{
	for (size_t i = ps->q0; i < ps->qn; i++)
		if (ps->q[i].open)
			close_isolate(ps, &ps->q[i], NULL);
	return deliver(ps);
}

static void free_held(struct pass *ps)
{
	for (size_t i = ps->q0; i < ps->qn; i++)
		free(ps->q[i].str);
	free(ps->q);
	ps->q = NULL;
	ps->q0 = ps->qn = ps->qcap = 0;
}

/*
 * Hand @ev (decoded from line @line) over in file order, once the list of
 * every isolate before it is checked against its task's next shrink event
 * (close_isolate()).  Return 0, the callback's non-zero value, or -1 out
 * of memory.
 */
static int hand_over(struct pass *ps, const struct rr_event_desc *d, const struct rr_event *ev,
		     bool type_only, uint64_t line)
{
	struct held *h;

	if (ps->qn == ps->q0 && ev->type != RR_EV_LRU_ISOLATE)
		return ps->cb(ev, ps->ctx);
	if (ps->qn - ps->q0 >= RR_TEXT_HOLD_MAX) {	/* let the oldest go */
		close_isolate(ps, &ps->q[ps->q0], NULL);
		if (deliver(ps))
			return 1;
	}
	if (ps->qn == ps->qcap) {
		size_t cap = ps->qcap ? ps->qcap * 2 : 64;
		struct held *nq;

		if (ps->q0) {	/* room at the front first */
			memmove(ps->q, ps->q + ps->q0, (ps->qn - ps->q0) * sizeof(*ps->q));
			ps->qn -= ps->q0;
			ps->q0 = 0;
		} else if (!(nq = realloc(ps->q, cap * sizeof(*nq)))) {
			ps->oom = true;
			return -1;
		} else {
			ps->q = nq;
			ps->qcap = cap;
		}
	}
	h = &ps->q[ps->qn];
	memset(h, 0, sizeof(*h));
	h->ev = *ev;
	h->name = d->name;
	h->line = line;
	if (ev->str && ev->str_len > 0) {
		if (!(h->str = malloc((size_t)ev->str_len + 1))) {
			ps->oom = true;
			return -1;
		}
		memcpy(h->str, ev->str, (size_t)ev->str_len);
		h->str[ev->str_len] = 0;
		h->ev.str = h->str;
	}
	ps->qn++;
	/* the open isolate of the same task, if any: this event may close it */
	if (ev->type == RR_EV_SHRINK_INACTIVE || ev->type == RR_EV_SHRINK_ACTIVE ||
	    ends_batch(ev->type))
		for (size_t i = ps->q0; i + 1 < ps->qn; i++) {
			struct held *o = &ps->q[i];

			if (!o->open || o->ev.pid != ev->pid)
				continue;
			close_isolate(ps, o, ends_batch(ev->type) ? NULL : h);
			break;
		}
	if (ev->type == RR_EV_LRU_ISOLATE) {
		h->open = true;
		h->type_only = type_only;
	}
	return deliver(ps);
}

static void era_at_least(struct rr_trace_info *info, int v)
{
	if (v > info->era_lo)
		info->era_lo = v;
}

static void era_at_most(struct rr_trace_info *info, int v)
{
	if (!info->era_hi || v < info->era_hi)
		info->era_hi = v;
}

/*
 * What the print formats say about the kernel that wrote them (releases as
 * MAJOR * 100 + MINOR; decode.h and tests/fixtures/text/FORMATS.md):
 * memcg: events exist from 6.13; write_folio replaced writepage in 5.18;
 * the isolate event lost isolate_mode in 6.7 and printed file= before
 * lru= (4.11); nr_activate split into _anon/_file in 5.2.
 */
static void era_hints(struct rr_trace_info *info, const struct rr_event_desc *d,
		      const char *body)
{
	switch (d->type) {
	case RR_EV_MOD_LRUVEC:
	case RR_EV_COUNT_EVENTS:
	case RR_EV_FLUSH:
		era_at_least(info, 613);
		break;
	case RR_EV_WRITE_FOLIO:
		if (!strcmp(d->name, "mm_vmscan_write_folio"))
			era_at_least(info, 518);
		else
			era_at_most(info, 517);
		break;
	case RR_EV_LRU_ISOLATE:
		if (strstr(body, "isolate_mode="))
			era_at_most(info, 606);
		else if (strstr(body, "lru="))
			era_at_least(info, 607);
		if (strstr(body, "lru="))
			era_at_least(info, 411);
		else if (strstr(body, "file="))
			era_at_most(info, 410);
		break;
	case RR_EV_SHRINK_INACTIVE:
		if (strstr(body, "nr_activate_anon="))
			era_at_least(info, 502);
		else if (strstr(body, "nr_activate="))
			era_at_most(info, 501);
		break;
	default:
		break;
	}
}

static int one_line(struct pass *ps, char *s)
{
	struct line l;
	uint64_t lost = 0;
	const struct rr_event_desc *d;
	struct rr_event ev;
	char name[64];
	bool type_only;

	switch (classify(s, &l, &lost)) {
	case L_BLANK:
		return 0;
	case L_OTHER:
		if (!ps->info->text_other_lines++)
			snprintf(ps->info->text_first_other, sizeof(ps->info->text_first_other),
				 "line %llu: %.80s", (unsigned long long)ps->info->text_lines, s);
		return 0;
	case L_CPUS: {
		int n = cpu_number(strchr(s, '=') + 1);

		if (n > 0)
			ps->info->nr_cpus = n;
		return 0;
	}
	case L_LOST:	/* (saturating: a hostile count must not wrap) */
		ps->pending_lost = ps->pending_lost + lost < ps->pending_lost ? UINT64_MAX :
				   ps->pending_lost + lost;
		ps->info->nr_missed_events = ps->info->nr_missed_events + lost <
					     ps->info->nr_missed_events ? UINT64_MAX :
					     ps->info->nr_missed_events + lost;
		return 0;
	case L_EVENT:
		break;
	}
	ps->events++;
	if (l.has_header && l.cpu > ps->max_cpu)
		ps->max_cpu = l.cpu;
	d = rr_event_desc_find(l.event, l.event_len);
	if (!d) {
		if (ps->cb) {
			snprintf(name, sizeof(name), "%.*s", (int)l.event_len, l.event);
			rr_trace_info_count_skipped(ps->info,
						    rr_trace_info_skip_slot(ps->info, name));
		}
		return 0;
	}
	ps->info->events_known |= 1u << d->type;
	if (!ps->cb) {
		if (d->type == RR_EV_MARKER)
			rr_trace_info_meta(ps->info, l.body, strlen(l.body));
		else
			era_hints(ps->info, d, l.body);
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	/* unknown unless the line says: not 0, a real priority and zone */
	ev.order = ev.classzone = ev.priority = -1;
	ev.lru = -1;
	if (l.has_header) {
		ev.ts_ns = l.ts_ns;
		ev.pid = l.pid;
		ev.cpu = l.cpu;
		if (ev.ts_ns < ps->last_ts) {
			/* one event's time goes back: the order of a trace's lines
			 * is its time order, so something is wrong around here */
			if (!ps->info->text_backwards++)
				snprintf(ps->info->text_first_backwards,
					 sizeof(ps->info->text_first_backwards),
					 "line %llu: %llu.%06llu s after %llu.%06llu s",
					 (unsigned long long)ps->info->text_lines,
					 (unsigned long long)(ev.ts_ns / 1000000000),
					 (unsigned long long)(ev.ts_ns % 1000000000 / 1000),
					 (unsigned long long)(ps->last_ts / 1000000000),
					 (unsigned long long)(ps->last_ts % 1000000000 / 1000));
			ps->pending_lost++;
		}
	} else {
		/* bare lines: keep the order, 1 us apart */
		ps->info->timestamps_synthetic = true;
		ev.ts_ns = ps->last_ts + 1000;
	}
	if (ev.ts_ns > ps->last_ts)
		ps->last_ts = ev.ts_ns;
	ps->why[0] = 0;
	if (l.has_header && l.cpu < 0)
		count_problem(ps, d->name, "cpu", RR_FP_OUT_OF_RANGE);
	if ((l.has_header && l.cpu < 0) || !decode(ps, d, &l, &ev, &type_only)) {
		/* dropped: for the episodes around it, like a lost event */
		char what[240];

		snprintf(what, sizeof(what), "%s (%.*s: %.60s)", ps->why, (int)l.event_len,
			 l.event, l.body);
		note_malformed(ps, ps->info->text_lines, what);
		ps->pending_lost++;
		return 0;
	}
	ev.lost_before = ps->pending_lost;
	ps->pending_lost = 0;
	return hand_over(ps, d, &ev, type_only, ps->info->text_lines);
}

/* The longest line read whole: no trace line comes near (a marker is at
 * most 4 KiB); a longer one is skipped as not understood, so that a file of
 * one endless line cannot take the memory. */
#define RR_TEXT_MAX_LINE_BYTES (1u << 20)

/* Lines out of a block of the file: no copy, no call per byte. */
struct lines_in {
	FILE *fp;
	char *blk;		/* RR_TEXT_MAX_LINE_BYTES + a read's worth + 1 */
	size_t len, pos;	/* bytes in blk; the next line's start */
	bool eof;
	uint64_t consumed;	/* bytes of the file handed out or skipped */
};

#define LINES_READ (256u << 10)

/*
 * The next line, with its newline, NUL-terminated in the block (valid
 * until the next call): its length, 0 at the end of the file, -1 on
 * ENOMEM or a read error (ferror()).  A line longer than
 * RR_TEXT_MAX_LINE_BYTES is consumed whole; *@too_long is set and its
 * start is returned.
 */
static ssize_t read_line(struct lines_in *in, char **line, bool *too_long)
{
	bool skipping = false;

	*too_long = false;
	if (!in->blk && !(in->blk = malloc(RR_TEXT_MAX_LINE_BYTES + LINES_READ + 1)))
		return -1;
	for (;;) {
		char *nl = memchr(in->blk + in->pos, '\n', in->len - in->pos);
		size_t got;

		if (nl || (in->eof && in->pos < in->len)) {
			size_t end = nl ? (size_t)(nl - in->blk) + 1 : in->len;
			ssize_t n = (ssize_t)(end - in->pos);

			if (skipping) {		/* the rest of a long line */
				in->consumed += (uint64_t)n;
				in->pos = end;
				*too_long = true;
				*line = in->blk;
				in->blk[0] = 0;
				return 1;
			}
			*line = in->blk + in->pos;
			in->consumed += (uint64_t)n;
			in->pos = end;
			return n;
		}
		if (in->eof)
			return 0;
		if (in->len - in->pos >= RR_TEXT_MAX_LINE_BYTES) {
			in->consumed += in->len - in->pos;	/* drop it, find its end */
			in->pos = in->len = 0;
			skipping = true;
		}
		memmove(in->blk, in->blk + in->pos, in->len - in->pos);
		in->len -= in->pos;
		in->pos = 0;
		got = fread(in->blk + in->len, 1, LINES_READ, in->fp);
		in->len += got;
		in->blk[in->len] = 0;
		if (got < LINES_READ) {
			if (ferror(in->fp))
				return -1;
			in->eof = true;
		}
	}
}

static int run(const char *path, struct pass *ps, struct rr_error *err)
{
	FILE *fp = fopen(path, "r");
	struct lines_in in = { .fp = fp };
	char *buf;
	ssize_t n;
	bool too_long;
	int ret = 0;

	if (!fp) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	{
		struct stat st;

		ps->info->file_bytes = !fstat(fileno(fp), &st) ? (uint64_t)st.st_size : 0;
	}
	ps->info->text_lines = 0;
	ps->info->text_other_lines = 0;
	ps->info->text_backwards = 0;
	ps->info->malformed_events = 0;
	ps->info->nr_missed_events = 0;
	rr_trace_info_progress(ps->info, 0);
	while ((n = read_line(&in, &buf, &too_long)) > 0) {
		rr_trace_info_progress(ps->info, in.consumed);
		if (too_long) {
			ps->info->text_lines++;
			if (!ps->info->text_other_lines++)
				snprintf(ps->info->text_first_other,
					 sizeof(ps->info->text_first_other),
					 "line %llu: longer than 1 MiB",
					 (unsigned long long)ps->info->text_lines);
			continue;
		}
		if (memchr(buf, 0, (size_t)n)) {
			rr_error_set(err, path,
				     "not a trace: neither a trace.dat (no trace-cmd magic) "
				     "nor a text trace (binary data on line %llu)",
				     (unsigned long long)ps->info->text_lines + 1);
			ret = -1;
			break;
		}
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = 0;
		for (ssize_t i = 0; i < n; i++)	/* columns may be tab-separated */
			if (buf[i] == '\t' || buf[i] == '\r')
				buf[i] = ' ';
		ps->info->text_lines++;
		if (ps->info->text_lines == 1 && n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
			memmove(buf, buf + 3, (size_t)n - 2);	/* a UTF-8 byte-order mark */
		ret = one_line(ps, buf);
		if (ret)
			break;
	}
	if (ps->cb && !ret && !ps->oom)	/* the events held back */
		ret = deliver_all(ps);
	if (ps->oom) {
		rr_error_set(err, path, "out of memory");
		ret = -1;
	}
	free_held(ps);
	if (!ret && ferror(fp)) {
		rr_error_set(err, path, "read error: %s", strerror(errno));
		ret = -1;
	} else if (!ret && n < 0) {
		rr_error_set(err, path, "out of memory");
		ret = -1;
	}
	free(in.blk);
	fclose(fp);
	return ret;
}

struct rr_text *rr_text_open(const char *path, struct rr_trace_info *info,
			     struct rr_error *err)
{
	struct pass ps = { .info = info, .max_cpu = -1 };
	struct rr_text *tx;

	if (run(path, &ps, err))
		return NULL;
	if (!info->text_lines) {
		rr_error_set(err, path, "not a trace: empty");
		return NULL;
	}
	if (!ps.events && !info->text_other_lines) {
		rr_error_set(err, path, "holds no trace events: only comment and blank lines "
			     "(a paste of an empty buffer? enable the vmscan events while "
			     "tracing, or use reclaim-replay record)");
		return NULL;
	}
	if (!ps.events) {
		rr_error_set(err, path,
			     "not a trace: neither a trace.dat (no trace-cmd magic) nor text "
			     "trace lines (\"task-pid [cpu] seconds: event: field=value ...\" "
			     "or \"mm_vmscan_...: field=value ...\")");
		return NULL;
	}
	if (!(info->events_known & RR_EV_RECLAIM_MASK)) {
		rr_error_set(err, path,
			     "holds no vmscan or memcg events (record with -e vmscan -e memcg -e cgroup)");
		return NULL;
	}
	if (!info->nr_cpus)
		info->nr_cpus = ps.max_cpu + 1;
	info->nr_buffers = 1;
	if (info->page_size_bytes <= 0)
		info->page_size_assumed = true;
	tx = calloc(1, sizeof(*tx));
	if (!tx || !(tx->path = strdup(path))) {
		free(tx);
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	return tx;
}

int rr_text_for_each(struct rr_text *tx, struct rr_trace_info *info,
		     rr_event_cb cb, void *ctx, struct rr_error *err)
{
	struct pass ps = { .info = info, .cb = cb, .ctx = ctx, .max_cpu = -1 };
	int ret = run(tx->path, &ps, err);

	if (ret < 0 && err && tx->name)
		snprintf(err->file, sizeof(err->file), "%s", tx->name);
	return ret;
}

void rr_text_set_name(struct rr_text *tx, const char *name)
{
	free(tx->name);
	tx->name = strdup(name);
}

void rr_text_close(struct rr_text *tx)
{
	if (!tx)
		return;
	free(tx->path);
	free(tx->name);
	free(tx);
}
