// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's private tracefs instance: its events and filters (never
 * the top-level buffer's), its per-CPU readers spliced into temporary
 * files, the lost events, and the trace.dat written from them at the end
 * (tracedat.c).
 */
#include "record-local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "tracedat.h"

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

int rr_rec_read_int_file(const char *path, int def)
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
bool rr_rec_has_filesystem(const char *type)
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
bool rr_rec_tracefs_mounted(void)
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

/* Remove instances of recorders that died without cleaning up. */
void rr_rec_remove_stale_instances(void)
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

/* Whether the kernel has memcg: events at all (Linux 6.13+): an event
 * directory under events/memcg of tracefs. */
bool rr_rec_kernel_has_memcg_events(const char *tracing)
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
 * only, and removed in record.c's cleanup().
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
	for (int i = 0; i < RR_PROBE_NR_EXTRA; i++)
		if (r->probe.extra[i] &&
		    enable(r, r->probe.group, r->probe.extra_event[i], false, enabled, enabled_len))
			return -1;
	return enable(r, r->probe.group, RR_PROBE_EVENT, true, enabled, enabled_len);
}

int rr_rec_setup_events(struct rec *r)
{
	char lruvec[512], events[512], filter[64], enabled[2048] = "", line[2200];

	rr_items_filters(&r->items, lruvec, sizeof(lruvec), events, sizeof(events));
	/* the meta line first, before any event: a reader then knows from the
	 * start that a snapshot follows (decisions before it read sizes the
	 * trace does not give yet) */
	if (rr_rec_write_meta(r, lruvec, events) || rr_rec_snapshot(r, "zones", NULL, NULL))
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
	return rr_rec_marker(r, line);
}

int rr_rec_open_readers(struct rec *r)
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
void rr_rec_note_write_error(struct rec *r, int n)
{
	if (n < 0 && (errno == ENOSPC || errno == EDQUOT || errno == EFBIG || errno == EIO))
		r->write_errno = errno;
}

long rr_rec_drain(struct rec *r)
{
	long total = 0;

	for (int c = 0; c < r->nr_cpus && !r->write_errno; c++) {
		int n;

		while ((n = tracefs_cpu_write(r->tcpu[c], r->cpu_fd[c], true)) > 0)
			total += n;
		rr_rec_note_write_error(r, n);
	}
	return total;
}

/* Events each CPU's ring buffer lost (overrun + dropped), stored in the
 * trace as a "lost" marker and returned in @res. */
uint64_t rr_rec_lost_events(struct rec *r, struct rr_record_result *res)
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
	rr_rec_marker(r, line);
	return lost;
}

/*
 * Join the per-CPU data into the trace: under a temporary name next to the
 * output, renamed once whole.  When no file can be made there (its
 * directory was removed during the recording, say), the data is not
 * thrown away: the trace goes to ${TMPDIR:-/tmp}, named in res->saved_as.
 */
int rr_rec_write_output(struct rec *r, struct rr_record_result *res)
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
