// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test plug-in: rounds SCAN_FRACT targets up for file lists only, floors
 * anon lists; takes one parameter-less init.  Built as a .so by the
 * Makefile and loaded by the unit and CLI tests with -p.
 */
#include <reclaim-replay/policy.h>

static int ceil_file(void *priv, const struct rr_scan_fract_args *a, uint64_t *out)
{
	(void)priv;
	if (a->lru >= 2)
		*out = rr_div_round_up(a->scan_pages * a->fraction, a->denominator);
	else
		*out = rr_div_floor(a->scan_pages * a->fraction, a->denominator);
	return 0;
}

static const struct rr_policy policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "ceil-file",
	.base = "kernel",
	.summary = "test: round SCAN_FRACT up for file lists only",
	.kernel_ref = "get_scan_count() (test plug-in)",
	.scan_fract_target = ceil_file,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &policy;
}
