// SPDX-License-Identifier: GPL-2.0
/*
 * periodic: a task that sleeps PERIOD ms, then runs RUN ms of CPU time, for
 * SECONDS, and prints how late its wakeups were:
 *
 *   periodic [-x] [-c CPULIST] [-p PERIOD_MS] [-r RUN_MS] [-t SECONDS]
 *
 *   periodic wakes=N quick=N late_p50_ms=MS late_max_ms=MS
 *
 * A wakeup's lateness is the time from the end of its sleep to the moment
 * the task runs again; "quick" counts the wakeups served within QUICK_MS.
 * Next to a SCHED_FIFO hog on the same CPU, only a deadline server runs
 * the task, so the lateness shows when the server starts: at once, or
 * after its zero-laxity wait (up to period - runtime, 950 ms by default).
 * -x runs it as SCHED_EXT (for scx_push --partial).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

enum { QUICK_MS = 20, WAKES_MAX = 100000 };

static void usage(void)
{
	fprintf(stderr, "usage: periodic [-x] [-c CPULIST] [-p PERIOD_MS] [-r RUN_MS] [-t SECONDS]\n");
	exit(2);
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double late[WAKES_MAX];
	long period_ms = 100, run_ms = 2, wakes = 0, quick = 0;
	double seconds = 5, end;
	int opt;

	while ((opt = getopt(argc, argv, "xc:p:r:t:")) != -1) {
		switch (opt) {
		case 'x':
			set_policy(SCHED_EXT, 0);
			break;
		case 'c':
			set_affinity(optarg);
			break;
		case 'p':
			period_ms = arg_long("-p", optarg, 1, 10000);
			break;
		case 'r':
			run_ms = arg_long("-r", optarg, 0, 10000);
			break;
		case 't':
			seconds = arg_positive("-t", optarg, 3600);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	end = now_ms() + seconds * 1e3;
	while (now_ms() < end && wakes < WAKES_MAX) {
		struct timespec ts = { period_ms / 1000, period_ms % 1000 * 1000000 };
		double due = now_ms() + period_ms, stop;

		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
			;
		late[wakes] = now_ms() - due;
		if (late[wakes] < QUICK_MS)
			quick++;
		wakes++;
		for (stop = cpu_ms() + run_ms; cpu_ms() < stop;)
			;
	}
	if (!wakes)
		die("periodic: no wakeup in %g s", seconds);
	qsort(late, wakes, sizeof(late[0]), cmp_double);
	printf("periodic wakes=%ld quick=%ld late_p50_ms=%.1f late_max_ms=%.1f\n",
	       wakes, quick, late[wakes / 2], late[wakes - 1]);
	return 0;
}
