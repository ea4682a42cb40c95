/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace.dat front end (dat.c), for trace.c: a trace-cmd file of
 * version 6 or 7, every buffer of it, read with libtracecmd.
 */
#ifndef RR_TRACE_DAT_H
#define RR_TRACE_DAT_H

#include "trace.h"

struct rr_dat;

/* rr_dat_for_each()'s "libtracecmd failed" (callbacks return other values) */
#define RR_TRACE_READ_ERROR (-0x7245)
#define RR_TRACE_OOM (-0x7246)		/* the reader's own memory ran out */

struct rr_dat *rr_dat_open(const char *path, struct rr_trace_info *info, struct rr_error *err);
/* rr_dat_open() of the file @prev has open, again (a second walk: libtracecmd
 * walks a handle once), without a second probe child: @prev's findings
 * (where each CPU's data ends) are taken over. */
struct rr_dat *rr_dat_reopen(const char *path, const struct rr_dat *prev,
			     struct rr_trace_info *info, struct rr_error *err);

/* Walk every buffer in time order, filling @info; the callback's non-zero
 * value, 0 at the end, or RR_TRACE_READ_ERROR / RR_TRACE_OOM. */
int rr_dat_for_each(struct rr_dat *d, struct rr_trace_info *info, rr_event_cb cb, void *ctx);

void rr_dat_close(struct rr_dat *d);

#endif
