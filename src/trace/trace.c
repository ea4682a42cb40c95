// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace stage's front door (trace.h): a file is sniffed (trace-cmd's
 * magic or text) and handed to its front end, dat.c or text.c; a pipe or
 * "-" is copied to a temporary file first, since both front ends read a
 * file twice (the trace.dat probe, the text pre-pass).  Both front ends
 * decode through decode.c and fill the one struct rr_trace_info.
 */
#include "trace.h"
#include "../common/cleanup.h"
#include "dat.h"
#include "decode.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rr_trace {
	char *path;			/* as the user named it */
	char *spool;			/* a copy of a pipe's data, removed at close */
	struct rr_text *text;		/* a text trace; else the trace.dat's */
	struct rr_dat *dat;
	struct rr_trace_info info;
};

/* 0: a trace.dat; 1: no trace-cmd magic (maybe a text trace); -1: error */
static int has_magic(const char *path, struct rr_error *err)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					       'c', 'i', 'n', 'g' };
	unsigned char buf[sizeof(magic)];
	struct stat st;
	ssize_t n;
	int fd;

	/* stat first: opening a FIFO would wait for a writer */
	if (stat(path, &st)) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		rr_error_set(err, path, "is a directory, not a trace file");
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		rr_error_set(err, path,
			     "not a regular file: a trace.dat is read with seeks; save it to a file first");
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(buf) || memcmp(buf, magic, sizeof(magic)))
		return 1;	/* not a trace.dat: maybe text */
	return 0;
}

/* @prev: the trace of the same file open before (a rewind), or NULL */
static struct rr_trace *open_file(const char *path, const struct rr_trace *prev,
				  struct rr_error *err)
{
	struct rr_trace *t;
	int magic = has_magic(path, err);

	if (magic < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup(path))) {
		rr_error_set(err, path, "out of memory");
		rr_trace_close(t);
		return NULL;
	}
	if (magic > 0) {
		t->info.format = RR_FORMAT_TEXT;
		t->text = rr_text_open(path, &t->info, err);
		if (!t->text) {
			rr_trace_close(t);
			return NULL;
		}
		return t;
	}
	t->dat = prev && prev->dat ? rr_dat_reopen(path, prev->dat, &t->info, err) :
		 rr_dat_open(path, &t->info, err);
	if (!t->dat) {
		rr_trace_close(t);
		return NULL;
	}
	return t;
}

const struct rr_trace_info *rr_trace_info(const struct rr_trace *trace)
{
	return &trace->info;
}

int rr_trace_progress(const struct rr_trace *trace)
{
	uint64_t done = __atomic_load_n(&trace->info.bytes_read, __ATOMIC_RELAXED);
	uint64_t size = trace->info.file_bytes;

	if (!size)
		return -1;
	return done >= size ? 1000 : (int)(done * 1000 / size);
}

int rr_trace_for_each(struct rr_trace *trace, rr_event_cb cb, void *ctx,
		      struct rr_error *err)
{
	int ret;

	trace->info.nr_skipped_events = 0;
	trace->info.malformed_events = 0;
	trace->info.no_format_records = 0;
	trace->info.first_malformed[0] = 0;
	trace->info.nr_field_problems = 0;
	trace->info.field_problems_other = 0;
	for (int i = 0; i < trace->info.nr_skipped_names; i++)
		trace->info.skipped[i].count = 0;
	if (trace->text)
		return rr_text_for_each(trace->text, &trace->info, cb, ctx, err);
	ret = rr_dat_for_each(trace->dat, &trace->info, cb, ctx);
	if (ret == RR_TRACE_READ_ERROR) {
		rr_error_set(err, trace->path, "cannot read the event data");
		return -1;
	}
	if (ret == RR_TRACE_OOM) {
		rr_error_set(err, trace->path, "out of memory");
		return -1;
	}
	return ret;
}

void rr_trace_close(struct rr_trace *t)
{
	if (!t)
		return;
	rr_dat_close(t->dat);
	rr_text_close(t->text);
	if (t->spool) {
		unlink(t->spool);
		rr_cleanup_forget_path(t->spool);
		free(t->spool);
	}
	free(t->path);
	free(t);
}

/* "-", a pipe, a FIFO, a character device: cannot be read twice or seeked */
static bool is_stream(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return true;
	return !stat(path, &st) && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
				    S_ISSOCK(st.st_mode));
}

/*
 * Copy a stream into an unnamed-looking temporary file.  A FIFO is opened
 * without blocking, so one that has no writer reads as empty at once
 * instead of waiting for a writer that may never come.
 */
