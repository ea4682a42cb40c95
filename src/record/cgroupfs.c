// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory cgroups for the recorder (sysinfo.h): the cgroup mount, the
 * per-cgroup snapshot, the tasks of each cgroup and memory.reclaim writes.
 * (items.c and zones.c hold the other system facts.)
 */
#include "sysinfo.h"

#include "../common/lru.h"
#include "../markers/markers.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mountinfo's octal escapes (\040 for a space) undone, in place */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/*
 * The cgroup the mount at @mnt shows as its top (mountinfo's 4th field):
 * "/" for the hierarchy's root, or in a cgroup namespace; a subtree's path
 * where a container bind-mounts its own cgroup as the hierarchy (Docker
 * on cgroup v1).  Empty when mountinfo does not say.
 */
static void mount_top(const char *proc_root, const char *mnt, char *top, size_t len)
{
	char path[600], line[2048];
	FILE *f;

	top[0] = 0;
	snprintf(path, sizeof(path), "%s/self/mountinfo", proc_root);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char root[1024], point[1024];

		if (sscanf(line, "%*s %*s %*s %1023s %1023s", root, point) != 2)
			continue;
		unescape_octal(point);
		if (strcmp(point, mnt))
			continue;
		unescape_octal(root);
		snprintf(top, len, "%s", root);	/* (the last mount there wins) */
	}
	fclose(f);
}

