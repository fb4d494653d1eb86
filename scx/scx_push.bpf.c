// SPDX-License-Identifier: GPL-2.0
/*
 * scx_push: per-CPU queues balanced by push and pull, with per-LLC masks of
 * overloaded CPUs (the push-task and overloaded-mask RFCs for CFS, carried
 * into sched_ext).
 *
 * Queues. Every CPU has its own DSQ (id = CPU number), its pushable list:
 * the tasks waiting for it, ordered by weighted virtual time. Only the task
 * about to run goes to a CPU's local DSQ, or a task goes straight to the local
 * DSQ of an idle CPU that was claimed for it.
 *
 * Virtual time. A task is charged its run time scaled by 100 / weight, so
 * nice levels hold on a CPU. Each CPU keeps its own clock (the largest vtime
 * that started there): a busy CPU's tasks are never measured against an idle
 * CPU's clock, and a task that moves is rebased from the old CPU's clock to
 * the new one. A waking task's credit is capped at one slice
 * (--wake-credit-us sets it). When the running task's slice ends it keeps the
 * CPU while its vtime is below that of the first waiting task.
 *
 * Latency (--no-preempt turns it off). A wakeup queued on a busy CPU whose
 * vtime is more than the minimum slice (1 ms) behind the running task's
 * preempts it once that task ran a minimum slice. If it did, the wakeup goes
 * straight to the head of that CPU's local DSQ with SCX_ENQ_PREEMPT, which
 * reschedules the CPU under the rq lock the enqueue holds (a kick would take
 * it again from an irq_work); else the first tick of that CPU after the
 * minimum ends the slice, up to 1/HZ later (4 ms at HZ=250, more than a
 * default slice). --preempt-timer ends it when the minimum is over, with a
 * per-CPU timer: a task waking every 700 us next to a busy one waited a
 * quarter as long, but hackbench took 1.07-1.09 times as long in two
 * boots, so it is not the default. The loader's default slice is 3 ms,
 * EEVDF's on 8 CPUs or more (its 0.75 ms base slice times 1 + log2 of the
 * CPUs): 20 ms measured slower on hackbench. Slices are not shortened by
 * queue depth (--slice-scale divides a slice by one plus the tasks waiting
 * behind it, down to the minimum): as EEVDF's, a slice is the same however
 * many wait, and shorter ones measured slower on hackbench, the extra
 * switches costing more than the shorter waits save.
 *
 * Wakeups (ops.select_cpu). A sync wakeup (SCX_WAKE_SYNC: the waker is about
 * to sleep; --no-sync ignores it) whose waker's CPU has nothing waiting goes
 * to an idle CPU of the waker's LLC, its previous CPU first, or else behind
 * the waker, which hands it the CPU, with no push (or, if the waker runs on,
 * is preempted by it as by any other wakeup). Any other wakeup goes to
 * the previous CPU if idle, else an idle CPU in its LLC, its node, anywhere
 * allowed; with SMT, a wholly idle core first. With no CPU idle it is queued
 * on the waker's CPU unless more tasks wait there than on its previous CPU
 * plus one (--no-wake-affine: always on its previous CPU), so that the
 * wakeup takes no other CPU's rq lock. Only an enqueue on a CPU that is
 * going idle kicks it. Where the kernel has SCX_OPS_ALLOW_QUEUED_WAKEUP
 * (the loader sets it unless --no-queued-wakeup), a wakeup for another LLC
 * or an idle CPU is enqueued by that CPU itself, from its wakelist, instead
 * of under its rq lock taken from afar; a task woken while still switching
 * out then skips ops.select_cpu(), and ops.enqueue() places it like any
 * other wakeup it gets (direct to its idle CPU, else pushed, else queued).
 *
 * Overloaded masks. Each LLC has a bpf_cpumask of its CPUs that have a
 * movable task waiting behind the running one. ops.enqueue sets a CPU's bit
 * when it queues a task there; whoever finds the DSQ empty clears it (the
 * owner when it drains its queue, a puller that peeked, the timer). Bits are
 * hints: a stale set bit costs one peek and is cleared; a bit lost to a race
 * with a puller is set again by ops.tick on the busy owner.
 *
 * Pull (the newidle balance, ops.dispatch). A CPU runs its own queue first.
 * If that is empty and the previous task is not runnable (the CPU is going
 * idle), it walks the overloaded CPUs of its LLC starting after itself, then
 * the other LLCs of its node, then the other nodes, where a task must have
 * waited REMOTE_WAIT_NS first (crossing nodes only pays off for tasks that
 * would otherwise wait). -P limits the levels. The idle gate (seeds 005,
 * 008; --no-idle-gate turns it off) searches a level only while the CPU's
 * average idle time exceeds what the pull has cost so far plus the most a
 * pull at that level cost (decaying 1% a second), the average idle time
 * capped at twice the largest such cost (or the idle period in progress,
 * if longer: a CPU kicked while idle is not kept idle by an old average), as
 * CFS's newidle balance gates on max_newidle_lb_cost: under emulation a pull
 * that spins on a busy CPU's rq lock can cost milliseconds, more than the
 * idle time it would fill (an average cost and an idle time capped at 100 ms
 * let through 1.7 times as many pulls, and hackbench was 1.2 times slower).
 * A pull the balance timer kicked the CPU for is not gated (--gate-kicked
 * gates it too), as CFS's periodic balance is not: the timer asks only for a
 * task that waited REMOTE_WAIT_NS, and a cost measured under emulation can
 * include the vCPU being descheduled (tens of ms), which would otherwise gate
 * a CPU whose idle periods are shorter than that until the maximum decays.
 * Of a busy CPU's first few waiting tasks it takes the first that is not cache
 * hot (ran less than --mig-cost-us ago, as CFS's task_hot()), and stops as soon
 * as work arrives for it. A task queued on the CPU meanwhile is run before it
 * goes idle, and a task queued on another CPU kicks it if it is idle.
 * --scan full walks every CPU instead of the masks; it exists to measure what
 * the masks save.
 *
 * Push. A task queued behind a running one goes to an idle CPU it may use in
 * the same LLC, else the same node: the CPU is claimed idle and the task is
 * dispatched to its local DSQ. That wakes it: the kernel calls resched_curr()
 * on an idle CPU whose local DSQ gets a task, under the rq lock the insert
 * holds, where a kick would take that lock again from an irq_work; only a
 * CPU claimed for a move that failed is kicked. A
 * CPU that leaves tasks waiting after it picked one, and the balance timer
 * every TIMER_INTERVAL_NS, move waiting tasks to idle CPUs with
 * scx_bpf_dispatch_from_dsq(). With push off, idle CPUs are only kicked so
 * that they pull.
 *
 * Busy balance (--no-busy turns it off). Push and pull only move work
 * towards idle CPUs; with every CPU busy a CPU with three tasks next to one
 * with one would stay so. Each timer round measures every LLC once and
 * reuses those sums for its node and the nodes for the system. A CPU's load
 * is its running and waiting tasks in this round and the last: the lower of
 * the two when it gives, the higher when it takes, so that the churn of a
 * wakeup-heavy load does not move tasks back and forth. Every CPU below the
 * mean load of the widest span -P allows takes waiting tasks, up to that
 * mean, from the most loaded CPU of its LLC, then of its node, then of the
 * other nodes, while that CPU is above the mean and two tasks above it (a
 * move never reverses an imbalance: CFS's rule); O(CPUs) a round, and many
 * CPUs take in one round. It takes from the end of the queue in vtime order
 * tasks that may run there and waited BUSY_WAIT_NS (REMOTE_WAIT_NS across
 * nodes, at least --mig-cost-us). It counts tasks, not weights. Where the
 * most loaded CPU's tasks may not run on the taker (bound to their LLC or
 * node) while its LLC or node holds so much more per CPU than the taker's
 * that one task fewer there and one more here does not reverse that,
 * another CPU of that group gives one and is refilled inside its group in
 * the next round (--no-busy-group turns this off): with tasks bound to
 * nodes, a node with one task too many kept it while a CPU elsewhere ran
 * one task alone, for the whole run.
 *
 * Misfit (seed 011; only where CPU capacities differ, from sysfs or
 * --capacity; --no-misfit turns it off). A task's utilization is a PELT-like
 * average of the capacity it ran at (32 ms half-life; a new task starts at
 * half its CPU's). At a tick, a task that does not fit its CPU (util * 1280
 * > capacity * 1024, as fits_capacity()) while a bigger CPU exists is
 * misfit: if a bigger CPU it may use is idle its slice ends, ops.dispatch()
 * claims that CPU and ops.enqueue() sends the task there (SCX_OPS_ENQ_LAST
 * is set for this, so that a task running alone is enqueued too); else its
 * CPU is flagged, and the next bigger CPU going idle kicks it and waits for
 * the task instead of pulling. A misfit task woken or queued goes to an
 * idle bigger CPU first. No push, pull or busy move takes a task to a CPU
 * where it fits worse than both what it needs and where it comes from, so
 * that a big task is not sent back down and up again. Capacities are not
 * weighed otherwise: balancing still counts tasks.
 *
 * Higher classes. ops.cpu_release re-enqueues the CPU's local tasks; they go
 * to an idle CPU if there is one. Tasks still queued on a CPU held by an RT or
 * DL task are moved to another CPU's queue by the timer, except tasks that
 * can only run there (the ext deadline server has to serve those).
 *
 * Traps of 6.12 sched_ext handled here: a task is never dispatched to a CPU
 * outside p->cpus_ptr, nor moved while migration is disabled (counting the
 * migrate-disable that every BPF program entry holds on current); DSQ moves
 * only from ops.dispatch and the timer, and the timer skips a round when it
 * interrupted an sched_ext operation; built-in idle tracking stays on (no
 * ops.update_idle); user DSQs are only used with vtime insertion; no
 * cpu_online/offline, so hotplug makes the kernel ask the loader to restart.
 *
 * Limits: the vtime clocks are per CPU, so fairness between tasks that
 * never share a CPU is left to balancing, which counts tasks, not weights; a
 * task pinned to a busy CPU waits for it; the timer period, the minimum
 * slice and the remote-pull wait are fixed; one timer walks every CPU.
 */
#include <scx/common.bpf.h>
#include "scx_push.h"
#include "scx_push_compat.bpf.h"

char _license[] SEC("license") = "GPL";

enum consts {
	TIMER_INTERVAL_NS	= 10 * 1000 * 1000,
	REMOTE_WAIT_NS		= 1000 * 1000,
	MIN_SLICE_NS		= 1000 * 1000,	/* floor of a scaled slice */
	MAX_MOVES		= 8,	/* tasks moved per push, rescue or busy take */
	MAX_KICKS		= 4,	/* idle CPUs the timer kicks per busy CPU */
	MAX_CANDIDATES		= 4,	/* queued tasks a pull or busy move looks at */
	MAX_GROUP_SCANS		= 4,	/* LLCs scanned for group moves per round */
	BUSY_WAIT_NS		= 1000 * 1000,	/* wait before a busy-busy move */
	LOAD_SHIFT		= 8,	/* fixed point of the loads (for their means) */
	MIN_PULL_COST_NS	= 500 * 1000,	/* floor of the idle cap: sysctl_sched_migration_cost */
	COST_DECAY_NS		= 1000 * 1000 * 1000,	/* pull cost maxima decay 1% per */
	TASK_LOAD		= 1 << LOAD_SHIFT,
	UTIL_PERIOD_SHIFT	= 20,	/* utilization decays per 2^20 ns (PELT's 1024 us) */
	UTIL_HALF_LIFE		= 32,	/* periods, as PELT's */
	UTIL_FRAC_SLOPE		= 88,	/* (1 - y) * 2^32 per ns of a period: y^f ~ 1 - f (1 - y) */
	MISFIT_MARGIN		= 1280,	/* fits: util * 1280 <= capacity * 1024 (fits_capacity()) */
};

/* how far a search for a CPU goes, from near to far */
enum level {
	LEVEL_LLC,
	LEVEL_NODE,
	LEVEL_ALL,
	NR_LEVELS,
};

