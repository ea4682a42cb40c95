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
#include "../../src/episode/state.h"
#include "../../src/episode/nodes.h"
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
	/* a "snapshot read" as each memory.stat is read, parents first; then
	 * the lines, parents first */
	CU_ASSERT_EQUAL(l.n, 6);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(strncmp(l.text[i], "snapshot read id=", 17), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[3], " path=/"));
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
	CU_ASSERT_EQUAL(l.n, 34);	/* 17 lines, each after its "snapshot read" */
	CU_ASSERT(l.max_len <= RR_MARKER_MAX_LINE_BYTES);
	/* level 16 (3936 bytes of path) loses it; level 15 (3690) keeps it */
	CU_ASSERT_EQUAL(l.empty_paths, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/*
 * A container that mounts its own cgroup as the memory hierarchy (Docker
 * on cgroup v1): /proc/self/cgroup names our cgroup from the hierarchy's
 * root, the mount shows the container's cgroup as its top
 * (/proc/self/mountinfo's 4th field, with its octal escapes).  --cgroup
 * failed there ("cannot create the cgroup").
 */
static void test_mount_top(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	char text[1200], proc[300], want[600];

	make_base();
	put("proc/cgroups", "memory\t4\t3\t1\n");
	snprintf(text, sizeof(text), "cgroup %s/cg cgroup rw,nosuid,memory 0 0\n", base);
	put("proc/mounts", text);
	/* the host's mount, and the container's over it: the last one counts */
	snprintf(text, sizeof(text),
		 "52 48 0:32 / %s/cg rw,relatime - cgroup cgroup rw,memory\n"
		 "65 52 0:32 /docker/a\\040b %s/cg rw,relatime - cgroup cgroup rw,memory\n",
		 base, base);
	put("proc/self/mountinfo", text);
	put("proc/self/cgroup", "4:memory:/docker/a b/job\n0::/\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	snprintf(want, sizeof(want), "%s/cg/job", base);
	CU_ASSERT_STRING_EQUAL(fs.self, want);
	CU_ASSERT_STRING_EQUAL(fs.self_problem, "");
	/* our cgroup is the container's own: the mount's top */
	put("proc/self/cgroup", "4:memory:/docker/a b\n");
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	snprintf(want, sizeof(want), "%s/cg", base);
	CU_ASSERT_STRING_EQUAL(fs.self, want);
	/* a name that only begins like the top is not under it */
	put("proc/self/cgroup", "4:memory:/docker/a bc/job\n");
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fs.self_problem, "is not under the cgroup /docker/a b"));
	/* above a cgroup namespace's root */
	snprintf(text, sizeof(text), "52 48 0:32 / %s/cg rw,relatime - cgroup cgroup rw,memory\n",
		 base);
	put("proc/self/mountinfo", text);
	put("proc/self/cgroup", "4:memory:/../x\n");
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(fs.self_problem, "above this cgroup namespace's root"));
	/* no mountinfo (a test tree, an old /proc): the path as it is */
	snprintf(text, sizeof(text), "rm -f '%s/proc/self/mountinfo'", base);
	CU_ASSERT_EQUAL(system(text), 0);
	put("proc/self/cgroup", "4:memory:/job\n");
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	snprintf(want, sizeof(want), "%s/cg/job", base);
	CU_ASSERT_STRING_EQUAL(fs.self, want);
	CU_ASSERT_STRING_EQUAL(fs.self_problem, "");
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
	/* no total_* in its memory.stat (or, the root's, only some): no
	 * hierarchical sizes rather than the visible cgroups' sum, which
	 * would leave the dying ones out */
	CU_ASSERT_PTR_NULL(strstr(line, "hier_"));
	line = find(&l, "/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NULL(strstr(line, "hier_"));

	/* every total_* given: taken as is (dying descendants included) */
	l.n = 0;
	put("cg/memory.stat", "inactive_anon 0\nactive_anon 0\ninactive_file 4096\n"
			      "active_file 0\nunevictable 0\ntotal_inactive_anon 40960\n"
			      "total_active_anon 4096\ntotal_inactive_file 81920\n"
			      "total_active_file 0\ntotal_unevictable 0\n");
	CU_ASSERT_EQUAL(rr_cgroup_snapshot(&fs, 4096, 60, collect, &l, &err), 2);
	line = find(&l, "/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "inactive_file=1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, " hier_inactive_anon=10 hier_active_anon=1 "
					    "hier_inactive_file=20 hier_active_file=0 "
					    "hier_unevictable=0 path=/"));
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


/* The vm, zone and node lines: written and read back; absent keys read
 * -1; a value no kernel prints is named in ->malformed and reads -1;
 * unknown keys are ignored. */
