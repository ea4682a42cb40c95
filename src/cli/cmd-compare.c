// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay compare TRACE [-p POLICY]... [-o FILE]` */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "../common/text.h"
#include "../diff/diff.h"
#include "../replay/replay.h"
#include "cli.h"

static const char compare_usage[] =
	"usage: reclaim-replay compare TRACE... [-p POLICY]... [-o FILE|DIR] [-j N] [options]\n"
	"\n"
	"Replay the reclaim episodes of TRACE (a trace.dat, a text trace, a\n"
	"scenario .json, or '-' for standard input) under the\n"
	"baseline policy 'kernel' (the recording kernel's rules) and each\n"
	"POLICY, and print a summary table of the decisions (memcg limit,\n"
	"soft-limit, memory.reclaim, and global: kswapd, direct and node\n"
	"reclaim, split by kind when there are several).  With several\n"
	"TRACEs, each is replayed in a process of its own and its table printed\n"
	"in argument order; -o then names a directory, which gets NAME.json for\n"
	"each TRACE (fold them with 'reclaim-replay merge').\n"
	"\n"
	"  -p, --policy SPEC        a built-in policy, a '+' composition of them,\n"
	"                           or a path to a policy .so; repeatable.\n"
	"                           Default: original, online-roundup,\n"
	"                           cluster-cap, proportional\n"
	"  -o, --output FILE        write the JSON diff to FILE; '-' writes it\n"
	"                           to stdout instead of the table\n"
	"  -j, --jobs N             replay N of several TRACEs at a time (default 1)\n"
	"      --kernel RELEASE     model this kernel release instead of the\n"
	"                           one stored in the trace (e.g. 6.8); needed\n"
	"                           (exit 2 without) for a trace naming none\n"
	"                           whose formats fit releases of different rules\n"
	RR_USAGE_KERNEL_POLICY
	"      --swap auto|yes|no   whether swap was present (default: auto: the\n"
	"                           recorder's marker, else anon scanning in the\n"
	"                           trace)\n"
	"      --outcome structural|exact\n"
	"                           what a replayed reclaim call reclaims:\n"
	"                           structural (default) runs the loops on the\n"
	"                           recorded reclaim ratios; exact reclaims\n"
	"                           its nr_to_reclaim (the seed's arithmetic;\n"
	"                           no fidelity check); traces only\n"
	"      --offline-delay-ms N assumed delay from cgroup_rmdir until the\n"
	"                           memcg is offline (default 25)\n"
	RR_USAGE_ZONEINFO
	RR_USAGE_DROP_MEMCG_EVENTS
	"      --baseline POLICY    diff against this policy (default kernel)\n"
	"      --episodes top|differing|all\n"
	"                           the episodes -o's diff lists: the --top\n"
	"                           that differ most (default: a diff of\n"
	"                           bounded size), every one that differs, or\n"
	"                           every one (--jsonl: differing or all)\n"
	"      --all-episodes       --episodes all\n"
	"      --jsonl              stream JSON lines to stdout: a header, one\n"
	"                           line per episode, the summary last\n"
	"      --format text|markdown\n"
	"                           the summary table's format (default text)\n"
	"      --top N              list the N episodes that differ most, in the\n"
	"                           table and -o's diff (default 5)\n"
	"      --html FILE          also write a page of plots (self-contained)\n"
	"      --html-cgroup PATH   the cgroup of its scan-targets plot (default:\n"
	"                           the one with the most scan-target pages)\n"
	"  -q, --quiet              no progress line\n"
	"  -h, --help               this text\n";

/*
 * Whether two output paths name one file: the same inode when both exist,
 * else the same canonical directory and name.
 */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *da, *db, *ra, *rb;
	const char *na, *nb;
	bool same;

	if (!strcmp(a, b))
		return true;
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	na = strrchr(a, '/');
	nb = strrchr(b, '/');
	da = na ? strndup(a, (size_t)(na - a) + 1) : strdup(".");
	db = nb ? strndup(b, (size_t)(nb - b) + 1) : strdup(".");
	ra = da ? realpath(da, NULL) : NULL;
	rb = db ? realpath(db, NULL) : NULL;
	same = ra && rb && !strcmp(ra, rb) && !strcmp(na ? na + 1 : a, nb ? nb + 1 : b);
	free(da);
	free(db);
	free(ra);
	free(rb);
	return same;
}

