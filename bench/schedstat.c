// SPDX-License-Identifier: GPL-2.0
/*
 * schedstat: the scheduler's statistics over the run of one command,
 * recorded, reported and compared, in the manner of perf sched stats: a
 * snapshot of /proc/schedstat before and after the command, nothing traced
 * while it runs.
 *
 *   schedstat record [-o FILE] [--scx-json FILE [--scx-pid PID]] -- COMMAND...
 *   schedstat report [--kv] [FILE]
 *   schedstat diff FILE_A FILE_B
 *
 * record runs COMMAND, waits for it and exits with its exit status. Around
 * it, it reads /proc/schedstat (versions 15, 16 and 17) and, with
 * --scx-json, the "stats" object of the file scx_push --stats-json keeps;
 * with --scx-pid it first asks that scx_push for fresh totals (SIGUSR1) and
 * waits until the file is replaced. Before version 17 the kernel prints no
 * domain names: record takes them from debugfs (sched/domains/cpuN/domainM/
 * name, there when sched/verbose is Y) or calls the levels domain0, domain1...
 * The schedstats sysctl (kernel.sched_schedstats) must be 1, or schedule(),
 * wakeup and load_balance() counts stay 0; record warns when it is 0.
 *
 * report prints per domain level, summed over the CPUs, the load_balance()
 * calls per idle type, imbalance, tasks pulled and failures; the cpu lines
 * summed (schedule(), wakeups local and remote, run and wait time); and
 * scx_push's pulls and busy moves per level next to the sched domain level
 * at the same distance (LLC ~ MC, node ~ PKG, remote ~ NUMA). diff prints
 * the same rows for two records side by side with the change in %; the
 * records must come from the same machine shape and schedstat version.
 * report --kv prints the report's counters for programs (the bench's counter
 * columns): one "KEY VALUE" line each, in raw units, see print_kv().
 *
 * The record (default schedstat.data) is text, one item per line, in this
 * order; it holds the deltas over the run, per CPU and per domain:
 *
 *   schedstat-data 1              the record format
 *   command hackbench -g 4        the command (control characters as '?')
 *   exit-status 0                 its exit status, 128 + N if signal N killed it
 *   elapsed-ns 2034110597         its run time
 *   cpus 2                        the machine: CPUs,
 *   domains 2 2                   sched domain levels of each CPU
 *   version 16                    /proc/schedstat's version (field layout)
 *   timestamp 509                 jiffies,
 *   cpu0 F1 ... F9                a cpu line of /proc/schedstat,
 *   domain0 NAME MASK F1 ... FN   its domain lines, with a name ("-" if
 *   ...                           unknown) before the mask in every version
 *   scx pull_llc 31               scx_push's counters (with --scx-json)
 *   end                           a record without it is truncated
 *
 * Bad input (a missing or truncated file, an unknown version, a field that
 * is not a number, a missing line, records of different machines) is an
 * error that names the file and the line, with exit status 1; record then
 * leaves no output file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "schedstat.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum {
	SCX_WAIT_MS	= 5000,	/* for scx_push to rewrite its JSON after SIGUSR1 */
	ERR_LEN		= 512,
	PATH_LEN	= 4096,
	MAX_ROWS	= 32,			/* of a table: 15 at most */
	MAX_TABLES	= SS_MAX_LEVELS + 4,	/* run, CPUs, domains, 2 of scx_push */
};

static const char usage_text[] =
"usage: schedstat record [-o FILE] [--scx-json FILE [--scx-pid PID]] -- COMMAND...\n"
"       schedstat report [--kv] [FILE]\n"
"       schedstat diff FILE_A FILE_B\n"
"\n"
"Scheduler statistics over the run of COMMAND: /proc/schedstat (versions\n"
"15-17) and scx_push's counters before and after, as deltas per CPU and\n"
"sched domain in one text file (default schedstat.data).\n"
"\n"
"  record    run COMMAND, write the record, exit with COMMAND's status\n"
"    -o, --output FILE   the record (default schedstat.data)\n"
"    --scx-json FILE     also record the counters of scx_push --stats-json FILE\n"
"    --scx-pid PID       ask scx_push PID (SIGUSR1) to rewrite FILE before each read\n"
"  report    load balancing per domain level, the CPUs' totals, scx_push per\n"
"            level next to the matching domain level (LLC ~ MC, node ~ PKG,\n"
"            remote ~ NUMA)\n"
"    --kv                the same counters as KEY VALUE lines in raw units\n"
"  diff      the report's rows of two records side by side, change in %\n"
"\n"
"Needs kernel.sched_schedstats=1. Errors name the file and line, exit 1.\n"
"The record format is described at the top of bench/schedstat.c.\n";

