// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder (see record.h).
 *
 * Order matters (docs/kernel-model.md §18): the events are enabled
 * and tracing is on before the snapshot is read and before the workload's
 * cgroup is created, so the trace holds any flush the snapshot's reads
 * cause and the cgroup's mkdir.  One thread: per-CPU readers are polled in
 * non-blocking mode and spliced into one temporary file per CPU; at the
 * end they are flushed and joined into the trace.dat.
 *
 * Undo: the instance (and the events, filters and buffer size, which live
 * in it), the child cgroup (with what CMD left in it) and every temporary
 * file are removed on every exit path, and on SIGINT/SIGTERM/SIGHUP, which
 * stop the recording with a trace of what came before (record(1) gives
 * the exit status of each way to end).  A write of the recorded data that
 * fails (a full disk) stops the recording, and the trace keeps what was
 * written; a trace whose directory is gone goes to $TMPDIR.  An instance
 * left by a recorder killed with SIGKILL is found by its name
 * (reclaim-replay-<pid>, pid gone) and removed by the next run.  The
 * top-level tracing state is never touched, nor is tracefs mounted.
 */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "../markers/markers.h"
#include "probes.h"
#include "sysinfo.h"
#include "tracedat.h"

#define INSTANCE_PREFIX "reclaim-replay-"
/* Each recorder that creates a cgroup notes it in <dir>/<pid>, so the next
 * run can remove the cgroup of a recorder killed with SIGKILL. */
#define REGISTRY_DIR "/run/reclaim-replay"

static volatile sig_atomic_t stop_signal;

static volatile sig_atomic_t signals_seen;
/* the dispositions before ours: restored at the end, and in CMD */
static struct sigaction old_int, old_term, old_hup;

static void on_signal(int sig)
{
	stop_signal = sig;
	signals_seen++;
}

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

static const char *const default_events[] = {
	"vmscan", NULL,
	"memcg", "mod_memcg_lruvec_state",
	"memcg", "memcg_flush_stats",
	"memcg", "count_memcg_events",
	"cgroup", "cgroup_mkdir",
	"cgroup", "cgroup_rmdir",
	"cgroup", "cgroup_release",
	"cgroup", "cgroup_attach_task",
};

static int read_int_file(const char *path, int def)
{
	FILE *f = fopen(path, "r");
	int v = def;

	if (!f)
		return def;
	if (fscanf(f, "%d", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/* Whether /proc/filesystems lists @type. */
static bool has_filesystem(const char *type)
{
	FILE *f = fopen("/proc/filesystems", "r");
	char line[256];
	bool found = false;

	if (!f)
		return true;	/* cannot tell: let the mount say */
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = 0;
		found = !strcmp(name, type);
	}
	fclose(f);
	return found;
}

/* Whether tracefs is mounted: itself, or under a mounted debugfs (whose
 * tracing directory mounts it when looked at). */
static bool tracefs_mounted(void)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[1024], dev[256], mnt[512], type[64], path[600];
	bool found = false;

	if (!f)
		return true;	/* cannot tell: let libtracefs look */
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, mnt, type) != 3)
			continue;
		if (!strcmp(type, "tracefs"))
			found = true;
		else if (!strcmp(type, "debugfs")) {
			snprintf(path, sizeof(path), "%s/tracing/trace", mnt);
			found = !access(path, F_OK);
		}
	}
	fclose(f);
	return found;
}

static long long swap_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char key[64];
	long long v, total = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld kB", key, &v) == 2)
		if (!strcmp(key, "SwapTotal:"))
			total = v;
	fclose(f);
	return total;
}

/* Remove instances of recorders that died without cleaning up. */
static void remove_stale_instances(void)
{
	char **names = tracefs_instances("^" INSTANCE_PREFIX "[0-9][0-9]*$")	/* basic regex */;

	for (int i = 0; names && names[i]; i++) {
		pid_t pid = (pid_t)atoi(names[i] + strlen(INSTANCE_PREFIX));
		struct tracefs_instance *in;

		if (pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		in = tracefs_instance_alloc(NULL, names[i]);
		if (in) {
			for (int k = 0; k < 50 && tracefs_instance_destroy(in) && errno == EBUSY; k++)
				usleep(20000);
			tracefs_instance_free(in);
		}
	}
	tracefs_list_free(names);
}

/*
 * Remove the cgroup @dir and the cgroups a workload made inside it, killing
 * the tasks left in them (SIGKILL: the cgroup is the recorder's, and its
 * workload has ended).  Returns 0, or -1 with errno when @dir stays.
 */
static int kill_and_rmdir(const char *dir)
{
	char path[1500];
	struct dirent *de;
	DIR *d;
	FILE *f;
	int pid;

	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		kill_and_rmdir(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	for (int i = 0; i < 50; i++) {
		bool any = false;

		f = fopen(path, "r");
		if (!f)
			break;
		while (fscanf(f, "%d", &pid) == 1) {
			kill(pid, SIGKILL);
			any = true;
		}
		fclose(f);
		if (!any && (!rmdir(dir) || errno == ENOENT))
			return 0;
		usleep(20000);
	}
	return rmdir(dir) && errno != ENOENT ? -1 : 0;
}

/* Remove the cgroups of recorders that died without cleaning up. */
static void remove_stale_cgroups(void)
{
	DIR *d = opendir(REGISTRY_DIR);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[600], dir[1100];
		pid_t pid = (pid_t)atoi(de->d_name);
		FILE *f;

		if (pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), REGISTRY_DIR "/%s", de->d_name);
		f = fopen(path, "r");
		if (f) {
			if (fgets(dir, sizeof(dir), f)) {
				dir[strcspn(dir, "\n")] = 0;
				if (dir[0] == '/')
					kill_and_rmdir(dir);
			}
			fclose(f);
		}
		unlink(path);
	}
	closedir(d);
}

