/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policies stage (its public header): the built-in policies
 * (builtin.c); the registry (registry.c): the .so loader, the hook
 * descriptor table, and resolution of a policy spec ("online-roundup",
 * "original+cluster-cap", "./my.so:key=v") into a flat table of hooks
 * with no NULL decision hook (DESIGN.md "Policies").
 *
 * The hooks of struct rr_policy are described once, in rr_hooks[] (name,
 * offset, ABI version, kind): resolution, `reclaim-replay policies`, the
 * JSON "*_from" keys and the tests that check the schema and the man page
 * all read that table.
 */
#ifndef RR_POLICIES_H
#define RR_POLICIES_H

#include <reclaim-replay/policy.h>

#include "../common/error.h"
#include "../release/release.h"

#define RR_MAX_COMPONENTS 8

/* Policies one replay compares, the baseline included. */
#define RR_MAX_POLICIES 16

/* The oldest plug-in ABI the host loads. */
#define RR_POLICY_ABI_OLDEST 1

enum rr_hook_id {
	RR_HOOK_SCAN_FRACT_TARGET,
	RR_HOOK_PROACTIVE_CHUNK,
	RR_HOOK_EPISODE_BEGIN,
	RR_HOOK_EPISODE_END,
	RR_NR_HOOKS
};

enum rr_hook_kind {
	RR_HOOK_DECISION,	/* the last component that sets it decides; NULL
				 * means its base's */
	RR_HOOK_EVENT,		/* every component's is called, in order */
};

struct rr_hook_desc {
	const char *name;	/* the field of struct rr_policy */
	size_t offset;		/* offsetof(struct rr_policy, name) */
	uint32_t since;		/* the ABI version that added it */
	enum rr_hook_kind kind;
	const char *stands_for;	/* the kernel decision or the moment */
};

extern const struct rr_hook_desc rr_hooks[RR_NR_HOOKS];

/* sizeof(struct rr_policy) of ABI version @version (1..RR_POLICY_ABI_VERSION). */
size_t rr_policy_size_of_version(uint32_t version);

/* Does @pol (of ABI version pol->abi_version) set hook @id? */
bool rr_policy_has_hook(const struct rr_policy *pol, enum rr_hook_id id);

/* A hook in use: the function (cast back to its type by rr_hook_*()), the
 * private state of the component that provides it, and its name. */
struct rr_resolved_hook {
	void (*fn)(void);
	void *priv;
	const char *from;
};

struct rr_resolved_policy;

/* One component of a spec, with the host context it was given (v2). */
struct rr_component {
	const struct rr_policy *policy;
	void *priv;
	void *dl;			/* dlopen() handle, or NULL for a built-in */
	struct rr_host host;		/* host->host_data points here */
	/* the decisions before this component: what its host's base_*() call */
	struct rr_resolved_hook base[RR_NR_HOOKS];
	char error[256];		/* set_error() text, "" none */
	bool started;			/* init ran and succeeded: fini is due */
};

/* One resolved policy: every decision hook set.  It holds pointers into
 * itself (the host contexts): do not copy or move it once resolved. */
struct rr_resolved_policy {
	char name[128];			/* the spec as given, e.g. "original+cluster-cap" */
	char overrides[256];		/* "scan_fract_target=original ..." for display */
	struct rr_resolved_hook hook[RR_NR_HOOKS];	/* decision hooks */
	int nr_components;
	struct rr_component comp[RR_MAX_COMPONENTS];
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
 *        plug-in's init.  A later component's hooks win.  "kernel" is
 *        always the implicit base.
 * @km:   the modelled kernel; in every component's host context.
 * @page_size_bytes: PAGE_SIZE of the replayed kernel, for the host context.
 *
 * Return: 0, or -1 with @err naming the spec or .so file (unknown name,
 * dlopen failure, missing entry symbol, an ABI version newer than the
 * host's, a table too small for its version, an init refusal with the
 * plug-in's own reason).
 */
int rr_policy_resolve(struct rr_resolved_policy *out, const char *spec,
		      const struct rr_kernel_model *km, uint64_t page_size_bytes,
		      struct rr_error *err);

void rr_policy_release(struct rr_resolved_policy *p);

/**
 * rr_policy_check() - what of @spec does not depend on the trace: its
 * syntax, the built-in names, each .so loads and has a table of an ABI
 * version the host takes.  Nothing is started (no init), so a refusal of
 * the plug-in's own is only seen by rr_policy_resolve().
 * Return: 0, or -1 with @err as rr_policy_resolve() sets it.
 */
int rr_policy_check(const char *spec, struct rr_error *err);

/* The error text of a failed hook of @p's component that provides @id:
 * what the plug-in said with set_error(), else strerror(-@ret). */
const char *rr_hook_error(const struct rr_resolved_policy *p, enum rr_hook_id id, int ret);

/* ---- calling the hooks (the simulator's side) ---- */

typedef int (*rr_scan_fract_fn)(void *, const struct rr_scan_fract_args *, uint64_t *);
typedef int (*rr_proactive_chunk_fn)(void *, const struct rr_proactive_chunk_args *, uint64_t *);
typedef int (*rr_episode_begin_fn)(void *, const struct rr_episode_args *);
typedef int (*rr_episode_end_fn)(void *, const struct rr_episode_end_args *);

static inline int rr_hook_scan_fract_target(const struct rr_resolved_policy *p,
					    const struct rr_scan_fract_args *a, uint64_t *out)
{
	const struct rr_resolved_hook *h = &p->hook[RR_HOOK_SCAN_FRACT_TARGET];

	return ((rr_scan_fract_fn)h->fn)(h->priv, a, out);
}

static inline int rr_hook_proactive_chunk(const struct rr_resolved_policy *p,
					  const struct rr_proactive_chunk_args *a, uint64_t *out)
{
	const struct rr_resolved_hook *h = &p->hook[RR_HOOK_PROACTIVE_CHUNK];

	return ((rr_proactive_chunk_fn)h->fn)(h->priv, a, out);
}

/**
 * rr_policy_episode_begin(), rr_policy_episode_end() - the episode hooks of
 * every component that has them, in order
 * Return: 0, or -1 with @err naming the policy, the component and its
 * reason.
 */
int rr_policy_episode_begin(const struct rr_resolved_policy *p,
			    const struct rr_episode_args *a, struct rr_error *err);
int rr_policy_episode_end(const struct rr_resolved_policy *p,
			  const struct rr_episode_end_args *a, struct rr_error *err);

/* Private state of the built-in "kernel" policy. */
struct rr_kernel_policy_state {
	struct rr_kernel_model km;
};

#endif