static void usage(void)
{
	fputs(usage_text, stdout);
}

static __attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...)
{
	va_list ap;

	fputs("schedstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int bad_usage(const char *what)
{
	error("%s (schedstat -h for help)", what);
	return 1;
}

/* The input readers of schedstat_parse.c, on a file named by its path. */
static FILE *open_input(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		error("%s: %s", path, strerror(errno));
	return f;
}

static int read_schedstat(const char *path, struct ss_snapshot *s)
{
	char err[ERR_LEN];
	FILE *f = open_input(path);
	int ret;

	if (!f)
		return -1;
	ret = ss_read_schedstat(f, path, s, err, sizeof(err));
	fclose(f);
	return ret ? error("%s", err) : 0;
}

static int read_scx_json(const char *path, struct ss_scx *x)
{
	char err[ERR_LEN];
	FILE *f = open_input(path);
	int ret;

	if (!f)
		return -1;
	ret = ss_read_scx_json(f, path, x, err, sizeof(err));
	fclose(f);
	return ret ? error("%s", err) : 0;
}

static int read_record(const char *path, struct ss_record *r)
{
	char err[ERR_LEN];
	FILE *f = open_input(path);
	int ret;

	if (!f)
		return -1;
	ret = ss_read_record(f, path, r, err, sizeof(err));
	fclose(f);
	return ret ? error("%s", err) : 0;
}

/* record */

struct record_opts {
	const char *output;
	const char *scx_json;
	pid_t scx_pid;
	const char *root;	/* hidden --root: /proc and /sys under it, for tests */
	char **command;
};

enum record_long_only {
	OPT_SCX_JSON = 0x100,
	OPT_SCX_PID,
	OPT_ROOT,
};

static const struct option record_options[] = {
	{ "output",	required_argument,	NULL, 'o' },
	{ "scx-json",	required_argument,	NULL, OPT_SCX_JSON },
	{ "scx-pid",	required_argument,	NULL, OPT_SCX_PID },
	{ "root",	required_argument,	NULL, OPT_ROOT },
	{ "help",	no_argument,		NULL, 'h' },
	{ }
};

static bool parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > INT32_MAX)
		return false;
	*pid = v;
	return true;
}