static void register_cgroup(const char *dir, bool add)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), REGISTRY_DIR "/%d", (int)getpid());
	if (!add) {
		unlink(path);
		return;
	}
	mkdir(REGISTRY_DIR, 0700);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", dir);
		fclose(f);
	}
}

static int marker(struct rec *r, const char *line)
{
	return tracefs_printf(r->inst, RR_MARKER_PREFIX " %s\n", line) < 0 ? -1 : 0;
}

static int marker_cb(const char *line, void *ctx)
{
	return marker(ctx, line);
}

static int snapshot(struct rec *r, const char *when, int *count, int *nodes)
{
	struct rr_marker_snapshot ms = { .cgroups = -1 };
	char line[256];
	long long left_out = 0;
	int n;

	snprintf(ms.when, sizeof(ms.when), "%s", when);
	rr_marker_format_snapshot(line, sizeof(line), true, &ms);
	if (marker(r, line))
		return -1;
	/* the zones' watermarks and free pages, the nodes' counters (global
	 * reclaim's inputs), then the memcgs */
	n = rr_zone_snapshot("/proc", "/sys", marker_cb, r, r->err);
	if (n < 0)
		return -1;
	if (nodes)
		*nodes = n;
	/* "zones": the zones and nodes alone, before any event (a kswapd run
	 * that ends before the start snapshot reads its watermarks) */
	n = strcmp(when, "zones") ?
	    rr_cgroup_snapshot(&r->fs, r->page_size, r->vm_swappiness, marker_cb, r, r->err) : 0;
	if (n < 0)
		return -1;
	if (count)
		*count = n;
	ms.cgroups = n;
	/* without the memcg events no batch says whose memcg it scanned: the
	 * replay takes it from the reclaiming task's memcg */
	if (r->follow_tasks && strcmp(when, "zones")) {
		if (rr_cgroup_tasks(&r->fs, RR_RECORD_MAX_TASKS_PER_SNAPSHOT, marker_cb, r, &left_out,
				    r->err) < 0)
			return -1;
		r->tasks_left_out += left_out;
	}
	rr_marker_format_snapshot(line, sizeof(line), false, &ms);
	return marker(r, line);
}

/* Whether the kernel has memcg: events at all (Linux 6.13+): an event
 * directory under events/memcg of tracefs. */
static bool kernel_has_memcg_events(const char *tracing)
{
	char path[1200];
	struct dirent *de;
	struct stat st;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events/memcg", tracing);
	d = opendir(path);
	while (d && !found && (de = readdir(d))) {
		char sub[1500];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		found = !stat(sub, &st) && S_ISDIR(st.st_mode);
	}
	if (d)
		closedir(d);
	return found;
}

static int write_meta(struct rec *r, const char *lruvec_filter, const char *events_filter)
{
	struct rr_marker_meta meta = {
		.page_size = r->page_size, .cpus = r->nr_cpus, .cgroup_version = r->fs.version,
		.memory_hierarchy_id = r->fs.hierarchy_id, .swap_total_kb = swap_total_kb(),
		.vm_swappiness = r->vm_swappiness, .mglru = "absent",
		.buffer_kb = r->o->buffer_kb, .duration_s = r->o->duration_s,
		.snapshot_interval_ms = r->snapshot_interval_ms,
	};
	struct rr_marker_items items = {
		.nr_lru_base = r->items.nr_lru_base,
		.pgscan_kswapd = r->items.pgscan[0], .pgscan_direct = r->items.pgscan[1],
		.pgscan_proactive = r->items.pgscan[3], .pgrefill = r->items.pgrefill,
	};
	struct rr_marker_vm vm;
	char line[2048];
	struct utsname u;
	FILE *f;

	f = fopen("/sys/kernel/mm/lru_gen/enabled", "r");
	if (f) {
		if (!fgets(meta.mglru, sizeof(meta.mglru), f))
			snprintf(meta.mglru, sizeof(meta.mglru), "unknown");
		meta.mglru[strcspn(meta.mglru, "\n")] = 0;
		fclose(f);
	}
	uname(&u);
	snprintf(meta.kernel_release, sizeof(meta.kernel_release), "%s", u.release);
	snprintf(meta.memcg_events, sizeof(meta.memcg_events), "%s",
		 r->memcg_events == RR_RECORD_MEMCG_EVENTS_ON ? "on" :
		 r->memcg_events == RR_RECORD_MEMCG_EVENTS_OFF ? "off" : "absent");
	rr_marker_format_meta(line, sizeof(line), &meta);
	if (marker(r, line))
		return -1;
	snprintf(items.source, sizeof(items.source), "%s", r->items.source);
	for (int t = 0; t < RR_NR_LRU_TYPES; t++) {
		items.workingset_refault[t] = r->items.workingset_refault[t];
		items.workingset_activate[t] = r->items.workingset_activate[t];
		items.workingset_restore[t] = r->items.workingset_restore[t];
	}
	rr_marker_format_items(line, sizeof(line), &items);
	if (marker(r, line))
		return -1;
	rr_vm_read("/proc", "/sys", &vm);
	rr_marker_format_vm(line, sizeof(line), &vm);
	if (marker(r, line))
		return -1;
	if (r->memcg_events != RR_RECORD_MEMCG_EVENTS_ON)
		return 0;	/* no filters: the events are off */
	rr_marker_format_filter(line, sizeof(line), "mod_memcg_lruvec_state", lruvec_filter);
	if (marker(r, line))
		return -1;
	rr_marker_format_filter(line, sizeof(line), "count_memcg_events", events_filter);
	return marker(r, line);
}

