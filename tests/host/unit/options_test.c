// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of loader/options.c: defaults, every option, every rejection,
 * and every option that takes a value against a table of hostile values.
 */
#include <string.h>

#include "options.h"
#include "scx_push.h"
#include "unit.h"

#define MAX_ARGS 16
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct options opts;
static char err[256];

/* Parse a space-separated command line ("" is an empty argument). */
static enum options_status parse(const char *line)
{
	static char buf[512];
	char *argv[MAX_ARGS] = { "scx_push" }, *tok;
	int argc = 1;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok(buf, " "); tok && argc < MAX_ARGS - 1; tok = strtok(NULL, " "))
		argv[argc++] = strcmp(tok, "''") ? tok : "";
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(&opts, argc, argv, err, sizeof(err));
}

static void expect_invalid(const char *line, const char *msg)
{
	enum options_status st = parse(line);

	CHECK(st == OPTIONS_INVALID && strstr(err, msg),
	      "'%s' is rejected with '%s' (got '%s')", line, msg, err);
}

/* Parse "scx_push OPT VAL": VAL is one argument, spaces and all. */
static enum options_status parse_pair(const char *opt, const char *val)
{
	char *argv[] = { "scx_push", (char *)opt, (char *)val, NULL };

	err[0] = '\0';
	return options_parse(&opts, 3, argv, err, sizeof(err));
}

/* Values no option takes: empty, signed, not decimal, padded, past ULONG_MAX. */
static const char *const bad_values[] = {
	"", "-1", "-0", "+1", "abc", "1e3", "0x10", " 5", "5 ",
	"99999999999999999999999",
};

/* Every option with a value, its rejection message and values out of its range. */
static const struct {
	const char *opt;
	const char *msg;
	const char *out_of_range[2];
} valued[] = {
	{ "-s",			"is not a slice in microseconds",	{ "0", "99" } },
	{ "--slice",		"is not a slice in microseconds",	{ "1000001", "4294967296" } },
	{ "-i",			"is not an interval in seconds",	{ "0", "3601" } },
	{ "--interval",		"is not an interval in seconds",	{ "3601", "18446744073709551615" } },
	{ "-P",			"is not a pull scope",			{ "LLC", "cpu" } },
	{ "--pull-scope",	"is not a pull scope",			{ "nodes", "all," } },
	{ "--scan",		"is not a scan mode",			{ "Mask", "none" } },
	{ "--mig-cost-us",	"is not a time in microseconds",	{ "1000001", "4294967296" } },
	{ "--wake-credit-us",	"is not a time in microseconds",	{ "1000001", "4294967296" } },
	{ "--capacity",		"--capacity: ",				{ "0-3:0", "0-3:1025" } },
};

static void test_bad_values(void)
{
	size_t nr_bad = ARRAY_SIZE(bad_values), i, v;

	for (i = 0; i < ARRAY_SIZE(valued); i++) {
		for (v = 0; v < nr_bad + 2; v++) {
			const char *val = v < nr_bad ? bad_values[v] :
					  valued[i].out_of_range[v - nr_bad];

			CHECK(parse_pair(valued[i].opt, val) == OPTIONS_INVALID &&
			      strstr(err, valued[i].msg),
			      "%s '%s' is rejected with '%s' (got '%s')",
			      valued[i].opt, val, valued[i].msg, err);
		}
	}
	CHECK(parse_pair("--stats-json", "") == OPTIONS_INVALID &&
	      strstr(err, "--stats-json: empty file name"), "--stats-json '' is rejected");
	CHECK(parse_pair("--sysfs-root", "") == OPTIONS_INVALID &&
	      strstr(err, "--sysfs-root: empty directory name"), "--sysfs-root '' is rejected");
}

/* No --capacity leaves every CPU at 0 (sysfs decides). */
static bool no_capacity(void)
{
	for (int cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++)
		if (opts.capacity.cap[cpu])
			return false;
	return true;
}

