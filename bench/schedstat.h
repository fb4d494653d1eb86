/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedstat: what the command line (schedstat.c) and the parsers
 * (schedstat_parse.c) share. The tool and its file format are described at
 * the top of schedstat.c.
 */
#ifndef __SCHEDSTAT_H
#define __SCHEDSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum ss_limits {
	SS_CPU_FIELDS	= 9,	/* a cpu<N> line after its name */
	SS_MAX_FIELDS	= 45,	/* a domain<N> line after its mask (version 17) */
	SS_MAX_LEVELS	= 16,	/* sched domain levels of one CPU */
	SS_MAX_CPUS	= 8192,
	SS_NAME_LEN	= 32,	/* domain and scx_push counter names, with the NUL */
	SS_MAX_SCX	= 128,	/* scx_push counters */
	SS_DATA_FORMAT	= 1,	/* "schedstat-data N", the first line of a record */
};

/* The fields of a cpu<N> line, the same in versions 15 to 17. */
enum ss_cpu_field {
	CPU_YLD,		/* sched_yield() calls */
	CPU_ARRAY_EXP,		/* always 0 */
	CPU_SCHED,		/* schedule() calls */
	CPU_GOIDLE,		/* schedule() calls that left the CPU idle */
	CPU_TTWU,		/* try_to_wake_up() calls */
	CPU_TTWU_LOCAL,		/* ... that woke a task on this CPU */
	CPU_RUN_NS,		/* time tasks ran on this CPU */
	CPU_WAIT_NS,		/* time tasks waited on its runqueue (run_delay) */
	CPU_SLICES,		/* timeslices run */
};

/* The CPU's state when it called load_balance(), in report order. */
enum ss_idle_type {
	SS_BUSY,
	SS_IDLE,
	SS_NEWIDLE,
	SS_NR_IDLE,
};

/*
 * The load_balance() counters a domain line has once per idle type. Each
 * version has a subset: lb_imbalance until 16, the four imbalance kinds
 * from 17 on.
 */
enum ss_lb_field {
	LB_COUNT,		/* calls */
	LB_BALANCED,		/* ... that found the domain balanced */
	LB_FAILED,		/* ... that failed to move a task */
	LB_IMBALANCE,		/* sum of the imbalances found (<= 16) */
	LB_IMB_LOAD,		/* ... in load (17) */
	LB_IMB_UTIL,		/* ... in utilization (17) */
	LB_IMB_TASK,		/* ... in number of tasks (17) */
	LB_IMB_MISFIT,		/* ... of misfit tasks (17) */
	LB_GAINED,		/* tasks pulled */
	LB_HOT_GAINED,		/* ... of them cache-hot */
	LB_NOBUSYQ,		/* no busier runqueue found */
	LB_NOBUSYG,		/* no busier group found */
	SS_NR_LB,
};

/* The counters after the load_balance() sets of a domain line. */
enum ss_tail_field {
	ALB_COUNT,		/* active_load_balance() calls */
	ALB_FAILED,
	ALB_PUSHED,		/* ... that moved a task */
	SBE_COUNT,		/* sched_balance_exec(): unused */
	SBE_BALANCED,
	SBE_PUSHED,
	SBF_COUNT,		/* sched_balance_fork(): unused */
	SBF_BALANCED,
	SBF_PUSHED,
	TTWU_WAKE_REMOTE,	/* wakeups of a task last run on another CPU of the domain */
	TTWU_MOVE_AFFINE,	/* ... moved to the waking CPU, cache-cold anyway */
	TTWU_MOVE_BALANCE,	/* ... that started passive balancing */
	SS_NR_TAIL,
};

struct ss_domain {
	char name[SS_NAME_LEN];		/* "MC", "PKG"...; "" when unknown */
	char *mask;			/* the CPUs it spans, as the kernel prints them */
	uint64_t v[SS_MAX_FIELDS];	/* in the version's order */
	unsigned int line;		/* where it was read */
};

struct ss_cpu {
	unsigned int id;
	unsigned int nr_domains;
	uint64_t v[SS_CPU_FIELDS];
	struct ss_domain dom[SS_MAX_LEVELS];
	unsigned int line;
};

/* One /proc/schedstat, or the deltas of a record. */
struct ss_snapshot {
	unsigned int version;
	uint64_t timestamp;		/* jiffies */
	unsigned int nr_cpus;
	struct ss_cpu *cpu;
};

/* scx_push's counters, in the order of its --stats-json file. */
struct ss_scx {
	unsigned int nr;
	char name[SS_MAX_SCX][SS_NAME_LEN];
	uint64_t v[SS_MAX_SCX];
	unsigned int line[SS_MAX_SCX];
};

/* A record: one run of a command, its counter deltas. */
struct ss_record {
	char *command;
	unsigned int exit_status;	/* 128 + N when killed by signal N */
	uint64_t elapsed_ns;
	unsigned int shape_line;	/* the "cpus" line, for shape errors */
	struct ss_snapshot st;
	bool has_scx;
	struct ss_scx scx;
};

/*
 * Every function that reads input returns 0, or -1 with "NAME:LINE: what is
 * wrong" in err.
 */
int ss_read_schedstat(FILE *f, const char *name, struct ss_snapshot *s,
		      char *err, size_t err_len);
int ss_read_domain_name(const char *path, char *name, char *err, size_t err_len);
int ss_read_scx_json(FILE *f, const char *name, struct ss_scx *x,
		     char *err, size_t err_len);
int ss_read_record(FILE *f, const char *name, struct ss_record *r,
		   char *err, size_t err_len);

/* after - before into d; name is the file both came from. */
int ss_snapshot_delta(struct ss_snapshot *d, const struct ss_snapshot *before,
		      const struct ss_snapshot *after, const char *name,
		      char *err, size_t err_len);
int ss_scx_delta(struct ss_scx *d, const struct ss_scx *before,
		 const struct ss_scx *after, const char *name,
		 char *err, size_t err_len);

int ss_write_record(FILE *f, const struct ss_record *r);
void ss_snapshot_free(struct ss_snapshot *s);
void ss_record_free(struct ss_record *r);

/* The two versions have the same load_balance() counters (15 and 16 do). */
bool ss_same_fields(unsigned int va, unsigned int vb);

/* Field access independent of the version; false: not in this version. */
bool ss_has_lb(unsigned int version, enum ss_lb_field field);
uint64_t ss_lb(unsigned int version, const struct ss_domain *d,
	       enum ss_idle_type type, enum ss_lb_field field);
uint64_t ss_tail(unsigned int version, const struct ss_domain *d,
		 enum ss_tail_field field);

#endif /* __SCHEDSTAT_H */
