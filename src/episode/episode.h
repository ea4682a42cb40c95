/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Episode builder: cuts the event stream into reclaim episodes, one per
 * reclaim request of a task (a memcg, soft-limit, direct or node reclaim
 * begin/end pair, a kswapd run from wake to sleep, a memory.reclaim write
 * between the recorder's proactive markers), nested per task, attributes
 * each LRU batch to a memcg (docs/kernel-model.md §12.4),
 * and hands each episode over when it closes.  Episodes of the kinds the
 * simulator replays carry a start state: the memcg table as it was at
 * their begin (state.h, epochs), the decision inputs of each batch, and the
 * inputs the trace does not give, inferred and labelled.
 *
 * Memory: the memcg table, the tasks in reclaim and their open episodes;
 * events are not kept, and a task's record goes when its reclaim ends.
 *
 * The episode stage's header: what other stages use of it.  Jobs, one
 * file each, in the order they call each other (a file calls only those
 * after it; episode-local.h declares their functions):
 *   builder.c        dispatch of each event to the job that owns it
 *   snapshot.c       the recorder's snapshots and markers applied to the state
 *   write-probe.c    memory.reclaim writes from the recorder's memory_reclaim()
 *                    probe (docs/kernel-model.md §26 item 5)
 *   requests.c       the episode stack of a task: begin, end, lost, finish
 *   probe.c          the recorder's shrink_lruvec() probe: each call's memcg
 *                    and inputs (docs/kernel-model.md §26)
 *   proactive.c      memory.reclaim writes inferred from plain memcg calls
 *   batches.c        the batch in flight of a task: isolate, close
 *   attribute.c      each batch's memcg where the trace has no memcg: events
 *   attribute-root.c ... the reclaim root and the memcgs that fit a batch
 *   hierarchy.c      the cgroup v1 memory hierarchy, cgroup events
 *   batch-effects.c  what a closed batch does to its memcg
 *   capture.c        the decision inputs of a batch (struct rr_batch_ctx)
 *   episodes.c       episode records, the hand-over to the callback
 *   tasks.c          tasks in reclaim, the memcgs of tasks
 *   infer.c          reclaim root, nr_to_reclaim, swap
 *   siminput.c       the simulator's input for an episode
 *   nodes.c          zones, nodes and vm sysctls of the snapshots (nodes.h)
 *   state.c          the memcg table and its start states (state.h)
 */
#ifndef RR_EPISODE_H
#define RR_EPISODE_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../common/lru.h"
#include "../common/reclaim-kind.h"
#include "../sim/sim.h"
#include "../trace/trace.h"
#include "nodes.h"
#include "state.h"

#define RR_CHAIN_MAX 8

/* Without memcg: events, a memcg's sizes count as known for this long
 * after a snapshot read them (the recorder's periodic snapshots come every
 * 100 ms by default), or for good while no task can charge it */
#define RR_ATTR_SIZE_FRESH_NS 250000000ULL

/*
 * State the kernel's decisions read when a batch began, captured when the
 * batch was attributed to its memcg (before its own decrement): the
 * memcg's exact sizes before this task's lru_add_drain() deltas, and for
 * the memcg and each ancestor the cost pair and rstat view that
 * prepare_scan_control() would copy if it were the reclaim root.
 */
/* "Any number of LRU pages" where no bound is known (2^40 pages, 4 PiB
 * of 4 KiB pages): large enough that a cost pair of a quarter of it acts
 * as an unbounded one in get_scan_count()'s fractions, small enough that
 * those fractions' products do not overflow 64 bits. */
#define RR_COST_UNBOUNDED_PAGES (1ULL << 40)

struct rr_batch_ctx {
	bool valid;
	bool online;
	bool in_window;		/* inside the rmdir -> offline window: online unknown */
	/* outside the recorder's view (rr_memcg.online_unknown): online or
	 * dying, unknown; @online holds true */
	bool online_unknown;
	int swappiness;
	bool swappiness_known;	/* rr_memcg_swappiness_known(); else assumed */
	bool unprotected;	/* rr_memcg_unprotected_known() */
	/* no memcg_flush_stats seen in the trace yet: the rstat views may be
	 * older than the trace shows (chain[].hier_lru_pages hold the exact
	 * hierarchical sizes, what a flush just now would have given) */
	bool flush_unknown;
	bool hier_missing;	/* flush_unknown, and too many memcgs to sum */
	/* a dying memcg (state.h dying_inferred) whose sizes the trace does
	 * not fix: lru_pages are lower bounds, each list is at most
	 * size_ub_type[] of its type (UINT64_MAX: no bound known) */
	bool sizes_bounded;
	uint64_t size_ub_type[RR_NR_LRU_TYPES];
	/* a memcg older than the trace that no snapshot read (and no probe):
	 * lru_pages are lower bounds from the deltas and the batches; a call
	 * whose own first batch shows more is not judged (size_disproved),
	 * so on these sizes a judged call cannot come out wrong by size */
	bool sizes_lower_bound;
	/* other tasks changed the memcg's lists between the task's previous
	 * vmscan event and the batch (concurrent reclaimers, page faults):
	 * the sizes the decision read lie between lru_pages + conc_min and
	 * lru_pages + conc_max, per list (0 and 0: unchanged); conc_unknown
	 * when the builder's ring of deltas does not reach back that far */
	bool conc_unknown;
	/* the call's first batch asked for more than the sizes allow (size >>
	 * priority; an offline memcg's scrape, the size): the sizes it was
	 * predicted on are wrong (rr_builder_stats.lru_sizes_raised, exact
	 * ones; .lru_bounds_disproved, lower bounds) */
	bool size_disproved;
	/* no memcg: events (attribute.c): the sizes are the last snapshot's
	 * less what the batches took, but that snapshot is older than
	 * RR_ATTR_SIZE_FRESH_NS and tasks in the memcg may have been charged
	 * since: not known well enough to judge the call */
	bool sizes_stale;
	int64_t conc_min[RR_NR_EVICTABLE_LRU], conc_max[RR_NR_EVICTABLE_LRU];
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];
	/* 1 + the index in the episode's probes of the shrink_lruvec() probe
	 * of this batch's call, 0 none: then the call's inputs are the
	 * probe's, read from the kernel (docs/kernel-model.md §26) */
	uint32_t probe;
	int depth;
	struct {
		uint64_t id;
		uint64_t anon_cost, file_cost;
		uint64_t anon_cost_fresh, file_cost_fresh;	/* if flush_unknown */
		uint64_t rstat_lru_pages[RR_NR_EVICTABLE_LRU];
		uint64_t hier_lru_pages[RR_NR_EVICTABLE_LRU];	/* if flush_unknown */
		bool refaults_changed[RR_NR_LRU_TYPES];
		/* a snapshot_refaults() of it is in the trace: refaults_changed
		 * is known (else its WORKINGSET_ACTIVATE counts since the last
		 * one before the trace are not) */
		bool refault_known;
		/* how far its cost pair may be off (pages, each of anon and
		 * file): what it held before the trace, at most a quarter of its
		 * LRU pages (lru_note_cost()), halved with every halving since;
		 * 0 for a memcg made in the trace; of the node's managed pages
		 * where its sizes are lower bounds, RR_COST_UNBOUNDED_PAGES / 4
		 * where no snapshot or zoneinfo copy gives them */
		uint64_t cost_unknown;
		/* its sizes are lower bounds (no snapshot read it; a plain
		 * trace): inactive_is_low() of its view is not known */
		bool sizes_lower_bound;
		/* ... plus, per type, what notes of unknown size may have added
		 * (rr_memcg_vals.cost_uncertain) */
		uint64_t cost_uncertain[RR_NR_LRU_TYPES];
		/* the root memcg: the least and largest (anon, file) cost its
		 * pair had since the task's previous vmscan event (cost_range) */
		bool cost_range;
		uint64_t cost_lo[RR_NR_LRU_TYPES], cost_hi[RR_NR_LRU_TYPES];
		uint64_t cost_pre_halving[RR_NR_LRU_TYPES];	/* see state.h */
	} chain[RR_CHAIN_MAX];	/* [0] the memcg itself, then its ancestors */
};

