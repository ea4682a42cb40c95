/* SPDX-License-Identifier: GPL-2.0-only */
/* Command table entries (main.c), the shared exit codes of the CLI, and
 * what the commands share (cli.c). */
#ifndef RR_CLI_H
#define RR_CLI_H

#include <stdbool.h>

#include "../common/error.h"

/* Exit status (DESIGN.md): 0 ok, 1 error, 2 usage. */
/* record also exits 3 (RECORD_EXIT_INCOMPLETE, cmd-record.c): a trace was
 * written but is incomplete; a command stopped by a signal ends by it */
enum { RR_EXIT_OK = 0, RR_EXIT_ERROR = 1, RR_EXIT_USAGE = 2 };

int cmd_compare(int argc, char **argv);
int cmd_policies(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/* Print "reclaim-replay: <file>: <msg>" (or without the file) on stderr. */
void rr_print_error(const struct rr_error *err);

/* The usage error of getopt_long() (opterr = 0, optstring starting with
 * ':'): @c is its ':' or '?'; returns RR_EXIT_USAGE. */
int rr_option_error(const char *cmd, int c, char **argv);

/* --kernel RELEASE: 0 when the model knows @release, else print a usage
 * error of @cmd and return RR_EXIT_USAGE. */
int rr_kernel_option(const char *cmd, const char *release);

/* --kernel-policy POLICY: 0 when @spec names a policy (built-in, a
 * composition, a plug-in .so that loads), else print a usage error of
 * @cmd and return RR_EXIT_USAGE. */
int rr_kernel_policy_option(const char *cmd, const char *spec);

/* --swap auto|yes|no: sets *@swap_present to -1, 1 or 0 and returns 0,
 * else prints a usage error of @cmd and returns RR_EXIT_USAGE. */
int rr_swap_option(const char *cmd, const char *arg, int *swap_present);

struct rr_replay_opts;

/* Warnings to stderr, and the progress line on a terminal unless @quiet. */
void rr_cli_callbacks(struct rr_replay_opts *opts, bool quiet);

/* Print a usage error and return RR_EXIT_USAGE. */
int rr_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Option help shared by compare and report (their -h texts) */
#define RR_USAGE_KERNEL_POLICY \
	"      --kernel-policy POLICY\n" \
	"                           the recording kernel ran POLICY on top of its\n" \
	"                           release's rules (a patched kernel, e.g.\n" \
	"                           proportional-v1): the baseline is\n" \
	"                           kernel+POLICY (default: the trace's\n" \
	"                           record --kernel-policy marker, else none)\n"

#define RR_USAGE_ZONEINFO \
	"      --zoneinfo FILE      a copy of the recording machine's\n" \
	"                           /proc/zoneinfo: the zones' watermarks for\n" \
	"                           kswapd's nr_to_reclaim where the trace has\n" \
	"                           no recorder snapshot (plain trace-cmd)\n"

#define RR_USAGE_DROP_MEMCG_EVENTS \
	"      --drop-memcg-events  read the trace as a kernel before 6.13\n" \
	"                           (no memcg: events) would have written it,\n" \
	"                           and check the inferred attribution of each\n" \
	"                           batch against the dropped events\n"

#endif
