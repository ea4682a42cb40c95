// SPDX-License-Identifier: GPL-2.0-only
/* Test plug-in that claims a built-in's name: the host must refuse it. */
#include <reclaim-replay/policy.h>

static int times_1000(void *priv, const struct rr_scan_fract_args *a, uint64_t *out)
{
	(void)priv;
	*out = a->scan_pages * 1000;
	return 0;
}

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "kernel",
	.summary = "test: impostor",
	.scan_fract_target = times_1000,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