/* --no-misfit and --capacity (capacity_test covers the spec in full). */
static void test_capacity(void)
{
	CHECK(parse("") == OPTIONS_RUN && opts.misfit && no_capacity(),
	      "defaults: misfit handling, capacities from sysfs");
	CHECK(parse("--no-misfit") == OPTIONS_RUN && !opts.misfit && opts.idle_gate,
	      "--no-misfit turns misfit handling off alone");
	CHECK(parse("--capacity 0-3:512,4-7:1024") == OPTIONS_RUN && opts.misfit &&
	      opts.capacity.cap[0] == 512 && opts.capacity.cap[3] == 512 &&
	      opts.capacity.cap[4] == 1024 && opts.capacity.cap[7] == 1024 &&
	      !opts.capacity.cap[8], "--capacity 0-3:512,4-7:1024");
	CHECK(parse("--capacity=0,2:512,1,3:1024 --no-misfit") == OPTIONS_RUN && !opts.misfit &&
	      opts.capacity.cap[0] == 512 && opts.capacity.cap[1] == 1024 &&
	      opts.capacity.cap[2] == 512 && opts.capacity.cap[3] == 1024 &&
	      !opts.capacity.cap[4], "--capacity=0,2:512,1,3:1024: CPU lists with commas");
	CHECK(parse("--capacity 0-3:512 --capacity 4:256") == OPTIONS_RUN &&
	      !opts.capacity.cap[0] && opts.capacity.cap[4] == 256,
	      "the last --capacity replaces the first");
	expect_invalid("--capacity ''", "--capacity: empty, expected CPULIST:CAP[,CPULIST:CAP...]");
	expect_invalid("--capacity 0-3", "--capacity: '0-3' has no ':CAP'");
	expect_invalid("--capacity 0-x:512", "--capacity: '0-x' is not a list of CPUs below 1024");
	expect_invalid("--capacity 0-3:2048",
		       "--capacity: '2048' is not a capacity from 1 to 1024");
	expect_invalid("--capacity 0-3:512,3:1024", "--capacity: CPU 3 is listed twice");
	expect_invalid("--capacity 1024:512",
		       "--capacity: '1024' is not a list of CPUs below 1024");
	expect_invalid("--capacity", "--capacity needs a value");
	expect_invalid("--no-misfit=1", "--no-misfit=1");
}

