// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tasks in reclaim, and the memcgs of tasks (their batch in flight is
 * batches.c's).
 *
 * Only tasks in reclaim have a record: one is made at a begin event or an
 * isolate, and freed once its episode stack is empty and no batch is in
 * flight.  The memcg a task was moved into is kept apart (struct
 * task_memcg), as small as the number of moves.
 */
#include "episode-local.h"

#include <stdlib.h>
#include <string.h>

struct task *rr_task_find(struct rr_builder *b, int pid)
{
	struct task *t;

	if (b->last_task && b->last_task->pid == pid)
		return b->last_task;
	HASH_FIND_INT(b->tasks, &pid, t);
	if (t)
		b->last_task = t;
	return t;
}

struct task *rr_task_get(struct rr_builder *b, int pid)
{
	struct task *t = rr_task_find(b, pid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	HASH_ADD_INT(b->tasks, pid, t);
	b->last_task = t;
	if (++b->stats.tasks > b->stats.tasks_peak)
		b->stats.tasks_peak = b->stats.tasks;
	return t;
}

void rr_task_put(struct rr_builder *b, struct task *t)
{
	if (!t || t->ep || t->batch_open)
		return;
	HASH_DEL(b->tasks, t);
	if (b->last_task == t)
		b->last_task = NULL;
	b->stats.tasks--;
	free(t->pend);
	free(t);
}

uint64_t rr_task_memcg(const struct rr_builder *b, int pid)
{
	struct task_memcg *tm;

	HASH_FIND_INT(b->task_memcgs, &pid, tm);
	return tm ? tm->memcg_id : 0;
}

/* @pid is in memcg @memcg_id, as a snapshot found it (not moved there
 * now: the memcg's counts and arrival time stay). */
int rr_task_place(struct rr_builder *b, int pid, uint64_t memcg_id)
{
	struct task_memcg *tm;

	HASH_FIND_INT(b->task_memcgs, &pid, tm);
	if (!tm) {
		tm = calloc(1, sizeof(*tm));
		if (!tm)
			return -1;
		tm->pid = pid;
		HASH_ADD_INT(b->task_memcgs, pid, tm);
	}
	tm->memcg_id = memcg_id;
	return 0;
}

int rr_task_set_memcg(struct rr_builder *b, int pid, uint64_t memcg_id, uint64_t ts_ns)
{
	uint64_t old = rr_task_memcg(b, pid);
	struct rr_memcg *m = old ? rr_state_find(&b->st, old) : NULL;

	if (m && m->nr_tasks)
		m->nr_tasks--;
	if (rr_task_place(b, pid, memcg_id))
		return -1;
	/* the tasks known in each memcg: one without any cannot be charged
	 * (attribute.c) */
	m = rr_state_memcg(&b->st, memcg_id);
	if (!m)
		return -1;
	m->nr_tasks++;
	m->task_in_ns = ts_ns ? ts_ns : 1;
	return 0;
}

/* @pid was forked by a task of memcg @memcg_id: one task more there, none
 * arrived from elsewhere (its parent's charges were there already). */
int rr_task_inherit(struct rr_builder *b, int pid, uint64_t memcg_id)
{
	struct rr_memcg *m = rr_state_find(&b->st, memcg_id);

	if (rr_task_place(b, pid, memcg_id))
		return -1;
	if (m && m->nr_tasks < UINT32_MAX)
		m->nr_tasks++;
	return 0;
}

/* A vmscan event of the task: later LRU deltas of it belong to the next
 * batch's lru_add_drain(). */
void rr_task_drain_reset(struct task *t, uint64_t ts_ns)
{
	t->last_vmscan_ns = ts_ns;
	t->nr_drain = 0;
	t->drain_overflow = false;
}

void rr_task_drain_log(struct task *t, const struct rr_event *ev)
{
	if (t->nr_drain < DRAIN_MAX)
		t->drain[t->nr_drain++] = (struct drain_delta){
			.id = ev->id, .item = ev->item, .val = ev->val };
	else
		t->drain_overflow = true;
}
