// SPDX-License-Identifier: GPL-2.0-only
/*
 * System facts for the recorder: item numbers from BTF (libbpf) or
 * /proc/vmstat, the memory cgroup mount, and the per-cgroup snapshot.
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

#include <bpf/btf.h>
#include <bpf/libbpf.h>

static void items_init(struct rr_items *it)
{
	memset(it, 0, sizeof(*it));
	for (int i = 0; i < 2; i++)
		it->workingset_refault[i] = it->workingset_activate[i] =
			it->workingset_restore[i] = -1;
	for (int i = 0; i < 4; i++)
		it->pgscan[i] = it->pgsteal[i] = -1;
	it->pgrefill = it->pgdeactivate = -1;
}

struct item_name {
	const char *name;	/* enum constant; lowercased it is the vmstat name */
	int *slot;
};

static void names_for(struct rr_items *it, struct item_name *node, struct item_name *ev)
{
	struct item_name n[] = {
		{ "NR_INACTIVE_ANON", &it->nr_lru_base },
		{ "WORKINGSET_REFAULT_ANON", &it->workingset_refault[0] },
		{ "WORKINGSET_REFAULT_FILE", &it->workingset_refault[1] },
		{ "WORKINGSET_ACTIVATE_ANON", &it->workingset_activate[0] },
		{ "WORKINGSET_ACTIVATE_FILE", &it->workingset_activate[1] },
		{ "WORKINGSET_RESTORE_ANON", &it->workingset_restore[0] },
		{ "WORKINGSET_RESTORE_FILE", &it->workingset_restore[1] },
		{ NULL, NULL },
	};
	struct item_name e[] = {
		{ "PGSCAN_KSWAPD", &it->pgscan[0] }, { "PGSCAN_DIRECT", &it->pgscan[1] },
		{ "PGSCAN_KHUGEPAGED", &it->pgscan[2] }, { "PGSCAN_PROACTIVE", &it->pgscan[3] },
		{ "PGSTEAL_KSWAPD", &it->pgsteal[0] }, { "PGSTEAL_DIRECT", &it->pgsteal[1] },
		{ "PGSTEAL_KHUGEPAGED", &it->pgsteal[2] }, { "PGSTEAL_PROACTIVE", &it->pgsteal[3] },
		{ "PGREFILL", &it->pgrefill }, { "PGDEACTIVATE", &it->pgdeactivate },
		{ NULL, NULL },
	};

	memcpy(node, n, sizeof(n));
	memcpy(ev, e, sizeof(e));
}

/* libbpf's own messages ("failed to find valid kernel BTF") are not for
 * our users: a kernel without BTF is normal (the lab's 6.1, many distro
 * builds), and record's summary says once where the numbers came from. */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int from_btf(struct rr_items *it)
{
	struct item_name node[8], ev[11];
	const char *enums[2] = { "node_stat_item", "vm_event_item" };
	struct item_name *lists[2] = { node, ev };
	libbpf_print_fn_t old;
	struct btf *btf;
	int found = 0;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return -1;
	old = libbpf_set_print(libbpf_quiet);
	btf = btf__load_vmlinux_btf();
	libbpf_set_print(old);
	if (!btf)	/* libbpf 1.x returns NULL with errno set */
		return -1;
	names_for(it, node, ev);
	for (int k = 0; k < 2; k++) {
		__s32 id = btf__find_by_name_kind(btf, enums[k], BTF_KIND_ENUM);
		const struct btf_type *t;
		const struct btf_enum *e;

		if (id < 0)
			continue;
		t = btf__type_by_id(btf, (__u32)id);
		e = btf_enum(t);
		for (int i = 0; i < btf_vlen(t); i++) {
			const char *name = btf__name_by_offset(btf, e[i].name_off);

			for (struct item_name *n = lists[k]; n->name; n++)
				if (name && !strcmp(name, n->name)) {
					*n->slot = e[i].val;
					found++;
				}
		}
	}
	btf__free(btf);
	if (!found)
		return -1;
	snprintf(it->source, sizeof(it->source), "btf");
	return 0;
}

/* /proc/vmstat: zone, NUMA and node items, two writeback thresholds, then
 * the vm events, each in enum order; node items start at nr_inactive_anon. */
static int from_vmstat(struct rr_items *it)
{
	struct item_name node[8], ev[11];
	FILE *f = fopen("/proc/vmstat", "r");
	char name[128];
	unsigned long long v;
	int node_base = -1, ev_base = -1, line = 0;

	if (!f)
		return -1;
	names_for(it, node, ev);
	it->nr_lru_base = -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		char up[128];
		size_t i;

		for (i = 0; i < sizeof(up) - 1 && name[i]; i++)
			up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
		up[i] = 0;
		if (node_base < 0 && !strcmp(name, "nr_inactive_anon"))
			node_base = line;
		if (node_base >= 0 && ev_base < 0) {
			for (struct item_name *n = node; n->name; n++)
				if (!strcmp(up, n->name))
					*n->slot = line - node_base;
		}
		if (ev_base >= 0)
			for (struct item_name *n = ev; n->name; n++)
				if (!strcmp(up, n->name))
					*n->slot = line - ev_base;
		if (!strcmp(name, "nr_dirty_background_threshold"))
			ev_base = line + 1;
		line++;
	}
	fclose(f);
	if (node_base < 0)
		return -1;
	snprintf(it->source, sizeof(it->source), "vmstat");
	return 0;
}

