// SPDX-License-Identifier: GPL-2.0-only
/*
 * reclaim-replay: record the kernel's reclaim tracepoints, replay them
 * through policy modules, and diff the decisions.
 *
 * The hub: a table of exact command names; each command parses its own
 * options and returns the exit status.  Only src/cli prints errors.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "../replay/replay.h"
#include "../release/release.h"
#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "record a workload's reclaim into a trace.dat (root)" },
	{ "compare", cmd_compare, "replay a trace under several policies and diff the decisions" },
	{ "report", cmd_report, "what a trace shows: episodes by kind, latencies, per-cgroup totals" },
	{ "merge", cmd_merge, "fold the JSON diffs of many traces into one" },
	{ "policies", cmd_policies, "list the built-in policies and what each overrides" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay [--version] [-h|--help] <command> [<args>]\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'reclaim-replay <command> -h' shows a command's options; man\n"
		   "reclaim-replay (in the source tree: man -l man/reclaim-replay.1) has the details.\n");
}

void rr_print_error(const struct rr_error *err)
{
	if (err->file[0])
		fprintf(stderr, "reclaim-replay: %s: %s\n", err->file, err->msg);
	else
		fprintf(stderr, "reclaim-replay: %s\n", err->msg[0] ? err->msg : "unknown error");
}

static void warn_cb(void *ctx, const char *file, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "reclaim-replay: %s: warning: %s\n", file, msg);
}

/* "\r" keeps the line; at the end (0) it is erased. */
static void progress_cb(void *ctx, uint64_t events, int permille)
{
	(void)ctx;
	if (events && permille >= 0)
		fprintf(stderr, "\rreclaim-replay: %llu events read (%d%%)",
			(unsigned long long)events, permille / 10);
	else if (events)
		fprintf(stderr, "\rreclaim-replay: %llu events read", (unsigned long long)events);
	else
		fprintf(stderr, "\r\033[K");
}

void rr_cli_callbacks(struct rr_replay_opts *opts, bool quiet)
{
	opts->warn = warn_cb;
	opts->progress = !quiet && isatty(STDERR_FILENO) ? progress_cb : NULL;
}

int rr_kernel_option(const char *cmd, const char *release)
{
	struct rr_kernel_model km;

	if (!rr_kernel_model_init(&km, release))
		return 0;
	return rr_usage_error(cmd, "--kernel takes a release MAJOR.MINOR[...] of 4.0 or "
			      "later, at most 64 characters, not '%.80s%s'", release,
			      strlen(release) > 80 ? "..." : "");
}

int rr_swap_option(const char *cmd, const char *arg, int *swap_present)
{
	if (!strcmp(arg, "auto"))
		*swap_present = -1;
	else if (!strcmp(arg, "yes"))
		*swap_present = 1;
	else if (!strcmp(arg, "no"))
		*swap_present = 0;
	else
		return rr_usage_error(cmd, "--swap takes auto, yes or no, not '%s'", arg);
	return 0;
}

int rr_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "reclaim-replay %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'reclaim-replay %s -h')\n", cmd);
	return RR_EXIT_USAGE;
}

int rr_option_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return rr_usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
	return rr_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int main(int argc, char **argv)
{
	int ret;

	/* a file size limit (ulimit -f) makes write(2) fail with EFBIG, said
	 * as an error naming the file, instead of killing us half-written */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return RR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "reclaim-replay: <stdout>: write failed: %s\n",
				strerror(errno));
			return RR_EXIT_ERROR;
		}
		return RR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("reclaim-replay %s\n", RR_VERSION);
		return fflush(stdout) ? RR_EXIT_ERROR : RR_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		ret = commands[i].fn(argc - 1, argv + 1);
		/* a command that failed has said why already */
		if ((fflush(stdout) || ferror(stdout)) && ret == RR_EXIT_OK) {
			fprintf(stderr, "reclaim-replay: <stdout>: write failed: %s\n",
				strerror(errno));
			return RR_EXIT_ERROR;
		}
		return ret;
	}
	fprintf(stderr, "reclaim-replay: '%s' is not a command\n\n", argv[1]);
	usage(stderr);
	return RR_EXIT_USAGE;
}