static int enable(struct rec *r, const char *sys, const char *ev, bool required,
		  char *enabled, size_t enabled_len)
{
	size_t n = strlen(enabled);

	if (tracefs_event_enable(r->inst, sys, ev) < 0) {
		int e = errno;
		char where[300];
		bool exists;

		snprintf(where, sizeof(where), "events/%s%s%s", sys, ev ? "/" : "", ev ? ev : "");
		exists = tracefs_file_exists(r->inst, where);
		if (required) {
			if (!exists)
				rr_error_set(r->err, "", "this kernel has no %s:%s event (no %s in tracefs): "
					     "record needs it", sys, ev ? ev : "*", where);
			else
				rr_error_set(r->err, "", "cannot enable event %s:%s: %s", sys,
					     ev ? ev : "*", strerror(e ? e : EINVAL));
			return -1;
		}
		fprintf(stderr, "reclaim-replay: warning: event %s:%s not available on this kernel\n",
			sys, ev ? ev : "*");
		return 0;
	}
	snprintf(enabled + n, enabled_len - n, "%s%s:%s", n ? "," : "", sys, ev ? ev : "*");
	return 0;
}

/*
 * The shrink_lruvec() kprobe: by default (RR_RECORD_PROBES_AUTO) where the
 * memcg: events are not recorded, whose attribution and sizes it gives and
 * more; a kernel that cannot have it (no kprobe events, no BTF, the
 * function inlined) is said in the summary, and only --kprobes makes that
 * an error.  The probe is global (kprobe_events), enabled in our instance
 * only, and removed in cleanup().
 */
static int setup_probe(struct rec *r, char *enabled, size_t enabled_len)
{
	const char *tracing = tracefs_tracing_dir();
	bool want = r->o->probes == RR_RECORD_PROBES_ON ||
		    (r->o->probes == RR_RECORD_PROBES_AUTO &&
		     r->memcg_events != RR_RECORD_MEMCG_EVENTS_ON);

	if (!want) {
		snprintf(r->probe_why, sizeof(r->probe_why), "%s",
			 r->o->probes == RR_RECORD_PROBES_OFF ? "--no-kprobes" :
			 "not needed: the memcg events are on");
		return 0;
	}
	if (rr_probe_plan(&r->probe, (int)getpid(), "/sys/kernel/btf/vmlinux", "/proc/kallsyms") ||
	    rr_probe_create(&r->probe, tracing, r->probe_why, sizeof(r->probe_why))) {
		if (!r->probe_why[0])
			snprintf(r->probe_why, sizeof(r->probe_why), "%s", r->probe.why);
		rr_probe_plan_free(&r->probe);
		if (r->o->probes == RR_RECORD_PROBES_ON) {
			rr_error_set(r->err, "", "--kprobes: cannot probe shrink_lruvec(): %s",
				     r->probe_why);
			return -1;
		}
		return 0;
	}
	r->probe_made = true;
	return enable(r, r->probe.group, RR_PROBE_EVENT, true, enabled, enabled_len);
}

