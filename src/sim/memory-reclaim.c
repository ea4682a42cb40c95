// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory_reclaim()'s chunk loop (§10): one try_to_free_mem_cgroup_pages()
 * call per chunk the policy chooses, until the request is met or the
 * kernel's -EAGAIN.
 */
#include "sim-local.h"

#include <errno.h>
#include <stdlib.h>

int rr_sim_add_chunk(struct rr_sim_result *o, uint64_t nr_pages, uint64_t got)
{
	if (o->nr_chunks == o->cap_chunks) {
		size_t cap = o->cap_chunks ? o->cap_chunks * 2 : 64;
		uint64_t *c = realloc(o->chunk_requests, cap * sizeof(*c));

		if (!c)
			return -1;
		o->chunk_requests = c;
		c = realloc(o->chunk_reclaimed, cap * sizeof(*c));
		if (!c)
			return -1;
		o->chunk_reclaimed = c;
		o->cap_chunks = cap;
	}
	o->chunk_requests[o->nr_chunks] = nr_pages;
	o->chunk_reclaimed[o->nr_chunks++] = got;
	return 0;
}

int rr_proactive_loop(const struct rr_resolved_policy *policy,
		      uint64_t nr_requested_pages, rr_reclaim_call_fn call,
		      void *ctx, struct rr_sim_result *out, struct rr_error *err)
{
	uint64_t done = 0, calls = 0;
	int retries = MAX_RECLAIM_RETRIES;

	while (done < nr_requested_pages) {
		struct rr_proactive_chunk_args a = {
			.size = sizeof(a), .nr_requested_pages = nr_requested_pages,
			.nr_reclaimed_pages = done, .nr_calls = calls,
		};
		uint64_t chunk = 0, got = 0;
		int ret = rr_hook_proactive_chunk(policy, &a, &chunk);

		if (ret) {
			rr_error_set(err, policy->name,
				     "policy hook proactive_chunk (%s) failed: %s",
				     policy->hook[RR_HOOK_PROACTIVE_CHUNK].from,
				     rr_hook_error(policy, RR_HOOK_PROACTIVE_CHUNK, ret));
			return -1;
		}
		if (++calls > MAX_CHUNK_CALLS) {
			rr_error_set(err, policy->name,
				     "memory.reclaim loop exceeded %u calls", MAX_CHUNK_CALLS);
			return -1;
		}
		if (call(ctx, chunk, &got))
			return -1;
		if (rr_sim_add_chunk(out, chunk, got)) {
			rr_error_set(err, "", "out of memory");
			return -1;
		}
		if (!got) {
			if (!retries) {
				out->eagain = true;	/* -EAGAIN */
				break;
			}
			retries--;
		}
		done += got;
	}
	out->nr_reclaimed_pages = done;
	if (!out->calls)
		out->calls = calls;
	return 0;
}
