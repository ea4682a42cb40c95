// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's cgroup snapshot on fake cgroupfs trees: cgroup v2 (this
 * machine has only v1 memory cgroups), where memory.stat is hierarchical
 * and the local sizes are the difference to the children, and v1, where
 * memory.stat is local already.  The trace.dat writer's move of the
 * per-CPU data, and what it leaves out when the trace cannot be whole.
 * No root needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/record/sysinfo.h"
#include "../../src/record/tracedat.h"
#include "../../src/markers/markers.h"
#include "unit.h"

static char base[256];

static void put(const char *rel, const char *text)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	mkdir(path, 0755);
}

struct lines {
	char text[8][600];
	int n;
};

static int collect(const char *line, void *ctx)
{
	struct lines *l = ctx;

	if (l->n < 8)
		snprintf(l->text[l->n++], sizeof(l->text[0]), "%s", line);
	return 0;
}

static const char *find(const struct lines *l, const char *path_eq)
{
	for (int i = 0; i < l->n; i++) {
		const char *p = strstr(l->text[i], " path=");

		if (p && !strcmp(p + 6, path_eq))
			return l->text[i];
	}
	return NULL;
}

static void make_base(void)
{
	snprintf(base, sizeof(base), "/tmp/rr-fakecg.XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(base));
	dir("proc");
	dir("proc/self");
	dir("cg");
}

static void test_v2_snapshot(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	struct lines l = { .n = 0 };
	char mounts[600];
	const char *line;

	make_base();
	put("proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
			    "cpu\t0\t3\t1\nmemory\t0\t3\t1\n");
	snprintf(mounts, sizeof(mounts), "proc /proc proc rw 0 0\n"
		 "cgroup2 %s/cg cgroup2 rw,nosuid 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "0::/job\n");
	dir("cg/job");
	dir("cg/job/a");
	/* hierarchical bytes: job = 40 MiB anon + 8 MiB file, its child a = 16 MiB anon */
	put("cg/memory.stat", "anon 1\ninactive_anon 46137344\nactive_anon 0\n"
			      "inactive_file 8388608\nactive_file 4096\nunevictable 0\n");
	put("cg/job/memory.stat", "inactive_anon 41943040\nactive_anon 0\n"
				  "inactive_file 8388608\nactive_file 0\nunevictable 0\n");
	put("cg/job/memory.max", "max\n");
	put("cg/job/memory.low", "1048576\n");
	put("cg/job/a/memory.stat", "inactive_anon 16777216\nactive_anon 0\n"
				    "inactive_file 0\nactive_file 0\nunevictable 0\n");
	put("cg/job/a/memory.max", "33554432\n");

	{
		char proc[300];

		snprintf(proc, sizeof(proc), "%s/proc", base);
		CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	}
	CU_ASSERT_EQUAL(fs.version, 2);
	CU_ASSERT_EQUAL(fs.hierarchy_id, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fs.self, "/cg/job"));
	CU_ASSERT_EQUAL(rr_cgroup_snapshot(&fs, 4096, 60, collect, &l, &err), 3);
	/* parents first */
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[0], " path=/"));
	line = find(&l, "/job");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	/* local = hierarchical - children: (40 - 16) MiB = 6144 pages anon */
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_anon=6144 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_file=2048 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "limit_bytes=-1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "low_bytes=1048576 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "swappiness=60 "));	/* v2: vm.swappiness */
	line = find(&l, "/job/a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_anon=4096 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "limit_bytes=33554432 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "level=2 "));
	line = find(&l, "/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	/* the root's local part: 44 - 40 MiB anon = 1024 pages, 1 page active file */
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_anon=1024 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "active_file=1 "));
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

struct longest {
	size_t max_len;		/* the longest line, bytes (with the prefix) */
	int empty_paths, n;
};

static int measure(const char *line, void *ctx)
{
	struct longest *l = ctx;
	size_t len = strlen(RR_MARKER_PREFIX) + 1 + strlen(line);
	const char *p = strstr(line, " path=");

	if (len > l->max_len)
		l->max_len = len;
	if (p && !p[6])
		l->empty_paths++;
	l->n++;
	return 0;
}