/*
 * A memcg the walk visited without a batch: between two consecutive
 * recorded calls of an episode, in the walk's pre-order, the kernel's
 * memcg walk called shrink_lruvec() on every memcg (v1 usage-0 skips aside)
 * and it made none.  Its decision inputs as captured when the call after
 * it began (docs/kernel-model.md §19.3).
 */
struct rr_silent_ctx {
	size_t before;		/* index of the batch that began the next call */
	uint64_t memcg_id;
	bool online, in_window, swappiness_known;
	bool protected_;	/* not known unprotected: the walk may skip it */
	int swappiness;
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];
	uint64_t rstat_lru_pages[RR_NR_EVICTABLE_LRU];	/* its own rstat view */
	/* its exact hierarchical sizes, what a flush just before would have
	 * given it: set (hier_valid) where the call's context is flush_unknown */
	uint64_t hier_lru_pages[RR_NR_EVICTABLE_LRU];
	bool hier_valid;
	/* the recorder's shrink_lruvec() probe saw this visit (1 + its index
	 * in the episode's probes; 0: inferred from the walk's order): its
	 * inputs are all there, its pass's switches included */
	uint32_t probe;
};

/* The most silent visits kept for one episode; beyond, they are counted
 * (silent_cut) and not judged. */
#define RR_SILENT_MAX 65536