static void test_marker_zone_node_vm(void)
{
	struct rr_marker_zone z = { .nid = 1, .zid = 2, .name = "Normal", .managed = 4292608,
				    .present = 5505024, .spanned = 5505024, .free = 3951941,
				    .min = 14307, .low = 18599, .high = 22891, .boost = 0,
				    .promo = -1, .protection = { 0, 0, 0, 0, 0 }, .nr_protection = 5 };
	struct rr_marker_node n = { .nid = 1, .zones = 3, .source = "node", .nr_free_pages = 7,
				    .nr_inactive_anon = 1, .nr_active_anon = 2,
				    .nr_inactive_file = 3, .nr_active_file = 4,
				    .nr_isolated_anon = 0, .nr_isolated_file = 5,
				    .nr_writeback = 6, .nr_dirty = 8, .swap_free_kb = 1024 };
	struct rr_marker_vm vm = { 67584, 10, 15000, 0, 0, -1, 0, NULL };
	static const char *const bad[] = {
		"reclaim-replay: zone nid=0 zid=9 name=X managed=1",	/* zid >= 8 */
		"reclaim-replay: zone nid=0 zid=1 managed=12k",
		"reclaim-replay: zone nid=0 zid=1 high=-5",
		"reclaim-replay: zone nid=0 zid=1 protection=1,x,3",
		"reclaim-replay: zone nid=0 zid=1 protection=1,2,3,4,5,6,7,8,9",
		"reclaim-replay: node nid=0 nr_free_pages=1099511627777",	/* > 2^40 */
		"reclaim-replay: vm min_free_kbytes=lots",
	};
	static const char *const bad_key[] = {
		"zid", "managed", "high", "protection", "protection", "nr_free_pages",
		"min_free_kbytes",
	};
	static const char old[] = "reclaim-replay: zone nid=0 zid=1 name=DMA32 managed=10 "
				  "future_key=3 high=5";
	char buf[1024], line[1100];
	struct rr_marker m;

	CU_ASSERT(rr_marker_format_zone(buf, sizeof(buf), &z) < (int)sizeof(buf));
	CU_ASSERT_PTR_NULL(strstr(buf, "promo="));	/* absent: left out */
	snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m), RR_MARKER_ZONE);
	CU_ASSERT_PTR_NULL(m.zone.malformed);
	CU_ASSERT_EQUAL(m.zone.nid, 1);
	CU_ASSERT_EQUAL(m.zone.zid, 2);
	CU_ASSERT_STRING_EQUAL(m.zone.name, "Normal");
	CU_ASSERT_EQUAL(m.zone.managed, 4292608);
	CU_ASSERT_EQUAL(m.zone.free, 3951941);
	CU_ASSERT_EQUAL(m.zone.min, 14307);
	CU_ASSERT_EQUAL(m.zone.low, 18599);
	CU_ASSERT_EQUAL(m.zone.high, 22891);
	CU_ASSERT_EQUAL(m.zone.boost, 0);
	CU_ASSERT_EQUAL(m.zone.promo, -1);
	CU_ASSERT_EQUAL(m.zone.nr_protection, 5);

	CU_ASSERT(rr_marker_format_node(buf, sizeof(buf), &n) < (int)sizeof(buf));
	snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m), RR_MARKER_NODE);
	CU_ASSERT_PTR_NULL(m.node.malformed);
	CU_ASSERT_EQUAL(m.node.nid, 1);
	CU_ASSERT_EQUAL(m.node.zones, 3);
	CU_ASSERT_STRING_EQUAL(m.node.source, "node");
	CU_ASSERT_EQUAL(m.node.nr_free_pages, 7);
	CU_ASSERT_EQUAL(m.node.nr_active_file, 4);
	CU_ASSERT_EQUAL(m.node.nr_isolated_file, 5);
	CU_ASSERT_EQUAL(m.node.nr_writeback, 6);
	CU_ASSERT_EQUAL(m.node.nr_dirty, 8);
	CU_ASSERT_EQUAL(m.node.swap_free_kb, 1024);

	CU_ASSERT(rr_marker_format_vm(buf, sizeof(buf), &vm) < (int)sizeof(buf));
	snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m), RR_MARKER_VM);
	CU_ASSERT_PTR_NULL(m.vm.malformed);
	CU_ASSERT_EQUAL(m.vm.min_free_kbytes, 67584);
	CU_ASSERT_EQUAL(m.vm.watermark_scale_factor, 10);
	CU_ASSERT_EQUAL(m.vm.watermark_boost_factor, 15000);
	CU_ASSERT_EQUAL(m.vm.numa_balancing, -1);
	CU_ASSERT_EQUAL(m.vm.demotion_enabled, 0);

	/* an older or newer recorder: missing keys -1, unknown ones ignored */
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(old, sizeof(old) - 1, false, &m), RR_MARKER_ZONE);
	CU_ASSERT_PTR_NULL(m.zone.malformed);
	CU_ASSERT_EQUAL(m.zone.high, 5);
	CU_ASSERT_EQUAL(m.zone.boost, -1);
	CU_ASSERT_EQUAL(m.zone.free, -1);
	CU_ASSERT_EQUAL(m.zone.nr_protection, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enum rr_marker_kind k = rr_marker_parse(bad[i], strlen(bad[i]), false, &m);
		const char *mal = k == RR_MARKER_ZONE ? m.zone.malformed :
				  k == RR_MARKER_NODE ? m.node.malformed : m.vm.malformed;

		CU_ASSERT_PTR_NOT_NULL_FATAL(mal);
		CU_ASSERT_STRING_EQUAL(mal, bad_key[i]);
	}
	/* (the bad key reads as absent) */
	CU_ASSERT_EQUAL(rr_marker_parse(bad[1], strlen(bad[1]), false, &m), RR_MARKER_ZONE);
	CU_ASSERT_EQUAL(m.zone.managed, -1);
	CU_ASSERT_EQUAL(m.zone.zid, 1);
	/* every kind, cut anywhere: never past the given bytes (ASan) */
	snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
	for (size_t cut = 0; cut <= strlen(line); cut++) {
		char *c = malloc(cut ? cut : 1);

		memcpy(c, line, cut);
		rr_marker_parse(c, cut, true, &m);
		free(c);
	}
}

