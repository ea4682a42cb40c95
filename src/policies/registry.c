// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resolving a policy spec into one flat hook table.
 *
 * Each component contributes its own hooks after those of its base chain;
 * components are applied left to right over the implicit "kernel" base, so
 * a later decision hook wins.  After resolution no decision hook is NULL,
 * and the simulator calls them without tests.  Each component gets a host
 * context (ABI v2) whose base_*() decisions are the hooks in force just
 * before it was applied.
 *
 * Versions: a table of ABI version v is read only up to the size of a v
 * table and only for the hooks rr_hooks[] says v knew, so a plug-in built
 * against an older header loads and behaves as it did.
 */
#include "policies.h"
#include "../common/text.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct rr_hook_desc rr_hooks[RR_NR_HOOKS] = {
	[RR_HOOK_SCAN_FRACT_TARGET] = {
		"scan_fract_target", offsetof(struct rr_policy, scan_fract_target), 1,
		RR_HOOK_DECISION, "get_scan_count(): the SCAN_FRACT target of one list" },
	[RR_HOOK_PROACTIVE_CHUNK] = {
		"proactive_chunk", offsetof(struct rr_policy, proactive_chunk), 1,
		RR_HOOK_DECISION, "memory_reclaim(): nr_pages of one try_to_free_mem_cgroup_pages() call" },
	[RR_HOOK_EPISODE_BEGIN] = {
		"episode_begin", offsetof(struct rr_policy, episode_begin), 2,
		RR_HOOK_EVENT, "before the policy's replay of an episode" },
	[RR_HOOK_EPISODE_END] = {
		"episode_end", offsetof(struct rr_policy, episode_end), 2,
		RR_HOOK_EVENT, "after the policy's replay of an episode" },
};

size_t rr_policy_size_of_version(uint32_t version)
{
	if (version <= 1)
		return offsetof(struct rr_policy, init_host);
	return sizeof(struct rr_policy);
}

/* A field of @pol's table, if its version and size have it. */
static bool has_field(const struct rr_policy *pol, uint32_t since, size_t offset, size_t size)
{
	return pol->abi_version >= since && offset + size <= pol->size &&
	       offset + size <= sizeof(*pol);
}

static void (*hook_fn(const struct rr_policy *pol, enum rr_hook_id id))(void)
{
	const struct rr_hook_desc *d = &rr_hooks[id];
	void (*fn)(void) = NULL;

	if (has_field(pol, d->since, d->offset, sizeof(fn)))
		memcpy(&fn, (const char *)pol + d->offset, sizeof(fn));
	return fn;
}

bool rr_policy_has_hook(const struct rr_policy *pol, enum rr_hook_id id)
{
	return hook_fn(pol, id) != NULL;
}

static int (*init_host_of(const struct rr_policy *pol))(const struct rr_host *, const char *,
							 void **)
{
	if (has_field(pol, 2, offsetof(struct rr_policy, init_host), sizeof(pol->init_host)))
		return pol->init_host;
	return NULL;
}

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

/* ---- the host context (ABI v2) ---- */

/* A plug-in's line: one line, printable, at most about 1000 characters. */
static void host_log(const struct rr_host *host, const char *fmt, ...)
{
	const struct rr_component *c = host->host_data;
	char raw[1024], line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	rr_one_line(line, sizeof(line), raw, (size_t)n >= sizeof(raw));
	fprintf(stderr, "reclaim-replay: policy %s: %s\n", c->policy->name, line);
}

