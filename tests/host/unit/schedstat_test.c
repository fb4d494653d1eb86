// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/schedstat_parse.c on the fixtures of
 * tests/host/fixtures/schedstat/ (argv[1]): the three layouts of
 * /proc/schedstat, deltas across a 32-bit wrap, scx_push's JSON, records
 * written and read back, and the message of each kind of bad input.
 *
 * The fixtures v15, v16 and v17 hold the same deltas, laid out as each
 * version prints them: per CPU c and domain level l, load_balance() calls
 * (4, 30, 60) * (l + 1) + c when busy, idle and newly idle, tasks pulled
 * (1, 3, 7) + l, imbalance (8, 16, 24) * (l + 1) (17: x100 in load).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedstat.h"
#include "unit.h"

static const char *fixtures;
static char err[512];

/* "" after a step that went well, ": the error" after one that failed. */
static const char *failure(bool ok)
{
	static char buf[sizeof(err) + 2];

	snprintf(buf, sizeof(buf), "%s%s", ok ? "" : ": ", ok ? "" : err);
	return buf;
}

static FILE *open_fixture(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	f = fopen(path, "r");
	if (!f)
		snprintf(err, sizeof(err), "cannot open %s in %.200s", name, fixtures);
	return f;
}

static int read_fixture(const char *name, struct ss_snapshot *s)
{
	FILE *f = open_fixture(name);
	int ret;

	if (!f)
		return -1;
	ret = ss_read_schedstat(f, name, s, err, sizeof(err));
	fclose(f);
	return ret;
}

static int read_scx_fixture(const char *name, struct ss_scx *x)
{
	FILE *f = open_fixture(name);
	int ret;

	if (!f)
		return -1;
	ret = ss_read_scx_json(f, name, x, err, sizeof(err));
	fclose(f);
	return ret;
}

/* The deltas from fixture vV.before to vV.after. */
static int fixture_delta(unsigned int v, struct ss_snapshot *d)
{
	struct ss_snapshot before, after;
	char name[32];
	int ret = -1;

	snprintf(name, sizeof(name), "v%u.before", v);
	if (read_fixture(name, &before))
		return -1;
	snprintf(name, sizeof(name), "v%u.after", v);
	if (!read_fixture(name, &after)) {
		ret = ss_snapshot_delta(d, &before, &after, name, err, sizeof(err));
		ss_snapshot_free(&after);
	}
	ss_snapshot_free(&before);
	return ret;
}

static void test_layout(unsigned int v)
{
	const struct ss_domain *d00, *d11;
	struct ss_snapshot d;
	bool ok = !fixture_delta(v, &d);

	if (!CHECK(ok, "version %u: fixtures read and subtracted%s", v, failure(ok)))
		return;
	CHECK(d.version == v && d.nr_cpus == 2 && d.cpu[1].id == 1 &&
	      d.cpu[0].nr_domains == 2 && d.cpu[1].nr_domains == 2,
	      "version %u: 2 CPUs with 2 domain levels each", v);
	d00 = &d.cpu[0].dom[0];
	d11 = &d.cpu[1].dom[1];
	CHECK(ss_lb(v, d00, SS_BUSY, LB_COUNT) == 4 && ss_lb(v, d00, SS_IDLE, LB_COUNT) == 30 &&
	      ss_lb(v, d00, SS_NEWIDLE, LB_COUNT) == 60,
	      "version %u: load_balance() calls busy 4, idle 30, newly idle 60", v);
	CHECK(ss_lb(v, d11, SS_BUSY, LB_COUNT) == 9 && ss_lb(v, d11, SS_NEWIDLE, LB_GAINED) == 8,
	      "version %u: cpu1 domain1: 9 busy calls, 8 tasks pulled newly idle", v);
	CHECK(ss_tail(v, d11, TTWU_WAKE_REMOTE) == 81 && ss_tail(v, d11, ALB_PUSHED) == 2,
	      "version %u: the fields after the load_balance() sets", v);
	CHECK(d.cpu[0].v[CPU_SCHED] == 5000 && d.cpu[1].v[CPU_RUN_NS] == 1600000000,
	      "version %u: cpu line deltas", v);
	if (v < 17) {
		CHECK(ss_has_lb(v, LB_IMBALANCE) && !ss_has_lb(v, LB_IMB_LOAD) &&
		      ss_lb(v, d00, SS_IDLE, LB_IMBALANCE) == 16,
		      "version %u: one imbalance sum, 16 when idle", v);
		CHECK(!*d00->name && !strcmp(d00->mask, "00000003"),
		      "version %u: no domain name, the mask", v);
	} else {
		CHECK(!ss_has_lb(v, LB_IMBALANCE) && ss_lb(v, d00, SS_BUSY, LB_IMB_LOAD) == 800 &&
		      ss_lb(v, d00, SS_BUSY, LB_IMB_TASK) == 8,
		      "version 17: imbalance in load 800, in tasks 8 when busy");
		CHECK(!strcmp(d00->name, "MC") && !strcmp(d11->name, "PKG") &&
		      !strcmp(d11->mask, "0000000f"), "version 17: domain names MC, PKG");
	}
	ss_snapshot_free(&d);
}

