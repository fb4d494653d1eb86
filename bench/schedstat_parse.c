// SPDX-License-Identifier: GPL-2.0
/*
 * schedstat: read /proc/schedstat (versions 15, 16, 17), scx_push's
 * --stats-json file and schedstat's own records; subtract snapshots; write
 * records. Every number is checked and every error names the file and the
 * line. The format of a record is described at the top of schedstat.c.
 *
 * The layouts of the domain lines come from the kernel's
 * Documentation/scheduler/sched-stats.rst: 36 fields until version 16, 45
 * from 17 on (the name of the domain before its mask, lb_imbalance split in
 * four). Version 16 swapped the idle and busy sets of the load_balance()
 * counters (enum cpu_idle_type was reordered); the .rst of 6.12 still lists
 * them in the old order, kernel/sched/stats.c prints them in enum order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "schedstat.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* How one version lays out the fields of a domain line after the mask. */
struct layout {
	unsigned int version;
	unsigned int nr_fields;
	unsigned int lb_set;		/* load_balance() fields per idle type */
	int lb[SS_NR_LB];		/* offset in a set, -1: not in this version */
	unsigned int set[SS_NR_IDLE];	/* which set holds an idle type */
};

static const struct layout layouts[] = {
	{
		.version = 15, .nr_fields = 36, .lb_set = 8,
		.lb = { 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7 },
		/* enum cpu_idle_type: CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE */
		.set = { [SS_BUSY] = 1, [SS_IDLE] = 0, [SS_NEWIDLE] = 2 },
	},
	{
		.version = 16, .nr_fields = 36, .lb_set = 8,
		.lb = { 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7 },
		/* __CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE */
		.set = { [SS_BUSY] = 0, [SS_IDLE] = 1, [SS_NEWIDLE] = 2 },
	},
	{
		.version = 17, .nr_fields = 45, .lb_set = 11,
		.lb = { 0, 1, 2, -1, 3, 4, 5, 6, 7, 8, 9, 10 },
		.set = { [SS_BUSY] = 0, [SS_IDLE] = 1, [SS_NEWIDLE] = 2 },
	},
};

static const struct layout *layout_of(unsigned int version)
{
	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++)
		if (layouts[i].version == version)
			return &layouts[i];
	return NULL;
}

bool ss_same_fields(unsigned int va, unsigned int vb)
{
	const struct layout *a = layout_of(va), *b = layout_of(vb);

	for (int i = 0; i < SS_NR_LB; i++)
		if ((a->lb[i] < 0) != (b->lb[i] < 0))
			return false;
	return true;
}

bool ss_has_lb(unsigned int version, enum ss_lb_field field)
{
	return layout_of(version)->lb[field] >= 0;
}

uint64_t ss_lb(unsigned int version, const struct ss_domain *d,
	       enum ss_idle_type type, enum ss_lb_field field)
{
	const struct layout *l = layout_of(version);

	if (l->lb[field] < 0)
		return 0;
	return d->v[l->set[type] * l->lb_set + l->lb[field]];
}

uint64_t ss_tail(unsigned int version, const struct ss_domain *d,
		 enum ss_tail_field field)
{
	const struct layout *l = layout_of(version);

	return d->v[SS_NR_IDLE * l->lb_set + field];
}

/* Reading lines, with the file name and line number for errors. */
struct reader {
	FILE *f;
	const char *name;
	unsigned int line;
	char *buf;
	size_t cap;
	char *err;
	size_t err_len;
};

/* "NAME:LINE: message" into err. */
static void verr(char *err, size_t err_len, const char *name, unsigned int line,
		 const char *fmt, va_list ap)
{
	size_t used = snprintf(err, err_len, "%s:%u: ", name, line);

	if (used < err_len)
		vsnprintf(err + used, err_len - used, fmt, ap);
}

static __attribute__((format(printf, 5, 6)))
int err_at(char *err, size_t err_len, const char *name, unsigned int line,
	   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(err, err_len, name, line, fmt, ap);
	va_end(ap);
	return -1;
}

