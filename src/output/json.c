// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON document of `compare -o FILE`, streamed.  Each episode object is
 * dumped into a scratch spool as soon as it is made, indented as it would
 * be inside the document, and freed; at the end the document's other keys
 * (input, policies, summary, fidelity: small, or one entry per cgroup) are
 * dumped around the spooled episodes into a temporary file beside FILE,
 * which is then renamed over it.  The bytes are those jansson would write
 * for the whole document at once (JSON_INDENT(2) | JSON_ENSURE_ASCII): an
 * element of the top-level "episodes" array sits at depth 2, so every line
 * of its own dump gets four more spaces.
 */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS (JSON_INDENT(2) | JSON_ENSURE_ASCII)
#define EPISODE_INDENT "    "
#define PLACEHOLDER "\n  \"episodes\": []"

struct rr_json_stream {
	struct rr_outfile *out;
	FILE *spool;
	uint64_t episodes;
	char *path;			/* -o's, for messages */
	char *dump, *indented;		/* reused for every episode */
	size_t dump_cap, indented_cap;
};

struct rr_json_stream *rr_json_stream_open(const char *path, const struct stat *protect,
					   struct rr_error *err)
{
	struct rr_json_stream *s = calloc(1, sizeof(*s));

	if (!s) {
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	s->path = strdup(path);
	s->out = s->path ? rr_outfile_open(path, protect, err) : NULL;
	if (!s->path)
		rr_error_set(err, path, "out of memory");
	if (s->out)
		s->spool = rr_outfile_spool(s->out, err);
	if (!s->spool) {
		rr_json_stream_abort(s);
		return NULL;
	}
	return s;
}

static int grow(char **buf, size_t *cap, size_t need)
{
	char *p;

	if (need <= *cap)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return -1;
	*buf = p;
	*cap = need;
	return 0;
}

/* Dump @episode into s->dump, then copy it to the spool with every line
 * after the first indented by EPISODE_INDENT. */
static int spool_episode(struct rr_json_stream *s, const json_t *episode)
{
	size_t n = json_dumpb(episode, s->dump, s->dump_cap, FLAGS), lines = 0, o = 0;
	const char *p, *end, *nl;

	if (!n)
		return -1;
	if (n > s->dump_cap) {
		if (grow(&s->dump, &s->dump_cap, n + n / 2))
			return -1;
		n = json_dumpb(episode, s->dump, s->dump_cap, FLAGS);
		if (!n || n > s->dump_cap)
			return -1;
	}
	for (p = s->dump, end = s->dump + n; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1)
		lines++;
	if (grow(&s->indented, &s->indented_cap, n + lines * (sizeof(EPISODE_INDENT) - 1) + 16))
		return -1;
	memcpy(s->indented, s->episodes ? ",\n" EPISODE_INDENT : "\n" EPISODE_INDENT,
	       sizeof(EPISODE_INDENT) + (s->episodes ? 1 : 0));
	o = sizeof(EPISODE_INDENT) + (s->episodes ? 1 : 0);
	for (p = s->dump; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		memcpy(s->indented + o, p, (size_t)(nl - p) + 1);
		o += (size_t)(nl - p) + 1;
		memcpy(s->indented + o, EPISODE_INDENT, sizeof(EPISODE_INDENT) - 1);
		o += sizeof(EPISODE_INDENT) - 1;
	}
	memcpy(s->indented + o, p, (size_t)(end - p));
	o += (size_t)(end - p);
	s->episodes++;
	return fwrite(s->indented, 1, o, s->spool) == o ? 0 : -1;
}

int rr_json_stream_episode(struct rr_json_stream *s, const json_t *episode,
			   struct rr_error *err)
{
	errno = 0;
	if (spool_episode(s, episode)) {
		rr_error_set(err, s->path, "cannot write its temporary spool: %s",
			     errno ? strerror(errno) : "out of memory");
		return -1;
	}
	return 0;
}

static int copy_spool(struct rr_json_stream *s, FILE *to)
{
	char buf[65536];
	size_t n;

	if (fflush(s->spool) || fseek(s->spool, 0, SEEK_SET))
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), s->spool)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(s->spool) ? -1 : 0;
}

int rr_json_stream_finish(struct rr_json_stream *s, json_t *doc, struct rr_error *err)
{
	FILE *f = rr_outfile_stream(s->out);
	char *text = json_dumps(doc, FLAGS);
	const char *at = text ? strstr(text, PLACEHOLDER) : NULL;
	int ret = -1;

	if (!at) {
		rr_error_set(err, s->path, "out of memory");
		goto out;
	}
	at += strlen(PLACEHOLDER) - 1;	/* at the "]" */
	if (fwrite(text, 1, (size_t)(at - text), f) != (size_t)(at - text) ||
	    (s->episodes && (copy_spool(s, f) || fputs("\n  ", f) == EOF)) ||
	    fputs(at, f) == EOF || fputc('\n', f) == EOF) {
		rr_error_set(err, s->path, "write failed: %s", strerror(errno));
		goto out;
	}
	ret = rr_outfile_commit(s->out, err);
	s->out = NULL;
out:
	free(text);
	rr_json_stream_abort(s);
	return ret;
}

int rr_write_json(const char *path, const json_t *doc, const struct stat *protect,
		  struct rr_error *err)
{
	char *text = json_dumps(doc, FLAGS);
	size_t len;
	int ret;

	if (!text) {
		rr_error_set(err, path, "out of memory");
		return -1;
	}
	len = strlen(text);
	text[len] = '\n';	/* (over the NUL: the length says where it ends) */
	ret = rr_write_file_atomic(path, text, len + 1, protect, err);
	free(text);
	return ret;
}

void rr_json_stream_abort(struct rr_json_stream *s)
{
	if (!s)
		return;
	if (s->spool)
		fclose(s->spool);
	rr_outfile_abort(s->out);
	free(s->dump);
	free(s->indented);
	free(s->path);
	free(s);
}