int main(void)
{
	CHECK(parse("") == OPTIONS_RUN, "no options");
	CHECK(opts.slice_us == 3000 && opts.interval_s == 1 && opts.push && opts.pull &&
	      !opts.partial && !opts.verbose && !opts.stats_json &&
	      opts.scope == SCX_PUSH_SCOPE_ALL && opts.scan == SCX_PUSH_SCAN_MASK,
	      "defaults: 3 ms slice, 1 s interval, push and pull up to all nodes, masks");
	CHECK(opts.busy && opts.sync && opts.wake_affine && opts.preempt &&
	      opts.mig_cost_us == 500 && opts.idle_gate && !opts.gate_kicked,
	      "defaults: busy balance, sync placement, wake affine, preemption, 500 us migration cost, idle gate, kicked pulls not gated");
	CHECK(parse("--gate-kicked") == OPTIONS_RUN && opts.gate_kicked && opts.idle_gate,
	      "--gate-kicked gates kicked pulls, the idle gate stays on");
	CHECK(parse("--no-busy --no-sync --no-wake-affine --no-preempt --mig-cost-us 0 --no-idle-gate") ==
	      OPTIONS_RUN && !opts.busy && !opts.sync && !opts.wake_affine && !opts.preempt &&
	      opts.mig_cost_us == 0 && !opts.idle_gate && opts.push && opts.pull,
	      "the v2 ablations, each off alone");
	CHECK(parse("") == OPTIONS_RUN && opts.busy_group, "default: group moves");
	CHECK(parse("--no-busy-group") == OPTIONS_RUN && !opts.busy_group && opts.busy,
	      "--no-busy-group turns group moves off, not the busy balance");
	CHECK(parse("") == OPTIONS_RUN && opts.queued_wakeup, "default: queued wakeups");
	CHECK(parse("") == OPTIONS_RUN && !opts.preempt_timer, "default: no preempt timer");
	CHECK(parse("--preempt-timer") == OPTIONS_RUN && opts.preempt_timer &&
	      opts.preempt && opts.queued_wakeup, "--preempt-timer turns the timer on alone");
	expect_invalid("--preempt-timer=1", "--preempt-timer=1");
	CHECK(parse("--no-queued-wakeup") == OPTIONS_RUN && !opts.queued_wakeup &&
	      opts.idle_gate && opts.preempt, "--no-queued-wakeup turns queued wakeups off alone");
	expect_invalid("--no-queued-wakeup=1", "--no-queued-wakeup=1");
	CHECK(parse("--mig-cost-us=1000000") == OPTIONS_RUN && opts.mig_cost_us == 1000000,
	      "--mig-cost-us: the top of its range");
	CHECK(parse("") == OPTIONS_RUN && !opts.slice_scale && opts.wake_credit_us == 3000,
	      "defaults: fixed slices, a wake credit of one slice");
	CHECK(parse("-s 20000") == OPTIONS_RUN && opts.wake_credit_us == 20000,
	      "the wake credit follows -s");
	CHECK(parse("--wake-credit-us 1500 -s 20000 --slice-scale") == OPTIONS_RUN &&
	      opts.wake_credit_us == 1500 && opts.slice_scale && opts.slice_us == 20000,
	      "--wake-credit-us before -s keeps its value; --slice-scale");
	CHECK(parse("--wake-credit-us=0") == OPTIONS_RUN && opts.wake_credit_us == 0,
	      "--wake-credit-us: the bottom of its range");

	CHECK(parse("-s 500 -i 2 -P node --no-push --scan full --partial --stats-json /tmp/s.json -v")
	      == OPTIONS_RUN, "every option at once");
	CHECK(opts.slice_us == 500 && opts.interval_s == 2 && opts.scope == SCX_PUSH_SCOPE_NODE &&
	      !opts.push && opts.pull && opts.scan == SCX_PUSH_SCAN_FULL && opts.partial &&
	      opts.verbose && !strcmp(opts.stats_json, "/tmp/s.json"),
	      "every option at once: values");
	CHECK(parse("--slice=100 --interval=3600 --pull-scope=llc --no-pull") == OPTIONS_RUN &&
	      opts.slice_us == 100 && opts.interval_s == 3600 &&
	      opts.scope == SCX_PUSH_SCOPE_LLC && !opts.pull && opts.push,
	      "long forms and the limits of the ranges");
	CHECK(parse("-s 1000000") == OPTIONS_RUN && opts.slice_us == 1000000, "1 s slice");
	CHECK(parse("--sysfs-root /tmp/fixture") == OPTIONS_RUN &&
	      !strcmp(opts.sysfs_root, "/tmp/fixture"), "hidden --sysfs-root");
	test_capacity();
	CHECK(parse("-h") == OPTIONS_HELP, "-h asks for help");
	CHECK(parse("--help") == OPTIONS_HELP, "--help asks for help");

	expect_invalid("-s 99", "-s: '99' is not a slice in microseconds from 100 to 1000000");
	expect_invalid("-s 1000001", "'1000001' is not a slice");
	expect_invalid("-s 500us", "'500us' is not a slice");
	expect_invalid("-i 0", "-i: '0' is not an interval in seconds from 1 to 3600");
	expect_invalid("-i 3601", "'3601' is not an interval");
	expect_invalid("-i 0.5", "'0.5' is not an interval");
	expect_invalid("-P cpu", "-P: 'cpu' is not a pull scope (llc, node or all)");
	expect_invalid("--scan some", "--scan: 'some' is not a scan mode (mask or full)");
	expect_invalid("--mig-cost-us 1ms",
		       "--mig-cost-us: '1ms' is not a time in microseconds from 0 to 1000000");
	expect_invalid("--wake-credit-us 1ms",
		       "--wake-credit-us: '1ms' is not a time in microseconds from 0 to 1000000");
	expect_invalid("--slice-scale=1", "--slice-scale=1");
	expect_invalid("--no-busy=1", "--no-busy=1");
	expect_invalid("--bogus", "unknown option '--bogus'");
	expect_invalid("-x", "unknown option '-x'");
	expect_invalid("-vx", "unknown option '-x'");
	expect_invalid("-s", "-s needs a value");
	expect_invalid("--scan", "--scan needs a value");
	expect_invalid("extra", "unexpected argument 'extra'");
	test_bad_values();
	return unit_done();
}
