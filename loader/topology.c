// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: read the CPU topology from sysfs.
 *
 * possible and online CPUs: devices/system/cpu/{possible,online}
 * NUMA nodes:               devices/system/node/nodeN/cpulist
 * last-level caches:        devices/system/cpu/cpuN/cache/index3/{id,shared_cpu_list}
 * SMT:                      devices/system/cpu/smt/active, else the
 *                           cpuN/topology/thread_siblings_list
 * CPU capacities:           devices/system/cpu/cpuN/cpu_capacity
 *
 * VMs and odd firmware leave gaps, which end up in t->notes instead of
 * failing: a CPU without cache/index3 (or with neither id nor
 * shared_cpu_list) takes its whole NUMA node as its LLC, an L3 reported
 * across nodes is split into one LLC per node, a CPU in no node joins the
 * first node, and offline CPUs and holes in the numbering are left out.
 * Malformed files are gaps too (an L3 id or node CPU list that does not
 * parse is noted and ignored), except the possible and online CPU lists,
 * without which there is nothing to schedule on: those are errors. So is a
 * malformed cpu_capacity: a wrong capacity would misplace tasks for good,
 * while a missing one is the rule (x86 has none) and means 1024.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "topology.h"

enum llc_key_kind {
	KEY_ID,		/* cache/index3/id */
	KEY_FIRST,	/* first CPU of cache/index3/shared_cpu_list */
	KEY_NODE,	/* no L3 information: the node is the LLC */
};

struct llc_key {
	enum llc_key_kind	kind;
	long			value;
};

/* What a topology_read() run keeps besides the result. */
struct reader {
	const char	*root;
	struct topology	*t;
	int		node_of[SCX_PUSH_MAX_CPUS];	/* node index, -1 if none */
	struct llc_key	llc_key[SCX_PUSH_MAX_LLCS];
	bool		no_l3[SCX_PUSH_MAX_CPUS];	/* KEY_NODE was used */
	bool		bad_l3_id[SCX_PUSH_MAX_CPUS];	/* index3/id not a number */
	bool		no_node[SCX_PUSH_MAX_CPUS];	/* in no nodeN/cpulist */
	bool		split_l3;			/* an L3 spans nodes */
};

static void note(struct topology *t, const char *fmt, ...)
{
	size_t used = strlen(t->notes);
	va_list ap;

	if (used + 1 >= sizeof(t->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(t->notes + used, sizeof(t->notes) - used - 1, fmt, ap);
	va_end(ap);
	strcat(t->notes, "\n");
}

/*
 * Read the first line of root/path into buf. Returns 0, -ENODATA with buf ""
 * if the file is empty, or -errno if it cannot be read (-ENOENT: there is no
 * such file).
 */
static int read_sysfs(const struct reader *r, char *buf, size_t len,
		      const char *fmt, ...)
{
	char path[512];
	size_t n;
	va_list ap;
	FILE *f;
	int off, ret;

	off = snprintf(path, sizeof(path), "%s/", r->root);
	va_start(ap, fmt);
	vsnprintf(path + off, sizeof(path) - off, fmt, ap);
	va_end(ap);

	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		ret = ferror(f) ? -errno : -ENODATA;
		fclose(f);
		buf[0] = '\0';
		return ret;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	return 0;
}

static int read_cpus(struct reader *r, char *err, size_t err_len)
{
	struct topology *t = r->t;
	bool set[SCX_PUSH_MAX_CPUS];
	char buf[4096];
	int top, cpu;

	if (read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/possible") &&
	    read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/online")) {
		snprintf(err, err_len, "cannot read %s/devices/system/cpu/possible",
			 r->root);
		return -1;
	}
	top = cpulist_parse(buf, t->possible, SCX_PUSH_MAX_CPUS);
	if (top <= 0) {
		snprintf(err, err_len, "possible CPUs '%s': not a CPU list of CPUs below %d",
			 buf, SCX_PUSH_MAX_CPUS);
		return -1;
	}
	t->nr_cpu_ids = top;

	if (read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/online")) {
		note(t, "no devices/system/cpu/online: taking every possible CPU as online");
		memcpy(set, t->possible, sizeof(set));
	} else if (cpulist_parse(buf, set, SCX_PUSH_MAX_CPUS) < 0) {
		snprintf(err, err_len, "online CPUs '%s': not a CPU list", buf);
		return -1;
	}
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		t->online[cpu] = set[cpu] && t->possible[cpu];
		t->nr_online += t->online[cpu];
	}
	if (!t->nr_online) {
		snprintf(err, err_len, "no CPU is online");
		return -1;
	}
	return 0;
}

/* cpuN/cpu_capacity of each possible CPU, 1024 where there is none; the levels. */
static int read_capacities(struct reader *r, char *err, size_t err_len)
{
	struct topology *t = r->t;
	char buf[4096], *end;
	int cpu, cap, ret;

	for (cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++)
		t->capacity[cpu] = SCX_PUSH_CAPACITY_MAX;
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (!t->possible[cpu])
			continue;
		ret = read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/cpu%d/cpu_capacity", cpu);
		if (ret == -ENOENT)
			continue;
		if (ret && ret != -ENODATA) {
			snprintf(err, err_len,
				 "cannot read %s/devices/system/cpu/cpu%d/cpu_capacity: %s",
				 r->root, cpu, strerror(-ret));
			return -1;
		}
		cap = capacity_value(buf, &end);
		if (cap < 0 || *end) {
			snprintf(err, err_len,
				 "%s/devices/system/cpu/cpu%d/cpu_capacity: '%.32s' is not a capacity from 1 to %d",
				 r->root, cpu, buf, SCX_PUSH_CAPACITY_MAX);
			return -1;
		}
		t->capacity[cpu] = cap;
	}
	return capacity_rank(t, err, err_len);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Nodes with online CPUs, in ascending sysfs number; node_of[] of each CPU. */
static void read_nodes(struct reader *r)
{
	struct topology *t = r->t;
	int ids[SCX_PUSH_MAX_NODES], nr_ids = 0, i, cpu;
	bool set[SCX_PUSH_MAX_CPUS];
	char path[512], buf[4096];
	struct dirent *de;
	DIR *dir;

	for (cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++)
		r->node_of[cpu] = -1;

	snprintf(path, sizeof(path), "%s/devices/system/node", r->root);
	dir = opendir(path);
	while (dir && (de = readdir(dir)) && nr_ids < SCX_PUSH_MAX_NODES) {
		const char *num = de->d_name + 4;

		if (strncmp(de->d_name, "node", 4) || !*num ||
		    strspn(num, "0123456789") != strlen(num) || strlen(num) > 9)
			continue;
		ids[nr_ids++] = atoi(num);
	}
	if (dir)
		closedir(dir);
	qsort(ids, nr_ids, sizeof(ids[0]), cmp_int);

	for (i = 0; i < nr_ids; i++) {
		bool used = false;

		if (read_sysfs(r, buf, sizeof(buf),
			       "devices/system/node/node%d/cpulist", ids[i]))
			continue;
		if (cpulist_parse(buf, set, SCX_PUSH_MAX_CPUS) < 0) {
			note(t, "node%d/cpulist '%.32s' is not a CPU list: node ignored", ids[i], buf);
			continue;
		}
		for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
			if (!set[cpu] || !t->online[cpu] || r->node_of[cpu] >= 0)
				continue;
			r->node_of[cpu] = t->nr_nodes;
			used = true;
		}
		if (used)
			t->node_id[t->nr_nodes++] = ids[i];
	}

	if (!t->nr_nodes) {
		note(t, "no NUMA node information: one node");
		t->node_id[t->nr_nodes++] = 0;
	}
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (t->online[cpu] && r->node_of[cpu] < 0) {
			r->node_of[cpu] = 0;
			r->no_node[cpu] = nr_ids > 0;
		}
	}
}

