// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: parse and validate the command line. Nothing here touches
 * the kernel, so a bad option ends the program before anything is loaded.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "scx_push.h"

static const char *const scope_names[] = {
	[SCX_PUSH_SCOPE_LLC]	= "llc",
	[SCX_PUSH_SCOPE_NODE]	= "node",
	[SCX_PUSH_SCOPE_ALL]	= "all",
};

static const char *const scan_names[] = {
	[SCX_PUSH_SCAN_MASK]	= "mask",
	[SCX_PUSH_SCAN_FULL]	= "full",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum long_only {
	OPT_NO_PUSH = 0x100,
	OPT_NO_PULL,
	OPT_NO_BUSY,
	OPT_NO_BUSY_GROUP,
	OPT_NO_SYNC,
	OPT_NO_WAKE_AFFINE,
	OPT_NO_PREEMPT,
	OPT_SLICE_SCALE,
	OPT_WAKE_CREDIT,
	OPT_MIG_COST,
	OPT_NO_IDLE_GATE,
	OPT_GATE_KICKED,
	OPT_NO_MISFIT,
	OPT_CAPACITY,
	OPT_SCAN,
	OPT_NO_QUEUED_WAKEUP,
	OPT_PREEMPT_TIMER,
	OPT_PARTIAL,
	OPT_STATS_JSON,
	OPT_SYSFS_ROOT,
};

static const struct option long_options[] = {
	{ "slice",	required_argument,	NULL, 's' },
	{ "interval",	required_argument,	NULL, 'i' },
	{ "pull-scope",	required_argument,	NULL, 'P' },
	{ "no-push",	no_argument,		NULL, OPT_NO_PUSH },
	{ "no-pull",	no_argument,		NULL, OPT_NO_PULL },
	{ "no-busy",	no_argument,		NULL, OPT_NO_BUSY },
	{ "no-busy-group", no_argument,		NULL, OPT_NO_BUSY_GROUP },
	{ "no-sync",	no_argument,		NULL, OPT_NO_SYNC },
	{ "no-wake-affine", no_argument,	NULL, OPT_NO_WAKE_AFFINE },
	{ "no-preempt",	no_argument,		NULL, OPT_NO_PREEMPT },
	{ "preempt-timer", no_argument,	NULL, OPT_PREEMPT_TIMER },
	{ "slice-scale", no_argument,		NULL, OPT_SLICE_SCALE },
	{ "wake-credit-us", required_argument,	NULL, OPT_WAKE_CREDIT },
	{ "mig-cost-us", required_argument,	NULL, OPT_MIG_COST },
	{ "no-idle-gate", no_argument,		NULL, OPT_NO_IDLE_GATE },
	{ "gate-kicked", no_argument,		NULL, OPT_GATE_KICKED },
	{ "no-misfit",	no_argument,		NULL, OPT_NO_MISFIT },
	{ "capacity",	required_argument,	NULL, OPT_CAPACITY },
	{ "scan",	required_argument,	NULL, OPT_SCAN },
	{ "no-queued-wakeup", no_argument,	NULL, OPT_NO_QUEUED_WAKEUP },
	{ "partial",	no_argument,		NULL, OPT_PARTIAL },
	{ "stats-json",	required_argument,	NULL, OPT_STATS_JSON },
	{ "sysfs-root",	required_argument,	NULL, OPT_SYSFS_ROOT },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ "help",	no_argument,		NULL, 'h' },
	{ }
};