/* 0, 1 after -h, or -1 after an error. */
static int parse_record_opts(int argc, char **argv, struct record_opts *o)
{
	int opt;

	*o = (struct record_opts){ .output = "schedstat.data", .root = "" };
	/* '+': the options end at COMMAND, whose own options stay its own. */
	while ((opt = getopt_long(argc, argv, "+o:h", record_options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_SCX_JSON:
			o->scx_json = optarg;
			break;
		case OPT_SCX_PID:
			if (!parse_pid(optarg, &o->scx_pid))
				return error("--scx-pid: '%s' is not a process id", optarg);
			break;
		case OPT_ROOT:
			o->root = optarg;
			break;
		case 'h':
			usage();
			return 1;
		default:
			return error("record: bad option (schedstat -h for help)");
		}
	}
	if (!*o->output || (o->scx_json && !*o->scx_json))
		return error("record: empty file name");
	if (o->scx_pid && !o->scx_json)
		return error("record: --scx-pid needs --scx-json");
	if (optind == argc)
		return error("record: no COMMAND (schedstat -h for help)");
	o->command = argv + optind;
	return 0;
}

/* The schedstats sysctl is off: say so, the counts will not move. */
static void warn_schedstats_off(const char *root)
{
	char path[PATH_LEN], c = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/sched_schedstats", root);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fread(&c, 1, 1, f) == 1 && c == '0')
		fprintf(stderr,
			"schedstat: warning: kernel.sched_schedstats is 0: schedule(), wakeup and load_balance() counts stay 0 (echo 1 >%s)\n",
			path);
	fclose(f);
}

/*
 * SIGUSR1 makes scx_push write its --stats-json file anew, to a temporary
 * file renamed over the old one: wait for a new inode. A periodic rewrite
 * that lands between the stat() and the kill() passes for the answer; it is
 * older than the signal by that window only, nothing for a whole run.
 */
static int refresh_scx_json(const struct record_opts *o)
{
	struct stat st;
	ino_t old = stat(o->scx_json, &st) ? 0 : st.st_ino;

	if (kill(o->scx_pid, SIGUSR1))
		return error("--scx-pid %d: %s", (int)o->scx_pid, strerror(errno));
	for (int ms = 0; ms < SCX_WAIT_MS; ms += 10) {
		if (!stat(o->scx_json, &st) && st.st_ino != old)
			return 0;
		usleep(10000);
	}
	return error("%s: scx_push (pid %d) did not rewrite it within %d ms of SIGUSR1",
		     o->scx_json, (int)o->scx_pid, SCX_WAIT_MS);
}

static int read_scx(const struct record_opts *o, struct ss_scx *x)
{
	if (o->scx_pid && refresh_scx_json(o))
		return -1;
	return read_scx_json(o->scx_json, x);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The child: default signals, exec; errno to the parent if exec fails. */
static void exec_command(char **argv, int report_fd,
			 const struct sigaction *old_int, const struct sigaction *old_quit)
{
	int err;

	sigaction(SIGINT, old_int, NULL);
	sigaction(SIGQUIT, old_quit, NULL);
	execvp(argv[0], argv);
	err = errno;
	if (write(report_fd, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

static int wait_command(pid_t pid, unsigned int *status)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 0;
}

/*
 * Runs argv to its end; its exit status in *status. Like system(), ignores
 * SIGINT and SIGQUIT meanwhile: ^C ends the command, and the record is still
 * written. A command that cannot be executed is an error (its errno comes
 * back through a close-on-exec pipe), not a run.
 */
static int run_command(char **argv, unsigned int *status)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int fd[2], err, ret;
	pid_t pid;
	ssize_t n;

	if (pipe2(fd, O_CLOEXEC))
		return error("pipe: %s", strerror(errno));
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0)
		exec_command(argv, fd[1], &old_int, &old_quit);
	close(fd[1]);
	if (pid < 0) {
		ret = error("fork: %s", strerror(errno));
	} else {
		do
			n = read(fd[0], &err, sizeof(err));
		while (n < 0 && errno == EINTR);
		ret = wait_command(pid, status);
		if (!ret && n == sizeof(err))
			ret = error("cannot run %s: %s", argv[0], strerror(err));
	}
	close(fd[0]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return ret;
}

/* Appends word to s, in single quotes if a shell would split or expand it. */
static void append_word(char *s, const char *word)
{
	char *end;

	if (*word && !word[strcspn(word, " \t\n'\"\\$`;&|<>()*?[]{}~#!")]) {
		strcat(s, word);
		return;
	}
	end = s + strlen(s);
	*end++ = '\'';
	for (; *word; word++) {
		if (*word == '\'')
			end = stpcpy(end, "'\\''");
		else
			*end++ = *word;
	}
	strcpy(end, "'");
}

/* The command line as one string a shell would split into argv again. */
static char *join_words(char **argv)
{
	size_t len = 1;
	char *s;

	/* Quoting makes a word at most 4 times as long, plus its quotes. */
	for (char **a = argv; *a; a++)
		len += 4 * strlen(*a) + 3;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (char **a = argv; *a; a++) {
		if (a != argv)
			strcat(s, " ");
		append_word(s, *a);
	}
	return s;
}

/* Before version 17, the domain names from debugfs, where there are any. */
static int read_domain_names(const char *root, struct ss_snapshot *s)
{
	char path[PATH_LEN], err[ERR_LEN];

	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		struct ss_cpu *c = &s->cpu[i];

		for (unsigned int l = 0; l < c->nr_domains; l++) {
			snprintf(path, sizeof(path),
				 "%s/sys/kernel/debug/sched/domains/cpu%u/domain%u/name",
				 root, c->id, l);
			if (ss_read_domain_name(path, c->dom[l].name, err, sizeof(err)) < 0)
				return error("%s", err);
		}
	}
	return 0;
}

/* Snapshots before and after the run, and their deltas. */
struct run {
	struct ss_snapshot before, after;
	struct ss_scx scx_before, scx_after;
};

static int run_and_measure(const struct record_opts *o, const char *schedstat,
			   struct run *run, struct ss_record *rec)
{
	uint64_t start;

	if ((o->scx_json && read_scx(o, &run->scx_before)) ||
	    read_schedstat(schedstat, &run->before))
		return -1;
	start = now_ns();
	if (run_command(o->command, &rec->exit_status))
		return -1;
	rec->elapsed_ns = now_ns() - start;
	if (read_schedstat(schedstat, &run->after) ||
	    (o->scx_json && read_scx(o, &run->scx_after)))
		return -1;
	return 0;
}

static int compute_deltas(const struct record_opts *o, const char *schedstat,
			  const struct run *run, struct ss_record *rec)
{
	char err[ERR_LEN];

	if (ss_snapshot_delta(&rec->st, &run->before, &run->after, schedstat,
			      err, sizeof(err)))
		return error("%s", err);
	if (rec->st.version < 17 && read_domain_names(o->root, &rec->st))
		return -1;
	if (o->scx_json && ss_scx_delta(&rec->scx, &run->scx_before, &run->scx_after,
					o->scx_json, err, sizeof(err)))
		return error("%s", err);
	rec->has_scx = !!o->scx_json;
	rec->command = join_words(o->command);
	return rec->command ? 0 : error("out of memory");
}

/*
 * The record goes to OUTPUT.tmp, opened before the run, and is renamed to
 * OUTPUT when complete; when !ok (an error before), the file is removed.
 */
static int close_output(FILE *f, const char *tmp, const char *output,
			const struct ss_record *rec, bool ok)
{
	bool bad = ok && ss_write_record(f, rec);

	bad |= fclose(f) != 0;
	if (ok && !bad && !rename(tmp, output))
		return 0;
	if (ok)
		error("cannot write %s: %s", output, strerror(errno));
	unlink(tmp);
	return -1;
}

static int cmd_record(int argc, char **argv)
{
	char schedstat[PATH_LEN], tmp[PATH_LEN];
	struct ss_record rec = { };
	struct record_opts o;
	struct run run = { };
	bool ok;
	FILE *f;
	int ret;

	ret = parse_record_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 1;
	snprintf(schedstat, sizeof(schedstat), "%s/proc/schedstat", o.root);
	snprintf(tmp, sizeof(tmp), "%s.tmp", o.output);
	f = fopen(tmp, "w");
	if (!f) {
		error("cannot write %s: %s", tmp, strerror(errno));
		return 1;
	}
	warn_schedstats_off(o.root);
	ok = !run_and_measure(&o, schedstat, &run, &rec) &&
	     !compute_deltas(&o, schedstat, &run, &rec);
	ret = close_output(f, tmp, o.output, &rec, ok) ? 1 : (int)rec.exit_status;
	ss_snapshot_free(&run.before);
	ss_snapshot_free(&run.after);
	ss_record_free(&rec);
	return ret;
}

/* report and diff: the same tables of rows, one or two values a row */

enum unit {
	UNIT_COUNT,
	UNIT_MS,		/* a value in ns shown in ms */
	UNIT_S,			/* a value in ns shown in s */
};

struct row {
	char label[64];
	const char *key;	/* for report --kv; NULL in the scx_push tables */
	uint64_t v;
	enum unit unit;
	bool present;		/* the record has this value */
};

struct table {
	char title[128];
	char key[24];		/* prefix of its rows' keys: run, cpu, domainN */
	char note[128];
	unsigned int nr;
	struct row row[MAX_ROWS];
};

struct tables {
	unsigned int nr;
	struct table t[MAX_TABLES];
};

static __attribute__((format(printf, 3, 4)))
struct table *new_table(struct tables *ts, const char *key, const char *fmt, ...)
{
	struct table *t = &ts->t[ts->nr++];
	va_list ap;

	memset(t, 0, sizeof(*t));
	snprintf(t->key, sizeof(t->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(t->title, sizeof(t->title), fmt, ap);
	va_end(ap);
	return t;
}

static __attribute__((format(printf, 6, 7)))
void add_row(struct table *t, bool present, enum unit unit, uint64_t v,
	     const char *key, const char *fmt, ...)
{
	struct row *r = &t->row[t->nr++];
	va_list ap;

	r->key = key;

	va_start(ap, fmt);
	vsnprintf(r->label, sizeof(r->label), fmt, ap);
	va_end(ap);
	r->present = present;
	r->unit = unit;
	r->v = present ? v : 0;
}

static void run_table(struct tables *ts, const struct ss_record *r)
{
	struct table *t = new_table(ts, "run", "run");

	add_row(t, true, UNIT_S, r->elapsed_ns, "elapsed_ns", "elapsed time (s)");
	add_row(t, true, UNIT_COUNT, r->st.timestamp, "jiffies", "elapsed jiffies");
}

static uint64_t sum_cpu(const struct ss_record *r, enum ss_cpu_field field)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < r->st.nr_cpus; i++)
		sum += r->st.cpu[i].v[field];
	return sum;
}

static void cpu_table(struct tables *ts, const struct ss_record *r)
{
	struct table *t = new_table(ts, "cpu", "CPUs (cpu lines), summed over %u CPUs", r->st.nr_cpus);
	uint64_t ttwu = sum_cpu(r, CPU_TTWU), local = sum_cpu(r, CPU_TTWU_LOCAL);

	add_row(t, true, UNIT_COUNT, sum_cpu(r, CPU_SCHED), "sched_count", "schedule() calls");
	add_row(t, true, UNIT_COUNT, sum_cpu(r, CPU_GOIDLE), "sched_goidle",
		"schedule() calls that left the CPU idle");
	add_row(t, true, UNIT_COUNT, sum_cpu(r, CPU_YLD), "yld_count", "sched_yield() calls");
	add_row(t, true, UNIT_COUNT, ttwu, "ttwu_count", "wakeups (try_to_wake_up())");
	add_row(t, true, UNIT_COUNT, local, "ttwu_local", "wakeups on the waking CPU (local)");
	/* ttwu_local <= ttwu_count in the kernel; a 32-bit wrap can skew them. */
	add_row(t, true, UNIT_COUNT, ttwu > local ? ttwu - local : 0, "ttwu_remote",
		"wakeups of another CPU (remote)");
	add_row(t, true, UNIT_MS, sum_cpu(r, CPU_RUN_NS), "run_ns", "run time (ms)");
	add_row(t, true, UNIT_MS, sum_cpu(r, CPU_WAIT_NS), "wait_ns",
		"wait time on a runqueue, run_delay (ms)");
	add_row(t, true, UNIT_COUNT, sum_cpu(r, CPU_SLICES), "timeslices", "timeslices");
}

/* A load_balance() counter of domain level l summed over the CPUs that have it. */
static uint64_t sum_lb(const struct ss_record *r, unsigned int l,
		       enum ss_idle_type type, enum ss_lb_field field)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < r->st.nr_cpus; i++)
		if (l < r->st.cpu[i].nr_domains)
			sum += ss_lb(r->st.version, &r->st.cpu[i].dom[l], type, field);
	return sum;
}