static void test_layouts(void)
{
	test_layout(15);
	test_layout(16);
	test_layout(17);
	CHECK(ss_same_fields(15, 16) && !ss_same_fields(16, 17),
	      "15 and 16 have the same counters, 16 and 17 do not");
}

static void test_wrap(void)
{
	struct ss_snapshot d;
	bool ok = !fixture_delta(16, &d);

	if (!CHECK(ok, "v16 deltas%s", failure(ok)))
		return;
	CHECK(d.cpu[1].v[CPU_TTWU] == 3010,
	      "a 32-bit counter that wrapped (4294967290 to 3004) grew by 3010 (got %llu)",
	      (unsigned long long)d.cpu[1].v[CPU_TTWU]);
	CHECK(d.timestamp == 1234, "jiffies over the run");
	ss_snapshot_free(&d);
}

static void expect_bad_fixture(const char *name, const char *want)
{
	struct ss_snapshot s;

	CHECK(read_fixture(name, &s) < 0 && !strcmp(err, want), "%s: '%s' (got '%s')",
	      name, want, err);
}

static void test_bad_fixtures(void)
{
	expect_bad_fixture("bad-empty", "bad-empty:1: empty file, expected 'version N'");
	expect_bad_fixture("bad-version",
			   "bad-version:1: unknown schedstat version 14 (this tool reads 15, 16 and 17)");
	expect_bad_fixture("bad-truncated",
			   "bad-truncated:7: the last line has no newline: truncated?");
	expect_bad_fixture("bad-number",
			   "bad-number:8: field 9 of cpu1 domain1 is '12x4', not a number");
	expect_bad_fixture("bad-missing-domain",
			   "bad-missing-domain:7: domain1 of cpu1 where domain0 was expected");
}

/* /proc/schedstat text of len bytes in memory, read as "mem". */
static int read_bytes(const char *text, size_t len, struct ss_snapshot *s)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret = ss_read_schedstat(f, "mem", s, err, sizeof(err));

	fclose(f);
	return ret;
}

static int read_text(const char *text, struct ss_snapshot *s)
{
	return read_bytes(text, strlen(text), s);
}

static void expect_bad_text(const char *text, const char *want, const char *what)
{
	struct ss_snapshot s;

	CHECK(read_text(text, &s) < 0 && strstr(err, want), "%s: '%s' (got '%s')",
	      what, want, err);
}

static void test_bad_lines(void)
{
	expect_bad_text("version 16\n", "mem:2: truncated, expected 'timestamp N'", "no timestamp");
	expect_bad_text("version 16\ntimestamp 1\n", "mem:3: no cpu line", "no cpu line");
	expect_bad_text("version 16\ntimestamp 1\ndomain0 3 1\n",
			"mem:3: domain0 before any cpu line", "domain first");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 1 2 3\n",
			"mem:3: cpu0 has 3 fields, want 9", "short cpu line");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 1 0 3 4 5 6 7 8 9 10\n",
			"mem:3: cpu0 has 10 fields, want 9", "long cpu line");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 4294967296 0 1 1 1 1 1 1 1\n",
			"field 1 of cpu0 is 4294967296, more than its 32 bits hold",
			"32-bit field");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 -1 0 1 1 1 1 1 1 1\n",
			"field 1 of cpu0 is '-1', not a number", "negative");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 1 0 1 1 1 1 99999999999999999999 1 1\n",
			"field 7 of cpu0 is '99999999999999999999', not a number", "past 64 bits");
	expect_bad_text("version 16\ntimestamp 1\ncpu1 1 0 1 1 1 1 1 1 1\ncpu0 1 0 1 1 1 1 1 1 1\n",
			"mem:4: cpu0 after cpu1", "CPUs out of order");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 1 0 1 1 1 1 1 1 1\ndomain0 3x 1\n",
			"mem:4: domain0 of cpu0 has 1 fields, schedstat version 16 has 36",
			"short domain line");
	expect_bad_text("version 16\ntimestamp 1\ncpu0 1 0 1 1 1 1 1 1 1\nprocs 3\n",
			"mem:4: 'procs' is neither a cpu nor a domain line", "unknown line");
	expect_bad_text("version 16\ntimestamp x\n", "mem:2: 'timestamp' wants one number",
			"bad timestamp");
	expect_bad_text("timestamp 1\n", "mem:1: expected 'version N', got 'timestamp'",
			"no version");
}

