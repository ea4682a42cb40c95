/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Global reclaim's inputs from the recorder's snapshots (issue 13,
 * docs global-reclaim.md §6): per node, the zones' watermarks, boost,
 * managed and free pages (/proc/zoneinfo) and the node's vmstat counters,
 * as of each snapshot; the vm sysctls of the start; and per memcg the
 * hierarchical LRU sizes of its latest snapshot line, which bound what its
 * dying (offline, not yet released) descendants hold.
 *
 * Fed by the snapshot markers (src/episode/snapshot.c) into struct
 * rr_state; read by the replay.  All sizes are in pages of the recording
 * kernel; -1 (or a -1 return) means "not recorded": a trace from a
 * recorder before 0.3, a damaged line, or no snapshot yet.
 */
#ifndef RR_EPISODE_NODES_H
#define RR_EPISODE_NODES_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/lru.h"
#include "../markers/markers.h"
#include "state.h"

/* The most nodes kept (MAX_NUMNODES of x86-64 kernels); lines of higher
 * node ids are counted and dropped. */
#define RR_MAX_NODES 1024

/* The latest snapshot of node @nid, or NULL when none recorded it. */
const struct rr_node_snapshot *rr_state_node(const struct rr_state *st, int nid);

/* The latest snapshot of node @nid taken at or before @ts_ns (a decision's
 * time), or NULL when none was. */
const struct rr_node_snapshot *rr_state_node_at(const struct rr_state *st, int nid,
						uint64_t ts_ns);

/* The vm sysctls of the recording's start ("vm" line), or NULL when the
 * trace has none; fields -1 where not recorded. */
const struct rr_marker_vm *rr_state_vm(const struct rr_state *st);

/**
 * rr_node_kswapd_nr_to_reclaim() - kswapd_shrink_node()'s sc->nr_to_reclaim
 * @reclaim_idx: the run's highest zone index (kswapd_wake's zid); values
 *               above the last zone take every zone.
 * Σ over the zones 0..@reclaim_idx with managed pages of max(high, 32 = RR_SWAP_CLUSTER_MAX),
 * "high" as /proc/zoneinfo printed it (high_wmark_pages(), which includes
 * the zone's watermark_boost), in pages, as of @n's snapshot.
 * Return: the pages, or -1 when @n is NULL, incomplete, or a zone in range
 * has no high watermark.
 */
long long rr_node_kswapd_nr_to_reclaim(const struct rr_node_snapshot *n, int reclaim_idx);

/*
 * The most a zone's watermark boost can reach: zone->watermark_boost is
 * at most max(pageblock_nr_pages, _watermark[WMARK_HIGH] *
 * vm.watermark_boost_factor / 10000) (boost_watermark(), mm/page_alloc.c,
 * 1c30844d2dfe, v5.0).  For a /proc/zoneinfo copy (--zoneinfo) of another
 * time than the trace's, whose boosts are the copy's: the factor's
 * default and x86-64's pageblock (order 9) are assumed, and said so.
 */
#define RR_BOOST_FACTOR_DEFAULT 15000
#define RR_PAGEBLOCK_PAGES 512

/**
 * rr_node_kswapd_nr_to_reclaim_range() - rr_node_kswapd_nr_to_reclaim()
 * at both ends of the zones' watermark boosts: @lo with no boost, @hi
 * with each zone's largest (above), in pages.
 * Return: 0, or -1 as rr_node_kswapd_nr_to_reclaim() (a zone in range
 * without its boost counts as one).
 */
int rr_node_kswapd_nr_to_reclaim_range(const struct rr_node_snapshot *n, int reclaim_idx,
				       long long *lo, long long *hi);

/* The sum of @n's zones' high watermarks at their largest boost (above),
 * pages: an upper bound of what prepare_scan_control() compares file +
 * free pages with; -1 when @n is NULL, incomplete, or lacks a zone's
 * high watermark. */
long long rr_node_high_sum_most(const struct rr_node_snapshot *n);

/* The sum of @n's zones' managed pages (/proc/zoneinfo's "managed"),
 * pages: an upper bound of the node's LRU pages, so of the root memcg's
 * (mm/vmscan.c, lru_note_cost()'s lrusize); -1 when @n is NULL,
 * incomplete, or lacks a zone's managed count. */
long long rr_node_managed_pages(const struct rr_node_snapshot *n);

/* What prepare_scan_control() reads for file_is_tiny (mm/vmscan.c), in
 * pages: the test is file + free <= high_sum (and the ANON deactivation
 * bit clear, and inactive_anon >> priority != 0). */
struct rr_node_tiny {
	uint64_t file;			/* NR_ACTIVE_FILE + NR_INACTIVE_FILE */
	uint64_t free;			/* NR_FREE_PAGES of the node's zones */
	uint64_t high_sum;		/* Σ high_wmark_pages() of its managed zones
					 * (boost included) */
	uint64_t inactive_anon;		/* NR_INACTIVE_ANON */
};

/* Fill @out from @n.  Return: 0, or -1 when @n is NULL, incomplete or
 * lacks one of the counters (then @out is zeroed). */
int rr_node_tiny_inputs(const struct rr_node_snapshot *n, struct rr_node_tiny *out);

/**
 * rr_state_dying_bound() - pages the dying descendants of @m may hold
 * @out:   per LRU list (enum rr_lru), pages: the SUM over all of @m's
 *         descendants that were offline but not yet released (in no
 *         snapshot), as of the flush behind @m's latest snapshot line;
 *         each one alone holds between 0 and that sum.
 * @ts_ns: if not NULL, the time of that line.
 * cgroup v1: total_X(@m) - X(@m) - Σ total_X(c) over @m's children c of
 * the same snapshot (dying grandchildren of c count in c's own bound).
 * cgroup v2 (memory.stat has no local fields, so the recorded local size
 * already holds the dying children's pages): hier_X(@m) - Σ hier_X(c),
 * i.e. @m's own pages plus its dying children's, a looser bound.
 * Negative differences (the two views flushed apart) read as 0.
 * Return: 0, or -1 when no snapshot line gave @m's hierarchical sizes
 * (recorders before 0.3) or the hierarchy's version is not known.
 */
int rr_state_dying_bound(const struct rr_state *st, const struct rr_memcg *m,
			 uint64_t out[RR_NR_LRU], uint64_t *ts_ns);

/*
 * Feeding (snapshot.c).  Each returns 0, or -1 on out of memory.  Lines
 * with a malformed value are not passed here (the caller counts them).
 */
int rr_nodes_snapshot_begin(struct rr_state *st, uint64_t ts_ns);
int rr_nodes_vm(struct rr_state *st, const struct rr_marker_vm *vm, uint64_t ts_ns);
int rr_nodes_zone(struct rr_state *st, const struct rr_marker_zone *z, uint64_t ts_ns);
int rr_nodes_node(struct rr_state *st, const struct rr_marker_node *n, uint64_t ts_ns);
int rr_nodes_memcg(struct rr_state *st, const struct rr_marker_memcg *mc, uint64_t ts_ns);

#endif
