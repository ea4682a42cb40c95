/* SPDX-License-Identifier: GPL-2.0-only */
/* Feeding a builder hand-made events, for the builder and attribution
 * tests. */
#ifndef RR_TEST_FEED_H
#define RR_TEST_FEED_H

#include <stdint.h>

#include "../../src/episode/episode.h"

/* The last event's time, ns: each fed event comes 1 us after the one
 * before; a test may move it on (a snapshot grown old). */
extern uint64_t unit_ts;

/* Feed @ev at unit_ts + 1 us, from pid 100 unless it names one; the
 * builder must take it (a CUnit fatal assertion). */
void unit_feed(struct rr_builder *b, struct rr_event ev);

/* Feed the trace_marker line @text (a recorder marker), from pid 1. */
void unit_marker(struct rr_builder *b, const char *text);

#endif
