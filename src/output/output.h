/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The decision diff: per-episode results of every policy, gathered into
 * one JSON document (schema in man/reclaim-replay-json.5) and a plain-text
 * summary table.  Both are made from the same result structs.
 */
#ifndef RR_OUTPUT_H
#define RR_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "../common/error.h"
#include "../episode/builder.h"
#include "../fidelity/fidelity.h"
#include "../policies/registry.h"
#include "../sim/sim.h"

#define RR_JSON_SCHEMA_VERSION 1

/* Per-policy totals over all replayed episodes, in pages. */
struct rr_policy_totals {
	uint64_t nr_scanned, nr_reclaimed, calls, shrink_lruvec_calls, batches;
	uint64_t scan_target_pages;
	uint64_t nr_reclaimed_anon;		/* anon pages reclaimed (swapped out) */
	uint64_t over_reclaim;			/* reclaimed beyond the request, summed */
	uint64_t eligible_p12;			/* (episode, cgroup, list) with a target at priority 12 */
	uint64_t episodes_differing;	/* scan targets or reclaim differ from baseline */
	uint64_t episodes_matching_recording;	/* inactive-list targets == recorded */
	uint64_t eagain;		/* memory.reclaim requests that ended in -EAGAIN */
	int lowest_priority;
};

/* What the recording itself shows, over the same episodes. */
struct rr_recorded_totals {
	uint64_t nr_scanned, nr_reclaimed, batches, scan_request_pages;
	int lowest_priority;
};

/* How the diff is written (compare's options). */
struct rr_out_opts {
	const char *baseline;		/* policy name; NULL: the first ("kernel") */
	bool all_episodes;		/* list episodes where nothing differs too */
	FILE *jsonl;			/* stream one JSON object per line here */
	int top;			/* episodes that differ most, in the table */
	bool html;			/* gather the data of --html */
	const char *html_cgroup;	/* --html-cgroup: the cgroup path of the
					 * targets plot; NULL: the busiest */
};

#define RR_OUT_TOP_MAX 50

/* An episode that differs much from the baseline, for the table. */
struct rr_out_top {
	uint64_t episode, start_ns;
	char *cgroup;		/* owned; the reclaim root's path or "?" */
	int policy;
	int64_t delta_reclaimed, delta_scanned, delta_calls;
	uint64_t weight;
};

struct rr_html;

/* Per policy totals of the episodes rooted at one cgroup. */
struct rr_cgroup_policy_totals {
	uint64_t nr_scanned, nr_reclaimed, calls, over_reclaim, episodes_differing;
};

struct rr_cgroup_totals;	/* one per reclaim root, in output/json.c */

struct rr_out {
	json_t *root;
	struct rr_cgroup_totals *cgroups;	/* hash by memcg id */
	struct rr_html *html;		/* --html data, or NULL */
	json_t *episodes;
	struct rr_out_opts opts;
	int baseline;			/* index in policies */
	struct rr_out_top top[RR_OUT_TOP_MAX];
	int nr_top;
	uint64_t nr_listed;
	int nr_policies;
	const struct rr_resolved_policy *policies;
	struct rr_policy_totals *totals;
	struct rr_recorded_totals recorded;
	uint64_t nr_episodes, nr_replayed, nr_skipped;
	bool has_recording;		/* false for scenarios */
	struct rr_fidelity fidelity;	/* of the baseline; traces only */
	uint64_t page_size_bytes;
};

/* Start the document: schema_version, tool, input (@input is stolen),
 * policies, baseline.  Return 0, -1 on ENOMEM, -2 when opts->baseline is
 * not one of @policies. */
int rr_out_init(struct rr_out *o, json_t *input,
		const struct rr_resolved_policy *policies, int nr_policies,
		uint64_t page_size_bytes, const struct rr_out_opts *opts);

/**
 * rr_out_episode() - add one episode
 * @st:      the memcg table, for cgroup paths.
 * @results: one per policy, in the order given to rr_out_init(); NULL when
 *           the episode could not be replayed (@skip_reason says why).
 */
int rr_out_episode(struct rr_out *o, const struct rr_episode *ep,
		   const struct rr_state *st, const struct rr_sim_result *results,
		   const char *skip_reason);

/* Add "summary" and return the finished document (owned by @o). */
json_t *rr_out_finish(struct rr_out *o);

/* The summary table, for stdout and e-mail: plain text, or markdown. */
void rr_out_print_table(const struct rr_out *o, FILE *f, bool markdown);

void rr_out_free(struct rr_out *o);

struct stat;

/* --html: gather plot data (rr_html_init once, rr_html_note per episode)
 * and write one self-contained page (inline SVG, no scripts) to @path,
 * refusing to replace @protect (the input; may be NULL).  Call it before
 * rr_out_finish().  Return 0, or -1 with @err naming @path (or the input,
 * for an --html-cgroup with no targets). */
int rr_html_init(struct rr_out *o);
int rr_html_note(struct rr_out *o, const struct rr_episode *ep, const struct rr_state *st,
		 const struct rr_sim_result *results);
int rr_html_write(const struct rr_out *o, const char *path, const struct stat *protect,
		  struct rr_error *err);
void rr_html_free(struct rr_out *o);

/**
 * rr_write_file_atomic() - write @text to @path through a temporary file
 * in the same directory and rename(2), so a failure leaves no half-written
 * file.  "-" writes to stdout; a FIFO or device is written in place; a
 * symlink's target is replaced; an existing file keeps its mode.
 * @protect: if not NULL, refuse to write over this file (the input).
 * Return: 0, or -1 with @err naming @path.
 */
int rr_write_file_atomic(const char *path, const char *text, size_t len,
			 const struct stat *protect, struct rr_error *err);

#endif
