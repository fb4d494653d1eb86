/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_push: per-CPU queues balanced by push and pull.
 *
 * Queues. Every CPU has its own DSQ (id = CPU number) holding the tasks that
 * wait for it, ordered by weighted virtual time. Only the task about to run
 * goes to a CPU's local DSQ; a wakeup that finds an idle CPU goes straight to
 * that CPU's local DSQ.
 *
 * Virtual time. A task is charged its run time scaled by 100 / weight. Each
 * CPU keeps its own clock (the largest vtime that started running there), so
 * a busy CPU's tasks are never measured against an idle CPU's clock; a task
 * that moves is rebased from its old CPU's clock to the new one. A waking
 * task's credit is capped at one slice. When the running task's slice ends
 * it keeps the CPU if its vtime is still ahead of the first waiting task.
 *
 * Limits: no wakeup preemption (a waiting task waits at most one slice).
 */
#include <scx/common.bpf.h>
#include "scx_push.h"
#include "scx_push_compat.bpf.h"

char _license[] SEC("license") = "GPL";

const volatile u64 slice_ns = SCX_SLICE_DFL;
const volatile u32 nr_cpus = 1;		/* nr_cpu_ids: highest possible CPU + 1 */

UEI_DEFINE(uei);

struct cpu_ctx {
	u64	vclock;		/* vtime clock of this CPU's DSQ */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCX_PUSH_MAX_CPUS);
	__type(key, u32);
	__type(value, struct cpu_ctx);
} cpu_ctxs SEC(".maps");

struct task_ctx {
	u64	started;	/* when it last started running or was charged */
	s32	vtime_cpu;	/* the CPU whose clock its dsq_vtime follows */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} task_ctxs SEC(".maps");

static inline bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static struct cpu_ctx *lookup_cpu_ctx(s32 cpu)
{
	u32 key = cpu;

	return bpf_map_lookup_elem(&cpu_ctxs, &key);
}

static struct task_ctx *lookup_task_ctx(struct task_struct *p)
{
	struct task_ctx *tctx = bpf_task_storage_get(&task_ctxs, p, 0, 0);

	if (!tctx)
		scx_bpf_error("%s[%d] has no task context", p->comm, p->pid);
	return tctx;
}

/*
 * Express @p's vtime on @cpu's clock and cap the credit of a task that slept
 * or waited at one slice. Reading another CPU's clock races with its updates;
 * an error of one update only shifts the task within one slice.
 */
static u64 task_vtime_on(struct task_struct *p, struct task_ctx *tctx, s32 cpu)
{
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu), *octx;
	u64 vtime = p->scx.dsq_vtime;

	if (!cctx)
		return vtime;
	if (tctx->vtime_cpu != cpu) {
		octx = lookup_cpu_ctx(tctx->vtime_cpu);
		if (octx)
			vtime = vtime - octx->vclock + cctx->vclock;
		tctx->vtime_cpu = cpu;
	}
	if (vtime_before(vtime, cctx->vclock - slice_ns))
		vtime = cctx->vclock - slice_ns;
	return vtime;
}

/* Charge the running @p for the time since it started or was last charged. */
static void charge(struct task_struct *p, struct task_ctx *tctx)
{
	u64 now = bpf_ktime_get_ns();

	p->scx.dsq_vtime += (now - tctx->started) * 100 / p->scx.weight;
	tctx->started = now;
}

/* The vtime of the first task waiting on @cpu's DSQ, false if none. */
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
 * @prev used up its slice on @cpu and is still runnable: charge it and let it
 * go on if it is still ahead of every task waiting there.
 */
static bool keep_prev(struct task_struct *prev, s32 cpu)
{
	struct task_ctx *tctx = lookup_task_ctx(prev);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);
	u64 head;

	if (!tctx || !cctx)
		return false;
	charge(prev, tctx);
	if (vtime_before(cctx->vclock, prev->scx.dsq_vtime))
		cctx->vclock = prev->scx.dsq_vtime;
	if (dsq_head_vtime(cpu, &head) && !vtime_before(prev->scx.dsq_vtime, head))
		return false;
	prev->scx.slice = slice_ns;
	return true;
}

