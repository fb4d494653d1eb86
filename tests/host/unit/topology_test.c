// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of loader/topology.c: CPU lists, and topology_read() on the
 * sysfs trees in tests/host/fixtures/ (argv[1]) plus a 96-CPU tree with SMT
 * siblings that this test writes into a temporary directory.
 *
 * Each fixture is one case: normal (2 nodes x 2 LLCs x 2 CPUs), no-cache (no
 * cache/ directories), missing-id (index3 without id), l3-across-nodes (one
 * L3 reported over both nodes), one-cpu (one CPU, no node directory), offline
 * (CPU 3 offline), holes (possible CPUs 0-3,8-11 in nodes 0 and 2) and
 * asymmetric (normal with cpu_capacity files: three capacities). Malformed
 * trees, hostile cpu_capacity values among them, are written into a
 * temporary directory too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology.h"
#include "unit.h"

static const char *fixtures;
static struct topology topo;

static bool read_fixture(const char *name)
{
	char root[512], err[256] = "";
	int ret;

	snprintf(root, sizeof(root), "%s/%s", fixtures, name);
	ret = topology_read(&topo, root, err, sizeof(err));
	return CHECK(ret == 0, "%s: topology_read() succeeds %s", name, err);
}

/* The CPUs of LLC @llc as a list, e.g. "0-1". */
static const char *llc_list(int llc)
{
	static char buf[256];
	bool set[SCX_PUSH_MAX_CPUS] = { };

	for (int i = 0; i < topo.llc_nr[llc]; i++)
		set[topo.llc_cpus[topo.llc_first[llc] + i]] = true;
	cpulist_format(set, SCX_PUSH_MAX_CPUS, buf, sizeof(buf));
	return buf;
}

static void expect_shape(const char *name, int cpu_ids, int online, int nodes, int llcs)
{
	CHECK(topo.nr_cpu_ids == cpu_ids, "%s: nr_cpu_ids %d", name, cpu_ids);
	CHECK(topo.nr_online == online, "%s: %d CPUs online", name, online);
	CHECK(topo.nr_nodes == nodes, "%s: %d nodes", name, nodes);
	CHECK(topo.nr_llcs == llcs, "%s: %d LLCs", name, llcs);
}

/* The capacities and levels of the first CPUs, e.g. "1024 512" and "1 0". */
static void expect_capacities(const char *name, const char *caps, const char *levels)
{
	char got_caps[256] = "", got_levels[256] = "";
	size_t nc = 0, nl = 0;
	int nr = 0, cpu;

	for (const char *c = caps; *c; c++)
		nr += *c == ' ';
	for (cpu = 0; cpu <= nr; cpu++) {
		nc += snprintf(got_caps + nc, sizeof(got_caps) - nc, "%s%d", cpu ? " " : "",
			       topo.capacity[cpu]);
		nl += snprintf(got_levels + nl, sizeof(got_levels) - nl, "%s%d", cpu ? " " : "",
			       topo.cap_level[cpu]);
	}
	CHECK(!strcmp(got_caps, caps), "%s: capacities %s (got %s)", name, caps, got_caps);
	CHECK(!strcmp(got_levels, levels), "%s: levels %s (got %s)", name, levels, got_levels);
}

/* topology_print() has @line. */
static void expect_printed(const char *name, const char *line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!CHECK(f, "%s: memory stream", name))
		return;
	topology_print(&topo, f);
	fclose(f);
	CHECK(strstr(text, line), "%s: topology_print() has '%.*s'", name,
	      (int)strcspn(line, "\n"), line);
	free(text);
}

static void expect_llc(const char *name, int llc, const char *cpus, int node)
{
	CHECK(!strcmp(llc_list(llc), cpus), "%s: LLC %d is CPUs %s (got %s)", name, llc,
	      cpus, llc_list(llc));
	CHECK(topo.llc_node[llc] == node, "%s: LLC %d in node index %d", name, llc, node);
}

/* Every table agrees with every other: positions, node ranges, CPU -> LLC. */
static void expect_consistent(const char *name)
{
	bool ok = true;
	int l, i, n;

	for (l = 0; l < topo.nr_llcs; l++) {
		for (i = 0; i < topo.llc_nr[l]; i++) {
			int cpu = topo.llc_cpus[topo.llc_first[l] + i];

			ok &= topo.cpu_llc[cpu] == l && topo.cpu_pos[cpu] == i && topo.online[cpu];
		}
	}
	for (n = 0; n < topo.nr_nodes; n++)
		for (l = topo.node_first_llc[n]; l < topo.node_first_llc[n] + topo.node_nr_llcs[n]; l++)
			ok &= topo.llc_node[l] == n;
	for (i = 0; i < topo.nr_cpu_ids; i++)
		ok &= (topo.cpu_llc[i] >= 0) == topo.online[i];
	CHECK(ok, "%s: CPU, LLC and node tables agree", name);
}

