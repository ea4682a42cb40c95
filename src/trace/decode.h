/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one event decoder of the trace stage, under both front ends (dat.c,
 * text.c): the reclaim events both know, and the names of their fields
 * across kernel releases.  A field is looked up by name, never by offset:
 * in a trace.dat through the event's format (libtraceevent), in text by the
 * `name=value` key the event's TP_printk() prints.  Where the binary field
 * and the printed key differ, or a release renamed a field, the descriptor
 * lists every name, tried in order ("reclaim_flags|flags").
 *
 * Sources (include/trace/events/{vmscan,memcg,cgroup}.h):
 *  - mm_vmscan_lru_isolate: `file=` (≤ v4.10) became `lru=` in v4.11;
 *    `classzone_idx=` became `classzone=` (v5.8); `isolate_mode=` dropped
 *    in 3dfbb555c98a (≈v6.7).  `lru` prints symbolically in text.
 *  - mm_vmscan_lru_shrink_inactive: one `nr_activate=` (v4.16–v5.1), then
 *    `nr_activate_anon=`/`nr_activate_file=` in text and nr_activate0/1 in
 *    the binary (886cf1901db9); `flags=` prints the binary reclaim_flags.
 *  - memcg events (v6.13+): binary `id`, printed `memcg_id=`.
 */
#ifndef RR_TRACE_DECODE_H
#define RR_TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

enum rr_field {
	F_ID, F_ITEM, F_VAL, F_FORCE, F_NEEDS_FLUSH,
	F_LRU, F_FILE, F_PRIORITY, F_NID, F_FLAGS,
	F_NR_REQUESTED, F_NR_SCANNED, F_NR_TAKEN, F_NR_RECLAIMED,
	F_NR_REFERENCED, F_NR_DEACTIVATED, F_NR_ACTIVATE0, F_NR_ACTIVATE1,
	F_ROOT, F_LEVEL, F_PID, F_STR,
	F_ORDER, F_CLASSZONE,
	F__COUNT
};

struct rr_event_desc {
	const char *system, *name;
	enum rr_event_type type;
	/* field names in enum rr_field order; "a|b" tries a, then b */
	const char *fields[F__COUNT];
	/* text: the fields (bit 1 << F_x) without which the event is dropped;
	 * F_LRU stands for `lru=` or `file=` (the isolate of <= v4.10).  The
	 * other fields are optional: see text-line.c rr_text_decode() */
	uint32_t required;
	/* text: a key ("a|b") every release prints at the end of the event's
	 * line (its TP_printk()'s last one, or nearly): a line without it was
	 * cut; NULL: no such check */
	const char *trailer;
};

/* The event types of the vmscan and memcg systems: a trace holding none
 * of them holds no reclaim. */
#define RR_EV_RECLAIM_MASK \
	(((1u << (RR_EV_FLUSH + 1)) - 1) & ~(1u << RR_EV_NONE))

extern const struct rr_event_desc rr_known_events[];

/* The recorder's kprobe events (group RR_PROBE_GROUP_PREFIX<pid>), for both
 * front ends: the descriptor of @name (@len bytes; shrink_lruvec,
 * shrink_lruvec_ret, shrink_active, memory_reclaim, memory_reclaim_ret),
 * else NULL.  shrink_lruvec's values are no rr_field: each front end reads
 * them by rr_probe_field_name(). */
const struct rr_event_desc *rr_probe_desc_find(const char *name, size_t len);
extern const size_t rr_nr_known_events;

/* The descriptor of event @name (@len bytes, no system prefix), or NULL. */
const struct rr_event_desc *rr_event_desc_find(const char *name, size_t len);

/* The largest page count an event may carry: 2^52 pages (16 EiB of 4 KiB
 * pages); no kernel prints more. */
#define RR_MAX_EVENT_PAGES (1ULL << 52)
/* DEF_PRIORITY of include/linux/mmzone.h: priorities run 12 down to 0 */
#define RR_DEF_PRIORITY 12

