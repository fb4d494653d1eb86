// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: open the BPF scheduler, hand it the options, load and
 * attach it, report until it exits or is stopped, and restart it when the
 * kernel asks (CPU hotplug). The design is described in scx/scx_push.bpf.c.
 */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>

#include "options.h"
#include "scx_push.bpf.skel.h"

#define SCX_SYSFS "/sys/kernel/sched_ext"

static struct options opts;
static volatile sig_atomic_t exit_req;

static int libbpf_print_fn(enum libbpf_print_level level, const char *format,
			   va_list args)
{
	if (level == LIBBPF_DEBUG && !opts.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void on_exit_signal(int sig)
{
	exit_req = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_exit_signal };

	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a signal ends the sleep of the report loop at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
		fprintf(stderr, "scx_push: loading a BPF scheduler needs root "
			"(CAP_SYS_ADMIN and CAP_BPF); run it as root\n");
		return -1;
	}
	if (!read_line(SCX_SYSFS "/state", state, sizeof(state)) &&
	    strcmp(state, "disabled")) {
		if (read_line(SCX_SYSFS "/root/ops", ops, sizeof(ops)))
			strcpy(ops, "?");
		fprintf(stderr, "scx_push: another BPF scheduler is active "
			"(sched_ext state '%s', ops '%s')\n", state, ops);
		return -1;
	}
	return 0;
}

static struct scx_push *open_scheduler(void)
{
	struct scx_push *skel = scx_push__open();

	if (!skel) {
		fprintf(stderr, "scx_push: cannot open the BPF object: %s\n",
			strerror(errno));
		return NULL;
	}
	skel->struct_ops.push_ops->hotplug_seq = scx_hotplug_seq();
	skel->rodata->slice_ns = opts.slice_us * 1000;
	skel->rodata->nr_cpus = libbpf_num_possible_cpus();
	return skel;
}

static int load_scheduler(struct scx_push *skel)
{
	int err;

	UEI_SET_SIZE(skel, push_ops, uei);
	err = scx_push__load(skel);
	if (err) {
		fprintf(stderr, "scx_push: the kernel refused the BPF scheduler (%s)%s\n",
			strerror(-err), opts.verbose ? "" : "; -v shows libbpf's log");
		return err;
	}
	return 0;
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

/* Sleep until the next report is due, or less when a signal arrives. */
static void wait_interval(void)
{
	struct timespec ts = { .tv_sec = opts.interval_s };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct scx_push *skel;
	struct bpf_link *link;
	char err[256];
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
	if (check_environment())
		return 1;

	libbpf_set_print(libbpf_print_fn);
	install_signals();
restart:
	skel = open_scheduler();
	if (!skel)
		return 1;
	if (load_scheduler(skel) || !(link = attach_scheduler(skel))) {
		scx_push__destroy(skel);
		return 1;
	}

	while (!exit_req && !UEI_EXITED(skel, uei))
		wait_interval();

	bpf_link__destroy(link);
	ecode = UEI_REPORT(skel, uei);
	scx_push__destroy(skel);

	if (UEI_ECODE_RESTART(ecode) && !exit_req) {
		printf("scx_push: restarting as the kernel asked\n");
		goto restart;
	}
	return 0;
}
