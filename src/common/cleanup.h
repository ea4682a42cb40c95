/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What to undo when the process is stopped by SIGINT, SIGTERM or SIGHUP,
 * or ended by a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: in a
 * plug-in, say): temporary files to remove (the sibling of an -o file, the
 * copy of a piped trace) and child processes to pass the signal on to and
 * wait for (compare's replays of several traces).  The handler removes,
 * signals and reaps, then lets the signal end the process as it would have
 * (exit status 128 + signal).  It is installed the first time something is
 * added, and only for a signal whose disposition is still the default (one
 * ignored under nohup stays ignored; a sanitizer's handler stays).
 */
#ifndef RR_CLEANUP_H
#define RR_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Remove @path if a signal stops the process.  @path must stay valid until
 * rr_cleanup_forget_path().  Returns 0, or -1 when RR_CLEANUP_MAX paths are
 * already held (the file is then just not removed on a signal).  Added
 * before mkstemp(3) fills its XXXXXX in (no moment without it), a path is
 * told with rr_cleanup_path_made() once it has its name. */
int rr_cleanup_add_path(const char *path);
void rr_cleanup_path_made(const char *path);
void rr_cleanup_forget_path(const char *path);

/* Pass a stopping signal on to @pid; same limits. */
int rr_cleanup_add_pid(pid_t pid);
void rr_cleanup_forget_pid(pid_t pid);

/* In a child just forked: its parent's files and children are not its own
 * to undo (it registers its own after this). */
void rr_cleanup_in_child(void);

/* Block the stopping signals (@block true) around a fork and the
 * rr_cleanup_add_pid() that follows it, or unblock them. */
void rr_cleanup_hold(bool block);

#define RR_CLEANUP_MAX 320	/* compare -j takes up to 256 */

/*
 * A child's paths, kept where its parent sees them (shared memory), so
 * that the parent removes them when the child was killed outright
 * (SIGKILL: no handler runs).  At most RR_CLEANUP_SHARED paths of fewer
 * than RR_CLEANUP_PATH_MAX bytes; a longer one is not shared.
 */
#define RR_CLEANUP_SHARED 2
#define RR_CLEANUP_PATH_MAX 4096
struct rr_cleanup_shared {
	char path[RR_CLEANUP_SHARED][RR_CLEANUP_PATH_MAX];
};
/* In the child: mirror the paths added from now on into @shared. */
void rr_cleanup_share(struct rr_cleanup_shared *shared);
/* In the parent, once the child is reaped: remove what it left. */
void rr_cleanup_remove_shared(struct rr_cleanup_shared *shared);

#endif
