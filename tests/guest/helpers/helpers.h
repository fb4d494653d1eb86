/* SPDX-License-Identifier: GPL-2.0 */
/* Errors, numbers and CPU lists for the guest test helpers. */
#ifndef __HELPERS_H
#define __HELPERS_H

#define _GNU_SOURCE
#include <sched.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

enum { CPUS_MAX = 256 };

static inline __attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* @what's integer in [@min, @max]; dies on anything else. */
static inline long arg_long(const char *what, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		die("%s: '%s' is not an integer in [%ld, %ld]", what, s, min, max);
	return v;
}

/* @what's number in (0, @max]; dies on anything else. */
static inline double arg_positive(const char *what, const char *s, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > max)
		die("%s: '%s' is not a number in (0, %g]", what, s, max);
	return v;
}

/* "0-3,6" -> set; dies on anything else. */
static inline void cpus_parse(const char *s, cpu_set_t *set)
{
	const char *p = s;

	CPU_ZERO(set);
	while (*p) {
		char *end;
		long first = strtol(p, &end, 10), last = first;

		if (end == p)
			die("bad CPU list '%s'", s);
		if (*end == '-')
			last = strtol(end + 1, &end, 10);
		if (first < 0 || last < first || last >= CPUS_MAX)
			die("bad CPU list '%s'", s);
		for (long cpu = first; cpu <= last; cpu++)
			CPU_SET(cpu, set);
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			die("bad CPU list '%s'", s);
	}
}

/* seen[] -> "0,2-3" ("none" if empty). */
static inline void cpus_format(const bool *seen, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < CPUS_MAX; cpu++) {
		int last = cpu;

		if (!seen[cpu])
			continue;
		while (last + 1 < CPUS_MAX && seen[last + 1])
			last++;
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
		if (last > cpu && used < len)
			used += snprintf(buf + used, len - used, "-%d", last);
		cpu = last;
	}
	if (!used)
		snprintf(buf, len, "none");
}

#endif /* __HELPERS_H */
