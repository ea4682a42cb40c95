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
 * @files: paths of JSON documents written by `compare -o` with the same
 *         policies and baseline.
 * @out:   the merged document (a new reference).
 * Return: 0, or -1 with @err naming the file that is not JSON, not a
 * compare diff of this schema, or compares other policies.
 */
int rr_merge(const char *const *files, int n, json_t **out, struct rr_error *err);

#endif
