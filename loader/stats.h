/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_push loader: the scheduler's counters (the SCX_PUSH_STATS table of
 * scx_push.h) as text lines and as JSON.
 */
#ifndef __SCX_PUSH_STATS_H
#define __SCX_PUSH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "scx_push.h"

struct stats {
	unsigned long long	v[SCX_PUSH_NR_STATS];
};

/* What a report says besides the counters. */
struct stats_report {
	double			elapsed_s;	/* since the first load */
	unsigned int		restarts;
	const char		*overloaded;	/* CPUs in the overloaded masks now */
	bool			misfit;		/* not --no-misfit, capacities differ */
	const char		*queued_wakeup;	/* "on", "off" or "unavailable" */
	const struct options	*opts;
};

extern const char *const stat_names[SCX_PUSH_NR_STATS];
extern const char *const stat_descs[SCX_PUSH_NR_STATS];

void stats_add(struct stats *sum, const struct stats *s);
void stats_sub(struct stats *diff, const struct stats *a, const struct stats *b);
/* Mean CPUs examined per successful pull; 0 when nothing was pulled. */
double stats_scan_per_pull(const struct stats *s);
/*
 * One line per group, "group: name=value ...", prefixed with @label; the
 * pull line ends with the mean CPUs examined per pull and ns per pull.
 */
void stats_format(const struct stats *s, const char *label,
		  const struct stats_report *r, char *buf, size_t len);
/* A JSON object, one key per line; returns -1 if the write failed. */
int stats_write_json(FILE *f, const struct stats *s, const struct stats_report *r);

#endif /* __SCX_PUSH_STATS_H */
