// SPDX-License-Identifier: GPL-2.0
/*
 * spread: make an imbalance and time how long the scheduler takes to undo it.
 *
 *   spread -n TASKS -f FROM_CPUS -t TO_CPUS [-w WAIT_MS] [-p POLL_MS]
 *
 * Starts TASKS busy children pinned to FROM_CPUS, then widens their affinity
 * to TO_CPUS and polls every POLL_MS (default 10) which CPU each child runs
 * on. A child counts as running on a CPU in a poll only if it made progress
 * since the last poll: where children share CPUs with other tasks, POLL_MS
 * must span a few slices. Prints, after WAIT_MS (default 2000):
 *
 *   spread tasks=N spread_ms=MS final_cpus=K cpus=LIST
 *
 * spread_ms: time until the children made progress on min(TASKS, |TO_CPUS|)
 * different CPUs in one poll, -1 if that never happened; final_cpus and
 * cpus: the CPUs they made progress on during the last FINAL_MS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

enum {
	MAX_TASKS	= 64,
	POLL_MS		= 10,
	FINAL_MS	= 200,
};

static int poll_ms = POLL_MS;

struct slot {
	volatile int		cpu;
	volatile unsigned long	progress;
};

static void usage(void)
{
	fprintf(stderr, "usage: spread -n TASKS -f FROM_CPUS -t TO_CPUS [-w WAIT_MS] [-p POLL_MS]\n");
	exit(2);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void child(struct slot *slot)
{
	for (;;) {
		for (volatile int i = 0; i < 20000; i++)
			;
		slot->cpu = sched_getcpu();
		slot->progress++;
	}
}

int main(int argc, char **argv)
{
	int tasks = 0, wait_ms = 2000, opt, i, target, cpu;
	unsigned long last[MAX_TASKS] = { };
	bool seen[CPUS_MAX], final[CPUS_MAX] = { };
	cpu_set_t from, to;
	pid_t pids[MAX_TASKS];
	double start, spread_ms = -1, elapsed;
	struct slot *slots;
	char list[512];
	bool have_from = false, have_to = false;

	while ((opt = getopt(argc, argv, "n:f:t:w:p:")) != -1) {
		switch (opt) {
		case 'n':
			tasks = arg_long("-n", optarg, 1, MAX_TASKS);
			break;
		case 'f':
			cpus_parse(optarg, &from);
			have_from = true;
			break;
		case 't':
			cpus_parse(optarg, &to);
			have_to = true;
			break;
		case 'w':
			wait_ms = arg_long("-w", optarg, 1, 3600000);
			break;
		case 'p':
			poll_ms = arg_long("-p", optarg, 1, FINAL_MS);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !tasks || !have_from || !have_to)
		usage();
	target = CPU_COUNT(&to) < tasks ? CPU_COUNT(&to) : tasks;

	slots = mmap(NULL, sizeof(*slots) * tasks, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	for (i = 0; i < tasks; i++) {
		slots[i].cpu = -1;
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[i]) {
			if (sched_setaffinity(0, sizeof(from), &from))
				die("sched_setaffinity: %s", strerror(errno));
			child(&slots[i]);
		}
	}
	/* every child runs, pinned, before the imbalance is released */
	for (i = 0; i < tasks; i++)
		while (!slots[i].progress)
			sleep_ms(1);

	for (i = 0; i < tasks; i++) {
		if (sched_setaffinity(pids[i], sizeof(to), &to))
			die("sched_setaffinity(%d): %s", pids[i], strerror(errno));
		last[i] = slots[i].progress;
	}
	start = now_ms();
	while ((elapsed = now_ms() - start) < wait_ms) {
		int distinct = 0;

		sleep_ms(poll_ms);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < tasks; i++) {
			unsigned long progress = slots[i].progress;

			cpu = slots[i].cpu;
			if (progress != last[i] && cpu >= 0 && cpu < CPUS_MAX && !seen[cpu]) {
				seen[cpu] = true;
				distinct++;
			}
			last[i] = progress;
		}
		if (spread_ms < 0 && distinct >= target)
			spread_ms = now_ms() - start;
		if (elapsed >= wait_ms - FINAL_MS)
			for (cpu = 0; cpu < CPUS_MAX; cpu++)
				final[cpu] |= seen[cpu];
	}
	for (i = 0; i < tasks; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;

	for (i = 0, cpu = 0; cpu < CPUS_MAX; cpu++)
		i += final[cpu];
	cpus_format(final, list, sizeof(list));
	printf("spread tasks=%d spread_ms=%.0f final_cpus=%d cpus=%s\n", tasks, spread_ms, i,
	       list);
	return 0;
}