void options_usage(FILE *f, const char *prog)
{
	fprintf(f,
"Usage: %s [-s SLICE_US] [-i INTERVAL_S] [-P llc|node|all] [--no-push]\n"
"       [--no-pull] [--no-busy] [--no-busy-group] [--no-sync]\n"
"       [--no-wake-affine] [--no-preempt] [--preempt-timer] [--slice-scale] [--wake-credit-us US]\n"
"       [--mig-cost-us US] [--no-idle-gate] [--gate-kicked] [--no-misfit]\n"
"       [--capacity CPULIST:CAP[,...]] [--scan mask|full]\n"
"       [--no-queued-wakeup] [--partial] [--stats-json FILE] [-v] [-h]\n"
"\n"
"scx_push: a sched_ext scheduler with per-CPU queues that idle CPUs pull from\n"
"(guided by per-LLC masks of overloaded CPUs) and busy CPUs push to idle ones.\n"
"How it works and its limits: the comment at the top of scx/scx_push.bpf.c.\n"
"\n"
"  -s, --slice SLICE_US      time slice in microseconds, %d..%d (default %d)\n"
"  -i, --interval INTERVAL_S print statistics every INTERVAL_S seconds, %d..%d\n"
"                            (default %d); SIGUSR1 prints them at once\n"
"  -P, --pull-scope SCOPE    how far an idle CPU pulls from: llc, node or all\n"
"                            (default all; other nodes only after a wait)\n"
"      --no-push             never push waiting tasks to idle CPUs\n"
"      --no-pull             never pull tasks from busy CPUs\n"
"      --no-busy             never move waiting tasks between busy CPUs\n"
"      --no-busy-group       between busy LLCs and nodes, take only from the\n"
"                            most loaded CPU, not from the busiest LLC or node\n"
"                            when that CPU's tasks may not run on the taker\n"
"      --no-sync             place sync wakeups like any other wakeup\n"
"      --no-wake-affine      with no CPU idle, queue a wakee on its previous\n"
"                            CPU, not on the waker's\n"
"      --no-preempt          no wakeup preemption\n"
"      --preempt-timer       a wakeup that waits for the running task's\n"
"                            minimum slice preempts it when the minimum ends\n"
"                            (a timer), not at the next tick\n"
"      --slice-scale         divide a slice by one plus the tasks waiting\n"
"                            behind it, down to 1 ms (default: every slice\n"
"                            is SLICE_US)\n"
"      --wake-credit-us US   a waking task starts at most US microseconds\n"
"                            behind its CPU's clock, 0..%d (default SLICE_US)\n"
"      --mig-cost-us US      a task that ran less than US microseconds ago is\n"
"                            cache hot and not pulled, 0..%d (default %d)\n"
"      --no-idle-gate        pull even where a pull costs more than the CPU's\n"
"                            average idle time\n"
"      --gate-kicked         gate the pulls the balance timer asks an idle CPU\n"
"                            for too (default: those are never gated)\n"
"      --no-misfit           never move a task that outgrows a small CPU to a\n"
"                            bigger one (on only when CPU capacities differ)\n"
"      --capacity CPULIST:CAP[,CPULIST:CAP...]\n"
"                            give the CPUs in CPULIST the capacity CAP, 1..%d,\n"
"                            instead of sysfs cpu_capacity (%d where absent),\n"
"                            e.g. 0-3:512,4-7:%d\n"
"      --scan MODE           find busy CPUs with the overloaded masks (mask,\n"
"                            default) or by looking at every CPU (full)\n"
"      --no-queued-wakeup    wake tasks on other CPUs from the waker's CPU\n"
"                            (default: let the kernel queue such a wakeup on\n"
"                            the wakee's CPU, where it has\n"
"                            SCX_OPS_ALLOW_QUEUED_WAKEUP)\n"
"      --partial             schedule only SCHED_EXT tasks, leave others on CFS\n"
"      --stats-json FILE     write the statistics to FILE as JSON\n"
"  -v, --verbose             print libbpf's debug messages\n"
"  -h, --help                print this help and exit\n",
		prog, OPT_SLICE_US_MIN, OPT_SLICE_US_MAX, OPT_SLICE_US_DFL,
		OPT_INTERVAL_S_MIN, OPT_INTERVAL_S_MAX, OPT_INTERVAL_S_DFL,
		OPT_SLICE_US_MAX,
		OPT_MIG_COST_US_MAX, OPT_MIG_COST_US_DFL,
		SCX_PUSH_CAPACITY_MAX, SCX_PUSH_CAPACITY_MAX, SCX_PUSH_CAPACITY_MAX);
}

const char *options_scope_name(int scope)
{
	if (scope < 0 || scope >= (int)ARRAY_SIZE(scope_names))
		return "?";
	return scope_names[scope];
}

const char *options_scan_name(int scan)
{
	if (scan < 0 || scan >= (int)ARRAY_SIZE(scan_names))
		return "?";
	return scan_names[scan];
}

static enum options_status invalid(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return OPTIONS_INVALID;
}