static __attribute__((format(printf, 3, 4)))
int fail_at(struct reader *r, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(r->err, r->err_len, r->name, line, fmt, ap);
	va_end(ap);
	return -1;
}

#define fail(r, ...) fail_at(r, (r)->line, __VA_ARGS__)

/*
 * The next line, without its newline, in *line: returns 1, 0 at the end of
 * the file, -1 on a read error, a NUL byte or a last line without its
 * newline (a file cut short).
 */
static int next_line(struct reader *r, char **line)
{
	ssize_t len;

	errno = 0;
	len = getline(&r->buf, &r->cap, r->f);
	if (len < 0)
		return errno ? fail_at(r, r->line + 1, "%s", strerror(errno)) : 0;
	r->line++;
	if ((size_t)len != strlen(r->buf))
		return fail(r, "a NUL byte in the line");
	if (r->buf[len - 1] != '\n')
		return fail(r, "the last line has no newline: truncated?");
	r->buf[len - 1] = '\0';
	*line = r->buf;
	return 1;
}

static void reader_free(struct reader *r)
{
	free(r->buf);
}

/*
 * Splits line at spaces and tabs into at most max words; returns the number
 * of words in the line, which callers check before they look past max.
 */
static unsigned int split(char *line, char **word, unsigned int max)
{
	unsigned int n = 0;
	char *save, *w;

	for (w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n < max)
			word[n] = w;
		n++;
	}
	return n;
}

/* A decimal number of at most 64 bits, digits only. */
static bool parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

/* "PREFIX<number>", e.g. cpu12: the number, or false. */
static bool parse_indexed(const char *word, const char *prefix, unsigned int *idx)
{
	size_t len = strlen(prefix);
	uint64_t v;

	if (strncmp(word, prefix, len) || !parse_u64(word + len, &v) || v > UINT32_MAX)
		return false;
	*idx = v;
	return true;
}

/*
 * The kernel prints the cpu line's times and timeslices (fields 7 to 9) as
 * 64-bit numbers (%llu, %lu on a 64-bit kernel), every other counter of
 * versions 15 to 17 as 32-bit (%u): fields from wide on are 64 bits wide.
 */
static int parse_fields(struct reader *r, char **word, unsigned int n,
			unsigned int wide, uint64_t *v, const char *what)
{
	for (unsigned int i = 0; i < n; i++) {
		if (!parse_u64(word[i], &v[i]))
			return fail(r, "field %u of %s is '%.40s', not a number",
				    i + 1, what, word[i]);
		if (i < wide && v[i] > UINT32_MAX)
			return fail(r, "field %u of %s is %s, more than its 32 bits hold",
				    i + 1, what, word[i]);
	}
	return 0;
}

/* A cpumask as the kernel prints it: hex digits in comma-separated groups. */
static bool valid_mask(const char *s)
{
	if (!*s || *s == ',')
		return false;
	for (; *s; s++)
		if (!strchr("0123456789abcdef,", *s) || (*s == ',' && (!s[1] || s[1] == ',')))
			return false;
	return true;
}

