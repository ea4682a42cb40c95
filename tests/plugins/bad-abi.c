// SPDX-License-Identifier: GPL-2.0-only
/* Test plug-in built against a future ABI: the host must refuse it. */
#include <reclaim-replay/policy.h>

static const struct rr_policy policy = {
	.abi_version = 99,
	.size = sizeof(struct rr_policy),
	.name = "bad-abi",
	.summary = "test: wrong ABI version",
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
