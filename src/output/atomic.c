// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files that are either complete or absent.  Content goes to a
 * temporary file beside the target, which is fsync'ed and renamed over it
 * at the end (a regular file keeps its mode; a symlink stays and its
 * target is replaced).  A FIFO, a device or stdout cannot be renamed over:
 * their content is gathered in an unnamed scratch file and copied at the
 * end, so they too see nothing of a replay that fails.
 */
#include "output.h"

#include "../common/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rr_outfile {
	char *path;		/* as the user gave it, for messages */
	char *target;		/* the regular file to replace, or NULL */
	char *tmp;		/* its temporary sibling */
	bool to_stdout;		/* "-" */
	mode_t mode;
	FILE *f;		/* the content */
};

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* @path is a symlink to nothing: the file to create is its target, read
 * relative to the link's directory.  NULL when it is not one. */
static char *dangling_target(const char *path)
{
	char link[4096], *out = NULL;
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return NULL;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = 0;
	if (link[0] == '/') {
		out = strdup(link);
	} else {
		const char *slash = strrchr(path, '/');
		int dir = slash ? (int)(slash - path + 1) : 0;

		if (asprintf(&out, "%.*s%s", dir, path, link) < 0)
			out = NULL;
	}
	return out;
}

FILE *rr_scratch_file(const char *dir)
{
	const char *tmpdir = getenv("TMPDIR");
	char *name;
	FILE *f;
	int fd;

	if (!dir)
		dir = tmpdir && *tmpdir ? tmpdir : "/tmp";
	if (asprintf(&name, "%s/.reclaim-replay.XXXXXX", dir) < 0)
		return NULL;
	fd = mkstemp(name);
	if (fd >= 0)
		unlink(name);
	free(name);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

/* Where the content of @path goes: sets o->target to the regular file to
 * replace, or leaves it NULL for a file written in place. */
static int resolve(struct rr_outfile *o, const struct stat *protect, struct rr_error *err)
{
	char *path = strdup(o->path);
	bool path_error_set = false;	/* (@err may be NULL) */

	for (int depth = 0; path; depth++) {
		struct stat st;
		char *next;

		if (depth > 40) {
			rr_error_set(err, o->path, "too many levels of symbolic links");
			path_error_set = true;
			break;
		}
		if (stat(path, &st) == 0) {
			if (protect && st.st_dev == protect->st_dev && st.st_ino == protect->st_ino) {
				rr_error_set(err, o->path, "is the input trace; refusing to overwrite it");
				path_error_set = true;
				break;
			}
			if (S_ISDIR(st.st_mode)) {
				rr_error_set(err, o->path, "is a directory");
				path_error_set = true;
				break;
			}
			if (!S_ISREG(st.st_mode)) {
				free(path);
				return 0;	/* in place */
			}
			/* a symlink stays a symlink: replace what it points to */
			next = realpath(path, NULL);
			free(path);
			o->target = next ? next : strdup(o->path);
			o->mode = st.st_mode & 07777;
			if (!o->target)
				rr_error_set(err, o->path, "out of memory");
			return o->target ? 0 : -1;
		}
		if (errno == ELOOP) {
			rr_error_set(err, o->path, "too many levels of symbolic links");
			path_error_set = true;
			break;
		}
		/* a symlink to a file yet to be made: make that file, keep the link */
		next = errno == ENOENT ? dangling_target(path) : NULL;
		if (!next) {
			mode_t mask = umask(0);

			umask(mask);
			o->target = path;
			o->mode = 0666 & ~mask;
			return 0;
		}
		free(path);
		path = next;
	}
	free(path);
	if (!path_error_set)
		rr_error_set(err, o->path, "out of memory");
	return -1;
}

struct rr_outfile *rr_outfile_open(const char *path, const struct stat *protect,
				   struct rr_error *err)
{
	struct rr_outfile *o = calloc(1, sizeof(*o));

	if (err)
		err->msg[0] = 0;
	if (!o || !(o->path = strdup(path))) {
		free(o);
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	o->to_stdout = !strcmp(path, "-");
	if (!o->to_stdout && resolve(o, protect, err)) {
		rr_outfile_abort(o);
		return NULL;
	}
	if (o->target) {
		int fd;

		if (asprintf(&o->tmp, "%s.tmp.XXXXXX", o->target) < 0) {
			o->tmp = NULL;
			rr_error_set(err, path, "out of memory");
			rr_outfile_abort(o);
			return NULL;
		}
		/* (removed if a signal stops us; from before it exists) */
		rr_cleanup_add_path(o->tmp);
		fd = mkstemp(o->tmp);
		rr_cleanup_path_made(o->tmp);
		if (fd < 0) {
			rr_error_set(err, path, "cannot create: %s", strerror(errno));
			rr_cleanup_forget_path(o->tmp);
			free(o->tmp);
			o->tmp = NULL;
			rr_outfile_abort(o);
			return NULL;
		}
		o->f = fdopen(fd, "w+");
		if (!o->f)
			close(fd);
	} else {
		o->f = rr_scratch_file(NULL);
	}
	if (!o->f) {
		rr_error_set(err, path, "cannot create a temporary file: %s", strerror(errno));
		rr_outfile_abort(o);
		return NULL;
	}
	return o;
}

FILE *rr_outfile_stream(struct rr_outfile *o)
{
	return o->f;
}

FILE *rr_outfile_spool(struct rr_outfile *o, struct rr_error *err)
{
	char *dir = NULL;
	FILE *f;

	if (o->target) {
		const char *slash = strrchr(o->target, '/');

		dir = slash ? strndup(o->target, (size_t)(slash - o->target + 1)) : strdup(".");
	}
	f = rr_scratch_file(dir);
	free(dir);
	if (!f)
		rr_error_set(err, o->path, "cannot create a temporary file: %s", strerror(errno));
	return f;
}

/* Copy the scratch content to stdout or, in place, to a FIFO or device. */
static int copy_out(struct rr_outfile *o, struct rr_error *err)
{
	const char *who = o->to_stdout ? "<stdout>" : o->path;
	char buf[65536];
	int fd = o->to_stdout ? STDOUT_FILENO : open(o->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t n;
	int ret = 0;

	if (fd < 0) {
		rr_error_set(err, o->path, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	if (o->to_stdout)
		fflush(stdout);
	rewind(o->f);
	while (!ret && (n = fread(buf, 1, sizeof(buf), o->f)) > 0)
		if (write_all(fd, buf, n))
			ret = -1;
	if (ret || ferror(o->f)) {
		rr_error_set(err, who, "write failed: %s", strerror(errno));
		ret = -1;
	}
	if (!o->to_stdout && close(fd) && !ret) {
		rr_error_set(err, who, "write failed: %s", strerror(errno));
		ret = -1;
	}
	return ret;
}

bool rr_outfile_renames(const struct rr_outfile *o)
{
	return o && o->target;
}

int rr_outfile_commit(struct rr_outfile *o, struct rr_error *err)
{
	int ret = 0;

	if (fflush(o->f) || ferror(o->f)) {
		rr_error_set(err, o->to_stdout ? "<stdout>" : o->path, "write failed: %s",
			     strerror(errno));
		ret = -1;
	} else if (!o->target) {
		ret = copy_out(o, err);
	} else if (fsync(fileno(o->f)) || fchmod(fileno(o->f), o->mode)) {
		rr_error_set(err, o->path, "write failed: %s", strerror(errno));
		ret = -1;
	}
	if (fclose(o->f) && !ret) {
		rr_error_set(err, o->path, "write failed: %s", strerror(errno));
		ret = -1;
	}
	o->f = NULL;
	if (!ret && o->target && rename(o->tmp, o->target)) {
		rr_error_set(err, o->path, "cannot write: %s", strerror(errno));
		ret = -1;
	}
	if (!ret) {
		rr_cleanup_forget_path(o->tmp);
		free(o->tmp);	/* renamed: nothing to remove */
		o->tmp = NULL;
	}
	rr_outfile_abort(o);
	return ret;
}

void rr_outfile_abort(struct rr_outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		rr_cleanup_forget_path(o->tmp);
		free(o->tmp);
	}
	free(o->target);
	free(o->path);
	free(o);
}

int rr_write_file_atomic(const char *path, const char *text, size_t len,
			 const struct stat *protect, struct rr_error *err)
{
	struct rr_outfile *o;

	if (!strcmp(path, "-")) {	/* complete already: no scratch copy */
		fflush(stdout);
		if (write_all(STDOUT_FILENO, text, len)) {
			rr_error_set(err, "<stdout>", "write failed: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	o = rr_outfile_open(path, protect, err);
	if (!o)
		return -1;
	if (fwrite(text, 1, len, o->f) != len) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		rr_outfile_abort(o);
		return -1;
	}
	return rr_outfile_commit(o, err);
}