/* A memcg line's hierarchical sizes: all five or none; a bad one names
 * the key in ->malformed, as a bad local size does. */
static void test_marker_memcg_hier(void)
{
	static const char full[] = "reclaim-replay: memcg id=9 level=1 inactive_anon=3 "
				   "hier_inactive_anon=30 hier_active_anon=1 hier_inactive_file=2 "
				   "hier_active_file=3 hier_unevictable=0 path=/x hier_active_file=7";
	static const char part[] = "reclaim-replay: memcg id=9 level=1 hier_inactive_anon=30 "
				   "path=/x";
	static const char bad[] = "reclaim-replay: memcg id=9 level=1 hier_inactive_anon=30 "
				  "hier_active_anon=1 hier_inactive_file=two hier_active_file=3 "
				  "hier_unevictable=0 path=/x";
	struct rr_marker_memcg mc = { .id = 5, .level = 1, .swappiness = 60, .limit_bytes = -1,
				      .hier_pages = { 1, 2, 3, 4, 5 }, .hier_known = true,
				      .path = "/a" };
	char buf[1024], line[1100];
	struct rr_marker m;

	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(full, sizeof(full) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT(m.memcg.hier_known);
	CU_ASSERT_PTR_NULL(m.memcg.malformed);
	CU_ASSERT_EQUAL(m.memcg.hier_pages[RR_LRU_INACTIVE_ANON], 30);
	CU_ASSERT_EQUAL(m.memcg.hier_pages[RR_LRU_ACTIVE_FILE], 3);	/* not the path's */
	CU_ASSERT_EQUAL(m.memcg.lru_pages[RR_LRU_INACTIVE_ANON], 3);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(part, sizeof(part) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT(!m.memcg.hier_known);
	CU_ASSERT_PTR_NULL(m.memcg.malformed);
	CU_ASSERT_EQUAL(m.memcg.hier_pages[RR_LRU_INACTIVE_ANON], 0);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(bad, sizeof(bad) - 1, false, &m), RR_MARKER_MEMCG);
	CU_ASSERT(!m.memcg.hier_known);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.memcg.malformed);
	CU_ASSERT_STRING_EQUAL(m.memcg.malformed, "hier_inactive_file");
	/* written and read back; without them the line is as before */
	CU_ASSERT(rr_marker_format_memcg(buf, sizeof(buf), &mc) < (int)sizeof(buf));
	snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", buf);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m), RR_MARKER_MEMCG);
	CU_ASSERT(m.memcg.hier_known);
	CU_ASSERT_EQUAL(m.memcg.hier_pages[RR_LRU_UNEVICTABLE], 5);
	CU_ASSERT_STRING_EQUAL(m.memcg.path, "/a");
	mc.hier_known = false;
	rr_marker_format_memcg(buf, sizeof(buf), &mc);
	CU_ASSERT_PTR_NULL(strstr(buf, "hier_"));
}

static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 950\n"
	"      nr_active_file 214106\n"
	"  pages free     3840\n"
	"        boost    0\n"
	"        min      12\n"
	"        low      15\n"
	"        high     18\n"
	"        promo    21\n"
	"        spanned  4095\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        cma      0\n"
	"        protection: (0, 3019, 19787, 19787, 19787)\n"
	"      nr_free_pages 3840\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count:    0\n"
	"              high:     0\n"
	"              batch:    1\n"
	"Node 0, zone    DMA32\n"
	"  pages free     772915\n"
	"        boost    0\n"
	"        min      2576\n"
	"        low      3348\n"
	"        high     4120\n"
	"        spanned  1044480\n"
	"        present  782336\n"
	"        managed  772915\n"
	"        protection: (0, 0, 16768, 16768, 16768)\n"
	"Node 0, zone   Normal\n"
	"  pages free     30\n"
	"        boost    512\n"
	"        min      14307\n"
	"        low      18599\n"
	"        high     23403\n"
	"        spanned  5505024\n"
	"        present  5505024\n"
	"        managed  4292608\n"
	"        protection: (0, 0, 0, 0, 0)\n"
	"Node 0, zone  Movable\n"
	"  pages free     0\n"
	"        boost    0\n"
	"        min      32\n"
	"        low      32\n"
	"        high     32\n"
	"        spanned  0\n"
	"        present  0\n"
	"        managed  0\n"
	"Node 1, zone      DMA\n"
	"  pages free     0\n"
	"        min      0\n"
	"        low      0\n"
	"        high     0\n"
	"        managed  0\n"
	"Node 1, zone    DMA32\n"
	"  pages free     0\n"
	"        managed  0\n"
	"Node 1, zone   Normal\n"
	"  pages free     100\n"
	"        min      10\n"
	"        low      12\n"
	"        high     14\n"
	"        managed  1000\n";

