// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrink_lruvec() kprobe (probes.h): struct offsets from the running
 * kernel's BTF, written as one kprobe_events line.  Fetch arguments follow
 * Documentation/trace/kprobetrace.rst: $argN, +|-OFFS(FETCHARG) nested,
 * @SYMBOL, types u8..u64/s8..s64 and b<width>@<bit offset>/<container>.
 */
#include "probes.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* A member of a struct: its bit offset from the struct's start, its bit
 * width if a bitfield (0 otherwise), its resolved type. */
struct member {
	long bits;
	unsigned int bitfield;
	__u32 type;
};

static __u32 resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

/* @name in struct/union @id, searching anonymous members too. */
static int find_member(const struct btf *btf, __u32 id, const char *name, struct member *m)
{
	const struct btf_type *t = btf__type_by_id(btf, resolve(btf, id));
	const struct btf_member *mb;

	if (!t || !btf_is_composite(t))
		return -1;
	mb = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, mb++) {
		const char *n = btf__name_by_offset(btf, mb->name_off);
		long off = (long)btf_member_bit_offset(t, (__u32)i);

		if (n && *n && !strcmp(n, name)) {
			m->bits = off;
			m->bitfield = btf_member_bitfield_size(t, (__u32)i);
			m->type = resolve(btf, mb->type);
			return 0;
		}
		if ((!n || !*n) && !find_member(btf, mb->type, name, m)) {
			m->bits += off;
			return 0;
		}
	}
	return -1;
}

/* "a.b.c" inside struct @sname: the bit offset of c, and c's member. */
static int path(const struct btf *btf, const char *sname, const char *dotted, struct member *out)
{
	__s32 id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	char buf[128], *save = NULL, *tok;
	long bits = 0;

	if (id < 0 || strlen(dotted) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", dotted);
	out->type = (__u32)id;
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		struct member m;

		if (find_member(btf, out->type, tok, &m))
			return -1;
		bits += m.bits;
		*out = m;
	}
	out->bits = bits;
	return 0;
}

/* The fetch type of an integer or pointer member: u8..u64, s8..s64. */
static int int_type(const struct btf *btf, const struct member *m, char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, m->type);
	__s64 size = btf__resolve_size(btf, m->type);
	bool sign = false;

	if (!t || size <= 0 || size > 8 || (size & (size - 1)))
		return -1;
	if (btf_is_int(t))
		sign = btf_int_encoding(t) & BTF_INT_SIGNED;
	else if (btf_is_enum(t))
		sign = false;
	else if (!btf_is_ptr(t) && !btf_is_composite(t))	/* atomic_long_t: a struct */
		return -1;
	snprintf(buf, len, "%c%d", sign ? 's' : 'u', (int)size * 8);
	return 0;
}

struct def {
	char *buf;
	size_t len, cap;
	int fields;
	bool oom;
};

static void add(struct def *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (d->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(d->buf + d->len, d->cap - d->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < d->cap - d->len) {
			d->len += (size_t)n;
			return;
		}
		d->cap = d->cap * 2 + (size_t)n + 64;
		char *nb = realloc(d->buf, d->cap);

		if (!nb) {
			d->oom = true;
			return;
		}
		d->buf = nb;
	}
}

/* " NAME=+BYTES(BASE):TYPE" for member @dotted of @sname, whose struct
 * starts at fetch argument @base.  Bitfields read the smallest container
 * of 8, 16 or 32 bits that holds them.  Return 0, -1 if not found. */
static int field(struct def *d, const struct btf *btf, const char *name, const char *sname,
		 const char *dotted, const char *base)
{
	struct member m;
	char type[8];

	if (path(btf, sname, dotted, &m))
		return -1;
	if (m.bitfield) {
		long byte = m.bits / 8;
		unsigned int shift = (unsigned int)(m.bits % 8), c = 8;

		while (shift + m.bitfield > c && c < 32)
			c *= 2;
		if (shift + m.bitfield > c)
			return -1;
		add(d, " %s=+%ld(%s):b%u@%u/%u", name, byte, base, m.bitfield, shift, c);
	} else {
		if (m.bits % 8 || int_type(btf, &m, type, sizeof(type)))
			return -1;
		add(d, " %s=+%ld(%s):%s", name, m.bits / 8, base, type);
	}
	d->fields++;
	return 0;
}

/* The value of enumerator @name of enum @ename, or -1. */
static int enum_value(const struct btf *btf, const char *ename, const char *name)
{
	__s32 id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	const struct btf_type *t = id < 0 ? NULL : btf__type_by_id(btf, (__u32)id);
	const struct btf_enum *e;

	if (!t)
		return -1;
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return e->val;
	return -1;
}