/*
 * How a batch's memcg was found.  Kernels before 6.13 have no memcg:
 * events: the builder then infers it (attribute.c, docs/kernel-model.md
 * §24) and says on what evidence.
 */
enum rr_attr_basis {
	RR_ATTR_EVENT = 0,	/* a memcg: event after its isolate named it */
	RR_ATTR_SINGLE,		/* the only memcg of the walk that can hold
				 * pages on its list: exact */
	RR_ATTR_WALK,		/* the walk's pre-order, the visit's list order
				 * and the sizes the snapshots give */
	RR_ATTR_AMBIGUOUS,	/* more than one memcg fits: the first in walk
				 * order is taken, its call is not judged */
	RR_ATTR_ASSUMED,	/* the trace names no memcg at all: one stand-in
				 * (the task's memcg, or the root) */
	RR_ATTR_PROBE,		/* the recorder's shrink_lruvec() probe named
				 * it (docs/kernel-model.md §26): exact */
	RR_ATTR__COUNT
};

/* One recorded LRU batch: an mm_vmscan_lru_isolate and what followed it.
 * Counts in pages. */
struct rr_batch {
	uint64_t memcg_id;	/* 0: not attributed (no memcg: event followed) */
	uint8_t attr;		/* enum rr_attr_basis of memcg_id */
	int lru;		/* enum rr_lru */
	int priority;		/* -1 until known */
	uint64_t ts_ns;		/* the isolate event */
	uint64_t nr_requested, nr_scanned, nr_taken;
	uint64_t nr_reclaimed;	/* from lru_shrink_inactive; 0 for active */
	uint64_t nr_activate;	/* from lru_shrink_inactive: put back active */
	uint64_t nr_deactivate;	/* from lru_shrink_active: moved to the inactive list */
	uint64_t nr_pageout;	/* mm_vmscan_write_folio events of the batch */
	bool has_shrink;	/* an lru_shrink_* event closed the batch */
	bool mglru;		/* nr_requested > SWAP_CLUSTER_MAX: MGLRU's scan_folios() */
	int8_t order;		/* the isolate's sc->order; -1 not in the record */
	int8_t classzone;	/* the isolate's highest zone index (reclaim_idx);
				 * -1 not in the record */
	uint32_t call;		/* proactive episodes: the reclaim call it was in
				 * (0, 1, ...); 0 in every other episode */
	uint64_t end_ns;	/* its lru_shrink_* event (the time model), 0 none */
};

