// SPDX-License-Identifier: GPL-2.0-only
/* `reclaim-replay merge DIFF.json... [-o FILE]` */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../merge/merge.h"
#include "../output/output.h"
#include "cli.h"

static const char merge_usage[] =
	"usage: reclaim-replay merge DIFF.json... [-o FILE]\n"
	"\n"
	"Fold the JSON diffs of many traces (compare -o, one per host, say; all\n"
	"made with the same policies) into one document of the same schema:\n"
	"counts added up, per cgroup by path, shares computed again, the worst\n"
	"episodes of all.  The episodes stay in the parts.  A DIFF.json of '-'\n"
	"is read from standard input; a part given twice (or also inside a merged\n"
	"part) is refused, as is -o onto a part.\n"
	"\n"
	"  -o, --output FILE        write it to FILE (default: standard output)\n"
	"  -h, --help               this text\n";

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rr_error err = { "", "" };
	const char *output = "-";
	json_t *doc;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				return rr_usage_error("merge", "-o needs a file name, or - for stdout");
			output = optarg;
			break;
		case 'h':
			fputs(merge_usage, stdout);
			return RR_EXIT_OK;
		default:
			return rr_option_error("merge", c, argv);
		}
	}
	if (optind >= argc)
		return rr_usage_error("merge", "no DIFF.json given");
	/* (the output would replace a part: read, but gone if it fails after) */
	for (int i = optind; strcmp(output, "-") && i < argc; i++) {
		struct stat out_st, in_st;

		if (!stat(output, &out_st) && !stat(argv[i], &in_st) &&
		    out_st.st_dev == in_st.st_dev && out_st.st_ino == in_st.st_ino) {
			rr_error_set(&err, output, "is one of the diffs merged (%s); refusing to "
				     "overwrite it", argv[i]);
			rr_print_error(&err);
			return RR_EXIT_ERROR;
		}
	}
	if (rr_merge((const char *const *)argv + optind, argc - optind, &doc, &err)) {
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	ret = rr_write_json(output, doc, NULL, &err);
	json_decref(doc);
	if (ret) {
		rr_print_error(&err);
		return RR_EXIT_ERROR;
	}
	return RR_EXIT_OK;
}
