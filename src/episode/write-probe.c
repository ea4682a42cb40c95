// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory.reclaim writes from the recorder's memory_reclaim() probe
 * (docs/kernel-model.md §26 item 5): a write by any task, with the text the
 * kernel read and the cgroup written to, made one proactive episode as the
 * recorder's own markers make one (snapshot.c), with its exact request.
 */
#include "episode-local.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/swappiness.h"

/*
 * The text of a memory.reclaim write as memory_reclaim() reads it
 * (mm/memcontrol.c; user_proactive_reclaim() in mm/vmscan.c from ~v6.17):
 * strstrip(), then memparse() of the request (simple_strtoull() of base 0:
 * 0x hex, a leading 0 octal, else decimal; then one of K M G T P E, either
 * case, each 1024 times the one before), then, from v6.11 (68cd9050d871),
 * space-separated "swappiness=N|max" keys; a 6.1 kernel takes the number
 * alone (page_counter_memparse() wants the end of the text).  Return 0 with
 * *@bytes and *@swappiness (-1 none); -1 for a text the kernel refuses
 * (-EINVAL: no reclaim follows).
 */
static int parse_write(const char *s, int len, uint64_t *bytes, int *swappiness)
{
	char buf[256], *p, *end, *tok, *save = NULL;
	unsigned long long v;
	int shift = 0;

	if (!s || len <= 0 || len >= (int)sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)len);
	buf[len] = 0;
	for (p = buf; isspace((unsigned char)*p); p++)
		;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno)
		return -1;
	switch (*end) {
	case 'E': case 'e': shift += 10; /* fall through */
	case 'P': case 'p': shift += 10; /* fall through */
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10;
		end++;
		break;
	default:
		break;
	}
	if (shift && v > (~0ULL >> shift))
		v = ~0ULL;	/* (memparse() wraps; no write asks that much) */
	else
		v <<= shift;
	*bytes = v;
	*swappiness = -1;
	for (tok = strtok_r(end, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int sw;

		if (strncmp(tok, "swappiness=", 11) || rr_swappiness_parse(tok + 11, &sw))
			return -1;
		*swappiness = sw;
	}
	return 0;
}

/*
 * The recorder's memory_reclaim() probe (RR_EV_WRITE_PROBE at the entry,
 * RR_EV_WRITE_RET at the return): one write to a memory.reclaim file by
 * any task, made one proactive episode with its exact request, as the
 * recorder's own markers make one.  A write inside the recorder's markers
 * (its --proactive writes) is theirs.  A text the kernel refuses opens
 * nothing.
 */
int rr_proactive_probe(struct rr_builder *b, const struct rr_event *ev)
{
	struct task *t;
	uint64_t bytes;
	int swappiness, ret;

	if (ev->type == RR_EV_WRITE_RET) {
		struct rr_episode *q;

		t = rr_task_find(b, ev->pid);
		for (q = t ? t->ep : NULL; q && q->kind != RR_KIND_PROACTIVE; q = q->outer)
			;
		if (!q || !q->write_probed)
			return 0;
		t->last_ts = ev->ts_ns;
		q->proactive_errno = ev->val < 0 && ev->val > -4096 ? (int)-ev->val : 0;
		/* a text this release refuses (a swappiness= key before v6.11):
		 * -EINVAL before any reclaim, no write to replay */
		if (q->proactive_errno == EINVAL && !q->nr_calls)
			q->replayable = false;
		ret = rr_episode_end(b, t, RR_KIND_PROACTIVE, ev, false);
		rr_task_put(b, t);
		return ret;
	}
	if (parse_write(ev->str, ev->str_len, &bytes, &swappiness))
		return 0;
	t = rr_task_get(b, ev->pid);
	if (!t)
		return -1;
	if (t->ep && t->ep->kind == RR_KIND_PROACTIVE)
		return 0;	/* (between the recorder's markers: theirs) */
	if (rr_episode_begin(b, t, RR_KIND_PROACTIVE, ev->ts_ns))
		return -1;
	if (t->ep && t->ep->kind == RR_KIND_PROACTIVE) {
		struct rr_memcg *m = rr_state_find(&b->st, ev->id);

		t->ep->write_probed = true;
		t->ep->proactive_bytes = bytes;
		t->ep->proactive_swappiness = swappiness;
		t->ep->proactive_memcg_id = m ? m->id : 0;
		if (!m && !b->stats.proactive_paths_unknown++)
			snprintf(b->stats.first_unknown_path, sizeof(b->stats.first_unknown_path),
				 "cgroup id %llu", (unsigned long long)ev->id);
	}
	return 0;
}