int rr_cgroup_fs_find(struct rr_cgroup_fs *fs, const char *proc_root, struct rr_error *err)
{
	char path[600], line[1024], rel[512] = "", top[1024];
	int enabled = 0;
	FILE *f;

	memset(fs, 0, sizeof(*fs));
	fs->hierarchy_id = -1;
	snprintf(path, sizeof(path), "%s/cgroups", proc_root);
	f = fopen(path, "r");
	if (!f) {
		rr_error_set(err, path, "cannot read: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		int hier, num;

		if (sscanf(line, "%63s %d %d %d", name, &hier, &num, &enabled) == 4 &&
		    !strcmp(name, "memory")) {
			fs->hierarchy_id = hier;
			break;
		}
	}
	fclose(f);
	if (fs->hierarchy_id < 0) {
		rr_error_set(err, path, "this kernel has no memory cgroup controller (it is built "
			     "without CONFIG_MEMCG)");
		return -1;
	}
	if (!enabled) {
		rr_error_set(err, path, "the memory cgroup controller is disabled (cgroup_disable="
			     "memory on the kernel command line?)");
		return -1;
	}
	fs->version = fs->hierarchy_id ? 1 : 2;
	snprintf(path, sizeof(path), "%s/mounts", proc_root);
	f = fopen(path, "r");
	if (!f) {
		rr_error_set(err, path, "cannot read: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char dev[256], mnt[512], type[64], opts[512];

		if (sscanf(line, "%255s %511s %63s %511s", dev, mnt, type, opts) != 4)
			continue;
		if (fs->version == 1 && !strcmp(type, "cgroup") &&
		    (strstr(opts, ",memory") || !strncmp(opts, "memory", 6))) {
			snprintf(fs->root, sizeof(fs->root), "%s", mnt);
			break;
		}
		if (fs->version == 2 && !strcmp(type, "cgroup2")) {
			snprintf(fs->root, sizeof(fs->root), "%s", mnt);
			break;
		}
	}
	fclose(f);
	if (!fs->root[0]) {
		if (fs->version == 1)
			rr_error_set(err, path, "the memory cgroup controller is not mounted (no cgroup "
				     "v1 mount with it: mount -t cgroup -o memory none /sys/fs/cgroup/memory)");
		else
			rr_error_set(err, path, "cgroup v2 is not mounted (mount -t cgroup2 none "
				     "/sys/fs/cgroup)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/self/cgroup", proc_root);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

			if (!c2)
				continue;
			*c2 = 0;
			if ((fs->version == 1 && strstr(c1 + 1, "memory")) ||
			    (fs->version == 2 && c1 == line + 1 && line[0] == '0')) {
				snprintf(rel, sizeof(rel), "%s", c2 + 1);
				rel[strcspn(rel, "\n")] = 0;
				break;
			}
		}
		fclose(f);
	}
	/* /proc/self/cgroup names our cgroup from the hierarchy's root (outside
	 * a cgroup namespace); a mount of a subtree shows it below that
	 * subtree's path */
	unescape_octal(fs->root);	/* (/proc/mounts escapes as mountinfo does) */
	mount_top(proc_root, fs->root, top, sizeof(top));
	if (top[0] && strcmp(top, "/")) {
		size_t n = strlen(top);

		if (!strncmp(rel, top, n) && (rel[n] == '/' || !rel[n])) {
			memmove(rel, rel + n, strlen(rel + n) + 1);
		} else {
			snprintf(fs->self_problem, sizeof(fs->self_problem),
				 "our memory cgroup %.100s is not under the cgroup %.100s that %.50s "
				 "shows", rel, top, fs->root);
		}
		if (!rel[0])
			snprintf(rel, sizeof(rel), "/");
	}
	/* a cgroup namespace whose root is below our cgroup: /proc/self/cgroup
	 * names it "/.." upwards, outside every mount of it */
	if (!strncmp(rel, "/..", 3) && (rel[3] == '/' || !rel[3]))
		snprintf(fs->self_problem, sizeof(fs->self_problem),
			 "our memory cgroup %.100s is above this cgroup namespace's root", rel);
	snprintf(fs->self, sizeof(fs->self), "%s%s", fs->root, strcmp(rel, "/") ? rel : "");
	return 0;
}

/* ---- snapshot ---- */

static long long read_ll(const char *dir, const char *file, long long def)
{
	char path[PATH_MAX], buf[64];
	long long v = def;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return def;
	if (fgets(buf, sizeof(buf), f)) {
		if (!strncmp(buf, "max", 3))
			v = -1;
		else
			v = strtoll(buf, NULL, 10);
	}
	fclose(f);
	return v;
}

/* memory.stat: the LRU sizes (@bytes) and, where given (v1 total_*), the
 * hierarchical ones (@total; *@has_total set when all of them were) */
static int read_stat(const char *dir, unsigned long long bytes[RR_NR_LRU],
		     unsigned long long total[RR_NR_LRU], bool *has_total)
{
	char path[PATH_MAX], key[128];
	unsigned long long v;
	int seen = 0;
	FILE *f;

	memset(bytes, 0, RR_NR_LRU * sizeof(*bytes));
	memset(total, 0, RR_NR_LRU * sizeof(*total));
	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%127s %llu", key, &v) == 2)
		for (int l = 0; l < RR_NR_LRU; l++) {
			if (!strcmp(key, rr_lru_names[l]))
				bytes[l] = v;
			else if (!strncmp(key, "total_", 6) && !strcmp(key + 6, rr_lru_names[l])) {
				total[l] = v;
				seen |= 1 << l;
			}
		}
	fclose(f);
	*has_total = seen == (1 << RR_NR_LRU) - 1;
	return 0;
}

struct walk {
	const struct rr_cgroup_fs *fs;
	unsigned int page_size;
	int vm_swappiness;
	struct rr_error *err;
	char **lines;		/* post-order */
	int count, cap;
	/* writes a marker line now (the "snapshot read" before each read) */
	int (*emit)(const char *line, void *ctx);
	void *ctx;
};

/* Post-order for v2 (local = hierarchical - children); returns the
 * hierarchical bytes of @dir in @hier. */
static int walk_dir(struct walk *w, const char *dir, int level, unsigned long long hier[RR_NR_LRU])
{
	unsigned long long own[RR_NR_LRU], children[RR_NR_LRU] = { 0 }, local[RR_NR_LRU];
	unsigned long long total[RR_NR_LRU];
	bool has_total;
	static struct rr_marker_memcg mc;	/* 4 KiB: not on the recursion's stack */
	char line[PATH_MAX + 512], sub[PATH_MAX];
	const char *rel = dir + strlen(w->fs->root);
	struct stat st;
	struct dirent *de;
	DIR *d;
	int swappiness;

	if (stat(dir, &st))
		return 0;	/* gone meanwhile */
	/* the trace's time of the read: its line comes after the walk, and
	 * the LRU deltas in between must be added to what it says */
	rr_marker_format_snapshot_read(line, sizeof(line), (unsigned long long)st.st_ino);
	if (w->emit && w->emit(line, w->ctx)) {
		rr_error_set(w->err, dir, "cannot write the snapshot marker");
		return -1;
	}
	if (read_stat(dir, own, total, &has_total))
		return 0;	/* gone meanwhile, or not a memcg */
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned long long ch[RR_NR_LRU];

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (walk_dir(w, sub, level + 1, ch)) {
			closedir(d);
			return -1;
		}
		for (int l = 0; l < RR_NR_LRU; l++)
			children[l] += ch[l];
	}
	closedir(d);
	memcpy(hier, own, sizeof(own));
	for (int l = 0; l < RR_NR_LRU; l++) {
		/* v1 memory.stat is local already; v2 is hierarchical */
		local[l] = w->fs->version == 2 ? (own[l] > children[l] ? own[l] - children[l] : 0)
					       : own[l];
		if (w->fs->version == 1)
			hier[l] = own[l] + children[l];
	}
	swappiness = w->fs->version == 1 ? (int)read_ll(dir, "memory.swappiness", w->vm_swappiness)
					 : w->vm_swappiness;
	mc.id = (long long)st.st_ino;
	mc.level = level;
	mc.swappiness = swappiness;
	/* hierarchical sizes as the kernel counts them, dying descendants
	 * included: v2 memory.stat (hier, as read), v1 total_*; none where a
	 * v1 file lacks them (the visible cgroups' sum would leave the dying
	 * ones out, and the replay's bound would be a silent 0) */
	for (int l = 0; l < RR_NR_LRU; l++) {
		mc.lru_pages[l] = local[l] / w->page_size;
		mc.hier_pages[l] = (w->fs->version == 1 && has_total ? total[l] : hier[l]) /
				   w->page_size;
	}
	mc.hier_known = w->fs->version == 2 || has_total;
	mc.limit_bytes = w->fs->version == 1 ? read_ll(dir, "memory.limit_in_bytes", -1)
					     : read_ll(dir, "memory.max", -1);
	/* (v1 has neither file: not looked for, two system calls fewer per
	 * memcg of each snapshot) */
	mc.min_bytes = w->fs->version == 1 ? 0 : read_ll(dir, "memory.min", 0);
	mc.low_bytes = w->fs->version == 1 ? 0 : read_ll(dir, "memory.low", 0);
	snprintf(mc.path, sizeof(mc.path), "%s", *rel ? rel : "/");
	if (rr_marker_format_memcg(line, sizeof(line), &mc) >= (int)sizeof(line)) {
		rr_error_set(w->err, dir, "cgroup path too long for a marker line");
		return -1;
	}
	/* the kernel keeps about 4 KiB of a trace_marker write (4085 bytes of
	 * text on 6.18) and cuts the rest: a line that long leaves its path
	 * out (the memcg is then known by its id) rather than lose its end */
	if (strlen(RR_MARKER_PREFIX) + 1 + strlen(line) > RR_MARKER_MAX_LINE_BYTES) {
		mc.path[0] = 0;
		rr_marker_format_memcg(line, sizeof(line), &mc);
	}
	if (w->count == w->cap) {
		char **nl = realloc(w->lines, (size_t)(w->cap = w->cap ? w->cap * 2 : 64) * sizeof(*nl));

		if (!nl) {
			rr_error_set(w->err, dir, "out of memory");
			return -1;
		}
		w->lines = nl;
	}
	w->lines[w->count] = strdup(line);
	if (!w->lines[w->count]) {
		rr_error_set(w->err, dir, "out of memory");
		return -1;
	}
	w->count++;
	return 0;
}