static void test_nul(void)
{
	static const char text[] = "version 16\ntimestamp 1\ncpu0 1 0 1\0 1 1 1 1 1 1\n";
	struct ss_snapshot s;

	CHECK(read_bytes(text, sizeof(text) - 1, &s) < 0 &&
	      !strcmp(err, "mem:3: a NUL byte in the line"), "a NUL byte (got '%s')", err);
}

/* A cpumask with a letter that is not hex, then a good one. */
static void test_bad_mask(void)
{
	char text[512] = "version 16\ntimestamp 1\ncpu0 1 0 1 1 1 1 1 1 1\ndomain0 0g";
	struct ss_snapshot s;
	bool ok;

	for (int i = 0; i < 36; i++)
		strcat(text, " 0");
	strcat(text, "\n");
	CHECK(read_text(text, &s) < 0 && !strcmp(err, "mem:4: '0g' is not a cpumask"),
	      "a bad cpumask (got '%s')", err);
	memcpy(strstr(text, "0g"), "ff", 2);
	ok = !read_text(text, &s);
	CHECK(ok && s.cpu[0].nr_domains == 1, "the same line with a good mask reads%s",
	      failure(ok));
	ss_snapshot_free(&s);
}

static void test_went_back(void)
{
	struct ss_snapshot before, after, d;
	bool ok = !read_fixture("v16.before", &before) && !read_fixture("v16.after", &after);

	if (!CHECK(ok, "v16 fixtures%s", failure(ok)))
		return;
	after.cpu[0].v[CPU_RUN_NS] = 5;
	CHECK(ss_snapshot_delta(&d, &before, &after, "schedstat", err, sizeof(err)) < 0 &&
	      !strcmp(err, "schedstat:3: field 7 of cpu0 went back from 7000 to 5 during the run"),
	      "a 64-bit counter that went back (got '%s')", err);
	after.cpu[1].nr_domains = 1;
	CHECK(ss_snapshot_delta(&d, &before, &after, "schedstat", err, sizeof(err)) < 0 &&
	      !strcmp(err,
		      "schedstat:6: cpu1 with 1 domain levels after the run, cpu1 with 2 before"),
	      "a domain level lost during the run (got '%s')", err);
	after.cpu[1].nr_domains = 2;
	ss_snapshot_free(&after);
	ok = !read_fixture("v16-4cpu", &after);
	if (!CHECK(ok, "v16-4cpu%s", failure(ok)))
		return;
	CHECK(ss_snapshot_delta(&d, &before, &after, "schedstat", err, sizeof(err)) < 0 &&
	      !strcmp(err, "schedstat:15: 4 CPUs after the run, 2 before: CPU hotplug?"),
	      "CPUs that came online during the run (got '%s')", err);
	ss_snapshot_free(&after);
	ss_snapshot_free(&before);
}

static int read_scx_text(const char *text, struct ss_scx *x)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = ss_read_scx_json(f, "json", x, err, sizeof(err));

	fclose(f);
	return ret;
}

