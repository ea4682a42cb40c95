// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat v6 writer; layout from man 5 trace-cmd.dat.v6.  All numbers
 * are written in host byte order, which the file's endianness flag names.
 */
#include "tracedat.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

/* TRACECMD_OPTION_UNAME of trace-cmd's option enum */
#define OPTION_UNAME 5

/* The headers are built in memory: their size decides what data fits. */
struct out {
	char *buf;
	size_t len, cap;
	const char *path;
	struct rr_error *err;
	int failed;
};

static void put(struct out *o, const void *p, size_t len)
{
	if (o->failed || !len)
		return;
	if (o->len + len > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		char *nb;

		while (cap < o->len + len)
			cap *= 2;
		nb = realloc(o->buf, cap);
		if (!nb) {
			rr_error_set(o->err, o->path, "out of memory");
			o->failed = 1;
			return;
		}
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, p, len);
	o->len += len;
}

/* All of @len bytes at @off, or -1 with errno. */
static int pwrite_all(int fd, const void *p, size_t len, off_t off)
{
	const char *c = p;

	while (len) {
		ssize_t n = pwrite(fd, c, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
		c += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

static int pread_all(int fd, void *p, size_t len, off_t off)
{
	char *c = p;

	while (len) {
		ssize_t n = pread(fd, c, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;	/* the file shrank under us */
			return -1;
		}
		c += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

static void put32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put64(struct out *o, uint64_t v) { put(o, &v, 8); }

/* Whole content of a tracefs or procfs file (their st_size is 0). */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

/* "<8-byte size><content>" of one file */
static void put_file64(struct out *o, const char *path)
{
	size_t len = 0;
	char *buf = slurp(path, &len);

	if (!buf) {
		rr_error_set(o->err, path, "cannot read: %s", strerror(errno));
		o->failed = 1;
		return;
	}
	put64(o, len);
	put(o, buf, len);
	free(buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The event directories of a system (those with a format file), sorted. */
static char **events_of(const char *sysdir, int *n)
{
	DIR *d = opendir(sysdir);
	char **names = NULL, path[1400];
	struct dirent *de;
	int cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", sysdir, de->d_name);
		if (access(path, R_OK))
			continue;
		if (*n == cap) {
			char **nn = realloc(names, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
		}
		names[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	if (names)
		qsort(names, (size_t)*n, sizeof(*names), cmp_str);
	return names;
}

static void put_system(struct out *o, const char *tracing, const char *sys, bool with_name)
{
	char sysdir[1024], path[1400];
	int n;
	char **names;

	snprintf(sysdir, sizeof(sysdir), "%s/events/%s", tracing, sys);
	names = events_of(sysdir, &n);
	if (with_name)
		put(o, sys, strlen(sys) + 1);
	put32(o, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/format", sysdir, names[i]);
		put_file64(o, path);
		free(names[i]);
	}
	free(names);
}

/* Where each CPU's data goes after @head bytes of headers and the offset
 * table; returns the end of the file. */
static off_t layout(off_t head, unsigned int page_size, int nr_cpus, const uint64_t *sizes,
		    off_t *at)
{
	off_t end = head;

	for (int c = 0; c < nr_cpus; c++) {
		end = (end + page_size - 1) / page_size * page_size;
		at[c] = end;
		end += (off_t)sizes[c];
	}
	return end;
}

/* The time stamp of the last page of @fd (of @size bytes), from its page
 * header (u64 time stamp, then the commit word). */
static uint64_t last_page_ts(int fd, uint64_t size, unsigned int page_size)
{
	uint64_t ts = 0;

	if (size < page_size || pread_all(fd, &ts, sizeof(ts), (off_t)(size - page_size)))
		return 0;
	return ts;
}

/*
 * Drop the newest pages, across the CPUs by their time stamps, until the
 * trace and @margin fit in @room bytes and the trace is at most @max_size
 * bytes; returns the bytes dropped, or -1 when not even the headers fit.
 */
static int64_t fit(const int *cpu_fds, uint64_t *sizes, int nr_cpus, unsigned int page_size,
		   off_t head, off_t *at, uint64_t margin, uint64_t room, uint64_t max_size)
{
	uint64_t *ts = calloc((size_t)nr_cpus, sizeof(*ts));
	int64_t dropped = 0;

	if (!ts)
		return -1;
	for (int c = 0; c < nr_cpus; c++)
		ts[c] = last_page_ts(cpu_fds[c], sizes[c], page_size);
	for (;;) {
		uint64_t end = (uint64_t)layout(head, page_size, nr_cpus, sizes, at);
		int newest = -1;

		if (end + margin <= room && end <= max_size)
			break;

		for (int c = 0; c < nr_cpus; c++)
			if (sizes[c] && (newest < 0 || ts[c] > ts[newest]))
				newest = c;
		if (newest < 0) {
			free(ts);
			return -1;
		}
		sizes[newest] -= page_size;
		dropped += page_size;
		ts[newest] = last_page_ts(cpu_fds[newest], sizes[newest], page_size);
	}
	free(ts);
	return dropped;
}

int rr_tracedat_write(int fd, const char *tracing, const char *const *systems,
		      unsigned int page_size, int nr_cpus, const int *cpu_fds,
		      const char *path, uint64_t *dropped, struct rr_error *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	enum { CHUNK = 1 << 16 };
	struct out o = { NULL, 0, 0, path, err, 0 };
	char p[1024], uname_str[400];
	uint64_t *sizes = calloc((size_t)nr_cpus, sizeof(*sizes));
	off_t *at = calloc((size_t)nr_cpus, sizeof(*at));
	uint64_t room, margin, reclaimable = 0;
	char *chunk = malloc(CHUNK);
	struct statvfs sv;
	struct rlimit fsize;
	struct stat ost;
	struct utsname u;
	int64_t cut;
	off_t end;
	uint16_t opt;
	uint32_t len32;
	int nsys = 0, ret = -1;
	size_t len;
	char *buf;
	uint8_t b;

	*dropped = 0;
	if (!sizes || !at || !chunk) {
		rr_error_set(err, path, "out of memory");
		goto out;
	}
	put(&o, magic, sizeof(magic));
	put(&o, "6", 2);
	{
		uint16_t one = 1;

		b = *(uint8_t *)&one ? 0 : 1;	/* 0: little endian */
	}
	put(&o, &b, 1);
	b = (uint8_t)sizeof(long);
	put(&o, &b, 1);
	put32(&o, page_size);

	put(&o, "header_page", 12);
	snprintf(p, sizeof(p), "%s/events/header_page", tracing);
	put_file64(&o, p);
	put(&o, "header_event", 13);
	snprintf(p, sizeof(p), "%s/events/header_event", tracing);
	put_file64(&o, p);

	put_system(&o, tracing, "ftrace", false);
	while (systems[nsys])
		nsys++;
	put32(&o, (uint32_t)nsys);
	for (int i = 0; i < nsys; i++)
		put_system(&o, tracing, systems[i], true);

	put32(&o, 0);			/* kallsyms: not stored (size 0) */
	snprintf(p, sizeof(p), "%s/printk_formats", tracing);
	buf = slurp(p, &len);
	len32 = buf ? (uint32_t)len : 0;
	put32(&o, len32);
	put(&o, buf ? buf : "", len32);
	free(buf);
	snprintf(p, sizeof(p), "%s/saved_cmdlines", tracing);
	buf = slurp(p, &len);
	put64(&o, buf ? len : 0);
	put(&o, buf ? buf : "", buf ? len : 0);
	free(buf);

	put32(&o, (uint32_t)nr_cpus);
	put(&o, "options  ", 10);
	if (!uname(&u)) {
		snprintf(uname_str, sizeof(uname_str), "%s %s %s %s", u.sysname, u.nodename,
			 u.release, u.machine);
		opt = OPTION_UNAME;
		put(&o, &opt, 2);
		put32(&o, (uint32_t)strlen(uname_str) + 1);
		put(&o, uname_str, strlen(uname_str) + 1);
	}
	opt = 0;
	put(&o, &opt, 2);
	put(&o, "flyrecord", 10);
	if (o.failed)
		goto out;

	/* whole pages only: a write cut short by a full disk leaves a part */
	for (int c = 0; c < nr_cpus; c++) {
		struct stat st;

		if (fstat(cpu_fds[c], &st)) {
			rr_error_set(err, path, "cannot stat the data of CPU %d: %s", c, strerror(errno));
			goto out;
		}
		sizes[c] = (uint64_t)st.st_size / page_size * page_size;
		if (fstat(fd, &ost) == 0 && st.st_dev == ost.st_dev)
			reclaimable += (uint64_t)st.st_blocks * 512;
	}
	/*
	 * The data moves from the end of each CPU's file into the trace a
	 * chunk at a time, each chunk's file truncated once it is copied: the
	 * trace needs the room of its headers and one chunk beyond the data's
	 * own (on the same file system), not twice the data.  When even that
	 * is not free, the newest pages are left out.
	 */
	if (fstatvfs(fd, &sv)) {
		rr_error_set(err, path, "cannot read the free space: %s", strerror(errno));
		goto out;
	}
	room = (uint64_t)sv.f_bavail * sv.f_frsize + reclaimable;
	/* a file size limit (ulimit -f) caps the trace as well */
	if (getrlimit(RLIMIT_FSIZE, &fsize) || fsize.rlim_cur == RLIM_INFINITY)
		fsize.rlim_cur = UINT64_MAX;
	margin = CHUNK + (uint64_t)(nr_cpus + 8) * (sv.f_frsize > page_size ? sv.f_frsize : page_size);
	cut = fit(cpu_fds, sizes, nr_cpus, page_size, (off_t)o.len + (off_t)nr_cpus * 16, at,
		  margin, room, (uint64_t)fsize.rlim_cur);
	if (cut < 0) {
		errno = ENOSPC;
		rr_error_set(err, path, "no room for even the trace's %zu bytes of headers: %s",
			     o.len, strerror(ENOSPC));
		goto out;
	}
	*dropped = (uint64_t)cut;
	for (int c = 0; c < nr_cpus; c++)
		if (ftruncate(cpu_fds[c], (off_t)sizes[c])) {
			rr_error_set(err, path, "cannot cut the data of CPU %d: %s", c, strerror(errno));
			goto out;
		}
	end = layout((off_t)o.len + (off_t)nr_cpus * 16, page_size, nr_cpus, sizes, at);
	for (int c = 0; c < nr_cpus; c++) {
		put64(&o, (uint64_t)at[c]);
		put64(&o, sizes[c]);
	}
	if (o.failed)
		goto out;
	if (pwrite_all(fd, o.buf, o.len, 0)) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		goto out;
	}
	for (int c = 0; c < nr_cpus; c++) {
		uint64_t left = sizes[c];

		while (left) {
			size_t n = left % CHUNK ? left % CHUNK : CHUNK;

			if (pread_all(cpu_fds[c], chunk, n, (off_t)(left - n))) {
				rr_error_set(err, path, "cannot read the data of CPU %d: %s", c,
					     strerror(errno));
				goto out;
			}
			if (pwrite_all(fd, chunk, n, at[c] + (off_t)(left - n))) {
				rr_error_set(err, path, "write failed: %s", strerror(errno));
				goto out;
			}
			left -= n;
			if (ftruncate(cpu_fds[c], (off_t)left)) {
				rr_error_set(err, path, "cannot cut the data of CPU %d: %s", c,
					     strerror(errno));
				goto out;
			}
		}
	}
	/* the file ends where the last CPU's data does (a hole if it has none) */
	if (ftruncate(fd, end)) {
		rr_error_set(err, path, "write failed: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(o.buf);
	free(chunk);
	free(sizes);
	free(at);
	return ret;
}