/* Syntax of a policy spec: non-empty '+'-separated components. */
static const char *spec_problem(const char *spec)
{
	int parts = 1;

	if (!*spec)
		return "is empty";
	if (strlen(spec) > 120)
		return "is longer than 120 characters";
	if (spec[0] == '+' || spec[strlen(spec) - 1] == '+' || strstr(spec, "++"))
		return "has an empty component around '+'";
	for (const char *p = spec; *p; p++)
		parts += *p == '+';
	if (parts > RR_MAX_COMPONENTS - 1)
		return "has too many '+' components (at most 7)";
	/* it names the policy in the JSON (a key) and the table */
	if (!rr_utf8_valid(spec, strlen(spec)))
		return "is not UTF-8 (it names the policy in the JSON: rename the file)";
	if (rr_has_control(spec))
		return "holds a control character (it names the policy in the table)";
	return NULL;
}

static void many_error(void *ctx, const struct rr_error *err)
{
	(void)ctx;
	rr_print_error(err);
}

/* One line for all the traces on a terminal; total 0 erases it. */
static void many_progress(void *ctx, int done, int total, uint64_t events, double elapsed_s,
			  int slowest)
{
	(void)ctx;
	if (!total) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	fprintf(stderr, "\rreclaim-replay: %d of %d traces done, %.1f M events in %.0f s "
		"(%.1f M/s)", done, total, (double)events / 1e6, elapsed_s,
		elapsed_s > 0 ? (double)events / elapsed_s / 1e6 : 0.0);
	if (slowest >= 0)
		fprintf(stderr, ", slowest at %d%%", slowest / 10);
	fprintf(stderr, "\033[K");
}

/* "dir/x.dat" -> "x": the name of its JSON in the -o directory. */
static void json_name(const char *trace, char *buf, size_t len)
{
	const char *base = strrchr(trace, '/');
	char *dot;

	snprintf(buf, len, "%s", base ? base + 1 : trace);
	dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = 0;
}

/* @arg is a whole decimal number in @lo..@hi: *@v. */
static bool in_range(const char *arg, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return !errno && *arg && !*end && *v >= lo && *v <= hi;
}

/* mkdir -p @path: 0, or -1 with errno. */
static int make_dirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; ; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = c;
		if (!c)
			return 0;
	}
}

