// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: CPU capacities and their levels.
 *
 * A capacity is a CPU's compute power relative to the largest CPU's, in
 * units of SCHED_CAPACITY_SCALE: 1..SCX_PUSH_CAPACITY_MAX (1024). The kernel
 * exports it as devices/system/cpu/cpuN/cpu_capacity where the architecture
 * knows it (arm64, RISC-V), and topology.c reads it; x86 has no such file,
 * every CPU is 1024 there. --capacity CPULIST:CAP[,CPULIST:CAP...] overrides
 * the capacities of the CPUs it lists, to model an asymmetric machine on a
 * symmetric guest. A CPULIST may hold commas itself ("0,2:512,1,3:1024"): a
 * CPULIST runs up to a ':', a CAP up to the next ',' or the end.
 *
 * Levels are the distinct capacities of the online CPUs, ranked ascending:
 * level 0 is the smallest. An offline CPU takes the level of the largest
 * online capacity not above its own (0 if there is none): the BPF side never
 * runs a task there, it only needs a level that exists. With one level the
 * machine is symmetric and misfit handling stays off.
 *
 * Limit: topology_read() ranks the sysfs capacities before --capacity is
 * applied, so --capacity cannot rescue a machine whose sysfs has more than
 * SCX_PUSH_MAX_CAP_LEVELS distinct capacities.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "topology.h"

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -1;
}

int capacity_value(const char *s, char **end)
{
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v < 1 || v > SCX_PUSH_CAPACITY_MAX)
		return -1;
	return v;
}

/* The CPULIST:CAP at @s into @spec; *@after is left on the ',' or NUL after it. */
static int parse_one(struct capacity_spec *spec, const char *s, const char **after,
		     char *err, size_t err_len)
{
	const char *colon = strchr(s, ':');
	bool set[SCX_PUSH_MAX_CPUS];
	char *list, *end;
	int cap, cpu, top;

	if (!colon)
		return fail(err, err_len, "'%s' has no ':CAP'", s);
	list = strndup(s, colon - s);
	if (!list)
		return fail(err, err_len, "out of memory");
	/* cpulist_parse() would stop at a newline and take what precedes it */
	top = strchr(list, '\n') ? -1 : cpulist_parse(list, set, SCX_PUSH_MAX_CPUS);
	if (top <= 0)
		fail(err, err_len, "'%s' is not a list of CPUs below %d", list,
		     SCX_PUSH_MAX_CPUS);
	free(list);
	if (top <= 0)
		return -1;

	cap = capacity_value(colon + 1, &end);
	if (cap < 0 || (*end && *end != ','))
		return fail(err, err_len, "'%.*s' is not a capacity from 1 to %d",
			    (int)strcspn(colon + 1, ","), colon + 1, SCX_PUSH_CAPACITY_MAX);
	/* a CPU in two CPULISTs is an error; twice in one ("0,0") is harmless */
	for (cpu = 0; cpu < top; cpu++) {
		if (!set[cpu])
			continue;
		if (spec->cap[cpu])
			return fail(err, err_len, "CPU %d is listed twice", cpu);
		spec->cap[cpu] = cap;
	}
	*after = end;
	return 0;
}

int capacity_parse(struct capacity_spec *spec, const char *s, char *err, size_t err_len)
{
	const char *p = s;

	memset(spec, 0, sizeof(*spec));
	if (!*s)
		return fail(err, err_len, "empty, expected CPULIST:CAP[,CPULIST:CAP...]");
	for (;;) {
		if (parse_one(spec, p, &p, err, err_len))
			return -1;
		if (!*p)
			return 0;
		if (!*++p)
			return fail(err, err_len, "'%s' ends with ','", s);
	}
}

int capacity_apply(struct topology *t, const struct capacity_spec *spec,
		   char *err, size_t err_len)
{
	char list[256];
	int cpu;

	for (cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++) {
		if (!spec->cap[cpu])
			continue;
		if (!t->possible[cpu]) {
			cpulist_format(t->possible, t->nr_cpu_ids, list, sizeof(list));
			return fail(err, err_len, "CPU %d does not exist (possible CPUs: %s)",
				    cpu, list);
		}
		t->capacity[cpu] = spec->cap[cpu];
	}
	return capacity_rank(t, err, err_len);
}

int capacity_rank(struct topology *t, char *err, size_t err_len)
{
	int caps[SCX_PUSH_MAX_CAP_LEVELS], nr = 0, cpu, l, i;

	/* insert each new capacity in order */
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		int cap = t->capacity[cpu];

		if (!t->online[cpu])
			continue;
		for (l = 0; l < nr && caps[l] < cap; l++)
			;
		if (l < nr && caps[l] == cap)
			continue;
		if (nr == SCX_PUSH_MAX_CAP_LEVELS)
			return fail(err, err_len,
				    "the online CPUs have more than %d distinct capacities",
				    SCX_PUSH_MAX_CAP_LEVELS);
		for (i = nr++; i > l; i--)
			caps[i] = caps[i - 1];
		caps[l] = cap;
	}

	t->nr_cap_levels = nr;
	memcpy(t->level_capacity, caps, nr * sizeof(caps[0]));
	for (cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++) {
		for (l = nr - 1; l > 0 && caps[l] > t->capacity[cpu]; l--)
			;
		t->cap_level[cpu] = l;
	}
	return 0;
}
