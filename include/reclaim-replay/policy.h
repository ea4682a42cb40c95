/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reclaim-replay policy plug-in ABI, version 2.  Full documentation, with a
 * complete example: reclaim-replay-policy(7).
 *
 * A policy is a constant table of hooks, one hook per reclaim decision of the
 * kernel, plus optional per-episode hooks.  The simulator (src/sim) calls the
 * hooks while it runs the kernel's reclaim loops over a recorded episode.  A
 * decision hook left NULL means "the base policy decides", where the base is
 * named by rr_policy.base; the chain ends at the built-in "kernel" policy,
 * the model of the kernel that made the trace.  The host resolves NULL hooks
 * once at load time, so every decision hook in use is a concrete function.
 *
 * Units: every size is in base pages (PAGE_SIZE of the recorded kernel),
 * never bytes.  Hooks are pure: they may read their inputs and their own
 * private state, but must not do I/O, touch globals or call exit().  They
 * return 0, or a negative errno value on failure; a failing hook stops the
 * whole replay: `compare` exits 1 with an error naming the policy and hook,
 * and writes no output file.
 *
 * Out-of-tree policies are shared objects that export one function,
 * RR_POLICY_ENTRY_SYMBOL, returning a pointer to their struct rr_policy.
 *
 * Versions.  The table and every argument struct only grow at their end.
 * A policy sets abi_version to the RR_POLICY_ABI_VERSION it was built
 * against and size to sizeof(struct rr_policy); the host accepts every
 * version from 1 to its own and reads only the hooks that version knew
 * (as SQLite's iVersion and perf's dlfilter size do), so a plug-in built
 * against an older header keeps loading.  A plug-in built against a newer
 * header than the host's is refused with both versions named.  Argument
 * structs start with their size as compiled by the host: read a field
 * added after your version only if args->size covers it.
 *
 *   version  reclaim-replay  adds
 *   1        0.1             scan_fract_target, proactive_chunk, init, fini
 *   2        0.2             init_host (struct rr_host: release, page size,
 *                            logging, error text, the base's decisions),
 *                            episode_begin, episode_end
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

#define RR_POLICY_ABI_VERSION 2

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
 * Since version 1.
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
 * Since version 1.
 */
struct rr_proactive_chunk_args {
	size_t size;
	uint64_t nr_requested_pages;
	uint64_t nr_reclaimed_pages;
	uint64_t nr_calls;
};

/*
 * The kinds of episode (reclaim request) the simulator runs.  The numbers
 * are fixed.
 */
enum rr_policy_episode_kind {
	/* try_to_free_mem_cgroup_pages(): a charge at a limit, a v1 limit write */
	RR_POLICY_EPISODE_MEMCG = 0,
	/* mem_cgroup_shrink_node(): a v1 soft-limit victim call */
	RR_POLICY_EPISODE_SOFTLIMIT = 1,
	/* try_to_free_pages(): global direct reclaim */
	RR_POLICY_EPISODE_DIRECT = 2,
	/* balance_pgdat(): one kswapd run, from its wake to its next wake or
	 * sleep (hosts from reclaim-replay 0.3 on) */
	RR_POLICY_EPISODE_KSWAPD = 3,
	/* __node_reclaim(): node reclaim (vm.zone_reclaim_mode; 0.3 on) */
	RR_POLICY_EPISODE_NODE = 4,
	/* memory_reclaim(): one write to memory.reclaim (v5.19+) */
	RR_POLICY_EPISODE_PROACTIVE = 5,
};

/**
 * struct rr_episode_args - input of the episode_begin hook
 * @size:           sizeof(struct rr_episode_args) of the host.
 * @id:             the episode's number in the replay (the JSON's "id").
 * @kind:           enum rr_policy_episode_kind.
 * @nr_to_reclaim_pages: what the episode asks for: the memory.reclaim
 *                  request for a proactive one, else the nr_pages passed to
 *                  reclaim (inferred from the trace where it is not traced).
 * @root_memcg_id:  cgroup id (kernfs inode number) of the reclaim root; in
 *                  a scenario, the number the host gave its cgroup.
 * @start_ns:       when it began, in trace time (0 in scenarios).
 * Since version 2.
 */
struct rr_episode_args {
	size_t size;
	uint64_t id;
	int kind;
	uint64_t nr_to_reclaim_pages;
	uint64_t root_memcg_id;
	uint64_t start_ns;
};

/**
 * struct rr_episode_end_args - input of the episode_end hook: what the
 * policy's own replay of the episode did
 * @size:              sizeof(struct rr_episode_end_args) of the host.
 * @id:                as in rr_episode_args.
 * @nr_scanned_pages:  pages taken off the inactive lists.
 * @nr_reclaimed_pages: pages reclaimed.
 * @nr_calls:          try_to_free_mem_cgroup_pages() calls made (1 for a
 *                     limit episode, one per chunk for a proactive one).
 * @lowest_priority:   the lowest priority reached, 0..12 (12: none lower
 *                     than the first, DEF_PRIORITY).
 * @eagain:            proactive episodes only: memory_reclaim() gave up
 *                     with -EAGAIN (its retry budget ran out); false else.
 * Since version 2.
 */
struct rr_episode_end_args {
	size_t size;
	uint64_t id;
	uint64_t nr_scanned_pages;
	uint64_t nr_reclaimed_pages;
	uint64_t nr_calls;
	int lowest_priority;
	bool eagain;
};

/**
 * struct rr_host - what the host offers a policy (version 2), given to
 * init_host and valid until fini returns
 * @size:           sizeof(struct rr_host) of the host.
 * @abi_version:    the host's RR_POLICY_ABI_VERSION.
 * @kernel_release: the modelled release, e.g. "6.18.44-fc-v669".
 * @kernel_major, @kernel_minor: its MAJOR.MINOR, e.g. 6 and 18.
 * @page_size_bytes: PAGE_SIZE of the replayed kernel, e.g. 4096.
 * @policy_name:    the spec the policy was loaded with, for messages.
 * @log:            print one line on standard error, prefixed with the
 *                  policy's name; for diagnostics, not for results.  At
 *                  most about 1000 bytes are shown (cut with "..."), and
 *                  control characters (newlines too) appear as \xNN.
 *                  Callable from init_host on, until fini returns.
 * @set_error:      say why init_host (or a hook) is about to return an
 *                  error; the host shows the text (at most 255 bytes, cut
 *                  with "...", control characters as \xNN) in its error
 *                  message instead of strerror().  The last text set is
 *                  the one shown.
 * @base_scan_fract_target, @base_proactive_chunk: the decision the base
 *                  policy (the chain before this one; in the end "kernel")
 *                  takes for the same arguments.  Same contract as the
 *                  hooks; callable from init_host on.  -ENOSYS only for the
 *                  kernel policy itself, which has no base.
 * @host_data:      the host's; do not touch.
 */
struct rr_host {
	size_t size;
	uint32_t abi_version;
	const char *kernel_release;
	int kernel_major, kernel_minor;
	uint64_t page_size_bytes;
	const char *policy_name;
	void (*log)(const struct rr_host *host, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void (*set_error)(const struct rr_host *host, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	int (*base_scan_fract_target)(const struct rr_host *host,
				      const struct rr_scan_fract_args *args,
				      uint64_t *nr_scan_pages);
	int (*base_proactive_chunk)(const struct rr_host *host,
				    const struct rr_proactive_chunk_args *args,
				    uint64_t *nr_pages);
	void *host_data;
};

/**
 * struct rr_policy - one policy: identity and hooks
 * @abi_version: RR_POLICY_ABI_VERSION the policy was built against (1..2).
 * @size:        sizeof(struct rr_policy) the policy was built against.
 * @name:        short name used with -p, e.g. "online-roundup"; [a-z0-9-]+.
 * @base:        name of the built-in policy whose hooks fill this one's NULL
 *               decision hooks; NULL means "kernel".
 * @summary:     one line for `reclaim-replay policies`.
 * @kernel_ref:  the kernel function and commit the policy mirrors, e.g.
 *               "get_scan_count(), 76073c646f5f".
 *
 * @init:  optional (v1).  Parse @params ("key=value,..." as given after ':'
 *         in `-p ./x.so:key=value,...`, or NULL) and allocate the private
 *         state returned in *@priv.  Unknown keys must return -EINVAL.
 *         Called once per replay.  Ignored when @init_host is set.  A
 *         policy with neither refuses parameters.
 * @fini:  optional.  Free what @init or @init_host allocated.
 *
 * @scan_fract_target: the SCAN_FRACT division of get_scan_count()
 *         (mm/vmscan.c), since v1.  Set *@nr_scan_pages to the list's scan
 *         target in pages, normally floor or ceil of scan_pages * fraction /
 *         denominator.  The result must be <= scan_pages; larger values are
 *         clamped by the host.  Kernel rules: floor for all memcgs up to
 *         v4.19; ceil for all (68600f623d69) v4.20 - v5.6-rc2; ceil only for
 *         offline memcgs (76073c646f5f) since v5.6.
 *
 * @proactive_chunk: the nr_pages that memory_reclaim() (mm/memcontrol.c;
 *         user_proactive_reclaim() in mm/vmscan.c since ~v6.17) passes to
 *         one try_to_free_mem_cgroup_pages() call, since v1.  Set
 *         *@nr_pages to the request in pages; the host then applies the
 *         kernel's own max(nr_pages, SWAP_CLUSTER_MAX) floor, which is not
 *         policy.  0 is allowed (it becomes 32).  Kernel rules: remainder
 *         (94968384dde1, v5.19 - v6.5), min(remainder, 32) (0388536ac291,
 *         v6.6 - v6.8), remainder / 4 (287d5fedb377, v6.9+).
 *
 * @init_host: optional (v2), instead of @init: as @init, with @host, which
 *         stays valid until @fini returns (keep it in *@priv to call its
 *         base_* decisions from a hook).  On a refusal, call
 *         host->set_error() to say which key or value is wrong.
 * @episode_begin: optional (v2).  Called before the policy's replay of each
 *         episode, with what the episode asks for: the entry of
 *         try_to_free_mem_cgroup_pages(), mem_cgroup_shrink_node(),
 *         try_to_free_pages() or memory_reclaim() (see @kind).  For a
 *         stateful controller (a senpai-style memory.reclaim driver); the
 *         decision hooks that follow belong to this episode.  Only
 *         episodes the host replays reach it (not MGLRU ones, nor those
 *         whose reclaim root is not known): ids may have gaps.
 * @episode_end: optional (v2).  Called after it, with what the replay did
 *         (the function's return).  Unlike decision hooks, the episode
 *         hooks of every component of a '+' composition are called, in
 *         order.  Either returning non-zero (a negative errno) stops the
 *         replay with an error naming the policy and the hook, and the
 *         text of set_error() if any; no output file is written.
 */
struct rr_policy {
	/* since version 1 */
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

	/* since version 2 */
	int (*init_host)(const struct rr_host *host, const char *params, void **priv);
	int (*episode_begin)(void *priv, const struct rr_episode_args *args);
	int (*episode_end)(void *priv, const struct rr_episode_end_args *args);
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

/*
 * Helpers for policy authors: the two kernel divisions of get_scan_count().
 * @d > 0 (a SCAN_FRACT denominator is); for the round-up, @n + @d - 1 must
 * not pass 2^64, which the host's arguments (scan_pages * fraction) do not.
 */
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
