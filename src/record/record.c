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
#include "record-local.h"
#include "probes.h"

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
#include "sysinfo.h"
#include "tracedat.h"

static volatile sig_atomic_t stop_signal;

static volatile sig_atomic_t signals_seen;
/* the dispositions before ours: restored at the end, and in CMD */
static struct sigaction old_int, old_term, old_hup;

static void on_signal(int sig)
{
	stop_signal = sig;
	signals_seen++;
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
		if (rr_rec_write_file(r->cgroup_dir, "cgroup.procs", v, r->err)) {
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
		rr_rec_drain(r);
		usleep(20000);
	}
	r->child = 0;
	return status;
}

static void cleanup(struct rec *r)
{
	if (r->child > 0)
		stop_child(r);
	rr_rec_remove_cgroup(r);
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
	if (!rr_rec_has_filesystem("tracefs")) {
		rr_error_set(err, "/proc/filesystems", "this kernel has no tracefs (it is built "
			     "without CONFIG_TRACING): record cannot work here");
		return -1;
	}
	/* (libtracefs would mount it: a change to the system left behind) */
	tracing = rr_rec_tracefs_mounted() ? tracefs_tracing_dir() : NULL;
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
	r.vm_swappiness = rr_rec_read_int_file("/proc/sys/vm/swappiness", 60);
	/* cgroups first: their tasks may hold files of the old instance */
	rr_rec_remove_stale_cgroups();
	rr_rec_remove_stale_instances();
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
			 rr_rec_kernel_has_memcg_events(tracing) ? RR_RECORD_MEMCG_EVENTS_ON :
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
	if (rr_rec_open_readers(&r))
		goto out;
	if (tracefs_trace_on(r.inst) < 0) {
		rr_error_set(err, name, "cannot turn tracing on");
		goto out;
	}
	events_failed = rr_rec_setup_events(&r);
	res->probe_on = r.probe_made;
	snprintf(res->probe_why, sizeof(res->probe_why), "%s", r.probe_why);
	if (events_failed || rr_rec_snapshot(&r, "start", &res->nr_cgroups, &res->nr_nodes))
		goto out;
	/* the new cgroup's settings (swappiness) reach the replay this way */
	if (opts->cgroup && (rr_rec_make_cgroup(&r) || rr_rec_snapshot(&r, "cgroup", NULL, NULL)))
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
		long moved = rr_rec_drain(&r);

		if (r.snapshot_interval_ms &&
		    ms_since(&last_snapshot) >= r.snapshot_interval_ms) {
			if (rr_rec_snapshot(&r, "periodic", NULL, NULL))
				goto out;
			res->nr_periodic++;
			clock_gettime(CLOCK_MONOTONIC, &last_snapshot);
		}
		if (opts->proactive_bytes && r.cgroup_made && (!proactive_done ||
		    (opts->proactive_interval_ms && ms_since(&last_proactive) >=
		     opts->proactive_interval_ms))) {
			rr_rec_proactive(&r);
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
	if (!r.write_errno && rr_rec_snapshot(&r, "end", NULL, NULL))
		goto out;
	res->lost_events = rr_rec_lost_events(&r, res);
	tracefs_trace_off(r.inst);
	rr_rec_drain(&r);
	for (int c = 0; c < r.nr_cpus && !r.write_errno; c++)
		rr_rec_note_write_error(&r, tracefs_cpu_flush_write(r.tcpu[c], r.cpu_fd[c]));
	if (r.write_errno && !res->write_errno)	/* the last drain filled it */
		res->write_errno = r.write_errno;
	res->nr_cpus = r.nr_cpus;
	res->tasks_left_out = r.tasks_left_out;
	rr_rec_remove_cgroup(&r);
	ret = rr_rec_write_output(&r, res);
out:
	cleanup(&r);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return ret;
}
