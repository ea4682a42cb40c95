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
#include "text-local.h"
#include "../common/probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct rr_text {
	char *path;
	char *name;		/* for messages; NULL: path */
};

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
			rr_text_count_problem(ps, h->name, "file", RR_FP_LIST_UNKNOWN);
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
		rr_text_count_problem(ps, h->name, h->type_only ? "file" : "lru",
				      RR_FP_FLAGS_MISMATCH);
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
		free(h->probe);
		h->probe = NULL;
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
	for (size_t i = ps->q0; i < ps->qn; i++) {
		free(ps->q[i].str);
		free(ps->q[i].probe);
	}
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
	if (ev->probe) {	/* (ps->probe is the next line's) */
		if (!(h->probe = malloc(sizeof(*h->probe)))) {
			ps->oom = true;
			return -1;
		}
		*h->probe = *ev->probe;
		h->ev.probe = h->probe;
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
	bool type_only, probe;

	switch (rr_text_classify(s, &l, &lost)) {
	case L_BLANK:
		return 0;
	case L_OTHER:
		if (!ps->info->text_other_lines++)
			snprintf(ps->info->text_first_other, sizeof(ps->info->text_first_other),
				 "line %llu: %.80s", (unsigned long long)ps->info->text_lines, s);
		return 0;
	case L_CPUS: {
		int n = rr_text_cpu_number(strchr(s, '=') + 1);

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
	probe = !d && (d = rr_text_probe_desc(l.event, l.event_len, l.body,
					      ps->info->text_probes_announced)) != NULL;
	if (!d) {
		if (ps->cb) {
			snprintf(name, sizeof(name), "%.*s", (int)l.event_len, l.event);
			rr_trace_info_count_skipped(ps->info,
						    rr_trace_info_skip_slot(ps->info, name));
		}
		return 0;
	}
	if (probe && !ps->info->text_probes_announced) {
		/* a kprobe of that name, not the recorder's: not ours to read */
		if (ps->cb) {
			snprintf(name, sizeof(name), "%.*s", (int)l.event_len, l.event);
			rr_trace_info_count_skipped(ps->info,
						    rr_trace_info_skip_slot(ps->info, name));
		}
		return 0;
	}
	ps->info->events_known |= 1u << d->type;
	if (!ps->cb) {
		if (d->type == RR_EV_MARKER && strstr(l.body, "events enabled=") &&
		    strstr(l.body, RR_PROBE_GROUP_PREFIX))
			ps->info->text_probes_announced = true;
		if (d->type == RR_EV_MARKER) {
			rr_trace_info_meta(ps->info, l.body, strlen(l.body));
		} else if (d->type == RR_EV_LRUVEC_PROBE) {
			int n = rr_text_count_kv(l.body);

			if (n > ps->info->text_probe_keys)
				ps->info->text_probe_keys = n;
		} else {
			era_hints(ps->info, d, l.body);
		}
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
		rr_text_count_problem(ps, d->name, "cpu", RR_FP_OUT_OF_RANGE);
	type_only = false;
	if ((l.has_header && l.cpu < 0) ||
	    !(probe ? rr_text_decode_probe(ps, d, &l, &ev) : rr_text_decode(ps, d, &l, &ev, &type_only))) {
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