/* Several TRACEs: one process each, -j at a time, -o a directory. */
static int compare_many(const struct rr_replay_opts *tmpl, char **traces, int nr, int jobs,
			bool quiet)
{
	struct rr_many_opts mo = { .jobs = jobs, .header = tmpl->table, .error = many_error };
	struct rr_replay_opts *opts;
	char (*paths)[4096] = NULL;
	struct rr_error err = { "", "" };
	int failed = 0, ret;
	bool made_dir = false;

	if (nr < 2)	/* (cmd_compare() calls it with two or more) */
		return rr_usage_error("compare", "several TRACEs expected");
	if (tmpl->jsonl || tmpl->html_path)
		return rr_usage_error("compare", "--jsonl and --html take one TRACE at a time");
	if (tmpl->json_path && !strcmp(tmpl->json_path, "-"))
		return rr_usage_error("compare", "-o - takes one TRACE at a time; with several, "
				      "-o names a directory");
	for (int i = 0; i < nr; i++)
		if (!strcmp(traces[i], "-"))
			return rr_usage_error("compare", "'-' (standard input) takes one TRACE at a time");
	/* once, not once per trace */
	if (rr_replay_check_policies(tmpl, &err)) {
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	opts = calloc((size_t)nr, sizeof(*opts));
	paths = calloc((size_t)nr, sizeof(*paths));
	if (!opts || !paths) {
		free(opts);
		free(paths);
		rr_error_set(&err, "", "out of memory");
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	for (int i = 0; i < nr; i++) {
		char name[1024];

		opts[i] = *tmpl;
		opts[i].trace_path = traces[i];
		rr_cli_callbacks(&opts[i], true);	/* (the progress is the parent's) */
		if (!tmpl->json_path)
			continue;
		json_name(traces[i], name, sizeof(name));
		if ((size_t)snprintf(paths[i], sizeof(paths[i]), "%s/%s.json", tmpl->json_path,
				     name) >= sizeof(paths[i])) {
			ret = rr_usage_error("compare", "'%s/%s.json': the path is too long",
					     tmpl->json_path, name);
			goto out;
		}
		opts[i].json_path = paths[i];
		for (int k = 0; k < i; k++) {
			if (strcmp(paths[k], paths[i]))
				continue;
			ret = rr_usage_error("compare", "'%s' and '%s' would both write %s",
					     traces[k], traces[i], paths[i]);
			goto out;
		}
	}
	/* the directory only once the names are known not to clash */
	if (tmpl->json_path) {
		struct stat st;

		made_dir = stat(tmpl->json_path, &st) != 0;
		if (made_dir && make_dirs(tmpl->json_path)) {
			rr_error_set(&err, tmpl->json_path, "cannot make the directory: %s",
				     strerror(errno));
			rr_print_error(&err);
			ret = RR_EXIT_ERROR;
			goto out;
		}
		if (stat(tmpl->json_path, &st) || !S_ISDIR(st.st_mode)) {
			ret = rr_usage_error("compare", "with several TRACEs, -o names a directory, "
					     "and '%s' is not one", tmpl->json_path);
			goto out;
		}
	}
	if (!quiet && isatty(STDERR_FILENO))
		mo.progress = many_progress;
	ret = rr_replay_many(opts, nr, &mo, &failed) ? RR_EXIT_ERROR : RR_EXIT_OK;
	if (made_dir)
		rmdir(tmpl->json_path);	/* only if no trace wrote to it */
out:
	free(opts);
	free(paths);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	enum { OPT_KERNEL = 256, OPT_SWAP, OPT_OFFLINE, OPT_BASELINE, OPT_ALL, OPT_JSONL,
	       OPT_FORMAT, OPT_TOP, OPT_HTML, OPT_HTML_CGROUP, OPT_OUTCOME, OPT_DROP,
	       OPT_KERNEL_POLICY, OPT_ZONEINFO, OPT_EPISODES };
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "kernel-policy", required_argument, NULL, OPT_KERNEL_POLICY },
		{ "swap", required_argument, NULL, OPT_SWAP },
		{ "zoneinfo", required_argument, NULL, OPT_ZONEINFO },
		{ "offline-delay-ms", required_argument, NULL, OPT_OFFLINE },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "all-episodes", no_argument, NULL, OPT_ALL },
		{ "episodes", required_argument, NULL, OPT_EPISODES },
		{ "jsonl", no_argument, NULL, OPT_JSONL },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "html-cgroup", required_argument, NULL, OPT_HTML_CGROUP },
		{ "outcome", required_argument, NULL, OPT_OUTCOME },
		{ "drop-memcg-events", no_argument, NULL, OPT_DROP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rr_replay_opts opts = { .swap_present = -1, .top = 5 };
	bool quiet = false, top_given = false, episodes_top = false;
	int jobs = 1;
	struct rr_error err = { "", "" };
	int c, ret;
	long v;

	optind = 1;
	opterr = 0;	/* one message per error, ours */
	while ((c = getopt_long(argc, argv, ":p:o:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			const char *problem = spec_problem(optarg);

			if (problem) {
				/* (its bytes shown escaped: it may hold any) */
				char *shown = rr_name_dup(optarg, strlen(optarg) < 40 ? strlen(optarg) : 40);

				ret = rr_usage_error("compare", "policy spec '%s%s' %s",
						     shown ? shown : "", strlen(optarg) > 40 ? "..." : "",
						     problem);
				free(shown);
				return ret;
			}
			if (opts.nr_specs >= RR_MAX_POLICIES - 1)
				return rr_usage_error("compare", "at most %d policies",
						      RR_MAX_POLICIES - 1);
			for (int i = 0; i < opts.nr_specs; i++)
				if (!strcmp(opts.policy_specs[i], optarg))
					return rr_usage_error("compare", "policy '%s' given twice",
							      optarg);
			opts.policy_specs[opts.nr_specs++] = optarg;
			break;
		}
		case 'o':
			if (!*optarg)
				return rr_usage_error("compare", "-o needs a file name, or - for stdout");
			opts.json_path = optarg;
			break;
		case 'j':
			if (!in_range(optarg, 1, 256, &v))
				return rr_usage_error("compare", "-j takes 1..256, not '%s'", optarg);
			jobs = (int)v;
			break;
		case OPT_KERNEL:
			if (rr_kernel_option("compare", optarg))
				return RR_EXIT_USAGE;
			opts.kernel_release = optarg;
			break;
		case OPT_KERNEL_POLICY:
			if (rr_kernel_policy_option("compare", optarg))
				return RR_EXIT_USAGE;
			opts.kernel_policy = optarg;
			break;
		case OPT_SWAP:
			if (rr_swap_option("compare", optarg, &opts.swap_present))
				return RR_EXIT_USAGE;
			break;
		case OPT_ZONEINFO:
			opts.zoneinfo_path = optarg;
			break;
		case OPT_OFFLINE:
			if (!in_range(optarg, 0, 60000, &v))
				return rr_usage_error("compare",
						      "--offline-delay-ms takes 0..60000, not '%s'",
						      optarg);
			opts.offline_delay_ns = (uint64_t)v * 1000000ULL;
			opts.offline_delay_given = true;
			break;
		case OPT_BASELINE:
			opts.baseline = optarg;
			break;
		case OPT_DROP:
			opts.drop_memcg_events = true;
			break;
		case OPT_HTML:
			if (!*optarg || !strcmp(optarg, "-"))
				return rr_usage_error("compare", "--html needs a file name");
			opts.html_path = optarg;
			break;
		case OPT_HTML_CGROUP:
			if (*optarg != '/')
				return rr_usage_error("compare",
						      "--html-cgroup takes an absolute cgroup path, e.g. /a/b");
			opts.html_cgroup = optarg;
			break;
		case OPT_OUTCOME:
			if (!strcmp(optarg, "exact"))
				opts.outcome_exact = true;
			else if (!strcmp(optarg, "structural"))
				opts.outcome_exact = false;
			else
				return rr_usage_error("compare", "--outcome takes structural or exact, "
						      "not '%s'", optarg);
			break;
		case OPT_ALL:
			opts.episodes = RR_EPISODES_ALL;
			episodes_top = false;
			break;
		case OPT_EPISODES:
			if (!strcmp(optarg, "all"))
				opts.episodes = RR_EPISODES_ALL;
			else if (!strcmp(optarg, "differing"))
				opts.episodes = RR_EPISODES_DIFFERING;
			else if (!strcmp(optarg, "top"))
				opts.episodes = RR_EPISODES_TOP;
			else
				return rr_usage_error("compare", "--episodes takes top, differing or "
						      "all, not '%s'", optarg);
			episodes_top = opts.episodes == RR_EPISODES_TOP;
			break;
		case OPT_JSONL:
			opts.jsonl = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "markdown"))
				opts.markdown = true;
			else if (strcmp(optarg, "text"))
				return rr_usage_error("compare", "--format takes text or markdown, not '%s'",
						      optarg);
			break;
		case OPT_TOP:
			if (!in_range(optarg, 0, RR_TOP_MAX, &v))
				return rr_usage_error("compare", "--top takes 0..%d, not '%s'",
						      RR_TOP_MAX, optarg);
			opts.top = (int)v;
			top_given = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return RR_EXIT_OK;
		default:
			return rr_option_error("compare", c, argv);
		}
	}
	if (optind >= argc)
		return rr_usage_error("compare", "no TRACE given");
	for (int i = optind; i < argc; i++)
		if (!*argv[i])
			return rr_usage_error("compare", "empty TRACE name");
	opts.trace_path = argv[optind];
	if (opts.html_cgroup && !opts.html_path)
		return rr_usage_error("compare", "--html-cgroup needs --html FILE");
	if (opts.jsonl && opts.json_path)
		return rr_usage_error("compare", "--jsonl streams to stdout; it does not take -o");
	/* (--jsonl streams every episode that differs, or every one) */
	if (opts.jsonl && episodes_top)
		return rr_usage_error("compare", "--jsonl streams --episodes differing or all, "
				      "not top (that is -o's)");
	if (opts.jsonl && top_given)
		return rr_usage_error("compare", "--top ranks the table's and -o's episodes; "
				      "--jsonl has neither");
	if (!opts.nr_specs)
		for (int i = 0; rr_default_policies[i]; i++)
			opts.policy_specs[opts.nr_specs++] = rr_default_policies[i];
	if (opts.html_path && opts.json_path && same_file(opts.html_path, opts.json_path))
		return rr_usage_error("compare", "--html and -o name the same file '%s'",
				      opts.html_path);
	/* the table goes to stdout unless the JSON does */
	opts.table = !opts.jsonl && (!opts.json_path || strcmp(opts.json_path, "-"));
	if (optind + 1 < argc)
		return compare_many(&opts, argv + optind, argc - optind, jobs, quiet);
	rr_cli_callbacks(&opts, quiet);
	ret = rr_replay(&opts, &err);
	if (ret) {
		rr_print_error(&err);
		return ret == RR_REPLAY_NEEDS_KERNEL ? RR_EXIT_USAGE : RR_EXIT_ERROR;
	}
	return RR_EXIT_OK;
}
