/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the recorder, shared by its files (each calls only those
 * after it): record.c (rr_record(): the order of a recording, signals,
 * CMD), cgroup.c (the workload's cgroup), instance.c (the tracefs
 * instance, its readers, the trace.dat), meta.c (the marker lines).
 * Not for other stages.
 */
#ifndef RR_RECORD_LOCAL_H
#define RR_RECORD_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../markers/markers.h"
#include "probes.h"
#include "record.h"
#include "sysinfo.h"

struct tracefs_instance;
struct tracefs_cpu;

#define INSTANCE_PREFIX "reclaim-replay-"

struct rec {
	const struct rr_record_opts *o;
	struct rr_error *err;
	struct tracefs_instance *inst;
	struct tracefs_cpu **tcpu;
	int *cpu_fd;
	char **cpu_path;
	int nr_cpus;
	int write_errno;	/* a write of recorded data failed: stop */
	char cgroup_dir[1400];
	bool cgroup_made;
	pid_t child;
	struct rr_cgroup_fs fs;
	struct rr_items items;
	unsigned int page_size;
	int vm_swappiness;
	enum rr_record_memcg_events memcg_events;
	/* each snapshot lists the memcgs' tasks, and forks are recorded:
	 * without the memcg events, or with periodic snapshots asked for
	 * (then --drop-memcg-events sees what a recording without them holds) */
	bool follow_tasks;
	unsigned int snapshot_interval_ms;	/* in effect; 0 none */
	long long tasks_left_out;
	/* the shrink_lruvec() kprobe (probes.h): planned, added to
	 * kprobe_events (removed at the end), and why not where it is not */
	struct rr_probe_plan probe;
	bool probe_made;
	char probe_why[300];
};

/* cgroup.c */
void rr_rec_remove_stale_cgroups(void);
int rr_rec_write_file(const char *dir, const char *file, const char *value, struct rr_error *err);
int rr_rec_make_cgroup(struct rec *r);
void rr_rec_remove_cgroup(struct rec *r);

/* instance.c */
int rr_rec_read_int_file(const char *path, int def);
bool rr_rec_has_filesystem(const char *type);
bool rr_rec_tracefs_mounted(void);
void rr_rec_remove_stale_instances(void);
bool rr_rec_kernel_has_memcg_events(const char *tracing);
int rr_rec_setup_events(struct rec *r);
int rr_rec_open_readers(struct rec *r);
void rr_rec_note_write_error(struct rec *r, int n);
long rr_rec_drain(struct rec *r);
uint64_t rr_rec_lost_events(struct rec *r, struct rr_record_result *res);
int rr_rec_write_output(struct rec *r, struct rr_record_result *res);

/* meta.c */
int rr_rec_marker(struct rec *r, const char *line);
int rr_rec_snapshot(struct rec *r, const char *when, int *count, int *nodes);
int rr_rec_write_meta(struct rec *r, const char *lruvec_filter, const char *events_filter);
void rr_rec_proactive(struct rec *r);

#endif