/* tunables, set by the loader before load */
const volatile u64 slice_ns = SCX_SLICE_DFL;
const volatile u32 pull_scope = SCX_PUSH_SCOPE_ALL;
const volatile u32 scan_mode = SCX_PUSH_SCAN_MASK;
const volatile bool push_enabled = true;
const volatile bool pull_enabled = true;
const volatile bool busy_enabled = true;
const volatile bool busy_group_enabled = true;
const volatile bool sync_enabled = true;
const volatile bool preempt_enabled = true;
const volatile bool preempt_timer;
const volatile bool slice_scale;
const volatile u64 wake_credit_ns = SCX_SLICE_DFL;
const volatile u64 mig_cost_ns = 500 * 1000;
const volatile bool idle_gate = true;
const volatile bool gate_kicked = false;
const volatile bool wake_affine = true;

/* topology, see loader/topology.h for the layout */
const volatile bool smt_enabled;
const volatile u32 nr_cpus = 1;		/* highest possible CPU + 1 */
const volatile u32 nr_llcs = 1;
const volatile u32 nr_nodes = 1;
const volatile u32 cpu_llc[SCX_PUSH_MAX_CPUS];	/* SCX_PUSH_LLC_NONE if offline */
const volatile u32 cpu_pos[SCX_PUSH_MAX_CPUS];
const volatile u32 llc_cpus[SCX_PUSH_MAX_CPUS];
const volatile u32 llc_first[SCX_PUSH_MAX_LLCS];
const volatile u32 llc_nr[SCX_PUSH_MAX_LLCS];
const volatile u32 llc_node[SCX_PUSH_MAX_LLCS];
const volatile s32 node_id[SCX_PUSH_MAX_NODES];
const volatile u32 node_first_llc[SCX_PUSH_MAX_NODES];
const volatile u32 node_nr_llcs[SCX_PUSH_MAX_NODES];
/*
 * CPU capacities (1..SCX_PUSH_CAPACITY_MAX) and their rank among the
 * distinct ones (0 = smallest); misfit handling only if they differ
 */
const volatile bool misfit_enabled;
const volatile u32 nr_cap_levels = 1;
const volatile u32 cpu_capacity[SCX_PUSH_MAX_CPUS];
const volatile u32 cpu_cap_level[SCX_PUSH_MAX_CPUS];
const volatile u32 level_capacity[SCX_PUSH_MAX_CAP_LEVELS];	/* ascending */

/* the overloaded masks as of the last timer run, for the loader */
u64 overloaded_snap[SCX_PUSH_MAX_CPUS / 64];

UEI_DEFINE(uei);

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SCX_PUSH_NR_STATS);
	__type(key, u32);
	__type(value, u64);
} stats SEC(".maps");

struct cpu_ctx {
	u64			vclock;		/* vtime clock of this CPU's DSQ */
	/* the running task's vtime as of curr_at; curr_weight 0 if none */
	u64			curr_vtime;
	u64			curr_at;
	u32			curr_weight;
	u32			scanned;	/* DSQs the current pull examined */
	/* pull gate: when the CPU last went idle (0 = running), average idle
	 * time and the decaying maximum cost of a pull at each level, in ns,
	 * and when those maxima last decayed */
	u64			idle_at;
	u64			avg_idle;
	u64			pull_cost[NR_LEVELS];
	u64			pull_cost_decay_at;
	s32			load_prev;	/* last round's load, see measure_llc() */
	s32			load_take;	/* this round's, as a taker; -1: cannot */
	bool			released;	/* taken by a higher class */
	bool			pull_kicked;	/* the timer asked for its next pull */
	bool			preempt_tick;	/* a tick ends the slice (push_tick()) */
	struct bpf_cpumask __kptr *tmp;		/* scratch, this CPU's callbacks only */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_CPUS);
	__type(key, u32);
	__type(value, struct cpu_ctx);
} cpu_ctxs SEC(".maps");

struct llc_ctx {
	struct bpf_cpumask __kptr *cpus;
	struct bpf_cpumask __kptr *overloaded;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_LLCS);
	__type(key, u32);
	__type(value, struct llc_ctx);
} llc_ctxs SEC(".maps");

struct node_ctx {
	struct bpf_cpumask __kptr *cpus;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_NODES);
	__type(key, u32);
	__type(value, struct node_ctx);
} node_ctxs SEC(".maps");

struct task_ctx {
	u64	started;	/* when it last started running or was charged */
	u64	queued_at;	/* when it was last queued on a per-CPU DSQ */
	s32	vtime_cpu;	/* the CPU whose clock its dsq_vtime follows */
	bool	sync_wake;	/* placed behind its waker by ops.select_cpu() */
	/* misfit handling: utilization in capacity units as of util_at, and
	 * the bigger idle CPU claimed for it by ops.dispatch() (-1: none) */
	bool	misfit;
	s32	misfit_cpu;
	u32	util;
	u64	util_at;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} task_ctxs SEC(".maps");

/* CPUs of a higher and of a lower capacity than capacity level n */
struct cap_ctx {
	struct bpf_cpumask __kptr *above;
	struct bpf_cpumask __kptr *below;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_CAP_LEVELS);
	__type(key, u32);
	__type(value, struct cap_ctx);
} cap_ctxs SEC(".maps");

/* CPUs running a misfit task that found no idle bigger CPU at their tick */
private(MISFIT) struct bpf_cpumask __kptr *misfit_cpus;

struct balance_timer {
	struct bpf_timer	timer;
	struct bpf_cpumask __kptr *tmp;		/* scratch of the timer callback */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct balance_timer);
} balance_timer SEC(".maps");

/* Per CPU: ends the running task's minimum slice for a waiting wakeup. */
struct preempt_timer {
	struct bpf_timer	timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_CPUS);
	__type(key, u32);
	__type(value, struct preempt_timer);
} preempt_timers SEC(".maps");

static void stat_add(u32 idx, u64 val)
{
	u64 *cnt = bpf_map_lookup_elem(&stats, &idx);

	if (cnt)
		*cnt += val;
}

static void stat_inc(u32 idx)
{
	stat_add(idx, 1);
}

static inline bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* Bound an index for the verifier; every topology index is below the max. */
static inline u32 cpu_idx(u32 cpu)
{
	return cpu & (SCX_PUSH_MAX_CPUS - 1);
}

static inline u32 node_idx(u32 node)
{
	return node & (SCX_PUSH_MAX_NODES - 1);
}

/* The kernel's id of the NUMA node an LLC belongs to. */
static inline s32 llc_node_id(u32 llc)
{
	return node_id[node_idx(llc_node[cpu_idx(llc)])];
}

static inline bool cpu_usable(s32 cpu)
{
	return cpu >= 0 && cpu < nr_cpus && cpu_llc[cpu_idx(cpu)] != SCX_PUSH_LLC_NONE;
}

static struct cpu_ctx *lookup_cpu_ctx(s32 cpu)
{
	u32 key = cpu;

	return bpf_map_lookup_elem(&cpu_ctxs, &key);
}

static struct llc_ctx *lookup_llc_ctx(u32 llc)
{
	return bpf_map_lookup_elem(&llc_ctxs, &llc);
}

static struct task_ctx *lookup_task_ctx(struct task_struct *p)
{
	struct task_ctx *tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);

	if (!tctx)
		scx_bpf_error("%s[%d] has no task context", p->comm, p->pid);
	return tctx;
}

/* The scratch cpumask of the CPU running this callback. */
static struct bpf_cpumask *this_tmp_mask(void)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(bpf_get_smp_processor_id());

	return cctx ? cctx->tmp : NULL;
}

/*
 * Whether @p cannot leave its CPU now. Every BPF program entry holds one
 * migrate-disable on current, so for current only a second one counts.
 */
static bool task_pinned(const struct task_struct *p)
{
	u16 disabled;

	if (p->nr_cpus_allowed == 1)
		return true;
	if (!bpf_core_field_exists(p->migration_disabled))
		return false;
	disabled = p->migration_disabled;
	if (p == (void *)bpf_get_current_task_btf())
		return disabled > 1;
	return disabled;
}

/*
 * Overloaded masks. The update and the DSQ state they describe are not
 * atomic together; see the design comment for how they reconverge.
 */
static struct bpf_cpumask *overloaded_mask(s32 cpu)
{
	struct llc_ctx *lctx = lookup_llc_ctx(cpu_llc[cpu_idx(cpu)]);

	return lctx ? lctx->overloaded : NULL;
}

static void mask_set(s32 cpu)
{
	struct bpf_cpumask *mask;

	if (scan_mode != SCX_PUSH_SCAN_MASK)
		return;
	mask = overloaded_mask(cpu);
	if (!mask)
		return;
	if (!bpf_cpumask_test_and_set_cpu(cpu, mask))
		stat_inc(STAT_MASK_SET);
}

static void mask_clear(s32 cpu)
{
	struct bpf_cpumask *mask;

	if (scan_mode != SCX_PUSH_SCAN_MASK)
		return;
	mask = overloaded_mask(cpu);
	if (!mask)
		return;
	if (bpf_cpumask_test_and_clear_cpu(cpu, mask))
		stat_inc(STAT_MASK_CLEAR);
}

static bool mask_test(s32 cpu)
{
	struct bpf_cpumask *mask = overloaded_mask(cpu);

	return mask && bpf_cpumask_test_cpu(cpu, cast_mask(mask));
}

/* Clear @cpu's bit if its DSQ is empty; true if it was empty. */
static bool mask_clear_if_empty(s32 cpu)
{
	if (scx_bpf_dsq_nr_queued(cpu) > 0)
		return false;
	mask_clear(cpu);
	return true;
}

/* The shortest slice, and the vtime lead a wakee needs to preempt. */
static inline u64 min_slice(void)
{
	return slice_ns < MIN_SLICE_NS ? slice_ns : MIN_SLICE_NS;
}

/*
 * The slice of a task starting on @cpu: with --slice-scale, shared with the
 * tasks waiting there, down to min_slice().
 */
static u64 task_slice(s32 cpu)
{
	s32 queued;
	u64 slice;

	if (!slice_scale)
		return slice_ns;
	queued = scx_bpf_dsq_nr_queued(cpu);
	if (queued <= 0)
		return slice_ns;
	slice = slice_ns / (queued + 1);
	return slice < min_slice() ? min_slice() : slice;
}

/*
 * @p's vtime on @cpu's clock, with the credit of a task that slept or waited
 * capped by wake_credit_ns. Reading another CPU's clock races with its
 * updates; an error of one update only shifts the task within one slice.
 */
static u64 vtime_on(struct task_struct *p, struct task_ctx *tctx, s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu), *octx;
	u64 vtime = p->scx.dsq_vtime;

	if (!cctx)
		return vtime;
	if (tctx->vtime_cpu != cpu) {
		octx = lookup_cpu_ctx(tctx->vtime_cpu);
		if (octx)
			vtime = vtime - octx->vclock + cctx->vclock;
	}
	if (vtime_before(vtime, cctx->vclock - wake_credit_ns))
		vtime = cctx->vclock - wake_credit_ns;
	return vtime;
}

/* Charge the running @p for the time since it started or was last charged. */
static void charge(struct task_struct *p, struct task_ctx *tctx)
{
	u64 now = bpf_ktime_get_ns();

	p->scx.dsq_vtime += (now - tctx->started) * 100 / p->scx.weight;
	tctx->started = now;
}

/* Record that @p runs on @cpu from now on with its current vtime. */
static void set_curr(struct cpu_ctx *cctx, struct task_struct *p, u64 now)
{
	cctx->curr_vtime = p->scx.dsq_vtime;
	cctx->curr_at = now;
	cctx->curr_weight = p->scx.weight;
}

/* Whether a wakeup should preempt the running task, and when. */
enum preempt_when {
	PREEMPT_NO,
	PREEMPT_NOW,
	PREEMPT_LATER,	/* once the running task ran min_slice() */
};

/*
 * Whether a task queued on @cpu with @vtime should preempt the task running
 * there: @vtime is more than min_slice() behind that one's, counting what it
 * ran. At once if it ran at least min_slice() since it started, else at the
 * first tick after that (a wakeup-heavy load would otherwise switch at every
 * wakeup, and a wakeup that just missed the minimum would wait for a whole
 * slice). Called from ops.enqueue() for a task of @cpu, under @cpu's rq
 * lock, which the callbacks that write the fields read here (ops.running(),
 * ops.dispatch(), ops.stopping(), ops.cpu_release()) hold as well.
 */