/* ... over all three idle types */
static uint64_t sum_lb_all(const struct ss_record *r, unsigned int l,
			   enum ss_lb_field field)
{
	uint64_t sum = 0;

	for (enum ss_idle_type type = 0; type < SS_NR_IDLE; type++)
		sum += sum_lb(r, l, type, field);
	return sum;
}

static uint64_t sum_tail(const struct ss_record *r, unsigned int l,
			 enum ss_tail_field field)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < r->st.nr_cpus; i++)
		if (l < r->st.cpu[i].nr_domains)
			sum += ss_tail(r->st.version, &r->st.cpu[i].dom[l], field);
	return sum;
}

/* The name of domain level l: the first CPU's that names it, or "". */
static const char *level_name(const struct ss_record *r, unsigned int l)
{
	for (unsigned int i = 0; i < r->st.nr_cpus; i++)
		if (l < r->st.cpu[i].nr_domains && *r->st.cpu[i].dom[l].name)
			return r->st.cpu[i].dom[l].name;
	return "";
}

static unsigned int max_levels(const struct ss_snapshot *s)
{
	unsigned int max = 0;

	for (unsigned int i = 0; i < s->nr_cpus; i++)
		if (s->cpu[i].nr_domains > max)
			max = s->cpu[i].nr_domains;
	return max;
}