int rr_cgroup_snapshot(const struct rr_cgroup_fs *fs, unsigned int page_size,
		       int vm_swappiness, int (*emit)(const char *line, void *ctx),
		       void *ctx, struct rr_error *err)
{
	struct walk w = { fs, page_size ? page_size : 4096, vm_swappiness, err, NULL, 0, 0,
			  emit, ctx };
	unsigned long long hier[RR_NR_LRU];
	int ret = walk_dir(&w, fs->root, 0, hier) ? -1 : w.count;

	/* reverse post-order: every parent before its children, so a reader
	 * can link each cgroup to its parent by path as the lines come */
	for (int i = w.count - 1; i >= 0; i--) {
		if (ret >= 0 && emit(w.lines[i], ctx)) {
			rr_error_set(err, fs->root, "cannot write the snapshot marker");
			ret = -1;
		}
		free(w.lines[i]);
	}
	free(w.lines);
	return ret;
}

/* ---- task membership ---- */

struct pid_list {
	int *pids;
	int n, cap;
};

/* Append the thread ids of @dir's v1 "tasks" or v2 "cgroup.threads" file
 * to @l; -1 when the file cannot be read (gone, or no such file).  Plain
 * read()s: a snapshot reads this file of every memcg, and each system call
 * counts (about 10 us on this VM). */
