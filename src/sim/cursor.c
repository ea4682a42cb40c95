// SPDX-License-Identifier: GPL-2.0-only
/* The walk cursor across episodes; see cursor.h. */
#include "sim.h"

#include <stdlib.h>

int rr_cursor_index(const struct rr_sim_input *in, uint64_t id)
{
	if (!id)
		return -1;
	for (size_t i = 0; i < in->nr_memcgs; i++)
		if (in->memcgs[i].id == id)
			return (int)i;
	return -1;
}

#define PAST_MAX ((int)(sizeof(((struct rr_cursor *)0)->past) / \
			sizeof(((struct rr_cursor *)0)->past[0])))

struct rr_cursor *rr_cursor_start(struct rr_cursors *c, uint64_t root_id,
				  const struct rr_sim_input *in, uint64_t first_memcg_id,
				  uint64_t start_ns)
{
	struct rr_cursor *cur;
	int idx = rr_cursor_index(in, first_memcg_id);
	uint64_t init = idx > 0 ? in->memcgs[idx - 1].id : 0;

	HASH_FIND(hh, c->by_root, &root_id, sizeof(root_id), cur);
	if (!cur) {
		cur = calloc(1, sizeof(*cur));
		if (!cur)
			return NULL;
		cur->root_id = root_id;
		/* the memcg before the first one the kernel visited */
		for (int p = 0; p < RR_MAX_POLICIES; p++)
			cur->pos_id[p] = init;
		HASH_ADD(hh, c->by_root, root_id, sizeof(uint64_t), cur);
	}
	if (cur->recorded_pos_valid) {
		uint64_t pos = cur->recorded_pos_id;
		int newest = (cur->past_head + cur->nr_past - 1) % PAST_MAX;

		/* episodes that ended after this one began: it started from
		 * where the last one before it left the cursor */
		if (start_ns && cur->nr_past && cur->past[newest].end_ns > start_ns) {
			pos = init;
			for (int k = cur->nr_past - 1; k >= 0; k--) {
				int at = (cur->past_head + k) % PAST_MAX;

				if (cur->past[at].end_ns <= start_ns) {
					pos = cur->past[at].pos_id;
					break;
				}
			}
		}
		for (int p = 0; p < RR_MAX_POLICIES; p++)
			cur->pos_id[p] = pos;
	}
	return cur;
}

void rr_cursor_moved(struct rr_cursor *cur, int p, const struct rr_sim_input *in, int res_cursor)
{
	cur->pos_id[p] = res_cursor >= 0 ? in->memcgs[res_cursor].id : 0;
}

void rr_cursor_recorded(struct rr_cursor *cur, uint64_t memcg_id, int priority, uint64_t end_ns)
{
	int at;

	/* stopped on its goal above priority 0: the cursor stays there */
	cur->recorded_pos_id = priority > 0 ? memcg_id : 0;
	cur->recorded_pos_valid = true;
	if (cur->nr_past < PAST_MAX) {
		at = (cur->past_head + cur->nr_past++) % PAST_MAX;
	} else {
		at = cur->past_head;
		cur->past_head = (cur->past_head + 1) % PAST_MAX;
	}
	cur->past[at].end_ns = end_ns;
	cur->past[at].pos_id = cur->recorded_pos_id;
}

void rr_cursors_free(struct rr_cursors *c)
{
	struct rr_cursor *cur, *tmp;

	HASH_ITER(hh, c->by_root, cur, tmp) {
		HASH_DEL(c->by_root, cur);
		free(cur);
	}
}
