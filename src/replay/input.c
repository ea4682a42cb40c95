// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the replay says of its input: the description the outputs give
 * (what was read, inferred and assumed) and the warnings about events the
 * reader could not give.
 */
#include "replay-local.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What the replay had to assume, and the reader's and builder's counts. */
void rr_replay_describe_input(struct replay *r, const struct rr_trace_info *ti,
			      struct rr_input_desc *in)
{
	const struct rr_builder_stats *bs = rr_builder_stats(r->builder);
	const struct rr_state *st = rr_builder_state(r->builder);

	memset(in, 0, sizeof(*in));
	in->file = r->o->trace_path;
	in->kernel_release = r->km.release;
	in->release_source = r->release_source;
	in->kernel_policy = r->kernel_policy;
	in->kernel_policy_source = r->kernel_policy_source;
	in->page_size_bytes = r->page_size_bytes;
	in->ti = ti;
	in->bs = bs;
	in->offline_delay_ns = r->offline_delay_ns;
	in->outcome_model = r->o->outcome_exact ? "exact" : "structural";
	in->drop_memcg_events = r->o->drop_memcg_events;
	in->rstat_flushes = st->nr_flushes;
	in->memcgs = st->nr_memcgs;
	in->reader_warnings = rr_trace_lib_warnings(&in->reader_first_warning);
/* (RR_MAX_ASSUMPTIONS holds every note at once: there are fewer ASSUME()s) */
#define ASSUME(text) ((void)(in->nr_assumptions < RR_MAX_ASSUMPTIONS && \
			     (in->assumptions[in->nr_assumptions++] = (text))))
	if (r->release_note[0])
		ASSUME(r->release_note);
	if (r->o->swap_present < 0 && bs->swap_from_meta < 0)
		ASSUME("swap presence inferred: present if memcg reclaim isolated inactive anon "
		       "pages earlier in the trace, else from the calls only swap or only no swap "
		       "explains, where those agree (fitted)");
	if (!bs->snapshot_memcgs) {
		if (st->memory_root != 0 || !st->default_swappiness_known)
			ASSUME("v1 per-memcg swappiness not in the trace: 60 (vm_swappiness "
			       "default) assumed, inherited at mkdir (report --fidelity fits it)");
		/* (without memcg: events the sizes are said with the inference) */
		if (!bs->attr_inferred)
			ASSUME("memcgs that predate the trace: LRU sizes are the smallest start "
			       "values that keep every running sum >= 0");
		if (bs->lru_isolate_bounds)
			ASSUME("memcgs that predate the trace: start sizes raised to nr_requested << "
			       "priority of their batches (offline ones: nr_requested where the "
			       "scrape is possible; no memory.low/min protection assumed)");
	}
	/* a global walk visits every memcg, also those the recorder could not
	 * read (another cgroup namespace: other containers' memcgs) */
	if (st->view_root_id) {
		snprintf(r->unread_note, sizeof(r->unread_note),
			 "the recorder's snapshots hold only the subtree of memcg id %llu (its "
			 "\"/\": a cgroup namespace, or a container's own cgroup mounted as the "
			 "hierarchy): %u memcgs the trace shows are outside it, another "
			 "container's or dying, which the trace cannot tell apart: online "
			 "unknown (taken as online by the replay, both tried by --fidelity), LRU "
			 "sizes lower bounds (the smallest start values that keep every running "
			 "sum >= 0, raised by their batches); the walk's visits without a batch "
			 "not judged",
			 (unsigned long long)st->view_root_id, rr_state_nr_outside_view(st));
		ASSUME(r->unread_note);
	} else if (bs->snapshot_memcgs && !bs->attr_inferred &&
		   (bs->episodes[RR_KIND_KSWAPD] || bs->episodes[RR_KIND_DIRECT] ||
		    bs->episodes[RR_KIND_NODE])) {
		unsigned int n = rr_state_nr_sizes_unread(st);

		if (n) {
			snprintf(r->unread_note, sizeof(r->unread_note),
				 "global reclaim: %u memcgs the snapshots did not read (outside "
				 "the recorder's view, or dying): their LRU sizes are lower bounds "
				 "(the smallest start values that keep every running sum >= 0, "
				 "raised to nr_requested << priority of their batches, offline "
				 "ones to nr_requested where the scrape is possible)", n);
			ASSUME(r->unread_note);
		}
	}
	if (bs->lru_sizes_raised) {
		snprintf(r->raised_note, sizeof(r->raised_note), "%llu batches asked for more than size >> priority of "
			 "the sizes the trace gives (it missed pages of those memcgs): the sizes "
			 "raised to nr_requested << priority, and those calls not judged",
			 (unsigned long long)bs->lru_sizes_raised);
		ASSUME(r->raised_note);
	}
	if (bs->lru_bounds_disproved) {
		snprintf(r->bounds_note, sizeof(r->bounds_note), "%llu calls were predicted on "
			 "a lower bound of a memcg's size that their own batches raised "
			 "(the trace does not give that memcg's start sizes): not judged "
			 "(sizes_disproved)", (unsigned long long)bs->lru_bounds_disproved);
		ASSUME(r->bounds_note);
	}
	if (bs->attr_inferred) {
		uint64_t n = bs->attr[RR_ATTR_SINGLE] + bs->attr[RR_ATTR_WALK] +
			     bs->attr[RR_ATTR_AMBIGUOUS] + bs->attr[RR_ATTR_ASSUMED];

		bool had_events = bs->memcg_events_dropped > 0;

		snprintf(r->attr_note, sizeof(r->attr_note),
			 "no memcg: events (%s): the memcg of each of %llu batches inferred: "
			 "%llu the only memcg of the walk holding pages on the list, %llu by the "
			 "walk's order and the sizes, %llu ambiguous (the first fit taken, their "
			 "calls not judged), %llu a stand-in (the trace names no memcg); sizes "
			 "from %llu snapshot lines%s plus what the batches show (lower bounds; "
			 "docs/kernel-model.md section 24)",
			 had_events ? "dropped by --drop-memcg-events" :
			 "kernels before 6.13 have none, record --no-memcg-events leaves them off",
			 (unsigned long long)n,
			 (unsigned long long)bs->attr[RR_ATTR_SINGLE],
			 (unsigned long long)bs->attr[RR_ATTR_WALK],
			 (unsigned long long)bs->attr[RR_ATTR_AMBIGUOUS],
			 (unsigned long long)bs->attr[RR_ATTR_ASSUMED],
			 (unsigned long long)bs->attr_snapshot_sizes,
			 bs->attr_periodic_snapshots ? ", periodic ones among them" :
			 ", no periodic ones");
		ASSUME(r->attr_note);
		if (r->o->drop_memcg_events && !had_events) {
			ASSUME("--drop-memcg-events: the trace has no memcg: events; the inference "
			       "is not checked");
		} else if (r->o->drop_memcg_events) {
			snprintf(r->attr_check_note, sizeof(r->attr_check_note),
				 "attribution checked against the dropped memcg: events: %llu of "
				 "%llu batches agree, %llu wrong, %llu ambiguous (%llu of them "
				 "right)", (unsigned long long)bs->attr_agree,
				 (unsigned long long)bs->attr_checked,
				 (unsigned long long)bs->attr_wrong,
				 (unsigned long long)(bs->attr_checked - bs->attr_agree -
						      bs->attr_wrong),
				 (unsigned long long)bs->attr_ambiguous_agree);
			ASSUME(r->attr_check_note);
		}
	}
	ASSUME("anon/file reclaim costs of memcgs that predate the trace start at 0 (global "
	       "reclaim's root: judged under every cost it can have held, see --fidelity)");
	if ((bs->episodes[RR_KIND_KSWAPD] || bs->episodes[RR_KIND_DIRECT]) && r->zoneinfo_nodes) {
		char *note = r->zoneinfo_note;

		snprintf(note, sizeof(r->zoneinfo_note), "global reclaim: kswapd's nr_to_reclaim from the "
			 "zone watermarks of %s (--zoneinfo: a copy of /proc/zoneinfo taken at "
			 "another time, its watermark boosts and not the runs'; nr_to_reclaim_basis "
			 "\"kswapd-zoneinfo-copy\"), or of the recorder's snapshots from their "
			 "time on; a kswapd call judged under every boost up to max(512, high x "
			 "1.5) pages a zone (vm.watermark_boost_factor's default and x86-64's "
			 "pageblock assumed)", r->o->zoneinfo_path);
		ASSUME(note);
	}
	if (bs->episodes[RR_KIND_KSWAPD] || bs->episodes[RR_KIND_DIRECT])
		ASSUME("global reclaim: kswapd's nr_to_reclaim from the zone watermarks of the "
		       "recorder's snapshots (boosts between them not seen); a kswapd run ended "
		       "balanced once it reclaimed what the recorded run did (the balance "
		       "point is inferred), or ran to priority 1 where the recorded run did; a "
		       "costly-order direct call that stopped short above priority 0 stopped "
		       "on compaction_ready() (inferred)");
	ASSUME("nr_to_reclaim inferred per episode from where reclaim stopped "
	       "(docs/kernel-model.md section 8.2)");
	ASSUME("one NUMA node modelled");
	if (bs->snapshot_protected)
		ASSUME("memory.min/low: a child of the reclaim root is protected by its "
		       "snapshot's values, deeper memcgs are not (docs/kernel-model.md "
		       "section 22.2)");
	if (r->page_size_note[0])
		ASSUME(r->page_size_note);
	ASSUME("may_swap is true for every limit episode (a v1 memsw limit that clears it "
	       "is not in the trace)");
	if (ti->nr_missed_events)
		ASSUME("the ring buffer lost events: sizes after the loss are inexact");
	if (r->o->outcome_exact)
		ASSUME("--outcome exact: every replayed reclaim call reclaims exactly its "
		       "nr_to_reclaim (the seed e-mails' arithmetic), not what the loops give on "
		       "the recorded ratios; no fidelity check");
