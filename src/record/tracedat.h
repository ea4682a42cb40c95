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

/**
 * rr_tracedat_write() - write a v6 trace.dat
 * @fd:        output, positioned at 0.
 * @tracing:   the tracefs directory (formats are read from its events/).
 * @systems:   event systems whose formats to store (NULL-terminated);
 *             ftrace formats (for trace_marker lines) are always stored.
 * @cpu_files: @nr_cpus files of raw ring-buffer pages, one per CPU.
 * @path:      the output's name, for errors.
 * Return: 0, or -1 with @err set.
 */
int rr_tracedat_write(int fd, const char *tracing, const char *const *systems,
		      unsigned int page_size, int nr_cpus, const char *const *cpu_files,
		      const char *path, struct rr_error *err);

#endif
