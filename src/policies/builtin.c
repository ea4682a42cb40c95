// SPDX-License-Identifier: GPL-2.0-only
/*
 * The built-in policies.  They use the public plug-in ABI
 * (include/reclaim-replay/policy.h) exactly as a loadable .so would.
 *
 * "kernel" is the model of the recording kernel: its hooks pick the rule of
 * the release given as "release=MAJOR.MINOR" at init.  The others each
 * override one hook, as the patches of the seed threads do, except
 * "original", which overrides both: it is roundup-all + whole-remainder
 * (docs/kernel-model.md §16).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <reclaim-replay/policy.h>

#include "policies.h"

/* ---- get_scan_count() SCAN_FRACT rounding ---- */

/* floor for every memcg: <= v4.19, div64_u64() */
static int round_floor(const struct rr_scan_fract_args *a, uint64_t *out)
{
	*out = rr_div_floor(a->scan_pages * a->fraction, a->denominator);
	return 0;
}

/* 68600f623d69 "mm: don't miss the last page because of round-off error"
 * (v4.20 - v5.6-rc2): ceil for every memcg; the "roundup-all" policy and
 * the rounding half of "original" */
static int roundup_all_scan_fract(void *priv, const struct rr_scan_fract_args *a,
				  uint64_t *out)
{
	(void)priv;
	*out = rr_div_round_up(a->scan_pages * a->fraction, a->denominator);
	return 0;
}

/* 76073c646f5f "mm/vmscan.c: don't round up scan size for online memory
 * cgroup": ceil only when mem_cgroup_online() is false. */
static int online_roundup_scan_fract(void *priv,
				     const struct rr_scan_fract_args *a,
				     uint64_t *out)
{
	(void)priv;
	if (a->memcg_online)
		return round_floor(a, out);
	*out = rr_div_round_up(a->scan_pages * a->fraction, a->denominator);
	return 0;
}

/* ---- memory.reclaim chunk per try_to_free_mem_cgroup_pages() call ---- */

static uint64_t remaining(const struct rr_proactive_chunk_args *a)
{
	return a->nr_requested_pages - a->nr_reclaimed_pages;
}

/* 94968384dde1 (v5.19 - v6.5): the whole remainder */
static int remainder_chunk(const struct rr_proactive_chunk_args *a, uint64_t *out)
{
	*out = remaining(a);
	return 0;
}

/* 0388536ac291 "mm:vmscan: fix inaccurate reclaim during proactive reclaim" */
static int cluster_cap_chunk(void *priv, const struct rr_proactive_chunk_args *a,
			     uint64_t *out)
{
	uint64_t r = remaining(a);

	(void)priv;
	*out = r < RR_SWAP_CLUSTER_MAX ? r : RR_SWAP_CLUSTER_MAX;
	return 0;
}

/* 287d5fedb377 "mm: memcg: use larger batches for proactive reclaim" */
static int proportional_chunk(void *priv, const struct rr_proactive_chunk_args *a,
			      uint64_t *out)
{
	(void)priv;
	*out = remaining(a) / 4;
	return 0;
}

/* T.J. Mercier's first posting of 287d5fedb377 (v1,
 * 20240131162442.3487473-1-tjmercier@google.com): max(r / 4, r % 4).
 * Johannes Weiner's review: the % 4 term only matters below 4 pages, where
 * try_to_free_mem_cgroup_pages() floors the request to 32 anyway. */
static int proportional_v1_chunk(void *priv, const struct rr_proactive_chunk_args *a,
				 uint64_t *out)
{
	uint64_t r = remaining(a);

	(void)priv;
	*out = r / 4 > r % 4 ? r / 4 : r % 4;
	return 0;
}

/* ---- kernel: pick by release ---- */

