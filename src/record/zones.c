// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zones, nodes and vm sysctls for global reclaim (sysinfo.h): from
 * /proc/zoneinfo, the nodes' vmstat and /proc/sys/vm, as the recorder's
 * snapshot markers carry them.
 */
#include "sysinfo.h"
#include "record.h"

#include "../markers/markers.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static long long read_ll_path(const char *path, long long def)
{
	FILE *f = fopen(path, "r");
	long long v = def;

	if (!f)
		return def;
	if (fscanf(f, "%lld", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

void rr_vm_read(const char *proc_root, const char *sys_root, struct rr_marker_vm *vm)
{
	char path[600], buf[16] = "";
	FILE *f;

	memset(vm, 0, sizeof(*vm));
#define VM(field, file) do { \
		snprintf(path, sizeof(path), "%s/sys/" file, proc_root); \
		vm->field = read_ll_path(path, -1); \
	} while (0)
	VM(min_free_kbytes, "vm/min_free_kbytes");
	VM(watermark_scale_factor, "vm/watermark_scale_factor");
	VM(watermark_boost_factor, "vm/watermark_boost_factor");
	VM(laptop_mode, "vm/laptop_mode");
	VM(zone_reclaim_mode, "vm/zone_reclaim_mode");
	VM(numa_balancing, "kernel/numa_balancing");
#undef VM
	/* "true"/"false" (v5.15+) */
	vm->demotion_enabled = -1;
	snprintf(path, sizeof(path), "%s/kernel/mm/numa/demotion_enabled", sys_root);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			vm->demotion_enabled = !strncmp(buf, "true", 4) || buf[0] == '1' ? 1 :
					       !strncmp(buf, "false", 5) || buf[0] == '0' ? 0 : -1;
		fclose(f);
	}
}

static long long swap_free_kb(const char *proc_root)
{
	char path[600], key[64];
	long long v, free_kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/meminfo", proc_root);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld%*[^\n]", key, &v) == 2)
		if (!strcmp(key, "SwapFree:"))
			free_kb = v;
	fclose(f);
	return free_kb;
}

/* The node counters of @nid: nodeN/vmstat, else /proc/vmstat (a kernel
 * without NUMA has one node and no such directory). */
static void node_vmstat(const char *proc_root, const char *sys_root, struct rr_marker_node *n)
{
	struct {
		const char *name;
		long long *slot;
	} keys[] = {
		{ "nr_free_pages", &n->nr_free_pages },
		{ "nr_inactive_anon", &n->nr_inactive_anon },
		{ "nr_active_anon", &n->nr_active_anon },
		{ "nr_inactive_file", &n->nr_inactive_file },
		{ "nr_active_file", &n->nr_active_file },
		{ "nr_isolated_anon", &n->nr_isolated_anon },
		{ "nr_isolated_file", &n->nr_isolated_file },
		{ "nr_writeback", &n->nr_writeback },
		{ "nr_dirty", &n->nr_dirty },
	};
	char path[600], key[128];
	long long v;
	FILE *f;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		*keys[i].slot = -1;
	snprintf(path, sizeof(path), "%s/devices/system/node/node%lld/vmstat", sys_root, n->nid);
	f = fopen(path, "r");
	snprintf(n->source, sizeof(n->source), "node");
	if (!f) {
		snprintf(path, sizeof(path), "%s/vmstat", proc_root);
		f = fopen(path, "r");
		snprintf(n->source, sizeof(n->source), "vmstat");
	}
	if (!f) {
		n->source[0] = 0;
		return;
	}
	while (fscanf(f, "%127s %lld", key, &v) == 2)
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i].name))
				*keys[i].slot = v;
	fclose(f);
}

struct zones {
	const char *proc_root, *sys_root;
	int (*emit)(const char *line, void *ctx);
	void *ctx;
	struct rr_marker_zone z;	/* the zone being read */
	bool in_zone;
	long long nid;			/* the node being read, -1 none */
	long long nr_zones;		/* zone lines written for it */
	int next_zid;
	int nodes;
	long long swap_free_kb;
	bool copy;			/* a user's copy of another time */
	int zones_written;		/* zone lines, all nodes */
	/* copy: what is wrong with it (its line number in @bad_line), or NULL */
	const char *bad;
	unsigned long line_nr, bad_line;
};

static int zone_done(struct zones *zs)
{
	char line[1024];

	if (!zs->in_zone)
		return 0;
	zs->in_zone = false;
	if (zs->z.managed <= 0)	/* not managed: no reclaim reads it */
		return 0;
	if (zs->copy)		/* free pages of another time: unknown */
		zs->z.free = -1;
	rr_marker_format_zone(line, sizeof(line), &zs->z);
	zs->nr_zones++;
	zs->zones_written++;
	return zs->emit(line, zs->ctx);
}

static int node_done(struct zones *zs)
{
	struct rr_marker_node n;
	char line[1024];

	if (zone_done(zs))
		return -1;
	if (zs->nid < 0)
		return 0;
	memset(&n, 0, sizeof(n));
	n.nid = zs->nid;
	n.zones = zs->nr_zones;
	if (zs->copy) {		/* the counters of another time: unknown */
		n.nr_free_pages = n.nr_inactive_anon = n.nr_active_anon = -1;
		n.nr_inactive_file = n.nr_active_file = -1;
		n.nr_isolated_anon = n.nr_isolated_file = n.nr_writeback = n.nr_dirty = -1;
		snprintf(n.source, sizeof(n.source), "%s", RR_NODE_SOURCE_ZONEINFO_COPY);
	} else {
		node_vmstat(zs->proc_root, zs->sys_root, &n);
	}
	n.swap_free_kb = zs->swap_free_kb;
	rr_marker_format_node(line, sizeof(line), &n);
	zs->nodes++;
	zs->nid = -1;
	return zs->emit(line, zs->ctx);
}