int rr_items_resolve(struct rr_items *it, struct rr_error *err)
{
	items_init(it);
	if (!from_btf(it))
		return 0;
	items_init(it);
	if (!from_vmstat(it))
		return 0;
	rr_error_set(err, "/sys/kernel/btf/vmlinux",
		     "cannot resolve memcg item numbers (no BTF, and /proc/vmstat unreadable)");
	return -1;
}

static void append(char *buf, size_t len, const char *fmt, int v)
{
	size_t n = strlen(buf);

	if (v >= 0 && n < len)
		snprintf(buf + n, len - n, fmt, v);
}

void rr_items_filters(const struct rr_items *it, char *lruvec, size_t lruvec_len,
		      char *events, size_t events_len)
{
	snprintf(lruvec, lruvec_len, "(item >= %d && item < %d)", it->nr_lru_base,
		 it->nr_lru_base + 5);
	for (int i = 0; i < 2; i++) {
		append(lruvec, lruvec_len, " || item == %d", it->workingset_refault[i]);
		append(lruvec, lruvec_len, " || item == %d", it->workingset_activate[i]);
		append(lruvec, lruvec_len, " || item == %d", it->workingset_restore[i]);
	}
	events[0] = 0;
	for (int i = 0; i < 4; i++) {
		append(events, events_len, "item == %d || ", it->pgscan[i]);
		append(events, events_len, "item == %d || ", it->pgsteal[i]);
	}
	append(events, events_len, "item == %d || ", it->pgrefill);
	append(events, events_len, "item == %d || ", it->pgdeactivate);
	if (strlen(events) >= 4)
		events[strlen(events) - 4] = 0;	/* drop the last " || " */
}

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

/* ---- zones, nodes, vm sysctls ---- */

static long long read_ll_path(const char *path, long long def)
{
	FILE *f = fopen(path, "r");
	long long v = def;

	if (!f)
		return def;
	if (fscanf(f, "%lld", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

void rr_vm_read(const char *proc_root, const char *sys_root, struct rr_marker_vm *vm)
{
	char path[600], buf[16] = "";
	FILE *f;

	memset(vm, 0, sizeof(*vm));
#define VM(field, file) do { \
		snprintf(path, sizeof(path), "%s/sys/" file, proc_root); \
		vm->field = read_ll_path(path, -1); \
	} while (0)
	VM(min_free_kbytes, "vm/min_free_kbytes");
	VM(watermark_scale_factor, "vm/watermark_scale_factor");
	VM(watermark_boost_factor, "vm/watermark_boost_factor");
	VM(laptop_mode, "vm/laptop_mode");
	VM(zone_reclaim_mode, "vm/zone_reclaim_mode");
	VM(numa_balancing, "kernel/numa_balancing");
#undef VM
	/* "true"/"false" (v5.15+) */
	vm->demotion_enabled = -1;
	snprintf(path, sizeof(path), "%s/kernel/mm/numa/demotion_enabled", sys_root);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			vm->demotion_enabled = !strncmp(buf, "true", 4) || buf[0] == '1' ? 1 :
					       !strncmp(buf, "false", 5) || buf[0] == '0' ? 0 : -1;
		fclose(f);
	}
}

static long long swap_free_kb(const char *proc_root)
{
	char path[600], key[64];
	long long v, free_kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/meminfo", proc_root);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld%*[^\n]", key, &v) == 2)
		if (!strcmp(key, "SwapFree:"))
			free_kb = v;
	fclose(f);
	return free_kb;
}

/* The node counters of @nid: nodeN/vmstat, else /proc/vmstat (a kernel
 * without NUMA has one node and no such directory). */
static void node_vmstat(const char *proc_root, const char *sys_root, struct rr_marker_node *n)
{
	struct {
		const char *name;
		long long *slot;
	} keys[] = {
		{ "nr_free_pages", &n->nr_free_pages },
		{ "nr_inactive_anon", &n->nr_inactive_anon },
		{ "nr_active_anon", &n->nr_active_anon },
		{ "nr_inactive_file", &n->nr_inactive_file },
		{ "nr_active_file", &n->nr_active_file },
		{ "nr_isolated_anon", &n->nr_isolated_anon },
		{ "nr_isolated_file", &n->nr_isolated_file },
		{ "nr_writeback", &n->nr_writeback },
		{ "nr_dirty", &n->nr_dirty },
	};
	char path[600], key[128];
	long long v;
	FILE *f;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		*keys[i].slot = -1;
	snprintf(path, sizeof(path), "%s/devices/system/node/node%lld/vmstat", sys_root, n->nid);
	f = fopen(path, "r");
	snprintf(n->source, sizeof(n->source), "node");
	if (!f) {
		snprintf(path, sizeof(path), "%s/vmstat", proc_root);
		f = fopen(path, "r");
		snprintf(n->source, sizeof(n->source), "vmstat");
	}
	if (!f) {
		n->source[0] = 0;
		return;
	}
	while (fscanf(f, "%127s %lld", key, &v) == 2)
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i].name))
				*keys[i].slot = v;
	fclose(f);
}

