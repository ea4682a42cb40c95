/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay driver: trace reader -> episode builder -> simulator under
 * every policy -> decision diff.  Shared by `compare` (and later `report`).
 */
#ifndef RR_CLI_REPLAY_H
#define RR_CLI_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../episode/builder.h"
#include "../output/output.h"
#include "../trace/reader.h"

#define RR_MAX_POLICIES 16

struct rr_replay_opts {
	const char *trace_path;
	const char *policy_specs[RR_MAX_POLICIES];	/* besides the baseline */
	int nr_specs;
	const char *kernel_release;	/* --kernel, or NULL: from the trace */
	int swap_present;		/* --swap yes/no, -1: infer */
	uint64_t offline_delay_ns;	/* rmdir -> offline assumption */
	bool progress;			/* progress line on stderr */
	struct rr_out_opts out;		/* how the diff is written */
	/* report: assume the newest modelled kernel when the trace does not
	 * name one (old text traces) instead of failing */
	bool release_may_be_assumed;
	rr_request_cb request_cb;	/* report: requests of every kind */
	void *request_ctx;
	struct rr_trace_info *info_out;	/* report: a copy of the reader's info */
};

/* The built-in policies compared when no -p is given, after the baseline. */
extern const char *const rr_default_policies[];

/**
 * rr_replay() - replay a trace under the baseline and the given policies
 * @out: initialised here; the caller finishes, prints and frees it.
 * Return: 0, or -1 with @err naming the trace or policy at fault.
 */
int rr_replay(const struct rr_replay_opts *opts, struct rr_out *out,
	      struct rr_resolved_policy *policies, int *nr_policies,
	      struct rr_error *err);

#endif
