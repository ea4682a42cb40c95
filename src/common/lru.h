/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LRU vocabulary every stage shares: enum lru_list of
 * include/linux/mmzone.h (docs/kernel-model.md §15).
 * Lists come in pairs: even = inactive, odd = active; 0-1 anon, 2-3 file;
 * 4 unevictable, which reclaim never scans.
 */
#ifndef RR_COMMON_LRU_H
#define RR_COMMON_LRU_H

#include <stdbool.h>

enum rr_lru {
	RR_LRU_INACTIVE_ANON,
	RR_LRU_ACTIVE_ANON,
	RR_LRU_INACTIVE_FILE,
	RR_LRU_ACTIVE_FILE,
	RR_LRU_UNEVICTABLE,
};

/* NR_EVICTABLE_LRU_LISTS / NR_LRU_LISTS of the kernel */
#define RR_NR_EVICTABLE_LRU 4
#define RR_NR_LRU 5

/* The two LRU types: index of anon/file pairs (fraction[], costs, ...). */
enum rr_lru_type { RR_LRU_ANON, RR_LRU_FILE };
#define RR_NR_LRU_TYPES 2

/* is_file_lru() */
static inline bool rr_lru_is_file(int lru)
{
	return lru == RR_LRU_INACTIVE_FILE || lru == RR_LRU_ACTIVE_FILE;
}

/* is_active_lru() */
static inline bool rr_lru_is_active(int lru)
{
	return lru == RR_LRU_ACTIVE_ANON || lru == RR_LRU_ACTIVE_FILE;
}

/* 0 (RR_LRU_ANON) for the anon lists, 1 (RR_LRU_FILE) for the file lists */
static inline int rr_lru_type(int lru)
{
	return rr_lru_is_file(lru) ? RR_LRU_FILE : RR_LRU_ANON;
}

/* A list reclaim scans: 0..3. */
static inline bool rr_lru_is_evictable(int lru)
{
	return lru >= RR_LRU_INACTIVE_ANON && lru < RR_NR_EVICTABLE_LRU;
}

/* enum lru_list names as the isolate event prints them: inactive_anon,
 * active_anon, inactive_file, active_file, unevictable. */
extern const char *const rr_lru_names[RR_NR_LRU];

/* rr_lru_names[@lru], or "unknown" outside 0..4. */
const char *rr_lru_name(int lru);

#endif