static void host_set_error(const struct rr_host *host, const char *fmt, ...)
{
	struct rr_component *c = host->host_data;
	char raw[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (n >= 0)
		rr_one_line(c->error, sizeof(c->error), raw, (size_t)n >= sizeof(raw));
}

static int host_base_scan_fract(const struct rr_host *host, const struct rr_scan_fract_args *a,
				uint64_t *out)
{
	const struct rr_component *c = host->host_data;
	const struct rr_resolved_hook *h = &c->base[RR_HOOK_SCAN_FRACT_TARGET];

	if (!h->fn)
		return -ENOSYS;	/* the kernel policy itself has no base */
	return ((rr_scan_fract_fn)h->fn)(h->priv, a, out);
}

static int host_base_chunk(const struct rr_host *host, const struct rr_proactive_chunk_args *a,
			   uint64_t *out)
{
	const struct rr_component *c = host->host_data;
	const struct rr_resolved_hook *h = &c->base[RR_HOOK_PROACTIVE_CHUNK];

	if (!h->fn)
		return -ENOSYS;
	return ((rr_proactive_chunk_fn)h->fn)(h->priv, a, out);
}

static void host_init(struct rr_component *c, const struct rr_kernel_model *km,
		      uint64_t page_size_bytes, const char *spec)
{
	c->host = (struct rr_host){
		.size = sizeof(c->host),
		.abi_version = RR_POLICY_ABI_VERSION,
		.kernel_release = km->release,
		.kernel_major = km->major,
		.kernel_minor = km->minor,
		.page_size_bytes = page_size_bytes,
		.policy_name = spec,
		.log = host_log,
		.set_error = host_set_error,
		.base_scan_fract_target = host_base_scan_fract,
		.base_proactive_chunk = host_base_chunk,
		.host_data = c,
	};
	c->error[0] = 0;
}

/* ---- resolution ---- */

struct resolve_ctx {
	struct rr_resolved_policy *out;
	const struct rr_kernel_model *km;
	uint64_t page_size_bytes;
	struct rr_error *err;
	bool no_init;		/* rr_policy_check(): load, do not start */
};

static int add_component(struct resolve_ctx *x, const struct rr_policy *pol, void *dl,
			 const char *params, const char *what)
{
	struct rr_resolved_policy *out = x->out;
	int (*init_host)(const struct rr_host *, const char *, void **) = init_host_of(pol);
	int i = out->nr_components, ret = 0;
	struct rr_component *c;

	if (i >= RR_MAX_COMPONENTS) {
		rr_error_set(x->err, what, "too many policy components (at most %d)",
			     RR_MAX_COMPONENTS);
		return -1;
	}
	if (params && !init_host && !pol->init) {
		rr_error_set(x->err, what, "policy '%s' takes no parameters", pol->name);
		return -1;
	}
	c = &out->comp[i];
	memset(c, 0, sizeof(*c));
	c->policy = pol;
	c->dl = dl;
	host_init(c, x->km, x->page_size_bytes, out->name);
	for (int h = 0; h < RR_NR_HOOKS; h++)
		c->base[h] = out->hook[h];
	if (x->no_init)
		ret = 0;
	else if (init_host)
		ret = init_host(&c->host, params, &c->priv);
	else if (pol->init)
		ret = pol->init(params, &c->priv);
	c->started = !x->no_init;
	if (ret) {
		rr_error_set(x->err, what, "policy '%s' init failed: %s", pol->name,
			     c->error[0] ? c->error : ret < 0 ? strerror(-ret) :
			     "positive return value");
		return -1;
	}
	out->nr_components++;
	for (int h = 0; h < RR_NR_HOOKS; h++) {
		void (*fn)(void) = hook_fn(pol, (enum rr_hook_id)h);

		if (fn && rr_hooks[h].kind == RR_HOOK_DECISION)
			out->hook[h] = (struct rr_resolved_hook){ fn, c->priv, pol->name };
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
	if (pol->abi_version < RR_POLICY_ABI_OLDEST || pol->abi_version > RR_POLICY_ABI_VERSION) {
		rr_error_set(err, path, "policy ABI version %u, this reclaim-replay speaks "
			     "versions %d to %d", pol->abi_version, RR_POLICY_ABI_OLDEST,
			     RR_POLICY_ABI_VERSION);
		goto fail;
	}
	if (pol->size < rr_policy_size_of_version(pol->abi_version)) {
		rr_error_set(err, path, "policy table is %u bytes, ABI v%u needs %zu",
			     pol->size, pol->abi_version,
			     rr_policy_size_of_version(pol->abi_version));
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
static int add_with_bases(struct resolve_ctx *x, const struct rr_policy *pol, void *dl,
			  const char *params, const char *what, int depth)
{
	if (depth > RR_MAX_COMPONENTS) {
		rr_error_set(x->err, what, "policy base chain too deep (a loop?)");
		return -1;
	}
	if (pol->base && strcmp(pol->base, "kernel")) {
		const struct rr_policy *base = rr_builtin_find(pol->base);

		if (!base) {
			rr_error_set(x->err, what, "policy '%s' names unknown base '%s'",
				     pol->name, pol->base);
			return -1;
		}
		if (add_with_bases(x, base, NULL, NULL, what, depth + 1))
			return -1;
	}
	if (!strcmp(pol->name, "kernel") && x->out->nr_components > 0) {
		if (params) {
			rr_error_set(x->err, what, "policy 'kernel' takes no parameters");
			return -1;
		}
		return 0;	/* already the base */
	}
	return add_component(x, pol, dl, params, what);
}

static int resolve(struct rr_resolved_policy *out, const char *spec,
		   const struct rr_kernel_model *km, uint64_t page_size_bytes, bool no_init,
		   struct rr_error *err)
{
	struct resolve_ctx x = { out, km, page_size_bytes, err, no_init };
	char buf[512];
	char *save = NULL, *tok;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || strlen(spec) >= sizeof(buf) ||
	    strlen(spec) >= sizeof(out->name)) {
		rr_error_set(err, spec ? spec : "", "empty or too long policy spec");
		return -1;
	}
	/* the spec names the policy in the JSON (a key) and the table */
	if (!rr_utf8_valid(spec, strlen(spec)) || rr_has_control(spec)) {
		char *shown = rr_name_dup(spec, strlen(spec));

		rr_error_set(err, shown ? shown : "", "a policy spec must be UTF-8 without control "
			     "characters: it names the policy in the JSON and the table");
		free(shown);
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", spec);
	if (add_component(&x, rr_builtin_find("kernel"), NULL, NULL, spec))
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
		if (add_with_bases(&x, pol, dl, params, tok, 0)) {
			/* add_component() keeps dl only on success */
			if (dl && (!out->nr_components ||
				   out->comp[out->nr_components - 1].dl != dl))
				dlclose(dl);
			goto fail;
		}
	}
	for (int h = 0; h < RR_NR_HOOKS; h++) {
		if (rr_hooks[h].kind != RR_HOOK_DECISION)
			continue;
		n += (size_t)snprintf(out->overrides + n, sizeof(out->overrides) - n, "%s%s=%s",
				      n ? " " : "", rr_hooks[h].name, out->hook[h].from);
		if (n >= sizeof(out->overrides))
			break;
	}
	return 0;
fail:
	rr_policy_release(out);
	return -1;
}

int rr_policy_resolve(struct rr_resolved_policy *out, const char *spec,
		      const struct rr_kernel_model *km, uint64_t page_size_bytes,
		      struct rr_error *err)
{
	return resolve(out, spec, km, page_size_bytes, false, err);
}

int rr_policy_check(const char *spec, struct rr_error *err)
{
	struct rr_resolved_policy *p = calloc(1, sizeof(*p));
	struct rr_kernel_model km;
	int ret;

	if (!p) {
		rr_error_set(err, spec, "out of memory");
		return -1;
	}
	/* (no component is started: the release and page size do not matter) */
	rr_kernel_model_init(&km, RR_NEWEST_MODELLED_RELEASE);
	ret = resolve(p, spec, &km, 4096, true, err);
	if (!ret)
		rr_policy_release(p);
	free(p);
	return ret;
}

void rr_policy_release(struct rr_resolved_policy *p)
{
	for (int i = p->nr_components - 1; i >= 0; i--) {
		if (p->comp[i].started && p->comp[i].policy->fini)
			p->comp[i].policy->fini(p->comp[i].priv);
		if (p->comp[i].dl)
			dlclose(p->comp[i].dl);
	}
	p->nr_components = 0;
}

const char *rr_hook_error(const struct rr_resolved_policy *p, enum rr_hook_id id, int ret)
{
	for (int i = p->nr_components - 1; i >= 0; i--)
		if (p->comp[i].policy->name == p->hook[id].from && p->comp[i].error[0])
			return p->comp[i].error;
	return ret < 0 ? strerror(-ret) : "positive return value";
}

/* The event hook @id of every component that has it, in order. */
static int event(const struct rr_resolved_policy *p, enum rr_hook_id id, const void *args,
		 struct rr_error *err)
{
	for (int i = 0; i < p->nr_components; i++) {
		const struct rr_component *c = &p->comp[i];
		void (*fn)(void) = hook_fn(c->policy, id);
		int ret;

		if (!fn)
			continue;
		ret = id == RR_HOOK_EPISODE_BEGIN ?
		      ((rr_episode_begin_fn)fn)(c->priv, args) :
		      ((rr_episode_end_fn)fn)(c->priv, args);
		if (ret) {
			rr_error_set(err, p->name, "policy hook %s (%s) failed: %s",
				     rr_hooks[id].name, c->policy->name,
				     c->error[0] ? c->error : ret < 0 ? strerror(-ret) :
				     "positive return value");
			return -1;
		}
	}
	return 0;
}

int rr_policy_episode_begin(const struct rr_resolved_policy *p,
			    const struct rr_episode_args *a, struct rr_error *err)
{
	return event(p, RR_HOOK_EPISODE_BEGIN, a, err);
}

int rr_policy_episode_end(const struct rr_resolved_policy *p,
			  const struct rr_episode_end_args *a, struct rr_error *err)
{
	return event(p, RR_HOOK_EPISODE_END, a, err);
}
