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
#include "../policies/policies.h"

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
	/* --kernel-policy: the policy the recording kernel ran on top of its
	 * release's rules (a patched kernel); NULL: the trace's meta marker
	 * says, else none.  The baseline "kernel" is then kernel+POLICY
	 * everywhere the release's rules are used */
	const char *kernel_policy;
	int swap_present;		/* --swap yes/no, -1: infer */
	uint64_t offline_delay_ns;	/* rmdir -> offline assumption, when */
	bool offline_delay_given;	/* ... given; else RR_DEFAULT_OFFLINE_DELAY_NS */
	/* report: go on when the trace does not name its kernel, modelling
	 * the newest release its formats fit (without --fidelity, also when
	 * the model's rules change inside their range) */
	bool release_may_be_assumed;
	/* --outcome exact: every replayed reclaim call reclaims exactly its
	 * nr_to_reclaim (the seed e-mails' arithmetic) instead of what the
	 * loops give on the recorded ratios; no fidelity check then */
	bool outcome_exact;
	/* --drop-memcg-events: read the trace without its memcg: events, as
	 * a kernel before 6.13 wrote it; they only check the attribution */
	bool drop_memcg_events;
	/* --zoneinfo FILE: a copy of the recording machine's /proc/zoneinfo
	 * (rr_zoneinfo_copy()): the zones' watermarks where the trace has no
	 * recorder snapshot of them (kswapd's nr_to_reclaim); NULL: none */
	const char *zoneinfo_path;

	/* compare's outputs */
	const char *baseline;		/* policy name; NULL: the first ("kernel") */
	/* the episodes listed (--episodes): RR_EPISODES_TOP, in -o's document
	 * the --top that differ most (the default: a document of bounded size)
	 * and in --jsonl every one that differs; _DIFFERING, every one that
	 * differs (or was skipped); _ALL, every one */
	enum rr_episodes_mode { RR_EPISODES_TOP, RR_EPISODES_DIFFERING, RR_EPISODES_ALL } episodes;
	int top;			/* episodes that differ most, in the table and -o */
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
	/* called every 2^@progress_log2 events (default 20) with the count
	 * so far and how much of the file is read, in per mille (-1: not
	 * known, see rr_trace_progress()); at the end with the whole count
	 * and 1000, then once more with events 0 */
	void (*progress)(void *ctx, uint64_t events, int permille);
	int progress_log2;		/* 0: 20; at most 30 */
	void *cb_ctx;
};

/* rr_replay()'s return when the trace does not name its kernel and the
 * release matters: the caller's usage error (exit 2) */
#define RR_REPLAY_NEEDS_KERNEL (-2)

/**
 * rr_replay() - replay a trace or scenario and write the outputs it asks for
 * Return: 0, or -1 with @err naming the trace, a policy or an output at
 * fault; then no output file is left behind, and --jsonl's last
 * (summary) line is missing.  RR_REPLAY_NEEDS_KERNEL (with @err saying
 * the range of releases the trace's formats fit and the model's rule
 * changes inside it) when the trace names no kernel and compare or report
 * --fidelity needs one (--kernel).
 */
int rr_replay(const struct rr_replay_opts *opts, struct rr_error *err);

/**
 * rr_replay_check_policies() - check @o's policies and baseline as far as
 * no trace is needed (rr_policy_check()): so that several traces fail once,
 * before any is replayed, on a spec that cannot load.
 * Return: 0, or -1 with @err naming the spec or the baseline.
 */
int rr_replay_check_policies(const struct rr_replay_opts *o, struct rr_error *err);

/* How rr_replay_many() runs and reports. */
struct rr_many_opts {
	int jobs;			/* processes at a time, >= 1 */
	bool header;			/* "==> TRACE <==" before each trace's output */
	/* a failed trace's error, in argument order */
	void (*error)(void *ctx, const struct rr_error *err);
	/* every 100 ms: traces done of @total, events read so far by all,
	 * seconds since the start, and how far the least advanced running
	 * trace is (per mille; -1 when no running trace can tell); @total 0:
	 * erase the line */
	void (*progress)(void *ctx, int done, int total, uint64_t events, double elapsed_s,
			 int slowest_permille);
	void *ctx;
};

/**
 * rr_replay_many() - replay @nr traces, each in a process of its own
 * @opts: one per trace, as for rr_replay() (each with its own json_path).
 * Each trace's standard output and error appear in argument order, whatever
 * the order the processes end in.
 * Return: 0, or -1 when any trace failed (*@nr_failed of them; each was
 * passed to mo->error).
 */
int rr_replay_many(const struct rr_replay_opts *opts, int nr, const struct rr_many_opts *mo,
		   int *nr_failed);

#endif