/* The zone and node lines from fake /proc/zoneinfo, nodeN/vmstat (node 0)
 * and /proc/vmstat (node 1 has no directory), and what nodes.c makes of
 * them: kswapd's nr_to_reclaim, file_is_tiny's inputs. */
static void test_zone_snapshot(void)
{
	struct lines l = { .n = 0 };
	struct rr_error err;
	struct rr_marker_vm vm;
	struct rr_state st;
	struct rr_node_tiny t;
	const struct rr_node_snapshot *ns;
	char proc[300], sys[300], cmd[300];
	struct rr_marker m;

	make_base();
	dir("sys");
	dir("sys/devices");
	dir("sys/devices/system");
	dir("sys/devices/system/node");
	dir("sys/devices/system/node/node0");
	dir("proc/sys");
	dir("proc/sys/vm");
	put("proc/zoneinfo", zoneinfo);
	put("proc/meminfo", "MemTotal:       24684028 kB\nSwapTotal:       8388604 kB\n"
			    "SwapFree:        8000000 kB\n");
	put("proc/vmstat", "nr_free_pages 100\nnr_inactive_anon 5\nnr_active_anon 6\n"
			   "nr_inactive_file 7\nnr_active_file 8\nnr_dirty 9\n");
	put("sys/devices/system/node/node0/vmstat",
	    "nr_free_pages 776785\nnr_zone_inactive_anon 1\nnr_inactive_anon 950\n"
	    "nr_active_anon 378\nnr_inactive_file 41453\nnr_active_file 214106\n"
	    "nr_isolated_anon 0\nnr_isolated_file 3\nnr_dirty 4425\nnr_writeback 2\n");
	put("proc/sys/vm/min_free_kbytes", "67584\n");
	put("proc/sys/vm/watermark_scale_factor", "10\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	snprintf(sys, sizeof(sys), "%s/sys", base);
	CU_ASSERT_EQUAL(rr_zone_snapshot(proc, sys, collect, &l, &err), 2);
	CU_ASSERT_EQUAL_FATAL(l.n, 6);	/* 3 zones + node 0, 1 zone + node 1 */
	CU_ASSERT_STRING_EQUAL(l.text[0], "zone nid=0 zid=0 name=DMA managed=3840 present=3998 "
			       "spanned=4095 free=3840 min=12 low=15 high=18 boost=0 promo=21 "
			       "protection=0,3019,19787,19787,19787");
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[2], "zone nid=0 zid=2 name=Normal "));
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[2], " boost=512 "));
	CU_ASSERT_STRING_EQUAL(l.text[3], "node nid=0 zones=3 source=node nr_free_pages=776785 "
			       "nr_inactive_anon=950 nr_active_anon=378 nr_inactive_file=41453 "
			       "nr_active_file=214106 nr_isolated_anon=0 nr_isolated_file=3 "
			       "nr_writeback=2 nr_dirty=4425 swap_free_kb=8000000");
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[4], "zone nid=1 zid=2 name=Normal managed=1000 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[4], " boost=-1"));	/* not printed */
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[5], "node nid=1 zones=1 source=vmstat "
					      "nr_free_pages=100 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(l.text[5], " nr_writeback=-1 nr_dirty=9 "));
	for (int i = 0; i < l.n; i++)
		CU_ASSERT(strlen(l.text[i]) + strlen(RR_MARKER_PREFIX) + 1 < RR_MARKER_MAX_LINE_BYTES);

	rr_vm_read(proc, sys, &vm);
	CU_ASSERT_EQUAL(vm.min_free_kbytes, 67584);
	CU_ASSERT_EQUAL(vm.watermark_scale_factor, 10);
	CU_ASSERT_EQUAL(vm.laptop_mode, -1);	/* no file */
	CU_ASSERT_EQUAL(vm.demotion_enabled, -1);

	/* the state: lines as the builder passes them */
	rr_state_init(&st);
	CU_ASSERT_PTR_NULL(rr_state_node(&st, 0));
	CU_ASSERT_PTR_NULL(rr_state_vm(&st));
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(NULL, 3), -1);
	CU_ASSERT_EQUAL(rr_nodes_vm(&st, &vm, 1), 0);
	CU_ASSERT_EQUAL(rr_state_vm(&st)->min_free_kbytes, 67584);
	for (int snap = 0; snap < 2; snap++) {
		CU_ASSERT_EQUAL(rr_nodes_snapshot_begin(&st, 1000 * (uint64_t)(snap + 1)), 0);
		for (int i = 0; i < l.n; i++) {
			char line[700];
			enum rr_marker_kind k;

			snprintf(line, sizeof(line), RR_MARKER_PREFIX " %s", l.text[i]);
			k = rr_marker_parse(line, strlen(line), false, &m);
			if (k == RR_MARKER_ZONE) {
				if (snap)
					m.zone.free = 5;
				CU_ASSERT_EQUAL(rr_nodes_zone(&st, &m.zone, 0), 0);
			} else {
				CU_ASSERT_EQUAL_FATAL(k, RR_MARKER_NODE);
				CU_ASSERT_EQUAL(rr_nodes_node(&st, &m.node,
							      1000 * (uint64_t)(snap + 1) + 1), 0);
			}
		}
	}
	/* a third snapshot cut after a zone line: not taken */
	CU_ASSERT_EQUAL(rr_nodes_snapshot_begin(&st, 3000), 0);
	CU_ASSERT_EQUAL(rr_marker_parse("reclaim-replay: zone nid=0 zid=0 managed=1 high=1",
					49, false, &m), RR_MARKER_ZONE);
	CU_ASSERT_EQUAL(rr_nodes_zone(&st, &m.zone, 3001), 0);
	ns = rr_state_node(&st, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ns);
	CU_ASSERT(ns->complete);
	CU_ASSERT_EQUAL(ns->ts_ns, 2001);
	CU_ASSERT_EQUAL(ns->zones[2].free, 5);
	CU_ASSERT_EQUAL(ns->zones[3].zid, -1);	/* Movable: no managed pages */
	CU_ASSERT_PTR_NULL(rr_state_node_at(&st, 0, 1000));
	CU_ASSERT_EQUAL(rr_state_node_at(&st, 0, 1001)->ts_ns, 1001);
	CU_ASSERT_EQUAL(rr_state_node_at(&st, 0, 2000)->zones[2].free, 30);
	CU_ASSERT_EQUAL(rr_state_node_at(&st, 0, 99999)->ts_ns, 2001);
	CU_ASSERT_PTR_NULL(rr_state_node(&st, 2));
	CU_ASSERT_PTR_NULL(rr_state_node(&st, -1));
	/* Σ max(high, 32) over managed zones 0..idx: 32 + 4120 + 23403 */
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(ns, 0), 32);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(ns, 1), 32 + 4120);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(ns, 3), 32 + 4120 + 23403);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(ns, 7), 32 + 4120 + 23403);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(ns, -1), -1);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(rr_state_node(&st, 1), 2), 32);
	CU_ASSERT_EQUAL(rr_node_tiny_inputs(ns, &t), 0);
	CU_ASSERT_EQUAL(t.high_sum, 18 + 4120 + 23403);
	CU_ASSERT_EQUAL(t.free, 776785);
	CU_ASSERT_EQUAL(t.file, 41453 + 214106);
	CU_ASSERT_EQUAL(t.inactive_anon, 950);
	CU_ASSERT_EQUAL(rr_node_tiny_inputs(NULL, &t), -1);

	/* a node line announcing a zone line that did not come: incomplete */
	CU_ASSERT_EQUAL(rr_marker_parse("reclaim-replay: node nid=0 zones=4 nr_free_pages=1",
					50, false, &m), RR_MARKER_NODE);
	CU_ASSERT_EQUAL(rr_nodes_node(&st, &m.node, 4000), 0);
	CU_ASSERT(!rr_state_node(&st, 0)->complete);
	CU_ASSERT_EQUAL(rr_node_kswapd_nr_to_reclaim(rr_state_node(&st, 0), 2), -1);
	CU_ASSERT_EQUAL(rr_node_tiny_inputs(rr_state_node(&st, 0), &t), -1);
	rr_state_free(&st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void memcg_line(struct rr_state *st, const char *line)
{
	struct rr_marker m;
	struct rr_memcg *mc;

	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(line, strlen(line), false, &m), RR_MARKER_MEMCG);
	mc = rr_state_memcg(st, (uint64_t)m.memcg.id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mc);
	if (m.memcg.path[0])
		CU_ASSERT_EQUAL(rr_state_name(st, mc, m.memcg.path), 0);
	CU_ASSERT_EQUAL(rr_nodes_memcg(st, &m.memcg, 7), 0);
}