/* Read /proc/zoneinfo text from @f into @zs's lines.  Return: 0, or the
 * emit callback's non-zero return. */
static int read_zoneinfo(FILE *f, struct zones *zs_)
{
	struct zones zs = *zs_;
	char line[1024];
	int ret = 0;

	while (!ret && fgets(line, sizeof(line), f)) {
		char key[64], name[16];
		long long v;
		int nid;

		zs.line_nr++;
		/* a user's copy: a line longer than any /proc/zoneinfo prints
		 * would be read as several */
		if (zs.copy && !strchr(line, '\n') && !feof(f)) {
			zs.bad = "a line longer than 1023 bytes";
			zs.bad_line = zs.line_nr;
			break;
		}
		if (sscanf(line, "Node %d, zone %15s", &nid, name) == 2) {
			if (zs.copy && (nid < 0 || nid >= RR_ZONEINFO_MAX_NODES)) {
				zs.bad = "a node id out of range";
				zs.bad_line = zs.line_nr;
				break;
			}
			if (nid != zs.nid) {
				ret = node_done(&zs);
				zs.nid = nid;
				zs.nr_zones = 0;
				zs.next_zid = 0;
			} else {
				ret = zone_done(&zs);
			}
			memset(&zs.z, 0, sizeof(zs.z));
			zs.z.nid = nid;
			/* zoneinfo lists every zone of the node (populated or
			 * not, v4.15+) in enum zone_type order */
			zs.z.zid = zs.next_zid++;
			snprintf(zs.z.name, sizeof(zs.z.name), "%s", name);
			zs.z.managed = zs.z.present = zs.z.spanned = zs.z.free = -1;
			zs.z.min = zs.z.low = zs.z.high = zs.z.boost = zs.z.promo = -1;
			zs.in_zone = zs.z.zid < RR_MARKER_MAX_ZONES;
			continue;
		}
		if (!zs.in_zone)
			continue;
		if (sscanf(line, " pages free %lld", &v) == 1) {
			zs.z.free = v;
			continue;
		}
		if (!strncmp(line + strspn(line, " "), "protection: (", 13)) {
			char *p = line + strspn(line, " ") + 13, *end;

			zs.z.nr_protection = 0;
			while (zs.z.nr_protection < RR_MARKER_MAX_ZONES) {
				v = strtoll(p, &end, 10);
				if (end == p)
					break;
				zs.z.protection[zs.z.nr_protection++] = v;
				p = end + strspn(end, ", ");
			}
			continue;
		}
		if (sscanf(line, " %63s %lld", key, &v) != 2)
			continue;
		if (!strcmp(key, "boost"))
			zs.z.boost = v;
		else if (!strcmp(key, "min"))
			zs.z.min = v;
		else if (!strcmp(key, "low"))
			zs.z.low = v;
		else if (!strcmp(key, "high"))
			zs.z.high = v;
		else if (!strcmp(key, "promo"))
			zs.z.promo = v;
		else if (!strcmp(key, "spanned"))
			zs.z.spanned = v;
		else if (!strcmp(key, "present"))
			zs.z.present = v;
		else if (!strcmp(key, "managed"))
			zs.z.managed = v;
	}
	if (!ret)
		ret = node_done(&zs);
	*zs_ = zs;
	return ret;
}

int rr_zone_snapshot(const char *proc_root, const char *sys_root,
		     int (*emit)(const char *line, void *ctx), void *ctx, struct rr_error *err)
{
	struct zones zs = { proc_root, sys_root, emit, ctx, .nid = -1 };
	char path[600];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/zoneinfo", proc_root);
	f = fopen(path, "r");
	if (!f)		/* (no procfs zoneinfo: no lines, the replay says unknown) */
		return 0;
	zs.swap_free_kb = swap_free_kb(proc_root);
	ret = read_zoneinfo(f, &zs);
	fclose(f);
	if (ret) {
		rr_error_set(err, path, "cannot write the zone and node markers");
		return -1;
	}
	return zs.nodes;
}

int rr_zoneinfo_copy(const char *path, int (*emit)(const char *line, void *ctx), void *ctx,
		     struct rr_error *err)
{
	struct zones zs = { NULL, NULL, emit, ctx, .nid = -1, .swap_free_kb = -1, .copy = true };
	struct stat st;
	FILE *f;
	int ret, bad;

	/* a file (/proc/zoneinfo itself is one): not a FIFO that would wait
	 * for a writer, nor a device that never ends */
	if (stat(path, &st)) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		rr_error_set(err, path, "not a regular file (give a copy of /proc/zoneinfo)");
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	ret = read_zoneinfo(f, &zs);
	bad = ferror(f);
	fclose(f);
	if (bad) {
		rr_error_set(err, path, "cannot read it");
		return -1;
	}
	if (zs.bad) {
		rr_error_set(err, path, "line %lu: %s (a copy of /proc/zoneinfo has none)",
			     zs.bad_line, zs.bad);
		return -1;
	}
	if (ret)
		return -1;	/* (the callback's error) */
	if (!zs.nodes || !zs.zones_written) {
		rr_error_set(err, path, "not a copy of /proc/zoneinfo: no \"Node N, zone NAME\" "
			     "with managed pages");
		return -1;
	}
	return zs.nodes;
}