static unsigned int cpus_with_level(const struct ss_snapshot *s, unsigned int l)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_cpus; i++)
		n += l < s->cpu[i].nr_domains;
	return n;
}

static const struct {
	enum ss_lb_field field;
	const char *key;
	const char *label;
} imbalance_rows[] = {
	{ LB_IMBALANCE,		"lb_imbalance",		"imbalance found" },
	{ LB_IMB_LOAD,		"lb_imbalance_load",	"imbalance found in load" },
	{ LB_IMB_UTIL,		"lb_imbalance_util",	"imbalance found in utilization" },
	{ LB_IMB_TASK,		"lb_imbalance_task",	"imbalance found in tasks" },
	{ LB_IMB_MISFIT,	"lb_imbalance_misfit",	"imbalance found of misfit tasks" },
};

static void domain_table(struct tables *ts, const struct ss_record *r, unsigned int l)
{
	const char *name = level_name(r, l);
	char key[24];
	struct table *t;

	snprintf(key, sizeof(key), "domain%u", l);
	t = new_table(ts, key, "domain%u%s%s, summed over %u CPUs", l,
		      *name ? " " : "", name, cpus_with_level(&r->st, l));

	add_row(t, true, UNIT_COUNT, sum_lb(r, l, SS_BUSY, LB_COUNT), "lb_busy",
		"load_balance() calls, busy");
	add_row(t, true, UNIT_COUNT, sum_lb(r, l, SS_IDLE, LB_COUNT), "lb_idle",
		"load_balance() calls, idle");
	add_row(t, true, UNIT_COUNT, sum_lb(r, l, SS_NEWIDLE, LB_COUNT), "lb_newidle",
		"load_balance() calls, newly idle");
	add_row(t, true, UNIT_COUNT, sum_lb_all(r, l, LB_BALANCED), "lb_balanced", "found it balanced");
	add_row(t, true, UNIT_COUNT, sum_lb_all(r, l, LB_FAILED), "lb_failed",
		"failed to move a task");
	for (size_t i = 0; i < ARRAY_SIZE(imbalance_rows); i++)
		if (ss_has_lb(r->st.version, imbalance_rows[i].field))
			add_row(t, true, UNIT_COUNT, sum_lb_all(r, l, imbalance_rows[i].field),
				imbalance_rows[i].key, "%s", imbalance_rows[i].label);
	add_row(t, true, UNIT_COUNT, sum_lb_all(r, l, LB_GAINED), "lb_gained",
		"tasks pulled (gained)");
	add_row(t, true, UNIT_COUNT, sum_lb_all(r, l, LB_HOT_GAINED), "lb_hot_gained",
		"tasks pulled while cache-hot");
	add_row(t, true, UNIT_COUNT, sum_tail(r, l, ALB_PUSHED), "alb_pushed",
		"tasks moved by active balancing");
	add_row(t, true, UNIT_COUNT, sum_tail(r, l, TTWU_WAKE_REMOTE), "ttwu_wake_remote",
		"wakeups of a task last on another CPU");
	add_row(t, true, UNIT_COUNT, sum_tail(r, l, TTWU_MOVE_AFFINE), "ttwu_move_affine",
		"wakeups moved to the waking CPU");
}

