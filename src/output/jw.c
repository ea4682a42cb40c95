// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON writer of jw.h: a jansson tree or a yajl stream behind one set
 * of calls.
 */
#include "jw.h"
#include "../common/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

struct rr_jw {
	yajl_gen gen;			/* the stream sink, or NULL: a tree */
	json_t *stack[RR_JW_DEPTH];	/* tree: the open containers (borrowed) */
	int depth;
	bool object[RR_JW_DEPTH];	/* each open container: an object? */
	json_t *root;			/* tree: the top value (owned) */
	bool failed;
	const char *why;		/* what failed first */
};

/* Fail @w for @why (the first failure's reason is kept). */
static void fail(struct rr_jw *w, const char *why)
{
	if (!w->failed)
		w->why = why;
	w->failed = true;
}

/* A key where one is due (in an object), none elsewhere? */
static bool key_ok(struct rr_jw *w, const char *key)
{
	bool in_object = w->depth && w->object[w->depth - 1];

	if (in_object != !!key)
		fail(w, key ? "a key outside an object" : "a value without a key in an object");
	return !w->failed;
}

struct rr_jw *rr_jw_tree_new(void)
{
	return calloc(1, sizeof(struct rr_jw));
}

json_t *rr_jw_tree_finish(struct rr_jw *w)
{
	json_t *v = NULL;

	if (!w)
		return NULL;
	if (!w->failed && !w->depth)
		v = w->root;
	else
		json_decref(w->root);
	free(w);
	return v;
}

struct rr_jw *rr_jw_stream_new(void)
{
	struct rr_jw *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	/* (strings are checked by rr_utf8_valid(), as strictly as
	 * json_string() checks them: yajl's own check lets overlong forms
	 * and surrogates through) */
	w->gen = yajl_gen_alloc(NULL);
	if (!w->gen) {
		rr_jw_free(w);
		return NULL;
	}
	return w;
}

bool rr_jw_stream_text(struct rr_jw *w, const char **text, size_t *len)
{
	const unsigned char *buf;

	if (!w->gen || w->failed || w->depth ||
	    yajl_gen_get_buf(w->gen, &buf, len) != yajl_gen_status_ok)
		return false;
	*text = (const char *)buf;
	return true;
}

void rr_jw_stream_reset(struct rr_jw *w)
{
	yajl_gen_clear(w->gen);
	yajl_gen_reset(w->gen, NULL);
	w->depth = 0;
	w->failed = false;
	w->why = NULL;
}

void rr_jw_free(struct rr_jw *w)
{
	if (!w)
		return;
	if (w->gen)
		yajl_gen_free(w->gen);
	json_decref(w->root);
	free(w);
}

bool rr_jw_failed(const struct rr_jw *w)
{
	return w->failed;
}

const char *rr_jw_error(const struct rr_jw *w)
{
	return w->failed ? (w->why ? w->why : "out of memory") : NULL;
}

/* Tree: put @v (stolen) where the next value goes. */
static void tree_put(struct rr_jw *w, const char *key, json_t *v)
{
	json_t *parent = w->depth ? w->stack[w->depth - 1] : NULL;
	int ret;

	if (!v) {
		fail(w, "out of memory");
		return;
	}
	if (!key_ok(w, key)) {
		json_decref(v);
		return;
	}
	if (key && !rr_utf8_valid(key, strlen(key))) {
		json_decref(v);
		fail(w, "a key that is not UTF-8");
		return;
	}
	if (!parent) {
		ret = w->root ? -1 : 0;
		if (!ret)
			w->root = v;
	} else if (key) {
		ret = json_object_set_new(parent, key, v);	/* (stolen either way) */
		v = NULL;
	} else {
		ret = json_array_append_new(parent, v);
		v = NULL;
	}
	if (ret) {
		json_decref(v);
		fail(w, !parent ? "a second value at the top" : "out of memory");
	}
}

static void stream_status(struct rr_jw *w, yajl_gen_status s)
{
	if (s == yajl_gen_status_ok)
		return;
	fail(w, s == yajl_gen_keys_must_be_strings ? "a value without a key in an object" :
	     s == yajl_max_depth_exceeded ? "nesting too deep" : "out of memory");
}

/* Stream: a UTF-8 string (a key or a value). */
static void stream_string(struct rr_jw *w, const char *s)
{
	size_t len = strlen(s);

	if (!rr_utf8_valid(s, len))
		fail(w, "a string that is not UTF-8");
	else
		stream_status(w, yajl_gen_string(w->gen, (const unsigned char *)s, len));
}