static int spool(const char *path, char *out, size_t outsz, struct rr_error *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	int in, fd, ret = -1;
	ssize_t n;

	snprintf(out, outsz, "%s/reclaim-replay-input.XXXXXX", dir && *dir ? dir : "/tmp");
	if (!strcmp(path, "-")) {
		in = STDIN_FILENO;
	} else {
		in = open(path, O_RDONLY | O_NONBLOCK);
		if (in < 0) {
			rr_error_set(err, path, "cannot open: %s", strerror(errno));
			return -1;
		}
		fcntl(in, F_SETFL, fcntl(in, F_GETFL) & ~O_NONBLOCK);
	}
	rr_cleanup_add_path(out);	/* removed if a signal stops us */
	fd = mkstemp(out);
	rr_cleanup_path_made(out);
	if (fd < 0) {
		rr_error_set(err, path, "cannot make a temporary copy in %s: %s",
			     dir && *dir ? dir : "/tmp", strerror(errno));
		goto out;
	}
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rr_error_set(err, path, "read error: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			ret = 0;
			break;
		}
		if (write(fd, buf, (size_t)n) != n) {
			rr_error_set(err, path, "cannot copy the input to %s: %s", out,
				     strerror(errno));
			break;
		}
	}
	close(fd);
	if (ret)
		unlink(out);
out:
	if (ret)
		rr_cleanup_forget_path(out);
	if (in != STDIN_FILENO)
		close(in);
	return ret;
}

/* Make the next walk start at the first event again: libtracecmd walks a
 * handle once, so the file is opened anew (keeping the names). */
static int trace_rewind(struct rr_trace *t, struct rr_error *err)
{
	struct rr_trace *n, tmp;

	if (t->text)
		return 0;	/* each walk reads the file afresh */
	n = open_file(t->spool ? t->spool : t->path, t, err);
	if (!n) {
		if (err)
			snprintf(err->file, sizeof(err->file), "%s", t->path);
		return -1;
	}
	/* keep the names, take the fresh handles */
	tmp = *t;
	*t = *n;
	*n = tmp;
	free(t->path);		/* the fresh open's copy of the name */
	t->path = n->path;
	t->spool = n->spool;
	n->path = NULL;
	n->spool = NULL;
	rr_trace_close(n);
	return 0;
}

struct meta_scan {
	struct rr_trace_info info;
	unsigned int events;
};

/* Stop at the `record` meta marker, or after the first thousand events. */
static int meta_cb(const struct rr_event *ev, void *ctx)
{
	struct meta_scan *ms = ctx;

	if (++ms->events > 1000)
		return 1;
	if (ev->type == RR_EV_MARKER && ev->str) {
		rr_trace_info_meta(&ms->info, ev->str, (size_t)ev->str_len);
		if (ms->info.kernel_release[0])
			return 1;
	}
	return 0;
}

/*
 * The recorder's meta marker comes first: what the replay needs before
 * the walk (the release, where a trace.dat lacks the uname, e.g. after
 * `trace-cmd split`; the policy a patched recording kernel ran) is read
 * from it, then the walk starts afresh.  (A text trace's first pass
 * reads it.)
 */
static int dat_release_from_meta(struct rr_trace *t, struct rr_error *err)
{
	struct meta_scan ms;

	if (t->text)
		return 0;
	memset(&ms, 0, sizeof(ms));
	if (rr_trace_for_each(t, meta_cb, &ms, err) < 0 || trace_rewind(t, err))
		return -1;
	if (!t->info.uname[0])
		memcpy(t->info.kernel_release, ms.info.kernel_release,
		       sizeof(t->info.kernel_release));
	memcpy(t->info.kernel_policy, ms.info.kernel_policy, sizeof(t->info.kernel_policy));
	return 0;
}

struct rr_trace *rr_trace_open(const char *path, struct rr_error *err)
{
	char tmp[4096];
	struct rr_trace *t;

	if (!is_stream(path)) {
		t = open_file(path, NULL, err);
		if (t && dat_release_from_meta(t, err)) {
			rr_trace_close(t);
			return NULL;
		}
		return t;
	}
	if (spool(path, tmp, sizeof(tmp), err))
		return NULL;
	t = open_file(tmp, NULL, err);
	if (!t) {
		unlink(tmp);
		rr_cleanup_forget_path(tmp);
		if (err)	/* name what the user gave, not the copy */
			snprintf(err->file, sizeof(err->file), "%s", path);
		return NULL;
	}
	free(t->path);
	t->path = strdup(path);
	t->spool = strdup(tmp);
	if (t->spool)
		rr_cleanup_add_path(t->spool);
	else
		unlink(tmp);
	rr_cleanup_forget_path(tmp);
	if (!t->path || !t->spool) {
		rr_error_set(err, path, "out of memory");
		rr_trace_close(t);
		return NULL;
	}
	if (t->text)
		rr_text_set_name(t->text, path);
	if (dat_release_from_meta(t, err)) {
		rr_trace_close(t);
		return NULL;
	}
	return t;
}
