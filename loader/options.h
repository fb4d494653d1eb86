/* SPDX-License-Identifier: GPL-2.0 */
/* scx_push loader: command line options. */
#ifndef __SCX_PUSH_OPTIONS_H
#define __SCX_PUSH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "capacity.h"

enum options_limits {
	OPT_SLICE_US_MIN	= 100,
	OPT_SLICE_US_MAX	= 1000000,
	OPT_SLICE_US_DFL	= 3000,
	OPT_INTERVAL_S_MIN	= 1,
	OPT_INTERVAL_S_MAX	= 3600,
	OPT_INTERVAL_S_DFL	= 1,
	OPT_MIG_COST_US_MAX	= 1000000,
	OPT_MIG_COST_US_DFL	= 500,
};

struct options {
	unsigned long	slice_us;	/* -s */
	unsigned long	interval_s;	/* -i */
	int		scope;		/* -P, enum scx_push_scope */
	int		scan;		/* --scan, enum scx_push_scan */
	bool		push;		/* not --no-push */
	bool		pull;		/* not --no-pull */
	bool		busy;		/* not --no-busy */
	bool		busy_group;	/* not --no-busy-group */
	bool		sync;		/* not --no-sync */
	bool		wake_affine;	/* not --no-wake-affine */
	bool		preempt;	/* not --no-preempt */
	bool		preempt_timer;	/* --preempt-timer */
	bool		slice_scale;	/* --slice-scale */
	unsigned long	wake_credit_us;	/* --wake-credit-us, default slice_us */
	unsigned long	mig_cost_us;	/* --mig-cost-us */
	bool		idle_gate;	/* not --no-idle-gate */
	bool		gate_kicked;	/* --gate-kicked */
	bool		misfit;		/* not --no-misfit */
	bool		queued_wakeup;	/* not --no-queued-wakeup */
	struct capacity_spec	capacity; /* --capacity */
	bool		partial;	/* --partial */
	bool		verbose;	/* -v */
	const char	*stats_json;	/* --stats-json, NULL if not given */
	const char	*sysfs_root;	/* hidden --sysfs-root, default $SCX_PUSH_SYSFS or /sys */
};

enum options_status {
	OPTIONS_RUN,		/* valid: go on */
	OPTIONS_HELP,		/* -h: usage printed, exit 0 */
	OPTIONS_INVALID,	/* message in err, exit 1 */
};

enum options_status options_parse(struct options *o, int argc, char **argv,
				  char *err, size_t err_len);
void options_usage(FILE *f, const char *prog);
const char *options_scope_name(int scope);
const char *options_scan_name(int scan);

#endif /* __SCX_PUSH_OPTIONS_H */
