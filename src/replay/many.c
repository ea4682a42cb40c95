// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many traces at once: each trace is replayed by rr_replay() in a process
 * of its own, at most `jobs` at a time.  A child's standard output and
 * error go to unnamed scratch files, read into memory when it ends and
 * copied to ours in argument order as soon as every earlier trace is done,
 * so the output is the same whatever the order the children finish in.  Children report their progress
 * through a shared page; the parent sums it into one line.
 */
#include "replay-local.h"

#include "../common/cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child shares with the parent. */
struct slot {
	uint64_t events;
	int permille;			/* -1: not known (yet) */
	int status;			/* SLOT_* below */
	struct rr_error err;		/* when it failed */
	struct rr_cleanup_shared temps;	/* its temporary files, while they exist */
};

enum { SLOT_WAITING, SLOT_RUNNING, SLOT_OK, SLOT_FAILED };

struct child {
	pid_t pid;
	FILE *out, *errout;		/* its stdout and stderr while it runs */
	/* ... and once it ended: in memory (a table and a few lines), so
	 * that traces done early hold no file open while an earlier one runs */
	struct text {
		char *p;
		size_t len;
	} out_text, err_text;
};

static void slot_progress(void *ctx, uint64_t events, int permille)
{
	struct slot *s = ctx;

	if (!events)
		return;	/* (the end: the whole count came just before) */
	__atomic_store_n(&s->events, events, __ATOMIC_RELAXED);
	__atomic_store_n(&s->permille, permille, __ATOMIC_RELAXED);
}

static void drop_files(struct child *c)
{
	if (c->out)
		fclose(c->out);
	if (c->errout)
		fclose(c->errout);
	c->out = c->errout = NULL;
}

/* In the child: replay, say how it went, exit. */
static void __attribute__((noreturn)) run_child(const struct rr_replay_opts *o, struct slot *s,
						 struct child *c, struct child *kids, int nr)
{
	struct rr_replay_opts opts = *o;
	int ret;

	if (dup2(fileno(c->out), STDOUT_FILENO) < 0 || dup2(fileno(c->errout), STDERR_FILENO) < 0)
		_exit(1);
	/* the scratch files of the other replays are not this one's: with
	 * many at a time they would use up its descriptors */
	for (int i = 0; i < nr; i++)
		drop_files(&kids[i]);
	opts.progress = slot_progress;
	opts.progress_log2 = 14;	/* small traces show too */
	opts.cb_ctx = s;
	ret = rr_replay(&opts, &s->err);
	fflush(stdout);
	fflush(stderr);
	_exit(ret == RR_REPLAY_NEEDS_KERNEL ? 2 : ret ? 1 : 0);
}

/* Start the replay of @o; -1 (nothing left open) when it cannot be. */
static int start(const struct rr_replay_opts *o, struct slot *s, struct child *c,
		 struct child *kids, int nr, struct rr_error *err)
{
	c->out = rr_scratch_file(NULL);	/* ($TMPDIR, which tmpfile(3) ignores) */
	c->errout = rr_scratch_file(NULL);
	if (!c->out || !c->errout) {
		rr_error_set(err, o->trace_path, "cannot make a scratch file: %s", strerror(errno));
		drop_files(c);
		return -1;
	}
	fflush(NULL);
	s->permille = -1;
	rr_cleanup_hold(true);	/* a signal now would miss the child */
	c->pid = fork();
	if (c->pid < 0) {
		rr_cleanup_hold(false);
		rr_error_set(err, o->trace_path, "cannot start a process: %s", strerror(errno));
		drop_files(c);
		return -1;
	}
	if (!c->pid) {
		rr_cleanup_in_child();
		rr_cleanup_share(&s->temps);
		rr_cleanup_hold(false);
		run_child(o, s, c, kids, nr);
	}
	/* a stopping signal is passed on to the replays */
	rr_cleanup_add_pid(c->pid);
	rr_cleanup_hold(false);
	s->status = SLOT_RUNNING;
	return 0;
}

/* Read the scratch file *@f into @t and close it: -1 when memory or the
 * read fails (what it held is lost). */
static int slurp(FILE **f, struct text *t)
{
	long size;
	int ret = -1;

	if (!fseek(*f, 0, SEEK_END) && (size = ftell(*f)) >= 0 &&
	    (t->p = malloc((size_t)size + 1))) {
		rewind(*f);
		t->len = fread(t->p, 1, (size_t)size, *f);
		ret = t->len == (size_t)size ? 0 : -1;
	}
	fclose(*f);
	*f = NULL;
	return ret;
}

/* An error of one of several traces names the trace: "TRACE: what", or
 * "TRACE: FILE: what" when it was about another file (a plug-in's). */
