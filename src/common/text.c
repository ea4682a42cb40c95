// SPDX-License-Identifier: GPL-2.0-only
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @p (of @n bytes), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (p[0] >= 0x01 && p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool rr_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0, n; i < len; i += n)
		if (!(n = utf8_seq(p + i, len - i)))
			return false;
	return true;
}

char *rr_utf8_dup(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(len * 4 + 1), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < len) {
		size_t n = utf8_seq(p + i, len - i);

		if (n) {
			for (size_t k = 0; k < n; k++)
				*o++ = (char)p[i + k];
			i += n;
		} else {
			o += sprintf(o, "\\x%02x", p[i]);
			i++;
		}
	}
	*o = 0;
	return out;
}


/* How many bytes of @p make one unit (a C1 control is the two bytes of
 * its UTF-8 form), and how long it is once written: escaped "\xNN" per
 * byte for a C0 control, DEL and a C1 control, else as is. */
static size_t unit(const unsigned char *p, size_t *written)
{
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		*written = 8;
		return 2;
	}
	*written = p[0] < 0x20 || p[0] == 0x7f ? 4 : 1;
	return 1;
}

bool rr_has_control(const char *s)
{
	size_t n, w;

	for (const unsigned char *p = (const unsigned char *)s; *p; p += n) {
		n = unit(p, &w);
		if (w > 1)
			return true;
	}
	return false;
}

char *rr_name_dup(const char *s, size_t len)
{
	char *valid = rr_utf8_dup(s, len), *out, *o;
	size_t n, w;

	if (!valid)
		return NULL;
	out = malloc(strlen(valid) * 4 + 1);
	if (!out) {
		free(valid);
		return NULL;
	}
	o = out;
	for (const unsigned char *p = (const unsigned char *)valid; *p; p += n) {
		n = unit(p, &w);
		if (w == 1)
			*o++ = (char)*p;
		else
			for (size_t k = 0; k < n; k++)
				o += sprintf(o, "\\x%02x", p[k]);
	}
	*o = 0;
	free(valid);
	return out;
}

void rr_one_line(char *dst, size_t cap, const char *text, int src_truncated)
{
	static const char dots[] = "...";
	/* invalid UTF-8 escaped first: what is left is whole characters */
	char *valid = rr_utf8_dup(text, strlen(text));
	const unsigned char *p = (const unsigned char *)(valid ? valid : "(out of memory)");
	size_t o = 0, whole = 0, room, n, w;

	for (const unsigned char *q = p; *q; q += n) {
		n = unit(q, &w);
		whole += w;
	}
	/* all of it, or as much as leaves room for "...\0" */
	room = !src_truncated && whole < cap ? cap - 1 : cap - sizeof(dots);
	for (; *p; p += n) {
		n = unit(p, &w);
		if (o + w > room)
			break;
		if (w == 1)
			dst[o++] = (char)*p;
		else
			for (size_t k = 0; k < n; k++)
				o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", p[k]);
	}
	if (*p || src_truncated)
		memcpy(dst + o, dots, sizeof(dots));
	else
		dst[o] = 0;
	free(valid);
}