static enum preempt_when should_preempt(s32 cpu, u64 vtime)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	u64 ran, curr;

	if (!cctx || cctx->released || !cctx->curr_weight)
		return PREEMPT_NO;
	ran = bpf_ktime_get_ns() - cctx->curr_at;
	curr = cctx->curr_vtime + ran * 100 / cctx->curr_weight;
	if (!vtime_before(vtime + min_slice(), curr))
		return PREEMPT_NO;
	return ran < min_slice() ? PREEMPT_LATER : PREEMPT_NOW;
}

/* The vtime of the first task waiting on @cpu's DSQ; false if none. */
static bool dsq_head_vtime(s32 cpu, u64 *vtime)
{
	struct task_struct *p;

	bpf_for_each(scx_dsq, p, cpu, 0) {
		*vtime = p->scx.dsq_vtime;
		return true;
	}
	return false;
}

/*
 * Whether the first task waiting on @cpu's DSQ may move and has waited at
 * least @wait_ns; false if there is none.
 */
static bool dsq_head_movable(s32 cpu, u64 wait_ns)
{
	struct task_struct *p;
	struct task_ctx *tctx;

	bpf_for_each(scx_dsq, p, cpu, 0) {
		if (task_pinned(p))
			return false;
		tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);
		return tctx && bpf_ktime_get_ns() - tctx->queued_at >= wait_ns;
	}
	return false;
}

/* The CPUs a search at @level around @cpu covers; NULL for LEVEL_ALL. */
static const struct cpumask *level_span(s32 cpu, u32 level)
{
	u32 llc = cpu_llc[cpu_idx(cpu)];
	struct node_ctx *nctx;
	struct llc_ctx *lctx;
	u32 node;

	if (level == LEVEL_LLC) {
		lctx = lookup_llc_ctx(llc);
		return lctx ? cast_mask(lctx->cpus) : NULL;
	}
	node = llc_node[cpu_idx(llc)];
	nctx = bpf_map_lookup_elem(&node_ctxs, &node);
	return nctx ? cast_mask(nctx->cpus) : NULL;
}

/*
 * The lowest capacity level that a task of utilization @util fits on, the
 * top one if none. Global: verified once.
 */
__noinline u32 fit_level(u32 util)
{
	u32 level;

	bpf_for(level, 0, nr_cap_levels) {
		if ((u64)util * MISFIT_MARGIN <=
		    (u64)level_capacity[level & (SCX_PUSH_MAX_CAP_LEVELS - 1)] *
		    SCX_PUSH_CAPACITY_MAX)
			return level;
	}
	return nr_cap_levels - 1;
}

/*
 * With misfit handling, a task only moves to CPUs where it fits no worse
 * than both what it needs and where it comes from: a big task that went up
 * is not moved back down by a push or a pull (and then up again by the
 * misfit push), a small task moves anywhere. The lowest level @tctx's task
 * may move to from @src.
 */
static u32 move_floor(struct task_ctx *tctx, s32 src)
{
	u32 need = fit_level(tctx->util), have = cpu_cap_level[cpu_idx(src)];

	return need < have ? need : have;
}

static bool fits_move(struct task_ctx *tctx, s32 src, s32 dst)
{
	return cpu_cap_level[cpu_idx(dst)] >= move_floor(tctx, src);
}

/* The CPUs of a capacity level above (@above) or below @level. */
static const struct cpumask *cap_mask(u32 level, bool above)
{
	struct cap_ctx *cap;

	level &= SCX_PUSH_MAX_CAP_LEVELS - 1;
	cap = bpf_map_lookup_elem(&cap_ctxs, &level);
	if (!cap)
		return NULL;
	return cast_mask(above ? cap->above : cap->below);
}

/*
 * Claim an idle CPU that @p may use, of capacity level @floor or above,
 * nearest to @cpu first and no farther than @max_level.
 */
__noinline s32 pick_idle_capable(struct task_struct *p __arg_trusted, s32 cpu,
				  u32 floor, u32 max_level,
				  struct bpf_cpumask *tmp __arg_trusted __arg_nullable)
{
	const struct cpumask *span, *above;
	s32 found = -EBUSY;
	u32 level;

	bpf_rcu_read_lock();
	above = cap_mask(floor - 1, true);
	bpf_for(level, 0, max_level + 1) {
		if (!tmp || !above || !bpf_cpumask_and(tmp, above, p->cpus_ptr))
			break;
		span = level == LEVEL_ALL ? NULL : level_span(cpu, level);
		if (span && !bpf_cpumask_and(tmp, cast_mask(tmp), span))
			continue;
		found = scx_bpf_pick_idle_cpu(cast_mask(tmp), 0);
		if (found >= 0)
			break;
	}
	bpf_rcu_read_unlock();
	return found;
}

/*
 * pick_idle_near() with misfit handling: an idle CPU at @p's move floor or
 * above, or -ENODEV if it has none (it may go anywhere). Global, as
 * pick_idle_capable().
 */
__noinline s32 pick_idle_fitting(struct task_struct *p __arg_trusted, s32 cpu,
				 u32 max_level,
				 struct bpf_cpumask *tmp __arg_trusted __arg_nullable)
{
	struct task_ctx *tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);
	u32 floor;

	if (!tctx)
		return -ENODEV;
	floor = move_floor(tctx, cpu);
	if (!floor)
		return -ENODEV;
	return pick_idle_capable(p, cpu, floor, max_level, tmp);
}

/* Claim an idle CPU that @p may use at @level around @cpu. */
static s32 pick_idle_at(struct task_struct *p, s32 cpu, u32 level,
			struct bpf_cpumask *tmp, u64 flags)
{
	const struct cpumask *span;

	if (level == LEVEL_ALL)
		return scx_bpf_pick_idle_cpu(p->cpus_ptr, flags);
	span = level_span(cpu, level);
	if (!tmp || !span)
		return -ENOENT;
	if (!bpf_cpumask_and(tmp, span, p->cpus_ptr))
		return -EBUSY;
	return scx_bpf_pick_idle_cpu(cast_mask(tmp), flags);
}

/*
 * Claim an idle CPU that @p may use, nearest to @cpu first and no farther
 * than @max_level; with SMT, a wholly idle core at any level comes first.
 */
static s32 pick_idle_near(struct task_struct *p, s32 cpu, u32 max_level,
			  struct bpf_cpumask *tmp)
{
	u32 level;
	s32 found;

	if (misfit_enabled) {
		found = pick_idle_fitting(p, cpu, max_level, tmp);
		if (found != -ENODEV)
			return found;
	}

	if (smt_enabled) {
		bpf_for(level, 0, max_level + 1) {
			found = pick_idle_at(p, cpu, level, tmp, SCX_PICK_IDLE_CORE);
			if (found >= 0)
				return found;
		}
	}
	bpf_for(level, 0, max_level + 1) {
		found = pick_idle_at(p, cpu, level, tmp, 0);
		if (found >= 0)
			return found;
	}
	return -EBUSY;
}

/* The farthest level a pull, and the kicks that ask for one, may reach. */
static u32 pull_max_level(void)
{
	switch (pull_scope) {
	case SCX_PUSH_SCOPE_LLC:
		return LEVEL_LLC;
	case SCX_PUSH_SCOPE_NODE:
		return LEVEL_NODE;
	default:
		return LEVEL_ALL;
	}
}

/*
 * Misfit handling (seed 011). A task's utilization is a PELT-like average of
 * the capacity it ran at: it moves towards the capacity of its CPU while it
 * runs and towards 0 while it does not, halving the distance every 32 ms.
 */
static const u32 util_decay[UTIL_HALF_LIFE] = {	/* y^n * 2^32, y^32 = 1/2 */
	0xffffffff, 0xfa83b2db, 0xf5257d15, 0xefe4b99b,
	0xeac0c6e7, 0xe5b906e7, 0xe0ccdeec, 0xdbfbb797,
	0xd744fcca, 0xd2a81d91, 0xce248c15, 0xc9b9bd86,
	0xc5672a11, 0xc12c4cca, 0xbd08a39f, 0xb8fbaf47,
	0xb504f333, 0xb123f581, 0xad583eea, 0xa9a15ab4,
	0xa5fed6a9, 0xa2704303, 0x9ef53260, 0x9b8d39b9,
	0x9837f051, 0x94f4efa8, 0x91c3d373, 0x8ea4398b,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

/* y^(@dt / period) * 2^32: whole periods from the table, a fraction linearly. */
static u64 util_decay_of(u64 dt)
{
	u64 n = dt >> UTIL_PERIOD_SHIFT, frac = dt & ((1ULL << UTIL_PERIOD_SHIFT) - 1);
	u64 whole;

	if (n >= 32 * UTIL_HALF_LIFE)
		return 0;
	whole = util_decay[n & (UTIL_HALF_LIFE - 1)] >> (n / UTIL_HALF_LIFE);
	return (whole * ((1ULL << 32) - frac * UTIL_FRAC_SLOPE)) >> 32;
}

/*
 * Bring @tctx's utilization up to now: since its last update it ran all the
 * time on @cpu (@running) or not at all.
 */
static void util_update(struct task_ctx *tctx, s32 cpu, bool running)
{
	u64 now = bpf_ktime_get_ns(), target = 0, decay;

	if (running)
		target = cpu_capacity[cpu_idx(cpu)];
	if (!vtime_before(tctx->util_at, now))
		return;
	decay = util_decay_of(now - tctx->util_at);
	tctx->util_at = now;
	if (target >= tctx->util)
		tctx->util = target - (((target - tctx->util) * decay) >> 32);
	else
		tctx->util = target + (((tctx->util - target) * decay) >> 32);
}

/* Whether @tctx's task is too big for @cpu and a bigger CPU exists. */
static bool misfit_on(struct task_ctx *tctx, s32 cpu)
{
	u32 c = cpu_idx(cpu);

	return cpu_cap_level[c] + 1 < nr_cap_levels &&
	       (u64)tctx->util * MISFIT_MARGIN > (u64)cpu_capacity[c] * SCX_PUSH_CAPACITY_MAX;
}

/* The CPUs of a higher (@above) or lower capacity than @cpu's. */
static const struct cpumask *cap_span(s32 cpu, bool above)
{
	return cap_mask(cpu_cap_level[cpu_idx(cpu)], above);
}

/* Claim an idle CPU bigger than @cpu that @p may use, nearest first. */
static s32 pick_idle_bigger(struct task_struct *p, s32 cpu, struct bpf_cpumask *tmp)
{
	return pick_idle_capable(p, cpu, cpu_cap_level[cpu_idx(cpu)] + 1, LEVEL_ALL, tmp);
}

static void misfit_mark_cpu(s32 cpu, bool misfit)
{
	struct bpf_cpumask *mask = misfit_cpus;

	if (!mask)
		return;
	if (misfit)
		bpf_cpumask_set_cpu(cpu, mask);
	else if (bpf_cpumask_test_cpu(cpu, cast_mask(mask)))
		bpf_cpumask_clear_cpu(cpu, mask);
}

/*
 * At a tick of the running @p: whether it is misfit. If it is and a bigger
 * CPU it may use is idle, end its slice: ops.dispatch() moves it there.
 * Otherwise flag @cpu, for the next bigger CPU that goes idle.
 */
static void misfit_tick(struct task_struct *p, s32 cpu)
{
	struct bpf_cpumask *tmp = this_tmp_mask();
	const struct cpumask *above, *idle;
	struct task_ctx *tctx;
	bool misfit, room;

	tctx = lookup_task_ctx(p);
	above = cap_span(cpu, true);
	if (!tctx || !above || !tmp)
		return;
	util_update(tctx, cpu, true);
	/* misfit only if it may run on a bigger CPU */
	misfit = misfit_on(tctx, cpu) && !task_pinned(p) &&
		 bpf_cpumask_and(tmp, above, p->cpus_ptr);
	if (misfit && !tctx->misfit)
		stat_inc(STAT_MISFIT_MARK);
	tctx->misfit = misfit;
	if (!misfit) {
		misfit_mark_cpu(cpu, false);
		return;
	}
	idle = scx_bpf_get_idle_cpumask();
	room = bpf_cpumask_intersects(cast_mask(tmp), idle);
	scx_bpf_put_idle_cpumask(idle);
	if (room)
		p->scx.slice = 0;
	misfit_mark_cpu(cpu, !room);
}

/*
 * ops.dispatch() of @cpu, whose @prev is still runnable: if @prev is misfit,
 * claim a bigger idle CPU for it, where ops.enqueue() then sends it (with
 * SCX_OPS_ENQ_LAST also when nothing else runs here). False: keep @prev.
 */
static bool misfit_leave(struct task_struct *prev, s32 cpu)
{
	struct task_ctx *tctx = lookup_task_ctx(prev);
	s32 found;

	if (!tctx || !tctx->misfit || task_pinned(prev))
		return false;
	found = pick_idle_bigger(prev, cpu, this_tmp_mask());
	if (found < 0)
		return false;
	tctx->misfit_cpu = found;
	misfit_mark_cpu(cpu, false);
	return true;
}

/*
 * ops.enqueue() of a task that ops.dispatch() claimed a bigger CPU for: send
 * it there. False if it may no longer run there.
 */
static bool misfit_send(struct task_struct *p, struct task_ctx *tctx, u64 enq_flags)
{
	s32 target = tctx->misfit_cpu;

	tctx->misfit_cpu = -1;
	/* claimed: wake it either way, so that it idles again or pulls */
	scx_bpf_kick_cpu(target, SCX_KICK_IDLE);
	if (!bpf_cpumask_test_cpu(target, p->cpus_ptr))
		return false;
	dsq_insert(p, SCX_DSQ_LOCAL_ON | target, slice_ns, enq_flags);
	stat_inc(STAT_MISFIT_PUSH);
	return true;
}

/*
 * An idle CPU's pull for a misfit task: a smaller CPU runs one that found no
 * bigger idle CPU at its tick. A running task cannot be pulled; preempt it,
 * and its ops.dispatch() sends it here. True if one was asked for: this CPU
 * then stays idle for it rather than pull another task.
 */
static bool misfit_pull(s32 cpu)
{
	const struct cpumask *below = cap_span(cpu, false);
	struct bpf_cpumask *tmp = this_tmp_mask(), *mask = misfit_cpus;
	s32 victim;

	if (!below || !tmp || !mask ||
	    !bpf_cpumask_and(tmp, below, cast_mask(mask)))
		return false;
	victim = bpf_cpumask_any_distribute(cast_mask(tmp));
	if (victim >= nr_cpus)
		return false;
	bpf_cpumask_clear_cpu(victim, mask);
	scx_bpf_kick_cpu(victim, SCX_KICK_PREEMPT);
	stat_inc(STAT_MISFIT_PULL);
	return true;
}

/* Queue @p on @cpu's DSQ, behind the running task, at @vtime (vtime_on()). */
static void queue_on(struct task_struct *p, struct task_ctx *tctx, s32 cpu,
		     u64 vtime, u64 enq_flags)
{
	tctx->vtime_cpu = cpu;
	tctx->queued_at = bpf_ktime_get_ns();
	dsq_insert_vtime(p, cpu, slice_ns, vtime, enq_flags);
	stat_inc(STAT_QUEUED);
	if (!task_pinned(p))
		mask_set(cpu);
}

static inline bool same_llc(s32 a, s32 b)
{
	return cpu_llc[cpu_idx(a)] == cpu_llc[cpu_idx(b)];
}

/*
 * A sync wakeup: the waker is about to sleep. If nothing waits on the
 * waker's CPU and @p may run there, @p goes to an idle CPU of the waker's
 * LLC, its previous CPU first, or else behind the waker, which will hand it
 * the CPU (*@idle false). False: place @p as any other wakeup.
 */
static bool place_sync(struct task_struct *p, s32 prev_cpu, s32 *cpu, bool *idle)
{
	s32 this_cpu = bpf_get_smp_processor_id(), found;

	if (!cpu_usable(this_cpu) || !bpf_cpumask_test_cpu(this_cpu, p->cpus_ptr) ||
	    scx_bpf_dsq_nr_queued(this_cpu) > 0 ||
	    scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL) > 0)
		return false;
	*idle = true;
	if (cpu_usable(prev_cpu) && same_llc(prev_cpu, this_cpu) &&
	    bpf_cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
	    scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		*cpu = prev_cpu;
		return true;
	}
	found = pick_idle_at(p, this_cpu, LEVEL_LLC, this_tmp_mask(), 0);
	*idle = found >= 0;
	*cpu = *idle ? found : this_cpu;
	return true;
}

