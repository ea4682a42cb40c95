// SPDX-License-Identifier: GPL-2.0-only
/* Temporary files and child processes to undo on SIGINT, SIGTERM, SIGHUP. */
#include "cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* read by the handler: one word per entry, written before it counts */
static const char *volatile paths[RR_CLEANUP_MAX];
static volatile pid_t pids[RR_CLEANUP_MAX];
static volatile sig_atomic_t installed;
static struct rr_cleanup_shared *shared;	/* rr_cleanup_share() */
static int shared_of[RR_CLEANUP_SHARED];	/* the paths[] entry each mirrors */

/* signals that stop us, and faults (a plug-in's, say) that end us */
static const int stopping[] = { SIGINT, SIGTERM, SIGHUP };
static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

static bool stops(int sig)
{
	for (size_t k = 0; k < sizeof(stopping) / sizeof(stopping[0]); k++)
		if (stopping[k] == sig)
			return true;
	return false;
}

static void on_signal(int sig)
{
	for (int i = 0; i < RR_CLEANUP_MAX; i++) {
		const char *p = paths[i];

		if (p)
			unlink(p);
		if (pids[i] > 0)	/* (a fault of ours is not theirs) */
			kill(pids[i], stops(sig) ? sig : SIGTERM);
	}
	/* the replays end too before we do: no orphan outlives us */
	for (int i = 0; i < RR_CLEANUP_MAX; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	/* as if we had not been here: a fault faults again on return */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void handle(int sig)
{
	struct sigaction sa = { 0 }, old;

	/* not over a disposition someone chose: SIG_IGN under nohup, or a
	 * sanitizer's fault handler */
	if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_DFL)
		return;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < sizeof(stopping) / sizeof(stopping[0]); k++)
		sigaddset(&sa.sa_mask, stopping[k]);	/* one cleanup at a time */
	sigaction(sig, &sa, NULL);
}

static void install(void)
{
	if (installed)
		return;
	installed = 1;
	for (size_t i = 0; i < sizeof(stopping) / sizeof(stopping[0]); i++)
		handle(stopping[i]);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		handle(faults[i]);
}

/* Mirror paths[@k] into a free shared entry. */
static void share(int k)
{
	for (int i = 0; shared && i < RR_CLEANUP_SHARED; i++)
		if (!shared->path[i][0] && strlen(paths[k]) < RR_CLEANUP_PATH_MAX) {
			shared_of[i] = k;
			strcpy(shared->path[i], paths[k]);
			return;
		}
}

int rr_cleanup_add_path(const char *path)
{
	install();
	for (int k = 0; k < RR_CLEANUP_MAX; k++)
		if (!paths[k]) {
			paths[k] = path;
			share(k);
			return 0;
		}
	return -1;
}

void rr_cleanup_path_made(const char *path)
{
	for (int i = 0; shared && i < RR_CLEANUP_SHARED; i++)
		if (shared->path[i][0] && paths[shared_of[i]] == path)
			snprintf(shared->path[i], RR_CLEANUP_PATH_MAX, "%s", path);
}

void rr_cleanup_forget_path(const char *path)
{
	for (int i = 0; shared && i < RR_CLEANUP_SHARED; i++)
		if (shared->path[i][0] && paths[shared_of[i]] == path)
			shared->path[i][0] = 0;
	for (int i = 0; i < RR_CLEANUP_MAX; i++)
		if (paths[i] == path)
			paths[i] = NULL;
}

void rr_cleanup_share(struct rr_cleanup_shared *s)
{
	memset(s, 0, sizeof(*s));
	shared = s;
}

void rr_cleanup_remove_shared(struct rr_cleanup_shared *s)
{
	for (int i = 0; i < RR_CLEANUP_SHARED; i++)
		if (s->path[i][0]) {
			unlink(s->path[i]);
			s->path[i][0] = 0;
		}
}

int rr_cleanup_add_pid(pid_t pid)
{
	install();
	for (int i = 0; i < RR_CLEANUP_MAX; i++)
		if (pids[i] <= 0) {
			pids[i] = pid;
			return 0;
		}
	return -1;
}

void rr_cleanup_forget_pid(pid_t pid)
{
	for (int i = 0; i < RR_CLEANUP_MAX; i++)
		if (pids[i] == pid)
			pids[i] = 0;
}

void rr_cleanup_in_child(void)
{
	for (int i = 0; i < RR_CLEANUP_MAX; i++) {
		pids[i] = 0;
		paths[i] = NULL;
	}
	shared = NULL;
}

void rr_cleanup_hold(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t k = 0; k < sizeof(stopping) / sizeof(stopping[0]); k++)
		sigaddset(&set, stopping[k]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}
