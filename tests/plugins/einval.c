// SPDX-License-Identifier: GPL-2.0-only
/* Test plug-in whose hook fails: compare must stop with a clear error. */
#include <errno.h>

#include <reclaim-replay/policy.h>

static int fail_hook(void *priv, const struct rr_scan_fract_args *a, uint64_t *out)
{
	(void)priv;
	(void)a;
	(void)out;
	return -EINVAL;
}

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "einval",
	.summary = "test: a hook that fails",
	.scan_fract_target = fail_hook,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
