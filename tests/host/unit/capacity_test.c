// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of loader/capacity.c: capacity values, the --capacity spec
 * (valid ones, CPU lists with commas, every error), applying it to the
 * topologies of tests/host/fixtures/ (argv[1]) and ranking the levels.
 */
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "topology.h"
#include "unit.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *fixtures;
static struct capacity_spec spec;
static struct topology topo;
static char err[256];

/* The per-CPU values of @v for CPUs 0..@nr-1, e.g. "512 512 0". */
static const char *values(const int *v, int nr)
{
	static char buf[512];
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < nr && used < sizeof(buf); cpu++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%d", cpu ? " " : "", v[cpu]);
	return buf;
}

static void test_value(void)
{
	static const char *const bad[] = {
		"", "0", "1025", "-1", "+1", " 1", "x", "4294967297", "99999999999999999999",
	};
	char *end;
	size_t i;

	CHECK(capacity_value("1", &end) == 1 && !*end, "1 is the smallest capacity");
	CHECK(capacity_value("1024", &end) == 1024 && !*end, "1024 is the largest capacity");
	CHECK(capacity_value("512,1:2", &end) == 512 && !strcmp(end, ",1:2"),
	      "a capacity ends where its digits do");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(capacity_value(bad[i], &end) < 0, "'%s' is not a capacity", bad[i]);
}

static void expect_spec(const char *s, const char *caps)
{
	int ret;

	err[0] = '\0';
	ret = capacity_parse(&spec, s, err, sizeof(err));
	CHECK(!ret && !strcmp(values(spec.cap, 8), caps), "'%s' gives CPUs 0-7 %s (got %s) %s",
	      s, caps, values(spec.cap, 8), err);
}

static void test_parse(void)
{
	static const struct {
		const char *spec, *err;
	} errors[] = {
		{ "",			"empty, expected CPULIST:CAP[,CPULIST:CAP...]" },
		{ "0-3",		"'0-3' has no ':CAP'" },
		{ "512",		"'512' has no ':CAP'" },
		{ "0-3:512,4-7",	"'4-7' has no ':CAP'" },
		{ "0-3:512,",		"'0-3:512,' ends with ','" },
		{ "0-3:512,,4:1",	"',4' is not a list of CPUs below 1024" },
		{ ":512",		"'' is not a list of CPUs below 1024" },
		{ "x:512",		"'x' is not a list of CPUs below 1024" },
		{ "3-1:512",		"'3-1' is not a list of CPUs below 1024" },
		{ "0-1024:512",		"'0-1024' is not a list of CPUs below 1024" },
		{ "-1:512",		"'-1' is not a list of CPUs below 1024" },
		{ "0 :512",		"'0 ' is not a list of CPUs below 1024" },
		{ "0-3:",		"'' is not a capacity from 1 to 1024" },
		{ "0-3:0",		"'0' is not a capacity from 1 to 1024" },
		{ "0-3:1025",		"'1025' is not a capacity from 1 to 1024" },
		{ "0-3:-1",		"'-1' is not a capacity from 1 to 1024" },
		{ "0-3:+512",		"'+512' is not a capacity from 1 to 1024" },
		{ "0-3:512x,4:1",	"'512x' is not a capacity from 1 to 1024" },
		{ "0-3:512:1",		"'512:1' is not a capacity from 1 to 1024" },
		{ "0-3:0x200",		"'0x200' is not a capacity from 1 to 1024" },
		{ "0-3:99999999999999999999", "'99999999999999999999' is not a capacity" },
		{ "0-3:512,3:1024",	"CPU 3 is listed twice" },
		{ "0,2:512,1,2:1024",	"CPU 2 is listed twice" },
		{ "1:512,1:512",	"CPU 1 is listed twice" },
	};
	size_t i;

	expect_spec("0-3:512,4-7:1024", "512 512 512 512 1024 1024 1024 1024");
	expect_spec("0,2:512,1,3:1024", "512 1024 512 1024 0 0 0 0");
	expect_spec("0-1,6:1,7:1024,2-3,5:768", "1 1 768 768 0 768 1 1024");
	expect_spec("0,0:64", "64 0 0 0 0 0 0 0");
	expect_spec("5:1", "0 0 0 0 0 1 0 0");
	CHECK(!capacity_parse(&spec, "1023:7", err, sizeof(err)) && spec.cap[1023] == 7,
	      "the last CPU below 1024 can be given");
	CHECK(!capacity_parse(&spec, "0-1023:1024", err, sizeof(err)) &&
	      spec.cap[0] == 1024 && spec.cap[1023] == 1024, "every CPU at once");
	CHECK(capacity_parse(&spec, "0\n:512", err, sizeof(err)) < 0 &&
	      strstr(err, "is not a list of CPUs"), "a CPU list cut by a newline is rejected");
	for (i = 0; i < ARRAY_SIZE(errors); i++) {
		err[0] = '\0';
		CHECK(capacity_parse(&spec, errors[i].spec, err, sizeof(err)) < 0 &&
		      strstr(err, errors[i].err),
		      "'%s' is rejected with '%s' (got '%s')", errors[i].spec, errors[i].err, err);
	}
}

