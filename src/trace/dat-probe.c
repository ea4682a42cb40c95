// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace.dat probe: the file opened once in a child first, which also
 * tells where each CPU's data ends (dat-local.h).
 */
#include "dat-local.h"
#include "../common/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

/* The timestamp of CPU @cpu's last record in @h, RR_END_NONE when the CPU
 * has no record, RR_END_UNREADABLE when it has but its last cannot be read. */
static uint64_t cpu_end(struct tracecmd_input *h, int cpu)
{
	struct tep_record *first = tracecmd_read_cpu_first(h, cpu), *last;
	unsigned long refused = rr_page_layout.refused;
	uint64_t end;

	if (!first)
		return RR_END_NONE;
	tracecmd_free_record(first);
	last = tracecmd_read_cpu_last(h, cpu);
	if (last && rr_page_layout.refused != refused) {
		/* its last page was refused: what came back is of an earlier one */
		tracecmd_free_record(last);
		return RR_END_UNREADABLE;
	}
	if (!last)
		return RR_END_UNREADABLE;
	end = last->ts ? last->ts : 1;
	tracecmd_free_record(last);
	return end == RR_END_UNREADABLE ? end - 1 : end;
}

static void put_u64(int fd, uint64_t v)
{
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		_exit(4);
}

/*
 * Open @path and every buffer instance in it, as the real open does, and
 * write to @fd the count, then the timestamp of the last record of every
 * CPU of every buffer in the order open_file() keeps them (see cpu_end()).
 */
static int open_all(const char *path, int fd)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct tracecmd_input **in;
	int n, total, ret = 0;

	if (!h)
		return -1;
	/* the page layout as the kernel wrote it, for this walk and the parent's */
	{
		struct tep_handle *tep = tracecmd_get_tep(h);
		int ls = tep ? tep_get_header_page_size(tep) : 0;

		if (ls == 4 || ls == 8)
			rr_page_layout.long_size = ls;
		rr_page_layout.no_walk = tep && tep_is_old_format(tep);
		put_u64(fd, (uint64_t)rr_page_layout.long_size | (rr_page_layout.no_walk ? 1u << 8 : 0));
	}
	n = tracecmd_buffer_instances(h);
	in = calloc((size_t)n + 1, sizeof(*in));
	if (!in)
		_exit(4);
	in[0] = h;
	total = tracecmd_cpus(h) > 0 ? tracecmd_cpus(h) : 0;
	for (int i = 0; i < n && !ret; i++) {
		in[i + 1] = tracecmd_buffer_instance_handle(h, i);
		if (!in[i + 1])
			ret = -1;
		else
			total += tracecmd_cpus(in[i + 1]) > 0 ? tracecmd_cpus(in[i + 1]) : 0;
	}
	if (!ret) {
		put_u64(fd, (uint64_t)total);
		for (int i = 0; i <= n; i++)
			for (int c = 0; c < tracecmd_cpus(in[i]); c++)
				put_u64(fd, cpu_end(in[i], c));
	}
	/* an instance handle holds a reference on its parent: close them first */
	for (int i = n; i >= 1; i--)
		if (in[i])
			tracecmd_close(in[i]);
	tracecmd_close(h);
	free(in);
	return ret;
}

/* How long the probe may take: opening a file and reading each CPU's first
 * and last page is a fraction of a second even for gigabytes. */
#define RR_PROBE_SECONDS 60

/*
 * Called in the probe's child when defined: the fuzzing harness
 * (tests/fuzz) makes a sanitizer report there end the child quietly, as a
 * crash would, instead of being taken for a finding.
 */
extern void rr_probe_child_hook(void) __attribute__((weak));

/*
 * libtracecmd 1.3 crashes on some damaged files while opening them (a
 * double free on a header cut short, a SIGSEGV on a v6 file truncated by a
 * byte).  Open the file once in a child first: a child that dies means the
 * file is corrupt, and the real open is not attempted.  The child also
 * reads where each CPU's data ends (@ends, @nr_ends; malloc'd, NULL when
 * not told), for the walk to see a CPU whose records stop early.
 */
int rr_dat_probe_open(const char *path, uint64_t **ends, int *nr_ends, struct rr_error *err)
{
	uint64_t *v = NULL, count = 0, layout = 0;
	size_t got = 0, want = sizeof(count);
	int status, fds[2];
	pid_t pid;

	*ends = NULL;
	*nr_ends = 0;
	if (pipe2(fds, O_CLOEXEC))
		return 0;	/* no probe: proceed */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		close(fds[0]);
		rr_cleanup_in_child();
		if (rr_probe_child_hook)
			rr_probe_child_hook();
		if (devnull >= 0) {	/* silence sanitizer reports in the child */
			dup2(devnull, STDERR_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		/* a library that loops on damaged data ends here, not the walk */
		signal(SIGALRM, SIG_DFL);
		alarm(RR_PROBE_SECONDS);
		_exit(open_all(path, fds[1]) ? 3 : 0);
	}
	close(fds[1]);
	/* the kernel's page layout, then the count, then that many ends */
	while (got < sizeof(layout)) {
		ssize_t r = read(fds[0], (char *)&layout + got, sizeof(layout) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got == sizeof(layout) && ((layout & 0xff) == 4 || (layout & 0xff) == 8)) {
		rr_page_layout.long_size = (int)(layout & 0xff);
		rr_page_layout.no_walk = layout >> 8 & 1;
	}
	got = 0;
	for (;;) {
		ssize_t r = read(fds[0], (char *)(v ? (void *)v : (void *)&count) + got, want - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got < want)
			continue;
		if (v || !count || count > 1u << 20)
			break;
		v = calloc((size_t)count, sizeof(*v));
		if (!v)
			break;
		got = 0;
		want = (size_t)count * sizeof(*v);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(v);
			return 0;
		}
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3)) {
		if (WEXITSTATUS(status) == 0 && v && got == want) {
			*ends = v;
			*nr_ends = (int)count;
		} else {
			free(v);
		}
		return 0;
	}
	free(v);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library did not finish opening it in %d s)", RR_PROBE_SECONDS);
	else if (WIFSIGNALED(status))
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library died with signal %d opening it or reading the ends of its "
			     "data)", WTERMSIG(status));
	else
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library failed opening it or reading the ends of its data, status %d)",
			     WEXITSTATUS(status));
	return -1;
}
