// SPDX-License-Identifier: GPL-2.0-only
#include "error.h"

#include <stdio.h>
#include <string.h>

void rr_error_set(struct rr_error *err, const char *file, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void rr_error_context(struct rr_error *err, const char *file, const char *fmt, ...)
{
	char pre[200], msg[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(msg, err->msg, sizeof(msg));
	/* (the cause's text kept whole when it fits, else its start) */
	snprintf(err->msg, sizeof(err->msg), "%.200s: %.300s", pre, msg);
	if (!err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
}
