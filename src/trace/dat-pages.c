// SPDX-License-Identifier: GPL-2.0-only
/*
 * What guards the trace.dat front end against the libraries it reads
 * with: their diagnostics collected (tep_vprint()), and each ring-buffer
 * page checked before libtraceevent walks it (kbuffer_load_subbuffer()),
 * against the page layout read from the file's header.
 */
#include "trace.h"
#include "dat-local.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-utils.h>
#include <traceevent/kbuffer.h>

/*
 * Diagnostics of libtraceevent/libtracecmd ("bad page offset", ...).  The
 * libraries print through tep_vprint(), which they document as overridable:
 * collect them here instead of letting them reach stderr, and report them
 * as one warning line (src/cli) and in the JSON.
 */
static struct {
	unsigned int count;
	char first[200];
} lib_diag;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	(void)print_err;
	if (level > TEP_LOG_WARNING)
		return 0;
	if (!lib_diag.count++) {
		int n = snprintf(lib_diag.first, sizeof(lib_diag.first), "%s: ",
				 name ? name : "libtraceevent");

		if (n > 0 && (size_t)n < sizeof(lib_diag.first))
			vsnprintf(lib_diag.first + n, sizeof(lib_diag.first) - (size_t)n, fmt, ap);
		n = (int)strlen(lib_diag.first);
		while (n > 0 && (lib_diag.first[n - 1] == '\n' || lib_diag.first[n - 1] == ' '))
			lib_diag.first[--n] = 0;
	}
	return 0;
}

struct rr_page_layout rr_page_layout;

/* Count a refused page in @count, keep its time stamp if it is the first. */
static void refuse_page(unsigned long *count, uint64_t *first_ts, const void *page)
{
	if (!__atomic_fetch_add(count, 1, __ATOMIC_RELAXED))
		memcpy(first_ts, page, 8);
	__atomic_add_fetch(&rr_page_layout.refused, 1, __ATOMIC_RELAXED);
}

static uint32_t page_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rr_page_layout.swap ? __builtin_bswap32(v) : v;
}

/*
 * Walk the event headers of a page's @size bytes of data @d as the kernel
 * lays them out (struct ring_buffer_event, kernel/trace/ring_buffer.c: a
 * u32 of type_len:5 and time_delta:27, then data; type_len 1..28 is that
 * many 4-byte words, 0 a length in the next u32, 29 padding (a discarded
 * event, or with time_delta 0 the rest of the page), 30 a time extend and
 * 31 an absolute time stamp, 8 bytes each).  Return whether the walk lands
 * on @size: a damaged header sends it elsewhere, where libtraceevent would
 * end the page early without a word.  (Little-endian bit fields: the only
 * layout this checks; a big-endian file is not walked.)
 */
static bool page_events_walk(const unsigned char *d, uint64_t size)
{
	uint64_t off = 0;

	while (off + 4 <= size) {
		uint32_t h = page_u32(d + off), type_len = h & 31, delta = h >> 5;
		uint64_t len;

		if (type_len >= 1 && type_len <= 28) {
			len = 4 + 4 * (uint64_t)type_len;
		} else if (type_len == 30 || type_len == 31) {
			len = 8;
		} else if (type_len == 29 && !delta) {
			return true;	/* padding: the rest of the page */
		} else {		/* 0, or a discarded event (29) */
			if (off + 8 > size)
				return false;
			len = 4 + (uint64_t)page_u32(d + off + 4);
			if (type_len == 0 && len < 8)
				return false;
		}
		off += len;
	}
	return off == size;
}

static uint64_t page_long(const unsigned char *p)
{
	uint64_t v;

	if (rr_page_layout.long_size == 4)
		return page_u32(p);
	memcpy(&v, p, 8);
	return rr_page_layout.swap ? __builtin_bswap64(v) : v;
}

