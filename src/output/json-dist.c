// SPDX-License-Identifier: GPL-2.0-only
/*
 * The distributions of the per-episode change of each policy against the
 * baseline (summary.delta_distributions): counts per power-of-two bucket
 * of the change in pages, a fixed size whatever the trace's length, which
 * `merge` adds up bucket by bucket.
 */
#include "output.h"

#include <stdio.h>

/* "0", "1", "2..3", "-3..-2": the pages of bucket @b (diff.h). */
static void bucket_name(int b, char *buf, size_t len)
{
	int k = b - RR_DELTA_ZERO;
	unsigned long long lo, hi;

	if (!k) {
		snprintf(buf, len, "0");
		return;
	}
	k = k < 0 ? -k : k;
	lo = 1ULL << (k - 1);
	hi = k == 64 ? ~0ULL : (1ULL << k) - 1;
	if (b < RR_DELTA_ZERO && lo == hi)
		snprintf(buf, len, "-%llu", lo);
	else if (b < RR_DELTA_ZERO)
		snprintf(buf, len, "-%llu..-%llu", hi, lo);
	else if (lo == hi)
		snprintf(buf, len, "%llu", lo);
	else
		snprintf(buf, len, "%llu..%llu", lo, hi);
}

static json_t *histogram(const uint64_t *h)
{
	json_t *o = json_object();
	char name[48];

	for (int b = 0; o && b < RR_DELTA_BUCKETS; b++) {
		if (!h[b])
			continue;
		bucket_name(b, name, sizeof(name));
		json_object_set_new(o, name, rr_json_u64(h[b]));
	}
	return o;
}

json_t *rr_json_delta_distributions(const struct rr_totals *t,
				    const struct rr_resolved_policy *policies)
{
	json_t *d = json_object();

	for (int i = 0; d && i < t->nr_policies; i++) {
		json_t *p = json_object();

		if (i == t->baseline) {
			json_decref(p);
			continue;
		}
		json_object_set_new(p, "nr_reclaimed_pages",
				    histogram(t->policy[i].delta_hist[RR_DELTA_RECLAIMED]));
		json_object_set_new(p, "nr_scanned_pages",
				    histogram(t->policy[i].delta_hist[RR_DELTA_SCANNED]));
		json_object_set_new(d, policies[i].name, p);
	}
	return d;
}
