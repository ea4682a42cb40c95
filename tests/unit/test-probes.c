// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's shrink_lruvec() probe: its kprobe_events line worked out
 * from a BTF whose layout the test chooses (so every offset is known), the
 * cases where it cannot be made, the range check of a decoded record, and
 * the reader's pipe carrying a record past the reader's next one.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/common/probe.h"
#include "../../src/record/probes.h"
#include "../../src/trace/pipe.h"
#include "unit.h"

/* A file of @len bytes of @data in $TMPDIR; its name into @path. */
static int write_tmp(char *path, size_t plen, const void *data, size_t len)
{
	int fd;

	snprintf(path, plen, "%s/rr-probe-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * A BTF of the structures the probe reads, with these offsets (bytes):
 * mem_cgroup_per_node { lruvec @0 (size 144: anon_cost @88, file_cost @96),
 * lruvec_stats @152 { state[40] @0 }, lru_zone_size[4][5] @808 (flat, as
 * pahole writes it), memcg @1032 }; mem_cgroup { css @0 { cgroup @0,
 * flags @84 }, memory @240 { usage @16 emin @80 elow @104 }, swappiness
 * @1192 }; cgroup { kn @248 }; kernfs_node { parent @8, id @104 };
 * kernfs_open_file { kn @0 }; scan_control
 * { nr_to_reclaim @0, target_mem_cgroup @16, anon_cost @24, file_cost @32,
 * may_deactivate:2 @40.0, force_deactivate:1 @40.2, may_swap:1 @40.6,
 * cache_trim_mode:1 @41.4, order @42, priority @43, reclaim_idx @44,
 * nr_scanned @56, nr_reclaimed @64 }; enum lru_list (NR_LRU_LISTS 5),
 * enum node_stat_item (NR_INACTIVE_ANON 0).
 */
static struct btf *test_btf(void)
{
	struct btf *b = btf__new_empty();
	int ul, uint, sc, lng, i32, ptr, arr, zarr, st, lv, at, css, pc;

	if (!b)
		return NULL;
	ul = btf__add_int(b, "long unsigned int", 8, 0);
	uint = btf__add_int(b, "unsigned int", 4, 0);
	sc = btf__add_int(b, "signed char", 1, BTF_INT_SIGNED);
	lng = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	ptr = btf__add_ptr(b, ul);
	arr = btf__add_array(b, i32, lng, 40);
	zarr = btf__add_array(b, i32, ul, 20);
	st = btf__add_struct(b, "lruvec_stats", 320);
	btf__add_field(b, "state", arr, 0, 0);
	lv = btf__add_struct(b, "lruvec", 144);
	btf__add_field(b, "anon_cost", ul, 88 * 8, 0);
	btf__add_field(b, "file_cost", ul, 96 * 8, 0);
	css = btf__add_struct(b, "cgroup_subsys_state", 200);
	btf__add_field(b, "cgroup", ptr, 0, 0);
	btf__add_field(b, "flags", uint, 84 * 8, 0);
	/* atomic_long_t: an anonymous struct of one long */
	at = btf__add_struct(b, NULL, 8);
	btf__add_field(b, "counter", lng, 0, 0);
	pc = btf__add_struct(b, "page_counter", 200);
	btf__add_field(b, "usage", at, 16 * 8, 0);
	btf__add_field(b, "emin", ul, 80 * 8, 0);
	btf__add_field(b, "elow", ul, 104 * 8, 0);
	btf__add_struct(b, "mem_cgroup", 1400);
	btf__add_field(b, "css", css, 0, 0);
	btf__add_field(b, "memory", pc, 240 * 8, 0);
	btf__add_field(b, "swappiness", i32, 1192 * 8, 0);
	btf__add_struct(b, "cgroup", 400);
	btf__add_field(b, "kn", ptr, 248 * 8, 0);
	btf__add_struct(b, "kernfs_node", 200);
	btf__add_field(b, "parent", ptr, 8 * 8, 0);
	btf__add_field(b, "id", ul, 104 * 8, 0);
	btf__add_struct(b, "kernfs_open_file", 64);
	btf__add_field(b, "kn", ptr, 0, 0);
	btf__add_struct(b, "mem_cgroup_per_node", 1040);
	btf__add_field(b, "lruvec", lv, 0, 0);
	btf__add_field(b, "lruvec_stats", st, 152 * 8, 0);
	btf__add_field(b, "lru_zone_size", zarr, 808 * 8, 0);
	btf__add_field(b, "memcg", ptr, 1032 * 8, 0);
	btf__add_struct(b, "scan_control", 128);
	btf__add_field(b, "nr_to_reclaim", ul, 0, 0);
	btf__add_field(b, "target_mem_cgroup", ptr, 16 * 8, 0);
	btf__add_field(b, "anon_cost", ul, 24 * 8, 0);
	btf__add_field(b, "file_cost", ul, 32 * 8, 0);
	btf__add_field(b, "may_deactivate", uint, 40 * 8, 2);
	btf__add_field(b, "force_deactivate", uint, 40 * 8 + 2, 1);
	btf__add_field(b, "may_swap", uint, 40 * 8 + 6, 1);
	btf__add_field(b, "cache_trim_mode", uint, 41 * 8 + 4, 1);
	btf__add_field(b, "order", sc, 42 * 8, 0);
	btf__add_field(b, "priority", sc, 43 * 8, 0);
	btf__add_field(b, "reclaim_idx", sc, 44 * 8, 0);
	btf__add_field(b, "nr_scanned", ul, 56 * 8, 0);
	btf__add_field(b, "nr_reclaimed", ul, 64 * 8, 0);
	btf__add_enum(b, "lru_list", 4);
	btf__add_enum_value(b, "LRU_INACTIVE_ANON", 0);
	btf__add_enum_value(b, "NR_LRU_LISTS", 5);
	btf__add_enum(b, "node_stat_item", 4);
	btf__add_enum_value(b, "NR_INACTIVE_ANON", 0);
	return b;
}

static const char kallsyms_ok[] =
	"ffffffff81184e70 t shrink_lruvec\n"
	"ffffffff81183a90 t shrink_active_list\n"
	"ffffffff8129f3d0 t memory_reclaim\n"
	"ffffffff82a1b2c0 D vm_swappiness\n";

static void test_plan(void)
{
	struct btf *b = test_btf();
	char btf_path[256], syms[256];
	struct rr_probe_plan p;
	const void *raw;
	__u32 size;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	raw = btf__raw_data(b, &size);
	CU_ASSERT_FATAL(raw && !write_tmp(btf_path, sizeof(btf_path), raw, size));
	CU_ASSERT_FATAL(!write_tmp(syms, sizeof(syms), kallsyms_ok, sizeof(kallsyms_ok) - 1));
	CU_ASSERT_EQUAL_FATAL(rr_probe_plan(&p, 4242, btf_path, syms), 0);
	CU_ASSERT_STRING_EQUAL(p.group, "reclaim_replay_4242");
	CU_ASSERT_EQUAL(p.nr_zones, 4);
	/* the memcg's cgroup id: memcg->css.cgroup->kn->id through the
	 * lruvec's mem_cgroup_per_node */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition,
		"p:reclaim_replay_4242/shrink_lruvec shrink_lruvec "
		"cgroup_id=+104(+248(+0(+1032($arg1)))):u64 memcg=+1032($arg1):u64 "
		"css_flags=+84(+1032($arg1)):u32 swappiness=+1192(+1032($arg1)):s32 "
		"emin=+320(+1032($arg1)):u64 elow=+344(+1032($arg1)):u64 "
		"usage=+256(+1032($arg1)):u64 z0_ia=+808($arg1):u64 z0_aa=+816($arg1):u64 "
		"z0_if=+824($arg1):u64 z0_af=+832($arg1):u64 z1_ia=+848($arg1):u64"));
	/* zone 3, list 3: 808 + (3 * 5 + 3) * 8 */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " z3_af=+952($arg1):u64 "));
	CU_ASSERT_PTR_NULL(strstr(p.definition, " z4_"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " rs_ia=+152($arg1):s64 rs_aa=+160($arg1):s64 "
					 "rs_if=+168($arg1):s64 rs_af=+176($arg1):s64 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " lv_anon_cost=+88($arg1):u64 "
					 "lv_file_cost=+96($arg1):u64 target=+16($arg2):u64 "
					 "nr_to_reclaim=+0($arg2):u64 nr_reclaimed=+64($arg2):u64 "
					 "nr_scanned=+56($arg2):u64 priority=+43($arg2):s8 "
					 "reclaim_idx=+44($arg2):s8 order=+42($arg2):s8 "
					 "anon_cost=+24($arg2):u64 file_cost=+32($arg2):u64 "));
	/* bitfields: the smallest container holding them */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " may_deactivate=+40($arg2):b2@0/8 "
					 "force_deactivate=+40($arg2):b1@2/8 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " may_swap=+40($arg2):b1@6/8 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " cache_trim_mode=+41($arg2):b1@4/8"));
	/* members this BTF lacks are left out, not guessed */
	CU_ASSERT_PTR_NULL(strstr(p.definition, "gfp_mask"));
	CU_ASSERT_PTR_NULL(strstr(p.definition, "file_is_tiny"));
	/* the data symbols kallsyms lists, and not those it does not */
	CU_ASSERT_PTR_NOT_NULL(strstr(p.definition, " vm_swappiness=@vm_swappiness:s32"));
	CU_ASSERT_PTR_NULL(strstr(p.definition, "nr_swap_pages"));
	CU_ASSERT_STRING_EQUAL(p.extra[0], "r:reclaim_replay_4242/shrink_lruvec_ret shrink_lruvec");
	CU_ASSERT_STRING_EQUAL(p.extra[1], "p:reclaim_replay_4242/shrink_active shrink_active_list "
			       "cgroup_id=+104(+248(+0(+1032($arg2)))):u64 lru=$arg4:u32 "
			       "nr_to_scan=$arg1:u64 priority=+43($arg3):s8");
	/* memory.reclaim writes: the cgroup is of->kn->parent's id */
	CU_ASSERT_STRING_EQUAL(p.extra[2], "p:reclaim_replay_4242/memory_reclaim memory_reclaim "
			       "cgroup_id=+104(+8(+0($arg1))):u64 nbytes=$arg3:u64 "
			       "buf=+0($arg2):string");
	CU_ASSERT_STRING_EQUAL(p.extra[3], "r:reclaim_replay_4242/memory_reclaim_ret "
			       "memory_reclaim ret=$retval:s64");
	rr_probe_plan_free(&p);
	CU_ASSERT_PTR_NULL(p.definition);

	/* before v5.19 (no memory_reclaim): no write probe, the rest stays */
	unlink(syms);
	CU_ASSERT_FATAL(!write_tmp(syms, sizeof(syms), "ffffffff81184e70 t shrink_lruvec\n", 33));
	CU_ASSERT_EQUAL_FATAL(rr_probe_plan(&p, 7, btf_path, syms), 0);
	CU_ASSERT_PTR_NULL(p.extra[2]);
	CU_ASSERT_PTR_NULL(p.extra[3]);
	CU_ASSERT_PTR_NOT_NULL(p.definition);
	rr_probe_plan_free(&p);
	/* an inlined shrink_lruvec (no symbol of its own): said, no probe */
	unlink(syms);
	CU_ASSERT_FATAL(!write_tmp(syms, sizeof(syms), "ffffffff81184e70 t shrink_node\n", 32));
	CU_ASSERT_EQUAL(rr_probe_plan(&p, 1, btf_path, syms), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "inlined"));
	CU_ASSERT_PTR_NULL(p.definition);
	/* no BTF */
	CU_ASSERT_EQUAL(rr_probe_plan(&p, 1, "/nonexistent/vmlinux", syms), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "no kernel BTF (/nonexistent/vmlinux)"));
	/* a file that is no BTF */
	CU_ASSERT_EQUAL(rr_probe_plan(&p, 1, syms, syms), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.why, "cannot be read as BTF"));
	unlink(syms);
	unlink(btf_path);
	btf__free(b);
}

