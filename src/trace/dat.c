// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader on libtracecmd: the trace.dat front end (dat.h).
 *
 * Design: the file is opened once; every buffer in it (the top-level buffer
 * and each instance, which is where a private tracefs instance lands after
 * `trace-cmd extract -B`) is iterated together by
 * tracecmd_iterate_events_multi(), which merges them by timestamp.  Field
 * offsets are resolved once per (tep, event id) into a small decoder table;
 * per record the reader only reads numbers at known offsets.  Unknown
 * events are skipped without decoding.
 */
#include "dat.h"
#include "dat-local.h"
#include "decode.h"
#include "pipe.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-utils.h>

/* One numeric field of an event, where the record holds it. */
struct slot {
	uint8_t field;			/* enum rr_field */
	uint8_t size;			/* 1, 2, 4 or 8 bytes */
	bool is_signed;
	uint16_t offset;
};

/* Where the fields of the recorder's shrink_lruvec() probe are (the probe's
 * fields depend on the kernel it ran on: each is looked up by name). */
struct probe_slots {
	struct slot v[RR_PF__COUNT];
	bool has_v[RR_PF__COUNT];
	struct slot zone[RR_PROBE_MAX_ZONES][RR_NR_EVICTABLE_LRU];
	int nr_zones;
	struct slot rs[RR_NR_EVICTABLE_LRU];
	bool has_rs;
};

/* How to decode one event type of one buffer: resolved once, by id. */
struct decoder {
	enum rr_event_type type;	/* RR_EV_NONE: counted as skipped */
	struct tep_event *event;
	struct tep_format_field *str;	/* the string field, or NULL */
	int skip_slot;			/* RR_EV_NONE: slot in info.skipped */
	bool skip_slot_known;		/* (trace->invalid_id: resolved once) */
	bool no_format;			/* an id no format of the file defines */
	int nr_slots;
	struct slot slot[F__COUNT];
	struct probe_slots *probe;	/* RR_EV_LRUVEC_PROBE */
};

/* The decoders of one buffer (its tep), indexed by event id. */
struct buffer {
	struct tep_handle *tep;
	bool swap;			/* the file's byte order is not ours */
	/* common_type and common_pid, the same in every event of the buffer */
	struct slot type, pid;
	bool common_ok;			/* else ask libtraceevent per record */
	struct decoder **by_id;
	int nr_ids;
	/* the file offsets of the first and the last record read of each
	 * CPU in this walk (0: none yet): progress (see walked()) */
	uint64_t *first_offset, *last_offset;
	int nr_cpus;
	/* per CPU: the timestamp of its last record as the probe read it
	 * (RR_END_NONE: no data, RR_END_UNREADABLE: its last page cannot
	 * be read), and of the last record this walk read (0: none yet) */
	uint64_t *end_ts, *seen_ts;
	const char *name;		/* "" for the top buffer */
};

struct rr_dat {
	struct tracecmd_input *handle;
	struct tracecmd_input **handles;
	struct buffer *buffers;		/* one per handle */
	int nr_handles;
	struct rr_trace_info *info;	/* what the open, and each walk, fill */
	/* iteration state */
	rr_event_cb cb;
	void *ctx;
	int cb_ret;
	uint64_t pending_lost;
	bool threaded;			/* read on a thread of its own */
	uint64_t records;		/* records read by this walk */
	struct decoder invalid_id;	/* of every id no format can have */
	/* the probe's per-CPU ends (see struct buffer), in handle order */
	uint64_t *probe_ends;
	int nr_probe_ends;
	/* events up to this time are flagged as around lost ones: a CPU's
	 * records stopped before its last one (damaged data) */
	uint64_t damage_until_ns;
	unsigned long refused_seen;	/* rr_page_layout.refused at the last record */
	struct rr_lruvec_probe probe;	/* the probe record being handed over */
};

/* The first of the "a|b" names @names that @ev has. */
static struct tep_format_field *find_field(struct tep_event *ev, const char *names)
{
	char name[64];

	while (*names) {
		size_t n = strcspn(names, "|");
		struct tep_format_field *f;

		if (n < sizeof(name)) {
			memcpy(name, names, n);
			name[n] = 0;
			f = tep_find_field(ev, name);
			if (f)
				return f;
		}
		names += n + (names[n] == '|');
	}
	return NULL;
}

/* The decoder slot of @id (0..65535: callers check) in @b, growing the
 * table; NULL on ENOMEM. */