static bool read_fixture(const char *name)
{
	char root[512];

	snprintf(root, sizeof(root), "%s/%s", fixtures, name);
	err[0] = '\0';
	return CHECK(!topology_read(&topo, root, err, sizeof(err)),
		     "%s: topology_read() succeeds %s", name, err);
}

/* Apply @s to fixture @name; expect the capacities and levels of CPUs 0-7. */
static void expect_applied(const char *name, const char *s, const char *caps,
			   const char *levels, int nr_levels)
{
	if (!read_fixture(name) ||
	    !CHECK(!capacity_parse(&spec, s, err, sizeof(err)), "'%s' parses %s", s, err))
		return;
	err[0] = '\0';
	if (!CHECK(!capacity_apply(&topo, &spec, err, sizeof(err)),
		   "%s: '%s' applies %s", name, s, err))
		return;
	CHECK(!strcmp(values(topo.capacity, 8), caps), "%s, '%s': capacities %s (got %s)",
	      name, s, caps, values(topo.capacity, 8));
	CHECK(!strcmp(values(topo.cap_level, 8), levels), "%s, '%s': levels %s (got %s)",
	      name, s, levels, values(topo.cap_level, 8));
	CHECK(topo.nr_cap_levels == nr_levels, "%s, '%s': nr_cap_levels %d (got %d)",
	      name, s, nr_levels, topo.nr_cap_levels);
}

static void expect_refused(const char *name, const char *s, const char *msg)
{
	if (!read_fixture(name) ||
	    !CHECK(!capacity_parse(&spec, s, err, sizeof(err)), "'%s' parses %s", s, err))
		return;
	err[0] = '\0';
	CHECK(capacity_apply(&topo, &spec, err, sizeof(err)) < 0 && !strcmp(err, msg),
	      "%s: '%s' is refused with '%s' (got '%s')", name, s, msg, err);
}

/* A topology of @nr online CPUs with the capacities @caps. */
static void synthetic(const int *caps, int nr)
{
	memset(&topo, 0, sizeof(topo));
	topo.nr_cpu_ids = nr;
	for (int cpu = 0; cpu < nr; cpu++) {
		topo.possible[cpu] = true;
		topo.online[cpu] = true;
		topo.capacity[cpu] = caps[cpu];
	}
}