/* The dying descendants' bound: total(parent) - local(parent) - Σ
 * total(visible children) on v1; on v2 the recorded local size holds the
 * dying children's pages, so the bound is local + dying. */
static void test_dying_bound(void)
{
	struct rr_state st;
	uint64_t b[RR_NR_LRU], ts = 0;
	struct rr_memcg *p, *c, *dead;

	for (int v = 1; v <= 2; v++) {
		rr_state_init(&st);
		st.memory_root = v == 1 ? 4 : 0;
		CU_ASSERT_EQUAL(rr_nodes_snapshot_begin(&st, 1), 0);
		memcg_line(&st, "reclaim-replay: memcg id=1 level=0 path=/");
		memcg_line(&st, v == 1 ?
			   "reclaim-replay: memcg id=35 level=1 inactive_file=10 active_file=1 "
			   "hier_inactive_anon=0 hier_active_anon=0 hier_inactive_file=1000 "
			   "hier_active_file=500 hier_unevictable=0 path=/p" :
			   "reclaim-replay: memcg id=35 level=1 inactive_file=910 active_file=451 "
			   "hier_inactive_anon=0 hier_active_anon=0 hier_inactive_file=1000 "
			   "hier_active_file=500 hier_unevictable=0 path=/p");
		memcg_line(&st, "reclaim-replay: memcg id=40 level=2 inactive_file=90 "
			   "hier_inactive_anon=0 hier_active_anon=0 hier_inactive_file=90 "
			   "hier_active_file=49 hier_unevictable=0 path=/p/c");
		p = rr_state_find(&st, 35);
		c = rr_state_find(&st, 40);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_PTR_EQUAL(c->parent, p);
		/* a child of p seen in no snapshot (created later, or dying) is
		 * not subtracted */
		dead = rr_state_memcg(&st, 41);
		CU_ASSERT_EQUAL(rr_state_name(&st, dead, "/p/d"), 0);
		CU_ASSERT_EQUAL(rr_state_dying_bound(&st, p, b, &ts), 0);
		CU_ASSERT_EQUAL(ts, 7);
		CU_ASSERT_EQUAL(b[RR_LRU_INACTIVE_FILE], v == 1 ? 1000 - 10 - 90 : 1000 - 90);
		CU_ASSERT_EQUAL(b[RR_LRU_ACTIVE_FILE], v == 1 ? 500 - 1 - 49 : 500 - 49);
		CU_ASSERT_EQUAL(b[RR_LRU_INACTIVE_ANON], 0);
		/* the child, without children: on v1 total - local (its
		 * active_file line says 0 local of 49); on v2 all its pages */
		CU_ASSERT_EQUAL(rr_state_dying_bound(&st, c, b, NULL), 0);
		CU_ASSERT_EQUAL(b[RR_LRU_INACTIVE_FILE], v == 1 ? 0 : 90);
		CU_ASSERT_EQUAL(b[RR_LRU_ACTIVE_FILE], 49);
		/* no hier_ keys (the root's line, an older recorder): unknown */
		CU_ASSERT_EQUAL(rr_state_dying_bound(&st, rr_state_find(&st, 1), b, NULL), -1);
		CU_ASSERT_EQUAL(rr_state_dying_bound(&st, dead, b, NULL), -1);
		/* the next snapshot: the child is gone (dying), so its pages
		 * count in the parent's bound */
		CU_ASSERT_EQUAL(rr_nodes_snapshot_begin(&st, 2), 0);
		memcg_line(&st, "reclaim-replay: memcg id=35 level=1 inactive_file=10 active_file=1 "
			   "hier_inactive_anon=0 hier_active_anon=0 hier_inactive_file=1000 "
			   "hier_active_file=500 hier_unevictable=0 path=/p");
		CU_ASSERT_EQUAL(rr_state_dying_bound(&st, p, b, NULL), 0);
		CU_ASSERT_EQUAL(b[RR_LRU_INACTIVE_FILE], v == 1 ? 990 : 1000);
		rr_state_free(&st);
	}
	/* the hierarchy's version not known: no bound */
	rr_state_init(&st);
	memcg_line(&st, "reclaim-replay: memcg id=35 level=1 hier_inactive_anon=0 "
		   "hier_active_anon=0 hier_inactive_file=1 hier_active_file=1 hier_unevictable=0");
	CU_ASSERT_EQUAL(rr_state_dying_bound(&st, rr_state_find(&st, 35), b, NULL), -1);
	rr_state_free(&st);
}

