// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source of round-nearest-v1.so, kept as a binary: examples/policy-
 * example.c as reclaim-replay 0.1.0 shipped it (commit 9da3911), built
 * against the ABI version 1 header beside it, x86-64, Debian 12 gcc 12:
 *
 *   cc -std=gnu11 -O2 -shared -fPIC -Itests/plugins/abi-v1 \
 *      -o round-nearest-v1.so round-nearest-v1.c && strip round-nearest-v1.so
 *
 * The tests load the binary, not a build of this file: a plug-in built
 * before the host changed must keep loading and deciding the same.
 */
/*
 * Example reclaim-replay policy: round get_scan_count()'s SCAN_FRACT
 * division to the nearest page instead of down or up.
 *
 *   make examples/policy-example.so
 *   reclaim-replay compare trace.dat -p ./examples/policy-example.so
 *   reclaim-replay compare trace.dat -p ./examples/policy-example.so:offline_only=1
 *
 * Parameter: offline_only=0|1 (default 0): round to nearest only for
 * offline memcgs and floor for online ones, like 76073c646f5f does with
 * round-up.  The memory.reclaim chunk hook is left NULL, so the base
 * policy ("kernel") decides it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <reclaim-replay/policy.h>

struct state {
	int offline_only;
};

static int example_init(const char *params, void **priv)
{
	struct state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (params && *params) {
		if (!strcmp(params, "offline_only=1")) {
			st->offline_only = 1;
		} else if (strcmp(params, "offline_only=0")) {
			free(st);
			return -EINVAL;	/* unknown key or value */
		}
	}
	*priv = st;
	return 0;
}

static void example_fini(void *priv)
{
	free(priv);
}

static int nearest_scan_fract(void *priv, const struct rr_scan_fract_args *a,
			      uint64_t *nr_scan_pages)
{
	const struct state *st = priv;
	uint64_t n = a->scan_pages * a->fraction;

	if (st->offline_only && a->memcg_online)
		*nr_scan_pages = rr_div_floor(n, a->denominator);
	else
		*nr_scan_pages = (n + a->denominator / 2) / a->denominator;
	return 0;
}

static const struct rr_policy example_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "round-nearest",
	.base = "kernel",
	.summary = "round SCAN_FRACT targets to the nearest page",
	.kernel_ref = "get_scan_count() (example, no kernel commit)",
	.init = example_init,
	.fini = example_fini,
	.scan_fract_target = nearest_scan_fract,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &example_policy;
}
