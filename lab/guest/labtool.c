// SPDX-License-Identifier: GPL-2.0-only
/*
 * labtool: the kernel lab's workload helper, run inside the QEMU guest (it
 * is built on the host and read over the 9p root; see lab/README and
 * docs/lab.md).  One program, three jobs:
 *
 *   labtool hog MIB [PASSES|hold] [thp]
 *	Touch MIB MiB of anonymous memory one write per page, PASSES times
 *	(default 1), then exit; with "hold", touch it once and sleep until
 *	SIGTERM or SIGINT (the memory stays charged to our memcg).  "thp"
 *	asks for transparent huge pages (MADV_HUGEPAGE) on a 2 MiB-aligned
 *	mapping.  In "hold", "ready" on standard output says the memory is
 *	touched.  Exit 0; 1 if the memory cannot be mapped.
 *
 *   labtool reclaim CGROUP-DIR BYTES
 *	Write BYTES to CGROUP-DIR/memory.reclaim once and print one line,
 *	  write cgroup=DIR bytes=N start_ns=T0 end_ns=T1 result=ok|error
 *	        errno=E current_before_bytes=B current_after_bytes=A
 *	with CLOCK_MONOTONIC times around the write(2) alone and the
 *	cgroup's memory.current before and after.  Exit 0 whether the kernel
 *	took the write or not (the line says); 1 if the file cannot be opened.
 *
 *   labtool poweroff
 *	sync(2) and reboot(RB_POWER_OFF): the guest's init ends with it (a
 *	systemd host's poweroff(8) needs systemd).  Does not return.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int hog(int argc, char **argv)
{
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;
	size_t len = mib << 20, page = (size_t)sysconf(_SC_PAGESIZE), huge = 2u << 20;
	unsigned long passes = 1;
	int hold = 0, thp = 0;
	unsigned char *map, *p;

	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "hold"))
			hold = 1;
		else if (!strcmp(argv[i], "thp"))
			thp = 1;
		else
			passes = strtoul(argv[i], NULL, 0);
	}
	if (!len || !passes) {
		fprintf(stderr, "labtool hog: usage: labtool hog MIB [PASSES|hold] [thp]\n");
		return 2;
	}
	map = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("labtool hog: mmap");
		return 1;
	}
	p = (unsigned char *)(((uintptr_t)map + huge - 1) & ~(uintptr_t)(huge - 1));
	if (thp && madvise(p, len, MADV_HUGEPAGE))
		perror("labtool hog: madvise(MADV_HUGEPAGE)");
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (unsigned long pass = 1; pass <= (hold ? 1 : passes) && !stop; pass++)
		for (size_t i = 0; i < len && !stop; i += page)
			((volatile unsigned char *)p)[i] = (unsigned char)((i / page) ^ pass) | 1;
	if (hold) {
		/* the caller waits for this line: the memory is charged */
		printf("ready\n");
		fflush(stdout);
	}
	while (hold && !stop)
		pause();
	return 0;
}

static long long read_ll(const char *dir, const char *name)
{
	char path[4096], buf[64];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int reclaim(int argc, char **argv)
{
	char path[4096];
	long long before, after;
	uint64_t t0, t1;
	ssize_t n;
	int fd, err;

	if (argc != 4) {
		fprintf(stderr, "labtool reclaim: usage: labtool reclaim CGROUP-DIR BYTES\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/memory.reclaim", argv[2]);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "labtool reclaim: %s: %s\n", path, strerror(errno));
		return 1;
	}
	before = read_ll(argv[2], "memory.current");
	t0 = now_ns();
	n = write(fd, argv[3], strlen(argv[3]));
	err = n < 0 ? errno : 0;
	t1 = now_ns();
	close(fd);
	after = read_ll(argv[2], "memory.current");
	printf("write cgroup=%s bytes=%s start_ns=%llu end_ns=%llu result=%s errno=%d"
	       " current_before_bytes=%lld current_after_bytes=%lld\n",
	       argv[2], argv[3], (unsigned long long)t0, (unsigned long long)t1,
	       n < 0 ? "error" : "ok", err, before, after);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "hog"))
		return hog(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "reclaim"))
		return reclaim(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "poweroff")) {
		sync();
		reboot(RB_POWER_OFF);
		perror("labtool poweroff: reboot");
		return 1;
	}
	fprintf(stderr, "usage: labtool hog MIB [PASSES|hold] [thp] | reclaim CGROUP-DIR BYTES | poweroff\n");
	return 2;
}
