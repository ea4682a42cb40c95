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
