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

int rr_write_file_atomic(const char *path, const char *text, size_t len,
			 const struct stat *protect, struct rr_error *err)
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
			ret = rr_write_file_atomic(real, text, len, protect, err);
			free(real);
			return ret;
		}
		free(real);
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
