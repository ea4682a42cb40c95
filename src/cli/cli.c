// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the commands share (cli.h): errors and usage errors on stderr, the
 * options several commands take, the replay's warning and progress
 * callbacks.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "../replay/replay.h"
#include "../policies/policies.h"
#include "../release/release.h"
#include "cli.h"

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

int rr_kernel_policy_option(const char *cmd, const char *spec)
{
	struct rr_error err = { "", "" };

	if (!strcmp(spec, "kernel") || !rr_policy_check(spec, &err))
		return 0;
	return rr_usage_error(cmd, "%s: %s%s%s", strcmp(cmd, "verify") ? "--kernel-policy" : "-p",
			      err.file[0] ? err.file : "",
			      err.file[0] ? ": " : "", err.msg);
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
