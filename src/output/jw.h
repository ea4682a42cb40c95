/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One JSON writer, two sinks (jw.c):
 *  - a jansson tree, for the values of -o's document, which jansson dumps
 *    (the --top episodes are edited as trees before they are written);
 *  - a yajl generator (yajl 2.1, Debian's libyajl-dev), for --jsonl's
 *    episode lines: values go straight into one reused buffer, with no
 *    allocation per value, which is what jansson's trees cost.
 * The episode encoder (json-episode.c) is written once against it, so both
 * outputs hold the same keys in the same order.
 *
 * Every value function takes the key the value has in the enclosing
 * object, or NULL in an array and at the top.  Errors are sticky: the
 * first failed call (out of memory, a string that is not UTF-8, a real
 * that is not finite, nesting deeper than RR_JW_DEPTH, a value without a
 * key in an object) sets the failed flag and the later calls do nothing;
 * the caller checks rr_jw_failed() once.
 */
#ifndef RR_OUTPUT_JW_H
#define RR_OUTPUT_JW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define RR_JW_DEPTH 16

struct rr_jw;

/* A writer that builds a jansson value.  Return NULL when out of memory. */
struct rr_jw *rr_jw_tree_new(void);
/* The value a tree writer built (the caller owns it), or NULL if it failed
 * or is not closed; the writer is freed in every case. */
json_t *rr_jw_tree_finish(struct rr_jw *w);
/* A writer that streams compact JSON (no spaces: jansson's JSON_COMPACT
 * form) into a buffer.  Return NULL when out of memory. */
struct rr_jw *rr_jw_stream_new(void);
/* A stream writer's text since the last rr_jw_stream_reset(): one finished
 * value, or none.  Return false if the writer failed or the value is open. */
bool rr_jw_stream_text(struct rr_jw *w, const char **text, size_t *len);
/* Empty a stream writer's buffer, ready for the next top-level value. */
void rr_jw_stream_reset(struct rr_jw *w);
void rr_jw_free(struct rr_jw *w);

bool rr_jw_failed(const struct rr_jw *w);
/* Why the writer failed (the first failure), or NULL. */
const char *rr_jw_error(const struct rr_jw *w);

void rr_jw_object_begin(struct rr_jw *w, const char *key);
void rr_jw_object_end(struct rr_jw *w);
void rr_jw_array_begin(struct rr_jw *w, const char *key);
void rr_jw_array_end(struct rr_jw *w);
/* Integers: a count or an id (counts stay below 2^63, as rr_json_u64()). */
void rr_jw_u64(struct rr_jw *w, const char *key, uint64_t v);
void rr_jw_i64(struct rr_jw *w, const char *key, int64_t v);
/* A real, written as jansson writes one ("%.17g", with ".0" added where
 * it would read as an integer); not finite: the writer fails. */
void rr_jw_real(struct rr_jw *w, const char *key, double v);
void rr_jw_bool(struct rr_jw *w, const char *key, bool v);
void rr_jw_null(struct rr_jw *w, const char *key);
/* A UTF-8 string; NULL writes null. */
void rr_jw_str(struct rr_jw *w, const char *key, const char *s);

#endif
