/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the replay driver, shared by its files; each calls only
 * those declared after it: replay.c (rr_replay(), a trace's walk),
 * scenario.c, recorded.c, writes.c, run.c, pick-release.c, input.c,
 * outputs.c.
 */
#ifndef RR_REPLAY_LOCAL_H
#define RR_REPLAY_LOCAL_H

#include <sys/stat.h>

#include <jansson.h>

#include "../diff/diff.h"
#include "../episode/episode.h"
#include "../fidelity/fidelity.h"
#include "../output/output.h"
#include "../release/release.h"
#include "replay.h"

struct saved_cursor {
	uint64_t write_seq;		/* hash key: rr_episode.seq of the write */
	uint64_t root_id;
	uint64_t pos_id[RR_MAX_POLICIES], recorded_pos_id;
	bool recorded_pos_valid;
	UT_hash_handle hh;
};

struct replay {
	const struct rr_replay_opts *o;
	struct rr_error *err;
	struct rr_kernel_model km;
	const char *release_source;	/* "trace", "option", "assumed", "scenario" */
	/* the recording kernel's policy (rr_replay_opts.kernel_policy), "" none,
	 * and where it came from ("option", "trace") */
	char kernel_policy[64];
	const char *kernel_policy_source;
	char release_note[640];		/* the assumption, when assumed */
	/* the trace names no release and the formats' range holds a rule
	 * change: rr_replay() returns RR_REPLAY_NEEDS_KERNEL */
	bool needs_kernel;
	char raised_note[256];		/* sizes the batches disproved */
	char bounds_note[256];		/* lower bounds the batches raised */
	char unread_note[640];		/* memcgs no snapshot read (global), or
					 * outside the recorder's view */
	char attr_note[640];		/* attribution without memcg: events */
	char attr_check_note[320];	/* ... checked against dropped events */
	char page_size_note[160];	/* the page-size assumption, if any */
	int zoneinfo_nodes;		/* nodes of --zoneinfo's copy, 0 none */
	char zoneinfo_note[1200];	/* ... the note that says so */
	unsigned int page_shift;
	uint64_t page_size_bytes;
	uint64_t offline_delay_ns;
	struct rr_resolved_policy policies[RR_MAX_POLICIES];
	int np, baseline;
	bool has_recording;		/* false for scenarios */
	struct rr_builder *builder;
	const struct rr_state *names;	/* cgroup paths for the outputs */
	struct rr_cursors cursors;
	/* the walk cursor of each open memory.reclaim write's root as it was
	 * before the write's first call (whose own check moves it), for the
	 * whole write's replay */
	struct saved_cursor *write_cursors;
	char skip_why[256];		/* a skip reason made for one episode */
	struct rr_totals totals;
	struct rr_fidelity fidelity;	/* of the baseline; traces only */
	uint64_t swap_fitted_episodes;	/* replayed with swap from its evidence */
	struct rr_sim_result results[RR_MAX_POLICIES];	/* reused for every episode */
	uint64_t events;
	uint64_t progress_mask;		/* progress every mask + 1 events */
	struct rr_trace *trace;		/* while it is read */
	/* outputs (outputs.c) */
	struct stat in_st;
	bool have_in_st;
	json_t *root, *policies_json;
	struct rr_json_stream *json;
	struct rr_jw *jsonl;		/* --jsonl's episode lines (a yajl stream) */
	/* -o with RR_EPISODES_TOP: the episodes that differ most so far, by
	 * weight (most first), their JSON made only when one enters */
	json_t *top_json[RR_TOP_MAX];
	uint64_t top_weight[RR_TOP_MAX];
	int nr_top_json;
	struct rr_html *html;
	struct rr_outfile *html_out;	/* its file, committed after the JSON */
	struct rr_report *report;
};

/* scenario.c */
int rr_replay_scenario(struct replay *r);

/* recorded.c: the builder's callback (rr_episode_cb) */
int rr_replay_on_episode(struct rr_episode *ep, struct rr_state *st, void *ctx);

/* writes.c */
uint64_t rr_replay_kernel_chunk(struct replay *r, uint64_t request, uint64_t done, uint64_t k);
const char *rr_replay_proactive_prepare(struct replay *r, struct rr_episode *ep);
int rr_replay_save_write_cursor(struct replay *r, const struct rr_episode *p,
				const struct rr_episode *call, const struct rr_sim_input *in);
void rr_replay_restore_write_cursor(struct replay *r, const struct rr_episode *ep,
				    const struct rr_sim_input *in);

/* run.c */
int rr_replay_policies(struct replay *r);
int rr_replay_emit(struct replay *r, const struct rr_episode *ep,
		   const struct rr_sim_result *results, const char *skip_reason);
int rr_replay_fidelity(struct replay *r, const struct rr_episode *ep, struct rr_state *st,
		       const struct rr_sim_input *in, const struct rr_sim_result *kernel_result);
void rr_replay_swap_from_evidence(struct replay *r, const struct rr_episode *ep,
				  struct rr_sim_input *in);
uint64_t rr_replay_first_memcg(const struct rr_episode *ep);
int rr_replay_run_policies(struct replay *r, const struct rr_episode *ep,
			   struct rr_sim_input *in, struct rr_sim_result *res, int np);

/* pick-release.c */
int rr_replay_pick_release(struct replay *r, const struct rr_trace_info *ti);

/* input.c */
void rr_replay_describe_input(struct replay *r, const struct rr_trace_info *ti,
			      struct rr_input_desc *in);
void rr_replay_warnings(struct replay *r, const struct rr_trace_info *ti,
			const struct rr_input_desc *in);

/* outputs.c */
int rr_outputs_begin(struct replay *r);
int rr_outputs_episode(struct replay *r, const struct rr_episode_diff *d);
int rr_outputs_end(struct replay *r, const struct rr_input_desc *in);
void rr_outputs_free(struct replay *r);

#endif
