/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interface between the event source (trace.c) and its text
 * reader (text.c).  Not used elsewhere.
 */
#ifndef RR_TRACE_TEXT_H
#define RR_TRACE_TEXT_H

#include <stddef.h>

#include "trace.h"

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

#endif
