// SPDX-License-Identifier: GPL-2.0
/*
 * burn: spin on the CPU for a while, then print what it got:
 *
 *   burn pid=PID cpu_ms=MS cpus=LIST
 *
 * cpu_ms is the CPU time it received, cpus the CPUs it was seen running on
 * (sched_getcpu() between short bursts of work). Options set up the task
 * before it starts: -c affinity, -n nice, -f SCHED_FIFO priority, -x the
 * SCHED_EXT policy (for scx_push --partial).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static void usage(void)
{
	fprintf(stderr, "usage: burn [-t SECONDS] [-c CPULIST] [-n NICE] [-f RTPRIO] [-x]\n");
	exit(2);
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	bool seen[CPUS_MAX] = { };
	double seconds = 1, end;
	char list[512];
	int opt;

	while ((opt = getopt(argc, argv, "t:c:n:f:x")) != -1) {
		switch (opt) {
		case 't':
			seconds = arg_positive("-t", optarg, 86400);
			break;
		case 'c':
			set_affinity(optarg);
			break;
		case 'n':
			if (setpriority(PRIO_PROCESS, 0, arg_long("-n", optarg, -20, 19)))
				die("setpriority(%s): %s", optarg, strerror(errno));
			break;
		case 'f':
			set_policy(SCHED_FIFO, arg_long("-f", optarg, 1, 99));
			break;
		case 'x':
			set_policy(SCHED_EXT, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	end = now(CLOCK_MONOTONIC) + seconds;
	while (now(CLOCK_MONOTONIC) < end) {
		int cpu;

		for (volatile int i = 0; i < 20000; i++)
			;
		cpu = sched_getcpu();
		if (cpu >= 0 && cpu < CPUS_MAX)
			seen[cpu] = true;
	}
	cpus_format(seen, list, sizeof(list));
	printf("burn pid=%d cpu_ms=%.0f cpus=%s\n", getpid(),
	       now(CLOCK_PROCESS_CPUTIME_ID) * 1000, list);
	return 0;
}
