// SPDX-License-Identifier: GPL-2.0-only
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Not a regular file (a FIFO, /dev/null, a terminal): write in place;
 * renaming over it would replace the device node. */
static int write_in_place(const char *path, const char *text, size_t len,
			  struct rr_error *err)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0) {
		rr_error_set(err, path, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	if (write_all(fd, text, len)) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd)) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* @path is a symlink to nothing: the file to create is its target, read
 * relative to the link's directory.  NULL (errno set) when it is not one. */
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

static int write_atomic(const char *path, const char *text, size_t len,
			const struct stat *protect, int depth, struct rr_error *err);

int rr_write_file_atomic(const char *path, const char *text, size_t len,
			 const struct stat *protect, struct rr_error *err)
{
	return write_atomic(path, text, len, protect, 0, err);
}

static int write_atomic(const char *path, const char *text, size_t len,
			const struct stat *protect, int depth, struct rr_error *err)
{
	char *tmp, *real = NULL;
	struct stat st;
	mode_t mask, mode;
	int fd, ret;

	if (!strcmp(path, "-")) {
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
			rr_error_set(err, "<stdout>", "write failed: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (protect && st.st_dev == protect->st_dev && st.st_ino == protect->st_ino) {
			rr_error_set(err, path, "is the input trace; refusing to overwrite it");
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			rr_error_set(err, path, "is a directory");
			return -1;
		}
		if (!S_ISREG(st.st_mode))
			return write_in_place(path, text, len, err);
		/* a symlink stays a symlink: replace what it points to */
		real = realpath(path, NULL);
		if (real && strcmp(real, path)) {
			ret = write_atomic(real, text, len, protect, depth + 1, err);
			free(real);
			return ret;
		}
		free(real);
	} else if (errno == ELOOP) {
		rr_error_set(err, path, "too many levels of symbolic links");
		return -1;
	} else if (errno == ENOENT && (real = dangling_target(path))) {
		/* a symlink to a file yet to be made: make that file, keep the link */
		if (depth >= 40) {
			free(real);
			rr_error_set(err, path, "too many levels of symbolic links");
			return -1;
		}
		ret = write_atomic(real, text, len, protect, depth + 1, err);
		free(real);
		return ret;
	}
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		rr_error_set(err, path, "out of memory");
		return -1;
	}
	mask = umask(0);
	umask(mask);
	mode = 0666 & ~mask;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		mode = st.st_mode & 07777;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rr_error_set(err, path, "cannot create: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	if (write_all(fd, text, len) || fsync(fd) || fchmod(fd, mode)) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (close(fd) || rename(tmp, path)) {
		rr_error_set(err, path, "cannot write: %s", strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
