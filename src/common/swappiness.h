/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Swappiness values shared by the markers, the recorder, the scenario
 * reader and the simulator: the range of vm.swappiness and of the
 * memory.reclaim "swappiness=" key, and the key's "max" (anon only).
 */
#ifndef RR_COMMON_SWAPPINESS_H
#define RR_COMMON_SWAPPINESS_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* MIN_SWAPPINESS, MAX_SWAPPINESS: include/linux/swap.h (since the
 * swappiness= series, 68cd9050d871's predecessor "mm: add defines for
 * min/max swappiness"); the sysctl's upper bound since v5.8 */
#define RR_MIN_SWAPPINESS 0
#define RR_MAX_SWAPPINESS 200

/* memory.reclaim "swappiness=max": reclaim anon only.  SWAPPINESS_ANON_ONLY,
 * MAX_SWAPPINESS + 1 in include/linux/swap.h ("mm: add swappiness=max arg
 * to memory.reclaim for only anon reclaim", Zhongkun He, ~v6.16) */
#define RR_SWAPPINESS_ANON_ONLY (RR_MAX_SWAPPINESS + 1)

/**
 * rr_swappiness_parse() - the value of a memory.reclaim "swappiness=" key
 * @s:   "0".."200" (decimal, no sign, no spaces) or "max".
 * @out: set to 0..200, or RR_SWAPPINESS_ANON_ONLY for "max".
 *
 * Mirrors the checks of memory_reclaim() (mm/memcontrol.c, 68cd9050d871;
 * user_proactive_reclaim() in mm/vmscan.c since ~v6.17): a value outside
 * MIN_SWAPPINESS..MAX_SWAPPINESS is refused, as the kernel refuses it with
 * -EINVAL.  Return: 0, or -1 when @s is anything else (@out untouched).
 */
static inline int rr_swappiness_parse(const char *s, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "max")) {
		*out = RR_SWAPPINESS_ANON_ONLY;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < RR_MIN_SWAPPINESS || v > RR_MAX_SWAPPINESS)
		return -1;
	*out = (int)v;
	return 0;
}

#endif