/* A cgroup path of 3936 bytes: the kernel would cut its marker line at
 * about 4 KiB, so the line leaves the path out (a bug fixed: the end of the
 * path, with nothing after it, was lost silently). */
static void test_long_path(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	struct longest l = { 0, 0, 0 };
	char mounts[600], proc[300], rel[4400] = "cg", comp[246], cmd[300];
	const char *stat = "inactive_anon 0\nactive_anon 0\ninactive_file 4096\n"
			   "active_file 0\nunevictable 0\n";

	make_base();
	put("proc/cgroups", "memory\t0\t17\t1\n");
	snprintf(mounts, sizeof(mounts), "cgroup2 %s/cg cgroup2 rw 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "0::/\n");
	put("cg/memory.stat", stat);
	memset(comp, 'x', 245);
	comp[245] = 0;
	for (int i = 0; i < 16; i++) {	/* 16 * 246 = 3936 bytes of path */
		char f[4500];

		snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/%s", comp);
		dir(rel);
		snprintf(f, sizeof(f), "%s/memory.stat", rel);
		put(f, stat);
	}
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_EQUAL(rr_cgroup_snapshot(&fs, 4096, 60, measure, &l, &err), 17);
	CU_ASSERT_EQUAL(l.n, 17);
	CU_ASSERT(l.max_len <= RR_MARKER_MAX_LINE_BYTES);
	/* level 16 (3936 bytes of path) loses it; level 15 (3690) keeps it */
	CU_ASSERT_EQUAL(l.empty_paths, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_v1_snapshot(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	struct lines l = { .n = 0 };
	char mounts[600], proc[300];
	const char *line;

	make_base();
	put("proc/cgroups", "memory\t4\t3\t1\n");
	snprintf(mounts, sizeof(mounts), "cgroup %s/cg cgroup rw,nosuid,memory 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "4:memory:/job\n0::/\n");
	dir("cg/job");
	/* v1 memory.stat: local fields plus total_* ones */
	put("cg/memory.stat", "inactive_anon 0\nactive_anon 0\ninactive_file 0\n"
			      "active_file 0\nunevictable 0\ntotal_inactive_file 8192\n");
	put("cg/job/memory.stat", "cache 0\ninactive_anon 8192\nactive_anon 4096\n"
				  "inactive_file 0\nactive_file 0\nunevictable 0\n");
	put("cg/job/memory.swappiness", "100\n");
	put("cg/job/memory.limit_in_bytes", "67108864\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_EQUAL(fs.version, 1);
	CU_ASSERT_EQUAL(fs.hierarchy_id, 4);
	CU_ASSERT_EQUAL(rr_cgroup_snapshot(&fs, 4096, 60, collect, &l, &err), 2);
	line = find(&l, "/job");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "swappiness=100 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_anon=2 active_anon=1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "limit_bytes=67108864 "));
	snprintf(proc, sizeof(proc), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(proc), 0);

	/* no memory controller: a clear error naming the file */
	make_base();
	put("proc/cgroups", "cpu\t1\t3\t1\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL(rr_cgroup_fs_find(&fs, proc, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no memory cgroup controller (it is built "
					      "without CONFIG_MEMCG)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.file, "/proc/cgroups"));
	snprintf(proc, sizeof(proc), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(proc), 0);

	/* each missing piece said apart: disabled, or not mounted */
	make_base();
	put("proc/cgroups", "memory\t4\t3\t0\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL(rr_cgroup_fs_find(&fs, proc, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "memory cgroup controller is disabled"));
	put("proc/cgroups", "memory\t4\t3\t1\n");
	put("proc/mounts", "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n");
	CU_ASSERT_EQUAL(rr_cgroup_fs_find(&fs, proc, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "memory cgroup controller is not mounted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.file, "/proc/mounts"));
	snprintf(proc, sizeof(proc), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(proc), 0);
}

static void test_item_filters(void)
{
	struct rr_items it = { .nr_lru_base = 0,
		.workingset_refault = { 10, 11 }, .workingset_activate = { 12, 13 },
		.workingset_restore = { 14, 15 }, .pgscan = { 32, 33, -1, 35 },
		.pgsteal = { 28, 29, -1, 31 }, .pgrefill = 26, .pgdeactivate = 21 };
	char lruvec[256], events[256];

	rr_items_filters(&it, lruvec, sizeof(lruvec), events, sizeof(events));
	CU_ASSERT_STRING_EQUAL(lruvec, "(item >= 0 && item < 5) || item == 10 || item == 12 || "
				       "item == 14 || item == 11 || item == 13 || item == 15");
	CU_ASSERT_STRING_EQUAL(events, "item == 32 || item == 28 || item == 33 || item == 29 || "
				       "item == 35 || item == 31 || item == 26 || item == 21");
}

/* Keys are read before the path only: a cgroup named "x swappiness=5"
 * (spaces and "=" are allowed in names) does not set a missing swappiness,
 * and is read whole as the path (a bug fixed: val() searched the path). */
static void test_marker_path_keys(void)
{
	static const char line[] = "reclaim-replay: memcg id=9 level=1 inactive_anon=3 "
				   "path=/x swappiness=5 min_bytes=7";
	struct rr_marker m;

	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, sizeof(line) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT_EQUAL(m.memcg.id, 9);
	CU_ASSERT_EQUAL(m.memcg.swappiness, -1);
	CU_ASSERT_EQUAL(m.memcg.min_bytes, RR_MARKER_BYTES_UNKNOWN);	/* absent */
	CU_ASSERT_EQUAL(m.memcg.lru_pages[0], 3);
	CU_ASSERT_STRING_EQUAL(m.memcg.path, "/x swappiness=5 min_bytes=7");
}

/* memory.min/low "max": record writes -1, "max" reads the same; a value
 * no file gives is not known (a bug fixed: -1 read as "not known") */
static void test_marker_protection_max(void)
{
	static const char line[] = "reclaim-replay: memcg id=9 level=1 min_bytes=-1 low_bytes=max "
				   "path=/x";
	static const char bad[] = "reclaim-replay: memcg id=9 level=1 min_bytes=-2 low_bytes=12k "
				  "inactive_file=-1 path=/x";
	struct rr_marker m;

	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, sizeof(line) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT_EQUAL(m.memcg.min_bytes, RR_MARKER_BYTES_MAX);
	CU_ASSERT_EQUAL(m.memcg.low_bytes, RR_MARKER_BYTES_MAX);
	CU_ASSERT_PTR_NULL(m.memcg.malformed);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(bad, sizeof(bad) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT_EQUAL(m.memcg.min_bytes, RR_MARKER_BYTES_UNKNOWN);
	CU_ASSERT_EQUAL(m.memcg.low_bytes, RR_MARKER_BYTES_UNKNOWN);
	CU_ASSERT_STRING_EQUAL(m.memcg.malformed, "inactive_file");
	CU_ASSERT_EQUAL(m.memcg.lru_pages[2], 0);
}

/* The recorder's memory.reclaim write on a fake cgroup v2 tree: the kernel's
 * nested key in the string written ("SIZE swappiness=N", 68cd9050d871), and
 * the marker lines around it carrying swappiness= and the cgroup's path */
static void test_v2_proactive_write(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	struct lines l = { .n = 0 };
	struct rr_marker m;
	char mounts[600], proc[300], cg[1200], got[128], line[1400];
	FILE *f;

	make_base();
	put("proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
			    "memory\t0\t3\t1\n");
	snprintf(mounts, sizeof(mounts), "cgroup2 %s/cg cgroup2 rw,nosuid 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "0::/job\n");
	dir("cg/job");
	dir("cg/job/rr-7");
	put("cg/job/rr-7/memory.reclaim", "");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_EQUAL_FATAL(fs.version, 2);
	snprintf(cg, sizeof(cg), "%s/rr-7", fs.self);

	static const struct { int sw; const char *written, *key; } c[] = {
		{ 0, "1048576 swappiness=0", " swappiness=0 " },
		{ 200, "1048576 swappiness=200", " swappiness=200 " },
		{ RR_SWAPPINESS_ANON_ONLY, "1048576 swappiness=max", " swappiness=max " },
		{ -1, "1048576", NULL },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		l.n = 0;
		put("cg/job/rr-7/memory.reclaim", "");
		CU_ASSERT_EQUAL(rr_proactive_write(&fs, cg, 1048576, c[i].sw, collect, &l), 0);
		f = fopen(strcat(strcpy(line, base), "/cg/job/rr-7/memory.reclaim"), "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		got[0] = 0;
		CU_ASSERT_PTR_NOT_NULL(fgets(got, sizeof(got), f));
		fclose(f);
		CU_ASSERT_STRING_EQUAL(got, c[i].written);
		CU_ASSERT_EQUAL_FATAL(l.n, 2);
		if (c[i].key) {
			CU_ASSERT_PTR_NOT_NULL(strstr(l.text[0], c[i].key));
		} else {
			CU_ASSERT_PTR_NULL(strstr(l.text[0], "swappiness="));
		}
		CU_ASSERT_PTR_NOT_NULL(strstr(l.text[0], " path=/job/rr-7"));
		snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", l.text[0]);
		CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m),
				      RR_MARKER_PROACTIVE_BEGIN);
		CU_ASSERT_EQUAL(m.proactive.bytes, 1048576);
		CU_ASSERT_EQUAL(m.proactive.swappiness, c[i].sw);
		CU_ASSERT_STRING_EQUAL(m.proactive.path, "/job/rr-7");
		CU_ASSERT_STRING_EQUAL(l.text[1], "proactive end bytes=1048576 result=ok errno=0");
	}
	/* a failed write (no memory.reclaim: a v1 or pre-v5.19 kernel) says its errno */
	l.n = 0;
	snprintf(line, sizeof(line), "%s/cg/job/rr-7/memory.reclaim", base);
	unlink(line);
	CU_ASSERT_EQUAL(rr_proactive_write(&fs, cg, 4096, 0, collect, &l), ENOENT);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);
	snprintf(got, sizeof(got), "proactive end bytes=4096 result=error errno=%d", ENOENT);
	CU_ASSERT_STRING_EQUAL(l.text[1], got);
}

/* The "proactive begin" line of the memory.reclaim swappiness= key
 * (0..200 or "max", 68cd9050d871) and the cgroup path: written and read
 * back; a recorder before 0.3 wrote neither; a value no kernel accepts is
 * malformed and reads as absent. */
static void test_marker_proactive_keys(void)
{
	static const struct { long long sw; const char *path, *line; } rt[] = {
		{ 0, "/rr/w", "proactive begin bytes=1048576 swappiness=0 path=/rr/w" },
		{ 200, "/a b/c=1 swappiness=7",
		  "proactive begin bytes=1048576 swappiness=200 path=/a b/c=1 swappiness=7" },
		{ RR_SWAPPINESS_ANON_ONLY, "/rr", "proactive begin bytes=1048576 swappiness=max path=/rr" },
		{ -1, "/rr", "proactive begin bytes=1048576 path=/rr" },
		{ 60, "", "proactive begin bytes=1048576 swappiness=60" },
	};
	static const char old[] = "reclaim-replay: proactive begin bytes=4096";
	static const char *const bad[] = {
		"reclaim-replay: proactive begin bytes=4096 swappiness=201 path=/rr",
		"reclaim-replay: proactive begin bytes=4096 swappiness=-1 path=/rr",
		"reclaim-replay: proactive begin bytes=4096 swappiness=6o path=/rr",
		"reclaim-replay: proactive begin bytes=4096 swappiness=MAX path=/rr",
		"reclaim-replay: proactive begin bytes=4096 swappiness= path=/rr",
	};
	char buf[700], line[720];
	struct rr_marker m;

	for (size_t i = 0; i < sizeof(rt) / sizeof(rt[0]); i++) {
		struct rr_marker_proactive p = { .bytes = 1048576, .swappiness = rt[i].sw };

		snprintf(p.path, sizeof(p.path), "%s", rt[i].path);
		CU_ASSERT(rr_marker_format_proactive(buf, sizeof(buf), true, &p) < (int)sizeof(buf));
		CU_ASSERT_STRING_EQUAL(buf, rt[i].line);
		snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
		CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m),
				      RR_MARKER_PROACTIVE_BEGIN);
		CU_ASSERT_EQUAL(m.proactive.bytes, 1048576);
		CU_ASSERT_EQUAL(m.proactive.swappiness, rt[i].sw);
		CU_ASSERT_STRING_EQUAL(m.proactive.path, rt[i].path);
		CU_ASSERT_PTR_NULL(m.proactive.malformed);
	}
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(old, sizeof(old) - 1, false, &m),
			      RR_MARKER_PROACTIVE_BEGIN);
	CU_ASSERT_EQUAL(m.proactive.bytes, 4096);
	CU_ASSERT_EQUAL(m.proactive.swappiness, -1);
	CU_ASSERT_STRING_EQUAL(m.proactive.path, "");
	CU_ASSERT_PTR_NULL(m.proactive.malformed);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(rr_marker_parse(bad[i], strlen(bad[i]), false, &m),
				      RR_MARKER_PROACTIVE_BEGIN);
		CU_ASSERT_EQUAL(m.proactive.swappiness, -1);
		CU_ASSERT_PTR_NOT_NULL(m.proactive.malformed);
		CU_ASSERT_STRING_EQUAL(m.proactive.path, "/rr");
		CU_ASSERT_EQUAL(m.proactive.bytes, 4096);
	}
	/* the end line is unchanged */
	{
		struct rr_marker_proactive p = { .bytes = 4096, .errno_value = 11,
						 .swappiness = 0 };

		snprintf(p.result, sizeof(p.result), "error");
		rr_marker_format_proactive(buf, sizeof(buf), false, &p);
		CU_ASSERT_STRING_EQUAL(buf, "proactive end bytes=4096 result=error errno=11");
	}
}

/* A per-CPU file of whole 4 KiB ring-buffer pages whose headers hold
 * the time stamps @ts (each page filled with its time stamp's byte), and
 * @partial bytes of a page cut short. */
static int cpu_file(const char *name, const uint64_t *ts, int n, size_t partial)
{
	char path[512], page[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", base, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	for (int i = 0; i < n; i++) {
		memset(page, (int)ts[i], sizeof(page));
		memcpy(page, &ts[i], sizeof(ts[i]));
		CU_ASSERT_EQUAL(write(fd, page, sizeof(page)), (ssize_t)sizeof(page));
	}
	memset(page, 0xee, partial);
	CU_ASSERT_EQUAL(write(fd, page, partial), (ssize_t)partial);
	return fd;
}

/* The offsets and sizes after "flyrecord"; returns the header's length. */
static size_t fly_table(const char *path, uint64_t table[4])
{
	static char buf[1 << 16];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (size_t i = 0; i + 10 + 32 <= n; i++)
		if (!memcmp(buf + i, "flyrecord", 10)) {
			memcpy(table, buf + i + 10, 32);
			return i + 10 + 32;
		}
	CU_FAIL("no flyrecord section");
	return 0;
}

/* The byte of the page at @off of @path (pages are filled with it). */
static int page_byte(const char *path, uint64_t off)
{
	unsigned char c = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || pread(fd, &c, 1, (off_t)off + 100) != 1)
		c = 0;
	if (fd >= 0)
		close(fd);
	return c;
}

static void test_tracedat_move_and_fit(void)
{
	static const char *const systems[] = { NULL };
	const uint64_t ts0[] = { 10, 30, 50 }, ts1[] = { 20, 40 };
	char tracing[300], out[300];
	struct rr_error err = { "", "" };
	uint64_t table[4], dropped = 99;
	struct rlimit old, lim;
	struct stat st;
	int fds[2], fd;
	size_t head;

	make_base();
	dir("tracing");
	dir("tracing/events");
	dir("tracing/events/ftrace");
	put("tracing/events/header_page", "field: u64 timestamp;\n");
	put("tracing/events/header_event", "type_len : 5 bits\n");
	snprintf(tracing, sizeof(tracing), "%s/tracing", base);
	snprintf(out, sizeof(out), "%s/whole.dat", base);

	/* whole: each CPU's pages at their offsets, a cut page left out, the
	 * per-CPU files emptied (moved, not copied) */
	fds[0] = cpu_file("cpu0", ts0, 3, 0);
	fds[1] = cpu_file("cpu1", ts1, 2, 100);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_EQUAL(rr_tracedat_write(fd, tracing, systems, 4096, 2, fds, out, &dropped, &err), 0);
	close(fd);
	CU_ASSERT_EQUAL(dropped, 0);
	head = fly_table(out, table);
	CU_ASSERT_EQUAL(table[0] % 4096, 0);
	CU_ASSERT(table[0] >= head);
	CU_ASSERT_EQUAL(table[1], 3 * 4096);
	CU_ASSERT_EQUAL(table[2], table[0] + 3 * 4096);
	CU_ASSERT_EQUAL(table[3], 2 * 4096);	/* the 100 bytes are not a page */
	CU_ASSERT_EQUAL(page_byte(out, table[0]), 10);
	CU_ASSERT_EQUAL(page_byte(out, table[0] + 2 * 4096), 50);
	CU_ASSERT_EQUAL(page_byte(out, table[2] + 4096), 40);
	CU_ASSERT(stat(out, &st) == 0 && (uint64_t)st.st_size == table[2] + table[3]);
	for (int c = 0; c < 2; c++) {
		CU_ASSERT(fstat(fds[c], &st) == 0 && st.st_size == 0);
		close(fds[c]);
	}

	/* room for three pages of five (a file size limit): the two newest
	 * across the CPUs (time stamps 50 on CPU 0, 40 on CPU 1) are left out */
	fds[0] = cpu_file("cpu0", ts0, 3, 0);
	fds[1] = cpu_file("cpu1", ts1, 2, 100);
	snprintf(out, sizeof(out), "%s/cut.dat", base);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = table[0] + 3 * 4096;
	signal(SIGXFSZ, SIG_IGN);
	CU_ASSERT_EQUAL(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CU_ASSERT_EQUAL(rr_tracedat_write(fd, tracing, systems, 4096, 2, fds, out, &dropped, &err), 0);
	setrlimit(RLIMIT_FSIZE, &old);
	close(fd);
	CU_ASSERT_EQUAL(dropped, 2 * 4096);
	fly_table(out, table);
	CU_ASSERT_EQUAL(table[1], 2 * 4096);
	CU_ASSERT_EQUAL(table[3], 4096);
	CU_ASSERT_EQUAL(page_byte(out, table[0] + 4096), 30);
	CU_ASSERT_EQUAL(page_byte(out, table[2]), 20);
	for (int c = 0; c < 2; c++)
		close(fds[c]);

	/* no room for even the headers: an error naming the file */
	fds[0] = cpu_file("cpu0", ts0, 3, 0);
	fds[1] = cpu_file("cpu1", ts1, 0, 0);
	snprintf(out, sizeof(out), "%s/none.dat", base);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	lim.rlim_cur = 100;
	CU_ASSERT_EQUAL(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CU_ASSERT_EQUAL(rr_tracedat_write(fd, tracing, systems, 4096, 2, fds, out, &dropped, &err), -1);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	close(fd);
	CU_ASSERT_STRING_EQUAL(err.file, out);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no room for even the trace's"));
	for (int c = 0; c < 2; c++)
		close(fds[c]);
	snprintf(out, sizeof(out), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(out), 0);
}

int register_record_tests(void)
{
	CU_pSuite s = CU_add_suite("record", NULL, NULL);

	if (!s || !CU_add_test(s, "cgroup v2 snapshot (fake tree)", test_v2_snapshot) ||
	    !CU_add_test(s, "a memcg marker's path holds no keys", test_marker_path_keys) ||
	    !CU_add_test(s, "memory.min/low \"max\" and bad marker values", test_marker_protection_max) ||
	    !CU_add_test(s, "proactive marker: swappiness= and path=", test_marker_proactive_keys) ||
	    !CU_add_test(s, "memory.reclaim write with swappiness= (fake v2 tree)",
			 test_v2_proactive_write) ||
	    !CU_add_test(s, "cgroup v1 snapshot (fake tree)", test_v1_snapshot) ||
	    !CU_add_test(s, "a path too long for a marker line is left out", test_long_path) ||
	    !CU_add_test(s, "event filters from item numbers", test_item_filters) ||
	    !CU_add_test(s, "trace.dat: data moved in, newest pages left out to fit",
			 test_tracedat_move_and_fit))
		return -1;
	return 0;
}