static void name_trace(struct rr_error *err, const char *trace)
{
	char msg[sizeof(err->msg)];

	if (!strcmp(err->file, trace))
		return;
	if (err->file[0]) {
		/* (a message too long for its record is cut: no need to know) */
		if (snprintf(msg, sizeof(msg), "%s: %s", err->file, err->msg) < 0)
			msg[0] = 0;
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	snprintf(err->file, sizeof(err->file), "%s", trace);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int rr_replay_many(const struct rr_replay_opts *opts, int nr, const struct rr_many_opts *mo,
		   int *nr_failed)
{
	struct slot *slots = mmap(NULL, (size_t)nr * sizeof(*slots), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct child *kids = calloc((size_t)nr, sizeof(*kids));
	int next = 0, running = 0, done = 0, printed = 0, headers = 0, ret = 0;
	double t0 = now_s();

	*nr_failed = 0;
	if (slots == MAP_FAILED || !kids) {
		struct rr_error e;

		rr_error_set(&e, "", "out of memory");
		mo->error(mo->ctx, &e);
		free(kids);
		return -1;
	}
	memset(slots, 0, (size_t)nr * sizeof(*slots));
	while (printed < nr) {
		int status;
		pid_t pid;

		while (running < mo->jobs && next < nr) {
			if (!start(&opts[next], &slots[next], &kids[next], kids, nr,
				   &slots[next].err)) {
				running++;
				next++;
			} else if (running) {
				/* out of descriptors or processes for now: try again
				 * when a replay has ended and freed its own */
				slots[next].err.msg[0] = 0;
				break;
			} else {
				slots[next].status = SLOT_FAILED;
				done++;
				next++;
			}
		}
		/* (reaped and forgotten with the stopping signals held: the
		 * handler must not signal a pid that may be another's now) */
		rr_cleanup_hold(true);
		pid = running ? waitpid(-1, &status, WNOHANG) : -1;
		if (pid > 0)
			rr_cleanup_forget_pid(pid);
		rr_cleanup_hold(false);
		if (!pid && !mo->progress) {
			/* nothing ended yet: wait for one, signals free */
			siginfo_t si;

			if (!waitid(P_ALL, 0, &si, WEXITED | WNOWAIT))
				continue;
		}
		if (pid > 0) {
			for (int i = 0; i < nr; i++) {
				if (kids[i].pid != pid || slots[i].status != SLOT_RUNNING)
					continue;
				slots[i].status = WIFEXITED(status) && !WEXITSTATUS(status) ?
						  SLOT_OK : SLOT_FAILED;
				if (slots[i].status == SLOT_FAILED && !slots[i].err.msg[0])
					rr_error_set(&slots[i].err, opts[i].trace_path,
						     WIFSIGNALED(status) ? "the replay died of signal %d" :
						     "the replay failed", WIFSIGNALED(status) ?
						     WTERMSIG(status) : 0);
				/* one killed outright (SIGKILL, the OOM killer)
				 * could not remove its temporary files */
				rr_cleanup_remove_shared(&slots[i].temps);
				if ((slurp(&kids[i].out, &kids[i].out_text) |
				     slurp(&kids[i].errout, &kids[i].err_text)) &&
				    slots[i].status == SLOT_OK) {
					slots[i].status = SLOT_FAILED;
					rr_error_set(&slots[i].err, opts[i].trace_path,
						     "cannot read back its output: %s",
						     strerror(errno));
				}
				running--;
				done++;
			}
		} else if (!pid) {
			usleep(100 * 1000);
		}
		/* the outputs of every finished trace whose predecessors are done */
		for (; printed < nr && slots[printed].status >= SLOT_OK; printed++) {
			struct child *c = &kids[printed];

			if (mo->progress)
				mo->progress(mo->ctx, 0, 0, 0, 0, 0);	/* erase the line */
			/* a header only above output, as tail(1) does: a trace that
			 * failed before printing anything has just its error */
			if (c->out_text.len && mo->header)
				printf("%s==> %s <==\n", headers++ ? "\n" : "",
				       opts[printed].trace_path);
			if (c->out_text.len)
				fwrite(c->out_text.p, 1, c->out_text.len, stdout);
			fflush(stdout);
			if (c->err_text.len)
				fwrite(c->err_text.p, 1, c->err_text.len, stderr);
			free(c->out_text.p);
			free(c->err_text.p);
			c->out_text.p = c->err_text.p = NULL;
			if (slots[printed].status == SLOT_FAILED) {
				name_trace(&slots[printed].err, opts[printed].trace_path);
				mo->error(mo->ctx, &slots[printed].err);
				(*nr_failed)++;
				ret = -1;
			}
		}
		if (mo->progress && printed < nr) {
			uint64_t events = 0;
			int slowest = -1;

			for (int i = 0; i < nr; i++) {
				events += __atomic_load_n(&slots[i].events, __ATOMIC_RELAXED);
				if (slots[i].status == SLOT_RUNNING) {
					int p = __atomic_load_n(&slots[i].permille, __ATOMIC_RELAXED);

					if (p >= 0 && (slowest < 0 || p < slowest))
						slowest = p;
				}
			}
			mo->progress(mo->ctx, done, nr, events, now_s() - t0, slowest);
		}
	}
	if (mo->progress)
		mo->progress(mo->ctx, 0, 0, 0, 0, 0);
	for (int i = 0; i < nr; i++) {
		drop_files(&kids[i]);
		free(kids[i].out_text.p);
		free(kids[i].err_text.p);
	}
	free(kids);
	munmap(slots, (size_t)nr * sizeof(*slots));
	return ret;
}