/*
 * One try_to_free_mem_cgroup_pages() call of a proactive episode, as the
 * recording shows it (its mm_vmscan_memcg_reclaim_begin/end pair).
 */
struct rr_reclaim_call {
	uint64_t start_ns, end_ns;
	uint64_t nr_to_reclaim_pages;	/* as inferred for the call (infer.c) */
	uint64_t nr_to_reclaim_low, nr_to_reclaim_high;	/* its bounds (low, high], 0 open */
	uint64_t nr_reclaimed_pages;	/* mm_vmscan_memcg_reclaim_end */
	uint64_t nr_scanned_pages;	/* nr_taken of its inactive batches */
	size_t nr_batches;
};

/* The exact LRU sizes when a recorded shrink_lruvec() call of a proactive
 * episode began (the first batch of a (memcg, priority) run): what
 * rr_batch_ctx.lru_pages is for a memcg episode, kept for these batches
 * only. */
struct rr_call_bound {
	size_t batch;			/* index in the episode's batches */
	uint64_t lru_pages[RR_NR_EVICTABLE_LRU];
};

struct rr_episode {
	uint64_t seq;			/* 1, 2, ... in order of start, all kinds */
	uint64_t parent_seq;		/* the enclosing episode of the task, 0 none */
	int depth;			/* 0 outermost */
	enum rr_reclaim_kind kind;
	int pid;
	uint64_t start_ns, end_ns;	/* start: begin event, or first event seen */
	bool no_begin;			/* started before the trace (end without begin) */
	/* began before the recorder's start snapshot ended (a trace with its
	 * meta marker): the sizes it read are not in the trace yet */
	bool before_start_snapshot;
	bool no_end;			/* no end event: the trace stopped, or the
					 * end was lost (a begin of the same task
					 * or an outer end came first) */
	bool end_inferred;		/* kswapd: ended by its next wake, not a sleep */
	/* direct/node reclaim: the allocation's order (begin event); kswapd:
	 * the wake's order; -1 not in the trace */
	int order;
	int classzone;			/* kswapd: the wake's zid; -1 not in the trace */
	int nid;			/* kswapd, node reclaim: the node (begin event) */
	uint64_t target_memcg_id;	/* the begin event's memcg_id= (the reclaim
					 * root), 0 not in the record */
	bool lost_events;		/* events were lost while it was open */
	bool mglru;			/* MGLRU batches, or an MGLRU system with batches */
	bool has_nr_reclaimed;
	uint64_t recorded_nr_reclaimed;	/* from the end event, pages */
	uint64_t proactive_bytes;	/* proactive: bytes asked for */
	/* proactive episodes (the recorder's markers around one memory.reclaim
	 * write): the write's swappiness= key (-1 none, 0..200,
	 * RR_SWAPPINESS_ANON_ONLY), how it ended (the end marker's errno: 0,
	 * EAGAIN, EINTR, ...; -1 unknown), the memcg written to (0: the marker
	 * did not name it), and the reclaim calls made inside it */
	int proactive_swappiness;
	int proactive_errno;
	uint64_t proactive_memcg_id;
	/* opened by the recorder's memory_reclaim() probe (a write by any
	 * task; docs/kernel-model.md §26 item 5), not by its markers */
	bool write_probed;
	struct rr_reclaim_call *calls;
	size_t nr_calls, cap_calls;
	struct rr_call_bound *bounds;
	size_t nr_bounds, cap_bounds;
	/* the calls do not tell the whole write: a call without its begin or
	 * end, or batches outside any call (the reason, for the output) */
	const char *calls_incomplete;
	/* a write whose begin or end marker is not in the trace (cut, lost,
	 * or a second begin of the task): handed over unreplayable, for the
	 * replay to show as skipped */
	bool unterminated_write;
	/* a proactive episode inferred from plain memcg calls (no markers):
	 * the evidence that opened it ("pgscan_proactive" counter, or "size":
	 * a first call asking for more than any charge), and when its last
	 * call ended; the request is inferred by the replay (bytes 0 here) */
	const char *proactive_inferred;
	bool pgscan_proactive;		/* a batch counted as PGSCAN_PROACTIVE */
	uint64_t run_last_end_ns;
	uint64_t request_low_pages, request_high_pages;	/* set by the replay */
	struct rr_episode *run_next;	/* the builder's open inferred writes */
	/* a memcg call inside a replayable proactive episode: that episode
	 * (open, valid during the callback); its replay is the proactive
	 * episode's, the call is checked for fidelity only */
	struct rr_episode *proactive;
	struct rr_batch *batches;	/* all of them, or none when the builder
					 * keeps no batches of this kind */
	size_t nr_batches, cap_batches;

