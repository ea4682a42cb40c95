// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modelled release (release.h): its string parsed, then the rules of
 * 4.0 and every change of the release families up to it applied.
 */
#include "release-local.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const struct rr_release_family *const families[] = {
	&rr_linux_4, &rr_linux_5, &rr_linux_6,
};

/* The families' changes in one array (rr_rule_changes() hands out runs of
 * it), gathered once. */
static struct rr_rule_change changes[64];
static size_t nr_changes;
static pthread_once_t gathered = PTHREAD_ONCE_INIT;

static void gather(void)
{
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		for (size_t i = 0; i < families[f]->nr_changes &&
		     nr_changes < sizeof(changes) / sizeof(changes[0]); i++)
			changes[nr_changes++] = families[f]->changes[i];
}

bool rr_kernel_at_least(const struct rr_kernel_model *km, int major, int minor)
{
	return km->major > major || (km->major == major && km->minor >= minor);
}

int rr_kernel_model_init(struct rr_kernel_model *km, const char *release)
{
	int major, minor, sub, n = 0, m = 0;

	memset(km, 0, sizeof(*km));
	if (!release || strlen(release) >= sizeof(km->release) ||
	    sscanf(release, "%d.%d%n", &major, &minor, &n) != 2 ||
	    major < 4 || major > 99 || minor < 0 || minor > 999)
		return -1;
	km->major = major;
	km->minor = minor;
	km->sublevel = sscanf(release + n, ".%d%n", &sub, &m) == 1 && m > 1 && sub >= 0 ? sub : -1;
	snprintf(km->release, sizeof(km->release), "%s", release);
	rr_linux_4_base(km);
	pthread_once(&gathered, gather);
	for (size_t i = 0; i < nr_changes; i++)
		if (rr_kernel_at_least(km, changes[i].release / 100, changes[i].release % 100))
			changes[i].apply(km);
	return 0;
}

size_t rr_rule_changes(int lo, int hi, const struct rr_rule_change **out)
{
	size_t first = 0, n = 0;

	pthread_once(&gathered, gather);
	*out = NULL;
	for (size_t i = 0; i < nr_changes; i++) {
		if (changes[i].release <= lo || changes[i].release > hi)
			continue;
		if (!n++)
			first = i;
	}
	if (n)
		*out = &changes[first];
	return n;
}

void rr_release_name(int release, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", release / 100, release % 100);
}
