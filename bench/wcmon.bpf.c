// SPDX-License-Identifier: GPL-2.0
/*
 * wcmon: a work-conservation monitor, independent of the scheduler (EEVDF,
 * scx_push, any sched_ext scheduler). It measures the CPU time spent idle
 * while a task that may run on that CPU waits on another CPU's runqueue:
 * the time a balancer leaves on the table.
 *
 * State. Tracing programs on sched_switch, sched_wakeup, sched_wakeup_new
 * and sched_migrate_task keep which CPUs run their idle task (idle_mask)
 * and which tasks wait: runnable, not running (a task waits from its
 * wakeup, or from its switch-out while still queued, until it is switched
 * in). A waiting task is kept at the CPU whose runqueue holds it
 * (task_cpu(), moved by sched_migrate_task) with its allowed CPUs
 * (cpus_ptr) of that moment, in task storage; nr_allow[x][c] counts the
 * tasks waiting on CPU x that may run on CPU c != x. A task's events are
 * serialized by its runqueue's lock; the shared state is changed with
 * atomic operations only: no lock, nothing spins (a global lock on every
 * context switch made an 8-vCPU TCG guest ten times slower).
 *
 * Measure. A BPF timer samples the state every WC_SAMPLE_NS (just under
 * 1 ms, off the tick's 4 ms): an idle CPU c counts when some busy CPU x != c
 * has a waiting task that may run on c,
 *
 *   cur_wait = |{ idle c : nr_allow[x][c] > 0 for some busy x != c }|
 *
 * and idle_wait_ns adds cur_wait times the time since the previous sample
 * (idle_ns the same for the idle CPUs): an estimate of the integral whose
 * error is that of sampling at 1 kHz, small over a case of seconds. The
 * timer's CPU wakes ~1000 times a second; the loader reads the totals from
 * the mapped .bss, retrying while the sampler writes (seq odd).
 *
 * Approximations, what the number does not see:
 * - A task waiting on an idle CPU's runqueue is not counted: it is taken to
 *   be on its way to that CPU (a wakeup's IPI in flight). A scheduler that
 *   leaves a task queued on an idle CPU (a missed kick) is not seen, nor a
 *   sched_ext task queued in another CPU's DSQ than its task_cpu().
 * - The allowed CPUs are those of the moment the task started waiting; an
 *   affinity change while it waits shows at its next wait.
 * - A sample may see a task's counts half added, or a CPU's idle bit a
 *   moment early or late: one sample's worth, now and then.
 * - Tasks waiting when the monitor starts count from their next wait; a CPU
 *   counts as busy until its first context switch (the loader makes every
 *   CPU switch once after attaching).
 * - Only CPUs 0..63 (WC_MAX_CPUS); the loader refuses more.
 * - An event whose task storage cannot be had is counted in lost.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "wcmon.h"

char _license[] SEC("license") = "GPL";

#define CLOCK_MONOTONIC 1

const volatile __u32 nr_cpus = 1;	/* highest possible CPU + 1, set by the loader */

struct wc_totals totals;		/* read by the loader through the mapped .bss */
__u64 lost;
__u64 idle_mask;			/* CPUs running their idle task */
__u32 nr_allow[WC_MAX_CPUS][WC_MAX_CPUS];
__u32 armed;				/* the sampler was started */

/* A task's state, changed only under its runqueue's lock. */
struct wc_task {
	u64 mask;		/* its allowed CPUs when it started waiting */
	u32 cpu;		/* the CPU it waits on */
	bool waiting;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct wc_task);
} wc_tasks SEC(".maps");

struct wc_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct wc_timer);
} wc_timer SEC(".maps");

/* Bit c of a CPU mask; c < WC_MAX_CPUS. */
static __always_inline u64 bit(u32 c)
{
	return 1ULL << (c & (WC_MAX_CPUS - 1));
}

/* Adds (d = 1) or removes (d = -1) task t's allowed CPUs at its CPU. */
static __always_inline void account(struct wc_task *t, int d)
{
	u32 x = t->cpu & (WC_MAX_CPUS - 1);

	for (u32 c = 0; c < nr_cpus && c < WC_MAX_CPUS; c++)
		if (c != x && (t->mask & bit(c)))
			__sync_fetch_and_add(&nr_allow[x][c], d);
}

