// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test plug-in: says ABI version 2 but gives the size of a version 1
 * table (a plug-in that set abi_version by hand); the host must refuse it
 * rather than read hooks past the end.
 */
#include <reclaim-replay/policy.h>

static const struct rr_policy policy = {
	.abi_version = 2,
	.size = offsetof(struct rr_policy, init_host),
	.name = "short-v2",
	.summary = "test: a version 2 table cut to version 1's size",
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
