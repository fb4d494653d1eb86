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
#include <string.h>
#include <time.h>

/* The loader's CPU lists; a relative path, for programs built without -Iloader. */
#include "../../../loader/cpulist.h"

#ifndef SCHED_EXT
#define SCHED_EXT 7	/* include/uapi/linux/sched.h, v6.12 */
#endif

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
	bool cpus[CPUS_MAX];

	if (cpulist_parse(s, cpus, CPUS_MAX) < 0)
		die("bad CPU list '%s'", s);
	CPU_ZERO(set);
	for (int cpu = 0; cpu < CPUS_MAX; cpu++)
		if (cpus[cpu])
			CPU_SET(cpu, set);
}

/* Run the caller on the CPUs of @list ("0-3,6"); dies on failure. */
static inline void set_affinity(const char *list)
{
	cpu_set_t set;

	cpus_parse(list, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%s): %s", list, strerror(errno));
}

/* Give the caller @policy at RT priority @prio; dies on failure. */
static inline void set_policy(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(0, policy, &sp))
		die("sched_setscheduler(%d, %d): %s", policy, prio, strerror(errno));
}

/* seen[] -> "0,2-3" ("none" if empty). */
static inline void cpus_format(const bool *seen, char *buf, size_t len)
{
	cpulist_format(seen, CPUS_MAX, buf, len);
}

/* CLOCK_MONOTONIC in milliseconds. */
static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif /* __HELPERS_H */