static struct llc_key read_llc_key(struct reader *r, int cpu)
{
	bool set[SCX_PUSH_MAX_CPUS];
	char buf[4096];
	int first;

	if (!read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/cpu%d/cache/index3/id", cpu)) {
		char *end;
		long id;

		errno = 0;
		id = strtol(buf, &end, 10);
		if (isdigit((unsigned char)buf[0]) && !*end && !errno)
			return (struct llc_key){ KEY_ID, id };
		r->bad_l3_id[cpu] = true;
	}
	if (!read_sysfs(r, buf, sizeof(buf),
			"devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu) &&
	    cpulist_parse(buf, set, SCX_PUSH_MAX_CPUS) > 0) {
		for (first = 0; !set[first]; first++)
			;
		return (struct llc_key){ KEY_FIRST, first };
	}
	r->no_l3[cpu] = true;
	return (struct llc_key){ KEY_NODE, r->node_of[cpu] };
}

/* The LLC of @node with @key, created if new; an L3 key seen in another node splits. */
static int find_llc(struct reader *r, int node, struct llc_key key)
{
	struct topology *t = r->t;
	int l;

	for (l = 0; l < t->nr_llcs; l++) {
		if (r->llc_key[l].kind != key.kind || r->llc_key[l].value != key.value)
			continue;
		if (t->llc_node[l] == node)
			return l;
		r->split_l3 = true;
	}
	l = t->nr_llcs++;
	r->llc_key[l] = key;
	t->llc_node[l] = node;
	t->llc_nr[l] = 0;
	return l;
}

/* Group the online CPUs into LLCs, node by node, and lay out the tables. */
static void build_llcs(struct reader *r)
{
	struct topology *t = r->t;
	int node, cpu, l, next = 0;

	for (cpu = 0; cpu < SCX_PUSH_MAX_CPUS; cpu++)
		t->cpu_llc[cpu] = -1;

	for (node = 0; node < t->nr_nodes; node++) {
		t->node_first_llc[node] = t->nr_llcs;
		for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
			if (!t->online[cpu] || r->node_of[cpu] != node)
				continue;
			l = find_llc(r, node, read_llc_key(r, cpu));
			t->cpu_llc[cpu] = l;
			t->llc_nr[l]++;
		}
		t->node_nr_llcs[node] = t->nr_llcs - t->node_first_llc[node];
	}

