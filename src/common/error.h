/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error record shared by every stage.  Stages fill one and return -1 (or
 * NULL); only src/cli prints it, as "reclaim-replay: <file>: <message>".
 */
#ifndef RR_ERROR_H
#define RR_ERROR_H

#include <stdarg.h>

struct rr_error {
	char file[512];		/* the file the error is about, or "" */
	char msg[512];		/* lowercase, no full stop */
};

/* Fill @err (if not NULL) with @file and a printf-style message. */
void rr_error_set(struct rr_error *err, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Put "@fmt...: " before @err's message, and name @file when @err names
 * none (a stage that knew no file, such as the simulator, failed inside a
 * replay of @file).  An @err naming a file (a plug-in) keeps it.
 */
void rr_error_context(struct rr_error *err, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
