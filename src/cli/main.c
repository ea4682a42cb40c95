// SPDX-License-Identifier: GPL-2.0-only
/*
 * reclaim-replay: record the kernel's reclaim tracepoints, replay them
 * through policy modules, and diff the decisions.
 *
 * The hub: a table of exact command names; each command parses its own
 * options and returns the exit status.  Only src/cli prints errors.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

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
	{ "verify", cmd_verify, "a policy's prediction against a kernel that runs it" },
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
