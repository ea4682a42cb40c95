/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recorder's marker lines: metadata and cgroup snapshots that
 * `reclaim-replay record` writes into the trace through trace_marker, so
 * the file stays a standard trace.dat and the data stays time-ordered with
 * the events (man reclaim-replay-record.1, "MARKERS").  This module is the
 * only place that knows their format: the recorder formats them with the
 * rr_marker_format_*() functions, and the readers (the episode builder, the
 * text reader's release scan) parse them with rr_marker_parse().
 *
 * A line is RR_MARKER_PREFIX, one space, then a body: a keyword and
 * "key=value" words separated by single spaces.  Values hold no spaces,
 * except "path=", which runs to the end of the line.  Sizes are in pages
 * where the key names an LRU list, in bytes where it ends in _bytes or _kb
 * says KiB.  Unknown keys are ignored; a missing key reads as the default
 * given below, so older and newer recorders stay readable.
 */
#ifndef RR_MARKERS_H
#define RR_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/lru.h"
#include "../common/swappiness.h"	/* RR_SWAPPINESS_ANON_ONLY */

/* Prefix of every marker line the recorder writes. */
#define RR_MARKER_PREFIX "reclaim-replay:"

/* Version of the "meta" line (its version= key). */
#define RR_MARKER_VERSION 1

/* memory.min/low of a memcg line: "max" (written -1 by every recorder
 * version), and not known */
#define RR_MARKER_BYTES_MAX (-1LL)
#define RR_MARKER_BYTES_UNKNOWN INT64_MIN
/* the longest line a recorder writes: the kernel keeps about 4 KiB of a
 * trace_marker write (4085 bytes of text measured on 6.18) */
#define RR_MARKER_MAX_LINE_BYTES 4000
/* the largest LRU size (pages) a memcg line may give: 2^40 */
#define RR_MARKER_MAX_PAGES (1ULL << 40)

enum rr_marker_kind {
	RR_MARKER_NONE,			/* not a marker of ours */
	RR_MARKER_META,			/* "meta ...": the system, once, first */
	RR_MARKER_ITEMS,		/* "items ...": node_stat/vm_event numbers */
	RR_MARKER_FILTERS,		/* "filters EVENT=FILTER" */
	RR_MARKER_EVENTS,		/* "events enabled=..." */
	RR_MARKER_SNAPSHOT_BEGIN,	/* "snapshot begin when=..." */
	RR_MARKER_SNAPSHOT_END,		/* "snapshot end when=... cgroups=N" */
	RR_MARKER_SNAPSHOT_READ,	/* "snapshot read id=N": memory.stat of memcg N
					 * is read now (its line comes later) */
	RR_MARKER_MEMCG,		/* "memcg ...": one cgroup of a snapshot */
	RR_MARKER_LOST,			/* "lost cpu0=N ...": ring-buffer losses */
	RR_MARKER_PROACTIVE_BEGIN,	/* "proactive begin bytes=N [swappiness=N|max]
					 * [path=/a/b]" */
	RR_MARKER_PROACTIVE_END,	/* "proactive end bytes=N result=... errno=N" */
	RR_MARKER_VM,			/* "vm ...": vm sysctls, once, after "items" */
	RR_MARKER_ZONE,			/* "zone nid=N zid=N ...": one managed zone of a
					 * snapshot (/proc/zoneinfo) */
	RR_MARKER_NODE,			/* "node nid=N ...": one node of a snapshot,
					 * after its zones (node vmstat) */
	RR_MARKER_TASKS,		/* "tasks memcg=ID threads=N left_out=N
					 * pids=P,P,...": the threads of one memcg
					 * in a snapshot (recorders from 0.4 on,
					 * without memcg events) */
	RR_MARKER_OTHER,		/* our prefix, a keyword this version ignores */
};

/* "meta": what the recorder knew about the system. */
struct rr_marker_meta {
	char kernel_release[128];	/* uname -r; "" if absent */
	long long page_size;		/* bytes; -1 absent */
	long long cpus;			/* -1 absent */
	long long cgroup_version;	/* 1 or 2; -1 absent */
	long long memory_hierarchy_id;	/* v1 hierarchy id of memcg; -1 absent */
	long long swap_total_kb;	/* SwapTotal of /proc/meminfo; -1 absent */
	long long vm_swappiness;	/* -1 absent */
	char mglru[32];			/* /sys/kernel/mm/lru_gen/enabled, "absent",
					 * "unknown"; "" if the key is missing */
	long long buffer_kb, duration_s;	/* recorder options; -1 absent */
	/* whether the memcg: events were recorded (recorders from 0.4 on):
	 * "on", "off" (record --no-memcg-events), "absent" (the kernel has
	 * none, Linux before 6.13); "" when the key is missing (on) */
	char memcg_events[16];
	long long snapshot_interval_ms;	/* periodic snapshots: ms between
					 * them, 0 none; -1 absent */
	/* the policy the recording kernel runs on top of its release's rules
	 * (record --kernel-policy: a patched kernel, e.g. "proportional-v1");
	 * "" for none (a stock kernel, or a recorder before 0.5) */
	char kernel_policy[64];
};

/* "items": node_stat_item / vm_event_item numbers; -1 absent. */
struct rr_marker_items {
	char source[16];		/* "btf" or "vmstat" */
	long long nr_lru_base;
	long long workingset_refault[RR_NR_LRU_TYPES];
	long long workingset_activate[RR_NR_LRU_TYPES];
	long long workingset_restore[RR_NR_LRU_TYPES];
	long long pgscan_kswapd, pgscan_direct, pgscan_proactive, pgrefill;
};

/* "memcg": one memory cgroup of a snapshot. */
struct rr_marker_memcg {
	long long id;			/* cgroup id (inode); -1 absent */
	long long level;		/* -1 absent */
	long long swappiness;		/* -1 absent */
	uint64_t lru_pages[RR_NR_LRU];	/* local sizes in pages; 0 absent */
	/* hierarchical sizes in pages (keys hier_inactive_anon, ...: v1
	 * memory.stat total_*, v2 memory.stat), dying descendants included;
	 * hier_known false when the line has none (recorders before 0.3) */
	uint64_t hier_pages[RR_NR_LRU];
	bool hier_known;
	long long limit_bytes;		/* memory.max / limit_in_bytes; -1 "max"
					 * or unlimited, 0 absent */
	/* memory.min/low: RR_MARKER_BYTES_MAX when the file said "max",
	 * RR_MARKER_BYTES_UNKNOWN when the key is absent or malformed */
	long long min_bytes, low_bytes;
	/* the first key holding a value no kernel gives (an LRU size below 0
	 * or above RR_MARKER_MAX_PAGES), or NULL */
	const char *malformed;
	char path[4096];		/* "/a/b" relative to the hierarchy; "" absent */
};

/* "vm": the sysctls that set the watermarks and global reclaim's flags
 * (/proc/sys/vm/..., /proc/sys/kernel/numa_balancing); -1 absent. */
struct rr_marker_vm {
	long long min_free_kbytes;	/* KiB */
	long long watermark_scale_factor;	/* 1/10000 of a zone's managed pages */
	long long watermark_boost_factor;	/* 1/10000 of the high watermark */
	long long laptop_mode;
	long long zone_reclaim_mode;
	long long numa_balancing;	/* kernel.numa_balancing (2: memory tiering) */
	long long demotion_enabled;	/* /sys/kernel/mm/numa/demotion_enabled: 0/1 */
	/* the first key holding a value that is no whole number of 0 or
	 * more (read as absent), or NULL */
	const char *malformed;
};

/* The most zones a node has (MAX_NR_ZONES: DMA, DMA32, Normal, HighMem,
 * Movable, Device); a zid at or above it is malformed. */
#define RR_MARKER_MAX_ZONES 8
/* the largest page count a zone or node line may give: 2^40 */
#define RR_MARKER_MAX_ZONE_PAGES (1LL << 40)

/* The node line's source= for the lines of a user's /proc/zoneinfo copy
 * (rr_zoneinfo_copy(), compare/report --zoneinfo): watermarks of another
 * time than the trace's, no counters. */
#define RR_NODE_SOURCE_ZONEINFO_COPY "zoneinfo-copy"

/* "zone": one zone with managed pages, as /proc/zoneinfo printed it.
 * Page counts, -1 absent. */
struct rr_marker_zone {
	long long nid, zid;		/* node; index in the node's zone list (the
					 * kernel's enum zone_type order, which
					 * zoneinfo follows); -1 absent */
	char name[16];			/* "DMA", "DMA32", "Normal", ...; "" absent */
	long long managed, present, spanned;
	long long free;			/* "pages free" (NR_FREE_PAGES of the zone) */
	/* the watermarks as printed: min/low/high_wmark_pages(), which
	 * include the boost (mmzone.h wmark_pages(), v5.0+) */
	long long min, low, high;
	long long boost;		/* watermark_boost */
	long long promo;		/* promo watermark (v6.1+) */
	/* lowmem_reserve[] ("protection:"), per zone of the node; -1 absent */
	long long protection[RR_MARKER_MAX_ZONES];
	int nr_protection;		/* entries given, 0 absent */
	const char *malformed;		/* the first bad key, or NULL */
};

/* "node": a node's vmstat counters (pages) and the machine's free swap;
 * -1 absent. */
struct rr_marker_node {
	long long nid;
	long long zones;		/* zone lines written for it just before */
	long long nr_free_pages;
	long long nr_inactive_anon, nr_active_anon, nr_inactive_file, nr_active_file;
	long long nr_isolated_anon, nr_isolated_file;
	long long nr_writeback, nr_dirty;
	long long swap_free_kb;		/* SwapFree of /proc/meminfo, KiB (all nodes) */
	char source[16];		/* "node" (nodeN/vmstat) or "vmstat" (/proc/vmstat);
					 * RR_NODE_SOURCE_ZONEINFO_COPY: no counter (a
					 * user's /proc/zoneinfo copy, --zoneinfo) */
	const char *malformed;		/* the first bad key, or NULL */
};

/* "snapshot begin/end". */
struct rr_marker_snapshot {
	char when[16];			/* "start", "cgroup", "periodic", "end" */
	long long cgroups;		/* end only; -1 absent */
	long long id;			/* read only: the memcg's id; -1 absent */
};

/* "proactive begin/end": one memory.reclaim write. */
struct rr_marker_proactive {
	long long bytes;		/* bytes written; -1 absent */
	char result[16];		/* end: "ok" or "error"; "" absent */
	long long errno_value;		/* end: 0 or the write's errno; -1 absent */
	/* begin: the write's "swappiness=" key (memory.reclaim, v6.11+
	 * 68cd9050d871; "max" ~v6.16+): -1 absent, 0..200, or
	 * RR_SWAPPINESS_ANON_ONLY for "max"; -1 too when malformed */
	long long swappiness;
	/* begin: the first key holding a value no recorder writes
	 * ("swappiness" not 0..200 or max), or NULL */
	const char *malformed;
	/* begin: the cgroup written to, relative to the hierarchy root
	 * ("/a/b"); "" absent (recorders before 0.3) */
	char path[4096];
};

/* the most thread ids one "tasks" line gives: 480 of up to 7 digits
 * (pid_max is at most 4194304) and their commas keep the line under
 * RR_MARKER_MAX_LINE_BYTES */
#define RR_MARKER_TASKS_MAX_PIDS 480

/*
 * "tasks": threads of one memory cgroup when a snapshot was taken (v1 its
 * "tasks" file, v2 its "cgroup.threads"; threads of a v2 cgroup without
 * the memory controller count in the nearest ancestor that has it).  A
 * memcg with more threads than one line holds gets several lines, each
 * with the same @threads and @left_out.
 */
struct rr_marker_tasks {
	long long memcg_id;		/* cgroup id (inode), the memcg line's id=;
					 * -1 absent */
	long long threads;		/* thread ids the file gave, 0 or more;
					 * -1 absent */
	long long left_out;		/* of those, listed in no line (the
					 * recorder's cap), 0..threads; -1 absent */
	int nr_pids;			/* entries of @pids, 0..RR_MARKER_TASKS_MAX_PIDS */
	int pids[RR_MARKER_TASKS_MAX_PIDS];	/* thread ids (the events' common_pid) */
	/* the first key holding a value no recorder writes (an id or count
	 * below 0, a pid of 0 or less or above 2^22, more than
	 * RR_MARKER_TASKS_MAX_PIDS pids), or NULL */
	const char *malformed;
};

struct rr_marker {
	enum rr_marker_kind kind;
	union {
		struct rr_marker_meta meta;
		struct rr_marker_items items;
		struct rr_marker_memcg memcg;
		struct rr_marker_snapshot snapshot;
		struct rr_marker_proactive proactive;
		struct rr_marker_vm vm;
		struct rr_marker_zone zone;
		struct rr_marker_node node;
		struct rr_marker_tasks tasks;
	};
};

/**
 * rr_marker_parse() - read one marker line
 * @text: the text of a trace_marker write (ftrace:print's buffer), @len
 *        bytes, not NUL-terminated; with RR_MARKER_PREFIX first, or, when
 *        @anywhere, anywhere in it (a text trace line).
 * @m:    filled for the kinds above; only the member of m->kind is set.
 * Return: m->kind; RR_MARKER_NONE when @text is not one of our lines.
 * Never fails otherwise: missing keys read as their defaults.
 */
enum rr_marker_kind rr_marker_parse(const char *text, size_t len, bool anywhere,
				    struct rr_marker *m);

/*
 * Writers: the body of one line (without the prefix) into @buf of @len
 * bytes.  Return: what snprintf() returns (>= @len means cut).
 */
int rr_marker_format_meta(char *buf, size_t len, const struct rr_marker_meta *meta);
int rr_marker_format_items(char *buf, size_t len, const struct rr_marker_items *items);
int rr_marker_format_filter(char *buf, size_t len, const char *event, const char *filter);
int rr_marker_format_events(char *buf, size_t len, const char *enabled);
int rr_marker_format_snapshot(char *buf, size_t len, bool begin,
			      const struct rr_marker_snapshot *s);
/* "snapshot read id=N": written right before memcg @id's memory.stat is
 * read, so that a reader can add the LRU deltas between the read and the
 * memcg line (recorders from 0.3 on). */
int rr_marker_format_snapshot_read(char *buf, size_t len, unsigned long long id);
int rr_marker_format_memcg(char *buf, size_t len, const struct rr_marker_memcg *mc);
/* "proactive begin bytes=N[ swappiness=N|max][ path=/a/b]" (swappiness=
 * left out when -1, path= when ""), or "proactive end bytes=N result=...
 * errno=N" */
int rr_marker_format_proactive(char *buf, size_t len, bool begin,
			       const struct rr_marker_proactive *p);
/* "vm min_free_kbytes=N ..." (every key, -1 where not known) */
int rr_marker_format_vm(char *buf, size_t len, const struct rr_marker_vm *vm);
/* "zone nid=N zid=N name=S managed=N present=N spanned=N free=N min=N low=N
 * high=N boost=N promo=N protection=N,N,..." (promo= and protection= left
 * out when absent) */
int rr_marker_format_zone(char *buf, size_t len, const struct rr_marker_zone *z);
/* "node nid=N zones=N source=S nr_free_pages=N ... swap_free_kb=N" */
int rr_marker_format_node(char *buf, size_t len, const struct rr_marker_node *n);
/*
 * "tasks memcg=ID threads=N left_out=N[ pids=P,P,...]": @pids has @nr_pids
 * thread ids (at most RR_MARKER_TASKS_MAX_PIDS; more are not written),
 * pids= left out when there are none.
 */
int rr_marker_format_tasks(char *buf, size_t len, const struct rr_marker_tasks *t);
/* "lost cpu0=N cpu1=N ...": @lost has @nr_cpus entries. */
int rr_marker_format_lost(char *buf, size_t len, const uint64_t *lost, int nr_cpus);

#endif
