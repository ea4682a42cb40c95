/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recorder: a private tracefs instance with the events a faithful
 * replay needs (docs/kernel-model.md §18), per-CPU splice readers,
 * snapshot markers (src/markers) at start and end, an optional child cgroup for the
 * workload, and a trace.dat v6 at the end.  Everything it changes in
 * tracefs and cgroupfs is undone on exit, on errors and on signals.
 */
#ifndef RR_RECORD_H
#define RR_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"

#define RR_RECORD_MAX_EXTRA 32

struct rr_record_opts {
	const char *output;		/* trace.dat path */
	bool force;			/* overwrite an existing output */
	unsigned int duration_s;	/* 0: until CMD exits or a signal */
	unsigned int buffer_kb;		/* per CPU */
	const char *extra[RR_RECORD_MAX_EXTRA];	/* -e SYSTEM[:EVENT] */
	int nr_extra;
	const char *cgroup;		/* child cgroup to create for CMD, or NULL */
	uint64_t memory_max_bytes;	/* 0: none */
	int swappiness;			/* -1: inherit */
	uint64_t proactive_bytes;	/* write this to the cgroup's memory.reclaim (v2) */
	unsigned int proactive_interval_ms;	/* every this often; 0: once */
	/* the writes' swappiness= key: -1 none, 0..200, or
	 * RR_SWAPPINESS_ANON_ONLY for "max" */
	int proactive_swappiness;
	char *const *argv;		/* CMD ARGS..., or NULL */
	unsigned int snapshot_interval_ms;	/* 0: snapshots at start and end only */
	bool quiet;
};

struct rr_record_result {
	int cmd_status;			/* waitpid() status of CMD, -1 if none */
	bool cmd_stopped;		/* CMD was still running when the recording
					 * stopped, and was sent SIGTERM (SIGKILL
					 * after RR_RECORD_STOP_GRACE_MS) */
	int stop_signal;		/* SIGINT, SIGTERM or SIGHUP that stopped
					 * the recording; 0 if none did */
	int write_errno;		/* ENOSPC, EDQUOT, EFBIG or EIO: a write of
					 * the recorded data failed, which stopped
					 * the recording early; 0 if none did */
	uint64_t dropped_bytes;		/* newest recorded data left out so that the
					 * trace fits the free space */
	double seconds;			/* from the start of CMD (or of the
					 * recording) to its stop */
	char saved_as[4096];		/* where the trace was written instead of
					 * the output, whose directory could not
					 * take it (removed meanwhile, ...); "" if
					 * it is at the output */
	int output_errno;		/* why, when saved_as is set */
	uint64_t bytes;			/* trace.dat size */
	uint64_t lost_events;		/* overrun + dropped, all CPUs */
	uint64_t lost_per_cpu[256];	/* the first 256 CPUs */
	int nr_cpus;
	int nr_cgroups;			/* in the start snapshot */
	int nr_nodes;			/* "node" lines in the start snapshot */
};

/* How long CMD has to end after SIGTERM before it gets SIGKILL, in ms. */
#define RR_RECORD_STOP_GRACE_MS 3000

/**
 * rr_record() - record a workload
 * @opts: what to record; see struct rr_record_opts.
 * @res:  filled in whenever a trace was written (return 0), even one that
 *        is incomplete: stopped by a signal, cut short by a full disk,
 *        written to @res->saved_as instead of @opts->output, or of a CMD
 *        that failed.  The caller tells these apart from its fields.
 * Return: 0 when a trace was written, or -1 with @err naming what is
 * missing or failed (not root, no tracefs or tracefs not mounted, a
 * read-only tracefs, no vmscan events, no memory cgroup controller, the
 * output exists, the cgroup cannot be made, CMD cannot be run, not even
 * the trace's headers fit on the disk, ...) and no trace written.
 * Everything it changed in tracefs and cgroupfs is undone either way.
 */
int rr_record(const struct rr_record_opts *opts, struct rr_record_result *res,
	      struct rr_error *err);

#endif
