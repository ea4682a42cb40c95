// SPDX-License-Identifier: GPL-2.0-only
/* Benchmark workload: touch MIB MiB of anonymous memory one write per page,
 * over and over, until killed.  Under a smaller memory limit with swap on,
 * every pass reclaims (swaps out) and faults back in, so the recorder sees
 * a steady stream of memcg reclaim episodes.  usage: anon-loop MIB */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 96;
	size_t len = mib << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile unsigned char *p = malloc(len);
	unsigned char pass = 1;

	if (!p) {
		perror("anon-loop: malloc");
		return 1;
	}
	for (;; pass++)
		for (size_t i = 0; i < len; i += page)
			p[i] = (unsigned char)(i / page) ^ pass;
	return 0;
}
