// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test plug-in: built for the next ABI version (a newer header than the
 * host's); the host must refuse it, naming both versions.
 */
#include <reclaim-replay/policy.h>

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION + 1,
	.size = sizeof(struct rr_policy) + 16,
	.name = "future-abi",
	.summary = "test: ABI version of a later host",
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
