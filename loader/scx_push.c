// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: read the topology, open the BPF scheduler and hand it the
 * options and the topology, load and attach it, report its counters until it
 * exits or is stopped, and restart it when the kernel asks (CPU hotplug).
 * The design is described at the top of scx/scx_push.bpf.c.
 */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>

#include "capacity.h"
#include "options.h"
#include "stats.h"
#include "topology.h"
#include "scx_push.bpf.skel.h"

#define SCX_SYSFS "/sys/kernel/sched_ext"

static struct options opts;
static volatile sig_atomic_t exit_req, report_req;

/* What survives a restart: the counters of earlier instances, the clock. */
struct run {
	struct stats	done;		/* totals of the instances that exited */
	struct stats	last;		/* totals at the last report */
	struct timespec	start;
	unsigned int	restarts;
};

static int libbpf_print_fn(enum libbpf_print_level level, const char *format,
			   va_list args)
{
	if (level == LIBBPF_DEBUG && !opts.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		report_req = 1;
	else
		exit_req = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a signal ends the sleep of the report loop at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * Say what is missing in words before libbpf would fail with a verifier log
 * or EPERM: a kernel without sched_ext, no privileges, another scheduler.
 */
static int check_environment(void)
{
	char state[64], ops[128];

	if (access(SCX_SYSFS, F_OK)) {
		fprintf(stderr, "scx_push: this kernel has no sched_ext (%s is missing); "
			"it needs CONFIG_SCHED_CLASS_EXT=y\n", SCX_SYSFS);
		return -1;
	}
	if (geteuid()) {
		fprintf(stderr,
			"scx_push: loading a BPF scheduler needs root (CAP_SYS_ADMIN and CAP_BPF); run it as root\n");
		return -1;
	}
	if (!read_line(SCX_SYSFS "/state", state, sizeof(state)) &&
	    strcmp(state, "disabled")) {
		if (read_line(SCX_SYSFS "/root/ops", ops, sizeof(ops)))
			snprintf(ops, sizeof(ops), "?");
		fprintf(stderr,
			"scx_push: another BPF scheduler is active (sched_ext state '%s', ops '%s')\n",
			state, ops);
		return -1;
	}
	return 0;
}

/* Fail before loading anything if the JSON file cannot be written. */
static int check_stats_json(void)
{
	FILE *f;

	if (!opts.stats_json)
		return 0;
	f = fopen(opts.stats_json, "a");
	if (!f) {
		fprintf(stderr, "scx_push: --stats-json: cannot write %s: %s\n",
			opts.stats_json, strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
}

static void set_topology(struct scx_push *skel, const struct topology *t)
{
	struct scx_push__rodata *ro = skel->rodata;
	int i;

	ro->nr_cpus = t->nr_cpu_ids;
	ro->nr_llcs = t->nr_llcs;
	ro->nr_nodes = t->nr_nodes;
	ro->smt_enabled = t->smt;
	ro->nr_cap_levels = t->nr_cap_levels;
	for (i = 0; i < t->nr_cpu_ids; i++) {
		ro->cpu_llc[i] = t->cpu_llc[i] < 0 ? SCX_PUSH_LLC_NONE : (__u32)t->cpu_llc[i];
		ro->cpu_pos[i] = t->cpu_pos[i];
		ro->llc_cpus[i] = t->llc_cpus[i];
		ro->cpu_capacity[i] = t->capacity[i];
		ro->cpu_cap_level[i] = t->cap_level[i];
	}
	for (i = 0; i < t->nr_cap_levels; i++)
		ro->level_capacity[i] = t->level_capacity[i];
	for (i = 0; i < t->nr_llcs; i++) {
		ro->llc_first[i] = t->llc_first[i];
		ro->llc_nr[i] = t->llc_nr[i];
		ro->llc_node[i] = t->llc_node[i];
	}
	for (i = 0; i < t->nr_nodes; i++) {
		ro->node_id[i] = t->node_id[i];
		ro->node_first_llc[i] = t->node_first_llc[i];
		ro->node_nr_llcs[i] = t->node_nr_llcs[i];
	}
}

/* The topology under --sysfs-root, with the capacities of --capacity. */
static int read_topology(struct topology *t)
{
	char err[256];

	if (topology_read(t, opts.sysfs_root, err, sizeof(err))) {
		fprintf(stderr, "scx_push: topology: %s\n", err);
		return -1;
	}
	if (capacity_apply(t, &opts.capacity, err, sizeof(err))) {
		fprintf(stderr, "scx_push: --capacity: %s\n", err);
		return -1;
	}
	topology_print(t, stdout);
	return 0;
}

/* Misfit handling needs CPUs of different capacities. */
static bool misfit_on(const struct topology *t)
{
	return opts.misfit && t->nr_cap_levels > 1;
}

/*
 * The ops flag that lets the kernel queue a wakeup on the wakee's CPU (its
 * wakelist) instead of taking that CPU's rq lock from the waker's; 0 where
 * the kernel does not have it (6.12 without this project's patch 0012).
 */
static u64 queued_wakeup_flag(void)
{
	return __COMPAT_ENUM_OR_ZERO("scx_ops_flags", "SCX_OPS_ALLOW_QUEUED_WAKEUP");
}

/* "on", "off" (--no-queued-wakeup) or "unavailable" (the kernel has none). */
static const char *queued_wakeup_state(void)
{
	if (!opts.queued_wakeup)
		return "off";
	return queued_wakeup_flag() ? "on" : "unavailable";
}

static struct scx_push *open_scheduler(const struct topology *t, u64 hotplug_seq)
{
	struct scx_push *skel = scx_push__open();

	if (!skel) {
		fprintf(stderr, "scx_push: cannot open the BPF object: %s\n",
			strerror(errno));
		return NULL;
	}
	skel->struct_ops.push_ops->hotplug_seq = hotplug_seq;
	if (opts.partial)
		skel->struct_ops.push_ops->flags |= SCX_OPS_SWITCH_PARTIAL;
	/*
	 * A task woken while it is still switching out on its CPU then skips
	 * ops.select_cpu(); ops.enqueue() places every wakeup it gets.
	 */
	if (opts.queued_wakeup)
		skel->struct_ops.push_ops->flags |= queued_wakeup_flag();
	skel->rodata->slice_ns = opts.slice_us * 1000;
	skel->rodata->pull_scope = opts.scope;
	skel->rodata->scan_mode = opts.scan;
	skel->rodata->push_enabled = opts.push;
	skel->rodata->pull_enabled = opts.pull;
	skel->rodata->busy_enabled = opts.busy;
	skel->rodata->busy_group_enabled = opts.busy_group;
	skel->rodata->sync_enabled = opts.sync;
	skel->rodata->preempt_enabled = opts.preempt;
	skel->rodata->preempt_timer = opts.preempt_timer;
	skel->rodata->slice_scale = opts.slice_scale;
	skel->rodata->wake_credit_ns = opts.wake_credit_us * 1000;
	skel->rodata->mig_cost_ns = opts.mig_cost_us * 1000;
	skel->rodata->idle_gate = opts.idle_gate;
	skel->rodata->gate_kicked = opts.gate_kicked;
	skel->rodata->wake_affine = opts.wake_affine;
	set_topology(skel, t);
	/*
	 * Without SCX_OPS_ENQ_LAST a CPU's last runnable task runs on when its
	 * slice ends, without ops.enqueue(): a lone misfit task would never
	 * reach a bigger CPU. Symmetric machines keep the flags as they are.
	 */
	skel->rodata->misfit_enabled = misfit_on(t);
	if (misfit_on(t))
		skel->struct_ops.push_ops->flags |=
			__COMPAT_ENUM_OR_ZERO("scx_ops_flags", "SCX_OPS_ENQ_LAST");
	return skel;
}

/*
 * Load (verify) the programs; the wall time it took is printed: the
 * verifier's cost as the user waits for it (under emulation it says more
 * about the host than about the programs: verified_insns below is the cost
 * to compare).
 */
static int load_scheduler(struct scx_push *skel)
{
	struct timespec start, end;
	int err;

	UEI_SET_SIZE(skel, push_ops, uei);
	clock_gettime(CLOCK_MONOTONIC, &start);
	err = scx_push__load(skel);
	if (err) {
		fprintf(stderr, "scx_push: the kernel refused the BPF scheduler (%s)%s\n",
			strerror(-err), opts.verbose ? "" : "; -v shows libbpf's log");
		return err;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("scx_push: loaded in %ld ms\n", (end.tv_sec - start.tv_sec) * 1000 +
	       (end.tv_nsec - start.tv_nsec) / 1000000);
	return 0;
}

/*
 * What the verifier walked for each program (bpf_prog_info.verified_insns,
 * as bpftool prog show prints it): the verifier cost of the scheduler.
 */
static void print_verified_insns(struct scx_push *skel)
{
	struct bpf_prog_info info;
	struct bpf_program *prog;
	unsigned long long total = 0;
	__u32 len;

	printf("scx_push: verified_insns");
	bpf_object__for_each_program(prog, skel->obj) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_program__fd(prog) < 0 ||
		    bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		printf(" %s=%u", bpf_program__name(prog), info.verified_insns);
		total += info.verified_insns;
	}
	printf(" total=%llu\n", total);
}

/*
 * What each program cost while it ran (bpf_prog_info.run_cnt/run_time_ns):
 * the kernel counts them only while the kernel.bpf_stats_enabled sysctl is
 * 1, so nothing is printed otherwise.
 */
static void print_run_cost(struct scx_push *skel)
{
	struct bpf_prog_info info;
	struct bpf_program *prog;
	bool any = false;
	__u32 len;

	bpf_object__for_each_program(prog, skel->obj) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_program__fd(prog) < 0 ||
		    bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len) ||
		    !info.run_cnt)
			continue;
		if (!any)
			printf("scx_push: run cost (calls, ns/call)");
		any = true;
		printf(" %s=%llu,%llu", bpf_program__name(prog),
		       (unsigned long long)info.run_cnt,
		       (unsigned long long)(info.run_time_ns / info.run_cnt));
	}
	if (any)
		printf("\n");
}

static struct bpf_link *attach_scheduler(struct scx_push *skel)
{
	struct bpf_link *link;

	bpf_map__set_autoattach(skel->maps.push_ops, false);
	link = bpf_map__attach_struct_ops(skel->maps.push_ops);
	if (!link)
		fprintf(stderr, "scx_push: cannot attach the scheduler: %s\n",
			strerror(errno));
	return link;
}

/* Sum the per-CPU counters of the running instance. */
static void read_stats(struct scx_push *skel, struct stats *s)
{
	int nr_cpus = libbpf_num_possible_cpus();
	unsigned long long vals[nr_cpus > 0 ? nr_cpus : 1];
	__u32 idx;

	memset(s, 0, sizeof(*s));
	for (idx = 0; nr_cpus > 0 && idx < SCX_PUSH_NR_STATS; idx++) {
		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.stats), &idx, vals))
			continue;
		for (int cpu = 0; cpu < nr_cpus; cpu++)
			s->v[idx] += vals[cpu];
	}
}