#undef ASSUME
}

/* One warning line about the input, printf-style. */
static void warnf(struct replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warnf(struct replay *r, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->o->warn(r->o->cb_ctx, r->o->trace_path, msg);
}

/* @n pages of a trace.dat refused for @why, the first at @first_ns */
static void refused_pages(struct replay *r, uint64_t n, uint64_t first_ns, const char *why)
{
	if (n)
		warnf(r, "%llu page%s of event data refused, %s (first: the page of %llu.%06llu s): "
		      "the records in %s are lost; the episodes around are flagged lost_events",
		      (unsigned long long)n, n == 1 ? "" : "s", why,
		      (unsigned long long)(first_ns / 1000000000),
		      (unsigned long long)(first_ns % 1000000000 / 1000), n == 1 ? "it" : "them");
}

/* Warnings about the input (events the reader could not give). */
void rr_replay_warnings(struct replay *r, const struct rr_trace_info *ti,
			const struct rr_input_desc *in)
{
	const struct rr_builder_stats *bs = in->bs;
	if (!r->o->warn)
		return;
	if (in->reader_warnings) {
		warnf(r, "the trace reader reported %u problem%s (first: %s); "
			 "events may be missing", in->reader_warnings,
			 in->reader_warnings == 1 ? "" : "s", in->reader_first_warning);
	}
	if (bs->shrink_without_isolate) {
		warnf(r, "%llu mm_vmscan_lru_shrink_* event%s without the "
			 "mm_vmscan_lru_isolate before %s: events are missing; the episodes around "
			 "them are flagged lost_events", (unsigned long long)bs->shrink_without_isolate,
			 bs->shrink_without_isolate == 1 ? "" : "s",
			 bs->shrink_without_isolate == 1 ? "it" : "them");
	}
	if (r->names && r->names->tree_conflicts) {
		warnf(r, "%llu cgroup path%s would make a memcg its own "
			 "ancestor (one id named at two levels): ignored; the cgroup tree may "
			 "be wrong", (unsigned long long)r->names->tree_conflicts,
			 r->names->tree_conflicts == 1 ? "" : "s");
	}
	if (r->names && r->names->long_paths)
		warnf(r, "%llu cgroup path%s longer than %d bytes (no kernel gives one): not "
		      "taken, the memcg%s known by id only", (unsigned long long)r->names->long_paths,
		      r->names->long_paths == 1 ? "" : "s", RR_MAX_CGROUP_PATH_BYTES,
		      r->names->long_paths == 1 ? " is" : "s are");
	if (bs->proactive_paths_unknown)
		warnf(r, "%llu memory.reclaim write marker%s name%s a cgroup the trace does not "
		      "know (first: %s): the reclaim root taken from the calls instead",
		      (unsigned long long)bs->proactive_paths_unknown,
		      bs->proactive_paths_unknown == 1 ? "" : "s",
		      bs->proactive_paths_unknown == 1 ? "s" : "", bs->first_unknown_path);
	if (bs->markers_malformed) {
		warnf(r, "%llu marker line%s refused: a value out of range "
			 "(first: %s); the episodes around them are flagged lost_events",
			 (unsigned long long)bs->markers_malformed,
			 bs->markers_malformed == 1 ? "" : "s", bs->first_malformed_marker);
	}
	if (ti->damaged_cpus) {
		warnf(r, "the event data of %d CPU%s %s damaged (first: %s): "
			 "events from %llu.%06llu s on are missing; the episodes in that window "
			 "are flagged lost_events", ti->damaged_cpus, ti->damaged_cpus == 1 ? "" : "s",
			 ti->damaged_cpus == 1 ? "is" : "are", ti->first_damage,
			 (unsigned long long)(ti->damage_from_ns / 1000000000),
			 (unsigned long long)(ti->damage_from_ns % 1000000000 / 1000));
	}
	if (ti->no_format_records) {
		warnf(r, "%llu record%s of an event id no format in the file "
			 "defines (first: %s): damaged data, or events recorded without their "
			 "format; skipped", (unsigned long long)ti->no_format_records,
			 ti->no_format_records == 1 ? "" : "s", ti->first_no_format);
	}
	refused_pages(r, ti->bad_pages, ti->first_bad_page_ns,
		      "a header claiming more data than a page holds");
	refused_pages(r, ti->odd_pages, ti->first_odd_page_ns,
		      "event headers that do not add up to the page's data");
	if (ti->backwards_records) {
		warnf(r, "%llu record%s of a CPU go%s back in time (first: %s): "
			 "damaged data; the episodes around them are flagged lost_events",
			 (unsigned long long)ti->backwards_records,
			 ti->backwards_records == 1 ? "" : "s", ti->backwards_records == 1 ? "es" : "",
			 ti->first_backwards);
	}
	if (ti->malformed_events) {
		warnf(r, "%llu event%s dropped: a field missing, unparseable or out of "
			 "range (report lists them by field); the episodes around them are "
			 "flagged lost_events (first: %s)",
			 (unsigned long long)ti->malformed_events,
			 ti->malformed_events == 1 ? "" : "s", ti->first_malformed);
	}
	if (ti->format != RR_FORMAT_TEXT)
		return;
	if (ti->text_backwards && !ti->timestamps_synthetic)
		warnf(r, "%llu event%s earlier than the line before (first: %s): lines out of "
		      "order or damaged; the episodes around them are flagged lost_events",
		      (unsigned long long)ti->text_backwards, ti->text_backwards == 1 ? " is" : "s are",
		      ti->text_first_backwards);
	if (ti->text_other_lines) {
		warnf(r, "%llu of %llu lines are no trace event, comment or "
			 "lost-events line; skipped (first: %s)",
			 (unsigned long long)ti->text_other_lines, (unsigned long long)ti->text_lines,
			 ti->text_first_other);
	}
}