static struct decoder **decoder_slot(struct buffer *b, int id)
{
	if (id < 0 || id > 65535)
		return NULL;
	if (id >= b->nr_ids) {
		int n = id + 64;
		struct decoder **t = realloc(b->by_id, (size_t)n * sizeof(*t));

		if (!t)
			return NULL;
		memset(t + b->nr_ids, 0, (size_t)(n - b->nr_ids) * sizeof(*t));
		b->by_id = t;
		b->nr_ids = n;
	}
	return &b->by_id[id];
}

/* Where each field of @d is, looked up by name once per event type. */
static void add_slots(struct decoder *d, const struct rr_event_desc *desc)
{
	/* `lru` (v4.11+) replaced the isolate event's `file` flag */
	bool has_lru = desc->fields[F_LRU] && find_field(d->event, desc->fields[F_LRU]);

	for (int f = 0; f < F__COUNT; f++) {
		struct tep_format_field *tf;

		if (!desc->fields[f] || (f == F_FILE && has_lru))
			continue;
		tf = find_field(d->event, desc->fields[f]);
		if (!tf)
			continue;	/* missing fields read 0 */
		if (f == F_STR) {
			d->str = tf;
			continue;
		}
		if ((tf->size != 1 && tf->size != 2 && tf->size != 4 && tf->size != 8) ||
		    tf->offset < 0 || tf->offset > 65535 ||
		    (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			continue;	/* not a number */
		d->slot[d->nr_slots++] = (struct slot){
			.field = (uint8_t)f, .size = (uint8_t)tf->size,
			.is_signed = (tf->flags & TEP_FIELD_IS_SIGNED) != 0,
			.offset = (uint16_t)tf->offset,
		};
	}
}

/* A numeric field @name of @ev as a slot; false if it has none. */
static bool num_slot(struct tep_event *ev, const char *name, struct slot *sl)
{
	struct tep_format_field *tf = tep_find_field(ev, name);

	if (!tf || (tf->size != 1 && tf->size != 2 && tf->size != 4 && tf->size != 8) ||
	    tf->offset < 0 || tf->offset > 65535 ||
	    (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	*sl = (struct slot){ .size = (uint8_t)tf->size,
			     .is_signed = (tf->flags & TEP_FIELD_IS_SIGNED) != 0,
			     .offset = (uint16_t)tf->offset };
	return true;
}

/* The fields of a shrink_lruvec() probe event; NULL on ENOMEM. */
static struct probe_slots *probe_slots(struct tep_event *ev)
{
	struct probe_slots *ps = calloc(1, sizeof(*ps));
	char name[32];

	if (!ps)
		return NULL;
	for (int f = 0; f < RR_PF__COUNT; f++)
		ps->has_v[f] = num_slot(ev, rr_probe_field_name(f), &ps->v[f]);
	for (int z = 0; z < RR_PROBE_MAX_ZONES; z++) {
		bool all = true;

		for (int l = 0; l < RR_NR_EVICTABLE_LRU && all; l++) {
			snprintf(name, sizeof(name), "z%d_%s", z, rr_probe_lru_names[l]);
			all = num_slot(ev, name, &ps->zone[z][l]);
		}
		if (!all)
			break;
		ps->nr_zones = z + 1;
	}
	ps->has_rs = true;
	for (int l = 0; l < RR_NR_EVICTABLE_LRU && ps->has_rs; l++) {
		snprintf(name, sizeof(name), "rs_%s", rr_probe_lru_names[l]);
		ps->has_rs = num_slot(ev, name, &ps->rs[l]);
	}
	return ps;
}

/* Where every record of @b holds its type and pid. */
static void common_slots(struct buffer *b)
{
	struct tep_event *ev = tep_get_first_event(b->tep);
	struct tep_format_field *type = ev ? tep_find_common_field(ev, "common_type") : NULL;
	struct tep_format_field *pid = ev ? tep_find_common_field(ev, "common_pid") : NULL;

	b->common_ok = type && pid && (type->size == 1 || type->size == 2 || type->size == 4) &&
		       pid->size == 4 && type->offset >= 0 && type->offset < 256 &&
		       pid->offset >= 0 && pid->offset < 256;
	if (!b->common_ok)
		return;
	b->type = (struct slot){ .size = (uint8_t)type->size, .offset = (uint16_t)type->offset };
	b->pid = (struct slot){ .size = 4, .is_signed = true, .offset = (uint16_t)pid->offset };
}

/* Build decoders for every known event present in buffer @b. */
static int add_decoders(struct rr_dat *t, struct buffer *b)
{
	common_slots(b);
	for (size_t i = 0; i < rr_nr_known_events; i++) {
		const struct rr_event_desc *desc = &rr_known_events[i];
		struct tep_event *ev = tep_find_event_by_name(b->tep, desc->system, desc->name);
		struct decoder **slot, *d;

		if (!ev || ev->id < 0 || ev->id > 65535)
			continue;	/* (an id a decoder table cannot hold) */
		slot = decoder_slot(b, ev->id);
		if (!slot)
			return -1;
		if (*slot)
			continue;
		d = calloc(1, sizeof(*d));
		if (!d)
			return -1;
		d->type = desc->type;
		d->event = ev;
		add_slots(d, desc);
		*slot = d;
		t->info->events_known |= 1u << desc->type;
	}
	/* the recorder's probes: reclaim_replay_PID:shrink_lruvec and its
	 * companions, whatever the recorder's pid was */
	{
		struct tep_event **evs = tep_list_events(b->tep, TEP_EVENT_SORT_ID);

		for (int i = 0; evs && evs[i]; i++) {
			struct tep_event *ev = evs[i];
			const struct rr_event_desc *pd;
			struct decoder **slot, *d;

			if (!ev->name || !ev->system ||
			    strncmp(ev->system, RR_PROBE_GROUP_PREFIX,
				    strlen(RR_PROBE_GROUP_PREFIX)) ||
			    ev->id < 0 || ev->id > 65535 ||
			    !(pd = rr_probe_desc_find(ev->name, strlen(ev->name))))
				continue;
			slot = decoder_slot(b, ev->id);
			if (!slot)
				return -1;
			if (*slot)
				continue;
			d = calloc(1, sizeof(*d));
			if (!d)
				return -1;
			d->event = ev;
			d->type = pd->type;
			if (pd->type != RR_EV_LRUVEC_PROBE) {
				add_slots(d, pd);
			} else {
				if (!(d->probe = probe_slots(ev))) {
					free(d);
					return -1;
				}
				/* without its memcg and priority it places nothing */
				if (!d->probe->has_v[RR_PF_CGROUP_ID] ||
				    !d->probe->has_v[RR_PF_PRIORITY] || !d->probe->nr_zones) {
					free(d->probe);
					free(d);
					continue;
				}
			}
			*slot = d;
			t->info->events_known |= 1u << d->type;
		}
	}
	return 0;
}

/* The number in @slot of a record of @size bytes; 0 if it is cut short. */
static uint64_t num(const struct slot *sl, const unsigned char *data, int size, bool swap)
{
	const unsigned char *p = data + sl->offset;
	uint64_t v;

	if (sl->offset + sl->size > size)
		return 0;
	switch (sl->size) {
	case 1:
		v = *p;
		return sl->is_signed ? (uint64_t)(int64_t)(int8_t)v : v;
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		if (swap)
			x = __builtin_bswap16(x);
		return sl->is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		if (swap)
			x = __builtin_bswap32(x);
		return sl->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
	}
	default:
		memcpy(&v, p, 8);
		return swap ? __builtin_bswap64(v) : v;
	}
}

/*
 * One shrink_lruvec() probe record into @p: every value range-checked (a
 * damaged or crafted file); -1 with the first bad field's name and value.
 */
static int rr_decode_probe(const struct probe_slots *ps, const unsigned char *data, int size,
			   bool swap, struct rr_lruvec_probe *p, const char **bad, uint64_t *badv)
{
	memset(p, 0, sizeof(*p));
	for (int f = 0; f < RR_PF__COUNT; f++) {
		if (!ps->has_v[f])
			continue;
		p->v[f] = num(&ps->v[f], data, size, swap);
		p->present |= 1ull << f;
	}
	p->nr_zones = ps->nr_zones;
	for (int z = 0; z < ps->nr_zones; z++)
		for (int l = 0; l < RR_NR_EVICTABLE_LRU; l++)
			p->zone_lru[z][l] = num(&ps->zone[z][l], data, size, swap);
	p->has_rstat = ps->has_rs;
	for (int l = 0; ps->has_rs && l < RR_NR_EVICTABLE_LRU; l++) {
		int64_t v = (int64_t)num(&ps->rs[l], data, size, swap);

		/* (a per-CPU delta not yet flushed can leave the view a little
		 * below 0 for a moment: 0) */
		p->rstat_lru[l] = v > 0 ? (uint64_t)v : 0;
	}
	return rr_probe_check(p, bad, badv);
}

/* A decoder for an event the replay does not use: its name is counted.
 * An id no format can have shares one decoder (counted as "(unknown id)");
 * NULL on ENOMEM. */
static struct decoder *unknown_event(struct rr_dat *t, struct buffer *b, int id)
{
	struct decoder **slot, *d;
	struct tep_event *e;

	if (id < 0 || id > 65535) {
		if (!t->invalid_id.skip_slot_known) {
			t->invalid_id.type = RR_EV_NONE;
			t->invalid_id.skip_slot = rr_trace_info_skip_slot(t->info, "(unknown id)");
			t->invalid_id.skip_slot_known = true;
			t->invalid_id.no_format = true;
		}
		return &t->invalid_id;
	}
	slot = decoder_slot(b, id);
	d = slot ? calloc(1, sizeof(*d)) : NULL;
	if (!d)
		return NULL;
	e = tep_find_event(b->tep, id);
	d->type = RR_EV_NONE;
	d->skip_slot = rr_trace_info_skip_slot(t->info, e ? e->name : "(unknown id)");
	d->no_format = !e;
	*slot = d;
	return d;
}

/*
 * How far the walk is, for rr_trace_progress().  A trace.dat keeps each
 * CPU's records in a section of its own and the walk takes them in time
 * order, so a record's file offset says nothing of the whole: count instead
 * the bytes between the first and the last record read of each CPU, plus
 * what lies before the first data (the headers, read at open).  Summed
 * every 1024 records; never backwards (a CPU whose section comes first in
 * the file may show its first record late).
 */
static void publish_walked(struct rr_dat *t)
{
	uint64_t first = UINT64_MAX, walked = 0;

	for (int i = 0; i < t->nr_handles; i++) {
		const struct buffer *b = &t->buffers[i];

		for (int c = 0; c < b->nr_cpus; c++) {
			if (!b->first_offset[c])
				continue;
			walked += b->last_offset[c] - b->first_offset[c];
			if (b->first_offset[c] < first)
				first = b->first_offset[c];
		}
	}
	if (walked && first + walked > t->info->bytes_read)
		rr_trace_info_progress(t->info, first + walked);
}

/* (per record: two stores, and the sum every 1024) */
static inline void walked(struct rr_dat *t, struct buffer *b, int cpu, uint64_t offset)
{
	if (!t->info->file_bytes || cpu < 0 || cpu >= b->nr_cpus)
		return;		/* (compressed data: not told) */
	if (!b->first_offset[cpu])
		b->first_offset[cpu] = offset;
	b->last_offset[cpu] = offset;
	if (!(++t->records & 1023))
		publish_walked(t);
}

/*
 * Drop a record whose field @field holds @v, a value no kernel writes there
 * (a damaged or crafted file): count it, keep the first for the warning,
 * and flag the episodes around it as for a lost event.
 */
static void malformed(struct rr_dat *t, const struct decoder *dec,
		      const struct tep_record *rec, const char *field, uint64_t v,
		      enum rr_field_problem why)
{
	rr_trace_info_field_problem(t->info, dec->event->name, field, why);
	if (!t->info->malformed_events++)
		snprintf(t->info->first_malformed, sizeof(t->info->first_malformed),
			 "%s at %llu.%06llu s (CPU %d): %s = %lld", dec->event->name,
			 (unsigned long long)(rec->ts / 1000000000),
			 (unsigned long long)(rec->ts % 1000000000 / 1000), rec->cpu, field,
			 (long long)v);
	t->pending_lost++;
}

/* @cpu_of_all counts the CPUs of every buffer before this one: the record's
 * own CPU is rec->cpu */
static int record_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu_of_all,
		     void *data)
{
	struct rr_dat *t = data;
	struct buffer *b = tracecmd_get_private(h);
	int id = b->common_ok ? (int)num(&b->type, rec->data, rec->size, b->swap) :
		 tep_data_type(b->tep, rec);
	struct decoder *dec = id >= 0 && id < b->nr_ids ? b->by_id[id] : NULL;
	struct rr_event ev;

	(void)cpu_of_all;

	walked(t, b, rec->cpu, rec->offset);
	if (rec->cpu >= 0 && rec->cpu < b->nr_cpus) {
		if (rec->ts < b->seen_ts[rec->cpu]) {	/* one CPU's data is in time order */
			if (!t->info->backwards_records++)
				snprintf(t->info->first_backwards, sizeof(t->info->first_backwards),
					 "CPU %d%s%s: %llu.%06llu s after %llu.%06llu s", rec->cpu,
					 *b->name ? " of buffer " : "", b->name,
					 (unsigned long long)(rec->ts / 1000000000),
					 (unsigned long long)(rec->ts % 1000000000 / 1000),
					 (unsigned long long)(b->seen_ts[rec->cpu] / 1000000000),
					 (unsigned long long)(b->seen_ts[rec->cpu] % 1000000000 / 1000));
			t->pending_lost++;
		}
		b->seen_ts[rec->cpu] = rec->ts;
	}
	if (t->damage_until_ns && rec->ts <= t->damage_until_ns)
		t->pending_lost++;	/* (a CPU's records in this window are missing) */
	if (__atomic_load_n(&rr_page_layout.refused, __ATOMIC_RELAXED) != t->refused_seen) {
		/* a page was refused since the last record: events are missing */
		t->refused_seen = __atomic_load_n(&rr_page_layout.refused, __ATOMIC_RELAXED);
		t->pending_lost++;
	}
	if (rec->missed_events > 0) {
		t->info->nr_missed_events += (uint64_t)rec->missed_events;
		t->pending_lost += (uint64_t)rec->missed_events;
	}
	if (!dec && !(dec = unknown_event(t, b, id))) {
		t->cb_ret = RR_TRACE_OOM;
		return -1;
	}
	if (dec->type == RR_EV_NONE) {
		rr_trace_info_count_skipped(t->info, dec->skip_slot);
		/* a damaged record, or an event someone else enabled that the
		 * file keeps no format of (trace-cmd record saves only the
		 * formats of the events it was asked for): said, not flagged */
		if (dec->no_format && !t->info->no_format_records++)
			snprintf(t->info->first_no_format, sizeof(t->info->first_no_format),
				 "id %d at %llu.%06llu s (CPU %d)", id,
				 (unsigned long long)(rec->ts / 1000000000),
				 (unsigned long long)(rec->ts % 1000000000 / 1000), rec->cpu);
		return 0;
	}

	memset(&ev, 0, sizeof(ev));
	ev.order = ev.classzone = -1;
	ev.type = dec->type;
	ev.ts_ns = rec->ts;
	ev.cpu = rec->cpu;
	ev.pid = b->common_ok ? (int)num(&b->pid, rec->data, rec->size, b->swap) :
		 tep_data_pid(b->tep, rec);
	if (ev.pid < 0) {
		malformed(t, dec, rec, "common_pid", (uint64_t)(int64_t)ev.pid,
			  RR_FP_OUT_OF_RANGE);
		return 0;
	}
	if (dec->probe) {
		const char *bad = NULL;
		uint64_t badv = 0;

		if (rr_decode_probe(dec->probe, rec->data, rec->size, b->swap, &t->probe, &bad,
				    &badv)) {
			malformed(t, dec, rec, bad, badv, RR_FP_OUT_OF_RANGE);
			return 0;
		}
		ev.probe = &t->probe;
	}
	for (int i = 0; i < dec->nr_slots; i++) {
		enum rr_field f = (enum rr_field)dec->slot[i].field;
		uint64_t v = num(&dec->slot[i], rec->data, rec->size, b->swap);

		if (!rr_field_in_range(f, v)) {
			malformed(t, dec, rec, rr_field_name(f), v,
				  rr_field_is_sentinel(f, v) ? RR_FP_SENTINEL : RR_FP_OUT_OF_RANGE);
			return 0;
		}
		rr_event_set_field(&ev, f, v);
	}
	ev.lost_before = t->pending_lost;	/* also losses before skipped records */
	t->pending_lost = 0;
	if (dec->str) {
		int len = 0;
		const char *s = tep_get_field_raw(NULL, dec->event, dec->str->name, rec, &len, 0);

		/* ftrace:print's "char buf[]" runs to the end of the record */
		if (s && len <= 0 && (dec->str->flags & TEP_FIELD_IS_ARRAY))
			len = rec->size - dec->str->offset;

		if (s && len > 0) {
			/* stop at the first NUL; strip a trailing newline */
			int n = (int)strnlen(s, (size_t)len);

			while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
				n--;
			ev.str = s;
			ev.str_len = n;
		}
	}
	t->cb_ret = t->cb(&ev, t->ctx);
	return t->cb_ret;
}

/*
 * CPU @cpu of buffer @b has no record left.  If the probe saw a later last
 * record (or could not read its last page), the data between is damaged:
 * note it, and flag every event up to that last record's time as one around
 * lost events (the kernel wrote records there that cannot be read).
 */
static void cpu_done(struct rr_dat *t, struct buffer *b, int cpu)
{
	uint64_t end = b->end_ts[cpu], seen = b->seen_ts[cpu];
	struct rr_trace_info *info = t->info;

	if (end == RR_END_NONE || (end != RR_END_UNREADABLE && seen >= end))
		return;
	if (!info->damaged_cpus++) {
		if (end == RR_END_UNREADABLE)
			snprintf(info->first_damage, sizeof(info->first_damage),
				 "CPU %d%s%s: its last page cannot be read; its records stop at "
				 "%llu.%06llu s", cpu, *b->name ? " of buffer " : "", b->name,
				 (unsigned long long)(seen / 1000000000),
				 (unsigned long long)(seen % 1000000000 / 1000));
		else
			snprintf(info->first_damage, sizeof(info->first_damage),
				 "CPU %d%s%s: its records stop at %llu.%06llu s, but its last "
				 "record is at %llu.%06llu s", cpu, *b->name ? " of buffer " : "",
				 b->name, (unsigned long long)(seen / 1000000000),
				 (unsigned long long)(seen % 1000000000 / 1000),
				 (unsigned long long)(end / 1000000000),
				 (unsigned long long)(end % 1000000000 / 1000));
	}
	if (!info->damage_from_ns || (seen ? seen : 1) < info->damage_from_ns)
		info->damage_from_ns = seen ? seen : 1;
	if (end != RR_END_NONE && end > t->damage_until_ns)
		t->damage_until_ns = end;
	if (seen)
		info->damaged_cpus_read++;
	t->pending_lost++;
}

/*
 * Every CPU of every buffer merged by time, as tracecmd_iterate_events_multi()
 * does, but knowing when a CPU runs out (cpu_done()).  Return the callback's
 * non-zero value, or 0 at the end.
 */
static int merge_walk(struct rr_dat *t)
{
	int nr = 0, ret = 0;
	struct tep_record **next;
	int *hi, *cpu;

	for (int i = 0; i < t->nr_handles; i++)
		nr += t->buffers[i].nr_cpus;
	next = calloc((size_t)nr + 1, sizeof(*next));
	hi = calloc((size_t)nr + 1, sizeof(*hi));
	cpu = calloc((size_t)nr + 1, sizeof(*cpu));
	if (!next || !hi || !cpu) {
		free(next);
		free(hi);
		free(cpu);
		return RR_TRACE_OOM;
	}
	nr = 0;
	for (int i = 0; i < t->nr_handles; i++)
		for (int c = 0; c < t->buffers[i].nr_cpus; c++, nr++) {
			hi[nr] = i;
			cpu[nr] = c;
			next[nr] = tracecmd_peek_data(t->handles[i], c);
			if (!next[nr])
				cpu_done(t, &t->buffers[i], c);
		}
	for (;;) {
		struct tep_record *rec;
		int best = -1;

		for (int k = 0; k < nr; k++)
			if (next[k] && (best < 0 || next[k]->ts < next[best]->ts))
				best = k;
		if (best < 0)
			break;
		rec = tracecmd_read_data(t->handles[hi[best]], cpu[best]);
		if (!rec) {	/* (peeked, so readable: never) */
			next[best] = NULL;
			continue;
		}
		ret = record_cb(t->handles[hi[best]], rec, best, t);
		tracecmd_free_record(rec);
		if (ret)
			break;
		next[best] = tracecmd_peek_data(t->handles[hi[best]], cpu[best]);
		if (!next[best])
			cpu_done(t, &t->buffers[hi[best]], cpu[best]);
	}
	free(next);
	free(hi);
	free(cpu);
	return ret;
}

/* Walk every buffer in time order on this thread. */
static int iterate(struct rr_dat *trace, rr_event_cb cb, void *ctx)
{
	int ret;

	trace->cb = cb;
	trace->ctx = ctx;
	trace->cb_ret = 0;
	trace->records = 0;
	for (int i = 0; i < trace->nr_handles; i++) {
		struct buffer *b = &trace->buffers[i];

		memset(b->first_offset, 0, (size_t)b->nr_cpus * sizeof(*b->first_offset));
		memset(b->last_offset, 0, (size_t)b->nr_cpus * sizeof(*b->last_offset));
		memset(b->seen_ts, 0, (size_t)b->nr_cpus * sizeof(*b->seen_ts));
	}
	trace->damage_until_ns = 0;
	/* (the counters count from the open: it loads each CPU's first page) */
	trace->refused_seen = 0;
	trace->info->damaged_cpus = 0;
	trace->info->damaged_cpus_read = 0;
	trace->info->damage_from_ns = 0;
	trace->info->backwards_records = 0;
	rr_trace_info_progress(trace->info, 0);
	/* tracecmd_open() and tracecmd_buffer_instance_handle() already
	 * loaded the data sections */
	ret = merge_walk(trace);
	trace->info->odd_pages = __atomic_load_n(&rr_page_layout.odd_pages, __ATOMIC_RELAXED);
	trace->info->first_odd_page_ns = rr_page_layout.first_odd_ts;
	trace->info->bad_pages = __atomic_load_n(&rr_page_layout.bad_pages, __ATOMIC_RELAXED);
	trace->info->first_bad_page_ns = rr_page_layout.first_bad_ts;
	publish_walked(trace);
	if (trace->cb_ret)
		return trace->cb_ret;
	return ret < 0 ? RR_TRACE_READ_ERROR : 0;
}

struct reading {
	struct rr_dat *trace;
	struct rr_pipe *pipe;
};

static int put(const struct rr_event *ev, void *ctx)
{
	return rr_pipe_put(ctx, ev);
}

static void *reading_thread(void *arg)
{
	struct reading *rd = arg;
	int ret = iterate(rd->trace, put, rd->pipe);

	/* (a failed put means the consumer stopped: it keeps its own value) */
	rr_pipe_close(rd->pipe, ret);
	return NULL;
}

/*
 * The walk with libtracecmd on a thread of its own, the callback on this
 * one: a trace is read at the speed of the slower of the two instead of
 * their sum.  Falls back to one thread if none can be made.
 */
static int iterate_threaded(struct rr_dat *trace, rr_event_cb cb, void *ctx)
{
	struct reading rd = { .trace = trace, .pipe = rr_pipe_new() };
	pthread_t thread;
	int ret;

	if (!rd.pipe || pthread_create(&thread, NULL, reading_thread, &rd)) {
		rr_pipe_free(rd.pipe);
		return iterate(trace, cb, ctx);
	}
	ret = rr_pipe_drain(rd.pipe, cb, ctx);
	pthread_join(thread, NULL);
	rr_pipe_free(rd.pipe);
	return ret;
}

/*
 * Open the trace.dat @path: probe it in a child (dat-probe.c), read its
 * page layout (dat-pages.c), open every buffer and build the decoders of
 * the events it holds; fill @info.  NULL with @err set on failure.
 */
static struct rr_dat *dat_open(const char *path, const struct rr_dat *prev,
			       struct rr_trace_info *info, struct rr_error *err)
{
	struct rr_dat *t;
	uint64_t *ends = NULL;
	int i, n, nr_ends = 0, at = 0;

	int long_size = rr_page_layout.long_size;
	bool no_walk = rr_page_layout.no_walk;

	tracecmd_set_loglevel(TEP_LOG_WARNING);
	tep_set_loglevel(TEP_LOG_WARNING);
	if (rr_dat_page_layout_read(path, err))
		return NULL;
	if (prev) {
		/* what the probe child read of the page layout, as it read it */
		rr_page_layout.long_size = long_size;
		rr_page_layout.no_walk = no_walk;
		if (prev->nr_probe_ends > 0) {
			ends = malloc((size_t)prev->nr_probe_ends * sizeof(*ends));
			if (!ends) {
				rr_error_set(err, path, "out of memory");
				return NULL;
			}
			memcpy(ends, prev->probe_ends, (size_t)prev->nr_probe_ends * sizeof(*ends));
			nr_ends = prev->nr_probe_ends;
		}
	} else if (rr_dat_probe_open(path, &ends, &nr_ends, err)) {
		return NULL;
	}

	t = calloc(1, sizeof(*t));
	if (!t) {
		free(ends);
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	t->info = info;
	t->probe_ends = ends;
	t->nr_probe_ends = nr_ends;
	t->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!t->handle) {
		rr_error_set(err, path,
			     "cannot read trace.dat headers (truncated or unsupported file version)");
		goto fail;
	}
	n = tracecmd_buffer_instances(t->handle);
	t->handles = calloc((size_t)n + 1, sizeof(*t->handles));
	if (!t->handles) {
		rr_error_set(err, path, "out of memory");
		goto fail;
	}
	t->handles[t->nr_handles++] = t->handle;
	for (i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(t->handle, i);

		if (!h) {
			rr_error_set(err, path, "cannot read buffer instance '%s' (corrupt file?)",
				     tracecmd_buffer_instance_name(t->handle, i));
			goto fail;
		}
		t->handles[t->nr_handles++] = h;
	}
	t->buffers = calloc((size_t)t->nr_handles, sizeof(*t->buffers));
	if (!t->buffers) {
		rr_error_set(err, path, "out of memory");
		goto fail;
	}
	for (i = 0; i < t->nr_handles; i++) {
		struct buffer *b = &t->buffers[i];

		b->tep = tracecmd_get_tep(t->handles[i]);
		b->nr_cpus = tracecmd_cpus(t->handles[i]);
		if (b->nr_cpus < 0)
			b->nr_cpus = 0;
		b->first_offset = calloc((size_t)b->nr_cpus + 1, sizeof(*b->first_offset));
		b->last_offset = calloc((size_t)b->nr_cpus + 1, sizeof(*b->last_offset));
		b->end_ts = calloc((size_t)b->nr_cpus + 1, sizeof(*b->end_ts));
		b->seen_ts = calloc((size_t)b->nr_cpus + 1, sizeof(*b->seen_ts));
		if (!b->first_offset || !b->last_offset || !b->end_ts || !b->seen_ts) {
			rr_error_set(err, path, "out of memory");
			goto fail;
		}
		b->name = i ? tracecmd_buffer_instance_name(t->handle, i - 1) : "";
		if (!b->name)
			b->name = "?";
		/* the probe's ends, when it told as many CPUs as this open has */
		for (int c = 0; c < b->nr_cpus; c++, at++)
			b->end_ts[c] = at < t->nr_probe_ends ? t->probe_ends[at] : RR_END_NONE;
		b->swap = tep_is_file_bigendian(b->tep) != tep_is_local_bigendian(b->tep);
		tracecmd_set_private(t->handles[i], b);
		if (add_decoders(t, b)) {
			rr_error_set(err, path, "out of memory");
			goto fail;
		}
	}
	if (at != t->nr_probe_ends)	/* (not the same file any more?) */
		for (i = 0; i < t->nr_handles; i++)
			memset(t->buffers[i].end_ts, 0,
			       (size_t)t->buffers[i].nr_cpus * sizeof(*t->buffers[i].end_ts));
	t->threaded = true;
	{
		struct stat st;

		/* records of compressed data have offsets of the data
		 * uncompressed: how far that is in the file is not known */
		t->info->file_bytes = !stat(path, &st) && !rr_page_layout.compressed ?
				     (uint64_t)st.st_size : 0;
	}
	t->info->file_version = (int)tracecmd_get_in_file_version(t->handle);
	t->info->page_size_bytes = tracecmd_page_size(t->handle);
	t->info->nr_cpus = tracecmd_cpus(t->handle);
	t->info->nr_buffers = t->nr_handles;
	if (tracecmd_get_uname(t->handle))
		snprintf(t->info->uname, sizeof(t->info->uname), "%s",
			 tracecmd_get_uname(t->handle));
	if (!(t->info->events_known & RR_EV_RECLAIM_MASK)) {
		rr_error_set(err, path,
			     "holds no vmscan or memcg events (record with -e vmscan -e memcg -e cgroup)");
		goto fail;
	}
	t->info = NULL;	/* (each walk is given its own) */
	return t;
fail:
	rr_dat_close(t);
	return NULL;
}

struct rr_dat *rr_dat_open(const char *path, struct rr_trace_info *info, struct rr_error *err)
{
	return dat_open(path, NULL, info, err);
}

struct rr_dat *rr_dat_reopen(const char *path, const struct rr_dat *prev,
			     struct rr_trace_info *info, struct rr_error *err)
{
	return dat_open(path, prev, info, err);
}

int rr_dat_for_each(struct rr_dat *d, struct rr_trace_info *info, rr_event_cb cb, void *ctx)
{
	int ret;

	d->info = info;
	/* format-parsing complaints of the open (unrelated events whose print
	 * formats use unknown helpers) are normal; count only data problems */
	rr_dat_lib_diag_reset();
	ret = d->threaded ? iterate_threaded(d, cb, ctx) : iterate(d, cb, ctx);
	d->info = NULL;
	return ret;
}

void rr_dat_close(struct rr_dat *t)
{
	if (!t)
		return;
	for (int i = 0; t->buffers && i < t->nr_handles; i++) {
		for (int id = 0; id < t->buffers[i].nr_ids; id++) {
			if (t->buffers[i].by_id[id])
				free(t->buffers[i].by_id[id]->probe);
			free(t->buffers[i].by_id[id]);
		}
		free(t->buffers[i].by_id);
		free(t->buffers[i].first_offset);
		free(t->buffers[i].last_offset);
		free(t->buffers[i].end_ts);
		free(t->buffers[i].seen_ts);
	}
	free(t->buffers);
	free(t->probe_ends);
	/* an instance handle holds a reference on its parent (handles[0]):
	 * close them first, then the parent */
	for (int i = 1; t->handles && i < t->nr_handles; i++)
		tracecmd_close(t->handles[i]);
	if (t->handle)
		tracecmd_close(t->handle);
	free(t->handles);
	free(t);
}