/* The CPUs in the overloaded masks, as the BPF timer last copied them. */
static void read_overloaded(struct scx_push *skel, int nr_cpu_ids, char *buf,
			    size_t len)
{
	bool set[SCX_PUSH_MAX_CPUS] = { };

	for (int cpu = 0; cpu < nr_cpu_ids; cpu++)
		set[cpu] = skel->bss->overloaded_snap[cpu / 64] & (1ULL << (cpu % 64));
	cpulist_format(set, nr_cpu_ids, buf, len);
}

static double elapsed_s(const struct run *run)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - run->start.tv_sec) +
	       (now.tv_nsec - run->start.tv_nsec) / 1e9;
}

static void write_json(const struct stats *total, const struct stats_report *r)
{
	char tmp[4096];
	FILE *f;

	if (!opts.stats_json)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", opts.stats_json);
	f = fopen(tmp, "w");
	if (!f || stats_write_json(f, total, r) || fclose(f) || rename(tmp, opts.stats_json))
		fprintf(stderr, "scx_push: cannot write %s: %s\n", opts.stats_json,
			strerror(errno));
}

/* Print what happened since the last report; totals go to the JSON file. */
static void report(struct scx_push *skel, const struct topology *t, struct run *run)
{
	struct stats now, total, delta;
	struct stats_report r = {
		.restarts = run->restarts,
		.misfit = misfit_on(t),
		.queued_wakeup = queued_wakeup_state(),
		.opts = &opts,
	};
	char overloaded[256], label[32], text[4096];

	read_stats(skel, &now);
	total = run->done;
	stats_add(&total, &now);
	stats_sub(&delta, &total, &run->last);
	run->last = total;

	read_overloaded(skel, t->nr_cpu_ids, overloaded, sizeof(overloaded));
	r.overloaded = overloaded;
	r.elapsed_s = elapsed_s(run);
	snprintf(label, sizeof(label), "[%7.1fs]", r.elapsed_s);
	stats_format(&delta, label, &r, text, sizeof(text));
	fputs(text, stdout);
	fflush(stdout);
	write_json(&total, &r);
}