/* "tasks" lines: written and read back, split at RR_MARKER_TASKS_MAX_PIDS,
 * within a marker line's room; bad values named; the meta line's
 * memcg_events= and snapshot_interval_ms= */
static void test_marker_tasks(void)
{
	static struct rr_marker_tasks t;
	static struct rr_marker m;
	char line[RR_MARKER_MAX_LINE_BYTES + 64], text[RR_MARKER_MAX_LINE_BYTES + 128];
	struct rr_marker_meta meta = { .page_size = 4096, .duration_s = 0 };
	int n;

	t.memcg_id = 105998;
	t.threads = 3;
	t.left_out = 1;
	t.nr_pids = 2;
	t.pids[0] = 31883;
	t.pids[1] = 4194304;
	rr_marker_format_tasks(line, sizeof(line), &t);
	CU_ASSERT_STRING_EQUAL(line, "tasks memcg=105998 threads=3 left_out=1 pids=31883,4194304");
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", line);
	CU_ASSERT_EQUAL_FATAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
	CU_ASSERT_EQUAL(m.tasks.memcg_id, 105998);
	CU_ASSERT_EQUAL(m.tasks.threads, 3);
	CU_ASSERT_EQUAL(m.tasks.left_out, 1);
	CU_ASSERT_EQUAL(m.tasks.nr_pids, 2);
	CU_ASSERT_EQUAL(m.tasks.pids[1], 4194304);
	CU_ASSERT_PTR_NULL(m.tasks.malformed);
	/* no pids (the root's, or all left out): the key is left out */
	t.nr_pids = 0;
	t.left_out = 3;
	rr_marker_format_tasks(line, sizeof(line), &t);
	CU_ASSERT_STRING_EQUAL(line, "tasks memcg=105998 threads=3 left_out=3");
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", line);
	CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
	CU_ASSERT_EQUAL(m.tasks.nr_pids, 0);
	CU_ASSERT_PTR_NULL(m.tasks.malformed);
	/* the most pids of the longest ids fit a marker line */
	t.memcg_id = INT64_MAX;
	t.threads = t.left_out = INT32_MAX;
	t.nr_pids = RR_MARKER_TASKS_MAX_PIDS;
	for (int i = 0; i < t.nr_pids; i++)
		t.pids[i] = 4194304 - i;
	n = rr_marker_format_tasks(line, sizeof(line), &t);
	CU_ASSERT(n > 0 && strlen(RR_MARKER_PREFIX) + 1 + (size_t)n <= RR_MARKER_MAX_LINE_BYTES);
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", line);
	CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
	CU_ASSERT_EQUAL(m.tasks.nr_pids, RR_MARKER_TASKS_MAX_PIDS);
	CU_ASSERT_EQUAL(m.tasks.pids[RR_MARKER_TASKS_MAX_PIDS - 1],
			4194304 - RR_MARKER_TASKS_MAX_PIDS + 1);
	/* bad values: named, no pids taken */
	{
		static const struct { const char *line, *bad; } cases[] = {
			{ "tasks memcg=9 threads=2 left_out=0 pids=1,x", "pids" },
			{ "tasks memcg=9 threads=2 left_out=0 pids=1,,2", "pids" },
			{ "tasks memcg=9 threads=2 left_out=0 pids=0", "pids" },
			{ "tasks memcg=9 threads=2 left_out=3 pids=5", "left_out" },
			{ "tasks memcg=-5 threads=2 left_out=0 pids=5", "memcg" },
			{ "tasks memcg=9 threads=two left_out=0", "threads" },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", cases[i].line);
			CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
			CU_ASSERT_PTR_NOT_NULL_FATAL(m.tasks.malformed);
			CU_ASSERT_STRING_EQUAL(m.tasks.malformed, cases[i].bad);
		}
		CU_ASSERT_EQUAL(m.tasks.nr_pids, 0);
	}
	/* absent keys read as -1 */
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " tasks pids=7");
	CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
	CU_ASSERT_EQUAL(m.tasks.memcg_id, -1);
	CU_ASSERT_EQUAL(m.tasks.threads, -1);
	CU_ASSERT_EQUAL(m.tasks.nr_pids, 1);

	/* meta: the new keys, and their defaults on an older line */
	snprintf(meta.memcg_events, sizeof(meta.memcg_events), "absent");
	meta.snapshot_interval_ms = 250;
	rr_marker_format_meta(line, sizeof(line), &meta);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, " memcg_events=absent snapshot_interval_ms=250"));
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", line);
	CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_META);
	CU_ASSERT_STRING_EQUAL(m.meta.memcg_events, "absent");
	CU_ASSERT_EQUAL(m.meta.snapshot_interval_ms, 250);
	snprintf(text, sizeof(text), RR_MARKER_PREFIX " meta version=1 page_size=4096");
	CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_META);
	CU_ASSERT_STRING_EQUAL(m.meta.memcg_events, "");
	CU_ASSERT_EQUAL(m.meta.snapshot_interval_ms, -1);
}

