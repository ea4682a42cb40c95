// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay verify STOCK PATCHED [-p POLICY] [-o FILE] [--format F]` */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../output/output.h"
#include "../replay/replay.h"
#include "../verify/verify.h"
#include "cli.h"

static const char verify_usage[] =
	"usage: reclaim-replay verify STOCK PATCHED [-p POLICY] [-o FILE]\n"
	"                             [--format table|markdown] [--kernel RELEASE]\n"
	"\n"
	"Check a policy's prediction against a kernel that runs it: STOCK is a\n"
	"recording of a workload on a stock kernel, PATCHED the recording of the\n"
	"same workload on a kernel running POLICY (a patch; record\n"
	"--kernel-policy names it in the trace).  STOCK is replayed under\n"
	"POLICY, PATCHED with kernel+POLICY as its kernel, and their episodes\n"
	"compared per kind, per memory.reclaim write and in total: calls, pages\n"
	"scanned and reclaimed, over-reclaim MiB, seconds and pages/s, predicted\n"
	"against measured, with the error of each.  Workloads that differ (other\n"
	"writes, other kinds of reclaim) are refused.\n"
	"\n"
	"  -p, --policy POLICY      the policy PATCHED ran (default: its trace's\n"
	"                           kernel_policy marker)\n"
	"  -o, --output FILE        also write the comparison as JSON ('-': only\n"
	"                           the JSON, to stdout)\n"
	"      --format F           table (default) or markdown, for a review thread\n"
	"      --kernel RELEASE     model this release for both (default: each\n"
	"                           trace's own)\n"
	"  -q, --quiet              no progress line\n"
	"  -h, --help               this text\n"
	"\n"
	"Exit status: 0 compared; 1 error, or the workloads differ; 2 usage.\n";

/* Replay @trace into the JSON file @json (every episode listed): under
 * @policy, or with it as the recording kernel's policy. */
static int replay_to(const char *trace, const char *policy, bool kernel_policy,
		     const char *release, const char *json, bool quiet, struct rr_error *err)
{
	struct rr_replay_opts o = { .swap_present = -1, .episodes = RR_EPISODES_ALL, .top = 10 };

	o.trace_path = trace;
	o.json_path = json;
	o.kernel_release = release;
	if (kernel_policy) {
		o.kernel_policy = policy;
	} else {
		o.policy_specs[0] = policy;
		o.nr_specs = 1;
	}
	rr_cli_callbacks(&o, quiet);
	return rr_replay(&o, err);
}

static json_t *load(const char *path, const char *name, struct rr_error *err)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);

	if (!doc)
		rr_error_set(err, name, "cannot read its replay: %s", je.text);
	return doc;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy = NULL, *output = NULL, *release = NULL, *tmpdir = getenv("TMPDIR");
	char ts[4096], tp[4096];
	struct rr_error err = { "", "" };
	json_t *stock = NULL, *patched = NULL, *out = NULL;
	const char *marker;
	bool markdown = false, quiet = false;
	struct rr_verify v;
	int c, fd, ret = RR_EXIT_ERROR;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (rr_kernel_policy_option("verify", optarg))
				return RR_EXIT_USAGE;
			policy = optarg;
			break;
		case 'o':
			if (!*optarg)
				return rr_usage_error("verify", "-o needs a file name, or - for stdout");
			output = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "table") && strcmp(optarg, "markdown"))
				return rr_usage_error("verify", "--format takes table or markdown, not "
						      "'%s'", optarg);
			markdown = !strcmp(optarg, "markdown");
			break;
		case 'k':
			if (rr_kernel_option("verify", optarg))
				return RR_EXIT_USAGE;
			release = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(verify_usage, stdout);
			return RR_EXIT_OK;
		default:
			return rr_option_error("verify", c, argv);
		}
	}
	if (argc - optind != 2)
		return rr_usage_error("verify", "takes two traces, STOCK and PATCHED");
	/* (the same recording twice with -p kernel is the replay's own check
	 * against its kernel, as lab/seeds.sh prints the stock rows) */
	if (!policy || strcmp(policy, "kernel")) {
		struct stat a, b;

		if (!stat(argv[optind], &a) && !stat(argv[optind + 1], &b) && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino && S_ISREG(a.st_mode)) {
			rr_error_set(&err, argv[optind + 1], "is STOCK too: verify compares a stock "
				     "kernel's recording with a patched kernel's");
			rr_print_error(&err);
			return RR_EXIT_ERROR;
		}
	}
	snprintf(ts, sizeof(ts), "%s/reclaim-replay-verify-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	snprintf(tp, sizeof(tp), "%s", ts);
	if ((fd = mkstemp(ts)) < 0 || close(fd) || (fd = mkstemp(tp)) < 0 || close(fd)) {
		rr_error_set(&err, ts, "cannot make a temporary file");
		goto out;
	}
	/* the patched kernel first: its trace may name the policy */
	if (replay_to(argv[optind + 1], policy, true, release, tp, quiet, &err) ||
	    !(patched = load(tp, argv[optind + 1], &err)))
		goto out;
	marker = json_string_value(json_object_get(json_object_get(patched, "input"),
						   "kernel_policy_marker"));
	if (!policy) {
		policy = marker;
		if (!policy) {
			ret = rr_usage_error("verify", "%s names no policy (record --kernel-policy): "
					     "say which with -p", argv[optind + 1]);
			goto out;
		}
	} else if (marker && strcmp(marker, policy)) {
		rr_error_set(&err, argv[optind + 1], "its record --kernel-policy marker says its "
			     "kernel ran %s: -p %s contradicts it", marker, policy);
		goto out;
	}
	if (replay_to(argv[optind], policy, false, release, ts, quiet, &err) ||
	    !(stock = load(ts, argv[optind], &err)))
		goto out;
	marker = json_string_value(json_object_get(json_object_get(stock, "input"),
						   "kernel_policy_marker"));
	if (marker && strcmp(marker, "kernel")) {
		rr_error_set(&err, argv[optind], "its record --kernel-policy marker says its kernel "
			     "ran %s: STOCK must be a stock kernel's recording", marker);
		goto out;
	}
	if (rr_verify_docs(stock, patched, policy, argv[optind], argv[optind + 1], &v, &err))
		goto out;
	snprintf(v.policy_source, sizeof(v.policy_source), "%s",
		 json_string_value(json_object_get(json_object_get(patched, "input"),
						   "kernel_policy_marker")) ? "trace" : "option");
	if (!output || strcmp(output, "-"))
		rr_verify_print(stdout, &v, markdown);
	if (output) {
		out = rr_verify_json(&v, argv[optind], argv[optind + 1]);
		if (!out || rr_write_json(output, out, NULL, &err))
			goto out;
	}
	ret = RR_EXIT_OK;
out:
	if (ret == RR_EXIT_ERROR)
		rr_print_error(&err);
	unlink(ts);
	unlink(tp);
	json_decref(stock);
	json_decref(patched);
	json_decref(out);
	return ret;
}