/* Exit kinds from this one up are errors (enum scx_exit_kind, from BTF). */
static int exit_error_kind(void)
{
	return __COMPAT_ENUM_OR_ZERO("scx_exit_kind", "SCX_EXIT_ERROR") ?: 1024;
}

/* Sleep until the next report is due or a signal arrives. */
static void wait_interval(const struct timespec *due)
{
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, due, NULL);
}

static void summary(const struct run *run, const struct topology *t)
{
	struct stats_report r = {
		.elapsed_s = elapsed_s(run),
		.restarts = run->restarts,
		.overloaded = "-",
		.misfit = misfit_on(t),
		.queued_wakeup = queued_wakeup_state(),
		.opts = &opts,
	};
	char text[4096];

	stats_format(&run->done, "total", &r, text, sizeof(text));
	printf("scx_push: ran %.1f s, %u restart%s\n%s", r.elapsed_s, run->restarts,
	       run->restarts == 1 ? "" : "s", text);
	write_json(&run->done, &r);
}

int main(int argc, char **argv)
{
	struct run run = { };
	struct topology *topo;
	struct scx_push *skel;
	struct bpf_link *link;
	u64 hotplug_seq;
	struct timespec due;
	char err[256];
	bool failed;
	u64 ecode;

	switch (options_parse(&opts, argc, argv, err, sizeof(err))) {
	case OPTIONS_HELP:
		options_usage(stdout, basename(argv[0]));
		return 0;
	case OPTIONS_INVALID:
		fprintf(stderr, "scx_push: %s (see --help)\n", err);
		return 1;
	case OPTIONS_RUN:
		break;
	}
	if (check_environment() || check_stats_json())
		return 1;
	topo = malloc(sizeof(*topo));
	if (!topo)
		return 1;

	libbpf_set_print(libbpf_print_fn);
	install_signals();
	clock_gettime(CLOCK_MONOTONIC, &run.start);
restart:
	/*
	 * Hotplug restarts the scheduler: the topology may have changed. The
	 * hotplug sequence number is read first, so that the kernel refuses
	 * (and we restart) if a CPU comes or goes while the topology is read.
	 */
	hotplug_seq = scx_hotplug_seq();
	if (read_topology(topo))
		return 1;
	skel = open_scheduler(topo, hotplug_seq);
	if (!skel)
		return 1;
	link = load_scheduler(skel) ? NULL : attach_scheduler(skel);
	if (!link) {
		scx_push__destroy(skel);
		return 1;
	}
	printf("scx_push: scheduling (slice %lu us, pull %s%s, push %s, scan %s, busy %s, sync %s, wake affine %s, preempt %s, slice scale %s, wake credit %lu us, mig_cost %lu us, idle gate %s, misfit %s, queued wakeups %s%s)\n",
	       opts.slice_us, opts.pull ? "up to " : "off", opts.pull ?
	       options_scope_name(opts.scope) : "", opts.push ? "on" : "off",
	       options_scan_name(opts.scan),
	       !opts.busy ? "off" : opts.busy_group ? "on" : "on without group moves",
	       opts.sync ? "on" : "off", opts.wake_affine ? "on" : "off",
	       !opts.preempt ? "off" : opts.preempt_timer ? "on with timer" : "on",
	       opts.slice_scale ? "on" : "off",
	       opts.wake_credit_us, opts.mig_cost_us,
	       !opts.idle_gate ? "off" : opts.gate_kicked ? "on, kicked pulls too" : "on",
	       misfit_on(topo) ? "on" : "off", queued_wakeup_state(),
	       opts.partial ? ", SCHED_EXT tasks only" : "");
	print_verified_insns(skel);
	fflush(stdout);

	clock_gettime(CLOCK_MONOTONIC, &due);
	due.tv_sec += opts.interval_s;
	while (!exit_req && !UEI_EXITED(skel, uei)) {
		struct timespec now;

		wait_interval(&due);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (report_req || now.tv_sec > due.tv_sec ||
		    (now.tv_sec == due.tv_sec && now.tv_nsec >= due.tv_nsec)) {
			report(skel, topo, &run);
			report_req = 0;
		}
		while (now.tv_sec > due.tv_sec ||
		       (now.tv_sec == due.tv_sec && now.tv_nsec >= due.tv_nsec))
			due.tv_sec += opts.interval_s;
	}

	bpf_link__destroy(link);
	report(skel, topo, &run);
	print_run_cost(skel);
	run.done = run.last;
	ecode = UEI_REPORT(skel, uei);
	failed = skel->data->uei.kind >= exit_error_kind();
	scx_push__destroy(skel);

	if (UEI_ECODE_RESTART(ecode) && !exit_req) {
		run.restarts++;
		printf("scx_push: restarting as the kernel asked\n");
		goto restart;
	}
	summary(&run, topo);
	free(topo);
	return failed;
}
