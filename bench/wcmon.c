// SPDX-License-Identifier: GPL-2.0
/*
 * wcmon: load and attach the work-conservation monitor (wcmon.bpf.c, whose
 * top comment describes the measure and its approximations), then write its
 * totals to FILE at once, on every SIGUSR1 and on SIGINT/SIGTERM, which also
 * end it. The bench (bench/guest/bench.sh) starts it once per boot and takes
 * the difference of two writes around each case.
 *
 *   wcmon [-o FILE] [-v]
 *
 * FILE (default wcmon.txt) is replaced atomically (FILE.tmp renamed), one
 * "KEY VALUE" line each:
 *
 *   wcmon 1             the format
 *   cpus 8              CPUs watched
 *   elapsed_ns N        since the first event
 *   idle_ns N           CPU-ns idle, summed over the CPUs
 *   idle_wait_ns N      CPU-ns idle while a task that may run there waited
 *                       on a busy CPU
 *   samples N           samples taken (one a WC_SAMPLE_NS)
 *   lost N              events not counted (no task storage)
 *
 * The idle-while-waiting share of a case is the difference of idle_wait_ns
 * over cpus times the difference of elapsed_ns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "wcmon.h"
#include "wcmon.bpf.skel.h"

enum { FORMAT = 1 };

static const char usage_text[] =
"usage: wcmon [-o FILE] [-v]\n"
"\n"
"Work-conservation monitor: CPU time idle while a task that may run on that\n"
"CPU waits on a busy one, for any scheduler. Writes its totals to FILE\n"
"(default wcmon.txt) at once, on SIGUSR1 and on SIGINT/SIGTERM (which end it).\n"
"\n"
"  -o FILE   where the totals go (KEY VALUE lines)\n"
"  -v        libbpf's debug messages\n"
"\n"
"The measure and its approximations: the top of bench/wcmon.bpf.c.\n";

struct opts {
	const char *output;
	bool verbose;
};

static __attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...)
{
	va_list ap;

	fputs("wcmon: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return vfprintf(stderr, fmt, args);
}

/* 0, 1 after -h, -1 after a bad option. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	int opt;

	*o = (struct opts){ .output = "wcmon.txt" };
	while ((opt = getopt(argc, argv, "o:vh")) != -1) {
		switch (opt) {
		case 'o':
			o->output = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			return error("bad option (wcmon -h for help)");
		}
	}
	if (optind < argc || !*o->output)
		return error("no arguments but -o FILE (wcmon -h for help)");
	return 0;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * A consistent copy of the sampler's totals: retried while it writes them
 * (seq odd, or changed during the copy).
 */
static void read_totals(struct wcmon_bpf *skel, struct wc_totals *t)
{
	volatile struct wc_totals *live = &skel->bss->totals;
	__u64 seq;

	do {
		while ((seq = live->seq) & 1)
			;
		__sync_synchronize();
		*t = *(struct wc_totals *)live;
		__sync_synchronize();
	} while (live->seq != seq);
}

/*
 * The totals end at the last sample; the time from there to now is added
 * with the last sample's counts (bpf_ktime_get_ns() is CLOCK_MONOTONIC).
 */
static int write_totals(struct wcmon_bpf *skel, const char *output, unsigned int cpus)
{
	struct wc_totals t;
	__u64 now, since;
	char tmp[4096];
	FILE *f;

	read_totals(skel, &t);
	now = now_ns();
	since = t.last_ns && now > t.last_ns ? now - t.last_ns : 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", output);
	f = fopen(tmp, "w");
	if (!f)
		return error("%s: %s", tmp, strerror(errno));
	fprintf(f, "wcmon %d\ncpus %u\n", FORMAT, cpus);
	fprintf(f, "elapsed_ns %llu\n", t.start_ns ? (unsigned long long)(now - t.start_ns) : 0ULL);
	fprintf(f, "idle_ns %llu\n", (unsigned long long)(t.idle_ns + t.cur_idle * since));
	fprintf(f, "idle_wait_ns %llu\n", (unsigned long long)(t.idle_wait_ns + t.cur_wait * since));
	fprintf(f, "samples %llu\nlost %llu\n", (unsigned long long)t.samples,
		(unsigned long long)skel->bss->lost);
	if (fclose(f) || rename(tmp, output))
		return error("%s: %s", output, strerror(errno));
	return 0;
}

/*
 * Until its first context switch a CPU counts as busy: visit every CPU once
 * (each move switches there and back to its idle task), then restore the
 * affinity. A CPU that cannot be visited (offline) is skipped.
 */
static void visit_cpus(unsigned int cpus)
{
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (unsigned int c = 0; c < cpus; c++) {
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

/* Writes the totals on SIGUSR1, and a last time on SIGINT or SIGTERM. */
static int serve(struct wcmon_bpf *skel, const char *output, unsigned int cpus,
		 const sigset_t *set)
{
	int sig;

	for (;;) {
		if (write_totals(skel, output, cpus))
			return -1;
		if (sigwait(set, &sig))
			return -1;
		if (sig != SIGUSR1)
			return write_totals(skel, output, cpus);
	}
}

int main(int argc, char **argv)
{
	struct wcmon_bpf *skel;
	struct opts o;
	sigset_t set;
	int cpus, ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 1;
	if (o.verbose)
		libbpf_set_print(libbpf_print_fn);
	cpus = libbpf_num_possible_cpus();
	if (cpus < 1 || cpus > WC_MAX_CPUS) {
		error("%d possible CPUs, this monitor watches 1 to %d", cpus, WC_MAX_CPUS);
		return 1;
	}
	/* Blocked before anything runs: sigwait() takes them in serve(). */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	skel = wcmon_bpf__open();
	if (!skel) {
		error("opening the BPF object: %s", strerror(errno));
		return 1;
	}
	skel->rodata->nr_cpus = cpus;
	ret = wcmon_bpf__load(skel);
	if (!ret)
		ret = wcmon_bpf__attach(skel);
	if (ret) {
		error("loading or attaching: %s (-v for libbpf's messages)", strerror(-ret));
		wcmon_bpf__destroy(skel);
		return 1;
	}
	visit_cpus(cpus);
	ret = serve(skel, o.output, cpus, &set);
	wcmon_bpf__destroy(skel);
	return ret ? 1 : 0;
}
