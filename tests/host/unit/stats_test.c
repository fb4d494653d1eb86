// SPDX-License-Identifier: GPL-2.0
/* Unit tests of loader/stats.c: the stats table, text lines and JSON. */
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "unit.h"

static void test_table(void)
{
	bool unique = true, described = true;

	for (int i = 0; i < SCX_PUSH_NR_STATS; i++) {
		described &= stat_names[i] && stat_descs[i] && *stat_descs[i];
		for (int j = 0; j < i; j++)
			unique &= strcmp(stat_names[i], stat_names[j]) != 0;
	}
	CHECK(described, "every counter has a name and a description");
	CHECK(unique, "counter names are unique (they are JSON keys)");
	CHECK(!strcmp(stat_names[STAT_PULL_NODE], "pull_node"), "names follow the table");
}

static void test_arithmetic(void)
{
	struct stats a = { }, b = { }, d;

	a.v[STAT_ENQ] = 10;
	b.v[STAT_ENQ] = 3;
	stats_sub(&d, &a, &b);
	CHECK(d.v[STAT_ENQ] == 7, "stats_sub()");
	stats_add(&d, &b);
	CHECK(d.v[STAT_ENQ] == 10, "stats_add()");

	memset(&a, 0, sizeof(a));
	CHECK(stats_scan_per_pull(&a) == 0, "no pull: 0 CPUs examined per pull");
	a.v[STAT_PULL_LLC] = 1;
	a.v[STAT_PULL_NODE] = 2;
	a.v[STAT_PULL_REMOTE] = 1;
	a.v[STAT_PULL_SCAN_OK] = 6;
	CHECK(stats_scan_per_pull(&a) == 1.5, "6 CPUs examined for 4 pulls is 1.5 per pull");
}

static struct stats sample(void)
{
	struct stats s = { };

	s.v[STAT_PUSH_TRY] = 3;
	s.v[STAT_PUSH_OK] = 2;
	s.v[STAT_PUSH_MOVE] = 1;
	s.v[STAT_PULL_LLC_TRY] = 4;
	s.v[STAT_PULL_LLC] = 2;
	s.v[STAT_PULL_SCAN_OK] = 3;
	s.v[STAT_PULL_NS] = 4000;
	s.v[STAT_REENQ] = 7;
	return s;
}

static void test_format(void)
{
	struct options o = { .slice_us = 20000, .push = true };
	struct stats_report r = { .elapsed_s = 2.5, .overloaded = "0-1,4", .opts = &o };
	struct stats s = sample();
	char text[4096], small[40];

	stats_format(&s, "[x]", &r, text, sizeof(text));
	CHECK(strstr(text, "[x] push: push_try=3 push_ok=2 push_move=1\n"),
	      "push line lists the push group in table order");
	CHECK(strstr(text, "[x] pull: pull_llc_try=4 pull_llc=2 "), "pull line");
	CHECK(strstr(text, " scan_per_pull=1.50 ns_per_pull=1000\n"),
	      "pull line ends with CPUs examined and ns per pull");
	CHECK(strstr(text, " overloaded=0-1,4\n"), "mask line ends with the overloaded CPUs");
	CHECK(strstr(text, "[x] release: reenq=7 rescue=0\n"), "release line");
	stats_format(&s, "[x]", &r, small, sizeof(small));
	CHECK(strlen(small) == sizeof(small) - 1, "a short buffer is filled and terminated");
}

static void test_json(void)
{
	struct options o = { .slice_us = 500, .scope = SCX_PUSH_SCOPE_NODE,
			     .scan = SCX_PUSH_SCAN_FULL, .pull = true };
	struct stats_report r = { .elapsed_s = 2.5, .restarts = 1, .overloaded = "none",
				  .queued_wakeup = "off", .opts = &o };
	struct stats s = sample();
	char *text = NULL;
	size_t len = 0;
	int open = 0, close = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f && !stats_write_json(f, &s, &r) && !fclose(f), "JSON written");
	if (!text)
		return;
	CHECK(strstr(text, "\"slice_us\": 500,") && strstr(text, "\"pull_scope\": \"node\",") &&
	      strstr(text, "\"scan\": \"full\",") && strstr(text, "\"push\": false,") &&
	      strstr(text, "\"restarts\": 1,"), "JSON has the configuration");
	CHECK(strstr(text, "  \"idle_gate\": false,\n  \"gate_kicked\": false,\n"
			   "  \"misfit\": false,\n  \"queued_wakeup\": \"off\",\n"),
	      "JSON says kicked pulls are not gated, misfit handling and queued wakeups off, after idle_gate");
	CHECK(strstr(text, "  \"busy_balance\": false,\n  \"group_balance\": false,\n"),
	      "JSON says whether group moves are on, after busy_balance");
	CHECK(strstr(text, "  \"preemption\": false,\n  \"preemption_timer\": false,\n"),
	      "JSON says whether the preempt timer is on, after preemption");
	CHECK(strstr(text, "    \"push_ok\": 2,\n"), "JSON has the counters, one per line");
	CHECK(strstr(text, "    \"misfit_pull\": 0\n  }\n}\n"), "JSON ends without a trailing comma");
	for (char *c = text; *c; c++) {
		open += *c == '{';
		close += *c == '}';
	}
	CHECK(open == 2 && close == 2, "JSON braces balance");
	free(text);

	text = NULL;
	r.misfit = true;
	r.queued_wakeup = "unavailable";
	f = open_memstream(&text, &len);
	CHECK(f && !stats_write_json(f, &s, &r) && !fclose(f) && text &&
	      strstr(text, "  \"misfit\": true,\n"), "JSON says misfit handling is on");
	CHECK(text && strstr(text, "  \"queued_wakeup\": \"unavailable\",\n"),
	      "JSON says queued wakeups are unavailable");
	free(text);
}

int main(void)
{
	test_table();
	test_arithmetic();
	test_format();
	test_json();
	return unit_done();
}
