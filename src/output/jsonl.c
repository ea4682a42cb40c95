// SPDX-License-Identifier: GPL-2.0-only
/*
 * --jsonl: JSON lines on a stream: a header (schema_version, tool,
 * policies, baseline), one {"episode": ...} line per listed episode as it
 * closes, and a tail line (input, summary, fidelity) that marks the stream
 * complete.
 */
#include "jw.h"
#include "output.h"

static int line(FILE *f, json_t *v)
{
	int ret = json_dumpf(v, f, JSON_COMPACT);

	if (fputc('\n', f) == EOF)
		ret = -1;
	json_decref(v);
	return ret ? -1 : 0;
}

int rr_jsonl_header(FILE *f, json_t *root, json_t *policies, const char *baseline)
{
	json_t *head = json_object();

	json_object_set(head, "schema_version", json_object_get(root, "schema_version"));
	json_object_set(head, "tool", json_object_get(root, "tool"));
	json_object_set(head, "policies", policies);
	json_object_set_new(head, "baseline", json_string(baseline));
	return line(f, head);
}

struct rr_jw *rr_jsonl_writer_new(void)
{
	return rr_jw_stream_new();
}

void rr_jsonl_writer_free(struct rr_jw *w)
{
	rr_jw_free(w);
}

int rr_jsonl_episode(FILE *f, struct rr_jw *w, const struct rr_episode_diff *d,
		     const struct rr_resolved_policy *policies, struct rr_error *err)
{
	const char *text;
	size_t len;
	int ret = 0;

	rr_jw_object_begin(w, NULL);
	rr_jw_episode(w, "episode", d, policies);
	rr_jw_object_end(w);
	if (!rr_jw_stream_text(w, &text, &len)) {
		rr_error_set(err, "<stdout>", "cannot make the line of episode %llu: %s",
			     (unsigned long long)d->id, rr_jw_error(w) ? rr_jw_error(w) : "not closed");
		ret = -1;
	} else if (fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF) {
		rr_error_set(err, "<stdout>", "write failed");
		ret = -1;
	}
	rr_jw_stream_reset(w);
	return ret;
}

int rr_jsonl_tail(FILE *f, json_t *input, json_t *summary, json_t *fidelity,
		  json_t *time_model)
{
	json_t *tail = json_object();
	int ret;

	json_object_set(tail, "input", input);
	json_object_set(tail, "summary", summary);
	json_object_set(tail, "fidelity", fidelity);
	json_object_set(tail, "time_model", time_model);
	ret = line(f, tail);
	if (fflush(f))
		ret = -1;
	return ret;
}