/* Is @sym a symbol of one of @types (e.g. "tT": a function of its own)
 * in @kallsyms? */
static bool has_symbol(const char *kallsyms, const char *sym, const char *types)
{
	FILE *f = fopen(kallsyms, "r");
	char line[512], name[256], type;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %c %255s", &type, name) == 2 && strchr(types, type))
			found = !strcmp(name, sym);
	fclose(f);
	return found;
}

int rr_probe_plan(struct rr_probe_plan *p, int pid, const char *btf_path, const char *kallsyms)
{
	const char *const *lru = rr_probe_lru_names;
	struct def d = { 0 };
	struct btf *btf = NULL;
	struct member lv, mz, zs;
	libbpf_print_fn_t old;
	char memcg[64], base[160];
	const struct btf_type *t;
	long rel;
	int zones = 0, lists = 0, ret = -1;

	memset(p, 0, sizeof(*p));
	snprintf(p->group, sizeof(p->group), RR_PROBE_GROUP_PREFIX "%d", pid);
	if (access(btf_path, R_OK)) {
		snprintf(p->why, sizeof(p->why), "no kernel BTF (%s)", btf_path);
		return -1;
	}
	old = libbpf_set_print(quiet);
	btf = btf__parse(btf_path, NULL);
	libbpf_set_print(old);
	if (!btf) {
		snprintf(p->why, sizeof(p->why), "%s: cannot be read as BTF", btf_path);
		return -1;
	}
	if (!has_symbol(kallsyms, RR_PROBE_EVENT, "tT")) {
		snprintf(p->why, sizeof(p->why), "shrink_lruvec is not a symbol of its own in %s "
			 "(inlined by this kernel's compiler)", kallsyms);
		goto out;
	}
	/* the lruvec sits inside mem_cgroup_per_node: its other members are
	 * at their offsets less the lruvec's */
	if (path(btf, "mem_cgroup_per_node", "lruvec", &lv) ||
	    path(btf, "mem_cgroup_per_node", "memcg", &mz) ||
	    path(btf, "mem_cgroup_per_node", "lru_zone_size", &zs)) {
		snprintf(p->why, sizeof(p->why), "BTF: struct mem_cgroup_per_node lacks lruvec, "
			 "memcg or lru_zone_size");
		goto out;
	}
	/* lru_zone_size[MAX_NR_ZONES][NR_LRU_LISTS]: pahole may write it as
	 * one flat array; NR_LRU_LISTS is in enum lru_list */
	t = btf__type_by_id(btf, zs.type);
	lists = enum_value(btf, "lru_list", "NR_LRU_LISTS");
	if (t && btf_is_array(t) && lists > 0) {
		const struct btf_type *in = btf__type_by_id(btf, resolve(btf, btf_array(t)->type));

		zones = (int)btf_array(t)->nelems;
		if (in && btf_is_array(in)) {
			if ((int)btf_array(in)->nelems != lists)
				zones = 0;
		} else if (zones % lists) {
			zones = 0;
		} else {
			zones /= lists;
		}
	}
	if (zones < 1 || zones > 8 || lists < 4 || lists > 8) {
		snprintf(p->why, sizeof(p->why), "BTF: lru_zone_size is not [zones][NR_LRU_LISTS]");
		goto out;
	}
	rel = (mz.bits - lv.bits) / 8;
	snprintf(memcg, sizeof(memcg), "%+ld($arg1)", rel);
	add(&d, "p:%s/%s %s", p->group, RR_PROBE_EVENT, RR_PROBE_EVENT);
	/* cgroup id: memcg->css.cgroup->kn->id */
	{
		struct member css, cg, kn;

		if (path(btf, "mem_cgroup", "css.cgroup", &css) || path(btf, "cgroup", "kn", &cg) ||
		    path(btf, "kernfs_node", "id", &kn)) {
			snprintf(p->why, sizeof(p->why), "BTF: no memcg->css.cgroup->kn->id");
			goto out;
		}
		add(&d, " cgroup_id=+%ld(+%ld(+%ld(%+ld($arg1)))):u64", kn.bits / 8, cg.bits / 8,
		    css.bits / 8, rel);
		d.fields++;
	}
	add(&d, " memcg=%s:u64", memcg);
	d.fields++;
	snprintf(base, sizeof(base), "%+ld($arg1)", rel);
	/* what is optional (-1 ignored): a later release may lack it */
	field(&d, btf, rr_probe_field_name(RR_PF_CSS_FLAGS), "mem_cgroup", "css.flags", base);
	field(&d, btf, rr_probe_field_name(RR_PF_SWAPPINESS), "mem_cgroup", "swappiness", base);
	field(&d, btf, rr_probe_field_name(RR_PF_EMIN), "mem_cgroup", "memory.emin", base);
	field(&d, btf, rr_probe_field_name(RR_PF_ELOW), "mem_cgroup", "memory.elow", base);
	field(&d, btf, rr_probe_field_name(RR_PF_USAGE), "mem_cgroup", "memory.usage", base);
	for (int z = 0; z < zones; z++)
		for (int l = 0; l < 4; l++) {
			add(&d, " z%d_%s=%+ld($arg1):u64", z, lru[l],
			    (zs.bits - lv.bits) / 8 + (long)(z * lists + l) * 8);
			d.fields++;
		}
	/* the lruvec's rstat view: lruvec_stats.state[NR_INACTIVE_ANON + L]
	 * (v5.15 to v6.12; later releases keep it elsewhere: left out) */
	{
		struct member st;
		int base_item = enum_value(btf, "node_stat_item", "NR_INACTIVE_ANON");

		if (base_item >= 0 && !path(btf, "mem_cgroup_per_node", "lruvec_stats.state", &st) &&
		    btf_is_array(btf__type_by_id(btf, st.type)))
			for (int l = 0; l < 4; l++) {
				add(&d, " rs_%s=%+ld($arg1):s64", lru[l],
				    (st.bits - lv.bits) / 8 + (long)(base_item + l) * 8);
				d.fields++;
			}
	}
	field(&d, btf, rr_probe_field_name(RR_PF_LV_ANON_COST), "lruvec", "anon_cost", "$arg1");
	field(&d, btf, rr_probe_field_name(RR_PF_LV_FILE_COST), "lruvec", "file_cost", "$arg1");
	{
		/* scan_control's members, by the probe's field names */
		static const enum rr_probe_field sc[] = {
			RR_PF_NR_TO_RECLAIM, RR_PF_NR_RECLAIMED, RR_PF_NR_SCANNED, RR_PF_PRIORITY,
			RR_PF_RECLAIM_IDX, RR_PF_ORDER, RR_PF_ANON_COST, RR_PF_FILE_COST,
			RR_PF_GFP_MASK, RR_PF_MAY_DEACTIVATE, RR_PF_FORCE_DEACTIVATE,
			RR_PF_SKIPPED_DEACTIVATE, RR_PF_MAY_WRITEPAGE, RR_PF_MAY_UNMAP,
			RR_PF_MAY_SWAP, RR_PF_PROACTIVE, RR_PF_MEMCG_LOW_RECLAIM,
			RR_PF_MEMCG_LOW_SKIPPED, RR_PF_CACHE_TRIM_MODE, RR_PF_FILE_IS_TINY,
		};
		struct member tm;

		if (path(btf, "scan_control", "priority", &tm)) {
			snprintf(p->why, sizeof(p->why), "BTF: no struct scan_control");
			goto out;
		}
		if (!path(btf, "scan_control", "target_mem_cgroup", &tm)) {
			add(&d, " target=+%ld($arg2):u64", tm.bits / 8);
			d.fields++;
		}
		for (size_t i = 0; i < sizeof(sc) / sizeof(sc[0]); i++)
			field(&d, btf, rr_probe_field_name(sc[i]), "scan_control",
			      rr_probe_field_name(sc[i]), "$arg2");
	}
	if (has_symbol(kallsyms, "vm_swappiness", "dDbB")) {
		add(&d, " vm_swappiness=@vm_swappiness:s32");
		d.fields++;
	}
	if (has_symbol(kallsyms, "nr_swap_pages", "dDbB")) {
		add(&d, " nr_swap_pages=@nr_swap_pages:s64");
		d.fields++;
	}
	if (d.oom) {
		snprintf(p->why, sizeof(p->why), "out of memory");
		goto out;
	}
	p->definition = d.buf;
	d.buf = NULL;
	p->nr_fields = d.fields;
	p->nr_zones = zones;
	/* the call's end, and the memcg of each active batch */
	if (asprintf(&p->extra[0], "r:%s/%s %s", p->group, RR_PROBE_RET_EVENT,
		     RR_PROBE_EVENT) < 0)
		p->extra[0] = NULL;
	p->extra_event[0] = RR_PROBE_RET_EVENT;
	if (has_symbol(kallsyms, "shrink_active_list", "tT")) {
		struct member css, cg, kn, prio;

		if (!path(btf, "mem_cgroup", "css.cgroup", &css) && !path(btf, "cgroup", "kn", &cg) &&
		    !path(btf, "kernfs_node", "id", &kn) && !path(btf, "scan_control", "priority", &prio) &&
		    asprintf(&p->extra[1], "p:%s/%s shrink_active_list cgroup_id=+%ld(+%ld(+%ld(%+ld($arg2)))):u64 "
			     "lru=$arg4:u32 nr_to_scan=$arg1:u64 priority=+%ld($arg3):s8", p->group,
			     RR_PROBE_ACTIVE_EVENT, kn.bits / 8, cg.bits / 8, css.bits / 8, rel,
			     prio.bits / 8) < 0)
			p->extra[1] = NULL;
	}
	p->extra_event[1] = RR_PROBE_ACTIVE_EVENT;
	/* every memory.reclaim write: the cgroup is the kernfs directory of
	 * the file written, of->kn->parent (__parent from v6.15), its id the
	 * cgroup id the memcg events and snapshots use */
	if (has_symbol(kallsyms, "memory_reclaim", "tT")) {
		struct member kn, parent, id;

		if (!path(btf, "kernfs_open_file", "kn", &kn) &&
		    (!path(btf, "kernfs_node", "parent", &parent) ||
		     !path(btf, "kernfs_node", "__parent", &parent)) &&
		    !path(btf, "kernfs_node", "id", &id) &&
		    asprintf(&p->extra[2], "p:%s/%s memory_reclaim cgroup_id=+%ld(+%ld(+%ld($arg1))):u64 "
			     "nbytes=$arg3:u64 buf=+0($arg2):string", p->group, RR_PROBE_WRITE_EVENT,
			     id.bits / 8, parent.bits / 8, kn.bits / 8) < 0)
			p->extra[2] = NULL;
		if (p->extra[2] && asprintf(&p->extra[3], "r:%s/%s memory_reclaim ret=$retval:s64",
					    p->group, RR_PROBE_WRITE_RET_EVENT) < 0)
			p->extra[3] = NULL;
	}
	p->extra_event[2] = RR_PROBE_WRITE_EVENT;
	p->extra_event[3] = RR_PROBE_WRITE_RET_EVENT;
	ret = 0;
out:
	free(d.buf);
	btf__free(btf);
	return ret;
}

