// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor of the benchmark: the least a libtracecmd reader can do.  It
 * opens a trace.dat with every buffer in it, iterates every event in time
 * order with tracecmd_iterate_events_multi() (as reclaim-replay's reader
 * does), and reads two fields (memcg:mod_memcg_lruvec_state's item and val)
 * through field handles looked up once.  Prints the number of events.
 *   usage: floor TRACE.dat
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace-cmd/trace-cmd.h>

struct ctx {
	unsigned long long events, sum;
	struct tep_format_field *item, *val;
	int id;
};

static int cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct ctx *c = data;
	unsigned long long v;

	(void)cpu;
	c->events++;
	if (c->item && tep_data_type(tracecmd_get_tep(h), rec) == c->id) {
		tep_read_number_field(c->item, rec->data, &v);
		c->sum += v;
		tep_read_number_field(c->val, rec->data, &v);
		c->sum += v;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h, *hs[64];
	struct tep_event *ev;
	struct ctx c = { 0 };
	int n, nh = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: floor TRACE.dat\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "floor: %s: cannot open\n", argv[1]);
		return 1;
	}
	hs[nh++] = h;
	n = tracecmd_buffer_instances(h);
	for (int i = 0; i < n && nh < 64; i++) {
		hs[nh] = tracecmd_buffer_instance_handle(h, i);
		if (!hs[nh]) {
			fprintf(stderr, "floor: %s: cannot read buffer instance %d\n", argv[1], i);
			return 1;
		}
		nh++;
	}
	/* (the instances share the top buffer's event formats, its tep) */
	ev = tep_find_event_by_name(tracecmd_get_tep(h), "memcg", "mod_memcg_lruvec_state");
	if (ev) {
		c.id = ev->id;
		c.item = tep_find_field(ev, "item");
		c.val = tep_find_field(ev, "val");
	}
	tracecmd_iterate_events_multi(hs, nh, cb, &c);
	printf("%llu events (checksum %llu)\n", c.events, c.sum);
	for (int i = 1; i < nh; i++)
		tracecmd_close(hs[i]);
	tracecmd_close(h);
	return 0;
}
