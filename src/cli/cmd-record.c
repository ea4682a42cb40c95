// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay record [-o FILE] [options] [-- CMD ARGS...]` */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../common/swappiness.h"
#include "../record/record.h"
#include "cli.h"

static const char record_usage[] =
	"usage: reclaim-replay record [-o FILE] [options] [-- CMD ARGS...]\n"
	"\n"
	"Record the vmscan, memcg and cgroup tracepoints a replay needs, plus a\n"
	"snapshot of every memory cgroup, into a trace.dat, until CMD exits, or\n"
	"until SIGINT/SIGTERM or --duration.  Needs root and tracefs.\n"
	"\n"
	"  -o, --output FILE        trace file to write (default trace.dat)\n"
	"      --force              overwrite FILE if it exists\n"
	"      --duration SECONDS   stop after this long\n"
	"      --buffer-kb N        ring buffer per CPU in KiB (default 8192)\n"
	"  -e, --event SYS[:EVENT]  record more events (repeatable)\n"
	"      --cgroup NAME        run CMD in a new child of our memory cgroup,\n"
	"                           removed afterwards\n"
	"      --memory-max SIZE    its limit, bytes or with K, M, G\n"
	"      --swappiness N       its memory.swappiness, 0..200 (cgroup v1)\n"
	"      --proactive SIZE[,interval=MS][,swappiness=N|max]\n"
	"                           write SIZE to its memory.reclaim (cgroup v2),\n"
	"                           once or every MS milliseconds, with the\n"
	"                           kernel's swappiness= key (0..200; max: anon\n"
	"                           only; v6.11+, max v6.16+)\n"
	"      --snapshot-interval MS\n"
	"                           also snapshot every cgroup every MS ms\n"
	"                           (10..3600000; default: none with the memcg\n"
	"                           events, 250 without)\n"
	"      --no-memcg-events    leave the memcg: events off, as on a kernel\n"
	"                           before 6.13 that has none (record does so\n"
	"                           there by itself): periodic snapshots and\n"
	"                           the memcgs' tasks stand in for them\n"
	"      --kprobes            probe shrink_lruvec() (each call's memcg,\n"
	"                           exact sizes, costs, switches) or fail;\n"
	"                           by default it is probed where the memcg\n"
	"                           events are off and the kernel allows\n"
	"      --no-kprobes         never probe\n"
	"      --kernel-policy POLICY\n"
	"                           this kernel runs POLICY (a patched kernel,\n"
	"                           e.g. proportional-v1): written to the\n"
	"                           trace, the replay's baseline follows it\n"
	"  -q, --quiet              no summary on stderr\n"
	"  -h, --help               this text\n"
	"\n"
	"Exit status: 0 the whole recording is in FILE; 1 error (no FILE);\n"
	"2 usage; 3 FILE written but incomplete (CMD failed, or the disk\n"
	"filled); 128+N signal N stopped it before CMD ended or --duration.\n";

/* "64M" -> bytes; 0 on a bad value, or one above INT64_MAX bytes (what
 * memory.max, memory.reclaim and the markers take: a size that wraps is
 * refused, not written negative) */
static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	if (*s == '-' || *s == '+')
		return 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (v > ((unsigned long long)INT64_MAX >> shift))
		return 0;
	v <<= shift;
	if (*end == 'B' || *end == 'b')
		end++;
	return *end ? 0 : v;
}

/* A trace was written, but it does not cover what was asked: CMD failed,
 * or the disk filled (record(1), EXIT STATUS). */
#define RECORD_EXIT_INCOMPLETE 3