static __always_inline void start_wait(struct wc_task *t, u32 cpu, u64 mask)
{
	t->cpu = cpu;
	t->mask = mask;
	t->waiting = true;
	account(t, 1);
}

static __always_inline void stop_wait(struct wc_task *t)
{
	account(t, -1);
	t->waiting = false;
}

static struct wc_task *task_state(struct task_struct *p, bool create)
{
	struct wc_task *t = bpf_task_storage_get(&wc_tasks, p, NULL,
			create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);

	if (!t && create)
		__sync_fetch_and_add(&lost, 1);
	return t;
}

/* One sample: the idle CPUs a task waiting on a busy CPU may run on. */
static int sample(void *map, int *key, struct wc_timer *w)
{
	u64 idle = idle_mask, elsewhere = 0, now = bpf_ktime_get_ns();
	struct wc_totals *s = &totals;

	for (u32 x = 0; x < nr_cpus && x < WC_MAX_CPUS; x++) {
		if (idle & bit(x))
			continue;
		for (u32 c = 0; c < nr_cpus && c < WC_MAX_CPUS; c++)
			if ((idle & bit(c)) && nr_allow[x][c])
				elsewhere |= bit(c);
	}
	s->seq++;
	if (!s->start_ns)
		s->start_ns = now;
	else if (now > s->last_ns) {
		s->idle_ns += s->cur_idle * (now - s->last_ns);
		s->idle_wait_ns += s->cur_wait * (now - s->last_ns);
	}
	s->last_ns = now;
	s->cur_idle = __builtin_popcountll(idle);
	s->cur_wait = __builtin_popcountll(idle & elsewhere);
	s->samples++;
	s->seq++;
	bpf_timer_start(&w->timer, WC_SAMPLE_NS, 0);
	return 0;
}

/* The first event starts the sampler, once. */
static void arm(void)
{
	struct wc_timer *w;
	u32 zero = 0;

	if (armed || __sync_val_compare_and_swap(&armed, 0, 1))
		return;
	w = bpf_map_lookup_elem(&wc_timer, &zero);
	if (!w || bpf_timer_init(&w->timer, &wc_timer, CLOCK_MONOTONIC) ||
	    bpf_timer_set_callback(&w->timer, sample) ||
	    bpf_timer_start(&w->timer, WC_SAMPLE_NS, 0))
		armed = 0;
}

/*
 * prev leaves the CPU: still queued (preempted, or a yield) it waits here;
 * with se.sched_delayed it is asleep and only kept queued for EEVDF's lag.
 * next stops waiting; the CPU is idle if next is its idle task (pid 0).
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(wc_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	u32 cpu = bpf_get_smp_processor_id();
	struct wc_task *t;

	if (cpu >= WC_MAX_CPUS)
		return 0;
	arm();
	if (next->pid) {
		t = task_state(next, false);
		if (t && t->waiting)
			stop_wait(t);
		__sync_fetch_and_and(&idle_mask, ~bit(cpu));
	} else {
		__sync_fetch_and_or(&idle_mask, bit(cpu));
	}
	if (prev->pid && prev->on_rq == 1 && !prev->se.sched_delayed) {
		t = task_state(prev, true);
		if (t && !t->waiting)
			start_wait(t, cpu, prev->cpus_ptr->bits[0]);
	}
	return 0;
}

/* A woken task waits on its CPU, unless it is running (woken before it slept). */
static int wake(struct task_struct *p)
{
	struct wc_task *t;

	if (p->on_cpu || !p->pid)
		return 0;
	t = task_state(p, true);
	if (t && !t->waiting)
		start_wait(t, p->thread_info.cpu, p->cpus_ptr->bits[0]);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(wc_wakeup, struct task_struct *p)
{
	return wake(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(wc_wakeup_new, struct task_struct *p)
{
	return wake(p);
}

/* A waiting task moves to another CPU's runqueue (balancing, a DSQ move). */
SEC("tp_btf/sched_migrate_task")
int BPF_PROG(wc_migrate, struct task_struct *p, int dest_cpu)
{
	struct wc_task *t = task_state(p, false);

	if (!t || !t->waiting || dest_cpu < 0 || dest_cpu >= WC_MAX_CPUS)
		return 0;
	stop_wait(t);
	start_wait(t, dest_cpu, t->mask);
	return 0;
}
