// SPDX-License-Identifier: GPL-2.0-only
/*
 * senpai-chunk: a memory.reclaim chunk policy that learns across writes,
 * in the spirit of senpai-style controllers.  Each write starts asking for
 * `step` pages a call (never more than the kernel would ask for: the base
 * policy's chunk); a write that reclaimed more than it asked for halves
 * the step of the next one, a write that needed more than 8 calls doubles
 * it.  An example of ABI version 2: init_host, a base decision, and the
 * episode hooks (reclaim-replay-policy(7) shows it whole).
 *
 *   cc -shared -fPIC $(pkg-config --cflags reclaim-replay) \
 *      -o senpai-chunk.so senpai-chunk.c
 *   reclaim-replay compare trace.dat -p ./senpai-chunk.so:step=256
 *
 * Parameter: step=N, the first write's step in pages, 32..1048576
 * (default 128).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <reclaim-replay/policy.h>

#define MIN_STEP 32
#define MAX_STEP (1UL << 20)

struct senpai {
	const struct rr_host *host;	/* valid until fini */
	uint64_t step;			/* pages a call, for the current write */
	uint64_t requested;		/* pages the current write asks for */
	bool proactive;			/* the current episode is a write */
};

static int senpai_init(const struct rr_host *host, const char *params, void **priv)
{
	struct senpai *s = calloc(1, sizeof(*s));
	char *end;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->step = 128;
	if (params && *params) {
		if (strncmp(params, "step=", 5)) {
			host->set_error(host, "unknown key in '%s' (the key is step)", params);
			free(s);
			return -EINVAL;
		}
		s->step = strtoull(params + 5, &end, 10);
		if (*end || s->step < MIN_STEP || s->step > MAX_STEP) {
			host->set_error(host, "step must be %d..%lu pages, not '%s'",
					MIN_STEP, MAX_STEP, params + 5);
			free(s);
			return -EINVAL;
		}
	}
	*priv = s;
	return 0;
}

static void senpai_fini(void *priv)
{
	free(priv);
}

static int senpai_chunk(void *priv, const struct rr_proactive_chunk_args *a,
			uint64_t *nr_pages)
{
	struct senpai *s = priv;
	uint64_t base, left = a->nr_requested_pages - a->nr_reclaimed_pages;
	int ret = s->host->base_proactive_chunk(s->host, a, &base);

	if (ret)
		return ret;
	*nr_pages = s->step < base ? s->step : base;
	if (*nr_pages > left)
		*nr_pages = left;
	return 0;
}

static int senpai_begin(void *priv, const struct rr_episode_args *a)
{
	struct senpai *s = priv;

	s->proactive = a->kind == RR_POLICY_EPISODE_PROACTIVE;
	s->requested = a->nr_to_reclaim_pages;
	return 0;
}

static int senpai_end(void *priv, const struct rr_episode_end_args *a)
{
	struct senpai *s = priv;

	if (!s->proactive)
		return 0;
	if (a->nr_reclaimed_pages > s->requested && s->step / 2 >= MIN_STEP)
		s->step /= 2;	/* overshot: smaller steps next time */
	else if (a->nr_calls > 8 && s->step * 2 <= MAX_STEP)
		s->step *= 2;	/* slow: bigger steps next time */
	return 0;
}

static const struct rr_policy senpai_policy = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy),
	.name = "senpai-chunk",
	.base = "kernel",
	.summary = "memory.reclaim chunks of a learned step, at most the kernel's",
	.kernel_ref = "memory_reclaim() (example, no kernel commit)",
	.fini = senpai_fini,
	.proactive_chunk = senpai_chunk,
	.init_host = senpai_init,
	.episode_begin = senpai_begin,
	.episode_end = senpai_end,
};

const struct rr_policy *rr_policy_entry(void);
const struct rr_policy *rr_policy_entry(void)
{
	return &senpai_policy;
}
