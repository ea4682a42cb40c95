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
	/* 0: the default: snapshots at start and end only with the memcg
	 * events, every RR_RECORD_SNAPSHOT_MS_NO_MEMCG_EVENTS without */
	unsigned int snapshot_interval_ms;
	/* leave the memcg: events off, as on a kernel before 6.13 that has
	 * none (which record also does by itself): periodic snapshots and
	 * "tasks" markers stand in for them */
	bool no_memcg_events;
	/* the shrink_lruvec() kprobe (probes.h) */
	enum { RR_RECORD_PROBES_AUTO, RR_RECORD_PROBES_ON, RR_RECORD_PROBES_OFF } probes;
	/* --kernel-policy: the policy this (patched) kernel runs, written to
	 * the meta marker for the replay's baseline; NULL none */
	const char *kernel_policy;
	bool quiet;
};

/* Periodic snapshots without the memcg events: every this many ms.  One
 * snapshot of 47 memcgs (v1, 6.18, a 2-CPU VM where a system call costs
 * about 10 us) takes 4-5 ms and 20 KiB of markers: at 250 ms, 2 % of one
 * CPU and 80 KiB/s; at 100 ms it would be 5 % (record(1), OPTIONS). */
#define RR_RECORD_SNAPSHOT_MS_NO_MEMCG_EVENTS 250

/* The most thread ids the "tasks" markers of one snapshot list (the rest
 * are counted in their left_out=): 4096 ids are about 30 KiB of markers. */
#define RR_RECORD_MAX_TASKS_PER_SNAPSHOT 4096

/* Whether the memcg: events were recorded. */
enum rr_record_memcg_events {
	RR_RECORD_MEMCG_EVENTS_ON,
	RR_RECORD_MEMCG_EVENTS_OFF,	/* --no-memcg-events */
	RR_RECORD_MEMCG_EVENTS_ABSENT,	/* the kernel has none (before 6.13) */
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
	enum rr_record_memcg_events memcg_events;
	/* the shrink_lruvec() kprobe was recorded; else why not ("" when it
	 * was) */
	bool probe_on;
	char probe_why[300];
	char items_source[16];		/* where the memcg item numbers came
					 * from: "btf" or "vmstat" (the order of
					 * /proc/vmstat, on a kernel without
					 * /sys/kernel/btf/vmlinux) */
	unsigned int snapshot_interval_ms;	/* periodic snapshots' interval, ms;
						 * 0 none */
	int nr_periodic;		/* periodic snapshots taken */
	long long tasks_left_out;	/* thread ids of non-root memcgs the
					 * "tasks" lines left out (cap), all
					 * snapshots */
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

/**
 * rr_zoneinfo_copy() - "zone" and "node" lines from a copy of /proc/zoneinfo
 * @path: a file a user copied from /proc/zoneinfo of the recording machine
 *        (compare/report --zoneinfo), at another time than the trace's.
 * @emit: called with each line (without the marker prefix).
 * As rr_zone_snapshot(), but what changes by the second is left out: the
 * zones' free pages and every node counter are -1 (unknown), the node
 * line's source= is RR_NODE_SOURCE_ZONEINFO_COPY.  The watermarks (min,
 * low, high, boost as of the copy: high_wmark_pages() includes it),
 * managed pages and protection are kept.
 * Return: the number of nodes (>= 1); -1 with @err set when the file cannot
 * be opened or read, holds no zone with managed pages, or @emit failed
 * (@emit sets @err then).
 */
int rr_zoneinfo_copy(const char *path, int (*emit)(const char *line, void *ctx), void *ctx,
		     struct rr_error *err);

/* The node ids a copy may name (MAX_NUMNODES of x86-64 kernels, 1 << 10) */
#define RR_ZONEINFO_MAX_NODES 1024

#endif
