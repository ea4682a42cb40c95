/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The release families' tables (linux-4.c, linux-5.c, linux-6.c), for
 * release.c.  Not for other stages.
 */
#ifndef RR_RELEASE_LOCAL_H
#define RR_RELEASE_LOCAL_H

#include "release.h"

/* The rule changes of one release family, in release order. */
struct rr_release_family {
	const struct rr_rule_change *changes;
	size_t nr_changes;
};

/* The rules of 4.0, the oldest release modelled: every switch's start. */
void rr_linux_4_base(struct rr_kernel_model *km);

extern const struct rr_release_family rr_linux_4, rr_linux_5, rr_linux_6;

#endif
