// SPDX-License-Identifier: GPL-2.0-only
/*
 * `reclaim-replay policies [SPEC...]`: the built-in policies and the hooks
 * each sets, the hooks of the plug-in ABI, and for each SPEC (a built-in,
 * a composition, a .so with parameters) the components it resolves to and
 * which of them decides each decision.  Every hook list comes from the
 * registry's descriptor table (rr_hooks[]).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../policies/policies.h"
#include "cli.h"

static const char policies_usage[] =
	"usage: reclaim-replay policies [SPEC...] [-h]\n"
	"\n"
	"List the built-in policies, the hooks each sets and the kernel code it\n"
	"mirrors, and the hooks of the plug-in ABI.  With SPECs (a built-in, a\n"
	"'+' composition, or ./x.so[:key=value,...]), load each as compare -p\n"
	"would and show its components, their ABI versions, and which one\n"
	"decides each decision.\n"
	"\n"
	"  -h, --help               this text\n";

/* "a,b": the hooks @pol sets, from the descriptor table. */
static void hooks_of(const struct rr_policy *pol, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int h = 0; h < RR_NR_HOOKS && n < len; h++)
		if (rr_policy_has_hook(pol, (enum rr_hook_id)h))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      rr_hooks[h].name);
	if (!n)
		snprintf(buf, len, "-");
}

static int show_spec(const char *spec)
{
	struct rr_resolved_policy p;
	struct rr_kernel_model km;
	struct rr_error err = { "", "" };
	char hooks[256];

	rr_kernel_model_init(&km, RR_NEWEST_MODELLED_RELEASE);
	if (rr_policy_resolve(&p, spec, &km, 4096, &err)) {
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	printf("\n%s (loaded with kernel %s, 4096-byte pages):\n", spec, km.release);
	for (int i = 0; i < p.nr_components; i++) {
		const struct rr_policy *c = p.comp[i].policy;

		hooks_of(c, hooks, sizeof(hooks));
		printf("  component %d: %-16s ABI v%u, sets %s\n", i + 1, c->name,
		       p.comp[i].policy->abi_version, hooks);
	}
	for (int h = 0; h < RR_NR_HOOKS; h++)
		if (rr_hooks[h].kind == RR_HOOK_DECISION)
			printf("  %-18s decided by %s\n", rr_hooks[h].name, p.hook[h].from);
	rr_policy_release(&p);
	return RR_EXIT_OK;
}

int cmd_policies(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = RR_EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(policies_usage, stdout);
			return RR_EXIT_OK;
		}
		return rr_option_error("policies", c, argv);
	}

	printf("%-16s %-34s %s\n", "policy", "hooks", "summary");
	for (int i = 0; rr_builtin_policies[i]; i++) {
		const struct rr_policy *p = rr_builtin_policies[i];
		char hooks[256];

		if (!strcmp(p->name, "kernel"))
			snprintf(hooks, sizeof(hooks), "(baseline)");
		else
			hooks_of(p, hooks, sizeof(hooks));
		printf("%-16s %-34s %s\n", p->name, hooks, p->summary);
		printf("%-16s %-34s mirrors %s\n", "", "", p->kernel_ref);
	}
	printf("\nPolicies compose with '+': a later decision hook wins, e.g. "
	       "original+cluster-cap.\n\nHooks of the plug-in ABI, version %d (plug-ins built "
	       "for versions %d to %d load;\nreclaim-replay-policy(7)):\n",
	       RR_POLICY_ABI_VERSION, RR_POLICY_ABI_OLDEST, RR_POLICY_ABI_VERSION);
	for (int h = 0; h < RR_NR_HOOKS; h++)
		printf("  %-18s since v%u  %-8s %s\n", rr_hooks[h].name, rr_hooks[h].since,
		       rr_hooks[h].kind == RR_HOOK_DECISION ? "decision" : "event",
		       rr_hooks[h].stands_for);
	for (int i = optind; i < argc; i++)
		if (show_spec(argv[i]))
			ret = RR_EXIT_ERROR;
	return ret;
}
