// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resolving a policy spec into one flat hook table.
 *
 * Each component contributes its own hooks after those of its base chain;
 * components are applied left to right over the implicit "kernel" base, so
 * a later hook wins.  After resolution no hook is NULL, and the simulator
 * calls them without tests.
 */
#include "registry.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 3 && !strcmp(s + n - 3, ".so"));
}

/* [a-z0-9-]+, at most 32 characters (the header's rule for names). */
static bool valid_name(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
			return false;
	return true;
}

static int add_component(struct rr_resolved_policy *p, const struct rr_policy *pol,
			 void *dl, const struct rr_kernel_model *km, const char *params_in,
			 const char *what, struct rr_error *err)
{
	char params[96];
	void *priv = NULL;
	int i = p->nr_components;

	if (i >= RR_MAX_COMPONENTS) {
		rr_error_set(err, what, "too many policy components (at most %d)",
			     RR_MAX_COMPONENTS);
		return -1;
	}
	if (params_in && !pol->init) {
		rr_error_set(err, what, "policy '%s' takes no parameters", pol->name);
		return -1;
	}
	if (pol->init) {
		int ret;

		snprintf(params, sizeof(params), "release=%s", km->release);
		/* the kernel policy takes the release; others what the user gave */
		ret = pol->init(dl ? params_in : (!strcmp(pol->name, "kernel") ? params : NULL),
				&priv);
		if (ret) {
			rr_error_set(err, what, "policy '%s' init failed: %s",
				     pol->name, ret < 0 ? strerror(-ret) : "positive return value");
			return -1;
		}
	}
	p->component[i] = pol;
	p->priv[i] = priv;
	p->dl[i] = dl;
	p->nr_components++;
	if (pol->scan_fract_target) {
		p->scan_fract_target = pol->scan_fract_target;
		p->scan_fract_priv = priv;
		p->scan_fract_from = pol->name;
	}
	if (pol->proactive_chunk) {
		p->proactive_chunk = pol->proactive_chunk;
		p->chunk_priv = priv;
		p->chunk_from = pol->name;
	}
	return 0;
}

static const struct rr_policy *load_so(const char *path, void **dl_out,
				       struct rr_error *err)
{
	rr_policy_entry_fn entry;
	const struct rr_policy *pol;
	void *dl;

	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		rr_error_set(err, path, "cannot load policy: %s", dlerror());
		return NULL;
	}
	*(void **)&entry = dlsym(dl, RR_POLICY_ENTRY_SYMBOL);
	if (!entry) {
		rr_error_set(err, path, "not a reclaim-replay policy: no '%s' symbol",
			     RR_POLICY_ENTRY_SYMBOL);
		goto fail;
	}
	pol = entry();
	if (!pol) {
		rr_error_set(err, path, "policy entry returned no policy");
		goto fail;
	}
	if (pol->abi_version != RR_POLICY_ABI_VERSION) {
		rr_error_set(err, path,
			     "policy ABI version %u, this reclaim-replay speaks version %d",
			     pol->abi_version, RR_POLICY_ABI_VERSION);
		goto fail;
	}
	if (pol->size < sizeof(struct rr_policy)) {
		rr_error_set(err, path, "policy table is %u bytes, ABI v%d needs %zu",
			     pol->size, RR_POLICY_ABI_VERSION, sizeof(struct rr_policy));
		goto fail;
	}
	if (!pol->name || !valid_name(pol->name)) {
		rr_error_set(err, path, "policy name must be 1-32 characters of [a-z0-9-]");
		goto fail;
	}
	if (rr_builtin_find(pol->name)) {
		rr_error_set(err, path, "policy name '%s' is taken by a built-in policy",
			     pol->name);
		goto fail;
	}
	*dl_out = dl;
	return pol;
fail:
	dlclose(dl);
	return NULL;
}

/* Add @pol after its base chain (bases first, so @pol's own hooks win). */
static int add_with_bases(struct rr_resolved_policy *p, const struct rr_policy *pol,
			  void *dl, const struct rr_kernel_model *km, const char *params,
			  const char *what, int depth, struct rr_error *err)
{
	if (depth > RR_MAX_COMPONENTS) {
		rr_error_set(err, what, "policy base chain too deep (a loop?)");
		return -1;
	}
	if (pol->base && strcmp(pol->base, "kernel")) {
		const struct rr_policy *base = rr_builtin_find(pol->base);

		if (!base) {
			rr_error_set(err, what, "policy '%s' names unknown base '%s'",
				     pol->name, pol->base);
			return -1;
		}
		if (add_with_bases(p, base, NULL, km, NULL, what, depth + 1, err))
			return -1;
	}
	if (!strcmp(pol->name, "kernel") && p->nr_components > 0) {
		if (params) {
			rr_error_set(err, what, "policy 'kernel' takes no parameters");
			return -1;
		}
		return 0;	/* already the base */
	}
	return add_component(p, pol, dl, km, params, what, err);
}

int rr_policy_resolve(struct rr_resolved_policy *out, const char *spec,
		      const struct rr_kernel_model *km, struct rr_error *err)
{
	char buf[512];
	char *save = NULL, *tok;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || strlen(spec) >= sizeof(buf) ||
	    strlen(spec) >= sizeof(out->name)) {
		rr_error_set(err, spec ? spec : "", "empty or too long policy spec");
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", spec);
	if (add_component(out, rr_builtin_find("kernel"), NULL, km, NULL, spec, err))
		goto fail;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		const struct rr_policy *pol;
		char path[600];
		char *params = strchr(tok, ':');
		void *dl = NULL;

		if (params)
			*params++ = 0;	/* NAME:key=value,... */
		if (is_path(tok)) {
			/* a bare "x.so" is a file here, not a library search */
			snprintf(path, sizeof(path), "%s%s", strchr(tok, '/') ? "" : "./", tok);
			pol = load_so(path, &dl, err);
		} else {
			pol = rr_builtin_find(tok);
			if (!pol)
				rr_error_set(err, tok,
					     "unknown policy (see 'reclaim-replay policies')");
		}
		if (!pol)
			goto fail;
		if (add_with_bases(out, pol, dl, km, params, tok, 0, err)) {
			/* add_component() keeps dl only on success */
			if (dl && (!out->nr_components || out->dl[out->nr_components - 1] != dl))
				dlclose(dl);
			goto fail;
		}
	}
	snprintf(out->overrides, sizeof(out->overrides),
		 "scan_fract_target=%s proactive_chunk=%s",
		 out->scan_fract_from, out->chunk_from);
	return 0;
fail:
	rr_policy_release(out);
	return -1;
}

void rr_policy_release(struct rr_resolved_policy *p)
{
	for (int i = p->nr_components - 1; i >= 0; i--) {
		if (p->component[i]->fini)
			p->component[i]->fini(p->priv[i]);
		if (p->dl[i])
			dlclose(p->dl[i]);
	}
	p->nr_components = 0;
}