	/* replayable episodes (memcg, soft limit) with a begin and an end */
	bool replayable;
	uint64_t replay_seq;		/* 1, 2, ... in order of end among them */
	uint64_t epoch;			/* start state (rr_memcg_at()) */
	struct rr_batch_ctx *ctx;	/* one per batch */
	size_t cap_ctx;
	struct rr_silent_ctx *silent;	/* replayable episodes: silent visits */
	size_t nr_silent, cap_silent;
	uint64_t silent_cut;		/* visits beyond RR_SILENT_MAX */
	uint64_t task_memcg_id;		/* from cgroup_attach_task, 0 unknown */
	uint64_t root_memcg_id;		/* inferred reclaim root, 0 unknown */
	/* where the trace does not fix the root (no snapshot limit): its
	 * ancestors that could be the memcg over its limit as well, nearest
	 * first: those made in the trace or seen as a root of another
	 * episode (docs/kernel-model.md §19.3) */
	uint64_t root_alternatives[4];
	int nr_root_alternatives;
	const char *root_path;		/* valid during the callback */
	uint64_t first_lost_ns;		/* events were lost before this (0: none) */
	/* nr_to_reclaim inferred from the checkpoints, pages */
	uint64_t nr_to_reclaim_pages;
	const char *nr_to_reclaim_basis;	/* "fit", "lower-bound", "v1-softlimit", "none" */
	uint64_t nr_to_reclaim_low, nr_to_reclaim_high;	/* (low, high], 0 = open */
	bool swap_inferred_present;
	/* whence: the --swap option, the recorder's meta marker, or inactive
	 * anon batches earlier (proof of free swap then); false: nothing in
	 * the trace so far said, and swap_inferred_present is an assumption */
	bool swap_known;
	bool in_offline_window;		/* a memcg of the walk was within the
					 * rmdir -> offline window */
	bool no_recording;		/* a scenario request: nothing recorded */
	bool overlapped;		/* another task reclaimed at the same time */
	/* another task's batch fell under the reclaim root while this episode
	 * ran (infer.c, from rr_memcg.visit_*) */
	bool walk_interleaved;
	/* the recorder's shrink_lruvec() probe (docs/kernel-model.md §26):
	 * one record per call of the episode, in order; batch contexts and
	 * silent visits point into them (rr_batch_ctx.probe); the request's
	 * nr_to_reclaim and reclaim root as the first one read them (the
	 * root 0 where its address was not seen yet) */
	struct rr_lruvec_probe *probes;
	size_t nr_probes, cap_probes;
	bool probed;
	uint64_t probe_nr_to_reclaim, probe_root_id;
	bool probe_global;		/* target_mem_cgroup NULL: global reclaim */
	/* the passes' switches the probes read, for the free run (sim.h
	 * struct rr_sim_pass; a write: its calls', numbered) */
	struct rr_sim_pass *passes;
	size_t nr_passes, cap_passes;

	/* the builder's links */
	struct rr_episode *outer;	/* the task's stack */
	struct rr_episode *open_prev, *open_next;	/* every open episode */
	/* open, replayable and not yet overlapped (builder's `fresh` list):
	 * what a new reclaimer must mark, so that a begin costs no walk of
	 * every open episode */
	struct rr_episode *fresh_prev, *fresh_next;
	bool in_fresh;
};

