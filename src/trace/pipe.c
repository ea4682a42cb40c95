// SPDX-License-Identifier: GPL-2.0-only
/*
 * A bounded queue of decoded events from the reading thread to the
 * replaying one, so that libtracecmd's iteration (the floor of any
 * reader) runs on one core while the episode builder, the simulator and
 * the outputs run on another.  Events travel in chunks of PIPE_CHUNK, each
 * with room for the strings (marker text, cgroup paths) and the probe
 * records (struct rr_lruvec_probe) its events point to; PIPE_CHUNKS chunks bound the memory (a few MiB, whatever the trace
 * length).  The consumer sees the events in the producer's order.
 */
#include "pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PIPE_CHUNK 4096
#define PIPE_CHUNKS 8
#define PIPE_STR (256 * 1024)

struct chunk {
	int n;
	size_t str_used;
	struct rr_event ev[PIPE_CHUNK];
	char str[PIPE_STR] __attribute__((aligned(8)));
};

struct rr_pipe {
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	struct chunk *chunk[PIPE_CHUNKS];
	unsigned int head, tail;	/* chunks published / consumed */
	struct chunk *fill;		/* the producer's chunk in progress */
	bool closed, stopped;
	int status;			/* the producer's, at close */
};

struct rr_pipe *rr_pipe_new(void)
{
	struct rr_pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	for (int i = 0; i < PIPE_CHUNKS; i++) {
		p->chunk[i] = malloc(sizeof(struct chunk));
		if (!p->chunk[i]) {
			rr_pipe_free(p);
			return NULL;
		}
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->filled, NULL);
	pthread_cond_init(&p->emptied, NULL);
	return p;
}

void rr_pipe_free(struct rr_pipe *p)
{
	if (!p)
		return;
	for (int i = 0; i < PIPE_CHUNKS; i++)
		free(p->chunk[i]);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->filled);
	pthread_cond_destroy(&p->emptied);
	free(p);
}

/* The producer's next empty chunk; NULL when the consumer stopped. */
static struct chunk *next_fill(struct rr_pipe *p)
{
	struct chunk *c = NULL;

	pthread_mutex_lock(&p->lock);
	while (!p->stopped && p->head - p->tail >= PIPE_CHUNKS - 1)
		pthread_cond_wait(&p->emptied, &p->lock);
	if (!p->stopped) {
		c = p->chunk[p->head % PIPE_CHUNKS];
		c->n = 0;
		c->str_used = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return c;
}

static void publish(struct rr_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->head++;
	p->fill = NULL;
	pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
}

int rr_pipe_put(struct rr_pipe *p, const struct rr_event *ev)
{
	size_t len = ev->str && ev->str_len > 0 ? (size_t)ev->str_len : 0;
	/* a probe record, 8-byte aligned in the string room */
	size_t need = ev->probe ? sizeof(*ev->probe) + 8 : 0;
	struct rr_event *e;

	if (len > PIPE_STR - need)
		len = PIPE_STR - need;	/* no event string is that long */
	if (p->fill && (p->fill->n == PIPE_CHUNK || p->fill->str_used + len + need > PIPE_STR))
		publish(p);
	if (!p->fill && !(p->fill = next_fill(p)))
		return -1;
	e = &p->fill->ev[p->fill->n++];
	*e = *ev;
	if (ev->probe) {
		/* the reader's record is overwritten by the next: copy it */
		size_t at = (p->fill->str_used + 7) & ~(size_t)7;

		memcpy(p->fill->str + at, ev->probe, sizeof(*ev->probe));
		e->probe = (const struct rr_lruvec_probe *)(uintptr_t)(at + 1);
		p->fill->str_used = at + sizeof(*ev->probe);
	}
	if (ev->str) {
		/* the record's string lives only during the callback: copy it */
		memcpy(p->fill->str + p->fill->str_used, ev->str, len);
		/* an offset (+ 1, so that it is not NULL) until read */
		e->str = (const char *)(uintptr_t)(p->fill->str_used + 1);
		e->str_len = (int)len;
		p->fill->str_used += len;
	}
	return 0;
}

void rr_pipe_close(struct rr_pipe *p, int status)
{
	if (p->fill)
		publish(p);
	pthread_mutex_lock(&p->lock);
	p->closed = true;
	p->status = status;
	pthread_cond_signal(&p->filled);
	pthread_mutex_unlock(&p->lock);
}

int rr_pipe_drain(struct rr_pipe *p, rr_event_cb cb, void *ctx)
{
	int ret = 0;

	for (;;) {
		struct chunk *c;

		pthread_mutex_lock(&p->lock);
		while (p->head == p->tail && !p->closed)
			pthread_cond_wait(&p->filled, &p->lock);
		if (p->head == p->tail) {	/* closed and empty */
			ret = p->status;
			pthread_mutex_unlock(&p->lock);
			return ret;
		}
		c = p->chunk[p->tail % PIPE_CHUNKS];
		pthread_mutex_unlock(&p->lock);

		for (int i = 0; i < c->n && !ret; i++) {
			struct rr_event *e = &c->ev[i];

			if (e->str)
				e->str = c->str + ((uintptr_t)e->str - 1);
			if (e->probe)
				e->probe = (const struct rr_lruvec_probe *)(void *)
					   (c->str + ((uintptr_t)e->probe - 1));
			ret = cb(e, ctx);
		}

		pthread_mutex_lock(&p->lock);
		p->tail++;
		if (ret)
			p->stopped = true;	/* the producer's next put fails */
		pthread_cond_signal(&p->emptied);
		pthread_mutex_unlock(&p->lock);
		if (ret)
			return ret;
	}
}