static bool scx_value(const struct ss_record *r, const char *name, uint64_t *v)
{
	for (unsigned int i = 0; r->has_scx && i < r->scx.nr; i++) {
		if (!strcmp(r->scx.name[i], name)) {
			*v = r->scx.v[i];
			return true;
		}
	}
	return false;
}

static void scx_row(struct table *t, const struct ss_record *r, const char *prefix,
		    const char *name)
{
	uint64_t v = 0;
	bool present = scx_value(r, name, &v);

	add_row(t, present, UNIT_COUNT, v, NULL, "%s%s", prefix, name);
}

/* scx_push's levels and the sched domain names at the same distance. */
static const struct {
	const char *level;
	const char *domains[2];
} scx_levels[] = {
	{ "llc",	{ "MC" } },
	{ "node",	{ "PKG", "DIE" } },	/* DIE: PKG before 6.9 */
	{ "remote",	{ "NUMA" } },
};

/*
 * The domain levels named like scx_push level i, as a mask of levels;
 * their name in *name.
 */
static unsigned int matching_levels(const struct ss_record *r, size_t i, const char **name)
{
	unsigned int mask = 0, nr = max_levels(&r->st);

	for (unsigned int l = 0; l < nr; l++) {
		for (size_t k = 0; k < ARRAY_SIZE(scx_levels[i].domains); k++) {
			const char *d = scx_levels[i].domains[k];

			if (d && !strcmp(level_name(r, l), d)) {
				mask |= 1U << l;
				*name = d;
			}
		}
	}
	return mask;
}

/* A sum over the domain levels in mask of one load_balance() counter. */
static uint64_t sum_levels(const struct ss_record *r, unsigned int mask, enum ss_lb_field field)
{
	uint64_t sum = 0;

	for (unsigned int l = 0; l < SS_MAX_LEVELS; l++)
		if (mask & (1U << l))
			sum += sum_lb_all(r, l, field);
	return sum;
}

static bool has_domain_names(const struct ss_record *r)
{
	for (unsigned int l = 0; l < max_levels(&r->st); l++)
		if (*level_name(r, l))
			return true;
	return false;
}

static void scx_level_table(struct tables *ts, const struct ss_record *r)
{
	struct table *t = new_table(ts, "", "%s",
		"scx_push per level, next to the domain level at that distance (LLC ~ MC, node ~ PKG, remote ~ NUMA)");
	char counter[SS_NAME_LEN], prefix[32];

	if (!has_domain_names(r))
		snprintf(t->note, sizeof(t->note), "%s",
			 "(no domain names: schedstat 17 has them, 15 and 16 in debugfs with sched/verbose)");
	for (size_t i = 0; i < ARRAY_SIZE(scx_levels); i++) {
		const char *name = "";
		unsigned int mask = matching_levels(r, i, &name);

		snprintf(prefix, sizeof(prefix), "%s: ", scx_levels[i].level);
		snprintf(counter, sizeof(counter), "pull_%s", scx_levels[i].level);
		scx_row(t, r, prefix, counter);
		snprintf(counter, sizeof(counter), "busy_%s", scx_levels[i].level);
		scx_row(t, r, prefix, counter);
		add_row(t, mask, UNIT_COUNT, sum_levels(r, mask, LB_COUNT), NULL,
			"%s ~ %s: load_balance() calls", scx_levels[i].level, name);
		add_row(t, mask, UNIT_COUNT, sum_levels(r, mask, LB_GAINED), NULL,
			"%s ~ %s: tasks pulled (gained)", scx_levels[i].level, name);
	}
}

