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
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* TRACECMD_OPTION_UNAME of trace-cmd's option enum */
#define OPTION_UNAME 5

struct out {
	int fd;
	const char *path;
	struct rr_error *err;
	int failed;
};

static void put(struct out *o, const void *p, size_t len)
{
	const char *c = p;

	while (!o->failed && len) {
		ssize_t n = write(o->fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rr_error_set(o->err, o->path, "write failed: %s", strerror(errno));
			o->failed = 1;
			return;
		}
		c += n;
		len -= (size_t)n;
	}
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

int rr_tracedat_write(int fd, const char *tracing, const char *const *systems,
		      unsigned int page_size, int nr_cpus, const char *const *cpu_files,
		      const char *path, struct rr_error *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct out o = { fd, path, err, 0 };
	char p[1024], uname_str[400];
	uint64_t *sizes = calloc((size_t)nr_cpus, sizeof(*sizes));
	struct utsname u;
	uint16_t opt;
	uint32_t len32;
	off_t offsets_at, data_at;
	int nsys = 0;
	size_t len;
	char *buf;
	uint8_t b;

	if (!sizes) {
		rr_error_set(err, path, "out of memory");
		return -1;
	}
	put(&o, magic, sizeof(magic));
	put(&o, "6", 2);
	b = 0;				/* little endian */
	{
		uint16_t one = 1;

		b = *(uint8_t *)&one ? 0 : 1;
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

	/* offsets and sizes, then the page-aligned data */
	for (int c = 0; c < nr_cpus; c++) {
		struct stat st;

		if (stat(cpu_files[c], &st)) {
			rr_error_set(err, cpu_files[c], "cannot stat: %s", strerror(errno));
			free(sizes);
			return -1;
		}
		sizes[c] = (uint64_t)st.st_size;
	}
	offsets_at = lseek(fd, 0, SEEK_CUR);
	data_at = offsets_at + (off_t)nr_cpus * 16;
	for (int c = 0; c < nr_cpus; c++) {
		data_at = (data_at + page_size - 1) / page_size * page_size;
		put64(&o, (uint64_t)data_at);
		put64(&o, sizes[c]);
		data_at += (off_t)sizes[c];
	}
	for (int c = 0; c < nr_cpus && !o.failed; c++) {
		off_t here = lseek(fd, 0, SEEK_CUR);
		off_t aligned = (here + page_size - 1) / page_size * page_size;
		char zero[4096] = { 0 };
		int in;

		while (here < aligned) {
			size_t n = (size_t)(aligned - here) < sizeof(zero) ? (size_t)(aligned - here)
									  : sizeof(zero);

			put(&o, zero, n);
			here += (off_t)n;
		}
		in = open(cpu_files[c], O_RDONLY);
		if (in < 0) {
			rr_error_set(err, cpu_files[c], "cannot open: %s", strerror(errno));
			free(sizes);
			return -1;
		}
		for (;;) {
			char chunk[65536];
			ssize_t r = read(in, chunk, sizeof(chunk));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			put(&o, chunk, (size_t)r);
		}
		close(in);
	}
	free(sizes);
	return o.failed ? -1 : 0;
}
