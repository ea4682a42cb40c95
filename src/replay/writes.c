// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory.reclaim writes: the request of a write inferred from plain calls
 * (the release's chunk rule read backwards), a write readied for its
 * replay as one memory_reclaim() loop, and its root's walk cursor kept
 * from its first call to its own replay.
 */
#include "replay-local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* max(chunk, SWAP_CLUSTER_MAX) of the kernel policy for call @k of a
 * write of @request pages after @done reclaimed; UINT64_MAX on failure. */
uint64_t rr_replay_kernel_chunk(struct replay *r, uint64_t request, uint64_t done, uint64_t k)
{
	struct rr_proactive_chunk_args a = {
		.size = sizeof(a), .nr_requested_pages = request, .nr_reclaimed_pages = done,
		.nr_calls = k,
	};
	uint64_t chunk = 0;

	if (rr_hook_proactive_chunk(&r->policies[0], &a, &chunk))
		return UINT64_MAX;
	return chunk > RR_SWAP_CLUSTER_MAX ? chunk : RR_SWAP_CLUSTER_MAX;
}

#define REQUEST_MAX_PAGES (1ULL << 40)

/* the largest write replayed: 32-page chunks of it stay within the
 * simulator's call limit (sim.c MAX_CHUNK_CALLS) */
#define REQUEST_MAX_REPLAY_PAGES (1ULL << 28)

/*
 * The requests (pages) an inferred write could have had: those for which
 * the release's chunk rule gives every call an nr_to_reclaim inside the
 * bounds inferred for it, and the loop ends where it ended (met, or
 * -EAGAIN after MAX_RECLAIM_RETRIES + 1 calls that reclaimed nothing).
 * The rules are monotone in the remainder, so each call bounds the
 * remainder by two binary searches.  Return 0 with [*lo, *hi] and *eagain
 * (the loop gave up), -1 when no request fits, -2 when nothing bounds it
 * from above (every call reclaimed nothing).
 */
static int infer_request(struct replay *r, const struct rr_episode *ep, uint64_t *lo,
			 uint64_t *hi, bool *eagain)
{
	uint64_t done = 0, zeros = 0;

	*lo = 1;
	*hi = REQUEST_MAX_PAGES;
	for (size_t k = 0; k < ep->nr_calls; k++) {
		const struct rr_reclaim_call *c = &ep->calls[k];
		uint64_t a = 1, b = REQUEST_MAX_PAGES, x_lo, x_hi;

		/* the smallest remainder whose chunk exceeds the call's low bound */
		if (rr_replay_kernel_chunk(r, done + b, done, k) <= c->nr_to_reclaim_low)
			return -1;
		while (a < b) {
			uint64_t m = a + (b - a) / 2;

			if (rr_replay_kernel_chunk(r, done + m, done, k) > c->nr_to_reclaim_low)
				b = m;
			else
				a = m + 1;
		}
		x_lo = a;
		x_hi = REQUEST_MAX_PAGES;
		if (c->nr_to_reclaim_high) {
			/* the largest remainder whose chunk stays within the high bound */
			if (rr_replay_kernel_chunk(r, done + x_lo, done, k) > c->nr_to_reclaim_high)
				return -1;
			a = x_lo;
			b = REQUEST_MAX_PAGES;
			while (a < b) {
				uint64_t m = a + (b - a + 1) / 2;

				if (rr_replay_kernel_chunk(r, done + m, done, k) <= c->nr_to_reclaim_high)
					a = m;
				else
					b = m - 1;
			}
			x_hi = a;
		}
		if (done + x_lo > *lo)
			*lo = done + x_lo;
		if (done + x_hi < *hi)
			*hi = done + x_hi;
		done += c->nr_reclaimed_pages;
		zeros += !c->nr_reclaimed_pages;
	}
	/* -EAGAIN: the 17th call that reclaimed nothing, counted over the whole
	 * write (progress gives no retry back, memory_reclaim()) */
	*eagain = zeros > 16 && ep->nr_calls && !ep->calls[ep->nr_calls - 1].nr_reclaimed_pages;
	if (*eagain) {
		if (done + 1 > *lo)
			*lo = done + 1;
	} else if (done < *hi) {	/* met: the last call reached it */
		*hi = done;
	}
	if (*lo > *hi)
		return -1;
	return *hi == REQUEST_MAX_PAGES ? -2 : 0;
}

/*
 * The request of a write inferred from plain calls (src/episode/proactive.c):
 * the roundest admissible one, with each call's nr_to_reclaim by the chunk
 * rule and how the loop ended; NULL, or why none can be said.
 */
static const char *infer_write(struct replay *r, struct rr_episode *ep)
{
	uint64_t req, done = 0;
	bool eagain = false;
	int ret = infer_request(r, ep, &ep->request_low_pages, &ep->request_high_pages, &eagain);

	if (ret) {
		ep->request_low_pages = ep->request_high_pages = 0;
		if (ret == -2)
			return "memory.reclaim write inferred from plain calls: its request "
			       "cannot be inferred (no call bounds it from above)";
		return "memory.reclaim write inferred from plain calls: their nr_to_reclaim "
		       "does not follow the modelled release's chunk rule (not a write -- a "
		       "memory.max or memory.high write reclaims in large calls too -- or "
		       "another release)";
	}
	ep->proactive_errno = eagain ? 11 : 0;	/* the recorded outcome, as inferred */
	/* people write round sizes: the admissible request with the most
	 * trailing zero bits (1 GiB over 262125..262150 pages: 262144) */
	req = ep->request_low_pages;
	for (int k = 40; k > 0; k--) {
		uint64_t step = 1ULL << k, m = (ep->request_low_pages + step - 1) / step * step;

		if (m <= ep->request_high_pages) {
			req = m;
			break;
		}
	}
	ep->proactive_bytes = req << r->page_shift;
	for (size_t k = 0; k < ep->nr_calls; k++) {
		ep->calls[k].nr_to_reclaim_pages = rr_replay_kernel_chunk(r, req, done, k);
		done += ep->calls[k].nr_reclaimed_pages;
	}
	return NULL;
}

/*
 * Ready a proactive episode (one memory.reclaim write between the
 * recorder's markers, or inferred from plain calls) for its replay as a
 * memory_reclaim() loop: its nr_to_reclaim is the request in pages.
 * Return NULL, or why it cannot be replayed.
 */
const char *rr_replay_proactive_prepare(struct replay *r, struct rr_episode *ep)
{
	const char *why;

	if (ep->calls_incomplete)
		return ep->calls_incomplete;
	if (ep->lost_events)
		return "memory.reclaim write: events were lost while it ran";
	if (ep->proactive_inferred && (why = infer_write(r, ep)))
		return why;
	if (!r->km.memory_reclaim)
		return "memory.reclaim write, but the modelled release has no memory.reclaim "
		       "(v5.19+, 94968384dde1): give --kernel";
	if (!ep->proactive_bytes)
		return "memory.reclaim write: the begin marker gives no byte count it can read "
		       "(bytes=, 1 to 2^63 - 1)";
	ep->nr_to_reclaim_pages = ep->proactive_bytes >> r->page_shift;
	if (ep->nr_to_reclaim_pages > REQUEST_MAX_REPLAY_PAGES)
		return "memory.reclaim write of more than 2^28 pages (1 TiB of 4 KiB pages): "
		       "beyond what the replay simulates";
	if (!ep->nr_calls && ep->nr_to_reclaim_pages)
		return "memory.reclaim write: no reclaim call recorded inside it";
	if (ep->proactive_errno == 4 /* EINTR */)
		return "memory.reclaim write interrupted (EINTR): when the signal came is not "
		       "in the trace";
	if (ep->proactive_swappiness >= 0 &&
	    (why = rr_proactive_swappiness_refused(&r->km, ep->proactive_swappiness))) {
		snprintf(r->skip_why, sizeof(r->skip_why),
			 "memory.reclaim write with a swappiness= key: %s", why);
		return r->skip_why;
	}
	return NULL;
}

/* Before the first call of write @p runs: keep the cursor of its root. */
int rr_replay_save_write_cursor(struct replay *r, const struct rr_episode *p,
				const struct rr_episode *call, const struct rr_sim_input *in)
{
	struct saved_cursor *sc;
	struct rr_cursor *c;

	HASH_FIND(hh, r->write_cursors, &p->seq, sizeof(p->seq), sc);
	if (sc)
		return 0;
	c = rr_cursor_start(&r->cursors, call->root_memcg_id, in, rr_replay_first_memcg(call),
			    call->start_ns);
	sc = calloc(1, sizeof(*sc));
	if (!c || !sc) {
		free(sc);
		rr_error_set(r->err, "", "out of memory");
		return -1;
	}
	sc->write_seq = p->seq;
	sc->root_id = call->root_memcg_id;
	memcpy(sc->pos_id, c->pos_id, sizeof(sc->pos_id));
	sc->recorded_pos_id = c->recorded_pos_id;
	sc->recorded_pos_valid = c->recorded_pos_valid;
	HASH_ADD(hh, r->write_cursors, write_seq, sizeof(sc->write_seq), sc);
	return 0;
}

/* Before write @ep's own replay: its root's cursor as the write found it
 * (the saved copy is dropped; @in NULL: dropped only). */
void rr_replay_restore_write_cursor(struct replay *r, const struct rr_episode *ep,
				    const struct rr_sim_input *in)
{
	struct saved_cursor *sc;
	struct rr_cursor *c;

	HASH_FIND(hh, r->write_cursors, &ep->seq, sizeof(ep->seq), sc);
	if (!sc)
		return;
	HASH_DEL(r->write_cursors, sc);
	if (in && sc->root_id == ep->root_memcg_id &&
	    (c = rr_cursor_start(&r->cursors, ep->root_memcg_id, in, rr_replay_first_memcg(ep),
				 ep->start_ns))) {
		memcpy(c->pos_id, sc->pos_id, sizeof(c->pos_id));
		c->recorded_pos_id = sc->recorded_pos_id;
		c->recorded_pos_valid = sc->recorded_pos_valid;
	}
	free(sc);
}
