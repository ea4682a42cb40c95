/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A bounded single-producer, single-consumer queue of decoded events
 * (pipe.c): the trace reader decodes in one thread, the replay consumes in
 * another.  Internal to src/trace.
 */
#ifndef RR_TRACE_PIPE_H
#define RR_TRACE_PIPE_H

#include "trace.h"

struct rr_pipe;

struct rr_pipe *rr_pipe_new(void);
void rr_pipe_free(struct rr_pipe *p);

/* Producer: queue a copy of @ev (its string too).  Return 0, or -1 once
 * the consumer has stopped: the producer should stop as well. */
int rr_pipe_put(struct rr_pipe *p, const struct rr_event *ev);
/* Producer: no more events; @status is what rr_pipe_drain() returns. */
void rr_pipe_close(struct rr_pipe *p, int status);

/* Consumer: call @cb for every event, in order, until the producer closes
 * the pipe (return its status) or @cb returns non-zero (return that). */
int rr_pipe_drain(struct rr_pipe *p, rr_event_cb cb, void *ctx);

#endif