static int read_threads(const struct rr_cgroup_fs *fs, const char *dir, struct pid_list *l)
{
	char path[PATH_MAX], stack_buf[8192], *buf = stack_buf, *p, *end;
	size_t have = 0, size = sizeof(stack_buf);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, fs->version == 1 ? "tasks" : "cgroup.threads");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* the whole file (a root's may list 10^5 threads) */
	while ((n = read(fd, buf + have, size - 1 - have)) > 0) {
		have += (size_t)n;
		if (have == size - 1) {
			char *nb = malloc(size * 2);

			if (!nb)
				break;	/* (the ids read so far are written) */
			memcpy(nb, buf, have);
			if (buf != stack_buf)
				free(buf);
			buf = nb;
			size *= 2;
		}
	}
	close(fd);
	buf[have] = 0;
	for (p = buf; *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v <= 0 || v > INT_MAX)
			continue;
		if (l->n == l->cap) {
			int cap = l->cap ? l->cap * 2 : 64;
			int *np = realloc(l->pids, (size_t)cap * sizeof(*np));

			if (!np)
				break;
			l->pids = np;
			l->cap = cap;
		}
		l->pids[l->n++] = (int)v;
	}
	if (buf != stack_buf)
		free(buf);
	return 0;
}

struct task_walk {
	const struct rr_cgroup_fs *fs;
	int budget;		/* thread ids that may still be listed */
	int listed;
	long long left_out;
	int (*emit)(const char *line, void *ctx);
	void *ctx;
	struct rr_error *err;
};

/* The lines of one memcg: its threads in @l, the first @budget listed. */
static int emit_tasks(struct task_walk *w, unsigned long long id, bool root,
		      const struct pid_list *l)
{
	static struct rr_marker_tasks t;	/* 2 KiB: not on the recursion's stack */
	char line[RR_MARKER_MAX_LINE_BYTES + 1];
	int listed = root ? 0 : (l->n < w->budget ? l->n : w->budget), i = 0;

	if (!l->n)
		return 0;
	t.memcg_id = (long long)id;
	t.threads = l->n;
	t.left_out = l->n - listed;
	do {
		t.nr_pids = listed - i < RR_MARKER_TASKS_MAX_PIDS ? listed - i
								 : RR_MARKER_TASKS_MAX_PIDS;
		memcpy(t.pids, l->pids + i, (size_t)t.nr_pids * sizeof(int));
		i += t.nr_pids;
		rr_marker_format_tasks(line, sizeof(line), &t);
		if (w->emit(line, w->ctx)) {
			rr_error_set(w->err, w->fs->root, "cannot write the task marker");
			return -1;
		}
	} while (i < listed);
	w->budget -= listed;
	w->listed += listed;
	if (!root)
		w->left_out += t.left_out;
	return 0;
}

/* The subdirectories of @dir, and whether each is a memcg (v1: all are;
 * v2: those with a memory.stat). */
struct subdirs {
	char (*names)[256];
	bool *memcg;
	int n;
};

static void list_subdirs(const struct rr_cgroup_fs *fs, const char *dir, struct subdirs *sd)
{
	char path[PATH_MAX + 300];
	struct dirent *de;
	int cap = 0;
	DIR *d = opendir(dir);

	memset(sd, 0, sizeof(*sd));
	while (d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (sd->n == cap) {
			int nc = cap ? cap * 2 : 16;
			char (*nn)[256] = realloc(sd->names, (size_t)nc * sizeof(*nn));
			bool *nm = nn ? realloc(sd->memcg, (size_t)nc * sizeof(*nm)) : NULL;

			if (nn)
				sd->names = nn;
			if (!nm)
				break;
			sd->memcg = nm;
			cap = nc;
		}
		snprintf(sd->names[sd->n], sizeof(sd->names[0]), "%s", de->d_name);
		snprintf(path, sizeof(path), "%s/%s/memory.stat", dir, de->d_name);
		sd->memcg[sd->n++] = fs->version == 1 || !access(path, F_OK);
	}
	if (d)
		closedir(d);
}

