// SPDX-License-Identifier: GPL-2.0-only
/* Workload for traces/make-traces.sh: touch MIB MiB of anonymous memory,
 * one write per page, then exit.  usage: anon MIB */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	size_t len = mib << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile unsigned char *p = malloc(len);

	if (!p) {
		perror("anon: malloc");
		return 1;
	}
	for (size_t i = 0; i < len; i += page)
		p[i] = (unsigned char)(i / page) | 1;
	return 0;
}