static void test_cpulist(void)
{
	bool set[SCX_PUSH_MAX_CPUS];
	char buf[64];

	CHECK(cpulist_parse("0-3,8,10-11\n", set, SCX_PUSH_MAX_CPUS) == 12,
	      "cpulist '0-3,8,10-11' ends at CPU 11");
	cpulist_format(set, 12, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-3,8,10-11"), "cpulist round trip (got %s)", buf);
	CHECK(cpulist_parse("", set, SCX_PUSH_MAX_CPUS) == 0, "empty cpulist");
	cpulist_format(set, 12, buf, sizeof(buf));
	CHECK(!strcmp(buf, "none"), "empty cpulist formats as 'none'");
	CHECK(cpulist_parse("3-1", set, SCX_PUSH_MAX_CPUS) < 0, "reversed range rejected");
	CHECK(cpulist_parse("1,,2", set, SCX_PUSH_MAX_CPUS) < 0, "empty element rejected");
	CHECK(cpulist_parse("x", set, SCX_PUSH_MAX_CPUS) < 0, "garbage rejected");
	CHECK(cpulist_parse("0-2000", set, SCX_PUSH_MAX_CPUS) < 0, "CPU above the max rejected");
}

static void test_normal(void)
{
	if (!read_fixture("normal"))
		return;
	expect_shape("normal", 8, 8, 2, 4);
	expect_llc("normal", 0, "0-1", 0);
	expect_llc("normal", 1, "2-3", 0);
	expect_llc("normal", 2, "4-5", 1);
	expect_llc("normal", 3, "6-7", 1);
	CHECK(topo.node_first_llc[1] == 2 && topo.node_nr_llcs[1] == 2, "normal: node 1 has LLCs 2-3");
	CHECK(!topo.smt, "normal: smt/active 0 means no SMT");
	CHECK(!topo.notes[0], "normal: nothing to note");
	expect_consistent("normal");
	expect_capacities("normal", "1024 1024 1024 1024 1024 1024 1024 1024", "0 0 0 0 0 0 0 0");
	CHECK(topo.nr_cap_levels == 1 && topo.level_capacity[0] == 1024,
	      "normal: no cpu_capacity, one level of 1024");
	expect_printed("normal", "  capacity: 1024 on all CPUs\n");
}

static void test_asymmetric(void)
{
	if (!read_fixture("asymmetric"))
		return;
	expect_shape("asymmetric", 8, 8, 2, 4);
	expect_consistent("asymmetric");
	expect_capacities("asymmetric", "1024 1024 512 512 512 512 768 768", "2 2 0 0 0 0 1 1");
	CHECK(topo.nr_cap_levels == 3 && topo.level_capacity[0] == 512 &&
	      topo.level_capacity[1] == 768 && topo.level_capacity[2] == 1024,
	      "asymmetric: levels 512, 768, 1024");
	expect_printed("asymmetric", "  capacity: 512 on 2-5, 768 on 6-7, 1024 on 0-1\n");
}

static void test_no_cache(void)
{
	if (!read_fixture("no-cache"))
		return;
	expect_shape("no-cache", 8, 8, 2, 2);
	expect_llc("no-cache", 0, "0-3", 0);
	expect_llc("no-cache", 1, "4-7", 1);
	CHECK(strstr(topo.notes, "no L3 id or shared_cpu_list for CPUs 0-7"),
	      "no-cache: the missing L3 is noted");
	expect_consistent("no-cache");
}

static void test_missing_id(void)
{
	if (!read_fixture("missing-id"))
		return;
	expect_shape("missing-id", 8, 8, 2, 4);
	expect_llc("missing-id", 1, "2-3", 0);
	expect_llc("missing-id", 2, "4-5", 1);
	expect_consistent("missing-id");
}

static void test_l3_across_nodes(void)
{
	if (!read_fixture("l3-across-nodes"))
		return;
	expect_shape("l3-across-nodes", 8, 8, 2, 2);
	expect_llc("l3-across-nodes", 0, "0-3", 0);
	expect_llc("l3-across-nodes", 1, "4-7", 1);
	CHECK(strstr(topo.notes, "spans NUMA nodes"), "l3-across-nodes: the split is noted");
	expect_consistent("l3-across-nodes");
}

static void test_one_cpu(void)
{
	if (!read_fixture("one-cpu"))
		return;
	expect_shape("one-cpu", 1, 1, 1, 1);
	expect_llc("one-cpu", 0, "0", 0);
	CHECK(topo.node_id[0] == 0, "one-cpu: node 0");
	CHECK(!strcmp(topo.notes, "no NUMA node information: one node\n"),
	      "one-cpu: the missing node is noted, once");
	expect_consistent("one-cpu");
}

static void test_offline(void)
{
	if (!read_fixture("offline"))
		return;
	expect_shape("offline", 8, 7, 2, 4);
	expect_llc("offline", 1, "2", 0);
	CHECK(topo.cpu_llc[3] == -1, "offline: CPU 3 has no LLC");
	expect_consistent("offline");
}

static void test_holes(void)
{
	if (!read_fixture("holes"))
		return;
	expect_shape("holes", 12, 8, 2, 2);
	expect_llc("holes", 0, "0-3", 0);
	expect_llc("holes", 1, "8-11", 1);
	CHECK(topo.node_id[0] == 0 && topo.node_id[1] == 2, "holes: nodes 0 and 2");
	CHECK(topo.cpu_llc[5] == -1 && !topo.possible[5], "holes: CPU 5 does not exist");
	expect_consistent("holes");
}

static int write_file(const char *root, const char *path, const char *text)
{
	char full[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(full, 0755) && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	f = fopen(full, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	return fclose(f);
}

/*
 * 96 CPUs: 2 nodes x 6 LLCs x 8 CPUs, SMT siblings n and n + 48 (as x86
 * numbers them), no smt/active file so SMT comes from thread_siblings_list.
 */
static void test_big(void)
{
	char root[] = "/tmp/scx_push_topo_XXXXXX", path[128], text[64];
	int cpu, err = 0;

	if (!CHECK(mkdtemp(root), "big: temporary directory"))
		return;
	err |= write_file(root, "devices/system/cpu/possible", "0-95");
	err |= write_file(root, "devices/system/cpu/online", "0-95");
	err |= write_file(root, "devices/system/node/node0/cpulist", "0-23,48-71");
	err |= write_file(root, "devices/system/node/node1/cpulist", "24-47,72-95");
	for (cpu = 0; cpu < 96; cpu++) {
		int core = cpu % 48, llc = core / 4;

		snprintf(path, sizeof(path), "devices/system/cpu/cpu%d/cache/index3/id", cpu);
		snprintf(text, sizeof(text), "%d", llc);
		err |= write_file(root, path, text);
		snprintf(path, sizeof(path),
			 "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		snprintf(text, sizeof(text), "%d,%d", core, core + 48);
		err |= write_file(root, path, text);
	}
	if (!CHECK(!err, "big: fixture written") ||
	    !CHECK(!topology_read(&topo, root, text, sizeof(text)), "big: topology_read() succeeds"))
		goto out;
	expect_shape("big", 96, 96, 2, 12);
	expect_llc("big", 0, "0-3,48-51", 0);
	expect_llc("big", 11, "44-47,92-95", 1);
	CHECK(topo.node_first_llc[1] == 6 && topo.node_nr_llcs[1] == 6, "big: node 1 has LLCs 6-11");
	CHECK(topo.cpu_pos[50] == 6, "big: CPU 50 is 7th in its LLC");
	CHECK(topo.smt, "big: SMT found in thread_siblings_list");
	expect_consistent("big");
out:
	snprintf(path, sizeof(path), "rm -rf %s", root);
	CHECK(system(path) == 0, "big: temporary directory removed");
}

/*
 * Malformed trees: CPU lists that do not parse are errors that quote the
 * list; a bad L3 id or node list is noted and ignored.
 */
static void test_malformed(void)
{
	static const struct {
		const char *possible, *online, *err;
	} errors[] = {
		{ "0-x",	"0-3",		"possible CPUs '0-x': not a CPU list" },
		{ "0-4096",	"0-3",		"possible CPUs '0-4096': not a CPU list" },
		{ "-1",		"0-3",		"possible CPUs '-1': not a CPU list" },
		{ "",		"0-3",		"possible CPUs '': not a CPU list" },
		{ "0-3",	"0-3,,5",	"online CPUs '0-3,,5': not a CPU list" },
		{ "0-3",	"",		"no CPU is online" },
		{ "0-3",	"4-7",		"no CPU is online" },
	};
	char root[] = "/tmp/scx_push_topo_XXXXXX", err[256], cmd[64];
	size_t i;
	int ret;

	if (!CHECK(mkdtemp(root), "malformed: temporary directory"))
		return;
	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		ret = write_file(root, "devices/system/cpu/possible", errors[i].possible) |
		      write_file(root, "devices/system/cpu/online", errors[i].online);
		err[0] = '\0';
		CHECK(!ret && topology_read(&topo, root, err, sizeof(err)) < 0 &&
		      strstr(err, errors[i].err),
		      "possible '%s', online '%s' is an error: '%s' (got '%s')",
		      errors[i].possible, errors[i].online, errors[i].err, err);
	}

	ret = write_file(root, "devices/system/cpu/possible", "0-3") |
	      write_file(root, "devices/system/cpu/online", "0-3") |
	      write_file(root, "devices/system/node/node0/cpulist", "0-1") |
	      write_file(root, "devices/system/node/node1/cpulist", "2-x") |
	      write_file(root, "devices/system/node/node99999999999/cpulist", "2-3") |
	      write_file(root, "devices/system/cpu/cpu0/cache/index3/id", "0") |
	      write_file(root, "devices/system/cpu/cpu1/cache/index3/id", "zz") |
	      write_file(root, "devices/system/cpu/cpu2/cache/index3/id", "1") |
	      write_file(root, "devices/system/cpu/cpu3/cache/index3/id", "-2");
	if (CHECK(!ret, "malformed: tree written") &&
	    CHECK(!topology_read(&topo, root, err, sizeof(err)), "malformed: topology_read() succeeds")) {
		/* CPUs 1 and 3 fall back to their node as LLC */
		expect_shape("malformed", 4, 4, 1, 3);
		expect_llc("malformed", 0, "0", 0);
		expect_llc("malformed", 1, "1,3", 0);
		expect_llc("malformed", 2, "2", 0);
		CHECK(strstr(topo.notes, "node1/cpulist '2-x' is not a CPU list: node ignored"),
		      "malformed: the bad node list is noted");
		CHECK(strstr(topo.notes, "cache/index3/id of CPUs 1,3 is not a number: ignored"),
		      "malformed: the bad L3 ids are noted");
		CHECK(strstr(topo.notes, "no NUMA node lists CPUs 2-3: put in node 0"),
		      "malformed: the CPUs of the ignored node are noted");
		expect_consistent("malformed");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "malformed: temporary directory removed");
}

/* Write one capacity per CPU of the 4-CPU tree at @root, "-" for no file. */
static int write_capacities(const char *root, const char *const caps[4])
{
	char path[128], full[512];
	int cpu, err = 0;

	for (cpu = 0; cpu < 4; cpu++) {
		snprintf(path, sizeof(path), "devices/system/cpu/cpu%d/cpu_capacity", cpu);
		snprintf(full, sizeof(full), "%s/%s", root, path);
		if (strcmp(caps[cpu], "-"))
			err |= write_file(root, path, caps[cpu]);
		else if (unlink(full) && errno != ENOENT)
			err = -1;
	}
	return err;
}

/*
 * cpu_capacity: a missing file is 1024, a malformed one an error that names
 * it, an offline CPU takes the level at or below its capacity, more than 8
 * levels are an error.
 */
static void test_capacity(void)
{
	static const char *const hostile[] = {
		"", "abc", "512x", "512 ", " 512", "512\t", "0", "1025", "-1", "+512",
		"0x200", "1e3", "4294967808", "99999999999999999999",
	};
	static const struct {
		const char *online;
		const char *caps[4];
		const char *want_caps, *want_levels;
		int nr_levels;
	} cases[] = {
		{ "0-3", { "1024", "1024", "1024", "1024" }, "1024 1024 1024 1024", "0 0 0 0", 1 },
		{ "0-3", { "512", "-", "1", "512" }, "512 1024 1 512", "1 2 0 1", 3 },
		{ "0-3", { "-", "-", "-", "-" }, "1024 1024 1024 1024", "0 0 0 0", 1 },
		{ "0-2", { "512", "1024", "512", "300" }, "512 1024 512 300", "0 1 0 0", 2 },
		{ "0-2", { "512", "1024", "512", "800" }, "512 1024 512 800", "0 1 0 0", 2 },
		{ "0-2", { "512", "1024", "512", "2" }, "512 1024 512 2", "0 1 0 0", 2 },
		{ "0-2", { "512", "1024", "1024", "1024" }, "512 1024 1024 1024", "0 1 1 1", 2 },
	};
	char root[] = "/tmp/scx_push_topo_XXXXXX", err[256], want[256], cmd[64];
	const char *caps[4] = { "1024", "-", "-", "-" };
	FILE *f;
	size_t i;
	int ret;

	if (!CHECK(mkdtemp(root), "capacity: temporary directory"))
		return;
	ret = write_file(root, "devices/system/cpu/possible", "0-3");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret |= write_file(root, "devices/system/cpu/online", cases[i].online) |
		       write_capacities(root, cases[i].caps);
		err[0] = '\0';
		if (!CHECK(!ret && !topology_read(&topo, root, err, sizeof(err)),
			   "capacity %s %s %s %s, online %s: topology_read() succeeds %s",
			   cases[i].caps[0], cases[i].caps[1], cases[i].caps[2], cases[i].caps[3],
			   cases[i].online, err))
			continue;
		snprintf(want, sizeof(want), "capacity %s %s %s %s, online %s", cases[i].caps[0],
			 cases[i].caps[1], cases[i].caps[2], cases[i].caps[3], cases[i].online);
		expect_capacities(want, cases[i].want_caps, cases[i].want_levels);
		CHECK(topo.nr_cap_levels == cases[i].nr_levels, "%s: nr_cap_levels %d", want,
		      cases[i].nr_levels);
	}

	ret = write_file(root, "devices/system/cpu/online", "0-3");
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		caps[1] = hostile[i];
		ret |= write_capacities(root, caps);
		snprintf(want, sizeof(want),
			 "%s/devices/system/cpu/cpu1/cpu_capacity: '%s' is not a capacity from 1 to 1024",
			 root, hostile[i]);
		err[0] = '\0';
		CHECK(!ret && topology_read(&topo, root, err, sizeof(err)) < 0 &&
		      !strcmp(err, want),
		      "cpu_capacity '%s' is an error: '%s' (got '%s')", hostile[i], want, err);
	}

	snprintf(want, sizeof(want), "%s/devices/system/cpu/cpu1/cpu_capacity", root);
	f = fopen(want, "w");
	ret = !f || fclose(f);
	strcat(want, ": '' is not a capacity from 1 to 1024");
	CHECK(!ret && topology_read(&topo, root, err, sizeof(err)) < 0 && !strcmp(err, want),
	      "an empty cpu_capacity is an error (got '%s')", err);
	snprintf(want, sizeof(want), "%s/devices/system/cpu/cpu1/cpu_capacity", root);
	ret = unlink(want) || mkdir(want, 0755);
	CHECK(!ret && topology_read(&topo, root, err, sizeof(err)) < 0 &&
	      strstr(err, "cannot read ") && strstr(err, "cpu1/cpu_capacity: Is a directory"),
	      "an unreadable cpu_capacity is an error (got '%s')", err);
	ret = rmdir(want);

	/* 9 CPUs of 9 capacities: one too many, unless one is offline */
	ret |= write_file(root, "devices/system/cpu/possible", "0-8") |
	       write_file(root, "devices/system/cpu/online", "0-8");
	for (int cpu = 0; cpu < 9; cpu++) {
		char path[128], text[16];

		snprintf(path, sizeof(path), "devices/system/cpu/cpu%d/cpu_capacity", cpu);
		snprintf(text, sizeof(text), "%d", 100 * (cpu + 1));
		ret |= write_file(root, path, text);
	}
	CHECK(!ret && topology_read(&topo, root, err, sizeof(err)) < 0 &&
	      !strcmp(err, "the online CPUs have more than 8 distinct capacities"),
	      "9 capacities are an error (got '%s')", err);
	ret = write_file(root, "devices/system/cpu/online", "0-3,5-8");
	err[0] = '\0';
	CHECK(!ret && !topology_read(&topo, root, err, sizeof(err)) && topo.nr_cap_levels == 8 &&
	      topo.cap_level[4] == 3 && topo.cap_level[8] == 7,
	      "8 online capacities are 8 levels, offline CPU 4 at level 3 (got '%s')", err);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "capacity: temporary directory removed");
}

static void test_errors(void)
{
	char err[256] = "";

	CHECK(topology_read(&topo, "/nonexistent", err, sizeof(err)) < 0 &&
	      strstr(err, "cannot read /nonexistent/devices/system/cpu/possible"),
	      "a missing sysfs is an error that names the file (got '%s')", err);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	test_cpulist();
	test_normal();
	test_no_cache();
	test_missing_id();
	test_l3_across_nodes();
	test_one_cpu();
	test_offline();
	test_holes();
	test_asymmetric();
	test_capacity();
	test_big();
	test_malformed();
	test_errors();
	return unit_done();
}