/*
 * No CPU is idle for a waking @p: it waits behind a running task wherever it
 * goes. With wake_affine that is the waker's CPU: ttwu then queues it under
 * the rq lock this CPU takes anyway, where its previous CPU would cost the
 * waker that CPU's lock and that CPU's tick, wakeups and dispatch a wait for
 * it. Under a wakeup-heavy load such as hackbench that contention is most of
 * the scheduling cost. Not where the wakees would pile up: a task that wakes
 * many (hackbench's start, a producer) would queue them all on its CPU, and
 * pulls and the busy balance move one task at a time. So @p stays with its
 * previous CPU when more than one task more waits here than there (EEVDF's
 * wake_affine_weight() compares loads the same way).
 */
static s32 busy_wake_cpu(struct task_struct *p, s32 prev_cpu, bool prev_ok,
			 u64 wake_flags)
{
	s32 this_cpu = bpf_get_smp_processor_id();

	if (!wake_affine || !(wake_flags & SCX_WAKE_TTWU) || this_cpu == prev_cpu ||
	    !cpu_usable(this_cpu) || !bpf_cpumask_test_cpu(this_cpu, p->cpus_ptr))
		return prev_cpu;
	if (prev_ok && scx_bpf_dsq_nr_queued(this_cpu) > scx_bpf_dsq_nr_queued(prev_cpu) + 1)
		return prev_cpu;
	stat_inc(STAT_WAKE_AFFINE);
	return this_cpu;
}

s32 BPF_STRUCT_OPS(push_select_cpu, struct task_struct *p, s32 prev_cpu,
		   u64 wake_flags)
{
	bool prev_ok = bpf_cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
		       cpu_usable(prev_cpu);
	struct bpf_cpumask *tmp = this_tmp_mask();
	const struct cpumask *idle_smt;
	bool prev_core_idle = true, idle;
	struct task_ctx *tctx;
	s32 cpu;

	/* A task too big for its previous CPU wakes on an idle bigger one. */
	if (misfit_enabled && prev_ok && (tctx = lookup_task_ctx(p))) {
		util_update(tctx, prev_cpu, false);
		if (misfit_on(tctx, prev_cpu) &&
		    (cpu = pick_idle_bigger(p, prev_cpu, tmp)) >= 0) {
			stat_inc(STAT_MISFIT_PUSH);
			stat_inc(STAT_IDLE_DSP);
			dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
			return cpu;
		}
	}

	if (sync_enabled && (wake_flags & SCX_WAKE_SYNC) &&
	    place_sync(p, prev_cpu, &cpu, &idle)) {
		stat_inc(STAT_SYNC_WAKE);
		if (idle) {
			stat_inc(STAT_IDLE_DSP);
			dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
		} else if ((tctx = lookup_task_ctx(p))) {
			tctx->sync_wake = true;
		}
		return cpu;
	}

	if (prev_ok && smt_enabled) {
		idle_smt = scx_bpf_get_idle_smtmask();
		prev_core_idle = bpf_cpumask_test_cpu(prev_cpu, idle_smt);
		scx_bpf_put_idle_cpumask(idle_smt);
	}
	if (prev_ok && prev_core_idle && scx_bpf_test_and_clear_cpu_idle(prev_cpu))
		cpu = prev_cpu;
	else if (prev_ok)
		cpu = pick_idle_near(p, prev_cpu, LEVEL_ALL, tmp);
	else
		cpu = pick_idle_at(p, prev_cpu, LEVEL_ALL, tmp, 0);
	if (cpu < 0)
		return busy_wake_cpu(p, prev_cpu, prev_ok, wake_flags);

	stat_inc(STAT_IDLE_DSP);
	dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
	return cpu;
}

/*
 * Whether @cpu found nothing to run in its last ops.dispatch() and has not
 * run a task since. Read under @cpu's rq lock, which ops.dispatch() holds
 * from its last look at its queue until the CPU is idle.
 */
static bool going_idle(s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	return cctx && cctx->idle_at;
}

/*
 * Run the waking @p on @cpu, whose rq lock ops.enqueue() holds, at once:
 * at the head of its local DSQ, ending the running task's slice. The kernel
 * reschedules @cpu under that lock (an IPI if it is another CPU). @vtime is
 * already on @cpu's clock; the preempted task is enqueued again, and may be
 * pushed to an idle CPU of its node.
 */
static void preempt_now(struct task_struct *p, struct task_ctx *tctx, s32 cpu,
			u64 vtime, u64 enq_flags)
{
	p->scx.dsq_vtime = vtime;
	tctx->vtime_cpu = cpu;
	dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, enq_flags | SCX_ENQ_HEAD | SCX_ENQ_PREEMPT);
	stat_inc(STAT_PREEMPT);
}

/*
 * End the slice of the task running on @cpu once it ran min_slice(): at
 * @cpu's first tick after that (push_tick(), up to 1/HZ later), or with
 * --preempt-timer when @cpu's preempt timer fires then (preempt_timerfn());
 * the tick stays as the fallback of a timer that could not start.
 */
static void preempt_later(s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	struct preempt_timer *pt;
	u32 key = cpu;
	u64 left;

	if (!cctx || cctx->preempt_tick)
		return;
	cctx->preempt_tick = true;
	stat_inc(STAT_PREEMPT_TICK);
	if (!preempt_timer || !(pt = bpf_map_lookup_elem(&preempt_timers, &key)))
		return;
	left = cctx->curr_at + min_slice() - bpf_ktime_get_ns();
	if ((s64)left <= 0)
		left = 1;
	/* on @cpu itself when we run there, as ops.enqueue() mostly does */
	bpf_timer_start(&pt->timer, left,
			cpu == bpf_get_smp_processor_id() ? BPF_F_TIMER_CPU_PIN : 0);
}

/*
 * Whether a wakeup waits to preempt the task running on @cctx's CPU and
 * that task has run min_slice(): then its slice ends now (the tick, the
 * preempt timer), and the wait is over.
 */
static bool preempt_due(struct cpu_ctx *cctx)
{
	if (!cctx->preempt_tick || bpf_ktime_get_ns() - cctx->curr_at < min_slice())
		return false;
	cctx->preempt_tick = false;
	return true;
}

/* Ask an idle CPU near @cpu to pull: with push off nothing else moves tasks. */
static void kick_puller(struct task_struct *p, s32 cpu)
{
	u32 max_level = pull_max_level();
	s32 idle;

	if (max_level > LEVEL_NODE)
		max_level = LEVEL_NODE;	/* farther pulls wait, the timer kicks */
	idle = pick_idle_near(p, cpu, max_level, this_tmp_mask());
	if (idle >= 0) {
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
		stat_inc(STAT_PULL_KICK);
	}
}