/* A domain or counter name: a word of printable characters. */
static bool valid_name(const char *s)
{
	if (!*s || strlen(s) >= SS_NAME_LEN)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

/* A "KEY NUMBER" line at the current line. */
static int parse_key_number(struct reader *r, char *line, const char *key,
			    uint64_t max, uint64_t *v)
{
	char *word[2];
	unsigned int n = split(line, word, ARRAY_SIZE(word));

	if (n == 0 || strcmp(word[0], key))
		return fail(r, "expected '%s N', got '%.40s'", key, n ? word[0] : "");
	if (n != 2 || !parse_u64(word[1], v) || *v > max)
		return fail(r, "'%s' wants one number up to %llu", key,
			    (unsigned long long)max);
	return 0;
}

static int parse_version(struct reader *r, char *line, struct ss_snapshot *s)
{
	uint64_t v;

	if (parse_key_number(r, line, "version", UINT32_MAX, &v))
		return -1;
	if (!layout_of(v))
		return fail(r, "unknown schedstat version %llu (this tool reads 15, 16 and 17)",
			    (unsigned long long)v);
	s->version = v;
	return 0;
}

/* A cpu<N> line of n words. */
static int add_cpu(struct reader *r, struct ss_snapshot *s, unsigned int id,
		   char **word, unsigned int n)
{
	struct ss_cpu *cpu;

	if (s->nr_cpus && id <= s->cpu[s->nr_cpus - 1].id)
		return fail(r, "cpu%u after cpu%u", id, s->cpu[s->nr_cpus - 1].id);
	if (s->nr_cpus == SS_MAX_CPUS)
		return fail(r, "more than %d CPUs", SS_MAX_CPUS);
	if (n != 1 + SS_CPU_FIELDS)
		return fail(r, "cpu%u has %u fields, want %d", id, n - 1, SS_CPU_FIELDS);
	cpu = realloc(s->cpu, (s->nr_cpus + 1) * sizeof(*cpu));
	if (!cpu)
		return fail(r, "out of memory");
	s->cpu = cpu;
	cpu = &s->cpu[s->nr_cpus];
	memset(cpu, 0, sizeof(*cpu));
	s->nr_cpus++;
	cpu->id = id;
	cpu->line = r->line;
	return parse_fields(r, word + 1, SS_CPU_FIELDS, CPU_RUN_NS, cpu->v, word[0]);
}

/* A domain<N> line of the last CPU; named: "-" or a name before the mask. */
static int add_domain(struct reader *r, struct ss_snapshot *s, unsigned int idx,
		      char **word, unsigned int n, bool named)
{
	const struct layout *l = layout_of(s->version);
	unsigned int first = named ? 2 : 1;
	struct ss_domain *d;
	struct ss_cpu *cpu;
	char what[64];

	if (!s->nr_cpus)
		return fail(r, "domain%u before any cpu line", idx);
	cpu = &s->cpu[s->nr_cpus - 1];
	if (idx != cpu->nr_domains)
		return fail(r, "domain%u of cpu%u where domain%u was expected",
			    idx, cpu->id, cpu->nr_domains);
	if (idx == SS_MAX_LEVELS)
		return fail(r, "more than %d domain levels", SS_MAX_LEVELS);
	if (n != first + 1 + l->nr_fields)
		return fail(r, "domain%u of cpu%u has %u fields, schedstat version %u has %u",
			    idx, cpu->id, n > first ? n - first - 1 : 0, s->version,
			    l->nr_fields);
	d = &cpu->dom[idx];
	d->line = r->line;
	if (named && strcmp(word[1], "-")) {
		if (!valid_name(word[1]))
			return fail(r, "'%.40s' is not a domain name", word[1]);
		strcpy(d->name, word[1]);
	}
	if (!valid_mask(word[first]))
		return fail(r, "'%.40s' is not a cpumask", word[first]);
	d->mask = strdup(word[first]);
	if (!d->mask)
		return fail(r, "out of memory");
	cpu->nr_domains++;
	snprintf(what, sizeof(what), "cpu%u domain%u", cpu->id, idx);
	return parse_fields(r, word + first + 1, l->nr_fields, l->nr_fields, d->v, what);
}

static bool is_snapshot_line(const char *line)
{
	return !strncmp(line, "cpu", 3) || !strncmp(line, "domain", 6);
}

/* A cpu<N> or domain<N> line; named: domain lines carry a name. */
static int parse_snapshot_line(struct reader *r, struct ss_snapshot *s, char *line,
			       bool named)
{
	char *word[SS_MAX_FIELDS + 3];
	unsigned int n, idx;

	n = split(line, word, ARRAY_SIZE(word));
	if (!n)
		return fail(r, "an empty line");
	if (parse_indexed(word[0], "cpu", &idx))
		return add_cpu(r, s, idx, word, n);
	if (parse_indexed(word[0], "domain", &idx))
		return add_domain(r, s, idx, word, n, named);
	return fail(r, "'%.40s' is neither a cpu nor a domain line", word[0]);
}

/*
 * The version and timestamp lines, then the cpu and domain lines. A record
 * (rest != NULL) goes on after them, with a name on every domain line: its
 * first other line is left in *rest (NULL at the end of the file). In
 * /proc/schedstat any other line is an error.
 */
static int read_snapshot(struct reader *r, struct ss_snapshot *s, char **rest)
{
	char *line;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = next_line(r, &line);
	if (ret <= 0)
		return ret ? ret : fail_at(r, r->line + 1, "%s, expected 'version N'",
					   r->line ? "truncated" : "empty file");
	if (parse_version(r, line, s))
		return -1;
	ret = next_line(r, &line);
	if (ret <= 0)
		return ret ? ret : fail_at(r, r->line + 1, "truncated, expected 'timestamp N'");
	if (parse_key_number(r, line, "timestamp", UINT64_MAX, &s->timestamp))
		return -1;
	while ((ret = next_line(r, &line)) > 0) {
		if (rest && !is_snapshot_line(line))
			break;
		if (parse_snapshot_line(r, s, line, rest || s->version >= 17))
			return -1;
	}
	if (ret < 0)
		return ret;
	if (!s->nr_cpus)
		return fail_at(r, ret ? r->line : r->line + 1, "no cpu line");
	if (rest)
		*rest = ret ? line : NULL;
	return 0;
}

int ss_read_schedstat(FILE *f, const char *name, struct ss_snapshot *s,
		      char *err, size_t err_len)
{
	struct reader r = { .f = f, .name = name, .err = err, .err_len = err_len };
	int ret = read_snapshot(&r, s, NULL);

	reader_free(&r);
	if (ret)
		ss_snapshot_free(s);
	return ret;
}

/*
 * The name of a sched domain from debugfs (sched/domains/cpuN/domainM/name,
 * there when sched/verbose is on): 1 and the name, 0 when there is no such
 * file, -1 on a read error or a file that holds no name.
 */
int ss_read_domain_name(const char *path, char *name, char *err, size_t err_len)
{
	struct reader r = { .name = path, .err = err, .err_len = err_len };
	char *line;
	int ret;

	r.f = fopen(path, "r");
	if (!r.f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = next_line(&r, &line);
	if (ret == 0)
		ret = fail_at(&r, 1, "empty file, expected a sched domain name");
	else if (ret > 0 && !valid_name(line))
		ret = fail(&r, "'%.40s' is not a sched domain name", line);
	else if (ret > 0)
		strcpy(name, line);
	fclose(r.f);
	reader_free(&r);
	return ret;
}

/* A counter name of scx_push's JSON: lower case letters, digits, '_'. */
static bool valid_counter(const char *s, size_t len)
{
	if (!len || len >= SS_NAME_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", s[i]))
			return false;
	return true;
}

static char *skip_space(char *s)
{
	return s + strspn(s, " \t");
}

/* Appends the counter name = num to x. */
static int add_counter(struct reader *r, struct ss_scx *x, const char *name,
		       const char *num)
{
	if (!valid_counter(name, strlen(name)))
		return fail(r, "'%.40s' is not a counter name", name);
	for (unsigned int i = 0; i < x->nr; i++)
		if (!strcmp(x->name[i], name))
			return fail(r, "%s appears twice", name);
	if (x->nr == SS_MAX_SCX)
		return fail(r, "more than %d counters", SS_MAX_SCX);
	if (!parse_u64(num, &x->v[x->nr]))
		return fail(r, "the value of %s is '%.40s', not a number", name, num);
	strcpy(x->name[x->nr], name);
	x->line[x->nr++] = r->line;
	return 0;
}

/* One '"name": number[,]' line of the "stats" object into x. */
static int parse_counter(struct reader *r, char *line, struct ss_scx *x)
{
	char *p = skip_space(line), *name, *num;
	size_t len;

	if (*p != '"')
		return fail(r, "expected '\"name\": number', got '%.40s'", p);
	name = p + 1;
	len = strcspn(name, "\"");
	if (name[len] != '"')
		return fail(r, "'%.40s' is not a counter name", p);
	name[len] = '\0';
	p = skip_space(name + len + 1);
	if (*p != ':')
		return fail(r, "no ':' after \"%s\"", name);
	num = skip_space(p + 1);
	len = strcspn(num, ", \t");
	p = skip_space(num + len);
	if (*p == ',')
		p = skip_space(p + 1);
	if (*p)
		return fail(r, "'%.40s' after the value of %s", p, name);
	num[len] = '\0';
	return add_counter(r, x, name, num);
}

/* The line that opens the "stats" object: "stats": { */
static bool opens_stats(char *p)
{
	if (strncmp(p, "\"stats\"", 7))
		return false;
	p = skip_space(p + 7);
	return *p == ':' && *skip_space(p + 1) == '{';
}

/*
 * scx_push's --stats-json file: only its "stats" object is read, one
 * '"name": number' per line as loader/stats.c writes it.
 */
static int read_scx_json(struct reader *r, struct ss_scx *x)
{
	bool in_stats = false;
	char *line, *p;
	int ret;

	memset(x, 0, sizeof(*x));
	while ((ret = next_line(r, &line)) > 0) {
		p = skip_space(line);
		if (!in_stats) {
			in_stats = opens_stats(p);
			continue;
		}
		if (*p == '}')
			return 0;
		if (parse_counter(r, line, x))
			return -1;
	}
	if (ret < 0)
		return ret;
	if (!in_stats)
		return fail_at(r, r->line + 1,
			       "no \"stats\" object (has scx_push written the file yet?)");
	return fail_at(r, r->line + 1, "truncated: the \"stats\" object has no '}'");
}

int ss_read_scx_json(FILE *f, const char *name, struct ss_scx *x,
		     char *err, size_t err_len)
{
	struct reader r = { .f = f, .name = name, .err = err, .err_len = err_len };
	int ret = read_scx_json(&r, x);

	reader_free(&r);
	return ret;
}

/*
 * after - before of a counter. The kernel's counters only grow, but one of
 * 32 bits may wrap during a run: a smaller value after is a wrap there, and
 * an error in a 64-bit counter.
 */
static bool counter_delta(uint64_t before, uint64_t after, bool wide, uint64_t *d)
{
	if (after >= before)
		*d = after - before;
	else if (!wide)
		*d = after + (1ULL << 32) - before;
	else
		return false;
	return true;
}

/* As parse_fields(), fields from wide on are 64 bits wide. */
static int fields_delta(uint64_t *d, const uint64_t *before, const uint64_t *after,
			unsigned int n, unsigned int wide, const char *what,
			const char *name, unsigned int line, char *err, size_t err_len)
{
	for (unsigned int i = 0; i < n; i++)
		if (!counter_delta(before[i], after[i], i >= wide, &d[i]))
			return err_at(err, err_len, name, line,
				      "field %u of %s went back from %llu to %llu during the run",
				      i + 1, what, (unsigned long long)before[i],
				      (unsigned long long)after[i]);
	return 0;
}

/* The same CPUs with the same domain levels in both, or an error. */
static int same_machine(const struct ss_snapshot *b, const struct ss_snapshot *a,
			const char *name, char *err, size_t err_len)
{
	if (a->version != b->version)
		return err_at(err, err_len, name, 1,
			      "schedstat version %u during the run, %u before",
			      a->version, b->version);
	if (a->nr_cpus != b->nr_cpus)
		return err_at(err, err_len, name, a->cpu[a->nr_cpus - 1].line,
			      "%u CPUs after the run, %u before: CPU hotplug?",
			      a->nr_cpus, b->nr_cpus);
	for (unsigned int i = 0; i < a->nr_cpus; i++) {
		if (a->cpu[i].id != b->cpu[i].id || a->cpu[i].nr_domains != b->cpu[i].nr_domains)
			return err_at(err, err_len, name, a->cpu[i].line,
				      "cpu%u with %u domain levels after the run, cpu%u with %u before",
				      a->cpu[i].id, a->cpu[i].nr_domains,
				      b->cpu[i].id, b->cpu[i].nr_domains);
	}
	return 0;
}

static int domain_delta(struct ss_domain *d, const struct ss_domain *before,
			const struct ss_domain *after, unsigned int nr_fields,
			const char *what, const char *name, char *err, size_t err_len)
{
	memcpy(d->name, after->name, sizeof(d->name));
	d->line = after->line;
	d->mask = strdup(after->mask);
	if (!d->mask)
		return err_at(err, err_len, name, after->line, "out of memory");
	return fields_delta(d->v, before->v, after->v, nr_fields, nr_fields, what,
			    name, after->line, err, err_len);
}

static int snapshot_delta(struct ss_snapshot *d, const struct ss_snapshot *before,
			  const struct ss_snapshot *after, const char *name,
			  char *err, size_t err_len)
{
	unsigned int nr_fields = layout_of(after->version)->nr_fields;
	char what[64];

	memset(d, 0, sizeof(*d));
	if (same_machine(before, after, name, err, err_len))
		return -1;
	d->cpu = calloc(after->nr_cpus, sizeof(*d->cpu));
	if (!d->cpu)
		return err_at(err, err_len, name, 1, "out of memory");
	d->version = after->version;
	d->nr_cpus = after->nr_cpus;
	if (!counter_delta(before->timestamp, after->timestamp, true, &d->timestamp))
		return err_at(err, err_len, name, 2, "the timestamp went back during the run");
	for (unsigned int i = 0; i < d->nr_cpus; i++) {
		const struct ss_cpu *b = &before->cpu[i], *a = &after->cpu[i];
		struct ss_cpu *c = &d->cpu[i];

		c->id = a->id;
		c->line = a->line;
		snprintf(what, sizeof(what), "cpu%u", a->id);
		if (fields_delta(c->v, b->v, a->v, SS_CPU_FIELDS, CPU_RUN_NS, what, name,
				 a->line, err, err_len))
			return -1;
		for (unsigned int l = 0; l < a->nr_domains; l++) {
			snprintf(what, sizeof(what), "cpu%u domain%u", a->id, l);
			c->nr_domains++;
			if (domain_delta(&c->dom[l], &b->dom[l], &a->dom[l], nr_fields,
					 what, name, err, err_len))
				return -1;
		}
	}
	return 0;
}

int ss_snapshot_delta(struct ss_snapshot *d, const struct ss_snapshot *before,
		      const struct ss_snapshot *after, const char *name,
		      char *err, size_t err_len)
{
	int ret = snapshot_delta(d, before, after, name, err, err_len);

	if (ret)
		ss_snapshot_free(d);
	return ret;
}

int ss_scx_delta(struct ss_scx *d, const struct ss_scx *before,
		 const struct ss_scx *after, const char *name,
		 char *err, size_t err_len)
{
	memset(d, 0, sizeof(*d));
	for (unsigned int i = 0; i < after->nr; i++) {
		if (i >= before->nr || strcmp(before->name[i], after->name[i]))
			return err_at(err, err_len, name, after->line[i],
				      "%s was not there before the run: another scx_push?",
				      after->name[i]);
		if (after->v[i] < before->v[i])
			return err_at(err, err_len, name, after->line[i],
				      "%s went back from %llu to %llu during the run: scx_push restarted?",
				      after->name[i], (unsigned long long)before->v[i],
				      (unsigned long long)after->v[i]);
		strcpy(d->name[i], after->name[i]);
		d->v[i] = after->v[i] - before->v[i];
		d->line[i] = after->line[i];
	}
	if (before->nr > after->nr)
		return err_at(err, err_len, name, before->line[after->nr],
			      "%s is gone after the run: another scx_push?",
			      before->name[after->nr]);
	d->nr = after->nr;
	return 0;
}

static void write_fields(FILE *f, const uint64_t *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, " %llu", (unsigned long long)v[i]);
	fputc('\n', f);
}

/* The command on one line: control characters become '?'. */
static void write_command(FILE *f, const char *cmd)
{
	fputs("command ", f);
	for (; *cmd; cmd++)
		fputc((unsigned char)*cmd < ' ' || *cmd == 0x7f ? '?' : *cmd, f);
	fputc('\n', f);
}

static void write_snapshot(FILE *f, const struct ss_snapshot *s)
{
	unsigned int nr_fields = layout_of(s->version)->nr_fields;

	fprintf(f, "version %u\ntimestamp %llu\n", s->version,
		(unsigned long long)s->timestamp);
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		const struct ss_cpu *c = &s->cpu[i];

		fprintf(f, "cpu%u", c->id);
		write_fields(f, c->v, SS_CPU_FIELDS);
		for (unsigned int l = 0; l < c->nr_domains; l++) {
			const struct ss_domain *d = &c->dom[l];

			fprintf(f, "domain%u %s %s", l, *d->name ? d->name : "-", d->mask);
			write_fields(f, d->v, nr_fields);
		}
	}
}

int ss_write_record(FILE *f, const struct ss_record *r)
{
	const struct ss_snapshot *s = &r->st;

	fprintf(f, "schedstat-data %d\n", SS_DATA_FORMAT);
	write_command(f, r->command);
	fprintf(f, "exit-status %u\nelapsed-ns %llu\ncpus %u\ndomains", r->exit_status,
		(unsigned long long)r->elapsed_ns, s->nr_cpus);
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		fprintf(f, " %u", s->cpu[i].nr_domains);
	fputc('\n', f);
	write_snapshot(f, s);
	for (unsigned int i = 0; r->has_scx && i < r->scx.nr; i++)
		fprintf(f, "scx %s %llu\n", r->scx.name[i], (unsigned long long)r->scx.v[i]);
	fputs("end\n", f);
	return ferror(f) ? -1 : 0;
}

/* The next line of a record, which must be there. */
static int need_line(struct reader *r, char **line)
{
	int ret = next_line(r, line);

	if (ret == 0)
		return fail_at(r, r->line + 1, "truncated: no 'end' line");
	return ret < 0 ? -1 : 0;
}

static int need_number(struct reader *r, const char *key, uint64_t min,
		       uint64_t max, uint64_t *v)
{
	char *line;

	if (need_line(r, &line) || parse_key_number(r, line, key, max, v))
		return -1;
	if (*v < min)
		return fail(r, "'%s' wants a number from %llu", key, (unsigned long long)min);
	return 0;
}

static int read_format(struct reader *r)
{
	uint64_t format;
	char *line;
	int ret = next_line(r, &line);

	if (ret == 0)
		return fail_at(r, 1, "empty file, expected 'schedstat-data %d'", SS_DATA_FORMAT);
	if (ret < 0 || parse_key_number(r, line, "schedstat-data", UINT32_MAX, &format))
		return -1;
	if (format != SS_DATA_FORMAT)
		return fail(r, "record format %llu, this tool reads %d",
			    (unsigned long long)format, SS_DATA_FORMAT);
	return 0;
}

static int read_command(struct reader *r, struct ss_record *rec)
{
	char *line;

	if (need_line(r, &line))
		return -1;
	if (strncmp(line, "command ", 8) || !line[8])
		return fail(r, "expected 'command TEXT', got '%.40s'", line);
	rec->command = strdup(line + 8);
	return rec->command ? 0 : fail(r, "out of memory");
}

/* "domains N..." into nr[], one count per CPU. */
static int read_domains(struct reader *r, unsigned int *nr, unsigned int nr_cpus)
{
	unsigned int n = 0;
	char *line, *save, *w;
	uint64_t v;

	if (need_line(r, &line))
		return -1;
	w = strtok_r(line, " \t", &save);
	if (!w || strcmp(w, "domains"))
		return fail(r, "expected 'domains N...', got '%.40s'", w ? w : "");
	while ((w = strtok_r(NULL, " \t", &save))) {
		if (n == nr_cpus)
			return fail(r, "more domain counts than the %u CPUs", nr_cpus);
		if (!parse_u64(w, &v) || v > SS_MAX_LEVELS)
			return fail(r, "domain count %u is '%.40s', not a number up to %d",
				    n + 1, w, SS_MAX_LEVELS);
		nr[n++] = v;
	}
	if (n != nr_cpus)
		return fail(r, "%u domain counts for %u CPUs", n, nr_cpus);
	return 0;
}

/* The lines before the snapshot; the machine's shape in nr_cpus, nr_domains. */
static int read_header(struct reader *r, struct ss_record *rec, unsigned int *nr_cpus,
		       unsigned int *nr_domains)
{
	uint64_t v;

	if (read_format(r) || read_command(r, rec) ||
	    need_number(r, "exit-status", 0, 255, &v))
		return -1;
	rec->exit_status = v;
	if (need_number(r, "elapsed-ns", 0, UINT64_MAX, &rec->elapsed_ns) ||
	    need_number(r, "cpus", 1, SS_MAX_CPUS, &v))
		return -1;
	*nr_cpus = v;
	rec->shape_line = r->line;
	return read_domains(r, nr_domains, v);
}

/* The cpu and domain lines agree with the header's cpus and domains. */
static int check_shape(struct reader *r, const struct ss_record *rec,
		       unsigned int nr_cpus, const unsigned int *nr_domains)
{
	const struct ss_snapshot *s = &rec->st;

	if (s->nr_cpus != nr_cpus)
		return fail_at(r, rec->shape_line, "%u CPUs, but %u cpu lines follow",
			       nr_cpus, s->nr_cpus);
	for (unsigned int i = 0; i < nr_cpus; i++)
		if (s->cpu[i].nr_domains != nr_domains[i])
			return fail_at(r, s->cpu[i].line,
				       "cpu%u has %u domain lines, line %u says %u",
				       s->cpu[i].id, s->cpu[i].nr_domains,
				       rec->shape_line + 1, nr_domains[i]);
	return 0;
}

/* "scx NAME N" lines from line on, then "end" and nothing after it. */
static int read_scx_lines(struct reader *r, struct ss_record *rec, char *line)
{
	char *word[3];
	unsigned int n;

	memset(&rec->scx, 0, sizeof(rec->scx));
	for (;;) {
		if (!line)
			return fail_at(r, r->line + 1, "truncated: no 'end' line");
		n = split(line, word, ARRAY_SIZE(word));
		if (n == 1 && !strcmp(word[0], "end"))
			break;
		if (n != 3 || strcmp(word[0], "scx"))
			return fail(r, "expected 'scx NAME N' or 'end', got '%.40s'",
				    n ? word[0] : "");
		if (add_counter(r, &rec->scx, word[1], word[2]))
			return -1;
		if (need_line(r, &line))
			return -1;
	}
	rec->has_scx = rec->scx.nr > 0;
	switch (next_line(r, &line)) {
	case 0:
		return 0;
	case 1:
		return fail(r, "text after 'end'");
	default:
		return -1;
	}
}

static int read_record(struct reader *r, struct ss_record *rec)
{
	unsigned int nr_cpus, *nr_domains;
	char *rest;
	int ret = -1;

	memset(rec, 0, sizeof(*rec));
	nr_domains = calloc(SS_MAX_CPUS, sizeof(*nr_domains));
	if (!nr_domains)
		return fail_at(r, 1, "out of memory");
	if (read_header(r, rec, &nr_cpus, nr_domains))
		goto out;
	if (read_snapshot(r, &rec->st, &rest) ||
	    read_scx_lines(r, rec, rest) ||
	    check_shape(r, rec, nr_cpus, nr_domains))
		goto out;
	ret = 0;
out:
	free(nr_domains);
	return ret;
}

int ss_read_record(FILE *f, const char *name, struct ss_record *r,
		   char *err, size_t err_len)
{
	struct reader rd = { .f = f, .name = name, .err = err, .err_len = err_len };
	int ret = read_record(&rd, r);

	reader_free(&rd);
	if (ret)
		ss_record_free(r);
	return ret;
}

void ss_snapshot_free(struct ss_snapshot *s)
{
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		for (unsigned int l = 0; l < s->cpu[i].nr_domains; l++)
			free(s->cpu[i].dom[l].mask);
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

void ss_record_free(struct ss_record *r)
{
	free(r->command);
	r->command = NULL;
	ss_snapshot_free(&r->st);
}
