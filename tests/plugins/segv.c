// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test plug-in: writes through a NULL pointer at its first episode, as a
 * buggy plug-in would: the replay dies of SIGSEGV with its -o file begun.
 */
#include <stddef.h>

#include <reclaim-replay/policy.h>

static int begin(void *priv, const struct rr_episode_args *args)
{
	volatile int *nowhere = NULL;

	(void)priv;
	(void)args;
	*nowhere = 1;
	return 0;
}

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "segv",
	.summary = "test: faults at the first episode",
	.episode_begin = begin,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
