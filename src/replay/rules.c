// SPDX-License-Identifier: GPL-2.0-only
/* The releases where the model's rules change (rules.h). */
#include "rules.h"

#include <stdio.h>

static const struct rr_rule_change changes[] = {
	{ 420, "SCAN_FRACT rounds up for every memcg (68600f623d69)" },
	{ 504, "a full memcg walk every pass: limit reclaim no longer stops at its goal, no "
	       "shared position (1ba6fc9af35b)" },
	{ 505, "cache trim and the anon/file balance decided at the reclaim root, not per "
	       "lruvec (b91ac374346b)" },
	{ 506, "SCAN_FRACT rounds down for online memcgs (76073c646f5f)" },
	{ 508, "anon/file fractions from reclaim costs, swappiness up to 200 (a4fe1631f313)" },
	{ 514, "memory.low scaling outside the low-reclaim retry (f56ce412a59d)" },
	{ 515, "memory.min/low divide by usage + 1 (32d4f4b782bb)" },
	{ 519, "memory.reclaim exists (94968384dde1)" },
	{ 601, "shrink_lruvec() runs one round after its proportional cut (f53af4285d77)" },
	{ 602, "reclaim cost counts write-outs x 32 plus rotations" },
	{ 606, "memory.reclaim chunks of min(remainder, 32) (0388536ac291); 6.6.44+: "
	       "kswapd's progress max(scanned, reclaimed)" },
	{ 609, "memory.reclaim chunks of remainder / 4 (287d5fedb377)" },
	{ 610, "kswapd retries its priority ladder without cache-trim mode" },
	{ 611, "partial memcg walk, shared cursor, full-walk retry; memory.reclaim "
	       "swappiness=; kswapd's progress max(scanned, reclaimed)" },
	{ 616, "memory.reclaim swappiness=max" },
	{ 617, "a zero-cost note returns early" },
};

size_t rr_rule_changes(int lo, int hi, const struct rr_rule_change **out)
{
	size_t first = 0, n = 0;

	*out = NULL;
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		if (changes[i].release <= lo || changes[i].release > hi)
			continue;
		if (!n++)
			first = i;
	}
	if (n)
		*out = &changes[first];
	return n;
}

void rr_release_name(int release, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", release / 100, release % 100);
}
