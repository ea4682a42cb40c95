// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay policies`: the built-in policies and their hooks. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../policies/registry.h"
#include "cli.h"

static const char policies_usage[] =
	"usage: reclaim-replay policies [-h]\n"
	"\n"
	"List the built-in policies, the hooks each overrides and the kernel\n"
	"code it mirrors.  Loadable policies are given to compare as -p ./x.so.\n";

int cmd_policies(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(policies_usage, stdout);
			return RR_EXIT_OK;
		}
		return rr_usage_error("policies", "unknown option");
	}
	if (optind < argc)
		return rr_usage_error("policies", "unexpected argument '%s'", argv[optind]);

	printf("%-16s %-20s %s\n", "policy", "overrides", "summary");
	for (int i = 0; rr_builtin_policies[i]; i++) {
		const struct rr_policy *p = rr_builtin_policies[i];
		char over[64] = "";

		if (!strcmp(p->name, "kernel"))
			snprintf(over, sizeof(over), "(baseline)");
		else
			snprintf(over, sizeof(over), "%s%s%s",
				 p->scan_fract_target ? "scan_fract" : "",
				 p->scan_fract_target && p->proactive_chunk ? "," : "",
				 p->proactive_chunk ? "chunk" : "");
		printf("%-16s %-20s %s\n", p->name, over, p->summary);
		printf("%-16s %-20s mirrors %s\n", "", "", p->kernel_ref);
	}
	printf("\nPolicies compose with '+': a later hook wins, e.g. original+cluster-cap.\n"
	       "Plug-in ABI version %d: include/reclaim-replay/policy.h.\n",
	       RR_POLICY_ABI_VERSION);
	return RR_EXIT_OK;
}