static void test_scx(void)
{
	static const char back[] =
		"json:20: enq went back from 1000 to 100 during the run: scx_push restarted?";
	struct ss_scx before, after, d;
	bool ok = !read_scx_fixture("scx.before.json", &before) &&
		  !read_scx_fixture("scx.after.json", &after);

	if (!CHECK(ok, "scx_push JSON read%s", failure(ok)))
		return;
	CHECK(after.nr == 32 && !strcmp(after.name[0], "enq") && after.line[0] == 20,
	      "32 counters, from line 20 on");
	ok = !ss_scx_delta(&d, &before, &after, "json", err, sizeof(err));
	CHECK(ok && d.nr == 32 && !strcmp(d.name[15], "pull_llc") && d.v[15] == 31,
	      "pull_llc grew by 31%s", failure(ok));
	CHECK(ss_scx_delta(&d, &after, &before, "json", err, sizeof(err)) < 0 && !strcmp(err, back),
	      "a counter that went back (got '%s')", err);
	before.nr--;
	CHECK(ss_scx_delta(&d, &before, &after, "json", err, sizeof(err)) < 0 &&
	      strstr(err, "rescue was not there before the run"), "a new counter (got '%s')", err);
	CHECK(read_scx_fixture("scx.bad-truncated.json", &after) < 0 &&
	      !strcmp(err, "scx.bad-truncated.json:47: truncated: the \"stats\" object has no '}'"),
	      "a truncated JSON file (got '%s')", err);
	CHECK(read_scx_text("", &after) < 0 &&
	      !strcmp(err, "json:1: no \"stats\" object (has scx_push written the file yet?)"),
	      "an empty JSON file (got '%s')", err);
	CHECK(read_scx_text("{\n\"stats\": {\n\"a\": 1,\n\"a\": 2\n}\n", &after) < 0 &&
	      !strcmp(err, "json:4: a appears twice"), "a counter twice (got '%s')", err);
	CHECK(read_scx_text("{\n\"stats\": {\n\"a\": -1\n}\n", &after) < 0 &&
	      !strcmp(err, "json:3: the value of a is '-1', not a number"),
	      "a negative counter (got '%s')", err);
	CHECK(read_scx_text("{\n\"stats\": {\n\"A b\": 1\n}\n", &after) < 0 &&
	      !strcmp(err, "json:3: 'A b' is not a counter name"), "a bad name (got '%s')", err);
	ok = !read_scx_text("{\n \"stats\" : {\n  \"a\" : 7 ,\n\"b\":8\n}\n", &after);
	CHECK(ok && after.nr == 2 && after.v[0] == 7 && after.v[1] == 8,
	      "spaces around ':' and ',' or none%s", failure(ok));
	CHECK(read_scx_text("{\n\"stats\": {\n\"a\": 7}\n", &after) < 0 &&
	      !strcmp(err, "json:3: the value of a is '7}', not a number"),
	      "one counter a line, '}' on a line of its own (got '%s')", err);
}

/* A record of the v17 fixtures and scx_push's, written to text. */
static char *sample_record(void)
{
	struct ss_record r = { .exit_status = 3, .elapsed_ns = 2000000001, .has_scx = true };
	struct ss_scx before, after;
	size_t len;
	char *text;
	FILE *f;

	if (fixture_delta(17, &r.st) || read_scx_fixture("scx.before.json", &before) ||
	    read_scx_fixture("scx.after.json", &after) ||
	    ss_scx_delta(&r.scx, &before, &after, "json", err, sizeof(err)))
		return NULL;
	r.command = strdup("sh -c 'a\nb'");
	f = open_memstream(&text, &len);
	ss_write_record(f, &r);
	fclose(f);
	ss_record_free(&r);
	return text;
}

static int read_record_text(const char *text, struct ss_record *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = ss_read_record(f, "rec", r, err, sizeof(err));

	fclose(f);
	return ret;
}

static void test_record(void)
{
	char *text = sample_record();
	struct ss_record r;
	bool ok;

	if (!CHECK(text, "a record written%s", failure(text)))
		return;
	CHECK(!strncmp(text, "schedstat-data 1\ncommand sh -c 'a?b'\nexit-status 3\n"
		       "elapsed-ns 2000000001\ncpus 2\ndomains 2 2\nversion 17\ntimestamp 1234\n"
		       "cpu0 2 0 5000 ", 127), "the header, the command on one line");
	CHECK(strstr(text, "\ndomain1 PKG 0000000f 8 4 1 "), "domain lines with their names");
	CHECK(strstr(text, "\nscx pull_llc 31\n") && strstr(text, "\nscx rescue 0\nend\n"),
	      "scx_push's counters, then end");
	ok = !read_record_text(text, &r);
	if (CHECK(ok, "the record reads back%s", failure(ok))) {
		CHECK(r.exit_status == 3 && r.elapsed_ns == 2000000001 && r.shape_line == 5 &&
		      !strcmp(r.command, "sh -c 'a?b'"), "its header");
		CHECK(r.st.version == 17 && r.st.nr_cpus == 2 &&
		      ss_lb(17, &r.st.cpu[1].dom[1], SS_BUSY, LB_COUNT) == 9 &&
		      !strcmp(r.st.cpu[1].dom[1].name, "PKG"), "its deltas and names");
		CHECK(r.has_scx && r.scx.nr == 32 && r.scx.v[15] == 31, "its scx_push counters");
		ss_record_free(&r);
	}
	free(text);
}

