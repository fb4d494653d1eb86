// SPDX-License-Identifier: GPL-2.0
/*
 * oversub: CPU-bound tasks of fixed work with mixed affinity, started at
 * once, timed to their completion.
 *
 *   oversub -w MITERS CPULIST|all...
 *
 * One child per CPU list argument ("all": the affinity is left alone). Each
 * child sets its affinity, says it is ready, waits for the common start, then
 * spins MITERS million loop iterations. The work is a fixed number of
 * iterations, not a time, so a task that waits on a busy CPU finishes late.
 * Prints one line per task, then the summary:
 *
 *   task=I cpus=LIST done_ms=MS cpu_ms=MS
 *   oversub tasks=N makespan_ms=MS first_ms=MS mean_ms=MS spread_ms=MS
 *           ideal_ms=MS makespan_norm=X
 *
 * done_ms is the time from the start to the task's completion, cpu_ms the
 * CPU time it used; makespan_ms the last completion, spread_ms the last
 * minus the first (how unfairly the CPU time was shared among tasks of
 * equal work). ideal_ms is the tasks' CPU time over the online CPUs, the
 * makespan of a scheduler that keeps every CPU busy until all finish
 * together, and makespan_norm the makespan over it. Under emulation the
 * same work takes more or less CPU time as the host runs the vCPUs faster
 * or slower; makespan_norm divides that out, the makespan keeps it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

enum { MAX_TASKS = 1024 };

static void usage(void)
{
	fprintf(stderr, "usage: oversub -w MITERS CPULIST|all...\n");
	exit(2);
}

/* The CPU time this process used so far, in ms. */
static double cpu_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The child: affinity, ready, wait for the start (EOF on go), work, time. */
static void child(const char *cpus, long miters, int ready, int go, double *done,
		  double *cpu_ms)
{
	cpu_set_t set;
	char c;

	if (strcmp(cpus, "all")) {
		cpus_parse(cpus, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die("sched_setaffinity(%s): %s", cpus, strerror(errno));
	}
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 0)
		die("start handshake failed");
	for (long m = 0; m < miters; m++)
		for (volatile long i = 0; i < 1000000; i++)
			;
	*done = now_ms();
	*cpu_ms = cpu_now_ms();
	exit(0);
}

int main(int argc, char **argv)
{
	double *done, *cpu_ms, start, first = 0, last = 0, sum = 0, cpu_sum = 0, ideal;
	int ready[2], go[2], tasks, opt, i;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long miters = 0;
	char c;

	while ((opt = getopt(argc, argv, "w:")) != -1) {
		if (opt != 'w')
			usage();
		miters = arg_long("-w", optarg, 1, 1000000);
	}
	tasks = argc - optind;
	if (miters <= 0 || tasks < 1 || tasks > MAX_TASKS)
		usage();
	/* done[i], then cpu_ms[i], shared with the children */
	done = mmap(NULL, 2 * tasks * sizeof(*done), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (done == MAP_FAILED || cpus < 1 || pipe(ready) || pipe(go))
		die("setup: %s", strerror(errno));
	cpu_ms = done + tasks;

	for (i = 0; i < tasks; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			child(argv[optind + i], miters, ready[1], go[0], &done[i], &cpu_ms[i]);
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < tasks; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a child died before the start");
	start = now_ms();
	close(go[1]);
	for (i = 0; i < tasks; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("a child failed");
	}

	for (i = 0; i < tasks; i++) {
		double ms = done[i] - start;

		printf("task=%d cpus=%s done_ms=%.1f cpu_ms=%.1f\n", i, argv[optind + i], ms,
		       cpu_ms[i]);
		first = i ? (ms < first ? ms : first) : ms;
		last = ms > last ? ms : last;
		sum += ms;
		cpu_sum += cpu_ms[i];
	}
	ideal = cpu_sum / cpus;
	printf("oversub tasks=%d makespan_ms=%.1f first_ms=%.1f mean_ms=%.1f spread_ms=%.1f ideal_ms=%.1f makespan_norm=%.3f\n",
	       tasks, last, first, sum / tasks, last - first, ideal, ideal > 0 ? last / ideal : 0);
	return 0;
}
