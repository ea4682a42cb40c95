// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the marker parser (src/markers) on one trace_marker
 * line, as a trace.dat's ftrace:print buffer gives it (exactly @size bytes,
 * not NUL-terminated: ASan sees any read past it) and as a text line does
 * (anywhere in the line).  A parsed line is written back with the
 * formatter of its kind and parsed again: it must give the same kind.
 */
#include <stdint.h>
#include <stdio.h>
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
	case RR_MARKER_VM:
	case RR_MARKER_ZONE:
	case RR_MARKER_NODE: {
		/* written back, it reads as the same kind, without a bad key
		 * (a bad value reads as absent, -1, which is written as is) */
		char line[4200];
		struct rr_marker m2;
		int n = kind == RR_MARKER_VM ? rr_marker_format_vm(buf, sizeof(buf), &m.vm) :
			kind == RR_MARKER_ZONE ? rr_marker_format_zone(buf, sizeof(buf), &m.zone) :
			rr_marker_format_node(buf, sizeof(buf), &m.node);

		if (n < 0 || (size_t)n >= sizeof(buf))
			abort();
		n = snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
		if (rr_marker_parse(line, (size_t)n, false, &m2) != kind)
			abort();
		if ((kind == RR_MARKER_VM && m2.vm.malformed) ||
		    (kind == RR_MARKER_ZONE && m2.zone.malformed) ||
		    (kind == RR_MARKER_NODE && m2.node.malformed))
			abort();
		break;
	}
	default:
		break;
	}
	return 0;
}
