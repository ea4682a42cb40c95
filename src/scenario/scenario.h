/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What-if scenarios: a JSON file describing a cgroup tree and reclaim
 * requests, for questions no recording answers (another page size, a huge
 * folio, thousands of offline cgroups).  Format: man/reclaim-replay-scenario.5.
 * Each request is replayed from the scenario's initial state.
 */
#ifndef RR_SCENARIO_H
#define RR_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../sim/sim.h"

#define RR_SCENARIO_VERSION 1

/* The largest page count a scenario may give (an LRU list, memory.min/low,
 * a request): 2^40 pages, 4 PiB of 4 KiB pages, beyond any machine; more is
 * an error, so that no input drives unbounded simulation work. */
#define RR_SCENARIO_MAX_PAGES (1ULL << 40)

struct rr_scenario_cgroup {
	char *path;			/* "/", "/a", "/a/b" */
	int parent;			/* index, -1 for "/" */
	int first_child, next_sibling;	/* indices, -1 none; list order */
	int last_child;			/* (appending stays O(1)) */
	bool online;
	int swappiness;
	uint64_t lru_pages[RR_NR_LRU];	/* enum lru_list order */
	uint64_t hier_pages[RR_NR_EVICTABLE_LRU];	/* its subtree's, summed */
	bool fraction_override;
	uint64_t fraction[2], denominator;
	uint64_t min_pages, low_pages;
	/* folio_nr_pages() of its anon and file pages: a power of two,
	 * 1..max_folio_pages */
	uint64_t folio_pages[RR_NR_LRU_TYPES];
};

struct rr_scenario_path;

struct rr_scenario_request {
	/* MEMCG ("limit"), PROACTIVE, DIRECT, KSWAPD, NODE */
	enum rr_reclaim_kind kind;
	int cgroup;			/* index of the target; 0 ("/") for the
					 * global kinds */
	uint64_t nr_pages;		/* the request; KSWAPD: its nr_to_reclaim */
	int order;			/* DIRECT, KSWAPD, NODE: sc->order, 0..10 */
	/* KSWAPD: the run ends balanced once it reclaimed this many pages
	 * (docs/kernel-model.md §23.5); UINT64_MAX never */
	uint64_t balance_reclaim_pages;
	/* KSWAPD with "zones": their free pages and high watermarks, summed,
	 * for file_is_tiny when the top level gives no node_* keys */
	bool has_zones;
	uint64_t zones_free_pages, zones_high_wmark_pages;
	bool may_swap;			/* MEMCG_RECLAIM_MAY_SWAP, default true */
	/* proactive only: the write's swappiness= key, 0..200 or
	 * RR_SWAPPINESS_ANON_ONLY ("max"), when has_proactive_swappiness */
	bool has_proactive_swappiness;
	int proactive_swappiness;
};

struct rr_scenario {
	char kernel[64];
	uint64_t page_size_bytes;
	unsigned int page_shift;
	bool swap;
	struct rr_scenario_cgroup *cgroups;	/* parents before children */
	int nr_cgroups;
	struct rr_scenario_path *by_path;	/* hash: path -> index */
	struct rr_scenario_request *requests;
	int nr_requests;
	uint64_t node_free_pages, node_high_wmark_pages;	/* global reclaim */
	bool has_node_pages;		/* either key given */
	enum rr_outcome_model outcome;
	uint64_t ratio_num, ratio_den;		/* reclaimed per scanned page */
	uint64_t activate_num, activate_den;	/* activated per page scanned and not
						 * reclaimed (the simulator's share) */
	uint64_t exact_extra_pages;
	uint64_t folio_pages[RR_NR_LRU_TYPES];	/* the cgroups' default */
	/* the largest folio_pages: HPAGE_PMD_NR of the page size, a PMD
	 * mapping's worth of pages (page_size / 8: 512 of 4 KiB pages, 2048
	 * of 16 KiB, 8192 of 64 KiB, a 512 MiB THP on arm64) */
	uint64_t max_folio_pages;
};

/* Does @path look like a scenario (a JSON object) rather than a trace? */
bool rr_scenario_sniff(const char *path);

/**
 * rr_scenario_load() - read and check a scenario file
 * Return: 0, or -1 with @err naming @path and the JSON element at fault
 * ("cgroups[2].lru.inactive_anon: not a whole number of pages").
 */
int rr_scenario_load(const char *path, struct rr_scenario *sc, struct rr_error *err);

void rr_scenario_free(struct rr_scenario *sc);

/**
 * rr_scenario_sim_input() - simulator input for request @req
 * @in: filled; in->memcgs is allocated (free it).  The subtree of the
 *      request's cgroup in pre-order (siblings in file order); global
 *      reclaim (direct, kswapd, node) walks the whole tree from "/".
 * Return: 0, or -1 on ENOMEM.
 */
int rr_scenario_sim_input(const struct rr_scenario *sc, int req,
			  const struct rr_kernel_model *km, struct rr_sim_input *in);

#endif
