// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's cgroup snapshot on fake cgroupfs trees: cgroup v2 (this
 * machine has only v1 memory cgroups), where memory.stat is hierarchical
 * and the local sizes are the difference to the children, and v1, where
 * memory.stat is local already.  No root needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/record/sysinfo.h"
#include "../../src/markers/markers.h"
#include "unit.h"

static char base[256];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[512];

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
	CU_ASSERT_EQUAL(m.memcg.min_bytes, -1);
	CU_ASSERT_EQUAL(m.memcg.lru_pages[0], 3);
	CU_ASSERT_STRING_EQUAL(m.memcg.path, "/x swappiness=5 min_bytes=7");
}

int register_record_tests(void)
{
	CU_pSuite s = CU_add_suite("record", NULL, NULL);

	if (!s || !CU_add_test(s, "cgroup v2 snapshot (fake tree)", test_v2_snapshot) ||
	    !CU_add_test(s, "a memcg marker's path holds no keys", test_marker_path_keys) ||
	    !CU_add_test(s, "cgroup v1 snapshot (fake tree)", test_v1_snapshot) ||
	    !CU_add_test(s, "event filters from item numbers", test_item_filters))
		return -1;
	return 0;
}