static void test_check(void)
{
	struct rr_lruvec_probe p;
	const char *bad = NULL;
	uint64_t v = 0;

	memset(&p, 0, sizeof(p));
	p.present = 1ull << RR_PF_CGROUP_ID | 1ull << RR_PF_PRIORITY | 1ull << RR_PF_MAY_DEACTIVATE;
	p.v[RR_PF_CGROUP_ID] = 12;
	p.v[RR_PF_PRIORITY] = 12;
	p.v[RR_PF_MAY_DEACTIVATE] = 3;
	p.nr_zones = 4;
	p.zone_lru[1][0] = 16260;
	CU_ASSERT_EQUAL(rr_probe_check(&p, &bad, &v), 0);
	CU_ASSERT_EQUAL(rr_probe_lru_pages(&p, 0, 3), 16260);
	CU_ASSERT_EQUAL(rr_probe_lru_pages(&p, 0, 0), 0);	/* zone 1 above reclaim_idx 0 */
	/* an s8 priority of -1 read as u64, a switch of 2 bits in a 1-bit
	 * field, a cgroup id of 0, a size no machine has */
	p.v[RR_PF_PRIORITY] = (uint64_t)-1;
	CU_ASSERT_EQUAL(rr_probe_check(&p, &bad, &v), -1);
	CU_ASSERT_STRING_EQUAL(bad, "priority");
	CU_ASSERT_EQUAL(v, (uint64_t)-1);
	p.v[RR_PF_PRIORITY] = 0;
	p.v[RR_PF_MAY_DEACTIVATE] = 4;
	CU_ASSERT_EQUAL(rr_probe_check(&p, &bad, &v), -1);
	CU_ASSERT_STRING_EQUAL(bad, "may_deactivate");
	p.v[RR_PF_MAY_DEACTIVATE] = 0;
	p.v[RR_PF_CGROUP_ID] = 0;
	CU_ASSERT_EQUAL(rr_probe_check(&p, &bad, &v), -1);
	CU_ASSERT_STRING_EQUAL(bad, "cgroup_id");
	p.v[RR_PF_CGROUP_ID] = 12;
	p.zone_lru[2][3] = 1ull << 41;
	CU_ASSERT_EQUAL(rr_probe_check(&p, &bad, &v), -1);
	CU_ASSERT_EQUAL(v, 1ull << 41);
}

