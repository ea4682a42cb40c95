// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay report TRACE [--fidelity] [--json]` */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../replay/replay.h"
#include "cli.h"

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
	"                           one stored in the trace (e.g. 6.8); with\n"
	"                           --fidelity, needed (exit 2 without) for a\n"
	"                           trace naming none whose formats fit releases\n"
	"                           of different rules\n"
	RR_USAGE_KERNEL_POLICY
	"      --swap auto|yes|no   whether swap was present (default: auto: the\n"
	"                           recorder's marker, else evidence in the\n"
	"                           trace; without, calls it decides are\n"
	"                           counted undecidable)\n"
	RR_USAGE_ZONEINFO
	RR_USAGE_DROP_MEMCG_EVENTS
	"  -q, --quiet              no progress line\n"
	"  -h, --help               this text\n";

int cmd_report(int argc, char **argv)
{
	enum { OPT_FIDELITY = 256, OPT_JSON, OPT_KERNEL, OPT_SWAP, OPT_DROP, OPT_KERNEL_POLICY, OPT_ZONEINFO };
	static const struct option longopts[] = {
		{ "fidelity", no_argument, NULL, OPT_FIDELITY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "kernel-policy", required_argument, NULL, OPT_KERNEL_POLICY },
		{ "swap", required_argument, NULL, OPT_SWAP },
		{ "zoneinfo", required_argument, NULL, OPT_ZONEINFO },
		{ "drop-memcg-events", no_argument, NULL, OPT_DROP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rr_replay_opts opts = { .swap_present = -1, .release_may_be_assumed = true,
				       .report = true };
	struct rr_error err = { "", "" };
	bool quiet = false;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FIDELITY:
			opts.report_fidelity = true;
			break;
		case OPT_JSON:
			opts.report_json = true;
			break;
		case OPT_KERNEL:
			if (rr_kernel_option("report", optarg))
				return RR_EXIT_USAGE;
			opts.kernel_release = optarg;
			break;
		case OPT_KERNEL_POLICY:
			if (rr_kernel_policy_option("report", optarg))
				return RR_EXIT_USAGE;
			opts.kernel_policy = optarg;
			break;
		case OPT_SWAP:
			if (rr_swap_option("report", optarg, &opts.swap_present))
				return RR_EXIT_USAGE;
			break;
		case OPT_ZONEINFO:
			opts.zoneinfo_path = optarg;
			break;
		case OPT_DROP:
			opts.drop_memcg_events = true;
			break;
		case 'q':
			quiet = true;
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
	rr_cli_callbacks(&opts, quiet);
	ret = rr_replay(&opts, &err);
	if (ret) {
		rr_print_error(&err);
		return ret == RR_REPLAY_NEEDS_KERNEL ? RR_EXIT_USAGE : RR_EXIT_ERROR;
	}
	return RR_EXIT_OK;
}
