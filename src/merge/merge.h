/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Folding the JSON diffs of many traces (`compare -o`) into one document
 * of the same schema (man reclaim-replay-json.5, "Merged diffs").
 */
#ifndef RR_MERGE_H
#define RR_MERGE_H

#include <jansson.h>

#include "../common/error.h"

/**
 * rr_merge() - fold @n diff files into one
 * @files: paths of JSON documents written by `compare -o` (or merged
 *         before) with the same policies and baseline; "-" is stdin.
 * @out:   the merged document (a new reference).
 * Return: 0, or -1 with @err naming the part that cannot be opened, is not
 * JSON, not a compare diff of this schema, compares other policies, has a
 * value compare does not write (the first one, by its path), is given
 * twice, mixes a scenario with traces, or whose counts overflow int64.
 */
int rr_merge(const char *const *files, int n, json_t **out, struct rr_error *err);

#endif
