/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the trace.dat front end, shared by dat.c, dat-pages.c and
 * dat-probe.c.  Not for other stages.
 */
#ifndef RR_TRACE_DAT_LOCAL_H
#define RR_TRACE_DAT_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"

struct tracecmd_input;
struct tep_record;

/*
 * Exported by libtracecmd.so.1 but declared only in trace-cmd's private
 * header (lib/trace-cmd/include/private/trace-cmd-private.h).
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

/* A CPU's end as the probe read it (struct buffer's end_ts in dat.c): no
 * data, or its last page cannot be read; else the time of its last record */
#define RR_END_NONE 0
#define RR_END_UNREADABLE UINT64_MAX

/*
 * The ring-buffer page layout of the file being read (set at open): a page
 * holds a u64 timestamp, a `long` commit (the data's size in bytes, flags
 * in its top bits) and the data.  libtraceevent 1.7's kbuffer trusts the
 * commit and the event lengths: damaged ones send it reading past the page
 * or round one event for ever (found by fuzzing).  kbuffer_load_subbuffer()
 * below checks a page first and refuses it whole.
 */
struct rr_page_layout {
	int page_size;			/* bytes; 0: not known, no check */
	bool compressed;		/* v7 data compressed: offsets are not the file's */
	/* the size of a page header's commit field: the kernel's long, from
	 * the header_page format (the file header's long size is trace-cmd's
	 * own, 4 from a 32-bit trace-cmd on a 64-bit kernel) */
	int long_size;
	bool swap;			/* the file's byte order is not ours */
	bool no_walk;			/* pre-2.6.31 page layout: no page_events_walk() */
	/* pages refused: a commit beyond the page (bad), event headers that
	 * do not walk to the data's size (odd, page_events_walk()), and both
	 * together (one load per record tells the reader a page went) */
	unsigned long bad_pages, odd_pages, refused;
	uint64_t first_bad_ts, first_odd_ts;	/* the first of each: its time stamp */
};
extern struct rr_page_layout rr_page_layout;

/* dat-pages.c: read rr_page_layout from @path's header; 0, or -1 with @err */
int rr_dat_page_layout_read(const char *path, struct rr_error *err);
/* dat-pages.c: forget the libraries' diagnostics so far */
void rr_dat_lib_diag_reset(void);

/* dat-probe.c */
int rr_dat_probe_open(const char *path, uint64_t **ends, int *nr_ends, struct rr_error *err);

#endif