void rr_probe_plan_free(struct rr_probe_plan *p)
{
	free(p->definition);
	p->definition = NULL;
	for (int i = 0; i < RR_PROBE_NR_EXTRA; i++) {
		free(p->extra[i]);
		p->extra[i] = NULL;
	}
}

static int append_line(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, line, strlen(line));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(line) ? 0 : -1;
}

/* The last line of error_log naming kprobe_events, for the message. */
static void last_error(const char *tracing, char *buf, size_t len)
{
	char path[1024], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/error_log", tracing);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "trace_kprobe"))
			snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"), line);
	fclose(f);
}

int rr_probe_create(struct rr_probe_plan *p, const char *tracing, char *why, size_t why_len)
{
	char path[1024], err[256] = "";

	snprintf(path, sizeof(path), "%s/kprobe_events", tracing);
	if (access(path, W_OK)) {
		snprintf(why, why_len, "no kprobe events (%s: %s)", path, strerror(errno));
		return -1;
	}
	if (append_line(path, p->definition)) {
		int e = errno;

		last_error(tracing, err, sizeof(err));
		snprintf(why, why_len, "%s refused the probe (%s)%s%s", path, strerror(e),
			 err[0] ? ": " : "", err);
		return -1;
	}
	for (int i = 0; i < RR_PROBE_NR_EXTRA; i++)
		if (p->extra[i] && append_line(path, p->extra[i])) {
			free(p->extra[i]);
			p->extra[i] = NULL;
		}
	/* the write's return without its entry places nothing */
	if (!p->extra[2] && p->extra[3]) {
		char line[160];

		snprintf(line, sizeof(line), "-:%s/%s", p->group, RR_PROBE_WRITE_RET_EVENT);
		append_line(path, line);
		free(p->extra[3]);
		p->extra[3] = NULL;
	}
	return 0;
}

int rr_probe_remove(const char *tracing, const char *group)
{
	const char *events[] = { RR_PROBE_RET_EVENT, RR_PROBE_ACTIVE_EVENT,
				 RR_PROBE_WRITE_EVENT, RR_PROBE_WRITE_RET_EVENT, RR_PROBE_EVENT };
	char path[1024], line[320];
	int ret = 0;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracing);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(line, sizeof(line), "-:%s/%s", group, events[i]);
		ret = append_line(path, line);
	}
	return ret;	/* (the main one's, removed last) */
}

void rr_probe_remove_stale(const char *tracing)
{
	char path[1024];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", tracing);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		const char *n = de->d_name;
		char *end;
		long pid;

		if (strncmp(n, RR_PROBE_GROUP_PREFIX, strlen(RR_PROBE_GROUP_PREFIX)))
			continue;
		pid = strtol(n + strlen(RR_PROBE_GROUP_PREFIX), &end, 10);
		if (*end || pid <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		rr_probe_remove(tracing, n);
	}
	if (d)
		closedir(d);
}
