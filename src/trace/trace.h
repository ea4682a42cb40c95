/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event source.  Opens either
 *  - a trace-cmd file (v6, or v7 compressed, as written by `trace-cmd
 *    record`, `trace-cmd extract` and `reclaim-replay record`) through
 *    libtracecmd, streaming the reclaim events of every buffer in it (the
 *    top buffer and all instances) merged in time order, or
 *  - a text trace (text.c): lines of /sys/kernel/tracing/trace or
 *    trace_pipe, of `trace-cmd report` (with or without -l), or bare
 *    `event_name: field=value ...` lines, in file order,
 * and hands every reclaim event to a callback as struct rr_event.  Nothing
 * is kept after the callback returns.
 */
#ifndef RR_TRACE_READER_H
#define RR_TRACE_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "event.h"

struct rr_trace;

#define RR_SKIPPED_NAMES 24
#define RR_FIELD_PROBLEM_SLOTS 32

/*
 * Why a field of an event could not be used.  Every kind but
 * RR_FP_MISSING_KEPT and RR_FP_MISSING_ZERO drops the event (like a lost
 * event for the episodes around it).
 */
enum rr_field_problem {
	RR_FP_MISSING,		/* the key is not on the line */
	RR_FP_MISSING_KEPT,	/* not on the line; the event kept, the value -1 (unknown) */
	RR_FP_MISSING_ZERO,	/* not on the line; the event kept, 0 pages assumed
				 * (nr_activate, which releases before v4.11 print not) */
	RR_FP_UNPARSEABLE,	/* no number or symbol the event prints ("priority=") */
	RR_FP_OUT_OF_RANGE,	/* a value no kernel writes there (rr_field_in_range()) */
	RR_FP_SENTINEL,		/* (u32)-1 or (u64)-1 in a page count: -1 printed unsigned */
	RR_FP_CUT,		/* the line ends before the event's last key */
	RR_FP_FLAGS_MISMATCH,	/* isolate: lru's type is not the one the flags of
				 * the task's next shrink event give */
	RR_FP_LIST_UNKNOWN,	/* isolate: file= (<= v4.10) gives the type only, and
				 * no shrink_inactive followed to say the list */
	RR_FP__COUNT
};

/* "missing", "missing (kept)", "unparseable", ... (JSON: the token). */
const char *rr_field_problem_name(enum rr_field_problem p);
const char *rr_field_problem_token(enum rr_field_problem p);

enum rr_trace_format { RR_FORMAT_TRACE_DAT, RR_FORMAT_TEXT };