struct zones {
	const char *proc_root, *sys_root;
	int (*emit)(const char *line, void *ctx);
	void *ctx;
	struct rr_marker_zone z;	/* the zone being read */
	bool in_zone;
	long long nid;			/* the node being read, -1 none */
	long long nr_zones;		/* zone lines written for it */
	int next_zid;
	int nodes;
	long long swap_free_kb;
};

static int zone_done(struct zones *zs)
{
	char line[1024];

	if (!zs->in_zone)
		return 0;
	zs->in_zone = false;
	if (zs->z.managed <= 0)	/* not managed: no reclaim reads it */
		return 0;
	rr_marker_format_zone(line, sizeof(line), &zs->z);
	zs->nr_zones++;
	return zs->emit(line, zs->ctx);
}

static int node_done(struct zones *zs)
{
	struct rr_marker_node n;
	char line[1024];

	if (zone_done(zs))
		return -1;
	if (zs->nid < 0)
		return 0;
	memset(&n, 0, sizeof(n));
	n.nid = zs->nid;
	n.zones = zs->nr_zones;
	node_vmstat(zs->proc_root, zs->sys_root, &n);
	n.swap_free_kb = zs->swap_free_kb;
	rr_marker_format_node(line, sizeof(line), &n);
	zs->nodes++;
	zs->nid = -1;
	return zs->emit(line, zs->ctx);
}

int rr_zone_snapshot(const char *proc_root, const char *sys_root,
		     int (*emit)(const char *line, void *ctx), void *ctx, struct rr_error *err)
{
	struct zones zs = { proc_root, sys_root, emit, ctx, .nid = -1 };
	char path[600], line[1024];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/zoneinfo", proc_root);
	f = fopen(path, "r");
	if (!f)		/* (no procfs zoneinfo: no lines, the replay says unknown) */
		return 0;
	zs.swap_free_kb = swap_free_kb(proc_root);
	while (!ret && fgets(line, sizeof(line), f)) {
		char key[64], name[16];
		long long v;
		int nid;

		if (sscanf(line, "Node %d, zone %15s", &nid, name) == 2) {
			if (nid != zs.nid) {
				ret = node_done(&zs);
				zs.nid = nid;
				zs.nr_zones = 0;
				zs.next_zid = 0;
			} else {
				ret = zone_done(&zs);
			}
			memset(&zs.z, 0, sizeof(zs.z));
			zs.z.nid = nid;
			/* zoneinfo lists every zone of the node (populated or
			 * not, v4.15+) in enum zone_type order */
			zs.z.zid = zs.next_zid++;
			snprintf(zs.z.name, sizeof(zs.z.name), "%s", name);
			zs.z.managed = zs.z.present = zs.z.spanned = zs.z.free = -1;
			zs.z.min = zs.z.low = zs.z.high = zs.z.boost = zs.z.promo = -1;
			zs.in_zone = zs.z.zid < RR_MARKER_MAX_ZONES;
			continue;
		}
		if (!zs.in_zone)
			continue;
		if (sscanf(line, " pages free %lld", &v) == 1) {
			zs.z.free = v;
			continue;
		}
		if (!strncmp(line + strspn(line, " "), "protection: (", 13)) {
			char *p = line + strspn(line, " ") + 13, *end;

			zs.z.nr_protection = 0;
			while (zs.z.nr_protection < RR_MARKER_MAX_ZONES) {
				v = strtoll(p, &end, 10);
				if (end == p)
					break;
				zs.z.protection[zs.z.nr_protection++] = v;
				p = end + strspn(end, ", ");
			}
			continue;
		}
		if (sscanf(line, " %63s %lld", key, &v) != 2)
			continue;
		if (!strcmp(key, "boost"))
			zs.z.boost = v;
		else if (!strcmp(key, "min"))
			zs.z.min = v;
		else if (!strcmp(key, "low"))
			zs.z.low = v;
		else if (!strcmp(key, "high"))
			zs.z.high = v;
		else if (!strcmp(key, "promo"))
			zs.z.promo = v;
		else if (!strcmp(key, "spanned"))
			zs.z.spanned = v;
		else if (!strcmp(key, "present"))
			zs.z.present = v;
		else if (!strcmp(key, "managed"))
			zs.z.managed = v;
	}
	fclose(f);
	if (!ret)
		ret = node_done(&zs);
	if (ret) {
		rr_error_set(err, path, "cannot write the zone and node markers");
		return -1;
	}
	return zs.nodes;
}
