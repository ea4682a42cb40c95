/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Renderers of the decision diff (src/diff): peers that only format the
 * data they are given and never call each other.
 *  - json-values.c, json-episode.c: the JSON encoding of the totals and
 *    the policies, and of an episode's diff (schema in
 *    man/reclaim-replay-json.5), the latter through jw.c's writer (a
 *    jansson tree, or a yajl stream for --jsonl); shared by
 *  - json.c: the JSON document of -o, streamed episode by episode into a
 *    spool beside the output and assembled at the end, and
 *  - jsonl.c: --jsonl, one line per episode;
 *  - table.c: the summary table, plain text or markdown;
 *  - html.c: --html, a self-contained page of plots, from fixed-size bins;
 *  - fidelity-render.c: the fidelity totals as JSON and text;
 *  - atomic.c: files written through a temporary file and rename(2).
 * Memory: an episode's JSON lives only while it is written.
 */
#ifndef RR_OUTPUT_H
#define RR_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include <jansson.h>

#include "../common/error.h"
#include "../diff/diff.h"
#include "../fidelity/fidelity.h"
#include "../policies/policies.h"
#include "../trace/trace.h"

#define RR_JSON_SCHEMA_VERSION 1

struct rr_jw;	/* the JSON writer (jw.h) */

/* ---- JSON values (json-values.c) ---- */

#define RR_MAX_ASSUMPTIONS 32

/* What the "input" object says: the file, what the reader and the builder
 * learned of it, and what the replay had to assume. */
struct rr_input_desc {
	const char *file;
	const char *kernel_release, *release_source;	/* "trace", "option", "scenario", "assumed" */
	/* the policy a patched recording kernel ran ("" none) and where that
	 * came from ("option": --kernel-policy, "trace": the meta marker) */
	const char *kernel_policy, *kernel_policy_source;
	uint64_t page_size_bytes;
	bool drop_memcg_events;	/* --drop-memcg-events: the attribution was checked */
	const char *assumptions[RR_MAX_ASSUMPTIONS];
	int nr_assumptions;
	/* a trace */
	const struct rr_trace_info *ti;
	const struct rr_builder_stats *bs;
	uint64_t offline_delay_ns;
	uint64_t rstat_flushes;
	unsigned int memcgs;
	unsigned int reader_warnings;
	const char *reader_first_warning;
	/* a scenario (ti == NULL) */
	int scenario_version;
	bool swap;
	const char *outcome_model;
	int cgroups, requests;
};

/* The "input" object (man reclaim-replay-json.5). */
json_t *rr_json_input(const struct rr_input_desc *in);
/* The reader's field problems (struct rr_trace_info field_problems): an
 * array of {event, field, problem, count, dropped}, in the order first
 * seen; the slots' overflow as {"event": "(other)", ...}. */
json_t *rr_json_field_problems(const struct rr_trace_info *ti);
/* {"schema_version", "tool"}: the first keys of every JSON output. */
json_t *rr_json_root(void);
/* The "policies" array. */
json_t *rr_json_policies(const struct rr_resolved_policy *policies, int nr_policies);
/* One element of "episodes" (man reclaim-replay-json.5, "The episode
 * object") as a jansson tree; NULL on ENOMEM (json-episode.c). */
json_t *rr_json_episode(const struct rr_episode_diff *d,
			const struct rr_resolved_policy *policies);
/* The same object through any writer, as the value of @key (NULL: in an
 * array or at the top); a failure is the writer's (jw.h). */
void rr_jw_episode(struct rr_jw *w, const char *key, const struct rr_episode_diff *d,
		   const struct rr_resolved_policy *policies);
/* Per-call arrays of an episode in the JSON hold at most this many calls
 * ("call_arrays_cut" says when there were more). */
#define RR_JSON_CALLS_MAX 4096

json_t *rr_json_summary(const struct rr_totals *t, const struct rr_resolved_policy *policies);

/**
 * rr_json_delta_distributions() - summary.delta_distributions: per policy
 * other than the baseline, the replayed episodes counted by the bucket of
 * their change in pages reclaimed and scanned (rr_delta_bucket(): "0",
 * "1", "2..3", ..., "-3..-2"; buckets with none left out).
 * Return: a new object (NULL when out of memory).
 */
json_t *rr_json_delta_distributions(const struct rr_totals *t,
				    const struct rr_resolved_policy *policies);
/* The time model (src/timing/timing.h) fitted on @t's recorded calls,
 * and each policy's estimated time; null for a scenario.  Not a count:
 * kept out of the summary, which merge sums. */
json_t *rr_json_time_model(const struct rr_totals *t, const struct rr_resolved_policy *policies);
/* The JSON key and the words of a reason a call was not judged
 * (fidelity-render.c). */
const char *rr_unchecked_name(enum rr_unchecked reason);
/* The "fidelity" object (fidelity-render.c). */
json_t *rr_fidelity_json(const struct rr_fidelity *f);
/* Set the *_share values of a "fidelity" object (and of its by_kind
 * entries) from its counts: one table for compare's and merge's. */
void rr_fidelity_json_shares(json_t *fidelity);

/* A count or id as a JSON integer (counts stay below 2^63). */
static inline json_t *rr_json_u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* ---- -o FILE (json.c) ---- */

struct rr_json_stream;

/**
 * rr_json_stream_open() - start the JSON document for @path
 * @path:    a file, or "-" for stdout; checked now (a directory, the input
 *           @protect, an unwritable place are refused before any replay).
 * Return: the stream, or NULL with @err naming @path.
 */
