/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wcmon: what the tracing programs (wcmon.bpf.c) and the loader (wcmon.c)
 * share: the limits and the totals the sampler keeps. The design is
 * described at the top of wcmon.bpf.c.
 */
#ifndef __WCMON_H
#define __WCMON_H

enum wc_limits {
	WC_MAX_CPUS	= 64,		/* one bit per CPU in a __u64 */
	/* the sampling period: not a divisor of the 4 ms tick (HZ=250) */
	WC_SAMPLE_NS	= 997000,
};

/*
 * The sampler's totals, written by it alone; seq is odd while it writes
 * them. Times in ns of CLOCK_MONOTONIC (bpf_ktime_get_ns()), CPU time in
 * CPU-ns.
 */
struct wc_totals {
	__u64 seq;
	__u64 start_ns;		/* the first sample */
	__u64 last_ns;		/* the last sample: the integrals end here */
	__u64 idle_ns;		/* integral of the idle CPUs */
	__u64 idle_wait_ns;	/* ... of those a task waiting elsewhere may run on */
	__u32 cur_idle;		/* at the last sample */
	__u32 cur_wait;
	__u64 samples;
};

#endif /* __WCMON_H */