s32 BPF_STRUCT_OPS(push_select_cpu, struct task_struct *p, s32 prev_cpu,
		   u64 wake_flags)
{
	s32 cpu = prev_cpu;

	if (!bpf_cpumask_test_cpu(prev_cpu, p->cpus_ptr) ||
	    !scx_bpf_test_and_clear_cpu_idle(prev_cpu))
		cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if (cpu < 0)
		return prev_cpu;

	dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
	return cpu;
}

void BPF_STRUCT_OPS(push_enqueue, struct task_struct *p, u64 enq_flags)
{
	s32 cpu = scx_bpf_task_cpu(p);
	struct task_ctx *tctx;

	if (!(tctx = lookup_task_ctx(p)))
		return;

	if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
		dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, enq_flags);
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}

	dsq_insert_vtime(p, cpu, slice_ns, task_vtime_on(p, tctx, cpu),
			 enq_flags);
}

void BPF_STRUCT_OPS(push_dispatch, s32 cpu, struct task_struct *prev)
{
	bool prev_runnable = prev && (prev->scx.flags & SCX_TASK_QUEUED);
	s32 i;

	if (scx_bpf_dsq_nr_queued(cpu) > 0) {
		if (prev_runnable && keep_prev(prev, cpu))
			return;
		if (dsq_move_to_local(cpu))
			return;
	}
	if (prev_runnable) {
		prev->scx.slice = slice_ns;
		return;
	}

	bpf_for(i, 1, nr_cpus) {
		s32 victim = (cpu + i) % nr_cpus;

		if (scx_bpf_dsq_nr_queued(victim) > 0 && dsq_move_to_local(victim))
			return;
	}
}

void BPF_STRUCT_OPS(push_running, struct task_struct *p)
{
	s32 cpu = scx_bpf_task_cpu(p);
	struct task_ctx *tctx = lookup_task_ctx(p);
	struct cpu_ctx *cctx = lookup_cpu_ctx(cpu);

	if (!tctx || !cctx)
		return;

	p->scx.dsq_vtime = task_vtime_on(p, tctx, cpu);
	/*
	 * The clock only moves forward, as tasks start. Racing updates from
	 * keep_prev() on this CPU are impossible: both run under its rq lock.
	 */
	if (vtime_before(cctx->vclock, p->scx.dsq_vtime))
		cctx->vclock = p->scx.dsq_vtime;
	tctx->started = bpf_ktime_get_ns();
}

void BPF_STRUCT_OPS(push_stopping, struct task_struct *p, bool runnable)
{
	struct task_ctx *tctx = lookup_task_ctx(p);

	if (tctx)
		charge(p, tctx);
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
}

s32 BPF_STRUCT_OPS(push_init_task, struct task_struct *p,
		   struct scx_init_task_args *args)
{
	if (!bpf_task_storage_get(&task_ctxs, p, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE))
		return -ENOMEM;
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(push_init)
{
	s32 cpu, ret;

	bpf_for(cpu, 0, nr_cpus) {
		ret = scx_bpf_create_dsq(cpu, -1);
		if (ret) {
			scx_bpf_error("cannot create the DSQ of CPU %d (%d)", cpu, ret);
			return ret;
		}
	}
	return 0;
}

void BPF_STRUCT_OPS(push_exit, struct scx_exit_info *ei)
{
	UEI_RECORD(uei, ei);
}

SCX_OPS_DEFINE(push_ops,
	       .select_cpu		= (void *)push_select_cpu,
	       .enqueue			= (void *)push_enqueue,
	       .dispatch		= (void *)push_dispatch,
	       .running			= (void *)push_running,
	       .stopping		= (void *)push_stopping,
	       .enable			= (void *)push_enable,
	       .init_task		= (void *)push_init_task,
	       .init			= (void *)push_init,
	       .exit			= (void *)push_exit,
	       .name			= "scx_push");
