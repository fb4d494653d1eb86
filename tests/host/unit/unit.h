/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit test harness: CHECK() prints "ok N - what" or
 * "not ok N - what (file:line: expression)"; unit_done() prints a summary
 * and returns the exit status (1 if any check failed).
 */
#ifndef __SCX_PUSH_UNIT_H
#define __SCX_PUSH_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int unit_checks, unit_failed;

static inline __attribute__((format(printf, 5, 6)))
bool unit_check(bool ok, const char *file, int line, const char *expr,
		const char *fmt, ...)
{
	va_list ap;

	unit_checks++;
	printf("%sok %d - ", ok ? "" : "not ", unit_checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		unit_failed++;
		printf(" (%s:%d: %s)", file, line, expr);
	}
	putchar('\n');
	return ok;
}

#define CHECK(cond, ...) unit_check(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)

static inline int unit_done(void)
{
	printf("%d checks, %d failed\n", unit_checks, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif /* __SCX_PUSH_UNIT_H */
