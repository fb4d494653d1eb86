// SPDX-License-Identifier: GPL-2.0
/*
 * progress: a worker that counts its own progress, for starvation checks.
 *
 *   progress pid=PID steps=N windows=W min=M zero=Z max_gap_ms=G
 *
 * It runs for -t SECONDS doing steps (a short burst of CPU work, then an
 * optional -s sleep in microseconds, so it can be a CPU hog or a sleeper) and
 * counts the steps in every -w WINDOW seconds since its start (default 5).
 * windows is the number of complete windows, min the fewest steps in one of
 * them, zero how many had none, max_gap_ms the longest time between two
 * steps (start and end included). A starved worker notices when it runs
 * again, so the report needs no outside observer that could be starved too.
 * Affinity, nice level, policy and cgroup are left to whoever started it.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

enum { WINDOWS_MAX = 4096 };

static unsigned long steps_in[WINDOWS_MAX];

static void usage(void)
{
	fprintf(stderr, "usage: progress [-t SECONDS] [-w WINDOW_S] [-s SLEEP_US]\n");
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pause_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	double seconds = 10, window = 5, start, last, t, max_gap = 0;
	unsigned long steps = 0, min = ULONG_MAX;
	long sleep_us = 0, windows, zero = 0;
	int opt;

	while ((opt = getopt(argc, argv, "t:w:s:")) != -1) {
		switch (opt) {
		case 't':
			seconds = arg_positive("-t", optarg, 86400);
			break;
		case 'w':
			window = arg_positive("-w", optarg, 3600);
			break;
		case 's':
			sleep_us = arg_long("-s", optarg, 0, 10000000);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || seconds / window >= WINDOWS_MAX)
		usage();
	windows = (long)(seconds / window);

	start = now();
	last = start;
	for (;;) {
		long w;

		for (volatile int i = 0; i < 20000; i++)
			;
		t = now();
		if (t - last > max_gap)
			max_gap = t - last;
		last = t;
		if (t - start >= seconds)
			break;
		w = (long)((t - start) / window);
		steps_in[w]++;
		steps++;
		if (sleep_us)
			pause_us(sleep_us);
	}
	for (long w = 0; w < windows; w++) {
		if (steps_in[w] < min)
			min = steps_in[w];
		if (!steps_in[w])
			zero++;
	}
	printf("progress pid=%d steps=%lu windows=%ld min=%lu zero=%ld max_gap_ms=%.0f\n",
	       getpid(), steps, windows, windows ? min : 0, zero, max_gap * 1000);
	return 0;
}