void BPF_STRUCT_OPS(push_enqueue, struct task_struct *p, u64 enq_flags)
{
	s32 cpu = scx_bpf_task_cpu(p), idle;
	enum preempt_when when;
	struct task_ctx *tctx;
	bool sync, behind_waker;
	u64 vtime;

	stat_inc(STAT_ENQ);
	/*
	 * @cpu is not in the topology we loaded with, so it has no DSQ: it
	 * is coming online. sched_cpu_activate() rebuilds the sched domains,
	 * which puts its rq online for sched_ext, before it asks the kernel
	 * to restart us; a task that wakes up there in between (its cpuhp
	 * thread blocking in the rebuild) is ours. Run it there.
	 */
	if (!cpu_usable(cpu)) {
		dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, enq_flags);
		return;
	}
	tctx = lookup_task_ctx(p);
	if (!tctx)
		return;
	sync = tctx->sync_wake;
	tctx->sync_wake = false;

	if (misfit_enabled) {
		if (tctx->misfit_cpu >= 0 && misfit_send(p, tctx, enq_flags))
			return;
		/* nothing else to run here, and it stays: run it on */
		if (enq_flags & SCX_ENQ_LAST) {
			dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, enq_flags);
			return;
		}
	}

	/* Its CPU was taken by a higher class: anywhere idle is better. */
	if (enq_flags & SCX_ENQ_REENQ) {
		idle = task_pinned(p) ? -1 : pick_idle_near(p, cpu, LEVEL_ALL, this_tmp_mask());
		if (idle >= 0) {
			dsq_insert(p, SCX_DSQ_LOCAL_ON | idle, slice_ns, enq_flags);
			stat_inc(STAT_RESCUE);
			return;
		}
		queue_on(p, tctx, cpu, vtime_on(p, tctx, cpu), enq_flags);
		return;
	}

	if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
		dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, enq_flags);
		stat_inc(STAT_DIRECT_DSP);
		return;
	}

	/*
	 * Placed behind its waker, which is about to hand it the CPU: not
	 * pushed. The waker may run on all the same (a pipe writer with room
	 * left): then @p preempts it as any other wakeup would.
	 */
	behind_waker = sync && cpu == bpf_get_smp_processor_id();

	/* @cpu is busy: push @p to an idle CPU of its LLC or node. */
	if (!behind_waker && push_enabled && !task_pinned(p)) {
		stat_inc(STAT_PUSH_TRY);
		idle = -1;
		if (misfit_enabled && misfit_on(tctx, cpu) &&
		    (idle = pick_idle_bigger(p, cpu, this_tmp_mask())) >= 0)
			stat_inc(STAT_MISFIT_PUSH);
		if (idle < 0)
			idle = pick_idle_near(p, cpu, LEVEL_NODE, this_tmp_mask());
		if (idle >= 0) {
			dsq_insert(p, SCX_DSQ_LOCAL_ON | idle, slice_ns, enq_flags);
			stat_inc(STAT_PUSH_OK);
			return;
		}
	}

	vtime = vtime_on(p, tctx, cpu);
	when = preempt_enabled && (enq_flags & SCX_ENQ_WAKEUP) ?
	       should_preempt(cpu, vtime) : PREEMPT_NO;
	if (when == PREEMPT_NOW) {
		preempt_now(p, tctx, cpu, vtime, enq_flags);
		return;
	}
	queue_on(p, tctx, cpu, vtime, enq_flags);
	if (when == PREEMPT_LATER) {
		preempt_later(cpu);
	} else if (going_idle(cpu)) {
		/*
		 * @cpu is past the last check of its own queue in
		 * ops.dispatch() and about to go idle: wake it. Only then: a
		 * kick takes @cpu's rq lock, which a busy CPU's tick and
		 * wakeups wait for.
		 */
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
	}
	if (!behind_waker && pull_enabled && !push_enabled && !task_pinned(p))
		kick_puller(p, cpu);
}

/*
 * Move up to @max tasks waiting on @src's DSQ to idle CPUs of their LLC or
 * node. Only from ops.dispatch() or the timer: scx_bpf_dispatch_from_dsq()
 * is not allowed elsewhere.
 */
static void push_queued(s32 src, s32 max, struct bpf_cpumask *tmp)
{
	struct task_struct *p;
	s32 idle, moved = 0;

	bpf_for_each(scx_dsq, p, src, 0) {
		if (moved >= max || moved >= MAX_MOVES)
			break;
		if (task_pinned(p))
			continue;
		idle = pick_idle_near(p, src, LEVEL_NODE, tmp);
		if (idle < 0)
			break;
		if (dsq_move(BPF_FOR_EACH_ITER, p, SCX_DSQ_LOCAL_ON | idle, 0)) {
			moved++;
			stat_inc(STAT_PUSH_MOVE);
		} else {
			/* claimed for nothing: wake it to idle again or pull */
			scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
		}
	}
	if (moved)
		mask_clear_if_empty(src);
}

/* Work for @cpu arrived while it was pulling. */
static bool work_arrived(s32 cpu)
{
	return scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL) > 0 ||
	       scx_bpf_dsq_nr_queued(cpu) > 0;
}

enum pull_result {
	PULL_NONE,
	PULL_FOUND,
	PULL_ABORT,
};

/*
 * Move to @cpu's local DSQ the first of the tasks waiting on @victim, in
 * vtime order, that may run on @cpu and is not cache hot: it last ran at
 * least mig_cost_ns ago (CFS's task_hot()). Across nodes a task must also
 * have waited REMOTE_WAIT_NS.
 */
static bool pull_task(s32 cpu, s32 victim, u32 level)
{
	u64 now = bpf_ktime_get_ns();
	struct task_struct *p;
	struct task_ctx *tctx;
	u32 seen = 0;

	bpf_for_each(scx_dsq, p, victim, 0) {
		if (++seen > MAX_CANDIDATES)
			break;
		if (task_pinned(p) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);
		if (!tctx || (misfit_enabled && !fits_move(tctx, victim, cpu)))
			continue;
		if (level == LEVEL_ALL && now - tctx->queued_at < REMOTE_WAIT_NS)
			continue;
		if (now - tctx->started < mig_cost_ns) {
			stat_inc(STAT_PULL_HOT);
			continue;
		}
		if (dsq_move(BPF_FOR_EACH_ITER, p, SCX_DSQ_LOCAL, 0))
			return true;
	}
	return false;
}

/*
 * Pull one task from the DSQ of a busy CPU of LLC @llc into @cpu's local DSQ,
 * looking at the CPUs in order from position @start. Counts the DSQs it
 * examines in @cpu's cpu_ctx. Global, so that it is verified once, not once
 * per caller and loop.
 */
__noinline int pull_from_llc(s32 cpu, u32 llc, u32 start, u32 level)
{
	struct bpf_cpumask *mask = NULL;
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	struct llc_ctx *lctx;
	u32 first, nr, i;
	s32 victim;

	if (!cctx)
		return PULL_NONE;
	if (scan_mode == SCX_PUSH_SCAN_MASK) {
		lctx = lookup_llc_ctx(llc);
		mask = lctx ? lctx->overloaded : NULL;
		if (!mask || bpf_cpumask_empty(cast_mask(mask)))
			return PULL_NONE;
	}
	first = llc_first[cpu_idx(llc)];
	nr = llc_nr[cpu_idx(llc)];
	bpf_for(i, 0, nr) {
		victim = llc_cpus[cpu_idx(first + (start + i) % nr)];
		if (victim == cpu)
			continue;
		if (mask && !bpf_cpumask_test_cpu(victim, cast_mask(mask)))
			continue;
		if (work_arrived(cpu))
			return PULL_ABORT;
		cctx->scanned++;
		if (scx_bpf_dsq_nr_queued(victim) <= 0) {
			if (mask) {
				stat_inc(STAT_MASK_STALE);
				mask_clear(victim);
			}
			continue;
		}
		if (pull_task(cpu, victim, level)) {
			mask_clear_if_empty(victim);
			return PULL_FOUND;
		}
	}
	return PULL_NONE;
}

static const u32 pull_try_stat[NR_LEVELS] = {
	[LEVEL_LLC]	= STAT_PULL_LLC_TRY,
	[LEVEL_NODE]	= STAT_PULL_NODE_TRY,
	[LEVEL_ALL]	= STAT_PULL_REMOTE_TRY,
};

static const u32 pull_ok_stat[NR_LEVELS] = {
	[LEVEL_LLC]	= STAT_PULL_LLC,
	[LEVEL_NODE]	= STAT_PULL_NODE,
	[LEVEL_ALL]	= STAT_PULL_REMOTE,
};

/* The LLCs of one level around @cpu: its own, the rest of its node, the rest. */
static enum pull_result pull_level(s32 cpu, u32 level)
{
	u32 llc = cpu_llc[cpu_idx(cpu)];
	u32 node = llc_node[cpu_idx(llc)];
	u32 first, nr, i, j, other, l;
	enum pull_result res;

	if (level == LEVEL_LLC)
		return pull_from_llc(cpu, llc, cpu_pos[cpu_idx(cpu)] + 1, level);

	if (level == LEVEL_NODE) {
		first = node_first_llc[node_idx(node)];
		nr = node_nr_llcs[node_idx(node)];
		bpf_for(i, 1, nr) {
			l = first + (llc - first + i) % nr;
			res = pull_from_llc(cpu, l, cpu, level);
			if (res != PULL_NONE)
				return res;
		}
		return PULL_NONE;
	}

	bpf_for(i, 1, nr_nodes) {
		other = node_idx((node + i) % nr_nodes);
		first = node_first_llc[other];
		nr = node_nr_llcs[other];
		bpf_for(j, 0, nr) {
			res = pull_from_llc(cpu, first + j, cpu, level);
			if (res != PULL_NONE)
				return res;
		}
	}
	return PULL_NONE;
}

/* A decaying average, CFS's update_avg(): 1/8 of the new sample. */
static inline void update_avg(u64 *avg, u64 sample)
{
	*avg = *avg + ((s64)(sample - *avg) >> 3);
}

/*
 * Decay the pull cost maxima by 1% a second, as CFS's max_newidle_lb_cost,
 * so that one slow pull long ago does not gate pulls for ever.
 */
static void decay_pull_costs(struct cpu_ctx *cctx, u64 now)
{
	u32 level;

	if (now - cctx->pull_cost_decay_at < COST_DECAY_NS)
		return;
	cctx->pull_cost_decay_at = now;
	bpf_for(level, 0, NR_LEVELS)
		cctx->pull_cost[level] = cctx->pull_cost[level] * 253 / 256;
}

/*
 * The cap of @cctx's average idle time: twice the most a pull cost at any
 * level, at least twice sysctl_sched_migration_cost (CFS caps rq->avg_idle
 * at 2 * max_idle_balance_cost), so that long idle periods do not open the
 * gate for the busy stretch that follows.
 */
static u64 idle_cap(struct cpu_ctx *cctx)
{
	u64 max = MIN_PULL_COST_NS;
	u32 level;

	bpf_for(level, 0, NR_LEVELS) {
		if (cctx->pull_cost[level] > max)
			max = cctx->pull_cost[level];
	}
	return 2 * max;
}

/*
 * The idle time @cctx's CPU expects: its average idle time, or the idle
 * period it is in if that is longer already. The average changes only when
 * a task starts to run; without the period in progress, a CPU whose average
 * is below a level's pull cost would stay gated at that level, idle next to
 * waiting tasks, however often the timer kicks it (CFS's periodic balance is
 * not gated by avg_idle).
 */
static u64 expected_idle(struct cpu_ctx *cctx, u64 now)
{
	u64 idle = cctx->idle_at ? now - cctx->idle_at : 0;

	return idle > cctx->avg_idle ? idle : cctx->avg_idle;
}

/*
 * The newidle balance: pull one task, nearest busy CPUs first. With the
 * idle gate (seeds 005, 008), a level is searched only while the idle time
 * this CPU expects exceeds what pulling has cost it so far and at most at
 * that level: a pull that costs more than the idle time it fills
 * only delays the work that comes anyway.
 */
static enum pull_result pull(s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	enum pull_result res = PULL_NONE;
	u64 started = bpf_ktime_get_ns(), at, cost, expect;
	bool gated;
	u32 level;

	if (!cctx)
		return PULL_NONE;
	cctx->scanned = 0;
	gated = idle_gate && (gate_kicked || !cctx->pull_kicked);
	cctx->pull_kicked = false;
	decay_pull_costs(cctx, started);
	expect = expected_idle(cctx, started);
	bpf_for(level, 0, pull_max_level() + 1) {
		if (level >= NR_LEVELS)
			break;
		at = bpf_ktime_get_ns();
		if (gated && expect < at - started + cctx->pull_cost[level]) {
			stat_inc(STAT_PULL_GATED);
			break;
		}
		stat_inc(pull_try_stat[level]);
		res = pull_level(cpu, level);
		cost = bpf_ktime_get_ns() - at;
		if (cost > cctx->pull_cost[level])
			cctx->pull_cost[level] = cost;
		if (res == PULL_FOUND)
			stat_inc(pull_ok_stat[level]);
		if (res != PULL_NONE)
			break;
	}
	stat_add(STAT_PULL_SCAN, cctx->scanned);
	if (res == PULL_FOUND)
		stat_add(STAT_PULL_SCAN_OK, cctx->scanned);
	else if (res == PULL_ABORT)
		stat_inc(STAT_PULL_ABORT);
	stat_add(STAT_PULL_NS, bpf_ktime_get_ns() - started);
	return res;
}

/*
 * @prev used up its slice on @cpu and is still runnable: charge it and let it
 * go on if no task waiting there is ahead of it.
 */
