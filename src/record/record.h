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
	char *const *argv;		/* CMD ARGS..., or NULL */
	unsigned int snapshot_interval_ms;	/* 0: snapshots at start and end only */
	bool quiet;
};

struct rr_record_result {
	int cmd_status;			/* waitpid() status of CMD, -1 if none */
	uint64_t bytes;			/* trace.dat size */
	uint64_t lost_events;		/* overrun + dropped, all CPUs */
	uint64_t lost_per_cpu[256];	/* the first 256 CPUs */
	int nr_cpus;
	int nr_cgroups;			/* in the start snapshot */
};

/**
 * rr_record() - record a workload
 * Return: 0, or -1 with @err naming what is missing or failed (not root,
 * no tracefs, read-only tracefs, output exists, cgroup creation, ...).
 */
int rr_record(const struct rr_record_opts *opts, struct rr_record_result *res,
	      struct rr_error *err);

#endif