static const char *const scx_others[] = {
	"push_ok", "push_move", "pull_scan", "pull_gated", "mask_set", "mask_clear",
	"sync_wake", "preempt",
};

static void scx_other_table(struct tables *ts, const struct ss_record *r)
{
	struct table *t = new_table(ts, "", "scx_push, other counters");

	for (size_t i = 0; i < ARRAY_SIZE(scx_others); i++)
		scx_row(t, r, "", scx_others[i]);
}

/*
 * Every table of r, in the same order and shape for any record of a
 * machine; the scx_push tables when r, or the record it is compared with,
 * has scx_push's counters.
 */
static void build_tables(struct tables *ts, const struct ss_record *r, bool scx)
{
	ts->nr = 0;
	run_table(ts, r);
	cpu_table(ts, r);
	for (unsigned int l = 0; l < max_levels(&r->st); l++)
		domain_table(ts, r, l);
	if (!scx)
		return;
	scx_level_table(ts, r);
	scx_other_table(ts, r);
}

static void format_value(char *buf, size_t len, const struct row *r)
{
	if (!r->present)
		snprintf(buf, len, "-");
	else if (r->unit == UNIT_MS)
		snprintf(buf, len, "%.3f", r->v / 1e6);
	else if (r->unit == UNIT_S)
		snprintf(buf, len, "%.3f", r->v / 1e9);
	else
		snprintf(buf, len, "%llu", (unsigned long long)r->v);
}

/* "2 CPUs, 3 domain levels each": the machine a record comes from. */
static void format_shape(char *buf, size_t len, const struct ss_snapshot *s)
{
	unsigned int min = SS_MAX_LEVELS, max = max_levels(s);

	for (unsigned int i = 0; i < s->nr_cpus; i++)
		if (s->cpu[i].nr_domains < min)
			min = s->cpu[i].nr_domains;
	if (min == max)
		snprintf(buf, len, "%u CPUs, %u domain levels each", s->nr_cpus, max);
	else
		snprintf(buf, len, "%u CPUs, %u to %u domain levels", s->nr_cpus, min, max);
}

static bool table_present(const struct table *t)
{
	for (unsigned int i = 0; i < t->nr; i++)
		if (t->row[i].present)
			return true;
	return false;
}

static void print_title(const struct table *t)
{
	printf("\n%s\n", t->title);
	if (*t->note)
		printf("  %s\n", t->note);
}

static void print_report(const char *path, const struct ss_record *r,
			 const struct tables *ts)
{
	char shape[128], value[32];

	format_shape(shape, sizeof(shape), &r->st);
	printf("schedstat report: %s\n", path);
	printf("command      %s\n", r->command);
	printf("exit status  %u\n", r->exit_status);
	printf("machine      %s\n", shape);
	printf("schedstat    version %u\n", r->st.version);
	for (unsigned int i = 0; i < ts->nr; i++) {
		const struct table *t = &ts->t[i];

		if (!table_present(t))
			continue;
		print_title(t);
		for (unsigned int k = 0; k < t->nr; k++) {
			if (!t->row[k].present)
				continue;
			format_value(value, sizeof(value), &t->row[k]);
			printf("  %-44s %14s\n", t->row[k].label, value);
		}
	}
}

/*
 * report --kv: the rows of the run, CPU and domain tables as "TABLE.KEY
 * VALUE" in raw units (ns, counts), each level's name as "domainN.name NAME"
 * ("-" when unknown, the one value that is not a number), then every scx_push
 * counter of the record as "scx.NAME VALUE", for programs (bench/summarize.py).
 */
static void print_kv(const struct ss_record *r, const struct tables *ts)
{
	printf("exit_status %u\n", r->exit_status);
	for (unsigned int l = 0; l < max_levels(&r->st); l++)
		printf("domain%u.name %s\n", l, *level_name(r, l) ? level_name(r, l) : "-");
	for (unsigned int i = 0; i < ts->nr; i++)
		for (unsigned int k = 0; k < ts->t[i].nr; k++)
			printf("%s.%s %llu\n", ts->t[i].key, ts->t[i].row[k].key,
			       (unsigned long long)ts->t[i].row[k].v);
	for (unsigned int i = 0; r->has_scx && i < r->scx.nr; i++)
		printf("scx.%s %llu\n", r->scx.name[i], (unsigned long long)r->scx.v[i]);
}