	for (l = 0; l < t->nr_llcs; l++) {
		t->llc_first[l] = next;
		next += t->llc_nr[l];
		t->llc_nr[l] = 0;
	}
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		l = t->cpu_llc[cpu];
		if (l < 0)
			continue;
		t->cpu_pos[cpu] = t->llc_nr[l]++;
		t->llc_cpus[t->llc_first[l] + t->cpu_pos[cpu]] = cpu;
	}
}

static void read_smt(struct reader *r)
{
	struct topology *t = r->t;
	bool set[SCX_PUSH_MAX_CPUS];
	char buf[4096];
	int cpu;

	if (!read_sysfs(r, buf, sizeof(buf), "devices/system/cpu/smt/active")) {
		t->smt = !strcmp(buf, "1");
		return;
	}
	for (cpu = 0; cpu < t->nr_cpu_ids && !t->smt; cpu++) {
		int siblings = 0, c;

		if (!t->online[cpu] ||
		    read_sysfs(r, buf, sizeof(buf),
			       "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu) ||
		    cpulist_parse(buf, set, SCX_PUSH_MAX_CPUS) <= 0)
			continue;
		for (c = 0; c < SCX_PUSH_MAX_CPUS; c++)
			siblings += set[c];
		t->smt = siblings > 1;
	}
}

static void add_notes(struct reader *r)
{
	struct topology *t = r->t;
	char list[256];

	if (memchr(r->bad_l3_id, true, sizeof(r->bad_l3_id))) {
		cpulist_format(r->bad_l3_id, t->nr_cpu_ids, list, sizeof(list));
		note(t, "cache/index3/id of CPUs %s is not a number: ignored", list);
	}
	if (memchr(r->no_l3, true, sizeof(r->no_l3))) {
		cpulist_format(r->no_l3, t->nr_cpu_ids, list, sizeof(list));
		note(t, "no L3 id or shared_cpu_list for CPUs %s: their NUMA node is their LLC",
		     list);
	}
	if (r->split_l3)
		note(t, "an L3 cache spans NUMA nodes: split into one LLC per node");
	if (memchr(r->no_node, true, sizeof(r->no_node))) {
		cpulist_format(r->no_node, t->nr_cpu_ids, list, sizeof(list));
		note(t, "no NUMA node lists CPUs %s: put in node %d", list, t->node_id[0]);
	}
}

int topology_read(struct topology *t, const char *root, char *err, size_t err_len)
{
	struct reader *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	memset(t, 0, sizeof(*t));
	r->root = root;
	r->t = t;
	if (read_cpus(r, err, err_len) || read_capacities(r, err, err_len)) {
		free(r);
		return -1;
	}
	read_nodes(r);
	build_llcs(r);
	read_smt(r);
	add_notes(r);
	free(r);
	return 0;
}

/* "capacity: 1024 on all CPUs", or the online CPUs of each level. */
static void print_capacities(const struct topology *t, FILE *f)
{
	bool set[SCX_PUSH_MAX_CPUS];
	char list[256];
	int l, cpu;

	if (t->nr_cap_levels == 1) {
		fprintf(f, "  capacity: %d on all CPUs\n", t->level_capacity[0]);
		return;
	}
	fprintf(f, "  capacity:");
	for (l = 0; l < t->nr_cap_levels; l++) {
		for (cpu = 0; cpu < t->nr_cpu_ids; cpu++)
			set[cpu] = t->online[cpu] && t->cap_level[cpu] == l;
		cpulist_format(set, t->nr_cpu_ids, list, sizeof(list));
		fprintf(f, "%s %d on %s", l ? "," : "", t->level_capacity[l], list);
	}
	fputc('\n', f);
}

void topology_print(const struct topology *t, FILE *f)
{
	bool set[SCX_PUSH_MAX_CPUS];
	char list[256];
	const char *line;
	int node, l, i;

	cpulist_format(t->online, t->nr_cpu_ids, list, sizeof(list));
	fprintf(f, "topology: %d CPUs online (%s) of %d, %d NUMA node%s, %d LLC%s, SMT %s\n",
		t->nr_online, list, t->nr_cpu_ids, t->nr_nodes, t->nr_nodes > 1 ? "s" : "",
		t->nr_llcs, t->nr_llcs > 1 ? "s" : "", t->smt ? "on" : "off");
	for (node = 0; node < t->nr_nodes; node++) {
		fprintf(f, "  node %d:", t->node_id[node]);
		for (l = t->node_first_llc[node];
		     l < t->node_first_llc[node] + t->node_nr_llcs[node]; l++) {
			memset(set, 0, sizeof(set));
			for (i = 0; i < t->llc_nr[l]; i++)
				set[t->llc_cpus[t->llc_first[l] + i]] = true;
			cpulist_format(set, t->nr_cpu_ids, list, sizeof(list));
			fprintf(f, " llc %d [%s]", l, list);
		}
		fputc('\n', f);
	}
	print_capacities(t, f);
	for (line = t->notes; *line; line += strcspn(line, "\n") + 1)
		fprintf(f, "  note: %.*s\n", (int)strcspn(line, "\n"), line);
}
