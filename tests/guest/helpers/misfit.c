// SPDX-License-Identifier: GPL-2.0
/*
 * misfit: where CPU-bound and light tasks end up on CPUs of different
 * capacity.
 *
 *   misfit -b BIG_CPUS [-H HEAVY_CPUS] [-L LIGHT_CPUS] [-d DUTY_PCT]
 *          [-w WAIT_MS]
 *
 * Starts one CPU-bound ("heavy") child on each CPU of HEAVY_CPUS and one
 * light child, running DUTY_PCT (default 10) of every PERIOD_MS, on each CPU
 * of LIGHT_CPUS. A child is forked onto its CPU (so that it starts there,
 * with a new task's utilization) and then lets itself run anywhere the
 * caller may. Every POLL_MS it is looked up: the CPU it last ran on. After
 * WAIT_MS (default 2000) it prints
 *
 *   misfit heavy=N light=N heavy_big_ms=MS heavy_final_big=N light_small_pct=P
 *
 * heavy_big_ms: the longest time, from a heavy child's start, until it was
 * first seen on a CPU of BIG_CPUS, -1 if one never was; heavy_final_big: the
 * heavy children seen only on BIG_CPUS during the last FINAL_MS;
 * light_small_pct: of the looks at light children, the share that found
 * them outside BIG_CPUS, -1 without light children.
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
	POLL_MS		= 2,
	FINAL_MS	= 300,
	PERIOD_MS	= 10,
};

struct slot {
	volatile int	cpu;		/* the CPU it last ran on, -1 before */
	volatile double	start_ms;	/* when it started, 0 before */
	bool		heavy;
	double		big_ms;		/* first seen on a big CPU, -1 not yet */
	bool		final_small;	/* seen off the big CPUs in the last FINAL_MS */
};

static void usage(void)
{
	fprintf(stderr, "usage: misfit -b BIG_CPUS [-H HEAVY_CPUS] [-L LIGHT_CPUS] [-d DUTY_PCT] [-w WAIT_MS]\n");
	exit(2);
}

static void sleep_ms(double ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000),
			       .tv_nsec = (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6) };

	nanosleep(&ts, NULL);
}

/* Run on the CPU for @ms of wall time, recording where. */
static void spin_ms(struct slot *slot, double ms)
{
	double end = now_ms() + ms;

	do {
		for (volatile int i = 0; i < 2000; i++)
			;
		slot->cpu = sched_getcpu();
	} while (now_ms() < end);
}

static void child(struct slot *slot, const cpu_set_t *all, int duty)
{
	slot->cpu = sched_getcpu();
	if (sched_setaffinity(0, sizeof(*all), all))
		die("sched_setaffinity: %s", strerror(errno));
	slot->start_ms = now_ms();
	for (;;) {
		if (slot->heavy) {
			spin_ms(slot, 1000);
			continue;
		}
		spin_ms(slot, PERIOD_MS * duty / 100.0);
		sleep_ms(PERIOD_MS * (100 - duty) / 100.0);
	}
}

/* Fork a child that starts on @cpu; the caller's affinity is @all again after. */
static pid_t start_child(struct slot *slot, int cpu, const cpu_set_t *all, int duty)
{
	cpu_set_t one;
	pid_t pid;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		die("sched_setaffinity(%d): %s", cpu, strerror(errno));
	slot->cpu = -1;
	slot->big_ms = -1;
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		child(slot, all, duty);
	if (sched_setaffinity(0, sizeof(*all), all))
		die("sched_setaffinity: %s", strerror(errno));
	return pid;
}

int main(int argc, char **argv)
{
	int wait_ms = 2000, duty = 10, opt, i, cpu, tasks = 0, heavy = 0, light = 0;
	int final_big = 0;
	long light_looks = 0, light_small = 0;
	double start, elapsed, big_ms = 0;
	cpu_set_t all, big, heavy_cpus, light_cpus;
	pid_t pids[MAX_TASKS];
	struct slot *slots;
	bool have_big = false;

	CPU_ZERO(&heavy_cpus);
	CPU_ZERO(&light_cpus);
	while ((opt = getopt(argc, argv, "b:H:L:d:w:")) != -1) {
		switch (opt) {
		case 'b':
			cpus_parse(optarg, &big);
			have_big = true;
			break;
		case 'H':
			cpus_parse(optarg, &heavy_cpus);
			break;
		case 'L':
			cpus_parse(optarg, &light_cpus);
			break;
		case 'd':
			duty = arg_long("-d", optarg, 1, 99);
			break;
		case 'w':
			wait_ms = arg_long("-w", optarg, FINAL_MS, 3600000);
			break;
		default:
			usage();
		}
	}
	heavy = CPU_COUNT(&heavy_cpus);
	light = CPU_COUNT(&light_cpus);
	if (optind != argc || !have_big || (!heavy && !light) ||
	    heavy + light > MAX_TASKS)
		usage();
	if (sched_getaffinity(0, sizeof(all), &all))
		die("sched_getaffinity: %s", strerror(errno));

	slots = mmap(NULL, sizeof(*slots) * (heavy + light), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &heavy_cpus)) {
			slots[tasks].heavy = true;
			pids[tasks] = start_child(&slots[tasks], cpu, &all, duty);
			tasks++;
		}
		if (CPU_ISSET(cpu, &light_cpus)) {
			pids[tasks] = start_child(&slots[tasks], cpu, &all, duty);
			tasks++;
		}
	}

	start = now_ms();
	while ((elapsed = now_ms() - start) < wait_ms) {
		sleep_ms(POLL_MS);
		for (i = 0; i < tasks; i++) {
			struct slot *s = &slots[i];
			bool on_big;

			cpu = s->cpu;
			if (cpu < 0 || !s->start_ms)
				continue;
			on_big = CPU_ISSET(cpu, &big);
			if (!s->heavy) {
				light_looks++;
				light_small += !on_big;
				continue;
			}
			if (on_big && s->big_ms < 0)
				s->big_ms = now_ms() - s->start_ms;
			if (elapsed >= wait_ms - FINAL_MS && !on_big)
				s->final_small = true;
		}
	}
	for (i = 0; i < tasks; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;

	for (i = 0; i < tasks; i++) {
		if (!slots[i].heavy)
			continue;
		if (slots[i].big_ms < 0 || big_ms < 0)
			big_ms = -1;
		else if (slots[i].big_ms > big_ms)
			big_ms = slots[i].big_ms;
		final_big += !slots[i].final_small;
	}
	printf("misfit heavy=%d light=%d heavy_big_ms=%.0f heavy_final_big=%d light_small_pct=%ld\n",
	       heavy, light, heavy ? big_ms : -1, final_big,
	       light_looks ? light_small * 100 / light_looks : -1);
	return 0;
}