static int cmd_report(int argc, char **argv)
{
	static struct tables ts;
	const char *path = "schedstat.data";
	struct ss_record r;
	bool kv = false;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--kv")) {
		kv = true;
		argc--;
		argv++;
	}
	if (argc > 2)
		return bad_usage("report: one FILE at most");
	if (argc > 1)
		path = argv[1];
	if (read_record(path, &r))
		return 1;
	/* --kv prints scx_push's counters raw, not its tables. */
	build_tables(&ts, &r, r.has_scx && !kv);
	if (kv)
		print_kv(&r, &ts);
	else
		print_report(path, &r, &ts);
	ss_record_free(&r);
	return 0;
}

/* The change from a to b in %, "n/a" from 0, "" if one has no value. */
static void format_change(char *buf, size_t len, const struct row *a, const struct row *b)
{
	if (!a->present || !b->present)
		*buf = '\0';
	else if (a->v == b->v)
		snprintf(buf, len, "0.0%%");
	else if (!a->v)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", ((double)b->v - (double)a->v) * 100 / a->v);
}

static void print_diff_row(const struct row *a, const struct row *b)
{
	char va[32], vb[32], change[16];

	format_value(va, sizeof(va), a);
	format_value(vb, sizeof(vb), b);
	format_change(change, sizeof(change), a, b);
	printf("  %-44s %14s %14s", a->present ? a->label : b->label, va, vb);
	if (*change)
		printf(" %9s", change);
	putchar('\n');
}

static void print_diff_table(const struct table *a, const struct table *b)
{
	if (!table_present(a) && !table_present(b))
		return;
	print_title(a);
	if (strcmp(a->title, b->title))
		printf("  B: %s\n", b->title);
	for (unsigned int k = 0; k < a->nr; k++)
		if (a->row[k].present || b->row[k].present)
			print_diff_row(&a->row[k], &b->row[k]);
}

/*
 * Records of one machine shape, with the same counters (schedstat 15 and 16
 * differ in order only), or an error that names both.
 */
static int comparable(const char *pa, const struct ss_record *a,
		      const char *pb, const struct ss_record *b)
{
	unsigned int la = a->shape_line, lb = b->shape_line;

	if (a->st.nr_cpus != b->st.nr_cpus)
		return error("%s:%u and %s:%u: records of different machines: %u CPUs and %u CPUs",
			     pa, la, pb, lb, a->st.nr_cpus, b->st.nr_cpus);
	for (unsigned int i = 0; i < a->st.nr_cpus; i++)
		if (a->st.cpu[i].nr_domains != b->st.cpu[i].nr_domains)
			return error("%s:%u and %s:%u: records of different machines: cpu%u has %u domain levels and %u",
				     pa, la + 1, pb, lb + 1, a->st.cpu[i].id,
				     a->st.cpu[i].nr_domains, b->st.cpu[i].nr_domains);
	if (!ss_same_fields(a->st.version, b->st.version))
		return error("%s:%u and %s:%u: schedstat versions %u and %u have different fields",
			     pa, la + 2, pb, lb + 2, a->st.version, b->st.version);
	return 0;
}

static void print_diff(const char *pa, const struct ss_record *a, const struct tables *ta,
		       const char *pb, const struct ss_record *b, const struct tables *tb)
{
	char shape[128];

	format_shape(shape, sizeof(shape), &a->st);
	printf("schedstat diff: A = %s, B = %s\n", pa, pb);
	printf("command      A: %s\n", a->command);
	printf("             B: %s\n", b->command);
	printf("exit status  A: %u, B: %u\n", a->exit_status, b->exit_status);
	printf("machine      %s\n", shape);
	printf("schedstat    A: version %u, B: version %u\n", a->st.version, b->st.version);
	printf("\n  %-44s %14s %14s %9s\n", "", "A", "B", "change");
	for (unsigned int i = 0; i < ta->nr; i++)
		print_diff_table(&ta->t[i], &tb->t[i]);
}

static int cmd_diff(int argc, char **argv)
{
	static struct tables ta, tb;
	struct ss_record a, b;
	int ret = 1;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage();
		return 0;
	}
	if (argc != 3)
		return bad_usage("diff: wants two FILEs");
	if (read_record(argv[1], &a))
		return 1;
	if (read_record(argv[2], &b))
		goto out_a;
	if (comparable(argv[1], &a, argv[2], &b))
		goto out;
	build_tables(&ta, &a, a.has_scx || b.has_scx);
	build_tables(&tb, &b, a.has_scx || b.has_scx);
	print_diff(argv[1], &a, &ta, argv[2], &b, &tb);
	ret = 0;
out:
	ss_record_free(&b);
out_a:
	ss_record_free(&a);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return bad_usage("no command: record, report or diff");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage();
		return 0;
	}
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1);
	error("unknown command '%s': record, report or diff (schedstat -h for help)", argv[1]);
	return 1;
}
