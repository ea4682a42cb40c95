/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policy registry: the built-in policies, the .so loader, and resolution of
 * a policy spec ("online-roundup", "original+cluster-cap", "./my.so") into a
 * flat table of hooks with no NULL entries (DESIGN.md "Policies").
 */
#ifndef RR_POLICY_REGISTRY_H
#define RR_POLICY_REGISTRY_H

#include <reclaim-replay/policy.h>

#include "../common/error.h"
#include "../sim/kernel-model.h"

#define RR_MAX_COMPONENTS 8

/* Policies one replay compares, the baseline included. */
#define RR_MAX_POLICIES 16

/* One resolved policy: every hook set, each with the private state of the
 * component that provides it. */
struct rr_resolved_policy {
	char name[128];			/* the spec as given, e.g. "original+cluster-cap" */
	char overrides[256];		/* "scan_fract_target=original, ..." for display */
	int (*scan_fract_target)(void *, const struct rr_scan_fract_args *, uint64_t *);
	void *scan_fract_priv;
	const char *scan_fract_from;	/* name of the component providing it */
	int (*proactive_chunk)(void *, const struct rr_proactive_chunk_args *, uint64_t *);
	void *chunk_priv;
	const char *chunk_from;
	/* components, for fini and dlclose */
	int nr_components;
	const struct rr_policy *component[RR_MAX_COMPONENTS];
	void *priv[RR_MAX_COMPONENTS];
	void *dl[RR_MAX_COMPONENTS];
};

/* The built-in policy tables, NULL-terminated: kernel, original,
 * online-roundup, cluster-cap, proportional, proportional-v1. */
extern const struct rr_policy *const rr_builtin_policies[];

const struct rr_policy *rr_builtin_find(const char *name);

/**
 * rr_policy_resolve() - turn a spec into a flat hook table
 * @spec: '+'-separated components; each is a built-in name or a path to a
 *        .so (anything containing '/' or ending in ".so"; "x.so" means
 *        "./x.so"), optionally followed by ":key=value,..." passed to the
 *        plug-in's init().  A later component's hooks win.  "kernel" is
 *        always the implicit base.
 * @km:   the modelled kernel; passed to the "kernel" policy.
 *
 * Return: 0, or -1 with @err naming the spec or .so file (unknown name,
 * dlopen failure, missing entry symbol, ABI version mismatch, init error).
 */
int rr_policy_resolve(struct rr_resolved_policy *out, const char *spec,
		      const struct rr_kernel_model *km, struct rr_error *err);

void rr_policy_release(struct rr_resolved_policy *p);

/* Private state of the built-in "kernel" policy, created from "release=X". */
struct rr_kernel_policy_state {
	struct rr_kernel_model km;
};

#endif