static int setup_events(struct rec *r)
{
	char lruvec[512], events[512], filter[64], enabled[2048] = "", line[2200];

	rr_items_filters(&r->items, lruvec, sizeof(lruvec), events, sizeof(events));
	/* the meta line first, before any event: a reader then knows from the
	 * start that a snapshot follows (decisions before it read sizes the
	 * trace does not give yet) */
	if (write_meta(r, lruvec, events) || snapshot(r, "zones", NULL, NULL))
		return -1;
	/* the events start together: tracefs enables one event at a time, a
	 * few ms each, and a trace whose vmscan events came before its memcg
	 * ones began with batches no memcg event placed (tracing is off until
	 * every event and filter is set; the markers above were written) */
	if (tracefs_trace_off(r->inst) < 0) {
		rr_error_set(r->err, tracefs_instance_get_name(r->inst), "cannot turn tracing off");
		return -1;
	}
	for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i += 2) {
		/* vmscan and the memcg events are needed; cgroup events help
		 * (cgroup_attach_task says where a task moves, also on kernels
		 * without memcg events) */
		if (!strcmp(default_events[i], "memcg") &&
		    r->memcg_events != RR_RECORD_MEMCG_EVENTS_ON)
			continue;
		if (enable(r, default_events[i], default_events[i + 1],
			   !strcmp(default_events[i], "vmscan"), enabled, sizeof(enabled)))
			return -1;
	}
	if (r->memcg_events == RR_RECORD_MEMCG_EVENTS_ON)
		tracefs_event_file_write(r->inst, "memcg", "mod_memcg_lruvec_state", "filter", lruvec);
	if (events[0] && r->memcg_events == RR_RECORD_MEMCG_EVENTS_ON)
		tracefs_event_file_write(r->inst, "memcg", "count_memcg_events", "filter", events);
	if (r->fs.version == 1) {
		snprintf(filter, sizeof(filter), "root == %d", r->fs.hierarchy_id);
		tracefs_event_file_write(r->inst, "cgroup", "cgroup_mkdir", "filter", filter);
		tracefs_event_file_write(r->inst, "cgroup", "cgroup_rmdir", "filter", filter);
		tracefs_event_file_write(r->inst, "cgroup", "cgroup_release", "filter", filter);
		snprintf(filter, sizeof(filter), "dst_root == %d", r->fs.hierarchy_id);
		tracefs_event_file_write(r->inst, "cgroup", "cgroup_attach_task", "filter", filter);
	}
	/* without the memcg events the replay follows each task to its memcg:
	 * the "tasks" lines of each snapshot, cgroup_attach_task, and the
	 * forks in between (a child starts in its parent's memcg, with no
	 * attach event); the event exists on every kernel record runs on */
	if (r->follow_tasks &&
	    enable(r, "sched", "sched_process_fork", false, enabled, sizeof(enabled)))
		return -1;
	if (setup_probe(r, enabled, sizeof(enabled)))
		return -1;
	for (int i = 0; i < r->o->nr_extra; i++) {
		char sys[128], *ev;

		snprintf(sys, sizeof(sys), "%s", r->o->extra[i]);
		ev = strchr(sys, ':');
		if (ev)
			*ev++ = 0;
		if (enable(r, sys, ev, false, enabled, sizeof(enabled)))
			return -1;
	}
	if (tracefs_trace_on(r->inst) < 0) {
		rr_error_set(r->err, tracefs_instance_get_name(r->inst), "cannot turn tracing on");
		return -1;
	}
	rr_marker_format_events(line, sizeof(line), enabled);
	return marker(r, line);
}

static int write_file(const char *dir, const char *file, const char *value, struct rr_error *err)
{
	char path[1500];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0) {
		rr_error_set(err, path, "cannot write '%s': %s", value, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int make_cgroup(struct rec *r)
{
	char v[64];

	if (strchr(r->o->cgroup, '/') || !strcmp(r->o->cgroup, "..") || !strcmp(r->o->cgroup, ".")) {
		rr_error_set(r->err, r->o->cgroup, "--cgroup takes a plain name, not a path");
		return -1;
	}
	if (strlen(r->o->cgroup) > 200) {
		rr_error_set(r->err, r->o->cgroup, "--cgroup name longer than 200 characters");
		return -1;
	}
	if (r->fs.self_problem[0]) {
		rr_error_set(r->err, r->fs.root, "--cgroup: cannot place the cgroup below our own: %s",
			     r->fs.self_problem);
		return -1;
	}
	snprintf(r->cgroup_dir, sizeof(r->cgroup_dir), "%.1099s/%.200s", r->fs.self, r->o->cgroup);
	if (mkdir(r->cgroup_dir, 0755)) {
		rr_error_set(r->err, r->cgroup_dir, "cannot create the cgroup: %s", strerror(errno));
		return -1;
	}
	r->cgroup_made = true;
	register_cgroup(r->cgroup_dir, true);
	if (r->o->memory_max_bytes) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)r->o->memory_max_bytes);
		if (write_file(r->cgroup_dir, r->fs.version == 1 ? "memory.limit_in_bytes"
								 : "memory.max", v, r->err))
			return -1;
	}
	if (r->o->proactive_bytes && r->fs.version != 2) {
		rr_error_set(r->err, r->cgroup_dir,
			     "--proactive needs cgroup v2: memory.reclaim does not exist on v1");
		return -1;
	}
	if (r->o->swappiness >= 0) {
		if (r->fs.version != 1) {
			rr_error_set(r->err, r->cgroup_dir,
				     "--swappiness needs cgroup v1 (v2 has no per-cgroup swappiness)");
			return -1;
		}
		snprintf(v, sizeof(v), "%d", r->o->swappiness);
		if (write_file(r->cgroup_dir, "memory.swappiness", v, r->err))
			return -1;
	}
	return 0;
}

