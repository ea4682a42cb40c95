/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interface between the event source (reader.c) and its text
 * reader (text.c).  Not used elsewhere.
 */
#ifndef RR_TRACE_TEXT_H
#define RR_TRACE_TEXT_H

#include <stddef.h>

#include "reader.h"

struct rr_text;

/*
 * rr_text_open() - check that @path holds text trace lines
 * Reads the whole file once: fills info->events_known.
 * Return: a handle, or NULL with @err naming @path (not text, no event
 * line, unreadable).
 */
struct rr_text *rr_text_open(const char *path, struct rr_trace_info *info,
			     struct rr_error *err);
int rr_text_for_each(struct rr_text *tx, struct rr_trace_info *info,
		     rr_event_cb cb, void *ctx, struct rr_error *err);
void rr_text_close(struct rr_text *tx);
/* Name @tx's file @name in messages (a spooled pipe: the name given). */
void rr_text_set_name(struct rr_text *tx, const char *name);

/* Take the kernel release and page size from the text of a marker, if it
 * is `reclaim-replay record`'s meta line (text.c; both readers use it). */
void rr_trace_info_meta(struct rr_trace_info *info, const char *text, size_t len);

/* Skipped-event bookkeeping shared by both readers (reader.c). */
int rr_trace_info_skip_slot(struct rr_trace_info *info, const char *name);
void rr_trace_info_count_skipped(struct rr_trace_info *info, int slot);

#endif
