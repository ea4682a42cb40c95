/* SPDX-License-Identifier: GPL-2.0-only */
/* Small text helpers shared by the stages. */
#ifndef RR_COMMON_TEXT_H
#define RR_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/**
 * rr_utf8_valid() - are the @len bytes of @s valid UTF-8 (no overlong
 * form, no surrogate, nothing beyond U+10FFFF, no NUL), as jansson's
 * json_string() takes them?
 */
bool rr_utf8_valid(const char *s, size_t len);

/**
 * rr_has_control() - does @s hold a control character (C0, DEL, or a C1
 * control as UTF-8), which rr_name_dup() would escape: one that could move
 * a terminal's cursor where @s is printed?
 */
bool rr_has_control(const char *s);

/**
 * rr_utf8_dup() - copy @len bytes of @s as valid UTF-8
 * Cgroup names are any bytes but JSON strings are UTF-8: every byte that
 * is not part of a valid UTF-8 sequence (and every NUL) becomes the four
 * characters "\xNN".  Return: a malloc'ed NUL-terminated string, or NULL
 * on ENOMEM.
 */
char *rr_utf8_dup(const char *s, size_t len);

/**
 * rr_name_dup() - rr_utf8_dup(), and every control character (C0, DEL, C1)
 * written "\xNN" as well: a cgroup name printed to a terminal must not
 * carry escape sequences.  Return: as rr_utf8_dup().
 */
char *rr_name_dup(const char *s, size_t len);

/**
 * rr_one_line() - @src as one printable line in @dst (@cap bytes, >= 8)
 * Text from outside (a plug-in's log line or error) must not move the
 * cursor or recolour a terminal: every control character (below 0x20, and
 * 0x7f) becomes "\xNN".  When it does not fit, it ends in "...".
 * @src_truncated: @src is itself the start of something longer.
 */
void rr_one_line(char *dst, size_t cap, const char *src, int src_truncated);

#endif
