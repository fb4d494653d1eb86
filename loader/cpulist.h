/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lists as sysfs and taskset write them ("0-3,8,10-11"), to and from a
 * bool per CPU. Shared by the loader (loader/topology.c) and the static guest
 * test helpers (tests/guest/helpers/helpers.h), hence header-only: each
 * program that includes it compiles its own copy, with no extra source file
 * to link.
 */
#ifndef __SCX_PUSH_CPULIST_H
#define __SCX_PUSH_CPULIST_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * "0-3,8,10-11" -> set[0..max-1], up to the end of @s or its first newline.
 * Returns the highest CPU + 1 (0 for an empty list), -1 for a malformed list
 * or a CPU >= @max.
 */
static inline int cpulist_parse(const char *s, bool *set, int max)
{
	int top = 0;

	memset(set, 0, max * sizeof(*set));
	while (*s && *s != '\n') {
		long first, last;
		char *end;

		if (!isdigit((unsigned char)*s))
			return -1;
		first = strtol(s, &end, 10);
		last = first;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			last = strtol(end + 1, &end, 10);
		}
		if (first > last || last >= max)
			return -1;
		for (long cpu = first; cpu <= last; cpu++)
			set[cpu] = true;
		if (last + 1 > top)
			top = last + 1;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -1;
		s = end;
	}
	return top;
}

/* set[0..nr-1] -> "0-3,8" ("none" when empty), truncated to @len. */
static inline void cpulist_format(const bool *set, int nr, char *buf, size_t len)
{
	size_t used = 0;
	int cpu = 0;

	buf[0] = '\0';
	while (cpu < nr) {
		int last;

		if (!set[cpu]) {
			cpu++;
			continue;
		}
		for (last = cpu; last + 1 < nr && set[last + 1]; last++)
			;
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
		if (last > cpu && used < len)
			used += snprintf(buf + used, len - used, "-%d", last);
		cpu = last + 1;
	}
	if (!used)
		snprintf(buf, len, "none");
}

#endif /* __SCX_PUSH_CPULIST_H */