/*
 * Interposed on libtraceevent's (libtracecmd calls it through the PLT): a
 * page whose commit says more data than the page holds, or whose event
 * headers do not add up, is refused (-1, as libtraceevent refuses a NULL
 * page); libtracecmd goes on with the CPU's next page, and the next record
 * read flags the episodes around (record_cb()).  COMMIT_MASK is
 * (1 << 27) - 1 in kbuffer-parse.c, the flags RB_MISSED_* are above it.
 */
int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer)
{
	static int (*real)(struct kbuffer *, void *);
	int (*fn)(struct kbuffer *, void *) = __atomic_load_n(&real, __ATOMIC_ACQUIRE);

	if (!fn) {
		*(void **)&fn = dlsym(RTLD_NEXT, "kbuffer_load_subbuffer");
		if (!fn)
			return -1;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	if (subbuffer && rr_page_layout.page_size > 8 + rr_page_layout.long_size) {
		uint64_t commit = page_long((const unsigned char *)subbuffer + 8);
		uint64_t size = commit & ((1u << 27) - 1);
		uint64_t room = (uint64_t)(rr_page_layout.page_size - 8 - rr_page_layout.long_size);

		/* with RB_MISSED_EVENTS and RB_MISSED_STORED (bits 31, 30) the
		 * count of missed events is a long after the data */
		if (size > room || ((commit >> 30 & 3) == 3 && size + (uint64_t)rr_page_layout.long_size > room)) {
			refuse_page(&rr_page_layout.bad_pages, &rr_page_layout.first_bad_ts, subbuffer);
			return -1;
		}
		/* a page whose headers do not add up is not handed over either:
		 * a length near 2^32 wraps in kbuffer's 32-bit arithmetic and it
		 * reads the same event for ever (a hang found by fuzzing) */
		if (!rr_page_layout.swap && !rr_page_layout.no_walk &&
		    !page_events_walk((const unsigned char *)subbuffer + 8 + rr_page_layout.long_size,
				      size)) {
			refuse_page(&rr_page_layout.odd_pages, &rr_page_layout.first_odd_ts, subbuffer);
			return -1;
		}
	}
	return fn(kbuf, subbuffer);
}

void rr_dat_lib_diag_reset(void)
{
	memset(&lib_diag, 0, sizeof(lib_diag));
}

unsigned int rr_trace_lib_warnings(const char **first)
{
	if (first)
		*first = lib_diag.first;
	return lib_diag.count;
}

/*
 * Read the page layout (see rr_page_layout) from the trace.dat header: magic
 * (3), "tracing" (7), the version string, endian (1: 0 little, 1 big),
 * long size (1), page size (4, in the file's order), and from version 7
 * the compression's name ("none" when not); trace-cmd.dat.v7(5).
 */
int rr_dat_page_layout_read(const char *path, struct rr_error *err)
{
	unsigned char h[128];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(h, 1, sizeof(h) - 1, f) : 0, at;
	uint32_t ps;

	if (f)
		fclose(f);
	memset(&rr_page_layout, 0, sizeof(rr_page_layout));
	h[n] = 0;
	at = 10 + strnlen((const char *)h + 10, n > 10 ? n - 10 : 0) + 1;
	if (n < 12 || at + 6 > n) {
		rr_error_set(err, path, "cannot read trace.dat headers (truncated)");
		return -1;
	}
	memcpy(&ps, h + at + 2, 4);
	rr_page_layout.swap = (h[at] != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (rr_page_layout.swap)
		ps = __builtin_bswap32(ps);
	rr_page_layout.long_size = h[at + 1] == 4 ? 4 : 8;
	if (h[at + 1] != 4 && h[at + 1] != 8) {
		rr_error_set(err, path, "trace.dat header: a long of %d bytes (4 or 8 expected)",
			     h[at + 1]);
		return -1;
	}
	if (ps < 64 || ps > (1u << 24)) {
		rr_error_set(err, path, "trace.dat header: a page size of %u bytes", ps);
		return -1;
	}
	rr_page_layout.page_size = (int)ps;
	rr_page_layout.compressed = strtol((const char *)h + 10, NULL, 10) >= 7 && at + 6 < n &&
				 h[at + 6] && strcmp((const char *)h + at + 6, "none");
	return 0;
}
