// SPDX-License-Identifier: GPL-2.0
/*
 * rt_share: the rt_stall measurement, against whatever scheduler is loaded.
 *
 *   rt_share [-x] [-t SECONDS] CPU
 *
 * A busy task (SCHED_NORMAL, or SCHED_EXT with -x) and a busy SCHED_FIFO
 * prio 50 task are pinned to CPU. The busy task reports through a pipe
 * before the hog starts (or it might never run again), the hog reports when
 * it runs; their CPU times are then read with clock_getcpuclockid() over
 * SECONDS (default 5) and the line
 *
 *   share=PCT low_ms=MS fifo_ms=MS
 *
 * gives the busy task's share of the two. The tree's rt_stall selftest does
 * the same with its own minimal scheduler; this one lets a test measure it
 * under scx_push.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static void usage(void)
{
	fprintf(stderr, "usage: rt_share [-x] [-t SECONDS] CPU\n");
	exit(2);
}

static pid_t spinner(int cpu, int policy, int prio, int ready_fd)
{
	struct sched_param param = { .sched_priority = prio };
	cpu_set_t set;
	pid_t pid;
	char c = 1;

	pid = fork();
	if (pid < 0)
		die("rt_share: fork: %m");
	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, policy, &param))
		die("rt_share: setting up the policy %d task: %m", policy);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	for (;;)
		;
}

static void wait_ready(int fd, const char *what)
{
	char c;
	int i;

	for (i = 0; i < 1000; i++) {
		if (read(fd, &c, 1) == 1)
			return;
		usleep(10000);
	}
	die("rt_share: the %s task did not start within 10 s", what);
}

static double cpu_ms(pid_t pid)
{
	struct timespec ts;
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		die("rt_share: reading the CPU time of %d: %m", pid);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int opt, cpu, seconds = 5, policy = SCHED_OTHER, fds[2];
	double low0, fifo0, low, fifo;
	pid_t lowpid, fifopid;

	while ((opt = getopt(argc, argv, "xt:")) != -1) {
		switch (opt) {
		case 'x':
			policy = SCHED_EXT;
			break;
		case 't':
			seconds = arg_long("-t", optarg, 1, 3600);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	cpu = arg_long("CPU", argv[optind], 0, CPUS_MAX - 1);
	if (pipe2(fds, O_NONBLOCK))
		die("rt_share: pipe: %m");

	lowpid = spinner(cpu, policy, 0, fds[1]);
	wait_ready(fds[0], "busy");
	fifopid = spinner(cpu, SCHED_FIFO, 50, fds[1]);
	wait_ready(fds[0], "SCHED_FIFO");

	low0 = cpu_ms(lowpid);
	fifo0 = cpu_ms(fifopid);
	sleep(seconds);
	low = cpu_ms(lowpid) - low0;
	fifo = cpu_ms(fifopid) - fifo0;

	kill(fifopid, SIGKILL);
	kill(lowpid, SIGKILL);
	waitpid(fifopid, NULL, 0);
	waitpid(lowpid, NULL, 0);
	printf("share=%.2f low_ms=%.0f fifo_ms=%.0f\n", 100 * low / (low + fifo), low, fifo);
	return 0;
}
