// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test plug-in: episode_begin sleeps for a minute (the first call is as
 * far as a test lets it get), so a test can stop a replay that is under
 * way (its -o file begun) with a signal.
 */
#include <unistd.h>

#include <reclaim-replay/policy.h>

static int begin(void *priv, const struct rr_episode_args *args)
{
	(void)priv;
	(void)args;
	sleep(60);
	return 0;
}

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "sleepy",
	.summary = "test: sleeps a minute at the first episode",
	.episode_begin = begin,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