/* What the reader learned about the file itself. */
struct rr_trace_info {
	enum rr_trace_format format;
	int file_version;		/* trace.dat version: 6 or 7; 0 for text */
	int page_size_bytes;		/* host page size stored in the file */
	char uname[256];		/* "Linux host 6.18.44 ..." if stored, else "" */
	char kernel_release[64];	/* from a `record` meta marker (text, or a
					 * trace.dat without uname), else "" */
	/* the meta marker's kernel_policy= (record --kernel-policy: the
	 * policy a patched recording kernel runs), else "" */
	char kernel_policy[64];
	int nr_cpus;
	int nr_buffers;			/* top buffer + instances that hold data */
	unsigned int events_known;	/* reclaim event types present in the format data */
	uint64_t nr_missed_events;	/* events the ring buffer dropped */
	/* events read but not used (other tracepoints, or reclaim events the
	 * replay ignores such as mm_shrink_slab_end), by name */
	uint64_t nr_skipped_events;
	struct { char name[64]; uint64_t count; } skipped[RR_SKIPPED_NAMES];
	int nr_skipped_names;		/* the rest count under "(other)" */
	/* events dropped because a field held a value no kernel writes
	 * (rr_field_in_range()) or could not be parsed; the first, as
	 * "line N: event: text" (text) or "event at SECONDS s (CPU N): field F = V" */
	uint64_t malformed_events;
	char first_malformed[160];
	/* every field that dropped an event or was missing, by event and field
	 * (text: the key as printed; trace.dat: the format's field name) and
	 * problem; slots past RR_FIELD_PROBLEM_SLOTS count in field_problems_other */
	struct {
		char event[48], field[24];
		enum rr_field_problem problem;
		uint64_t count;
	} field_problems[RR_FIELD_PROBLEM_SLOTS];
	int nr_field_problems;
	uint64_t field_problems_other;
	/* trace.dat: CPUs whose records stop before the last one their data
	 * holds (a damaged or truncated file), how many of them gave any
	 * record, when the first stopped (ns), and the first as text; records
	 * whose time goes back within one CPU's data */
	int damaged_cpus, damaged_cpus_read;
	uint64_t damage_from_ns;
	char first_damage[200];
	uint64_t backwards_records;
	char first_backwards[120];
	/* trace.dat: pages whose event headers do not add up to the page's
	 * data (a damaged header: libtraceevent skips the rest of the page),
	 * and the first one's time stamp (ns) */
	uint64_t odd_pages, first_odd_page_ns;
	/* trace.dat: pages refused because their header claims more data
	 * than a page holds (their records are lost), the first one's time */
	uint64_t bad_pages, first_bad_page_ns;
	/* trace.dat: records of an event id no format in the file defines */
	uint64_t no_format_records;
	char first_no_format[80];
	/* text only */
	uint64_t text_lines;		/* lines read */
	uint64_t text_other_lines;	/* neither an event, a comment nor blank */
	/* text: the recorder's events marker names its kprobes (reclaim_replay_PID:...);
	 * only then are lines of their names read as theirs */
	bool text_probes_announced;
	int text_probe_keys;		/* key=value pairs of its longest shrink_lruvec line */
	uint64_t text_backwards;	/* events whose timestamp went back */
	char text_first_backwards[80];	/* "line N: T s after T0 s" */
	char text_first_other[100];	/* "line N: ..." of the first other line */
	bool timestamps_synthetic;	/* bare lines: event order, no time */
	bool page_size_assumed;		/* text: no page size in the file */
	/* text: the releases (MAJOR * 100 + MINOR) the print formats fit,
	 * 0 = unbounded; see text.c era_hints() */
	int era_lo, era_hi;
	/* how far the walk is: the file offset of the last record read (its
	 * line's end for text), and the file's size; written by the reading
	 * thread, read with rr_trace_progress() */
	uint64_t bytes_read, file_bytes;
};

/**
 * rr_trace_info_field_problem() - count one field @field of an event
 * @event that could not be used for @problem (both names are cut to fit
 * their slots).  Both readers call it; rr_trace_for_each() starts the
 * counts from 0.
 */
void rr_trace_info_field_problem(struct rr_trace_info *info, const char *event,
				 const char *field, enum rr_field_problem problem);

/* Set info->bytes_read (the reading side). */
static inline void rr_trace_info_progress(struct rr_trace_info *info, uint64_t bytes)
{
	__atomic_store_n(&info->bytes_read, bytes, __ATOMIC_RELAXED);
}

/**
 * rr_trace_progress() - how much of the file the walk has read, 0..1000
 * (per mille); from any thread while rr_trace_for_each() runs.  -1 when it
 * cannot be told (standard input, compressed trace.dat data).
 */
int rr_trace_progress(const struct rr_trace *trace);

/**
 * rr_trace_open() - open a trace file
 * @path: file to read; "-" (standard input), a pipe or a FIFO is first
 *        copied to a temporary file under $TMPDIR (removed at close).
 * @err:  filled on failure with @path and the reason.
 *
 * Return: a handle, or NULL when the file is missing, unreadable, neither
 * a trace.dat nor text trace lines, or holds none of the vmscan/memcg
 * events.
 */
struct rr_trace *rr_trace_open(const char *path, struct rr_error *err);

const struct rr_trace_info *rr_trace_info(const struct rr_trace *trace);

typedef int (*rr_event_cb)(const struct rr_event *ev, void *ctx);

/**
 * rr_trace_for_each() - stream every known event in time order
 * @cb: called once per decoded event; a non-zero return stops the walk and
 *      is returned.
 *
 * Return: 0 at the end of the trace, the callback's non-zero value, or -1
 * with @err set when the data could not be read.
 */
int rr_trace_for_each(struct rr_trace *trace, rr_event_cb cb, void *ctx,
		      struct rr_error *err);

void rr_trace_close(struct rr_trace *trace);

/**
 * rr_trace_lib_warnings() - warnings the trace libraries raised
 * @first: set to the first warning's text ("libtracecmd: bad page offset").
 * Return: how many warnings were raised while reading the event data in
 * the last rr_trace_for_each().
 * A non-zero count means the data read may be incomplete.
 */
unsigned int rr_trace_lib_warnings(const char **first);

#endif