static void remove_cgroup(struct rec *r)
{
	if (!r->cgroup_made)
		return;
	/* CMD has ended; what it left behind (a daemon, cgroups it made
	 * inside, tasks still exiting) goes with the cgroup */
	if (!kill_and_rmdir(r->cgroup_dir)) {
		r->cgroup_made = false;
		register_cgroup(NULL, false);
		return;
	}
	fprintf(stderr, "reclaim-replay: warning: %s: cannot remove the cgroup: %s\n",
		r->cgroup_dir, strerror(errno));
}

/* Fork CMD, move it into the cgroup, let it exec.  Returns its pid, or -1
 * with r->err set when it could not be started or its exec failed (an
 * O_CLOEXEC pipe carries exec's errno back). */
static pid_t start_cmd(struct rec *r)
{
	int sync[2], exec_err[2], e = 0;
	pid_t pid;
	ssize_t n;
	char c;

	if (pipe(sync)) {
		rr_error_set(r->err, "", "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(exec_err, O_CLOEXEC)) {
		rr_error_set(r->err, "", "pipe: %s", strerror(errno));
		close(sync[0]);
		close(sync[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		rr_error_set(r->err, "", "fork: %s", strerror(errno));
		close(sync[0]);
		close(sync[1]);
		close(exec_err[0]);
		close(exec_err[1]);
		return -1;
	}
	if (!pid) {
		long maxfd = sysconf(_SC_OPEN_MAX);

		/* keep no tracefs files open in CMD (an open trace_marker keeps
		 * the instance busy) and none of ours */
		for (int fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 1024); fd++)
			if (fd != sync[0] && fd != exec_err[1])
				close(fd);
		/* wait until the parent moved us into the cgroup */
		if (read(sync[0], &c, 1) != 1)
			_exit(127);
		close(sync[0]);
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		if (r->cgroup_made)
			setenv("RECLAIM_REPLAY_CGROUP", r->cgroup_dir, 1);
		execvp(r->o->argv[0], r->o->argv);
		e = errno;
		if (write(exec_err[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(sync[0]);
	close(exec_err[1]);
	if (r->cgroup_made) {
		char v[32];

		snprintf(v, sizeof(v), "%d", (int)pid);
		if (write_file(r->cgroup_dir, "cgroup.procs", v, r->err)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(sync[1]);
			close(exec_err[0]);
			return -1;
		}
	}
	c = 1;
	if (write(sync[1], &c, 1) != 1)
		c = 0;
	close(sync[1]);
	/* end of file: the exec succeeded */
	do
		n = read(exec_err[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(exec_err[0]);
	if (n == sizeof(e)) {
		waitpid(pid, NULL, 0);
		rr_error_set(r->err, r->o->argv[0], "cannot run: %s (nothing was recorded)",
			     strerror(e));
		return -1;
	}
	return pid;
}

/*
 * End CMD: SIGTERM, then SIGKILL after RR_RECORD_STOP_GRACE_MS or at a
 * second stopping signal, so that a CMD that ignores SIGTERM cannot hang
 * the recorder.  The ring buffers are drained meanwhile.  Returns CMD's
 * waitpid() status.
 */
static long drain(struct rec *r);

static int stop_child(struct rec *r)
{
	sig_atomic_t seen = signals_seen;
	int status = 0;

	kill(r->child, SIGTERM);
	for (int ms = 0; ; ms += 20) {
		pid_t w = waitpid(r->child, &status, WNOHANG);

		if (w == r->child || (w < 0 && errno != EINTR))
			break;
		if (ms >= RR_RECORD_STOP_GRACE_MS || signals_seen != seen) {
			kill(r->child, SIGKILL);
			while (waitpid(r->child, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		drain(r);
		usleep(20000);
	}
	r->child = 0;
	return status;
}

static int open_readers(struct rec *r)
{
	r->tcpu = calloc((size_t)r->nr_cpus, sizeof(*r->tcpu));
	r->cpu_fd = calloc((size_t)r->nr_cpus, sizeof(*r->cpu_fd));
	r->cpu_path = calloc((size_t)r->nr_cpus, sizeof(*r->cpu_path));
	if (!r->tcpu || !r->cpu_fd || !r->cpu_path) {
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	for (int c = 0; c < r->nr_cpus; c++)
		r->cpu_fd[c] = -1;
	for (int c = 0; c < r->nr_cpus; c++) {
		if (asprintf(&r->cpu_path[c], "%s.cpu%d.XXXXXX", r->o->output, c) < 0) {
			r->cpu_path[c] = NULL;
			rr_error_set(r->err, "", "out of memory");
			return -1;
		}
		r->cpu_fd[c] = mkstemp(r->cpu_path[c]);
		if (r->cpu_fd[c] < 0) {
			rr_error_set(r->err, r->o->output, "cannot create a temporary file next to it: %s",
				     strerror(errno));
			free(r->cpu_path[c]);
			r->cpu_path[c] = NULL;
			return -1;
		}
		r->tcpu[c] = tracefs_cpu_open(r->inst, c, true);
		if (!r->tcpu[c]) {
			rr_error_set(r->err, "", "cannot open the ring buffer of CPU %d: %s", c,
				     strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Move what the ring buffers hold to the per-CPU files; bytes moved.  A
 * write that fails for want of room (or on an I/O error) sets
 * r->write_errno, and nothing more is written: the files keep the data
 * up to then (a partial last page is left out when the trace is made). */
static void note_write_error(struct rec *r, int n)
{
	if (n < 0 && (errno == ENOSPC || errno == EDQUOT || errno == EFBIG || errno == EIO))
		r->write_errno = errno;
}

static long drain(struct rec *r)
{
	long total = 0;

	for (int c = 0; c < r->nr_cpus && !r->write_errno; c++) {
		int n;

		while ((n = tracefs_cpu_write(r->tcpu[c], r->cpu_fd[c], true)) > 0)
			total += n;
		note_write_error(r, n);
	}
	return total;
}

/* Events each CPU's ring buffer lost (overrun + dropped), stored in the
 * trace as a "lost" marker and returned in @res. */
static uint64_t lost_events(struct rec *r, struct rr_record_result *res)
{
	uint64_t *per_cpu = calloc((size_t)r->nr_cpus + 1, sizeof(*per_cpu));
	char line[4096];
	uint64_t lost = 0;

	for (int c = 0; c < r->nr_cpus; c++) {
		char file[64], *stats, *p;
		uint64_t n = 0;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c);
		stats = tracefs_instance_file_read(r->inst, file, NULL);
		if (stats) {
			if ((p = strstr(stats, "overrun:")))
				n += strtoull(p + 8, NULL, 10);
			if ((p = strstr(stats, "dropped events:")))
				n += strtoull(p + 15, NULL, 10);
			free(stats);
		}
		if (c < 256)
			res->lost_per_cpu[c] = n;
		if (per_cpu)
			per_cpu[c] = n;
		lost += n;
	}
	rr_marker_format_lost(line, sizeof(line), per_cpu, per_cpu ? r->nr_cpus : 0);
	free(per_cpu);
	marker(r, line);
	return lost;
}

static void cleanup(struct rec *r)
{
	if (r->child > 0)
		stop_child(r);
	remove_cgroup(r);
	for (int c = 0; r->tcpu && c < r->nr_cpus; c++)
		if (r->tcpu[c])
			tracefs_cpu_close(r->tcpu[c]);
	for (int c = 0; r->cpu_fd && c < r->nr_cpus; c++) {
		if (r->cpu_fd[c] >= 0)
			close(r->cpu_fd[c]);
		if (r->cpu_path[c]) {
			unlink(r->cpu_path[c]);
			free(r->cpu_path[c]);
		}
	}
	free(r->tcpu);
	free(r->cpu_fd);
	free(r->cpu_path);
	if (r->inst) {
		tracefs_print_close(r->inst);	/* the cached trace_marker fd */
		if (tracefs_instance_destroy(r->inst))
			fprintf(stderr, "reclaim-replay: warning: cannot remove tracefs instance %s: %s\n",
				tracefs_instance_get_name(r->inst), strerror(errno));
		tracefs_instance_free(r->inst);
		r->inst = NULL;
	}
	/* once no instance has it enabled */
	if (r->probe_made) {
		if (rr_probe_remove(tracefs_tracing_dir(), r->probe.group))
			fprintf(stderr, "reclaim-replay: warning: cannot remove the kprobe %s/%s: %s\n",
				r->probe.group, RR_PROBE_EVENT, strerror(errno));
		r->probe_made = false;
	}
	rr_probe_plan_free(&r->probe);
}

static long long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000LL + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* One memory.reclaim write, with markers before and after (§10). */
static void proactive(struct rec *r)
{
	rr_proactive_write(&r->fs, r->cgroup_dir, r->o->proactive_bytes,
			   r->o->proactive_swappiness, marker_cb, r);
}

/*
 * Join the per-CPU data into the trace: under a temporary name next to the
 * output, renamed once whole.  When no file can be made there (its
 * directory was removed during the recording, say), the data is not
 * thrown away: the trace goes to ${TMPDIR:-/tmp}, named in res->saved_as.
 */
static int write_output(struct rec *r, struct rr_record_result *res)
{
	/* the formats of every system an event was enabled of: -e's too (a
	 * bug fixed: their records read as unknown events) */
	char extra[RR_RECORD_MAX_EXTRA + 1][128];
	const char *systems[RR_RECORD_MAX_EXTRA + 6] = { "vmscan", "memcg", "cgroup" };
	int nsys = 3;
	const char *tracing = tracefs_tracing_dir();
	const char *tmpdir = getenv("TMPDIR");
	const char *name = r->o->output;
	char *tmp;
	struct stat st;
	int fd, ret;

	for (int i = 0; i <= r->o->nr_extra; i++) {
		bool seen = false;

		/* (the last: sched, of sched_process_fork without memcg events) */
		snprintf(extra[i], sizeof(extra[i]), "%s", i < r->o->nr_extra ? r->o->extra[i] :
			 r->follow_tasks ? "sched" : "");
		extra[i][strcspn(extra[i], ":")] = 0;
		for (int k = 0; k < nsys && !seen; k++)
			seen = !strcmp(systems[k], extra[i]);
		if (extra[i][0] && !seen && !strchr(extra[i], '/') && strcmp(extra[i], "..") &&
		    strcmp(extra[i], "."))
			systems[nsys++] = extra[i];
	}
	if (r->probe_made)
		systems[nsys++] = r->probe.group;
	systems[nsys] = NULL;
	if (asprintf(&tmp, "%s.tmp.XXXXXX", r->o->output) < 0) {
		rr_error_set(r->err, r->o->output, "out of memory");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		res->output_errno = errno;
		free(tmp);
		if (asprintf(&tmp, "%s/reclaim-replay-%d-XXXXXX.dat", tmpdir && *tmpdir ? tmpdir : "/tmp",
			     (int)getpid()) < 0) {
			rr_error_set(r->err, r->o->output, "out of memory");
			return -1;
		}
		fd = mkstemps(tmp, 4);
		if (fd < 0) {
			rr_error_set(r->err, r->o->output, "cannot create: %s; nor %s: %s (the recorded "
				     "data is lost)", strerror(res->output_errno), tmp, strerror(errno));
			free(tmp);
			return -1;
		}
		snprintf(res->saved_as, sizeof(res->saved_as), "%s", tmp);
		name = res->saved_as;
	}
	ret = rr_tracedat_write(fd, tracing, (const char *const *)systems, r->page_size, r->nr_cpus, r->cpu_fd, name,
				&res->dropped_bytes, r->err);
	if (!ret && (fsync(fd) || fchmod(fd, 0644))) {
		rr_error_set(r->err, name, "write failed: %s", strerror(errno));
		ret = -1;
	}
	if (!ret && fstat(fd, &st) == 0)
		res->bytes = (uint64_t)st.st_size;
	close(fd);
	if (!ret && !res->saved_as[0] && rename(tmp, r->o->output)) {
		rr_error_set(r->err, r->o->output, "cannot write: %s", strerror(errno));
		ret = -1;
	}
	if (ret) {
		unlink(tmp);
		res->saved_as[0] = 0;
	}
	free(tmp);
	return ret;
}

int rr_record(const struct rr_record_opts *opts, struct rr_record_result *res,
	      struct rr_error *err)
{
	struct rec r = { .o = opts, .err = err };
	struct sigaction sa;
	char name[64], instances[1024];
	const char *tracing;
	struct timespec start, last_proactive, last_snapshot;
	bool proactive_done = false, ended = false;
	int ret = -1, status, events_failed;

	memset(res, 0, sizeof(*res));
	res->cmd_status = -1;
	if (geteuid()) {
		rr_error_set(err, "", "record needs root for tracefs and cgroupfs (run it with sudo)");
		return -1;
	}
	if (!has_filesystem("tracefs")) {
		rr_error_set(err, "/proc/filesystems", "this kernel has no tracefs (it is built "
			     "without CONFIG_TRACING): record cannot work here");
		return -1;
	}
	/* (libtracefs would mount it: a change to the system left behind) */
	tracing = tracefs_mounted() ? tracefs_tracing_dir() : NULL;
	if (!tracing) {
		rr_error_set(err, "/sys/kernel/tracing",
			     "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	snprintf(instances, sizeof(instances), "%s/instances", tracing);
	if (access(instances, W_OK)) {
		if (errno == EROFS)
			rr_error_set(err, instances, "tracefs is mounted read-only: no tracefs instance "
				     "can be made (%s)", strerror(errno));
		else
			rr_error_set(err, instances, "cannot create a tracefs instance here: %s",
				     strerror(errno));
		return -1;
	}
	if (!opts->force && !access(opts->output, F_OK)) {
		rr_error_set(err, opts->output, "exists (use --force to overwrite it)");
		return -1;
	}
	if (rr_cgroup_fs_find(&r.fs, "/proc", err) || rr_items_resolve(&r.items, err))
		return -1;
	r.page_size = (unsigned int)sysconf(_SC_PAGESIZE);
	r.nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	r.vm_swappiness = read_int_file("/proc/sys/vm/swappiness", 60);
	/* cgroups first: their tasks may hold files of the old instance */
	remove_stale_cgroups();
	remove_stale_instances();
	rr_probe_remove_stale(tracing);

	/* SIGINT and SIGTERM always stop the recording cleanly, even in a
	 * background job of a script (where SIGINT comes ignored); SIGHUP
	 * stays ignored under nohup */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	signals_seen = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, NULL, &old_hup);
	if (old_hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
	r.inst = tracefs_instance_create(name);
	if (!r.inst) {
		rr_error_set(err, instances, "cannot create instance %s: %s", name, strerror(errno));
		goto out;
	}
	tracefs_trace_off(r.inst);
	r.memcg_events = opts->no_memcg_events ? RR_RECORD_MEMCG_EVENTS_OFF :
			 kernel_has_memcg_events(tracing) ? RR_RECORD_MEMCG_EVENTS_ON :
			 RR_RECORD_MEMCG_EVENTS_ABSENT;
	r.snapshot_interval_ms = opts->snapshot_interval_ms ? opts->snapshot_interval_ms :
				 r.memcg_events == RR_RECORD_MEMCG_EVENTS_ON ? 0 :
				 RR_RECORD_SNAPSHOT_MS_NO_MEMCG_EVENTS;
	r.follow_tasks = r.memcg_events != RR_RECORD_MEMCG_EVENTS_ON || opts->snapshot_interval_ms;
	res->memcg_events = r.memcg_events;
	snprintf(res->items_source, sizeof(res->items_source), "%s", r.items.source);
	res->snapshot_interval_ms = r.snapshot_interval_ms;
	if (r.memcg_events == RR_RECORD_MEMCG_EVENTS_ABSENT)
		fprintf(stderr, "reclaim-replay: note: this kernel has no memcg: events (no "
			"events/memcg in %s; they came in Linux 6.13): recording without them, "
			"with a snapshot every %u ms and the memcgs' tasks\n", tracing,
			r.snapshot_interval_ms);
	if (opts->buffer_kb && tracefs_instance_set_buffer_size(r.inst, opts->buffer_kb, -1) < 0) {
		rr_error_set(err, name, "cannot set buffer_size_kb to %u", opts->buffer_kb);
		goto out;
	}
	if (open_readers(&r))
		goto out;
	if (tracefs_trace_on(r.inst) < 0) {
		rr_error_set(err, name, "cannot turn tracing on");
		goto out;
	}
	events_failed = setup_events(&r);
	res->probe_on = r.probe_made;
	snprintf(res->probe_why, sizeof(res->probe_why), "%s", r.probe_why);
	if (events_failed || snapshot(&r, "start", &res->nr_cgroups, &res->nr_nodes))
		goto out;
	/* the new cgroup's settings (swappiness) reach the replay this way */
	if (opts->cgroup && (make_cgroup(&r) || snapshot(&r, "cgroup", NULL, NULL)))
		goto out;
	if (opts->argv && opts->argv[0]) {
		r.child = start_cmd(&r);
		if (r.child < 0) {
			r.child = 0;
			goto out;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &start);
	last_proactive = last_snapshot = start;
	while (!stop_signal) {
		long moved = drain(&r);

		if (r.snapshot_interval_ms &&
		    ms_since(&last_snapshot) >= r.snapshot_interval_ms) {
			if (snapshot(&r, "periodic", NULL, NULL))
				goto out;
			res->nr_periodic++;
			clock_gettime(CLOCK_MONOTONIC, &last_snapshot);
		}
		if (opts->proactive_bytes && r.cgroup_made && (!proactive_done ||
		    (opts->proactive_interval_ms && ms_since(&last_proactive) >=
		     opts->proactive_interval_ms))) {
			proactive(&r);
			proactive_done = true;
			clock_gettime(CLOCK_MONOTONIC, &last_proactive);
		}

		if (r.child > 0 && waitpid(r.child, &status, WNOHANG) == r.child) {
			res->cmd_status = status;
			r.child = 0;
			ended = true;
			break;
		}
		/* whole milliseconds: --duration 1 once stopped after 0.1 s */
		if (opts->duration_s && ms_since(&start) >= (long long)opts->duration_s * 1000) {
			ended = true;
			break;
		}
		if (!opts->argv && !opts->duration_s && stop_signal)
			break;
		if (r.write_errno)	/* the disk is full: what we have is the trace */
			break;
		if (moved < 4096)
			usleep(20000);
	}
	res->seconds = (double)ms_since(&start) / 1000.0;
	/* (a signal after CMD's end or --duration did not cut anything) */
	res->stop_signal = ended ? 0 : stop_signal;
	res->write_errno = r.write_errno;
	if (r.child > 0) {	/* stopped by a signal, --duration or a full disk */
		res->cmd_stopped = true;
		res->cmd_status = stop_child(&r);
	}
	/* with no room left the end of the recording cannot be stored */
	if (!r.write_errno && snapshot(&r, "end", NULL, NULL))
		goto out;
	res->lost_events = lost_events(&r, res);
	tracefs_trace_off(r.inst);
	drain(&r);
	for (int c = 0; c < r.nr_cpus && !r.write_errno; c++)
		note_write_error(&r, tracefs_cpu_flush_write(r.tcpu[c], r.cpu_fd[c]));
	if (r.write_errno && !res->write_errno)	/* the last drain filled it */
		res->write_errno = r.write_errno;
	res->nr_cpus = r.nr_cpus;
	res->tasks_left_out = r.tasks_left_out;
	remove_cgroup(&r);
	ret = write_output(&r, res);
out:
	cleanup(&r);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return ret;
}
