// SPDX-License-Identifier: GPL-2.0-only
/* Names of the LRU lists and of the reclaim kinds. */
#include "lru.h"
#include "reclaim-kind.h"

const char *const rr_lru_names[RR_NR_LRU] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

const char *rr_lru_name(int lru)
{
	return lru >= 0 && lru < RR_NR_LRU ? rr_lru_names[lru] : "unknown";
}

static const char *const kind_names[RR_KIND__COUNT] = {
	[RR_KIND_MEMCG] = "memcg",
	[RR_KIND_SOFTLIMIT] = "softlimit",
	[RR_KIND_DIRECT] = "direct",
	[RR_KIND_KSWAPD] = "kswapd",
	[RR_KIND_NODE] = "node",
	[RR_KIND_PROACTIVE] = "proactive",
	[RR_KIND_UNKNOWN] = "unknown",
};

const char *rr_reclaim_kind_name(enum rr_reclaim_kind kind)
{
	return (unsigned int)kind < RR_KIND__COUNT ? kind_names[kind] : "unknown";
}
