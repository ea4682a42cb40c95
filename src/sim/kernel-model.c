// SPDX-License-Identifier: GPL-2.0-only
#include "kernel-model.h"

#include <stdio.h>
#include <string.h>

bool rr_kernel_at_least(const struct rr_kernel_model *km, int major, int minor)
{
	return km->major > major || (km->major == major && km->minor >= minor);
}

int rr_kernel_model_init(struct rr_kernel_model *km, const char *release)
{
	int major, minor, sub, n = 0, m = 0;

	memset(km, 0, sizeof(*km));
	if (!release || strlen(release) >= sizeof(km->release) ||
	    sscanf(release, "%d.%d%n", &major, &minor, &n) != 2 ||
	    major < 4 || major > 99 || minor < 0 || minor > 999)
		return -1;
	km->major = major;
	km->minor = minor;
	km->sublevel = sscanf(release + n, ".%d%n", &sub, &m) == 1 && m > 1 && sub >= 0 ? sub : -1;
	snprintf(km->release, sizeof(km->release), "%s", release);
	km->denominator_plus_one = !rr_kernel_at_least(km, 5, 8);
	km->cost_fractions = rr_kernel_at_least(km, 5, 8);
	km->cost_rotations_x32 = rr_kernel_at_least(km, 6, 2);
	km->cost_zero_returns = rr_kernel_at_least(km, 6, 17);
	km->cut_one_more_round = rr_kernel_at_least(km, 6, 1);
	km->partial_walk = rr_kernel_at_least(km, 6, 11);
	km->full_walk_retry = km->partial_walk;
	km->limit_walk_stops = !rr_kernel_at_least(km, 5, 4);
	km->cache_trim_per_lruvec = !rr_kernel_at_least(km, 5, 5);
	km->swappiness_max = rr_kernel_at_least(km, 5, 8) ? 200 : 100;
	km->proactive_swappiness_key = rr_kernel_at_least(km, 6, 11);
	km->proactive_swappiness_max = rr_kernel_at_least(km, 6, 16);
	km->kswapd_progress_max = rr_kernel_at_least(km, 6, 11) ||
		(major == 6 && minor == 6 && km->sublevel >= 44);
	km->kswapd_cache_trim_retry = rr_kernel_at_least(km, 6, 10);
	return 0;
}