static const char *sig_name(int sig, char *buf, size_t len)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" },
		{ SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* Why the writes of the recorded data stopped, in words. */
static const char *write_failure(int e)
{
	switch (e) {
	case ENOSPC: return "the disk is full";
	case EDQUOT: return "the disk quota is used up";
	case EFBIG: return "the file size limit (ulimit -f) is reached";
	default: return "a write failed";
	}
}

/*
 * Say how the recording ended when it is not the whole of what was asked,
 * each line naming the trace; returns the exit status (or ends the
 * process by the signal that stopped the recording).
 */
static int record_outcome(const struct rr_record_opts *o, const struct rr_record_result *res)
{
	const char *file = res->saved_as[0] ? res->saved_as : o->output;
	const char *cmd = o->argv ? o->argv[0] : NULL;
	char s1[32], left_out[96] = "";
	int ret = RR_EXIT_OK;

	if (res->dropped_bytes)
		snprintf(left_out, sizeof(left_out), ", less its newest %llu KiB, left out to fit",
			 (unsigned long long)(res->dropped_bytes >> 10));
	if (res->saved_as[0]) {
		int e = res->output_errno;

		fprintf(stderr, "reclaim-replay: %s: cannot be written (%s%s); the trace was saved as "
			"%s instead\n", o->output, strerror(e), e == ENOENT || e == ENOTDIR ?
			": its directory was removed during the recording" : "", res->saved_as);
		ret = RR_EXIT_ERROR;
	}
	if (res->write_errno) {
		fprintf(stderr, "reclaim-replay: %s: recording stopped after %.1f s: %s (%s)%s; "
			"the trace holds the events up to then%s\n", file, res->seconds,
			write_failure(res->write_errno), strerror(res->write_errno),
			res->cmd_stopped ? ", and CMD was stopped" : "", left_out);
		if (ret == RR_EXIT_OK)
			ret = RECORD_EXIT_INCOMPLETE;
	} else if (res->dropped_bytes) {
		fprintf(stderr, "reclaim-replay: %s: the disk had no room for the whole trace: it "
			"holds the recording%s\n", file, left_out);
		if (ret == RR_EXIT_OK)
			ret = RECORD_EXIT_INCOMPLETE;
	}
	if (cmd && !res->cmd_stopped && res->cmd_status >= 0) {
		if (WIFEXITED(res->cmd_status) && WEXITSTATUS(res->cmd_status))
			fprintf(stderr, "reclaim-replay: %s: %s failed (exit status %d); the trace holds "
				"the recording up to its end\n", file, cmd,
				WEXITSTATUS(res->cmd_status));
		else if (WIFSIGNALED(res->cmd_status))
			fprintf(stderr, "reclaim-replay: %s: %s was killed by %s%s; the trace holds the "
				"recording up to its end\n", file, cmd,
				sig_name(WTERMSIG(res->cmd_status), s1, sizeof(s1)),
				WCOREDUMP(res->cmd_status) ? " (core dumped)" : "");
		if ((WIFEXITED(res->cmd_status) && WEXITSTATUS(res->cmd_status)) ||
		    WIFSIGNALED(res->cmd_status))
			if (ret == RR_EXIT_OK)
				ret = RECORD_EXIT_INCOMPLETE;
	}
	/* a signal is the way to end a recording of neither CMD nor
	 * --duration; otherwise it cut the recording short */
	if (res->stop_signal && (cmd || o->duration_s)) {
		fprintf(stderr, "reclaim-replay: %s: recording stopped by %s after %.1f s, before %s; "
			"the trace holds the events up to then%s\n", file,
			sig_name(res->stop_signal, s1, sizeof(s1)), res->seconds,
			!cmd ? "--duration ended" : WIFSIGNALED(res->cmd_status) &&
			WTERMSIG(res->cmd_status) == SIGKILL ? "CMD ended (it outlived SIGTERM: killed)"
			: "CMD ended (it was sent SIGTERM)", left_out);
		/* end as the signal would have: a calling script stops too */
		signal(res->stop_signal, SIG_DFL);
		raise(res->stop_signal);
		return 128 + res->stop_signal;
	}
	return ret;
}

static long parse_long(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < min || v > max)
		return min - 1;
	return v;
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_FORCE = 256, OPT_DURATION, OPT_BUFFER, OPT_CGROUP, OPT_MAX, OPT_SWAPPINESS,
	       OPT_PROACTIVE, OPT_SNAPSHOT, OPT_NO_MEMCG_EVENTS, OPT_KPROBES, OPT_NO_KPROBES,
	       OPT_KERNEL_POLICY };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
		{ "event", required_argument, NULL, 'e' },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "memory-max", required_argument, NULL, OPT_MAX },
		{ "swappiness", required_argument, NULL, OPT_SWAPPINESS },
		{ "proactive", required_argument, NULL, OPT_PROACTIVE },
		{ "snapshot-interval", required_argument, NULL, OPT_SNAPSHOT },
		{ "no-memcg-events", no_argument, NULL, OPT_NO_MEMCG_EVENTS },
		{ "kprobes", no_argument, NULL, OPT_KPROBES },
		{ "no-kprobes", no_argument, NULL, OPT_NO_KPROBES },
		{ "kernel-policy", required_argument, NULL, OPT_KERNEL_POLICY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rr_record_opts o = { .output = "trace.dat", .buffer_kb = 8192, .swappiness = -1,
				    .proactive_swappiness = -1 };
	struct rr_record_result res;
	struct rr_error err = { "", "" };
	long v;
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option, CMD's own options are its own */
	while ((c = getopt_long(argc, argv, "+:o:e:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg || !strcmp(optarg, "-"))
				return rr_usage_error("record", "-o needs a file name (a trace.dat "
						      "is written with seeks, not to stdout)");
			o.output = optarg;
			break;
		case OPT_FORCE:
			o.force = true;
			break;
		case OPT_DURATION:
			if ((v = parse_long(optarg, 1, 86400 * 30)) < 1)
				return rr_usage_error("record", "--duration takes 1..2592000 seconds, not '%s'",
						      optarg);
			o.duration_s = (unsigned int)v;
			break;
		case OPT_BUFFER:
			if ((v = parse_long(optarg, 4, 4 << 20)) < 4)
				return rr_usage_error("record", "--buffer-kb takes 4..4194304, not '%s'",
						      optarg);
			o.buffer_kb = (unsigned int)v;
			break;
		case 'e':
			if (o.nr_extra >= RR_RECORD_MAX_EXTRA)
				return rr_usage_error("record", "at most %d -e", RR_RECORD_MAX_EXTRA);
			o.extra[o.nr_extra++] = optarg;
			break;
		case OPT_CGROUP:
			o.cgroup = optarg;
			break;
		case OPT_MAX:
			o.memory_max_bytes = parse_size(optarg);
			if (!o.memory_max_bytes)
				return rr_usage_error("record", "--memory-max takes a size like 64M, not '%s'",
						      optarg);
			break;
		case OPT_SWAPPINESS:
			if ((v = parse_long(optarg, 0, 200)) < 0)
				return rr_usage_error("record", "--swappiness takes 0..200, not '%s'", optarg);
			o.swappiness = (int)v;
			break;
		case OPT_PROACTIVE: {
			/* SIZE[,interval=MS][,swappiness=N|max], keys in any order */
			char buf[128], *tok, *save = NULL;

			if (strlen(optarg) >= sizeof(buf))
				return rr_usage_error("record", "--proactive takes "
						      "SIZE[,interval=MS][,swappiness=N|max], not '%s'",
						      optarg);
			snprintf(buf, sizeof(buf), "%s", optarg);
			tok = strtok_r(buf, ",", &save);
			o.proactive_bytes = tok ? parse_size(tok) : 0;
			if (!o.proactive_bytes)
				return rr_usage_error("record", "--proactive takes "
						      "SIZE[,interval=MS][,swappiness=N|max], not '%s'",
						      optarg);
			while ((tok = strtok_r(NULL, ",", &save))) {
				if (!strncmp(tok, "interval=", 9)) {
					if ((v = parse_long(tok + 9, 1, 3600000)) < 1)
						return rr_usage_error("record", "--proactive interval "
								      "takes 1..3600000 ms");
					o.proactive_interval_ms = (unsigned int)v;
				} else if (!strncmp(tok, "swappiness=", 11)) {
					/* what memory.reclaim accepts (68cd9050d871) */
					if (rr_swappiness_parse(tok + 11, &o.proactive_swappiness))
						return rr_usage_error("record", "--proactive swappiness "
								      "takes 0..200 or max, not '%s'",
								      tok + 11);
				} else {
					return rr_usage_error("record", "--proactive: unknown key '%s' "
							      "(SIZE[,interval=MS][,swappiness=N|max])",
							      tok);
				}
			}
			break;
		}
		case OPT_SNAPSHOT:
			if ((v = parse_long(optarg, 10, 3600000)) < 10)
				return rr_usage_error("record", "--snapshot-interval takes 10..3600000 ms, "
						      "not '%s'", optarg);
			o.snapshot_interval_ms = (unsigned int)v;
			break;
		case OPT_NO_MEMCG_EVENTS:
			o.no_memcg_events = true;
			break;
		case OPT_KPROBES:
			o.probes = RR_RECORD_PROBES_ON;
			break;
		case OPT_NO_KPROBES:
			o.probes = RR_RECORD_PROBES_OFF;
			break;
		case OPT_KERNEL_POLICY:
			/* (a name of at most 63 characters, no spaces: the meta
			 * marker's key=value) */
			if (strlen(optarg) > 63 || strpbrk(optarg, " \t\n=") ||
			    rr_kernel_policy_option("record", optarg))
				return strlen(optarg) > 63 || strpbrk(optarg, " \t\n=") ?
				       rr_usage_error("record", "--kernel-policy takes a policy "
						      "name of at most 63 characters without "
						      "spaces, not '%.80s'", optarg) :
				       RR_EXIT_USAGE;
			o.kernel_policy = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return RR_EXIT_OK;
		default:
			return rr_option_error("record", c, argv);
		}
	}
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind < argc)
		o.argv = argv + optind;
	if ((o.memory_max_bytes || o.swappiness >= 0 || o.proactive_bytes) && !o.cgroup)
		return rr_usage_error("record", "--memory-max, --swappiness and --proactive need --cgroup");
	if (o.cgroup && !o.argv)
		return rr_usage_error("record", "--cgroup needs a CMD to run in it");
	for (int i = 0; o.no_memcg_events && i < o.nr_extra; i++)
		if (!strncmp(o.extra[i], "memcg", 5) && (!o.extra[i][5] || o.extra[i][5] == ':'))
			return rr_usage_error("record", "--no-memcg-events leaves the memcg events "
					      "off: -e %s asks for one", o.extra[i]);
	if (rr_record(&o, &res, &err)) {
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	if (!o.quiet) {
		fprintf(stderr, "reclaim-replay: %s: %llu bytes, %d CPUs, %d memory cgroups and %d "
			"node%s (zone watermarks, node counters) in the snapshot, %llu events lost\n",
			res.saved_as[0] ? res.saved_as : o.output, (unsigned long long)res.bytes,
			res.nr_cpus, res.nr_cgroups, res.nr_nodes, res.nr_nodes == 1 ? "" : "s",
			(unsigned long long)res.lost_events);
		if (res.memcg_events != RR_RECORD_MEMCG_EVENTS_ON)
			fprintf(stderr, "reclaim-replay: memcg events off (%s): periodic snapshots "
				"every %u ms: %d taken, with the memcgs' tasks%s\n",
				res.memcg_events == RR_RECORD_MEMCG_EVENTS_OFF ? "--no-memcg-events" :
				"this kernel has none", res.snapshot_interval_ms, res.nr_periodic,
				res.tasks_left_out ? "" : " (all listed)");
		else if (res.snapshot_interval_ms)
			fprintf(stderr, "reclaim-replay: periodic snapshots every %u ms: %d taken\n",
				res.snapshot_interval_ms, res.nr_periodic);
		if (res.probe_on)
			fprintf(stderr, "reclaim-replay: kprobe on shrink_lruvec(): each call's memcg, "
				"exact LRU sizes, costs and reclaim switches recorded\n");
		else if (res.memcg_events != RR_RECORD_MEMCG_EVENTS_ON)
			fprintf(stderr, "reclaim-replay: no kprobe on shrink_lruvec() (%s): the replay "
				"infers each batch's memcg and bounds the sizes, costs and switches "
				"it read\n", res.probe_why);
		/* said once: BTF is optional, and what it costs depends on the
		 * memcg events (their filters are the only user of the items) */
		if (strcmp(res.items_source, "btf"))
			fprintf(stderr, "reclaim-replay: no kernel BTF (/sys/kernel/btf/vmlinux): memcg "
				"item numbers taken from the order of /proc/vmstat%s\n",
				res.memcg_events == RR_RECORD_MEMCG_EVENTS_ON ?
				", not from the kernel's enums (the filters of the memcg events "
				"rest on them)" : "; unused, as the memcg events are off");
		if (res.tasks_left_out)
			fprintf(stderr, "reclaim-replay: %lld thread ids left out of the \"tasks\" "
				"markers (at most %d per snapshot)\n", res.tasks_left_out,
				RR_RECORD_MAX_TASKS_PER_SNAPSHOT);
		if (res.lost_events)
			for (int cpu = 0; cpu < res.nr_cpus && cpu < 256; cpu++)
				if (res.lost_per_cpu[cpu])
					fprintf(stderr, "reclaim-replay: CPU %d lost %llu events (use a "
						"bigger --buffer-kb)\n", cpu,
						(unsigned long long)res.lost_per_cpu[cpu]);
		if (res.cmd_status >= 0 && res.cmd_stopped)
			fprintf(stderr, "reclaim-replay: %s was stopped at the end of the recording (%s)\n",
				o.argv[0], WIFSIGNALED(res.cmd_status) && WTERMSIG(res.cmd_status) == SIGKILL
				? "SIGKILL: it outlived SIGTERM" : "SIGTERM");
		else if (res.cmd_status >= 0 && WIFEXITED(res.cmd_status) &&
			 !WEXITSTATUS(res.cmd_status))
			fprintf(stderr, "reclaim-replay: %s exited with status 0\n", o.argv[0]);
	}
	return record_outcome(&o, &res);
}