static bool keep_prev(struct task_struct *prev, s32 cpu)
{
	struct task_ctx *tctx = lookup_task_ctx(prev);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	u64 head;

	if (!tctx || !cctx)
		return false;
	charge(prev, tctx);
	if (dsq_head_vtime(cpu, &head) && !vtime_before(prev->scx.dsq_vtime, head))
		return false;
	/*
	 * It starts another slice: move the clock as a start does. Not for a
	 * task that gives way, or the clock would run ahead of the waiting
	 * tasks and vtime_on() would clamp them up to it.
	 */
	if (vtime_before(cctx->vclock, prev->scx.dsq_vtime))
		cctx->vclock = prev->scx.dsq_vtime;
	set_curr(cctx, prev, tctx->started);
	prev->scx.slice = task_slice(cpu);
	stat_inc(STAT_KEEP);
	return true;
}

void BPF_STRUCT_OPS(push_dispatch, s32 cpu, struct task_struct *prev)
{
	bool prev_runnable = prev && (prev->scx.flags & SCX_TASK_QUEUED);
	struct cpu_ctx *cctx;
	s32 left;

	/* a misfit @prev leaves for a bigger CPU: as if it had stopped */
	if (misfit_enabled && prev_runnable && misfit_leave(prev, cpu))
		prev_runnable = false;

	if (scx_bpf_dsq_nr_queued(cpu) > 0) {
		if (prev_runnable && keep_prev(prev, cpu))
			return;
		if (dsq_move_to_local(cpu)) {
			left = scx_bpf_dsq_nr_queued(cpu);
			if (left <= 0)
				mask_clear(cpu);
			else if (push_enabled)
				push_queued(cpu, left, this_tmp_mask());
			return;
		}
	} else {
		mask_clear(cpu);
	}

	/* Still runnable and nothing waits here: not idle, no pull. */
	if (prev_runnable) {
		keep_prev(prev, cpu);
		return;
	}
	/* a misfit task asked for comes before any pull */
	if (!(misfit_enabled && misfit_pull(cpu)) &&
	    pull_enabled && pull(cpu) == PULL_FOUND)
		return;
	/* queued here while this CPU pulled, or while it found nothing */
	if (scx_bpf_dsq_nr_queued(cpu) > 0 && dsq_move_to_local(cpu))
		return;
	cctx = lookup_cpu_ctx(cpu);
	if (cctx && !cctx->idle_at)
		cctx->idle_at = bpf_ktime_get_ns();
}

/*
 * End the slice that a wakeup asked to preempt (preempt_later()) once the
 * running task ran its minimum, and repair a set bit lost to a race between
 * a puller and an enqueue.
 */
void BPF_STRUCT_OPS(push_tick, struct task_struct *p)
{
	s32 cpu = scx_bpf_task_cpu(p);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (cctx && preempt_due(cctx))
		p->scx.slice = 0;
	if (scan_mode == SCX_PUSH_SCAN_MASK && !mask_test(cpu) &&
	    dsq_head_movable(cpu, 0))
		mask_set(cpu);
	if (misfit_enabled)
		misfit_tick(p, cpu);
}

void BPF_STRUCT_OPS(push_running, struct task_struct *p)
{
	s32 cpu = scx_bpf_task_cpu(p);
	u64 idle, cap;
	struct task_ctx *tctx = lookup_task_ctx(p);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (!tctx || !cctx)
		return;

	if (misfit_enabled)
		util_update(tctx, cpu, false);
	p->scx.dsq_vtime = vtime_on(p, tctx, cpu);
	tctx->vtime_cpu = cpu;
	/* Only this CPU, under its rq lock, moves its clock. */
	if (vtime_before(cctx->vclock, p->scx.dsq_vtime))
		cctx->vclock = p->scx.dsq_vtime;
	tctx->started = bpf_ktime_get_ns();
	set_curr(cctx, p, tctx->started);
	p->scx.slice = task_slice(cpu);
	cctx->preempt_tick = false;
	/* the idle period that ops.dispatch() began ends here */
	if (cctx->idle_at) {
		idle = tctx->started - cctx->idle_at;
		update_avg(&cctx->avg_idle, idle);
		cap = idle_cap(cctx);
		if (cctx->avg_idle > cap)
			cctx->avg_idle = cap;
		cctx->idle_at = 0;
	}
}

void BPF_STRUCT_OPS(push_stopping, struct task_struct *p, bool runnable)
{
	s32 cpu = scx_bpf_task_cpu(p);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	struct task_ctx *tctx = lookup_task_ctx(p);

	if (tctx)
		charge(p, tctx);
	if (cctx)
		cctx->curr_weight = 0;
	if (misfit_enabled && tctx) {
		util_update(tctx, cpu, true);
		misfit_mark_cpu(cpu, false);
	}
}

void BPF_STRUCT_OPS(push_enable, struct task_struct *p)
{
	s32 cpu = scx_bpf_task_cpu(p);
	struct task_ctx *tctx = lookup_task_ctx(p);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (!tctx || !cctx)
		return;
	p->scx.dsq_vtime = cctx->vclock;
	tctx->vtime_cpu = cpu;
	/* a new task starts half-way, as PELT's post_init_entity_util_avg() */
	tctx->util = cpu_capacity[cpu_idx(cpu)] / 2;
	tctx->util_at = bpf_ktime_get_ns();
	tctx->misfit_cpu = -1;
}

s32 BPF_STRUCT_OPS(push_init_task, struct task_struct *p,
		   struct scx_init_task_args *args)
{
	if (!bpf_task_storage_get(&task_ctxs, p, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE))
		return -ENOMEM;
	return 0;
}

void BPF_STRUCT_OPS(push_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (cctx)
		cctx->released = true;
	stat_add(STAT_REENQ, scx_bpf_reenqueue_local());
}

void BPF_STRUCT_OPS(push_cpu_acquire, s32 cpu, struct scx_cpu_acquire_args *args)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (cctx)
		cctx->released = false;
}

/* An allowed CPU for @p near @src that sched_ext still runs on, or -1. */
static s32 pick_running_cpu(struct task_struct *p, s32 src)
{
	struct cpu_ctx *cctx;
	u32 i, cpu;

	bpf_for(i, 1, nr_cpus) {
		cpu = (src + i) % nr_cpus;
		if (!cpu_usable(cpu) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		cctx = lookup_cpu_ctx(cpu);
		if (cctx && !cctx->released)
			return cpu;
	}
	return -1;
}

/* Move @p, met by the DSQ iterator @it, to the queue of @dst. */
static __always_inline bool move_to_queue(struct bpf_iter_scx_dsq *it,
					  struct task_struct *p,
					  struct task_ctx *tctx, s32 dst)
{
	dsq_move_set_vtime(it, vtime_on(p, tctx, dst));
	if (!dsq_move_vtime(it, p, dst, 0))
		return false;
	tctx->vtime_cpu = dst;
	tctx->queued_at = bpf_ktime_get_ns();
	mask_set(dst);
	return true;
}

/*
 * @src is held by a higher class: move its waiting tasks to an idle CPU, or
 * to the queue of a CPU sched_ext still runs on. Tasks pinned to @src stay.
 */
static void rescue_queued(s32 src, struct bpf_cpumask *tmp)
{
	struct task_struct *p;
	struct task_ctx *tctx;
	s32 dst, moved = 0;

	bpf_for_each(scx_dsq, p, src, 0) {
		if (moved >= MAX_MOVES)
			break;
		if (task_pinned(p))
			continue;
		tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);
		if (!tctx)
			continue;
		dst = pick_idle_near(p, src, LEVEL_ALL, tmp);
		if (dst >= 0) {
			if (dsq_move(BPF_FOR_EACH_ITER, p, SCX_DSQ_LOCAL_ON | dst, 0)) {
				moved++;
				stat_inc(STAT_RESCUE);
			} else {
				scx_bpf_kick_cpu(dst, SCX_KICK_IDLE);
			}
			continue;
		}
		dst = pick_running_cpu(p, src);
		if (dst < 0)
			continue;
		if (move_to_queue(BPF_FOR_EACH_ITER, p, tctx, dst)) {
			moved++;
			stat_inc(STAT_RESCUE);
			scx_bpf_kick_cpu(dst, SCX_KICK_IDLE);
		}
	}
	if (moved)
		mask_clear_if_empty(src);
}

/* Copy the overloaded masks for the loader, one word at a time. */
static void snapshot_masks(void)
{
	u32 word, bit, cpu;
	u64 bits;

	bpf_for(word, 0, (nr_cpus + 63) / 64) {
		bits = 0;
		bpf_for(bit, 0, 64) {
			cpu = word * 64 + bit;
			if (cpu >= nr_cpus)
				break;
			if (cpu_usable(cpu) && mask_test(cpu))
				bits |= 1ULL << bit;
		}
		overloaded_snap[word & (SCX_PUSH_MAX_CPUS / 64 - 1)] = bits;
	}
}

/*
 * Whether @cpu is idle or about to be: in the idle mask, or going_idle().
 * Read by the timer without @cpu's rq lock: a CPU that changes meanwhile is
 * seen at the next round.
 */
static bool idle_hint(s32 cpu)
{
	const struct cpumask *idle;
	bool ret;

	if (going_idle(cpu))
		return true;
	idle = scx_bpf_get_idle_cpumask();
	ret = bpf_cpumask_test_cpu(cpu, idle);
	scx_bpf_put_idle_cpumask(idle);
	return ret;
}

/*
 * One CPU's share of the balance timer: clear a stale bit, wake an idle
 * owner, rescue tasks from a CPU held by a higher class, push waiting tasks
 * to idle CPUs and kick idle CPUs to pull the rest. A busy owner is not
 * kicked: a kick takes its rq lock from an irq_work only to find it busy.
 */
static void balance_cpu(s32 cpu, struct bpf_cpumask *tmp)
{
	s32 queued = scx_bpf_dsq_nr_queued(cpu), kicks, idle;
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu), *kicked;
	struct task_struct *p;

	if (queued <= 0) {
		if (mask_test(cpu)) {
			stat_inc(STAT_MASK_STALE);
			mask_clear(cpu);
		}
		return;
	}
	if (cctx && cctx->released) {
		rescue_queued(cpu, tmp);
		return;
	}
	if (idle_hint(cpu))
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
	if (push_enabled)
		push_queued(cpu, queued, tmp);
	if (!pull_enabled || !dsq_head_movable(cpu, REMOTE_WAIT_NS))
		return;

	kicks = 0;
	bpf_for_each(scx_dsq, p, cpu, 0) {
		if (kicks >= MAX_KICKS)
			break;
		idle = pick_idle_near(p, cpu, pull_max_level(), tmp);
		if (idle < 0)
			break;
		kicked = lookup_cpu_ctx(idle);
		if (kicked)
			kicked->pull_kicked = true;
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
		stat_inc(STAT_PULL_KICK);
		kicks++;
	}
}

/*
 * Busy balance. One timer round measures every LLC once and sums the LLCs
 * into their nodes and the nodes into the system (seed 009: statistics
 * computed once per level and propagated up). The target is the mean load
 * per CPU over the widest span -P allows. Every CPU below it then takes
 * waiting tasks from the CPU that gives most, nearest first: its LLC, the
 * rest of its node, the other nodes. A move needs the giver above the
 * target and two tasks above the taker, so it never reverses an imbalance
 * (CFS's rule); the taker stops at the target. All CPUs below the target
 * take in the same round, so a queue that has to spread over N CPUs does
 * so in one round, and no task is moved twice on its way. O(CPUs) a round.
 */
struct llc_load {
	s32	load;	/* of all its CPUs; all loads x TASK_LOAD */
	s32	giver;	/* its CPU with the most load and a waiting task, or -1 */
	s32	give;	/* the giver's load, less what it gave this round */
};

struct node_load {
	s32	load;
	s32	nr_cpus;
	s32	top[2];	/* the two LLCs whose givers give most, or -1 */
	s32	top_give[2];	/* what they give, as measured */
	s32	busiest[2];	/* the two LLCs with the most load per CPU, or -1 */
};

static struct llc_load llc_loads[SCX_PUSH_MAX_LLCS];
static struct node_load node_loads[SCX_PUSH_MAX_NODES];
static s32 top_nodes[2];	/* the two nodes whose givers give most, or -1 */
static s32 top_node_give[2];	/* what they give, as measured */
static s32 busiest_node;	/* the node with the most load per CPU */
static s32 sys_load, sys_nr_cpus;
static u32 group_scans;	/* LLCs scanned by busy_group_take() this round */