/* The release comes from the host context (ABI v2). */
static int kernel_init(const struct rr_host *host, const char *params, void **priv)
{
	struct rr_kernel_policy_state *st;

	if (params) {
		host->set_error(host, "policy 'kernel' takes no parameters");
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	if (rr_kernel_model_init(&st->km, host->kernel_release)) {
		host->set_error(host, "no model of kernel release '%s'", host->kernel_release);
		free(st);
		return -EINVAL;
	}
	*priv = st;
	return 0;
}

static void kernel_fini(void *priv)
{
	free(priv);
}

static int kernel_scan_fract(void *priv, const struct rr_scan_fract_args *a,
			     uint64_t *out)
{
	const struct rr_kernel_policy_state *st = priv;

	/* the release's rule: src/release/linux-4.c, linux-5.c */
	if (st->km.scan_fract_rounding == RR_ROUND_UP_OFFLINE)
		return online_roundup_scan_fract(NULL, a, out);
	if (st->km.scan_fract_rounding == RR_ROUND_UP_ALL)
		return roundup_all_scan_fract(NULL, a, out);
	return round_floor(a, out);
}

static int kernel_chunk(void *priv, const struct rr_proactive_chunk_args *a,
			uint64_t *out)
{
	const struct rr_kernel_policy_state *st = priv;

	/* the release's rule: src/release/linux-6.c (before v5.19 there is no
	 * memory.reclaim; the remainder rule is the only one that existed at
	 * its introduction) */
	if (st->km.proactive_chunk == RR_CHUNK_QUARTER)
		return proportional_chunk(NULL, a, out);
	if (st->km.proactive_chunk == RR_CHUNK_CLUSTER_CAP)
		return cluster_cap_chunk(NULL, a, out);
	return remainder_chunk(a, out);
}

static const struct rr_policy kernel_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "kernel",
	.base = NULL,
	.summary = "the recording kernel's own rules, chosen by its release",
	.kernel_ref = "get_scan_count() and memory_reclaim() of the traced release",
	.init_host = kernel_init,
	.fini = kernel_fini,
	.scan_fract_target = kernel_scan_fract,
	.proactive_chunk = kernel_chunk,
};

/* 94968384dde1 (v5.19 - v6.5): the whole remainder, as a hook; the
 * "whole-remainder" policy and the chunk half of "original" */
static int whole_remainder_chunk(void *priv, const struct rr_proactive_chunk_args *a,
				 uint64_t *out)
{
	(void)priv;
	return remainder_chunk(a, out);
}

static const struct rr_policy roundup_all_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "roundup-all",
	.base = "kernel",
	.summary = "round SCAN_FRACT targets up for every memcg",
	.kernel_ref = "get_scan_count(), 68600f623d69",
	.scan_fract_target = roundup_all_scan_fract,
};

static const struct rr_policy whole_remainder_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "whole-remainder",
	.base = "kernel",
	.summary = "memory.reclaim asks for the whole remainder in each call",
	.kernel_ref = "memory_reclaim(), 94968384dde1",
	.proactive_chunk = whole_remainder_chunk,
};

/*
 * "original" is the counterfactual of both seed threads: roundup-all +
 * whole-remainder, the two halves' own hooks in one table (not a '+'
 * composition, so its name and the "decided by" of each hook stay
 * "original").  No released kernel combined the two (docs/kernel-model.md
 * §16).
 */
static const struct rr_policy original_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "original",
	.base = "kernel",
	.summary = "roundup-all + whole-remainder: SCAN_FRACT rounded up for every memcg; memory.reclaim asks for the whole remainder",
	.kernel_ref = "get_scan_count(), 68600f623d69; memory_reclaim(), 94968384dde1",
	.scan_fract_target = roundup_all_scan_fract,
	.proactive_chunk = whole_remainder_chunk,
};

static const struct rr_policy online_roundup_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "online-roundup",
	.base = "kernel",
	.summary = "round SCAN_FRACT targets up only for offline memcgs",
	.kernel_ref = "get_scan_count(), 76073c646f5f",
	.scan_fract_target = online_roundup_scan_fract,
};

static const struct rr_policy cluster_cap_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "cluster-cap",
	.base = "kernel",
	.summary = "memory.reclaim chunk = min(remaining, SWAP_CLUSTER_MAX) pages",
	.kernel_ref = "memory_reclaim(), 0388536ac291",
	.proactive_chunk = cluster_cap_chunk,
};

static const struct rr_policy proportional_v1_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "proportional-v1",
	.base = "kernel",
	.summary = "memory.reclaim chunk = max(remaining / 4, remaining % 4) pages (first posting)",
	.kernel_ref = "memory_reclaim(), 287d5fedb377 v1 posting",
	.proactive_chunk = proportional_v1_chunk,
};

static const struct rr_policy proportional_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "proportional",
	.base = "kernel",
	.summary = "memory.reclaim chunk = remaining / 4 pages",
	.kernel_ref = "memory_reclaim(), 287d5fedb377",
	.proactive_chunk = proportional_chunk,
};

const struct rr_policy *const rr_builtin_policies[] = {
	&kernel_policy,
	&original_policy,
	&roundup_all_policy,
	&whole_remainder_policy,
	&online_roundup_policy,
	&cluster_cap_policy,
	&proportional_policy,
	&proportional_v1_policy,
	NULL,
};

const struct rr_policy *rr_builtin_find(const char *name)
{
	for (int i = 0; rr_builtin_policies[i]; i++)
		if (!strcmp(rr_builtin_policies[i]->name, name))
			return rr_builtin_policies[i];
	return NULL;
}
