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
	RR_MARKER_MEMCG,		/* "memcg ...": one cgroup of a snapshot */
	RR_MARKER_LOST,			/* "lost cpu0=N ...": ring-buffer losses */
	RR_MARKER_PROACTIVE_BEGIN,	/* "proactive begin bytes=N [swappiness=N|max]
					 * [path=/a/b]" */
	RR_MARKER_PROACTIVE_END,	/* "proactive end bytes=N result=... errno=N" */
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

/* "snapshot begin/end". */
struct rr_marker_snapshot {
	char when[16];			/* "start", "cgroup", "periodic", "end" */
	long long cgroups;		/* end only; -1 absent */
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

struct rr_marker {
	enum rr_marker_kind kind;
	union {
		struct rr_marker_meta meta;
		struct rr_marker_items items;
		struct rr_marker_memcg memcg;
		struct rr_marker_snapshot snapshot;
		struct rr_marker_proactive proactive;
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
int rr_marker_format_memcg(char *buf, size_t len, const struct rr_marker_memcg *mc);
/* "proactive begin bytes=N[ swappiness=N|max][ path=/a/b]" (swappiness=
 * left out when -1, path= when ""), or "proactive end bytes=N result=...
 * errno=N" */
int rr_marker_format_proactive(char *buf, size_t len, bool begin,
			       const struct rr_marker_proactive *p);
/* "lost cpu0=N cpu1=N ...": @lost has @nr_cpus entries. */
int rr_marker_format_lost(char *buf, size_t len, const uint64_t *lost, int nr_cpus);

#endif
