/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `reclaim-replay report`: what a trace itself shows, per reclaim
 * episode kind, per cgroup and per priority, in the spirit of the kernel's
 * Documentation/trace/postprocess/trace-vmscan-postprocess.pl.  Fed every
 * episode the builder closes; all counts are in pages, times in
 * nanoseconds (microseconds in the output).
 */
#ifndef RR_OUTPUT_REPORT_H
#define RR_OUTPUT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "../episode/episode.h"
#include "../trace/trace.h"

struct rr_report;

/* @keep_episodes: keep one JSON object per episode (for --json); the
 * tables need only the totals, which take constant memory per cgroup. */
struct rr_report *rr_report_new(bool keep_episodes);
void rr_report_free(struct rr_report *r);

/* Add one episode (any kind, with its batches).  Return 0, or -1 on ENOMEM. */
int rr_report_episode(struct rr_report *r, const struct rr_episode *ep);

/* At the end of the trace: the cgroup paths, online state and LRU sizes
 * from @st.  Return 0, or -1 on ENOMEM. */
int rr_report_finish(struct rr_report *r, const struct rr_state *st);

/**
 * rr_report_json() - the report as JSON (man reclaim-replay-json(5),
 * "report"): events, episodes_by_kind, cgroups, priorities, episodes,
 * inferred_inputs.  @ti describes the file; @assumed lists what the replay
 * assumed (array of strings, borrowed).  Sorts @r's latencies in place.
 * Return: a new reference, or NULL.
 */
json_t *rr_report_json(struct rr_report *r, const struct rr_trace_info *ti,
		       const json_t *assumed);

/* The same as text tables on @f. */
void rr_report_print(struct rr_report *r, const struct rr_trace_info *ti,
		     const json_t *assumed, FILE *f);

#endif
