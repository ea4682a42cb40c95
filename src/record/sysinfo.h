/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the recorder reads from the running system besides events
 * (docs/kernel-model.md §18): enum numbering of the memcg event items
 * (items.c), a snapshot of every memory cgroup (cgroupfs.c), and of the
 * zones, nodes and vm sysctls (zones.c).  The snapshot is written into the
 * trace as marker lines (see src/markers/markers.h), so the trace stays a
 * standard trace.dat and the data stays time-ordered with the events.
 */
#ifndef RR_RECORD_SYSINFO_H
#define RR_RECORD_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/error.h"
#include "../markers/markers.h"

/* Item numbers the replay needs; -1 when the kernel has no such item. */
struct rr_items {
	char source[16];		/* "btf" or "vmstat" */
	int nr_lru_base;		/* NR_INACTIVE_ANON, normally 0 */
	int workingset_refault[2], workingset_activate[2], workingset_restore[2];
	int pgscan[4];			/* PGSCAN_KSWAPD, _DIRECT, _KHUGEPAGED, _PROACTIVE */
	int pgsteal[4];
	int pgrefill, pgdeactivate;
};

/**
 * rr_items_resolve() - find the item numbers of the running kernel
 * From BTF (/sys/kernel/btf/vmlinux: enums node_stat_item, vm_event_item),
 * else from the order of /proc/vmstat names (with source "vmstat").
 * Return: 0, or -1 with @err when neither works.
 */
int rr_items_resolve(struct rr_items *it, struct rr_error *err);

/* The kernel-side filters of mod_memcg_lruvec_state and count_memcg_events. */
void rr_items_filters(const struct rr_items *it, char *lruvec, size_t lruvec_len,
		      char *events, size_t events_len);

/* The memory cgroup hierarchy of this machine. */
struct rr_cgroup_fs {
	char root[512];		/* mount point, e.g. /sys/fs/cgroup/memory */
	int version;		/* 1 or 2 */
	int hierarchy_id;	/* v1: /proc/cgroups column 2; v2: 0 */
	char self[1100];	/* our own memcg directory (absolute) */
	/* not empty: our memcg is not under the mount (say why); self is
	 * then not usable */
	char self_problem[320];
};

/**
 * rr_cgroup_fs_find() - locate the memory controller
 * @proc_root: "/proc", or a test directory holding the files cgroups,
 *             mounts and self/cgroup (mounts may point into a fake tree),
 *             and optionally self/mountinfo.
 * fs->self is our own memcg's directory: /proc/self/cgroup's path under
 * the mount, less the mount's top where mountinfo gives one (a container
 * that mounts its own cgroup as the hierarchy, Docker on cgroup v1).
 * Where our memcg is not under the mount, fs->self_problem says why and
 * fs->self is not usable.
 * Return: 0, or -1 with @err when no memory controller is mounted.
 */
int rr_cgroup_fs_find(struct rr_cgroup_fs *fs, const char *proc_root,
		      struct rr_error *err);

/**
 * rr_cgroup_snapshot() - one marker line per memory cgroup
 * @emit: called with each line (without the marker prefix); returns 0 or
 *        -1 to stop.
 * Lines come parents first.  Walks the whole hierarchy under fs->root: id
 * (the directory's inode, the
 * cgroup id of memcg events), path relative to the root, local LRU sizes in
 * pages (v1 memory.stat local fields; v2 memory.stat minus the children),
 * swappiness (v1; v2: vm.swappiness), limits and protection in bytes.
 * Return: the number of cgroups, or -1 with @err.
 */
int rr_cgroup_snapshot(const struct rr_cgroup_fs *fs, unsigned int page_size,
		       int vm_swappiness, int (*emit)(const char *line, void *ctx),
		       void *ctx, struct rr_error *err);

/**
 * rr_cgroup_tasks() - "tasks" marker lines: which memcg each thread is in
 * @fs:          the hierarchy (see rr_cgroup_fs_find()).
 * @max_listed:  the most thread ids to list over all lines, 0 or more;
 *               the others are counted in their memcg's left_out=.
 * @emit:        called with each line (without the marker prefix);
 *               returns 0, or -1 to stop.
 * @left_out:    if not NULL, set to the thread ids of memcgs other than
 *               the root that the cap left out.
 * Walks the hierarchy parents first; for each memcg (id = directory inode,
 * as in rr_cgroup_snapshot()) with threads reads them from v1 "tasks" or
 * v2 "cgroup.threads" (thread ids, the events' common_pid) and writes one
 * line per RR_MARKER_TASKS_MAX_PIDS of them.  A v2 cgroup without the
 * memory controller (no memory.stat) adds its threads to its nearest
 * ancestor memcg.  The root memcg's threads (kernel threads, system
 * services: never in memcg limit reclaim) are counted, not listed.  A
 * cgroup removed during the walk is skipped.
 * Return: the number of thread ids listed, or -1 with @err when a line
 * could not be written.
 */
int rr_cgroup_tasks(const struct rr_cgroup_fs *fs, int max_listed,
		    int (*emit)(const char *line, void *ctx), void *ctx,
		    long long *left_out, struct rr_error *err);

/**
 * rr_proactive_write() - one write to a cgroup's memory.reclaim, between
 * a "proactive begin" and a "proactive end" marker line
 * @fs:         the hierarchy; the begin line's path= is @cgroup_dir
 *              relative to fs->root ("/a/b"; "/" for the root itself).
 * @cgroup_dir: the cgroup's directory, absolute, under fs->root.
 * @bytes:      bytes to reclaim, 1 or more (memory_reclaim() reads them
 *              with memparse() and divides by PAGE_SIZE).
 * @swappiness: -1 for no key, 0..200, or RR_SWAPPINESS_ANON_ONLY: written
 *              as the kernel's nested key, "BYTES swappiness=N" or
 *              "BYTES swappiness=max" (68cd9050d871, v6.11; "max" ~v6.16;
 *              older kernels refuse the key with EINVAL, which the end
 *              line then carries).
 * @emit:       called with each line (without the marker prefix).
 * Return: 0, or the write's errno (also in the end line as errno=).
 */
int rr_proactive_write(const struct rr_cgroup_fs *fs, const char *cgroup_dir,
		       uint64_t bytes, int swappiness,
		       int (*emit)(const char *line, void *ctx), void *ctx);

/**
 * rr_zone_snapshot() - the "zone" and "node" marker lines
 * @proc_root: "/proc" (zoneinfo, meminfo, vmstat), or a test directory.
 * @sys_root:  "/sys" (devices/system/node/nodeN/vmstat), or a test directory.
 * @emit:      called with each line (without the marker prefix).
 * For each node of /proc/zoneinfo: one "zone" line per zone with managed
 * pages (zid = its place in the node's list, the kernel's zone index),
 * then one "node" line with the node's vmstat counters (nodeN/vmstat, else
 * /proc/vmstat), zones= (the zone lines written) and SwapFree.
 * Return: the number of nodes (0 without a readable zoneinfo), or -1 with
 * @err when a line could not be written.
 */
int rr_zone_snapshot(const char *proc_root, const char *sys_root,
		     int (*emit)(const char *line, void *ctx), void *ctx, struct rr_error *err);

/* The "vm" marker's sysctls (vm.min_free_kbytes, ...), -1 where a file is
 * missing; @proc_root, @sys_root as above. */
void rr_vm_read(const char *proc_root, const char *sys_root, struct rr_marker_vm *vm);

#endif
