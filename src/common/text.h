/* SPDX-License-Identifier: GPL-2.0-only */
/* Small text helpers shared by the stages. */
#ifndef RR_COMMON_TEXT_H
#define RR_COMMON_TEXT_H

#include <stddef.h>

/**
 * rr_utf8_dup() - copy @len bytes of @s as valid UTF-8
 * Cgroup names are any bytes but JSON strings are UTF-8: every byte that
 * is not part of a valid UTF-8 sequence (and every NUL) becomes the four
 * characters "\xNN".  Return: a malloc'ed NUL-terminated string, or NULL
 * on ENOMEM.
 */
char *rr_utf8_dup(const char *s, size_t len);

#endif
