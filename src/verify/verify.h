/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A policy's prediction against a kernel that runs it (reclaim-replay
 * verify): the JSON diff of a stock recording replayed under the policy,
 * and that of the same workload recorded on a kernel running the policy
 * (its baseline kernel+POLICY), compared per episode kind, per
 * memory.reclaim write and in total: calls, pages scanned and reclaimed,
 * over-reclaim, seconds and pages per second, predicted against measured.
 * Workloads that differ (other writes, other reclaim roots) are refused.
 * Pages are of the recorded kernels' page size; time in ns.
 */
#ifndef RR_VERIFY_H
#define RR_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "../common/error.h"

/* One side of a comparison, pages and ns; has_ns false: no time. */
struct rr_verify_side {
	uint64_t calls, nr_scanned, nr_reclaimed, over_reclaim_pages;
	double ns;
	bool has_ns;
};

struct rr_verify_row {
	char what[96];		/* "memcg", "proactive", "write 2 (1 GiB to /fill)", "total" */
	char kind[16];		/* "memcg", ..., "proactive" (a write too), "total" */
	int write;		/* a write's place from 1; 0 for the other rows */
	char cgroup[256];	/* a write's cgroup */
	uint64_t request_bytes;
	int measured_errno;	/* a write's, as the patched recording says */
	struct rr_verify_side predicted, measured;
};

#define RR_VERIFY_ROWS 64

struct rr_verify {
	char policy[64];
	uint64_t page_size_bytes;
	struct rr_verify_row rows[RR_VERIFY_ROWS];
	int nr_rows;
	/* the patched recording's own fidelity under kernel+POLICY: its
	 * shrink_lruvec() decisions (which a chunk policy does not change),
	 * its trajectories, and its memory.reclaim calls whose nr_to_reclaim
	 * the replay asked too (the policy's chunk rule itself) */
	uint64_t patched_decisions, patched_exact;
	uint64_t patched_trajectories, patched_trajectories_exact;
	uint64_t patched_write_calls, patched_write_calls_same;
	uint64_t patched_writes, patched_writes_same;
	uint64_t patched_writes_cut;	/* ... of them checked on their first calls */
	/* where the policy PATCHED ran came from: "trace" (its record
	 * --kernel-policy marker) or "option" (-p; the trace has no marker) */
	char policy_source[16];
	/* why the predicted times are missing, where they are */
	char time_note[256];
};

/**
 * rr_verify_docs() - compare @stock (compare -o of the stock recording
 * with -p @policy, every episode listed) with @patched (compare -o of the
 * patched recording, --kernel-policy @policy, every episode listed)
 * Return: 0 with @v filled; -1 with @err saying how the workloads differ
 * (the files named @stock_name and @patched_name) or what a document lacks.
 */
int rr_verify_docs(json_t *stock, json_t *patched, const char *policy, const char *stock_name,
		   const char *patched_name, struct rr_verify *v, struct rr_error *err);

/* The comparison as text (a table; @markdown: a markdown table for a
 * review thread). */
void rr_verify_print(FILE *f, const struct rr_verify *v, bool markdown);

/* The comparison as JSON (schema/reclaim-replay-verify.schema.json). */
json_t *rr_verify_json(const struct rr_verify *v, const char *stock_name,
		       const char *patched_name);

#endif