static int collect_all(const char *line, void *ctx)
{
	struct lines *l = ctx;

	if (l->n < 8)
		snprintf(l->text[l->n], sizeof(l->text[0]), "%s", line);
	l->n++;
	return 0;
}

static unsigned long long ino_of(const char *rel)
{
	char path[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return stat(path, &st) ? 0 : (unsigned long long)st.st_ino;
}

/* "tasks" lines on fake trees: v1 "tasks", v2 "cgroup.threads"; the root's
 * threads counted, not listed; a v2 cgroup without the memory controller
 * counts in its memcg; the cap; a memcg of many threads on several lines */
static void test_cgroup_tasks(void)
{
	struct rr_cgroup_fs fs;
	struct rr_error err;
	struct lines l = { .n = 0 };
	char mounts[600], proc[300], want[600], cmd[300];
	long long left_out = -1;

	/* v1 */
	make_base();
	put("proc/cgroups", "memory\t4\t3\t1\n");
	snprintf(mounts, sizeof(mounts), "cgroup %s/cg cgroup rw,nosuid,memory 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "4:memory:/\n");
	dir("cg/job");
	dir("cg/idle");
	put("cg/memory.stat", "inactive_anon 0\n");
	put("cg/tasks", "1\n2\n3\n");
	put("cg/job/memory.stat", "inactive_anon 0\n");
	put("cg/job/tasks", "100\n101\n102\n");
	put("cg/idle/memory.stat", "inactive_anon 0\n");
	put("cg/idle/tasks", "");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	CU_ASSERT_EQUAL(rr_cgroup_tasks(&fs, 4096, collect_all, &l, &left_out, &err), 3);
	CU_ASSERT_EQUAL(left_out, 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);	/* no line for a memcg without threads */
	snprintf(want, sizeof(want), "tasks memcg=%llu threads=3 left_out=3", ino_of("cg"));
	CU_ASSERT_STRING_EQUAL(l.text[0], want);
	snprintf(want, sizeof(want), "tasks memcg=%llu threads=3 left_out=0 pids=100,101,102",
		 ino_of("cg/job"));
	CU_ASSERT_STRING_EQUAL(l.text[1], want);
	/* the cap: two listed, one counted */
	l.n = 0;
	CU_ASSERT_EQUAL(rr_cgroup_tasks(&fs, 2, collect_all, &l, &left_out, &err), 2);
	CU_ASSERT_EQUAL(left_out, 1);
	snprintf(want, sizeof(want), "tasks memcg=%llu threads=3 left_out=1 pids=100,101",
		 ino_of("cg/job"));
	CU_ASSERT_STRING_EQUAL(l.text[1], want);
	/* 1000 threads: three lines (480, 480, 40), each with the totals */
	{
		char *many = malloc(8 * 1000 + 1);
		static struct rr_marker m;
		char text[700];

		CU_ASSERT_PTR_NOT_NULL_FATAL(many);
		many[0] = 0;
		for (int i = 0; i < 1000; i++)
			sprintf(many + strlen(many), "%d\n", 1000 + i);
		put("cg/job/tasks", many);
		free(many);
		l.n = 0;
		CU_ASSERT_EQUAL(rr_cgroup_tasks(&fs, 4096, collect_all, &l, &left_out, &err), 1000);
		CU_ASSERT_EQUAL(l.n, 4);
		snprintf(text, sizeof(text), RR_MARKER_PREFIX " %s", l.text[3]);
		CU_ASSERT_EQUAL(rr_marker_parse(text, strlen(text), false, &m), RR_MARKER_TASKS);
		CU_ASSERT_EQUAL(m.tasks.threads, 1000);
		CU_ASSERT_EQUAL(m.tasks.left_out, 0);
		CU_ASSERT_EQUAL(m.tasks.nr_pids, 40);
		CU_ASSERT_EQUAL(m.tasks.pids[39], 1999);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(cmd), 0);

	/* v2: cgroup.threads; "leaf" has no memory controller (no memory.stat)
	 * and its threads, and its child's, are job's */
	make_base();
	put("proc/cgroups", "memory\t0\t3\t1\n");
	snprintf(mounts, sizeof(mounts), "cgroup2 %s/cg cgroup2 rw 0 0\n", base);
	put("proc/mounts", mounts);
	put("proc/self/cgroup", "0::/\n");
	dir("cg/job");
	dir("cg/job/leaf");
	dir("cg/job/leaf/deeper");
	put("cg/memory.stat", "inactive_anon 0\n");
	put("cg/cgroup.threads", "1\n");
	put("cg/job/memory.stat", "inactive_anon 0\n");
	put("cg/job/cgroup.threads", "200\n");
	put("cg/job/leaf/cgroup.threads", "201\n202\n");
	put("cg/job/leaf/deeper/cgroup.threads", "203\n");
	snprintf(proc, sizeof(proc), "%s/proc", base);
	CU_ASSERT_EQUAL_FATAL(rr_cgroup_fs_find(&fs, proc, &err), 0);
	l.n = 0;
	CU_ASSERT_EQUAL(rr_cgroup_tasks(&fs, 4096, collect_all, &l, &left_out, &err), 4);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);
	snprintf(want, sizeof(want), "tasks memcg=%llu threads=4 left_out=0 pids=200,201,202,203",
		 ino_of("cg/job"));
	CU_ASSERT_STRING_EQUAL(l.text[1], want);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

int register_record_tests(void)
{
	CU_pSuite s = CU_add_suite("record", NULL, NULL);

	if (!s || !CU_add_test(s, "cgroup v2 snapshot (fake tree)", test_v2_snapshot) ||
	    !CU_add_test(s, "a memcg marker's path holds no keys", test_marker_path_keys) ||
	    !CU_add_test(s, "memory.min/low \"max\" and bad marker values", test_marker_protection_max) ||
	    !CU_add_test(s, "proactive marker: swappiness= and path=", test_marker_proactive_keys) ||
	    !CU_add_test(s, "vm, zone and node markers: keys, absent, malformed",
			 test_marker_zone_node_vm) ||
	    !CU_add_test(s, "memcg marker: hierarchical sizes", test_marker_memcg_hier) ||
	    !CU_add_test(s, "tasks marker; meta memcg_events=, snapshot_interval_ms=",
			 test_marker_tasks) ||
	    !CU_add_test(s, "tasks lines (fake v1 and v2 trees): root counted, cap, split",
			 test_cgroup_tasks) ||
	    !CU_add_test(s, "zone and node lines (fake zoneinfo), nr_to_reclaim, file_is_tiny",
			 test_zone_snapshot) ||
	    !CU_add_test(s, "the dying descendants' bound (v1, v2)", test_dying_bound) ||
	    !CU_add_test(s, "memory.reclaim write with swappiness= (fake v2 tree)",
			 test_v2_proactive_write) ||
	    !CU_add_test(s, "cgroup v1 snapshot (fake tree)", test_v1_snapshot) ||
	    !CU_add_test(s, "a container's mount of its own cgroup", test_mount_top) ||
	    !CU_add_test(s, "a path too long for a marker line is left out", test_long_path) ||
	    !CU_add_test(s, "event filters from item numbers", test_item_filters) ||
	    !CU_add_test(s, "trace.dat: data moved in, newest pages left out to fit",
			 test_tracedat_move_and_fit))
		return -1;
	return 0;
}
