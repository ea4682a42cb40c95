// SPDX-License-Identifier: GPL-2.0-only
/* Feeding a builder hand-made events (feed.h). */
#include "feed.h"

#include <string.h>

#include "unit.h"

uint64_t unit_ts;

void unit_feed(struct rr_builder *b, struct rr_event ev)
{
	ev.ts_ns = unit_ts += 1000;
	if (!ev.pid)
		ev.pid = 100;
	CU_ASSERT_EQUAL_FATAL(rr_builder_feed(b, &ev), 0);
}

void unit_marker(struct rr_builder *b, const char *text)
{
	unit_feed(b, (struct rr_event){ .type = RR_EV_MARKER, .str = text,
					.str_len = (int)strlen(text), .pid = 1 });
}
