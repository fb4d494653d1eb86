// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push loader: format the scheduler's counters. Labels, groups and JSON
 * keys all come from the SCX_PUSH_STATS table that the BPF side indexes, so
 * they cannot drift apart.
 */
#include <stdarg.h>
#include <string.h>

#include "stats.h"

const char *const stat_names[SCX_PUSH_NR_STATS] = {
#define STAT_NAME(id, name, group, desc) [STAT_##id] = #name,
	SCX_PUSH_STATS(STAT_NAME)
#undef STAT_NAME
};

const char *const stat_descs[SCX_PUSH_NR_STATS] = {
#define STAT_DESC(id, name, group, desc) [STAT_##id] = desc,
	SCX_PUSH_STATS(STAT_DESC)
#undef STAT_DESC
};

static const int stat_groups[SCX_PUSH_NR_STATS] = {
#define STAT_GROUP(id, name, group, desc) [STAT_##id] = SCX_PUSH_GROUP_##group,
	SCX_PUSH_STATS(STAT_GROUP)
#undef STAT_GROUP
};

static const char *const group_labels[SCX_PUSH_NR_GROUPS] = {
#define GROUP_LABEL(id, label) [SCX_PUSH_GROUP_##id] = label,
	SCX_PUSH_STAT_GROUPS(GROUP_LABEL)
#undef GROUP_LABEL
};

void stats_add(struct stats *sum, const struct stats *s)
{
	for (int i = 0; i < SCX_PUSH_NR_STATS; i++)
		sum->v[i] += s->v[i];
}

void stats_sub(struct stats *diff, const struct stats *a, const struct stats *b)
{
	for (int i = 0; i < SCX_PUSH_NR_STATS; i++)
		diff->v[i] = a->v[i] - b->v[i];
}

static unsigned long long pulls(const struct stats *s)
{
	return s->v[STAT_PULL_LLC] + s->v[STAT_PULL_NODE] + s->v[STAT_PULL_REMOTE];
}

double stats_scan_per_pull(const struct stats *s)
{
	unsigned long long n = pulls(s);

	return n ? (double)s->v[STAT_PULL_SCAN_OK] / n : 0;
}

/* Every pull searches the own LLC first, so pull_llc_try counts pulls. */
static double ns_per_pull(const struct stats *s)
{
	unsigned long long tries = s->v[STAT_PULL_LLC_TRY];

	return tries ? (double)s->v[STAT_PULL_NS] / tries : 0;
}

/* Append to buf[*used..len), keeping it NUL-terminated when it overflows. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	*used = n < 0 ? len : *used + n;
}

void stats_format(const struct stats *s, const char *label,
		  const struct stats_report *r, char *buf, size_t len)
{
	size_t used = 0;
	int g, i;

	buf[0] = '\0';
	for (g = 0; g < SCX_PUSH_NR_GROUPS; g++) {
		append(buf, len, &used, "%s %s:", label, group_labels[g]);
		for (i = 0; i < SCX_PUSH_NR_STATS; i++)
			if (stat_groups[i] == g)
				append(buf, len, &used, " %s=%llu", stat_names[i], s->v[i]);
		if (g == SCX_PUSH_GROUP_PULL)
			append(buf, len, &used, " scan_per_pull=%.2f ns_per_pull=%.0f",
			       stats_scan_per_pull(s), ns_per_pull(s));
		if (g == SCX_PUSH_GROUP_MASK)
			append(buf, len, &used, " overloaded=%s", r->overloaded);
		append(buf, len, &used, "\n");
	}
}

int stats_write_json(FILE *f, const struct stats *s, const struct stats_report *r)
{
	const struct options *o = r->opts;
	int i;

	fprintf(f, "{\n");
	fprintf(f, "  \"scheduler\": \"scx_push\",\n");
	fprintf(f, "  \"elapsed_s\": %.3f,\n", r->elapsed_s);
	fprintf(f, "  \"restarts\": %u,\n", r->restarts);
	fprintf(f, "  \"slice_us\": %lu,\n", o->slice_us);
	fprintf(f, "  \"pull_scope\": \"%s\",\n", options_scope_name(o->scope));
	fprintf(f, "  \"scan\": \"%s\",\n", options_scan_name(o->scan));
	fprintf(f, "  \"push\": %s,\n", o->push ? "true" : "false");
	fprintf(f, "  \"pull\": %s,\n", o->pull ? "true" : "false");
	fprintf(f, "  \"busy_balance\": %s,\n", o->busy ? "true" : "false");
	fprintf(f, "  \"group_balance\": %s,\n", o->busy_group ? "true" : "false");
	fprintf(f, "  \"sync_placement\": %s,\n", o->sync ? "true" : "false");
	fprintf(f, "  \"preemption\": %s,\n", o->preempt ? "true" : "false");
	fprintf(f, "  \"preemption_timer\": %s,\n", o->preempt_timer ? "true" : "false");
	fprintf(f, "  \"slice_scale\": %s,\n", o->slice_scale ? "true" : "false");
	fprintf(f, "  \"wake_credit_us\": %lu,\n", o->wake_credit_us);
	fprintf(f, "  \"mig_cost_us\": %lu,\n", o->mig_cost_us);
	fprintf(f, "  \"idle_gate\": %s,\n", o->idle_gate ? "true" : "false");
	fprintf(f, "  \"gate_kicked\": %s,\n", o->gate_kicked ? "true" : "false");
	fprintf(f, "  \"misfit\": %s,\n", r->misfit ? "true" : "false");
	fprintf(f, "  \"queued_wakeup\": \"%s\",\n", r->queued_wakeup);
	fprintf(f, "  \"partial\": %s,\n", o->partial ? "true" : "false");
	fprintf(f, "  \"overloaded\": \"%s\",\n", r->overloaded);
	fprintf(f, "  \"scan_per_pull\": %.3f,\n", stats_scan_per_pull(s));
	fprintf(f, "  \"ns_per_pull\": %.0f,\n", ns_per_pull(s));
	fprintf(f, "  \"stats\": {\n");
	for (i = 0; i < SCX_PUSH_NR_STATS; i++)
		fprintf(f, "    \"%s\": %llu%s\n", stat_names[i], s->v[i],
			i + 1 < SCX_PUSH_NR_STATS ? "," : "");
	fprintf(f, "  }\n}\n");
	return ferror(f) ? -1 : 0;
}