/* Reads text with its first from replaced by to; the error. */
static const char *bad_record(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	struct ss_record r;
	char *bad;

	if (!at)
		return "the test's pattern is not in the record";
	if (asprintf(&bad, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) < 0)
		return "out of memory";
	if (!read_record_text(bad, &r))
		snprintf(err, sizeof(err), "accepted");
	free(bad);
	return err;
}

static void expect_bad_record(const char *text, const char *from, const char *to,
			      const char *want)
{
	const char *got = bad_record(text, from, to);

	CHECK(!strcmp(got, want), "%s (got '%s')", want, got);
}

static void test_bad_records(void)
{
	char *text = sample_record();

	if (!CHECK(text, "a record written%s", failure(text)))
		return;
	expect_bad_record(text, "schedstat-data 1", "",
			  "rec:1: expected 'schedstat-data N', got ''");
	expect_bad_record(text, "schedstat-data 1", "schedstat-data 2",
			  "rec:1: record format 2, this tool reads 1");
	expect_bad_record(text, "exit-status 3", "exit-status 256",
			  "rec:3: 'exit-status' wants one number up to 255");
	expect_bad_record(text, "cpus 2", "cpus 0", "rec:5: 'cpus' wants a number from 1");
	expect_bad_record(text, "cpus 2", "cpus 3", "rec:6: 2 domain counts for 3 CPUs");
	expect_bad_record(text, "domains 2 2", "domains 2 1",
			  "rec:12: cpu1 has 2 domain lines, line 6 says 1");
	expect_bad_record(text, "domains 2 2", "domains 2 x",
			  "rec:6: domain count 2 is 'x', not a number up to 16");
	expect_bad_record(text, "domain1 PKG", "domain1 P\tK",
			  "rec:11: domain1 of cpu0 has 46 fields, schedstat version 17 has 45");
	expect_bad_record(text, "\nscx pull_llc 31\n", "\nscx pull_llc 3x1\n",
			  "rec:30: the value of pull_llc is '3x1', not a number");
	expect_bad_record(text, "\nscx pull_llc 31\n", "\nscx pull_llc\n",
			  "rec:30: expected 'scx NAME N' or 'end', got 'scx'");
	expect_bad_record(text, "end\n", "", "rec:47: truncated: no 'end' line");
	expect_bad_record(text, "end\n", "end\nend\n", "rec:48: text after 'end'");
	expect_bad_record(text, "\ncpu1 ", "\nend\ncpu1 ", "rec:13: text after 'end'");
	free(text);
}

static void test_domain_name(void)
{
	char path[] = "/tmp/schedstat_test.XXXXXX", name[SS_NAME_LEN] = "";
	int fd = mkstemp(path);

	CHECK(ss_read_domain_name("/nonexistent/name", name, err, sizeof(err)) == 0,
	      "no debugfs name file: no name");
	if (!CHECK(fd >= 0 && write(fd, "MC\n", 3) == 3, "a name file"))
		return;
	CHECK(ss_read_domain_name(path, name, err, sizeof(err)) == 1 && !strcmp(name, "MC"),
	      "the name from the file");
	CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, "M C\n", 4, 0) == 4 &&
	      ss_read_domain_name(path, name, err, sizeof(err)) < 0 &&
	      strstr(err, ":1: 'M C' is not a sched domain name"),
	      "a name with a space (got '%s')", err);
	close(fd);
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	test_layouts();
	test_wrap();
	test_bad_fixtures();
	test_bad_lines();
	test_nul();
	test_bad_mask();
	test_went_back();
	test_scx();
	test_record();
	test_bad_records();
	test_domain_name();
	return unit_done();
}