/* @dir is a memcg when @into is NULL, or, on v2, a cgroup without the
 * memory controller whose threads count in @into (the list of the nearest
 * memcg above it). */
static int walk_tasks(struct task_walk *w, const char *dir, int level, struct pid_list *into)
{
	char sub[PATH_MAX];
	struct pid_list own = { NULL, 0, 0 }, *l = into ? into : &own;
	struct subdirs sd;
	struct stat st;
	int ret = 0;

	if ((!into && stat(dir, &st)) || read_threads(w->fs, dir, l))
		return 0;	/* gone meanwhile */
	list_subdirs(w->fs, dir, &sd);
	/* a v2 cgroup without the memory controller: its threads, and its
	 * descendants', are the nearest memcg's, whose lines come after them */
	for (int i = 0; i < sd.n && !ret; i++)
		if (!sd.memcg[i]) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, sd.names[i]);
			ret = walk_tasks(w, sub, level + 1, l);
		}
	if (!ret && !into)
		ret = emit_tasks(w, (unsigned long long)st.st_ino, level == 0, l);
	/* then the memcgs below, parents first */
	for (int i = 0; i < sd.n && !ret; i++)
		if (sd.memcg[i]) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, sd.names[i]);
			ret = walk_tasks(w, sub, level + 1, NULL);
		}
	free(sd.names);
	free(sd.memcg);
	free(own.pids);
	return ret;
}

int rr_cgroup_tasks(const struct rr_cgroup_fs *fs, int max_listed,
		    int (*emit)(const char *line, void *ctx), void *ctx,
		    long long *left_out, struct rr_error *err)
{
	struct task_walk w = { fs, max_listed > 0 ? max_listed : 0, 0, 0, emit, ctx, err };
	char stat_path[sizeof(fs->root) + 16];
	int ret = 0;

	/* (the root is a memcg when its memory.stat is there, as for
	 * rr_cgroup_snapshot(); on v2 before 5.8 it has none) */
	snprintf(stat_path, sizeof(stat_path), "%s/memory.stat", fs->root);
	if (!access(stat_path, F_OK))
		ret = walk_tasks(&w, fs->root, 0, NULL);

	if (left_out)
		*left_out = w.left_out;
	return ret ? -1 : w.listed;
}

int rr_proactive_write(const struct rr_cgroup_fs *fs, const char *cgroup_dir,
		       uint64_t bytes, int swappiness,
		       int (*emit)(const char *line, void *ctx), void *ctx)
{
	struct rr_marker_proactive pm = { .bytes = (long long)bytes, .swappiness = swappiness };
	size_t root_len = strlen(fs->root);
	char path[1500], v[64], line[RR_MARKER_MAX_LINE_BYTES + 1];
	int fd, e = 0;
	ssize_t n;

	if (!strncmp(cgroup_dir, fs->root, root_len) &&
	    (cgroup_dir[root_len] == '/' || !cgroup_dir[root_len]))
		snprintf(pm.path, sizeof(pm.path), "%s",
			 cgroup_dir[root_len] ? cgroup_dir + root_len : "/");
	snprintf(path, sizeof(path), "%s/memory.reclaim", cgroup_dir);
	if (swappiness == RR_SWAPPINESS_ANON_ONLY)
		snprintf(v, sizeof(v), "%llu swappiness=max", (unsigned long long)bytes);
	else if (swappiness >= 0)
		snprintf(v, sizeof(v), "%llu swappiness=%d", (unsigned long long)bytes, swappiness);
	else
		snprintf(v, sizeof(v), "%llu", (unsigned long long)bytes);
	/* a path too long for one marker line is left out, as in snapshots */
	if (rr_marker_format_proactive(line, sizeof(line), true, &pm) >= (int)sizeof(line)) {
		pm.path[0] = 0;
		rr_marker_format_proactive(line, sizeof(line), true, &pm);
	}
	emit(line, ctx);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
	} else {
		n = write(fd, v, strlen(v));
		if (n < 0)
			e = errno;
		close(fd);
	}
	snprintf(pm.result, sizeof(pm.result), "%s", e ? "error" : "ok");
	pm.errno_value = e;
	rr_marker_format_proactive(line, sizeof(line), false, &pm);
	emit(line, ctx);
	return e;
}
