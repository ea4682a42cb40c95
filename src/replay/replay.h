/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay driver: trace reader -> episode builder -> simulator under
 * every policy -> decision diff -> renderers, one episode at a time.  It
 * only connects the stages: the model is in src/sim and src/episode, the
 * formatting in src/output.  Shared by `compare` and `report`.
 */
#ifndef RR_REPLAY_H
#define RR_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../policies/registry.h"

/* The built-in policies compared when no -p is given, after the baseline. */
extern const char *const rr_default_policies[];

/* Assumed delay between cgroup_rmdir and mem_cgroup_online() turning
 * false: 24-29 ms measured on 6.18 (docs/kernel-model.md
 * §13.1). */
#define RR_DEFAULT_OFFLINE_DELAY_NS (25ULL * 1000 * 1000)

struct rr_replay_opts {
	const char *trace_path;		/* a trace, or a scenario .json */
	const char *policy_specs[RR_MAX_POLICIES];	/* besides the baseline */
	int nr_specs;
	const char *kernel_release;	/* --kernel, or NULL: from the trace */
	int swap_present;		/* --swap yes/no, -1: infer */
	uint64_t offline_delay_ns;	/* rmdir -> offline assumption; 0: default */
	/* report: assume the newest modelled kernel when the trace does not
	 * name one (old text traces) instead of failing */
	bool release_may_be_assumed;

	/* compare's outputs */
	const char *baseline;		/* policy name; NULL: the first ("kernel") */
	bool all_episodes;		/* list episodes where nothing differs too */
	int top;			/* episodes that differ most, in the table */
	const char *json_path;		/* -o FILE ("-": stdout), or NULL */
	bool jsonl;			/* JSON lines on stdout */
	const char *html_path;		/* --html FILE, or NULL */
	const char *html_cgroup;	/* --html-cgroup PATH, or NULL */
	bool table, markdown;		/* the summary table on stdout */

	/* report's outputs */
	bool report;			/* `report` instead of `compare` */
	bool report_json;		/* --json */
	bool report_fidelity;		/* --fidelity */

	/* called with a warning line (no newline), e.g. events lost */
	void (*warn)(void *ctx, const char *file, const char *msg);
	/* called every 2^20 events with the count so far, and with 0 at the end */
	void (*progress)(void *ctx, uint64_t events);
	void *cb_ctx;
};

/**
 * rr_replay() - replay a trace or scenario and write the outputs it asks for
 * Return: 0, or -1 with @err naming the trace, a policy or an output at
 * fault; then no output file is left behind, and --jsonl's last
 * (summary) line is missing.
 */
int rr_replay(const struct rr_replay_opts *opts, struct rr_error *err);

#endif
