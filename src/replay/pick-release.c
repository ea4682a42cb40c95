// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel release a trace's replay models: --kernel, the trace's uname
 * or recorder marker, else what the print formats say, when the model's
 * rules do not change inside their range (src/release).
 */
#include "replay-local.h"

#include <stdio.h>
#include <string.h>

/* "Linux host 6.18.44-fc-v669 x86_64" -> "6.18.44-fc-v669" */
static int release_from_uname(const char *uname, char *buf, size_t len)
{
	char sys[64], host[128], rel[128];

	if (sscanf(uname, "%63s %127s %127s", sys, host, rel) != 3)
		return -1;
	snprintf(buf, len, "%s", rel);
	return 0;
}

/*
 * "5.6 SCAN_FRACT rounds down ...; 5.8 ..." for the rule changes after @lo
 * up to @hi into @buf, cut at a whole change ("and N more").
 */
static void rule_changes_text(int lo, int hi, char *buf, size_t len)
{
	const struct rr_rule_change *c;
	size_t n = rr_rule_changes(lo, hi, &c), used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		char rel[16], one[200];
		int w;

		rr_release_name(c[i].release, rel, sizeof(rel));
		w = snprintf(one, sizeof(one), "%s%s: %s", i ? "; " : "", rel, c[i].what);
		if (w < 0 || used + (size_t)w + 24 >= len) {
			snprintf(buf + used, len - used, "; and %zu more", n - i);
			return;
		}
		memcpy(buf + used, one, (size_t)w + 1);
		used += (size_t)w;
	}
}

/*
 * The kernel release to model, and where it came from: --kernel, the
 * trace's uname or recorder marker, else the newest release the trace's
 * print formats fit (text.c era_hints(); 4.0 to RR_NEWEST_MODELLED_RELEASE
 * when they do not bound it).  When the rules of the model change inside
 * that range (rr_rule_changes()), or the formats fit no single release,
 * only `report` without --fidelity goes on (it says the range); compare
 * and report --fidelity fail with r->needs_kernel set.
 */
int rr_replay_pick_release(struct replay *r, const struct rr_trace_info *ti)
{
	const struct rr_replay_opts *o = r->o;
	char release[128], lo_s[16], hi_s[16], changes[360];
	int lo, hi;
	bool fit, ask;

	r->release_source = "option";
	if (o->kernel_release) {
		snprintf(release, sizeof(release), "%s", o->kernel_release);
	} else if (ti->uname[0] && !release_from_uname(ti->uname, release, sizeof(release))) {
		r->release_source = "trace";
	} else if (ti->kernel_release[0]) {
		snprintf(release, sizeof(release), "%s", ti->kernel_release);
		r->release_source = "trace";
	} else {
		lo = ti->era_lo > RR_RULES_OLDEST ? ti->era_lo : RR_RULES_OLDEST;
		hi = ti->era_hi && ti->era_hi < RR_RULES_NEWEST ? ti->era_hi : RR_RULES_NEWEST;
		fit = lo <= hi;
		rr_release_name(lo, lo_s, sizeof(lo_s));
		rr_release_name(hi, hi_s, sizeof(hi_s));
		changes[0] = 0;
		if (fit)
			rule_changes_text(lo, hi, changes, sizeof(changes));
		ask = !fit || changes[0];
		if (ask && !(o->release_may_be_assumed && !o->report_fidelity)) {
			r->needs_kernel = true;
			if (!fit)
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it, and its event formats fit no single "
					     "release (lines of several kernels?); give --kernel RELEASE");
			else if (ti->format == RR_FORMAT_TEXT)
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it; its event formats fit %s to %s, and the "
					     "model's rules differ inside that range (%s); give --kernel "
					     "RELEASE", lo_s, hi_s, changes);
			else
				rr_error_set(r->err, o->trace_path, "the trace does not say which "
					     "kernel made it (no uname, no recorder marker), and the "
					     "model's rules differ between %s and %s (%s); give --kernel "
					     "RELEASE", lo_s, hi_s, changes);
			return -1;
		}
		snprintf(release, sizeof(release), "%s", fit ? hi_s : RR_NEWEST_MODELLED_RELEASE);
		r->release_source = "assumed";
		if (!fit)
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say, and its event formats fit "
				 "no single release; modelled as %.16s (give --kernel)", release);
		else if (changes[0])
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say; its event formats fit %s to "
				 "%s, inside which the model's rules change (%s); modelled as "
				 "%.16s (give --kernel)", lo_s, hi_s, changes, release);
		else
			snprintf(r->release_note, sizeof(r->release_note),
				 "kernel release: the trace does not say; its event formats fit %s to "
				 "%s, the same rules of the model throughout; modelled as %.16s",
				 lo_s, hi_s, release);
	}
	if (rr_kernel_model_init(&r->km, release)) {
		rr_error_set(r->err, o->trace_path,
			     "kernel release '%s' is not MAJOR.MINOR >= 4.0", release);
		return -1;
	}
	return 0;
}
