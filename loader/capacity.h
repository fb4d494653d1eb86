/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_push loader: CPU capacities, the --capacity spec that overrides them
 * and their ranking into levels (struct topology holds the result).
 */
#ifndef __SCX_PUSH_CAPACITY_H
#define __SCX_PUSH_CAPACITY_H

#include <stddef.h>

#include "scx_push.h"

struct topology;

/* --capacity: the capacity of each CPU it lists, 0 for the others. */
struct capacity_spec {
	int	cap[SCX_PUSH_MAX_CPUS];
};

/*
 * The decimal capacity at the start of @s, 1..SCX_PUSH_CAPACITY_MAX with no
 * sign or space; *@end points after it. Returns -1 if there is none.
 */
int capacity_value(const char *s, char **end);
/*
 * "CPULIST:CAP[,CPULIST:CAP...]" -> @spec. Returns 0, or -1 with a message
 * in @err.
 */
int capacity_parse(struct capacity_spec *spec, const char *s, char *err, size_t err_len);
/*
 * Give the CPUs of @spec their capacity in @t and rank the levels again.
 * Returns 0, or -1 with a message in @err: a CPU that is not possible, too
 * many levels.
 */
int capacity_apply(struct topology *t, const struct capacity_spec *spec,
		   char *err, size_t err_len);
/*
 * Rank the distinct capacities of the online CPUs of @t, ascending, into
 * its levels. Returns 0, or -1 with a message in @err if there are more than
 * SCX_PUSH_MAX_CAP_LEVELS.
 */
int capacity_rank(struct topology *t, char *err, size_t err_len);

#endif /* __SCX_PUSH_CAPACITY_H */