static const u32 busy_stat[NR_LEVELS] = {
	[LEVEL_LLC]	= STAT_BUSY_LLC,
	[LEVEL_NODE]	= STAT_BUSY_NODE,
	[LEVEL_ALL]	= STAT_BUSY_REMOTE,
};

static inline struct llc_load *llc_load_of(u32 llc)
{
	return &llc_loads[llc & (SCX_PUSH_MAX_LLCS - 1)];
}

/* What LLC @llc's giver gives now, -1 if it has none. */
static inline s32 llc_give(s32 llc)
{
	struct llc_load *ll;

	if (llc < 0)
		return -1;
	ll = llc_load_of(llc);
	return ll->giver >= 0 ? ll->give : -1;
}

/* Of @node's two top LLCs, the one other than @except that gives most. */
static s32 node_best_llc(s32 node, s32 except)
{
	struct node_load *nl;
	s32 a, b;

	if (node < 0)
		return -1;
	nl = &node_loads[node_idx(node)];
	a = nl->top[0] != except ? nl->top[0] : -1;
	b = nl->top[1] != except ? nl->top[1] : -1;
	return llc_give(b) > llc_give(a) ? b : a;
}

/* Keep in @top the two of @top and @cand that give most (@gives). */
static inline void keep_top(s32 *top, s32 *gives, s32 cand, s32 give)
{
	if (give > gives[0]) {
		top[1] = top[0];
		gives[1] = gives[0];
		top[0] = cand;
		gives[0] = give;
	} else if (give > gives[1]) {
		top[1] = cand;
		gives[1] = give;
	}
}

/* Whether load @a over @na CPUs is more per CPU than load @b over @nb. */
static inline bool heavier(s32 a, s32 na, s32 b, s32 nb)
{
	return (s64)a * nb > (s64)b * na;
}

/* Whether LLC @a (or -1) has more load per CPU than LLC @b (or -1). */
static bool llc_heavier(s32 a, s32 b)
{
	if (a < 0)
		return false;
	if (b < 0)
		return true;
	return heavier(llc_load_of(a)->load, llc_nr[cpu_idx(a)],
		       llc_load_of(b)->load, llc_nr[cpu_idx(b)]);
}

/*
 * Fill llc_loads[@llc] from its CPUs' loads (running + waiting tasks) in
 * this round and the last: a CPU is as busy as the lower of the two to
 * give tasks and as the higher to take them (cpu_ctx.load_take), and its
 * LLC as their mean. A wakeup-heavy load fills and empties queues within a
 * round; only an imbalance that lasts a round moves tasks, and a CPU that
 * just took tasks does not take more in the next round.
 */
__noinline int measure_llc(u32 llc)
{
	struct llc_load *ll = llc_load_of(llc);
	u32 first = llc_first[cpu_idx(llc)], nr = llc_nr[cpu_idx(llc)], i;
	const struct cpumask *idle = scx_bpf_get_idle_cpumask();
	struct cpu_ctx *cctx;
	s32 cpu, queued, load, give, take;

	ll->load = ll->give = 0;
	ll->giver = -1;
	bpf_for(i, 0, nr) {
		cpu = llc_cpus[cpu_idx(first + i)];
		cctx = lookup_cpu_ctx(cpu);
		if (!cctx)
			continue;
		queued = scx_bpf_dsq_nr_queued(cpu);
		if (queued < 0)
			queued = 0;
		load = (queued + !bpf_cpumask_test_cpu(cpu, idle)) * TASK_LOAD;
		give = load < cctx->load_prev ? load : cctx->load_prev;
		take = load > cctx->load_prev ? load : cctx->load_prev;
		ll->load += (load + cctx->load_prev) >> 1;
		cctx->load_prev = load;
		cctx->load_take = cctx->released ? -1 : take;
		if (queued > 0 && !cctx->released && (ll->giver < 0 || give > ll->give)) {
			ll->giver = cpu;
			ll->give = give;
		}
	}
	scx_bpf_put_idle_cpumask(idle);
	return 0;
}

/* Sum up @node's LLCs in node_loads[@node] and find its two top givers. */
__noinline int measure_node(u32 node)
{
	struct node_load *nl = &node_loads[node_idx(node)];
	u32 first = node_first_llc[node_idx(node)], i, llc;

	nl->load = nl->nr_cpus = 0;
	nl->top[0] = nl->top[1] = -1;
	nl->top_give[0] = nl->top_give[1] = -1;
	nl->busiest[0] = nl->busiest[1] = -1;
	bpf_for(i, 0, node_nr_llcs[node_idx(node)]) {
		llc = first + i;
		nl->load += llc_load_of(llc)->load;
		nl->nr_cpus += llc_nr[cpu_idx(llc)];
		if (llc_load_of(llc)->giver >= 0)
			keep_top(nl->top, nl->top_give, llc, llc_give(llc));
		if (llc_heavier(llc, nl->busiest[0])) {
			nl->busiest[1] = nl->busiest[0];
			nl->busiest[0] = llc;
		} else if (llc_heavier(llc, nl->busiest[1])) {
			nl->busiest[1] = llc;
		}
	}
	return 0;
}

/*
 * Move one task waiting on @src to the queue of @dst: of the last
 * MAX_CANDIDATES in vtime order (the least urgent), the first that may run
 * on @dst and waited BUSY_WAIT_NS there (REMOTE_WAIT_NS across nodes, and
 * never less than mig_cost_ns): a shorter wait is the normal churn of a
 * wakeup-heavy load, not a sign of imbalance. A moved
 * task counts as queued anew, so it does not move on in the same round.
 * Returns 1 if one moved. The balance timer belongs to the sleepable
 * ops.init(), so a global function it calls takes the RCU read lock itself.
 */
__noinline int busy_move_one(s32 src, s32 dst, u32 level)
{
	u64 now = bpf_ktime_get_ns(), wait;
	struct task_struct *p;
	struct task_ctx *tctx;
	u32 seen = 0;
	int moved = 0;

	if (!cpu_usable(src) || !cpu_usable(dst) || level >= NR_LEVELS)
		return 0;
	wait = level == LEVEL_ALL ? REMOTE_WAIT_NS : BUSY_WAIT_NS;
	if (wait < mig_cost_ns)
		wait = mig_cost_ns;
	bpf_rcu_read_lock();
	bpf_for_each(scx_dsq, p, src, SCX_DSQ_ITER_REV) {
		if (++seen > MAX_CANDIDATES)
			break;
		if (task_pinned(p) || !bpf_cpumask_test_cpu(dst, p->cpus_ptr))
			continue;
		tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);
		if (!tctx || now - tctx->queued_at < wait ||
		    (misfit_enabled && !fits_move(tctx, src, dst)))
			continue;
		moved = move_to_queue(BPF_FOR_EACH_ITER, p, tctx, dst);
		break;
	}
	if (moved) {
		stat_inc(busy_stat[level]);
		mask_clear_if_empty(src);
		scx_bpf_kick_cpu(dst, SCX_KICK_IDLE);
	}
	bpf_rcu_read_unlock();
	return moved;
}

/* The load per CPU that @cpu of @llc and @node is evened out to. */
static s32 busy_target(u32 llc, u32 node)
{
	struct node_load *nl = &node_loads[node_idx(node)];
	s32 load = llc_load_of(llc)->load, nr = llc_nr[cpu_idx(llc)];

	if (pull_max_level() == LEVEL_ALL) {
		load = sys_load;
		nr = sys_nr_cpus;
	} else if (pull_max_level() == LEVEL_NODE) {
		load = nl->load;
		nr = nl->nr_cpus;
	}
	return nr > 0 ? (u32)load / (u32)nr : 0;
}

/* The LLC whose giver @cpu of @llc and @node takes from at @level, or -1. */
static s32 busy_source(s32 cpu, u32 llc, u32 node, u32 level)
{
	s32 other;

	if (level == LEVEL_LLC)
		return llc;
	if (level == LEVEL_NODE)
		return node_best_llc(node, llc);
	other = top_nodes[0] != node ? top_nodes[0] : top_nodes[1];
	return node_best_llc(other, -1);
}

/*
 * @cpu, below @target, takes tasks from the giver of LLC @src_llc at
 * @level while that one is above @target and two tasks above @cpu. Global,
 * so that its loop is verified once.
 */
__noinline int busy_take(s32 cpu, s32 src_llc, s32 target, u32 level)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	struct llc_load *ll;
	u32 i;

	if (!cctx || src_llc < 0)
		return 0;
	ll = llc_load_of(src_llc);
	if (ll->giver < 0 || ll->giver == cpu)
		return 0;
	bpf_for(i, 0, MAX_MOVES) {
		if (cctx->load_take >= target || ll->give <= target ||
		    ll->give - cctx->load_take < 2 * TASK_LOAD)
			break;
		if (!busy_move_one(ll->giver, cpu, level))
			break;
		ll->give -= TASK_LOAD;
		cctx->load_take += TASK_LOAD;
	}
	return 0;
}

/*
 * Group imbalance: @cpu is still below the target at @level, where the top
 * giver's waiting tasks may not run on it (they are bound to their LLC or
 * node), but the busiest group of the level (the other LLCs of @cpu's node
 * at LEVEL_NODE, the other nodes at LEVEL_ALL) holds so much more per CPU
 * than @cpu's own that one task less there and one more here does not
 * reverse the imbalance (CFS's rule, between groups). Then a CPU of that
 * group's busiest LLC with more load than @cpu gives it a task that may run
 * on it, and the CPU left short fills up from its own group's giver in the
 * next round. One task per call, MAX_GROUP_SCANS LLC scans per round.
 */
__noinline int busy_group_take(s32 cpu, u32 level)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu), *sctx;
	s32 src_llc, src_node, load, nr, src_load, src_nr, src;
	struct node_load *nl, *snl;
	u32 llc, node, first, i;
	struct llc_load *ll;

	if (!cctx || !cpu_usable(cpu) || group_scans >= MAX_GROUP_SCANS)
		return 0;
	llc = cpu_llc[cpu_idx(cpu)];
	node = llc_node[cpu_idx(llc)];
	nl = &node_loads[node_idx(node)];
	src_node = node;
	if (level == LEVEL_NODE) {
		src_llc = nl->busiest[0] != llc ? nl->busiest[0] : nl->busiest[1];
		if (src_llc < 0)
			return 0;
		load = llc_load_of(llc)->load;
		nr = llc_nr[cpu_idx(llc)];
		src_load = llc_load_of(src_llc)->load;
		src_nr = llc_nr[cpu_idx(src_llc)];
	} else if (level == LEVEL_ALL) {
		src_node = busiest_node;
		if (src_node < 0 || src_node == node)
			return 0;
		snl = &node_loads[node_idx(src_node)];
		src_llc = snl->busiest[0];
		if (src_llc < 0)
			return 0;
		load = nl->load;
		nr = nl->nr_cpus;
		src_load = snl->load;
		src_nr = snl->nr_cpus;
	} else {
		return 0;
	}
	if (heavier(load + TASK_LOAD, nr, src_load - TASK_LOAD, src_nr))
		return 0;

	group_scans++;
	first = llc_first[cpu_idx(src_llc)];
	bpf_for(i, 0, llc_nr[cpu_idx(src_llc)]) {
		src = llc_cpus[cpu_idx(first + i)];
		sctx = lookup_cpu_ctx(src);
		if (!sctx || sctx->released || sctx->load_prev <= cctx->load_take ||
		    !busy_move_one(src, cpu, level))
			continue;
		stat_inc(STAT_BUSY_GROUP);
		cctx->load_take += TASK_LOAD;
		llc_load_of(llc)->load += TASK_LOAD;
		ll = llc_load_of(src_llc);
		ll->load -= TASK_LOAD;
		if (ll->giver == src)
			ll->give -= TASK_LOAD;
		if (level == LEVEL_ALL) {
			nl->load += TASK_LOAD;
			node_loads[node_idx(src_node)].load -= TASK_LOAD;
		}
		return 1;
	}
	return 0;
}

/*
 * @cpu takes tasks until it reaches the target: from its LLC's giver, then
 * from the top giver of its node, then from that of the other nodes, as far
 * as -P allows; at each level beyond the LLC, from the busiest group if
 * the top giver had nothing for it.
 */
