/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the text front end, shared by text.c (the file, the pass,
 * the events held back) and text-line.c (one line into an event).  Not
 * for other stages.
 */
#ifndef RR_TRACE_TEXT_LOCAL_H
#define RR_TRACE_TEXT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"

struct line {
	bool has_header;	/* task-pid [cpu] ts: */
	int pid, cpu;
	uint64_t ts_ns;
	const char *event;
	size_t event_len;
	char *body;
};

enum line_kind { L_OTHER, L_BLANK, L_EVENT, L_LOST, L_CPUS };

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
	struct rr_lruvec_probe *probe;	/* owned copy of *ev.probe */
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
	struct rr_lruvec_probe probe;	/* the shrink_lruvec() probe line read */
};

/* text-line.c */
int rr_text_cpu_number(const char *s);
enum line_kind rr_text_classify(char *s, struct line *l, uint64_t *lost);
bool rr_text_decode(struct pass *ps, const struct rr_event_desc *d, struct line *l,
		    struct rr_event *ev, bool *type_only);
void rr_text_count_problem(struct pass *ps, const char *event, const char *key,
			   enum rr_field_problem p);
/* The recorder's kprobe events as `trace-cmd report` prints them ("NAME:
 * (ADDR) k=v ..." or "NAME: (ADDR <- CALLER) k=v ..."): the descriptor of
 * event @name (@len bytes) when @body reads as such a probe's, else NULL;
 * @lenient (the recorder's marker announced its probes): of the name
 * alone, rr_text_decode_probe() then judging the address. */
const struct rr_event_desc *rr_text_probe_desc(const char *name, size_t len, const char *body,
					       bool lenient);
/* One such line into @ev, the shrink_lruvec() probe's values into
 * ps->probe (ev->probe points there); false, the problem counted, when a
 * value is out of range (as the trace.dat reader checks them) or missing. */
bool rr_text_decode_probe(struct pass *ps, const struct rr_event_desc *d, struct line *l,
			  struct rr_event *ev);
/* The key=value pairs of @body (at most 96 counted). */
int rr_text_count_kv(const char *body);

#endif
