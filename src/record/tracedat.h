/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writer of trace-cmd's trace.dat version 6 (man 5 trace-cmd.dat.v6).
 * Debian's libtracecmd-dev exposes only the reading API, so the file is
 * written here from its documented layout: headers and event formats
 * copied from tracefs, the uname option, and the raw per-CPU ring-buffer
 * pages the recorder spliced out.  trace-cmd report, KernelShark and
 * libtracecmd read it.
 */
#ifndef RR_RECORD_TRACEDAT_H
#define RR_RECORD_TRACEDAT_H

#include "../common/error.h"

#include <stdint.h>

/**
 * rr_tracedat_write() - write a v6 trace.dat, moving the recorded data in
 * @fd:        output, empty, opened for writing (it is written with
 *             pwrite(2), so it may be anywhere in the file system).
 * @tracing:   the tracefs directory (formats are read from its events/).
 * @systems:   event systems whose formats to store (NULL-terminated);
 *             ftrace formats (for trace_marker lines) are always stored.
 * @page_size: the ring buffer's page size in bytes (a power of two).
 * @cpu_fds:   @nr_cpus descriptors (readable and writable) of files of raw
 *             ring-buffer pages, one per CPU, oldest page first.  A partial
 *             last page (a write cut short by a full disk) is left out.
 *             Their data is moved, not copied: each file is truncated as
 *             its pages are written into @fd, so it ends empty.
 * @path:      the output's name, for errors.
 * @dropped:   set to the bytes of the newest pages (across the CPUs, by
 *             their time stamps) left out so that the trace fits in the
 *             free space of @fd's file system; 0 when everything fits.
 * Return: 0, or -1 with @err set (a failed write, or ENOSPC when not even
 * the headers fit).  On an error the data of @cpu_fds may be partly gone.
 */
int rr_tracedat_write(int fd, const char *tracing, const char *const *systems,
		      unsigned int page_size, int nr_cpus, const int *cpu_fds,
		      const char *path, uint64_t *dropped, struct rr_error *err);

#endif