static void test_apply(void)
{
	static const int symmetric[] = {
		1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024,
	};
	struct capacity_spec none = { };

	/* no --capacity: the sysfs capacities stay */
	if (read_fixture("asymmetric")) {
		CHECK(!capacity_apply(&topo, &none, err, sizeof(err)) &&
		      !strcmp(values(topo.capacity, 8), "1024 1024 512 512 512 512 768 768") &&
		      topo.nr_cap_levels == 3, "asymmetric: no spec keeps sysfs %s", err);
	}
	expect_applied("normal", "0-3:512,4-7:1024", "512 512 512 512 1024 1024 1024 1024",
		       "0 0 0 0 1 1 1 1", 2);
	expect_applied("normal", "0,2:512,1,3:1024", "512 1024 512 1024 1024 1024 1024 1024",
		       "0 1 0 1 1 1 1 1", 2);
	expect_applied("normal", "0-7:256", "256 256 256 256 256 256 256 256",
		       "0 0 0 0 0 0 0 0", 1);
	expect_applied("asymmetric", "0-7:1024", "1024 1024 1024 1024 1024 1024 1024 1024",
		       "0 0 0 0 0 0 0 0", 1);
	expect_applied("asymmetric", "6-7:100", "1024 1024 512 512 512 512 100 100",
		       "2 2 1 1 1 1 0 0", 3);
	/* offline CPU 3: no level of its own, the one at or below it */
	expect_applied("offline", "3:100,4-7:512", "1024 1024 1024 100 512 512 512 512",
		       "1 1 1 0 0 0 0 0", 2);
	expect_applied("offline", "3:768,4-7:512", "1024 1024 1024 768 512 512 512 512",
		       "1 1 1 0 0 0 0 0", 2);
	expect_applied("offline", "3:1024,0-2:512", "512 512 512 1024 1024 1024 1024 1024",
		       "0 0 0 1 1 1 1 1", 2);
	expect_refused("holes", "0-3:512,5:512", "CPU 5 does not exist (possible CPUs: 0-3,8-11)");
	expect_refused("holes", "12:512", "CPU 12 does not exist (possible CPUs: 0-3,8-11)");
	expect_refused("normal", "0:1,1:2,2:3,3:4,4:5,5:6,6:7,7:8,8:9",
		       "CPU 8 does not exist (possible CPUs: 0-7)");

	/* 10 CPUs of 1024: 7 more capacities are 8 levels, 8 more too many */
	synthetic(symmetric, ARRAY_SIZE(symmetric));
	err[0] = '\0';
	CHECK(!capacity_parse(&spec, "0:1,1:2,2:3,3:4,4:5,5:6,6:7", err, sizeof(err)) &&
	      !capacity_apply(&topo, &spec, err, sizeof(err)) && topo.nr_cap_levels == 8,
	      "--capacity giving 8 levels is applied %s", err);
	synthetic(symmetric, ARRAY_SIZE(symmetric));
	err[0] = '\0';
	CHECK(!capacity_parse(&spec, "0:1,1:2,2:3,3:4,4:5,5:6,6:7,7:8", err, sizeof(err)) &&
	      capacity_apply(&topo, &spec, err, sizeof(err)) < 0 &&
	      !strcmp(err, "the online CPUs have more than 8 distinct capacities"),
	      "--capacity giving 9 levels is refused (got '%s')", err);
}

static void test_rank(void)
{
	static const int eight[] = { 800, 100, 700, 200, 600, 300, 500, 400, 800, 100 };
	static const int nine[] = { 900, 100, 800, 200, 700, 300, 600, 400, 500 };

	synthetic(eight, ARRAY_SIZE(eight));
	CHECK(!capacity_rank(&topo, err, sizeof(err)) && topo.nr_cap_levels == 8,
	      "8 distinct capacities are 8 levels");
	CHECK(!strcmp(values(topo.cap_level, 10), "7 0 6 1 5 2 4 3 7 0"),
	      "levels rank the capacities ascending (got %s)", values(topo.cap_level, 10));
	CHECK(!strcmp(values(topo.level_capacity, 8), "100 200 300 400 500 600 700 800"),
	      "level_capacity[] ascending (got %s)", values(topo.level_capacity, 8));

	synthetic(nine, ARRAY_SIZE(nine));
	err[0] = '\0';
	CHECK(capacity_rank(&topo, err, sizeof(err)) < 0 &&
	      !strcmp(err, "the online CPUs have more than 8 distinct capacities"),
	      "9 distinct capacities are refused (got '%s')", err);
	topo.online[4] = false;
	CHECK(!capacity_rank(&topo, err, sizeof(err)) && topo.nr_cap_levels == 8 &&
	      topo.cap_level[4] == 5 && topo.cap_level[0] == 7,
	      "9 capacities with one offline are 8 levels; 700 sits at 600's level");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	test_value();
	test_parse();
	test_apply();
	test_rank();
	return unit_done();
}