/**
 * rr_episode_cb - called once for every episode that closes, any kind
 * @ep: valid during the call only; ep->replayable says whether it has the
 *      start state and inputs of a replay.
 * Return: 0, or non-zero to stop (rr_builder_feed() returns it).
 */
/**
 * rr_nr_to_reclaim_fits() - nr_to_reclaim values that fit the checkpoints
 * @low, @high: the interval (low, high] in pages, @high 0 for open
 *              (docs/kernel-model.md §8.2).
 * @stop_above: after the first value above this many pages, stop (every
 *              larger one acts alike); UINT64_MAX for no such stop.
 * The values are max(2^k, SWAP_CLUSTER_MAX) pages, ascending, at most
 * 2^40.  Return: how many were written to @out (at most @cap).
 */
size_t rr_nr_to_reclaim_fits(uint64_t low, uint64_t high, uint64_t stop_above, uint64_t *out,
			     size_t cap);

typedef int (*rr_episode_cb)(struct rr_episode *ep, struct rr_state *st, void *ctx);

struct rr_builder_opts {
	uint64_t offline_delay_ns;	/* rmdir -> offline assumed delay */
	/* a memcg call of a plain trace that surely asked for more pages than
	 * this opens an inferred memory.reclaim write (proactive.c); 0: never.
	 * The replay gives HPAGE_PMD_NR (PAGE_SIZE / 8 pages): no charge asks
	 * for more */
	uint64_t proactive_min_pages;
	bool partial_walk;		/* v6.11+: goal checked after each memcg */
	/* the input holds memcg_flush_stats (a trace.dat with its format):
	 * before its first flush, the views are those the trace gave; else
	 * (text, or no format) they may be older until a flush is seen */
	bool flushes_recorded;
	int swap_present;		/* -1 infer, 0, 1 */
	bool keep_all_batches;		/* batches of every kind (report); else
					 * only of the replayable kinds */
	/* the trace has no memcg: events (kernels before 6.13, or a recording
	 * made without them): infer each batch's memcg (attribute.c) and
	 * keep sizes from the snapshots and the batches */
	bool infer_attribution;
	/* --drop-memcg-events: read a 6.13+ trace as an older kernel would
	 * have written it; the dropped events only check the inference */
	bool drop_memcg_events;
	/* before v5.4 (1ba6fc9af35b): reclaimers shared one walk position per
	 * (root, node, priority), so a pass visits a suffix of the pre-order,
	 * not the whole walk from the root (as partial_walk does from v6.11,
	 * kswapd aside) */
	bool shared_walk_cursor;
};

struct rr_builder;

struct rr_builder *rr_builder_new(const struct rr_builder_opts *opts,
				  rr_episode_cb cb, void *ctx);
void rr_builder_free(struct rr_builder *b);
struct rr_state *rr_builder_state(struct rr_builder *b);

/* Feed one event.  Return 0, the callback's non-zero value, or -1 on ENOMEM. */
int rr_builder_feed(struct rr_builder *b, const struct rr_event *ev);

/* Close the episodes still open at the end of the trace (flagged no_end;
 * the replayable ones among them are counted, not replayed: their outcome
 * is unknown).  Return the number of replayable episodes closed so; -1
 * when the callback failed or memory ran out. */
int rr_builder_finish(struct rr_builder *b);