__noinline int busy_fill(s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	u32 llc, node, level;
	s32 target;

	if (!cctx || cctx->load_take < 0 || !cpu_usable(cpu))
		return 0;
	llc = cpu_llc[cpu_idx(cpu)];
	node = llc_node[cpu_idx(llc)];
	target = busy_target(llc, node);
	bpf_for(level, 0, pull_max_level() + 1) {
		if (cctx->load_take >= target)
			break;
		busy_take(cpu, busy_source(cpu, llc, node, level), target, level);
		if (busy_group_enabled && level != LEVEL_LLC && cctx->load_take < target)
			busy_group_take(cpu, level);
	}
	return 0;
}

/* Sum the nodes up into the system and find its two top nodes. */
__noinline int measure_system(void)
{
	struct node_load *nl;
	u32 node;

	sys_load = sys_nr_cpus = 0;
	busiest_node = -1;
	top_nodes[0] = top_nodes[1] = -1;
	top_node_give[0] = top_node_give[1] = -1;
	bpf_for(node, 0, nr_nodes) {
		measure_node(node);
		nl = &node_loads[node_idx(node)];
		sys_load += nl->load;
		sys_nr_cpus += nl->nr_cpus;
		if (nl->top[0] >= 0)
			keep_top(top_nodes, top_node_give, node, nl->top_give[0]);
		if (busiest_node < 0 ||
		    heavier(nl->load, nl->nr_cpus, node_loads[node_idx(busiest_node)].load,
			    node_loads[node_idx(busiest_node)].nr_cpus))
			busiest_node = node;
	}
	return 0;
}

/* Measure the levels bottom-up, then let every CPU below the target take. */
static void busy_balance(void)
{
	u32 llc;
	s32 cpu;

	bpf_for(llc, 0, nr_llcs)
		measure_llc(llc);
	measure_system();
	group_scans = 0;
	bpf_for(cpu, 0, nr_cpus)
		busy_fill(cpu);
}

static int balance_timerfn(void *map, int *key, struct balance_timer *bt)
{
	struct task_struct *current = (void *)bpf_get_current_task_btf();
	s32 cpu;

	/*
	 * The timer can fire on top of an sched_ext operation that runs with
	 * IRQs on (ops.init_task() at fork); DSQ moves are not allowed there
	 * and would eject the scheduler. Skip this round.
	 */
	if (current->scx.kf_mask)
		goto out;

	stat_inc(STAT_TIMER);
	bpf_rcu_read_lock();
	if (scan_mode == SCX_PUSH_SCAN_MASK)
		snapshot_masks();
	bpf_for(cpu, 0, nr_cpus) {
		if (cpu_usable(cpu))
			balance_cpu(cpu, bt->tmp);
	}
	bpf_rcu_read_unlock();
	if (busy_enabled)
		busy_balance();
out:
	bpf_timer_start(&bt->timer, TIMER_INTERVAL_NS, 0);
	return 0;
}

/*
 * The minimum slice of the task running on *@key is over and a wakeup
 * waits to preempt it: kick it off the CPU. Not under that CPU's rq lock:
 * a task that started meanwhile (ops.running() cleared preempt_tick, or
 * curr_at moved) or a CPU taken by a higher class is left alone.
 */
static int preempt_timerfn(void *map, int *key, struct preempt_timer *pt)
{
	s32 cpu = *key;
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (!cctx || cctx->released || !cctx->curr_weight || !preempt_due(cctx))
		return 0;
	scx_bpf_kick_cpu(cpu, SCX_KICK_PREEMPT);
	stat_inc(STAT_PREEMPT_TIMER);
	return 0;
}

static const char on[] = "on", off[] = "off";
static const char scope_llc[] = "llc", scope_node[] = "node", scope_all[] = "all";
static const char scan_mask[] = "mask", scan_full[] = "full";

static const char *on_off(bool enabled)
{
	return enabled ? on : off;
}

void BPF_STRUCT_OPS(push_dump, struct scx_dump_ctx *dctx)
{
	const char *scope = pull_scope == SCX_PUSH_SCOPE_LLC ? scope_llc :
			    pull_scope == SCX_PUSH_SCOPE_NODE ? scope_node : scope_all;
	u32 llc, i, cpu;

	scx_bpf_dump("scx_push: slice_ns=%llu pull_scope=%s scan=%s push=%s pull=%s\n",
		     slice_ns, scope, scan_mode == SCX_PUSH_SCAN_MASK ? scan_mask : scan_full,
		     on_off(push_enabled), on_off(pull_enabled));
	scx_bpf_dump("scx_push: busy=%s group=%s sync=%s wake_affine=%s preempt=%s idle_gate=%s misfit=%s\n",
		     on_off(busy_enabled), on_off(busy_group_enabled), on_off(sync_enabled),
		     on_off(wake_affine), on_off(preempt_enabled), on_off(idle_gate),
		     on_off(misfit_enabled));
	bpf_for(llc, 0, nr_llcs) {
		scx_bpf_dump("llc %u (node %d) overloaded:", llc, llc_node_id(llc));
		bpf_for(i, 0, llc_nr[cpu_idx(llc)]) {
			cpu = llc_cpus[cpu_idx(llc_first[cpu_idx(llc)] + i)];
			if (mask_test(cpu))
				scx_bpf_dump(" %u", cpu);
		}
		scx_bpf_dump("\n");
	}
}

void BPF_STRUCT_OPS(push_dump_cpu, struct scx_dump_ctx *dctx, s32 cpu, bool idle)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	s32 queued = scx_bpf_dsq_nr_queued(cpu);
	u64 now = bpf_ktime_get_ns();

	if (!cctx)
		return;
	/* the idle gate's state, for idle CPUs too: why one did not pull */
	scx_bpf_dump("scx_push: idle_ms=%llu avg_idle_us=%llu pull_cost_us=%llu/%llu/%llu\n",
		     cctx->idle_at ? (now - cctx->idle_at) / 1000000 : 0,
		     cctx->avg_idle / 1000, cctx->pull_cost[LEVEL_LLC] / 1000,
		     cctx->pull_cost[LEVEL_NODE] / 1000, cctx->pull_cost[LEVEL_ALL] / 1000);
	if (idle && queued <= 0)
		return;
	scx_bpf_dump("scx_push: dsq %d queued, overloaded=%d released=%d vclock=%llu",
		     queued, mask_test(cpu), cctx->released, cctx->vclock);
}

/* A new cpumask with the CPUs llc_cpus[first .. first + nr - 1]. */
static struct bpf_cpumask *make_mask(u32 first, u32 nr)
{
	struct bpf_cpumask *mask = bpf_cpumask_create();
	u32 i;

	if (!mask)
		return NULL;
	bpf_for(i, 0, nr)
		bpf_cpumask_set_cpu(llc_cpus[cpu_idx(first + i)], mask);
	return mask;
}

/* Store @mask in *@slot; returns -ENOMEM for a failed bpf_cpumask_create(). */
static s32 store_mask(struct bpf_cpumask __kptr **slot, struct bpf_cpumask *mask)
{
	if (!mask)
		return -ENOMEM;
	mask = bpf_kptr_xchg(slot, mask);
	if (mask)
		bpf_cpumask_release(mask);
	return 0;
}

static s32 init_cpus(void)
{
	struct cpu_ctx *cctx;
	s32 cpu, ret;

	bpf_for(cpu, 0, nr_cpus) {
		if (!cpu_usable(cpu))
			continue;
		ret = scx_bpf_create_dsq(cpu, llc_node_id(cpu_llc[cpu_idx(cpu)]));
		if (ret) {
			scx_bpf_error("cannot create the DSQ of CPU %d (%d)", cpu, ret);
			return ret;
		}
		cctx = lookup_cpu_ctx(cpu);
		if (!cctx || store_mask(&cctx->tmp, bpf_cpumask_create()))
			return -ENOMEM;
	}
	return 0;
}

static s32 init_topology_masks(void)
{
	u32 llc, node, first_llc, last_llc;
	struct node_ctx *nctx;
	struct llc_ctx *lctx;

	bpf_for(llc, 0, nr_llcs) {
		lctx = lookup_llc_ctx(llc);
		if (!lctx ||
		    store_mask(&lctx->cpus, make_mask(llc_first[cpu_idx(llc)],
						      llc_nr[cpu_idx(llc)])) ||
		    store_mask(&lctx->overloaded, bpf_cpumask_create()))
			return -ENOMEM;
	}
	/* A node's LLCs are consecutive, and so are their CPUs in llc_cpus[]. */
	bpf_for(node, 0, nr_nodes) {
		first_llc = node_first_llc[node_idx(node)];
		last_llc = first_llc + node_nr_llcs[node_idx(node)] - 1;
		nctx = bpf_map_lookup_elem(&node_ctxs, &node);
		if (!nctx ||
		    store_mask(&nctx->cpus,
			       make_mask(llc_first[cpu_idx(first_llc)],
					 llc_first[cpu_idx(last_llc)] +
					 llc_nr[cpu_idx(last_llc)] -
					 llc_first[cpu_idx(first_llc)])))
			return -ENOMEM;
	}
	return 0;
}

static struct bpf_cpumask *make_cap_mask(u32 level, bool above)
{
	struct bpf_cpumask *mask = bpf_cpumask_create();
	u32 cpu, l;

	if (!mask)
		return NULL;
	bpf_for(cpu, 0, nr_cpus) {
		if (!cpu_usable(cpu))
			continue;
		l = cpu_cap_level[cpu_idx(cpu)];
		if (above ? l > level : l < level)
			bpf_cpumask_set_cpu(cpu, mask);
	}
	return mask;
}

static s32 init_cap_masks(void)
{
	struct cap_ctx *cap;
	u32 level;

	bpf_for(level, 0, nr_cap_levels) {
		cap = bpf_map_lookup_elem(&cap_ctxs, &level);
		if (!cap ||
		    store_mask(&cap->above, make_cap_mask(level, true)) ||
		    store_mask(&cap->below, make_cap_mask(level, false)))
			return -ENOMEM;
	}
	return store_mask(&misfit_cpus, bpf_cpumask_create());
}

static s32 init_preempt_timers(void)
{
	struct preempt_timer *pt;
	u32 cpu;

	bpf_for(cpu, 0, nr_cpus) {
		pt = bpf_map_lookup_elem(&preempt_timers, &cpu);
		if (!pt)
			return -ENOENT;
		bpf_timer_init(&pt->timer, &preempt_timers, CLOCK_MONOTONIC);
		bpf_timer_set_callback(&pt->timer, preempt_timerfn);
	}
	return 0;
}

static s32 start_timer(void)
{
	struct balance_timer *bt;
	u32 key = 0;

	bt = bpf_map_lookup_elem(&balance_timer, &key);
	if (!bt || store_mask(&bt->tmp, bpf_cpumask_create()))
		return -ENOMEM;
	bpf_timer_init(&bt->timer, &balance_timer, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&bt->timer, balance_timerfn);
	return bpf_timer_start(&bt->timer, TIMER_INTERVAL_NS, 0);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(push_init)
{
	s32 ret;

	ret = init_cpus();
	if (!ret)
		ret = init_topology_masks();
	if (!ret && misfit_enabled)
		ret = init_cap_masks();
	if (!ret && preempt_enabled && preempt_timer)
		ret = init_preempt_timers();
	if (!ret)
		ret = start_timer();
	return ret;
}

void BPF_STRUCT_OPS(push_exit, struct scx_exit_info *ei)
{
	UEI_RECORD(uei, ei);
}

SCX_OPS_DEFINE(push_ops,
	       .select_cpu		= (void *)push_select_cpu,
	       .enqueue			= (void *)push_enqueue,
	       .dispatch		= (void *)push_dispatch,
	       .tick			= (void *)push_tick,
	       .running			= (void *)push_running,
	       .stopping		= (void *)push_stopping,
	       .enable			= (void *)push_enable,
	       .cpu_acquire		= (void *)push_cpu_acquire,
	       .cpu_release		= (void *)push_cpu_release,
	       .init_task		= (void *)push_init_task,
	       .dump			= (void *)push_dump,
	       .dump_cpu		= (void *)push_dump_cpu,
	       .init			= (void *)push_init,
	       .exit			= (void *)push_exit,
	       .name			= "scx_push");