/* Stream: the key, in an object. */
static bool stream_key(struct rr_jw *w, const char *key)
{
	if (key_ok(w, key) && key)
		stream_string(w, key);
	return !w->failed;
}

static void begin(struct rr_jw *w, const char *key, bool object)
{
	json_t *c;

	if (w->failed)
		return;
	if (w->depth >= RR_JW_DEPTH) {
		fail(w, "nesting too deep");
		return;
	}
	if (w->gen) {
		if (stream_key(w, key))
			stream_status(w, object ? yajl_gen_map_open(w->gen) :
					  yajl_gen_array_open(w->gen));
		w->object[w->depth++] = object;
		return;
	}
	c = object ? json_object() : json_array();
	tree_put(w, key, c);
	if (!w->failed) {
		w->object[w->depth] = object;
		w->stack[w->depth++] = c;
	}
}

static void end(struct rr_jw *w, bool object)
{
	if (w->failed)
		return;
	if (!w->depth || w->object[w->depth - 1] != object) {
		fail(w, "a container closed that was not open");
		return;
	}
	w->depth--;
	if (w->gen)
		stream_status(w, object ? yajl_gen_map_close(w->gen) :
				  yajl_gen_array_close(w->gen));
}

void rr_jw_object_begin(struct rr_jw *w, const char *key)
{
	begin(w, key, true);
}

void rr_jw_object_end(struct rr_jw *w)
{
	end(w, true);
}

void rr_jw_array_begin(struct rr_jw *w, const char *key)
{
	begin(w, key, false);
}

void rr_jw_array_end(struct rr_jw *w)
{
	end(w, false);
}

void rr_jw_i64(struct rr_jw *w, const char *key, int64_t v)
{
	if (w->failed)
		return;
	if (!w->gen)
		tree_put(w, key, json_integer((json_int_t)v));
	else if (stream_key(w, key))
		stream_status(w, yajl_gen_integer(w->gen, (long long)v));
}

void rr_jw_u64(struct rr_jw *w, const char *key, uint64_t v)
{
	rr_jw_i64(w, key, (int64_t)v);
}

void rr_jw_real(struct rr_jw *w, const char *key, double v)
{
	char buf[40], *exp;
	int n;

	if (w->failed)
		return;
	if (!isfinite(v)) {
		fail(w, "a real that is not finite");
		return;
	}
	if (!w->gen) {
		tree_put(w, key, json_real(v));
		return;
	}
	/* as jansson 2.14 writes a real (JSON_REAL_PRECISION unset): %.17g,
	 * ".0" where it would read as an integer, an exponent without "+"
	 * or leading zeros */
	n = snprintf(buf, sizeof(buf) - 2, "%.17g", v);
	if (n <= 0 || (size_t)n >= sizeof(buf) - 2) {
		fail(w, "a real that does not format");
		return;
	}
	exp = strchr(buf, 'e');
	if (!exp && !strchr(buf, '.')) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	} else if (exp) {
		char *digits = exp + 1, *from = digits;

		if (*digits == '-')
			digits++, from++;
		else if (*digits == '+')
			from++;
		while (*from == '0' && from[1])
			from++;
		memmove(digits, from, strlen(from) + 1);
		n = (int)strlen(buf);
	}
	if (stream_key(w, key))
		stream_status(w, yajl_gen_number(w->gen, buf, (size_t)n));
}

void rr_jw_bool(struct rr_jw *w, const char *key, bool v)
{
	if (w->failed)
		return;
	if (!w->gen)
		tree_put(w, key, json_boolean(v));
	else if (stream_key(w, key))
		stream_status(w, yajl_gen_bool(w->gen, v));
}

void rr_jw_null(struct rr_jw *w, const char *key)
{
	if (w->failed)
		return;
	if (!w->gen)
		tree_put(w, key, json_null());
	else if (stream_key(w, key))
		stream_status(w, yajl_gen_null(w->gen));
}

void rr_jw_str(struct rr_jw *w, const char *key, const char *s)
{
	if (w->failed)
		return;
	if (!s)
		rr_jw_null(w, key);
	else if (w->gen && stream_key(w, key))
		stream_string(w, s);
	else if (!w->gen && !rr_utf8_valid(s, strlen(s)))
		fail(w, "a string that is not UTF-8");	/* (json_string() would say NULL) */
	else if (!w->gen)
		tree_put(w, key, json_string(s));
}