struct rr_builder_stats {
	uint64_t events;
	/* snapshot memcg lines dropped: a value no kernel gives */
	uint64_t markers_malformed;
	char first_malformed_marker[96];
	uint64_t episodes[RR_KIND__COUNT];	/* closed, by kind */
	uint64_t proactive_inferred;	/* memory.reclaim writes inferred from plain calls */
	/* proactive begin markers whose path= names no memcg of the trace
	 * (the root then comes from the calls), and the first such path */
	uint64_t proactive_paths_unknown;
	char first_unknown_path[96];
	uint64_t replay_ended[RR_KIND__COUNT];	/* replayable ones with an end */
	uint64_t unterminated_episodes;	/* replayable ones without an end */
	uint64_t begins[RR_KIND__COUNT];	/* begin events (kswapd: wakes) */
	uint64_t batches, batches_unattributed;
	uint64_t markers;
	uint64_t mglru_batches;		/* isolates with nr_requested > 32 */
	uint64_t lru_isolate_bounds;	/* start sizes raised by the isolate bound */
	uint64_t shrink_without_isolate;	/* lru_shrink_* with no isolate before it */
	unsigned int tasks, tasks_peak;	/* task records: now, and at most */
	bool mglru_from_meta;		/* the recorder saw lru_gen enabled */
	/* from `reclaim-replay record` markers (man reclaim-replay-record.1) */
	bool meta_seen;			/* the "meta" marker */
	int swap_from_meta;		/* -1 unknown, 0 no swap, 1 swap */
	uint64_t snapshot_memcgs;	/* memcgs in the start snapshot */
	/* batches that asked for more than the exact size >> priority allows:
	 * the memcg's size raised to nr_requested << priority */
	uint64_t lru_sizes_raised;
	/* calls predicted on a lower bound of a start size (no snapshot read
	 * the memcg) that their first batch raised: not judged */
	uint64_t lru_bounds_disproved;
	uint64_t snapshot_protected;	/* snapshot lines with memory.min/low > 0 */
	char kernel_release[64];	/* from the meta marker */
	/* attribution without memcg: events: batches of replayable episodes
	 * by basis (enum rr_attr_basis; [RR_ATTR_EVENT] unused), and, with
	 * drop_memcg_events, how many agree with the dropped events */
	bool attr_inferred;		/* the builder inferred attributions */
	/* the v1 memory hierarchy taken as the only one in the cgroup events */
	bool attr_hierarchy_inferred;
	uint64_t attr[RR_ATTR__COUNT];
	uint64_t memcg_events_dropped;	/* --drop-memcg-events: how many */
	uint64_t attr_checked, attr_agree, attr_wrong;
	uint64_t attr_ambiguous_agree;	/* of the ambiguous, the first fit was right */
	uint64_t attr_targets_assumed;	/* episodes whose reclaim root is a stand-in */
	uint64_t attr_snapshot_sizes;	/* snapshot lines that reset sizes */
	uint64_t attr_periodic_snapshots;	/* "when=periodic" snapshots */
	/* the recorder's shrink_lruvec() probe: records read, and calls of
	 * replayable episodes whose inputs it gave */
	uint64_t probes, probed_calls;
};
const struct rr_builder_stats *rr_builder_stats(const struct rr_builder *b);

/* Is @kind one the simulator replays from a trace? */
bool rr_kind_replayable(enum rr_reclaim_kind kind);

/*
 * The simulator's input for a recorded episode (siminput.c): the reclaim
 * root's subtree as it was when the episode began (pre-order, siblings in
 * creation order), each memcg's start sizes, online state, swappiness and
 * outcome statistics, the recorded batches of each memcg (for the outcome
 * model) and the sizes the kernel saw at each recorded shrink_lruvec()
 * call.
 */

/**
 * rr_episode_sim_input() - the simulator input for a replayable episode
 * @offline_delay_ns: the assumed rmdir -> offline delay (for online states).
 * @in:   filled; in->memcgs, in->outcomes and in->boundaries are
 *        allocated (free all three with rr_episode_sim_input_free());
 *        cursor set to -1.
 * Memcgs created after the episode's start are left out.
 * Return: 0, or -1 when the root is unknown or did not exist at the start
 * (@err says which), or on ENOMEM.
 */
int rr_episode_sim_input(const struct rr_episode *ep, const struct rr_state *st,
			 const struct rr_kernel_model *km, unsigned int page_shift,
			 uint64_t offline_delay_ns, struct rr_sim_input *in,
			 struct rr_error *err);

void rr_episode_sim_input_free(struct rr_sim_input *in);

#endif
