// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: one input file through the whole pipeline, as
 * `reclaim-replay report --fidelity --json` and `compare -p original -p
 * proportional -o` run it: reader (text or trace.dat, by the magic) or
 * scenario reader, episode builder, simulator under three policies,
 * fidelity and every renderer.  Built three times (make fuzz), once per
 * corpus, with FUZZ_SUFFIX naming the input file (".txt", ".dat",
 * ".json"): the same code, seeded and mutated apart.
 *
 * What counts as a finding: a crash, a sanitizer report, a hang, or a leak.
 * An input rejected with an error is a pass; so is any output.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/replay/replay.h"

#ifndef FUZZ_SUFFIX
#define FUZZ_SUFFIX ".txt"
#endif

static char in_path[256], out_path[256];

void __sanitizer_set_death_callback(void (*callback)(void));
void rr_probe_child_hook(void);

/* A sanitizer report in the reader's probe child is the probe doing its
 * job (a file libtracecmd cannot open): end the child with a status the
 * probe reads as "the library died", not with libFuzzer's crash handler. */
static void child_death(void)
{
	_exit(99);
}

void rr_probe_child_hook(void)
{
	__sanitizer_set_death_callback(child_death);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	(void)argc;
	(void)argv;
	snprintf(in_path, sizeof(in_path), "%s/rr-fuzz-%d" FUZZ_SUFFIX,
		 dir && *dir ? dir : "/tmp", (int)getpid());
	snprintf(out_path, sizeof(out_path), "%s/rr-fuzz-%d.out.json",
		 dir && *dir ? dir : "/tmp", (int)getpid());
	/* the renderers write to stdout: keep libFuzzer's own lines on stderr */
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	return 0;
}

static void nothing(void *ctx, const char *file, const char *msg)
{
	(void)ctx;
	(void)file;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_replay_opts report = {
		.swap_present = -1, .release_may_be_assumed = true, .report = true,
		.report_json = true, .report_fidelity = true, .warn = nothing,
	};
	struct rr_replay_opts compare = {
		.swap_present = -1, .kernel_release = "6.6", .table = true,
		.json_path = out_path, .warn = nothing,
		.policy_specs = { "original", "proportional" }, .nr_specs = 2,
	};
	struct rr_error err;
	FILE *f = fopen(in_path, "wb");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();
	report.trace_path = in_path;
	compare.trace_path = in_path;
	memset(&err, 0, sizeof(err));
	rr_replay(&report, &err);
#ifndef FUZZ_REPORT_ONLY
	/* (a trace.dat opens through a forked probe, slow in a sanitized
	 * process: fuzz-dat runs the report alone, twice the inputs) */
	memset(&err, 0, sizeof(err));
	rr_replay(&compare, &err);
#endif
	unlink(out_path);
	return 0;
}