/* A decimal integer in [min, max], nothing else: no sign, no suffix. */
static bool parse_ulong(const char *s, unsigned long min, unsigned long max,
			unsigned long *out)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static int lookup_name(const char *s, const char *const *names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/*
 * The option getopt_long() just rejected: optopt names a short one (it may
 * sit inside a group such as -vx), else argv[optind - 1] is the long one.
 */
static const char *option_name(char **argv, int ind)
{
	static char name[3];

	if (optopt > 0 && optopt < OPT_NO_PUSH) {
		snprintf(name, sizeof(name), "-%c", optopt);
		return name;
	}
	return argv[ind - 1];
}

static void set_defaults(struct options *o)
{
	const char *root = getenv("SCX_PUSH_SYSFS");

	*o = (struct options) {
		.slice_us	= OPT_SLICE_US_DFL,
		.interval_s	= OPT_INTERVAL_S_DFL,
		.scope		= SCX_PUSH_SCOPE_ALL,
		.scan		= SCX_PUSH_SCAN_MASK,
		.push		= true,
		.pull		= true,
		.busy		= true,
		.busy_group	= true,
		.sync		= true,
		.wake_affine	= true,
		.preempt	= true,
		.mig_cost_us	= OPT_MIG_COST_US_DFL,
		.idle_gate	= true,
		.misfit		= true,
		.queued_wakeup	= true,
		.sysfs_root	= root && *root ? root : "/sys",
	};
}

enum options_status options_parse(struct options *o, int argc, char **argv,
				  char *err, size_t err_len)
{
	bool wake_credit_set = false;
	char msg[256];
	int opt;

	set_defaults(o);
	opterr = 0;
	optind = 0;	/* GNU: restart scanning, options_parse() may run twice */
	while ((opt = getopt_long(argc, argv, ":s:i:P:vh", long_options, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (!parse_ulong(optarg, OPT_SLICE_US_MIN, OPT_SLICE_US_MAX,
					 &o->slice_us))
				return invalid(err, err_len,
					       "-s: '%s' is not a slice in microseconds from %d to %d",
					       optarg, OPT_SLICE_US_MIN, OPT_SLICE_US_MAX);
			break;
		case 'i':
			if (!parse_ulong(optarg, OPT_INTERVAL_S_MIN, OPT_INTERVAL_S_MAX,
					 &o->interval_s))
				return invalid(err, err_len,
					       "-i: '%s' is not an interval in seconds from %d to %d",
					       optarg, OPT_INTERVAL_S_MIN, OPT_INTERVAL_S_MAX);
			break;
		case 'P':
			o->scope = lookup_name(optarg, scope_names, ARRAY_SIZE(scope_names));
			if (o->scope < 0)
				return invalid(err, err_len,
					       "-P: '%s' is not a pull scope (llc, node or all)",
					       optarg);
			break;
		case OPT_SCAN:
			o->scan = lookup_name(optarg, scan_names, ARRAY_SIZE(scan_names));
			if (o->scan < 0)
				return invalid(err, err_len,
					       "--scan: '%s' is not a scan mode (mask or full)",
					       optarg);
			break;
		case OPT_NO_PUSH:
			o->push = false;
			break;
		case OPT_NO_PULL:
			o->pull = false;
			break;
		case OPT_NO_BUSY:
			o->busy = false;
			break;
		case OPT_NO_BUSY_GROUP:
			o->busy_group = false;
			break;
		case OPT_NO_SYNC:
			o->sync = false;
			break;
		case OPT_NO_WAKE_AFFINE:
			o->wake_affine = false;
			break;
		case OPT_NO_PREEMPT:
			o->preempt = false;
			break;
		case OPT_PREEMPT_TIMER:
			o->preempt_timer = true;
			break;
		case OPT_SLICE_SCALE:
			o->slice_scale = true;
			break;
		case OPT_WAKE_CREDIT:
			if (!parse_ulong(optarg, 0, OPT_SLICE_US_MAX, &o->wake_credit_us))
				return invalid(err, err_len,
					       "--wake-credit-us: '%s' is not a time in microseconds from 0 to %d",
					       optarg, OPT_SLICE_US_MAX);
			wake_credit_set = true;
			break;
		case OPT_NO_IDLE_GATE:
			o->idle_gate = false;
			break;
		case OPT_GATE_KICKED:
			o->gate_kicked = true;
			break;
		case OPT_NO_MISFIT:
			o->misfit = false;
			break;
		case OPT_CAPACITY:
			if (capacity_parse(&o->capacity, optarg, msg, sizeof(msg)))
				return invalid(err, err_len, "--capacity: %s", msg);
			break;
		case OPT_MIG_COST:
			if (!parse_ulong(optarg, 0, OPT_MIG_COST_US_MAX, &o->mig_cost_us))
				return invalid(err, err_len,
					       "--mig-cost-us: '%s' is not a time in microseconds from 0 to %d",
					       optarg, OPT_MIG_COST_US_MAX);
			break;
		case OPT_NO_QUEUED_WAKEUP:
			o->queued_wakeup = false;
			break;
		case OPT_PARTIAL:
			o->partial = true;
			break;
		case OPT_STATS_JSON:
			if (!*optarg)
				return invalid(err, err_len, "--stats-json: empty file name");
			o->stats_json = optarg;
			break;
		case OPT_SYSFS_ROOT:
			if (!*optarg)
				return invalid(err, err_len, "--sysfs-root: empty directory name");
			o->sysfs_root = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			return OPTIONS_HELP;
		case ':':
			return invalid(err, err_len, "%s needs a value",
				       option_name(argv, optind));
		default:
			return invalid(err, err_len, "unknown option '%s'",
				       option_name(argv, optind));
		}
	}
	if (optind < argc)
		return invalid(err, err_len, "unexpected argument '%s'", argv[optind]);
	if (!wake_credit_set)
		o->wake_credit_us = o->slice_us;
	return OPTIONS_RUN;
}
