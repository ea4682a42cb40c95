/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The releases where the kernel model's rules change, for a trace that
 * does not name its kernel: when its print formats fit a range of releases
 * (text.c era_hints()) and a rule changes inside it, the replay must be
 * told which release made it (--kernel).
 */
#ifndef RR_REPLAY_RULES_H
#define RR_REPLAY_RULES_H

#include <stddef.h>

/* Releases as MAJOR * 100 + MINOR (6.18 = 618), as struct rr_trace_info's
 * era_lo/era_hi. */
#define RR_RULES_OLDEST 400	/* the oldest release the model takes (4.0) */
#define RR_RULES_NEWEST 618	/* RR_NEWEST_MODELLED_RELEASE */

struct rr_rule_change {
	int release;		/* the first release with the new rule */
	const char *what;	/* the rule from then on, with its commit */
};

/**
 * rr_rule_changes() - the model's rule changes in the releases after @lo
 * up to @hi (both MAJOR * 100 + MINOR)
 * @out: set to the first of them (NULL when none), in release order.
 *
 * The table gathers every release switch of the model: those derived in
 * rr_kernel_model_init() (src/sim/kernel-model.c; tests/unit checks the
 * table against it), kernel_scan_fract() and kernel_chunk()
 * (src/policies/builtin.c), protect() (src/sim/sim.c) and memory.reclaim's
 * presence (src/replay/replay.c); docs/kernel-model.md §3.7, 3.8, 5.2,
 * 6.2, 10.2 and 23.
 * Return: how many there are (0 when @hi <= @lo).
 */
size_t rr_rule_changes(int lo, int hi, const struct rr_rule_change **out);

/* "5.17" for 517 into @buf. */
void rr_release_name(int release, char *buf, size_t len);

#endif
