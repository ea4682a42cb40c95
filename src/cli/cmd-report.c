// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay report TRACE [--fidelity] [--json]` */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/report.h"
#include "cli.h"
#include "replay.h"

static const char report_usage[] =
	"usage: reclaim-replay report TRACE [--fidelity] [--json] [options]\n"
	"\n"
	"What the trace itself shows: its reclaim episodes of every kind (memcg,\n"
	"direct, kswapd, node, soft limit, proactive) with their latencies, and\n"
	"per cgroup and per priority the pages scanned and reclaimed.  TRACE is a\n"
	"trace.dat or a text trace (ftrace, trace_pipe, trace-cmd report, perf\n"
	"script, or bare event lines); '-' reads standard input.  With\n"
	"--fidelity, also how exactly the model of the recording kernel\n"
	"reproduces every recorded shrink_lruvec() call.\n"
	"\n"
	"      --fidelity           replay every episode with the baseline and\n"
	"                           score it against the recording\n"
	"      --json               print a JSON object instead of text\n"
	"      --kernel RELEASE     model this kernel release instead of the\n"
	"                           one stored in the trace (e.g. 6.8)\n"
	"  -q, --quiet              no progress line\n"
	"  -h, --help               this text\n";

int cmd_report(int argc, char **argv)
{
	enum { OPT_FIDELITY = 256, OPT_JSON, OPT_KERNEL };
	static const struct option longopts[] = {
		{ "fidelity", no_argument, NULL, OPT_FIDELITY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rr_replay_opts opts = { .swap_present = -1, .progress = true,
				       .release_may_be_assumed = true };
	struct rr_trace_info info;
	struct rr_report *rep;
	struct rr_resolved_policy policies[RR_MAX_POLICIES];
	struct rr_error err = { "", "" };
	bool fidelity = false, as_json = false;
	struct rr_out out;
	int nr_policies = 0, c;
	json_t *doc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FIDELITY:
			fidelity = true;
			break;
		case OPT_JSON:
			as_json = true;
			break;
		case OPT_KERNEL:
			if (rr_kernel_option("report", optarg))
				return RR_EXIT_USAGE;
			opts.kernel_release = optarg;
			break;
		case 'q':
			opts.progress = false;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return RR_EXIT_OK;
		default:
			return rr_option_error("report", c, argv);
		}
	}
	if (optind >= argc)
		return rr_usage_error("report", "no TRACE given");
	if (optind + 1 < argc)
		return rr_usage_error("report", "one TRACE at a time, got '%s' too",
				      argv[optind + 1]);
	opts.trace_path = argv[optind];
	rep = rr_report_new(as_json);
	if (!rep) {
		rr_error_set(&err, "", "out of memory");
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	memset(&info, 0, sizeof(info));
	opts.request_cb = rr_report_request;
	opts.request_ctx = rep;
	opts.info_out = &info;
	if (rr_replay(&opts, &out, policies, &nr_policies, &err)) {
		rr_print_error(&err);
		rr_report_free(rep);
		return RR_EXIT_ERROR;
	}
	doc = rr_out_finish(&out);
	if (!out.has_recording) {
		rr_error_set(&err, opts.trace_path, "is a scenario: nothing was recorded to report");
		rr_print_error(&err);
		rr_out_free(&out);
		rr_policy_release(&policies[0]);
		rr_report_free(rep);
		return RR_EXIT_ERROR;
	}
	if (as_json) {
		json_t *r = json_object();
		char *text;

		json_object_set(r, "schema_version", json_object_get(doc, "schema_version"));
		json_object_set(r, "tool", json_object_get(doc, "tool"));
		json_object_set(r, "input", json_object_get(doc, "input"));
		json_t *rj = rr_report_json(rep, &info, json_object_get(json_object_get(doc, "input"),
								   "assumptions"));

		json_object_update(r, rj);
		json_decref(rj);
		json_object_set(r, "recorded", json_object_get(json_object_get(doc, "summary"), "recorded"));
		if (fidelity)
			json_object_set(r, "fidelity", json_object_get(doc, "fidelity"));
		text = json_dumps(r, JSON_INDENT(2));
		if (text)
			printf("%s\n", text);
		free(text);
		json_decref(r);
	} else {
		const struct rr_recorded_totals *t = &out.recorded;

		printf("%s: %s, kernel %s (%s)\n", opts.trace_path,
		       info.format == RR_FORMAT_TEXT ? "text trace" : "trace.dat",
		       json_string_value(json_object_get(json_object_get(doc, "input"), "kernel_release")),
		       json_string_value(json_object_get(json_object_get(doc, "input"),
							  "kernel_release_source")));
		printf("memcg episodes the replay models: %llu, %llu LRU batches in them: %llu pages "
		       "taken off inactive lists, %llu reclaimed (%.1f MiB)\n",
		       (unsigned long long)out.nr_episodes, (unsigned long long)t->batches,
		       (unsigned long long)t->nr_scanned, (unsigned long long)t->nr_reclaimed,
		       (double)t->nr_reclaimed * (double)out.page_size_bytes / 1048576.0);
		rr_report_print(rep, &info, json_object_get(json_object_get(doc, "input"),
							    "assumptions"), stdout);
		if (fidelity) {
			putchar('\n');
			rr_fidelity_print(&out.fidelity, stdout);
		}
	}
	rr_out_free(&out);
	rr_report_free(rep);
	for (int i = 0; i < nr_policies; i++)
		rr_policy_release(&policies[i]);
	return RR_EXIT_OK;
}
