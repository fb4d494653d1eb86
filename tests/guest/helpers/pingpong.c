// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: where a scheduler runs two tasks that wake each other.
 *
 *   pingpong -a CPU -b CPU [-t CPUS] [-n ROUNDS]
 *
 * A parent and a child start pinned to CPUs A and B, are then allowed on
 * CPUS (default: every online CPU), and pass a byte back and forth through
 * two pipes ROUNDS times (default 2000). A pipe wakes its reader with a sync
 * wakeup (the writer is about to block on the other pipe). Each side notes
 * the CPU it runs on after every read. Prints:
 *
 *   pingpong rounds=N same_cpu_pct=P same_llc_pct=Q us_per_round=U a_cpus=L b_cpus=L
 *
 * same_cpu_pct and same_llc_pct: the rounds in which both sides ran on the
 * same CPU, or on CPUs that share a last-level cache (cache/index3 in sysfs;
 * CPUs that report none count as one); a_cpus, b_cpus: the CPUs each side
 * ran on.
 */
#include "helpers.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS_MAX = 1000000 };

static void usage(void)
{
	fprintf(stderr, "usage: pingpong -a CPU -b CPU [-t CPUS] [-n ROUNDS]\n");
	exit(2);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot pin to CPU %d: %s", cpu, strerror(errno));
}

/* The first CPU of @cpu's L3 CPU list: its LLC's name; read once. */
static int llc_of(int cpu)
{
	static int llc[CPUS_MAX];
	char path[128];
	int first = -1;
	FILE *f;

	if (llc[cpu])
		return llc[cpu] - 1;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &first) != 1)
			die("cannot read %s", path);
		fclose(f);
	}
	llc[cpu] = first + 1;
	return first;
}

static void xwrite(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("pipe write: %s", strerror(errno));
}

static void xread(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("pipe read: %s", strerror(errno));
}

/* One side: ROUNDS times, wait for the other's byte (the parent sends first). */
static void play(int in, int out, int *cpus, long rounds, bool first)
{
	for (long i = 0; i < rounds; i++) {
		if (first)
			xwrite(out);
		xread(in);
		cpus[i] = sched_getcpu();
		if (!first)
			xwrite(out);
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	long a = -1, b = -1, rounds = 2000, same_cpu = 0, same_llc = 0;
	bool seen_a[CPUS_MAX] = { }, seen_b[CPUS_MAX] = { };
	char list_a[256], list_b[256];
	int to_child[2], to_parent[2], opt, status, *cpus_a, *cpus_b;
	cpu_set_t allowed;
	double start;
	pid_t child;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		die("sched_getaffinity: %s", strerror(errno));
	while ((opt = getopt(argc, argv, "a:b:t:n:")) != -1) {
		switch (opt) {
		case 'a': a = arg_long("-a", optarg, 0, CPUS_MAX - 1); break;
		case 'b': b = arg_long("-b", optarg, 0, CPUS_MAX - 1); break;
		case 't': cpus_parse(optarg, &allowed); break;
		case 'n': rounds = arg_long("-n", optarg, 1, ROUNDS_MAX); break;
		default: usage();
		}
	}
	if (a < 0 || b < 0 || optind != argc)
		usage();

	/* the child's CPUs, shared with the parent */
	cpus_b = mmap(NULL, rounds * sizeof(int), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cpus_a = calloc(rounds, sizeof(int));
	if (cpus_b == MAP_FAILED || !cpus_a)
		die("out of memory");
	if (pipe(to_child) || pipe(to_parent))
		die("pipe: %s", strerror(errno));

	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (!child) {
		pin(b);
		xwrite(to_parent[1]);	/* pinned */
		xread(to_child[0]);	/* released */
		if (sched_setaffinity(0, sizeof(allowed), &allowed))
			die("sched_setaffinity: %s", strerror(errno));
		xwrite(to_parent[1]);
		play(to_child[0], to_parent[1], cpus_b, rounds, false);
		_exit(0);
	}
	pin(a);
	xread(to_parent[0]);
	xwrite(to_child[1]);
	if (sched_setaffinity(0, sizeof(allowed), &allowed))
		die("sched_setaffinity: %s", strerror(errno));
	xread(to_parent[0]);
	start = now_us();
	play(to_parent[0], to_child[1], cpus_a, rounds, true);
	start = (now_us() - start) / rounds;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("the child failed");

	for (long i = 0; i < rounds; i++) {
		if (cpus_a[i] < 0 || cpus_a[i] >= CPUS_MAX ||
		    cpus_b[i] < 0 || cpus_b[i] >= CPUS_MAX)
			die("sched_getcpu() failed");
		seen_a[cpus_a[i]] = seen_b[cpus_b[i]] = true;
		same_cpu += cpus_a[i] == cpus_b[i];
		same_llc += llc_of(cpus_a[i]) == llc_of(cpus_b[i]);
	}
	cpus_format(seen_a, list_a, sizeof(list_a));
	cpus_format(seen_b, list_b, sizeof(list_b));
	printf("pingpong rounds=%ld same_cpu_pct=%ld same_llc_pct=%ld us_per_round=%.0f a_cpus=%s b_cpus=%s\n",
	       rounds, same_cpu * 100 / rounds, same_llc * 100 / rounds, start,
	       list_a, list_b);
	return 0;
}
