/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reclaim-replay policy plug-in ABI, version 1.
 *
 * A policy is a constant table of hooks, one hook per reclaim decision of the
 * kernel.  The simulator (src/sim) calls the hooks while it runs the kernel's
 * reclaim loops over a recorded episode.  A hook left NULL means "the base
 * policy decides", where the base is named by rr_policy.base; the chain ends
 * at the built-in "kernel" policy, the model of the kernel that made the
 * trace.  The host resolves NULL hooks once at load time, so every hook in
 * use is a concrete function.
 *
 * Units: every size is in base pages (PAGE_SIZE of the recorded kernel),
 * never bytes.  Hooks are pure: they may read their inputs and their own
 * private state, but must not do I/O, touch globals or call exit().  They
 * return 0, or a negative errno value on failure; a failing hook stops the
 * whole replay: `compare` exits 1 with an error naming the policy and hook,
 * and writes no output file (a policy that cannot decide gives no diff;
 * a --jsonl stream stops without its last, summary, line).
 *
 * Out-of-tree policies are shared objects that export one function,
 * RR_POLICY_ENTRY_SYMBOL, returning a pointer to their struct rr_policy.
 * The host refuses a table whose abi_version differs from
 * RR_POLICY_ABI_VERSION or whose size is smaller than the v1 size.
 * Input structs may grow at the end in later ABI versions: check
 * args->size before reading a field added after v1.
 *
 * Built-in policies use this same header (src/policies/builtin.c).
 */
#ifndef RECLAIM_REPLAY_POLICY_H
#define RECLAIM_REPLAY_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RR_POLICY_ABI_VERSION 1

/* SWAP_CLUSTER_MAX, include/linux/swap.h: batch size of LRU scanning and
 * floor of nr_to_reclaim in try_to_free_mem_cgroup_pages(), in pages. */
#define RR_SWAP_CLUSTER_MAX 32UL

/* DEF_PRIORITY, include/linux/mmzone.h: reclaim starts at this priority. */
#define RR_DEF_PRIORITY 12

/**
 * struct rr_scan_fract_args - input of the get_scan_count() SCAN_FRACT hook
 * @size:        sizeof(struct rr_scan_fract_args) as compiled by the host.
 * @scan_pages:  the list's target before the fraction, in pages: the exact
 *               local LRU size after memory.min/low scaling, shifted right by
 *               @priority, with the offline "scrape" (min(size, 32)) already
 *               applied (mm/vmscan.c get_scan_count()).
 * @fraction:    fraction[type] of get_scan_count() (ap or fp), >= 0.
 * @denominator: the denominator, > 0 (ap + fp, or ap + fp + 1 before v5.8).
 * @priority:    the reclaim priority of this pass, 0..12.
 * @lru:         the list: 0 inactive anon, 1 active anon, 2 inactive file,
 *               3 active file (enum lru_list).
 * @memcg_online: mem_cgroup_online() of the memcg whose lruvec is scanned.
 * @memcg_id:    cgroup id of that memcg (for policies that key on it).
 */
struct rr_scan_fract_args {
	size_t size;
	uint64_t scan_pages;
	uint64_t fraction;
	uint64_t denominator;
	int priority;
	int lru;
	bool memcg_online;
	uint64_t memcg_id;
};

/**
 * struct rr_proactive_chunk_args - input of the memory.reclaim chunk hook
 * @size:               sizeof(struct rr_proactive_chunk_args) of the host.
 * @nr_requested_pages: the whole memory.reclaim request, in pages
 *                      (bytes written / PAGE_SIZE, truncated).
 * @nr_reclaimed_pages: pages reclaimed by the earlier calls of this write.
 *                      Always < @nr_requested_pages when the hook is called.
 * @nr_calls:           try_to_free_mem_cgroup_pages() calls made so far.
 */
struct rr_proactive_chunk_args {
	size_t size;
	uint64_t nr_requested_pages;
	uint64_t nr_reclaimed_pages;
	uint64_t nr_calls;
};

/**
 * struct rr_policy - one policy: identity and hooks
 * @abi_version: RR_POLICY_ABI_VERSION the policy was built against.
 * @size:        sizeof(struct rr_policy) the policy was built against.
 * @name:        short name used with -p, e.g. "online-roundup"; [a-z0-9-]+.
 * @base:        name of the policy whose hooks fill this one's NULL hooks;
 *               NULL means "kernel".
 * @summary:     one line for `reclaim-replay policies`.
 * @kernel_ref:  the kernel function and commit the policy mirrors, e.g.
 *               "get_scan_count(), 76073c646f5f".
 *
 * @init:  optional.  Parse @params ("key=value,..." as given after ':' in
 *         `-p ./x.so:key=value,...`, or NULL) and allocate the private state
 *         returned in *@priv.  Unknown keys must return -EINVAL.  Called
 *         once per replay.  A policy without init refuses parameters.
 * @fini:  optional.  Free what @init allocated.
 *
 * @scan_fract_target: the SCAN_FRACT division of get_scan_count()
 *         (mm/vmscan.c).  Set *@nr_scan_pages to the list's scan target in
 *         pages, normally floor or ceil of scan_pages * fraction /
 *         denominator.  The result must be <= scan_pages; larger values are
 *         clamped by the host.  Kernel rules: floor for all memcgs up to
 *         v4.19; ceil for all (68600f623d69) v4.20 - v5.6-rc2; ceil only for
 *         offline memcgs (76073c646f5f) since v5.6.
 *
 * @proactive_chunk: the nr_pages that memory_reclaim() (mm/memcontrol.c;
 *         user_proactive_reclaim() in mm/vmscan.c since ~v6.17) passes to
 *         one try_to_free_mem_cgroup_pages() call.  Set *@nr_pages to the
 *         request in pages; the host then applies the kernel's own
 *         max(nr_pages, SWAP_CLUSTER_MAX) floor, which is not policy.
 *         0 is allowed (it becomes 32).  Kernel rules: remainder
 *         (94968384dde1, v5.19 - v6.5), min(remainder, 32) (0388536ac291,
 *         v6.6 - v6.8), remainder / 4 (287d5fedb377, v6.9+).
 */
struct rr_policy {
	uint32_t abi_version;
	uint32_t size;
	const char *name;
	const char *base;
	const char *summary;
	const char *kernel_ref;

	int (*init)(const char *params, void **priv);
	void (*fini)(void *priv);

	int (*scan_fract_target)(void *priv,
				 const struct rr_scan_fract_args *args,
				 uint64_t *nr_scan_pages);
	int (*proactive_chunk)(void *priv,
			       const struct rr_proactive_chunk_args *args,
			       uint64_t *nr_pages);
};

/* Name of the function a policy .so exports. */
#define RR_POLICY_ENTRY_SYMBOL "rr_policy_entry"

/**
 * rr_policy_entry() - entry point of a loadable policy
 *
 * Return: the policy table, which must stay valid until the .so is
 * unloaded, or NULL to refuse loading (the host reports the file).
 */
typedef const struct rr_policy *(*rr_policy_entry_fn)(void);

/* Helpers for policy authors: the two kernel divisions of get_scan_count(). */
static inline uint64_t rr_div_floor(uint64_t n, uint64_t d)
{
	return n / d;
}

/* DIV64_U64_ROUND_UP() of include/linux/math64.h (68600f623d69). */
static inline uint64_t rr_div_round_up(uint64_t n, uint64_t d)
{
	return (n + d - 1) / d;
}

#ifdef __cplusplus
}
#endif

#endif /* RECLAIM_REPLAY_POLICY_H */
