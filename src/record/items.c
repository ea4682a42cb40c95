// SPDX-License-Identifier: GPL-2.0-only
/*
 * The item numbers the recorder filters the memcg events on (sysinfo.h):
 * from the kernel's BTF (libbpf), else /proc/vmstat's order.
 */
#include "sysinfo.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

static void items_init(struct rr_items *it)
{
	memset(it, 0, sizeof(*it));
	for (int i = 0; i < 2; i++)
		it->workingset_refault[i] = it->workingset_activate[i] =
			it->workingset_restore[i] = -1;
	for (int i = 0; i < 4; i++)
		it->pgscan[i] = it->pgsteal[i] = -1;
	it->pgrefill = it->pgdeactivate = -1;
}

struct item_name {
	const char *name;	/* enum constant; lowercased it is the vmstat name */
	int *slot;
};

static void names_for(struct rr_items *it, struct item_name *node, struct item_name *ev)
{
	struct item_name n[] = {
		{ "NR_INACTIVE_ANON", &it->nr_lru_base },
		{ "WORKINGSET_REFAULT_ANON", &it->workingset_refault[0] },
		{ "WORKINGSET_REFAULT_FILE", &it->workingset_refault[1] },
		{ "WORKINGSET_ACTIVATE_ANON", &it->workingset_activate[0] },
		{ "WORKINGSET_ACTIVATE_FILE", &it->workingset_activate[1] },
		{ "WORKINGSET_RESTORE_ANON", &it->workingset_restore[0] },
		{ "WORKINGSET_RESTORE_FILE", &it->workingset_restore[1] },
		{ NULL, NULL },
	};
	struct item_name e[] = {
		{ "PGSCAN_KSWAPD", &it->pgscan[0] }, { "PGSCAN_DIRECT", &it->pgscan[1] },
		{ "PGSCAN_KHUGEPAGED", &it->pgscan[2] }, { "PGSCAN_PROACTIVE", &it->pgscan[3] },
		{ "PGSTEAL_KSWAPD", &it->pgsteal[0] }, { "PGSTEAL_DIRECT", &it->pgsteal[1] },
		{ "PGSTEAL_KHUGEPAGED", &it->pgsteal[2] }, { "PGSTEAL_PROACTIVE", &it->pgsteal[3] },
		{ "PGREFILL", &it->pgrefill }, { "PGDEACTIVATE", &it->pgdeactivate },
		{ NULL, NULL },
	};

	memcpy(node, n, sizeof(n));
	memcpy(ev, e, sizeof(e));
}

/* libbpf's own messages ("failed to find valid kernel BTF") are not for
 * our users: a kernel without BTF is normal (the lab's 6.1, many distro
 * builds), and record's summary says once where the numbers came from. */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int from_btf(struct rr_items *it)
{
	struct item_name node[8], ev[11];
	const char *enums[2] = { "node_stat_item", "vm_event_item" };
	struct item_name *lists[2] = { node, ev };
	libbpf_print_fn_t old;
	struct btf *btf;
	int found = 0;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return -1;
	old = libbpf_set_print(libbpf_quiet);
	btf = btf__load_vmlinux_btf();
	libbpf_set_print(old);
	if (!btf)	/* libbpf 1.x returns NULL with errno set */
		return -1;
	names_for(it, node, ev);
	for (int k = 0; k < 2; k++) {
		__s32 id = btf__find_by_name_kind(btf, enums[k], BTF_KIND_ENUM);
		const struct btf_type *t;
		const struct btf_enum *e;

		if (id < 0)
			continue;
		t = btf__type_by_id(btf, (__u32)id);
		e = btf_enum(t);
		for (int i = 0; i < btf_vlen(t); i++) {
			const char *name = btf__name_by_offset(btf, e[i].name_off);

			for (struct item_name *n = lists[k]; n->name; n++)
				if (name && !strcmp(name, n->name)) {
					*n->slot = e[i].val;
					found++;
				}
		}
	}
	btf__free(btf);
	if (!found)
		return -1;
	snprintf(it->source, sizeof(it->source), "btf");
	return 0;
}

/* /proc/vmstat: zone, NUMA and node items, two writeback thresholds, then
 * the vm events, each in enum order; node items start at nr_inactive_anon. */
static int from_vmstat(struct rr_items *it)
{
	struct item_name node[8], ev[11];
	FILE *f = fopen("/proc/vmstat", "r");
	char name[128];
	unsigned long long v;
	int node_base = -1, ev_base = -1, line = 0;

	if (!f)
		return -1;
	names_for(it, node, ev);
	it->nr_lru_base = -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		char up[128];
		size_t i;

		for (i = 0; i < sizeof(up) - 1 && name[i]; i++)
			up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
		up[i] = 0;
		if (node_base < 0 && !strcmp(name, "nr_inactive_anon"))
			node_base = line;
		if (node_base >= 0 && ev_base < 0) {
			for (struct item_name *n = node; n->name; n++)
				if (!strcmp(up, n->name))
					*n->slot = line - node_base;
		}
		if (ev_base >= 0)
			for (struct item_name *n = ev; n->name; n++)
				if (!strcmp(up, n->name))
					*n->slot = line - ev_base;
		if (!strcmp(name, "nr_dirty_background_threshold"))
			ev_base = line + 1;
		line++;
	}
	fclose(f);
	if (node_base < 0)
		return -1;
	snprintf(it->source, sizeof(it->source), "vmstat");
	return 0;
}

int rr_items_resolve(struct rr_items *it, struct rr_error *err)
{
	items_init(it);
	if (!from_btf(it))
		return 0;
	items_init(it);
	if (!from_vmstat(it))
		return 0;
	rr_error_set(err, "/sys/kernel/btf/vmlinux",
		     "cannot resolve memcg item numbers (no BTF, and /proc/vmstat unreadable)");
	return -1;
}

static void append(char *buf, size_t len, const char *fmt, int v)
{
	size_t n = strlen(buf);

	if (v >= 0 && n < len)
		snprintf(buf + n, len - n, fmt, v);
}

void rr_items_filters(const struct rr_items *it, char *lruvec, size_t lruvec_len,
		      char *events, size_t events_len)
{
	snprintf(lruvec, lruvec_len, "(item >= %d && item < %d)", it->nr_lru_base,
		 it->nr_lru_base + 5);
	for (int i = 0; i < 2; i++) {
		append(lruvec, lruvec_len, " || item == %d", it->workingset_refault[i]);
		append(lruvec, lruvec_len, " || item == %d", it->workingset_activate[i]);
		append(lruvec, lruvec_len, " || item == %d", it->workingset_restore[i]);
	}
	events[0] = 0;
	for (int i = 0; i < 4; i++) {
		append(events, events_len, "item == %d || ", it->pgscan[i]);
		append(events, events_len, "item == %d || ", it->pgsteal[i]);
	}
	append(events, events_len, "item == %d || ", it->pgrefill);
	append(events, events_len, "item == %d || ", it->pgdeactivate);
	if (strlen(events) >= 4)
		events[strlen(events) - 4] = 0;	/* drop the last " || " */
}