/**
 * rr_field_is_sentinel() - is @x a -1 printed unsigned in page count @f?
 * A page count of exactly 4294967295 ((u32)-1, e.g. a bpftrace script's
 * "unknown") or 18446744073709551615 ((u64)-1, also "-1" through a %ld)
 * is no count a reclaim batch or call can have (2^32 pages is 16 TiB of
 * 4 KiB pages in one call): it means "unknown".  Both readers drop the
 * event and count the field (rr_field_in_range() refuses it too).
 */
static inline bool rr_field_is_sentinel(enum rr_field f, uint64_t x)
{
	switch (f) {
	case F_NR_REQUESTED:
	case F_NR_SCANNED:
	case F_NR_TAKEN:
	case F_NR_RECLAIMED:
	case F_NR_REFERENCED:
	case F_NR_DEACTIVATED:
	case F_NR_ACTIVATE0:
	case F_NR_ACTIVATE1:
		return x == UINT32_MAX || x == UINT64_MAX;
	default:
		return false;
	}
}

/**
 * rr_field_in_range() - can a kernel have put @x in field @f?
 * @x: the decoded value; signed fields sign-extended to 64 bits.
 *
 * Counts are pages (unsigned long in the tracepoints) up to
 * RR_MAX_EVENT_PAGES, and no -1 printed unsigned (rr_field_is_sentinel());
 * ints (val, item, cgroup root and level) fit 32 bits;
 * pids and node ids are 0..INT32_MAX; priority is 0..DEF_PRIORITY (12);
 * lru is an enum lru_list (0..4, LRU_UNEVICTABLE); ids (cgroup_id(), a
 * u64 kernfs id) are at most INT64_MAX; force/needs_flush/file are 0 or 1.
 * Both readers drop an event holding any other value, count it, and flag
 * the episodes around it, as for a lost event.
 */
static inline bool rr_field_in_range(enum rr_field f, uint64_t x)
{
	int64_t sx = (int64_t)x;

	switch (f) {
	case F_VAL:
	case F_ITEM:
	case F_ROOT:
	case F_LEVEL:
		return sx >= INT32_MIN && sx <= INT32_MAX;
	case F_PID:
	case F_NID:
		return sx >= 0 && sx <= INT32_MAX;
	case F_PRIORITY:
		return x <= RR_DEF_PRIORITY;
	case F_ORDER:		/* an allocation order: below 64 on any arch */
		return x < 64;
	case F_CLASSZONE:	/* a zone index: below MAX_NR_ZONES (<= 8) */
		return x < 16;
	case F_LRU:
		return x < RR_NR_LRU;
	case F_ID:
		return x <= INT64_MAX;
	case F_FORCE:
	case F_NEEDS_FLUSH:
	case F_FILE:
		return x <= 1;
	case F_FLAGS:
		return x <= INT32_MAX;
	case F_STR:
	case F__COUNT:
		return true;
	default:	/* page counts; not a -1 printed unsigned */
		return x <= RR_MAX_EVENT_PAGES && !rr_field_is_sentinel(f, x);
	}
}

/* A field's name as the binary format of a recent release calls it. */
const char *rr_field_name(enum rr_field f);

/**
 * rr_event_set_field() - store one decoded field value in @ev
 * @v: the raw value; signed fields arrive sign-extended to 64 bits.
 * F_NR_ACTIVATE0/1 add up into ev->nr_activate; F_FILE (≤ v4.10 isolate)
 * sets ev->lru to the inactive list of that type unless `lru` was given.
 */
void rr_event_set_field(struct rr_event *ev, enum rr_field f, uint64_t v);

/* Symbolic values printed by TP_printk(): an `enum lru_list` name
 * ("inactive_file") or a "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" mask.
 * Return 0 and set @out, or -1 if @s (@len bytes) is not such a value. */
int rr_parse_lru_name(const char *s, size_t len, uint64_t *out);
int rr_parse_reclaim_flags(const char *s, size_t len, uint64_t *out);

/* Take the kernel release and page size from the text of a marker, if it
 * is `reclaim-replay record`'s meta line (both front ends use it). */
void rr_trace_info_meta(struct rr_trace_info *info, const char *text, size_t len);

/* Skipped-event bookkeeping shared by both front ends. */
int rr_trace_info_skip_slot(struct rr_trace_info *info, const char *name);
void rr_trace_info_count_skipped(struct rr_trace_info *info, int slot);

#endif