struct seen {
	uint64_t ids[3];
	int n;
};

static int drain_cb(const struct rr_event *ev, void *ctx)
{
	struct seen *s = ctx;

	if (ev->probe && s->n < 3)
		s->ids[s->n++] = ev->probe->v[RR_PF_CGROUP_ID] * 1000 + ev->probe->zone_lru[1][0];
	return 0;
}

/* The reader fills one record and hands it on (reader.c): the pipe must
 * carry a copy, not the pointer (a regression: the replay read the
 * reader's next record, and counts changed from run to run). */
static void test_pipe_copies(void)
{
	struct rr_pipe *pp = rr_pipe_new();
	struct rr_lruvec_probe buf;
	struct rr_event ev;
	struct seen s = { .n = 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(pp);
	memset(&ev, 0, sizeof(ev));
	ev.type = RR_EV_LRUVEC_PROBE;
	ev.probe = &buf;
	for (int i = 1; i <= 3; i++) {
		memset(&buf, 0, sizeof(buf));
		buf.v[RR_PF_CGROUP_ID] = (uint64_t)i;
		buf.zone_lru[1][0] = (uint64_t)(100 + i);
		CU_ASSERT_EQUAL(rr_pipe_put(pp, &ev), 0);
	}
	memset(&buf, 0xff, sizeof(buf));	/* the reader moved on */
	rr_pipe_close(pp, 0);
	CU_ASSERT_EQUAL(rr_pipe_drain(pp, drain_cb, &s), 0);
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_EQUAL(s.ids[0], 1101);
	CU_ASSERT_EQUAL(s.ids[1], 2102);
	CU_ASSERT_EQUAL(s.ids[2], 3103);
	rr_pipe_free(pp);
}

int register_probe_tests(void)
{
	CU_pSuite s = CU_add_suite("probes", NULL, NULL);

	if (!s || !CU_add_test(s, "shrink_lruvec probe: offsets from BTF, what it leaves out",
			       test_plan) ||
	    !CU_add_test(s, "probe record: the range check", test_check) ||
	    !CU_add_test(s, "the reader's pipe copies a probe record", test_pipe_copies))
		return -1;
	return 0;
}