struct rr_json_stream *rr_json_stream_open(const char *path, const struct stat *protect,
					   struct rr_error *err);
/* Append one episode object (not stolen).  Return 0, or -1 with @err. */
int rr_json_stream_episode(struct rr_json_stream *s, const json_t *episode,
			   struct rr_error *err);
/**
 * rr_json_stream_finish() - write the document and close the stream
 * @doc: every key but the episodes, in order, with "episodes" an empty
 *       array where the streamed episodes go.
 * The document is written to a temporary file beside @path and renamed
 * over it (a FIFO or device is written in place), so a failure leaves no
 * half-written file.  The stream is freed in every case.
 * Return: 0, or -1 with @err.
 */
int rr_json_stream_finish(struct rr_json_stream *s, json_t *doc, struct rr_error *err);
/* Drop the stream and its temporary files. */
void rr_json_stream_abort(struct rr_json_stream *s);

/**
 * rr_write_json() - @doc as compare -o writes a document (2-space indent,
 * ASCII, a newline at the end) to @path ("-": stdout) through
 * rr_write_file_atomic(): nothing half-written on failure.
 * Return: 0, or -1 with @err naming @path.
 */
int rr_write_json(const char *path, const json_t *doc, const struct stat *protect,
		  struct rr_error *err);

/* ---- --jsonl (jsonl.c): one JSON value a line ---- */

/* Each returns 0, or -1 when @f failed.  The JSON values are borrowed: the
 * caller keeps its references. */
int rr_jsonl_header(FILE *f, json_t *root, json_t *policies, const char *baseline);
/* The writer the episode lines are streamed through (a yajl generator,
 * jw.h), reused for every line: NULL when out of memory. */
struct rr_jw *rr_jsonl_writer_new(void);
void rr_jsonl_writer_free(struct rr_jw *w);
/* One {"episode": ...} line of @d, streamed through @w.  Return 0, or -1
 * with @err (@f failed, or the line could not be made: out of memory, a
 * string that is not UTF-8). */
int rr_jsonl_episode(FILE *f, struct rr_jw *w, const struct rr_episode_diff *d,
		     const struct rr_resolved_policy *policies, struct rr_error *err);
int rr_jsonl_tail(FILE *f, json_t *input, json_t *summary, json_t *fidelity,
		  json_t *time_model);

/* ---- the summary table (table.c) ---- */

/**
 * rr_table_print() - the review table of a compare run
 * @fidelity: the baseline's fidelity against the recording, or NULL.
 * @markdown: a markdown table instead of aligned text columns.
 */
void rr_table_print(FILE *f, const struct rr_totals *t,
		    const struct rr_resolved_policy *policies,
		    const struct rr_fidelity *fidelity, bool markdown);

/* Text for `report --fidelity` and the end of the compare table
 * (fidelity-render.c). */
void rr_fidelity_print(const struct rr_fidelity *f, FILE *out);

/* ---- --html (html.c) ---- */

struct rr_html;
struct rr_outfile;

/* @cgroup: --html-cgroup, the cgroup of the targets plot, or NULL. */
struct rr_html *rr_html_new(int nr_policies, const char *cgroup);
/* Gather one episode's plot data.  Return 0, or -1 on ENOMEM. */
int rr_html_note(struct rr_html *h, const struct rr_episode_diff *d);
/**
 * rr_html_write() - write the page into @out (rr_outfile_open() of the
 * --html path, opened before the replay so a bad path fails at once; the
 * caller commits it)
 * @title: the input's name, for the heading.
 * Return 0, or -1 with @err naming @path (or @title, for an --html-cgroup
 * with no targets).
 */
int rr_html_write(const struct rr_html *h, const struct rr_totals *t,
		  const struct rr_resolved_policy *policies, const char *title,
		  const char *path, struct rr_outfile *out, struct rr_error *err);
void rr_html_free(struct rr_html *h);

/* ---- files (atomic.c) ---- */

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

/*
 * The same, for content written piece by piece: rr_outfile_open() checks
 * @path (as above) and gives a stream to write into (a temporary file);
 * rr_outfile_commit() puts the content in place; rr_outfile_abort()
 * removes every trace of it.  rr_outfile_spool() is an unnamed scratch
 * file on the same file system, for content assembled later.
 */
struct rr_outfile;
/* An unnamed scratch file ("w+") in @dir (NULL: $TMPDIR, or /tmp); NULL
 * with errno on failure. */
FILE *rr_scratch_file(const char *dir);
struct rr_outfile *rr_outfile_open(const char *path, const struct stat *protect,
				   struct rr_error *err);
FILE *rr_outfile_stream(struct rr_outfile *o);
FILE *rr_outfile_spool(struct rr_outfile *o, struct rr_error *err);
int rr_outfile_commit(struct rr_outfile *o, struct rr_error *err);
void rr_outfile_abort(struct rr_outfile *o);
/* Does rr_outfile_commit() rename a regular file into place (true), or
 * write to standard output, a device or a pipe (false: what it writes there
 * cannot be taken back, so such an output is committed before the others)? */
bool rr_outfile_renames(const struct rr_outfile *o);

/*
 * `reclaim-replay report`: what a trace itself shows, per reclaim
 * episode kind, per cgroup and per priority, in the spirit of the kernel's
 * Documentation/trace/postprocess/trace-vmscan-postprocess.pl.  Fed every
 * episode the builder closes; all counts are in pages, times in
 * nanoseconds (microseconds in the output).
 */

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
