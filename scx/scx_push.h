/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_push: what the BPF scheduler and its loader share. Types, enums and
 * constants only; the design is described at the top of scx_push.bpf.c.
 */
#ifndef __SCX_PUSH_H
#define __SCX_PUSH_H

enum scx_push_limits {
	SCX_PUSH_MAX_CPUS	= 1024,		/* power of two, see cpu_idx() */
	SCX_PUSH_MAX_LLCS	= SCX_PUSH_MAX_CPUS,
	SCX_PUSH_MAX_NODES	= 64,		/* power of two */
	SCX_PUSH_LLC_NONE	= 0xffffffff,	/* cpu_llc[] of an offline CPU */
	SCX_PUSH_CAPACITY_MAX	= 1024,		/* SCHED_CAPACITY_SCALE */
	SCX_PUSH_MAX_CAP_LEVELS	= 8,		/* distinct CPU capacities */
};

/* -P: how far ops.dispatch() looks for a task to pull */
enum scx_push_scope {
	SCX_PUSH_SCOPE_LLC,
	SCX_PUSH_SCOPE_NODE,
	SCX_PUSH_SCOPE_ALL,
};

/* --scan: how a pull finds busy CPUs */
enum scx_push_scan {
	SCX_PUSH_SCAN_MASK,	/* the per-LLC overloaded masks */
	SCX_PUSH_SCAN_FULL,	/* every CPU's queue, for comparison */
};

/*
 * Statistics, one per-CPU counter each: X(ID, name, group, description).
 * BPF indexes them with STAT_<ID>; the loader prints <name> in <group> and
 * uses <name> as the JSON key.
 */
#define SCX_PUSH_STAT_GROUPS(X)							\
	X(QUEUE,	"queue")						\
	X(WAKE,		"wake")							\
	X(PUSH,		"push")							\
	X(BUSY,		"busy")							\
	X(PULL,		"pull")							\
	X(MASK,		"mask")							\
	X(RELEASE,	"release")						\
	X(MISFIT,	"misfit")

#define SCX_PUSH_STATS(X)							\
	X(ENQ,		enq,		QUEUE,	"ops.enqueue() calls")		\
	X(IDLE_DSP,	idle_dsp,	QUEUE,	"wakeups sent to an idle CPU by ops.select_cpu()") \
	X(DIRECT_DSP,	direct_dsp,	QUEUE,	"enqueues dispatched to their own idle CPU") \
	X(QUEUED,	queued,		QUEUE,	"tasks queued on a per-CPU pushable DSQ") \
	X(KEEP,		keep,		QUEUE,	"dispatches that kept the previous task running") \
	X(TIMER,	timer,		QUEUE,	"balance timer runs")		\
	X(SYNC_WAKE,	sync_wake,	WAKE,	"sync wakeups placed on or near the waker's CPU") \
	X(WAKE_AFFINE,	wake_affine,	WAKE,	"wakeups queued on the waker's CPU because none was idle") \
	X(PREEMPT,	preempt,	WAKE,	"wakeups that preempted the running task at once") \
	X(PREEMPT_TICK,	preempt_tick,	WAKE,	"wakeups that end a slice once the running task ran the minimum") \
	X(PREEMPT_TIMER, preempt_timer,	WAKE,	"slices ended by the preempt timer, not a tick") \
	X(PUSH_TRY,	push_try,	PUSH,	"push attempts for a task queued behind a running one") \
	X(PUSH_OK,	push_ok,	PUSH,	"tasks pushed to an idle CPU at enqueue") \
	X(PUSH_MOVE,	push_move,	PUSH,	"queued tasks moved to an idle CPU by dispatch or the timer") \
	X(BUSY_LLC,	busy_llc,	BUSY,	"tasks moved between busy CPUs of an LLC") \
	X(BUSY_NODE,	busy_node,	BUSY,	"tasks moved between busy LLCs of a node") \
	X(BUSY_REMOTE,	busy_remote,	BUSY,	"tasks moved between busy nodes") \
	X(BUSY_GROUP,	busy_group,	BUSY,	"busy moves from a busiest LLC or node, not its top giver") \
	X(PULL_LLC_TRY,	pull_llc_try,	PULL,	"pulls that searched the own LLC") \
	X(PULL_LLC,	pull_llc,	PULL,	"tasks pulled from the own LLC") \
	X(PULL_NODE_TRY, pull_node_try,	PULL,	"pulls that searched the other LLCs of the node") \
	X(PULL_NODE,	pull_node,	PULL,	"tasks pulled from another LLC of the node") \
	X(PULL_REMOTE_TRY, pull_remote_try, PULL, "pulls that searched other nodes") \
	X(PULL_REMOTE,	pull_remote,	PULL,	"tasks pulled from another node") \
	X(PULL_SCAN,	pull_scan,	PULL,	"CPUs examined by pulls")	\
	X(PULL_SCAN_OK,	pull_scan_ok,	PULL,	"CPUs examined by pulls that found a task") \
	X(PULL_HOT,	pull_hot,	PULL,	"cache-hot tasks a pull passed over") \
	X(PULL_GATED,	pull_gated,	PULL,	"pulls stopped at a level costlier than the expected idle time") \
	X(PULL_ABORT,	pull_abort,	PULL,	"pulls stopped early because work arrived") \
	X(PULL_KICK,	pull_kick,	PULL,	"idle CPUs kicked to pull")	\
	X(PULL_NS,	pull_ns,	PULL,	"time spent pulling (ns)")	\
	X(MASK_SET,	mask_set,	MASK,	"overloaded bits set")		\
	X(MASK_CLEAR,	mask_clear,	MASK,	"overloaded bits cleared")	\
	X(MASK_STALE,	mask_stale,	MASK,	"peeks at a set bit of an empty DSQ") \
	X(REENQ,	reenq,		RELEASE, "tasks re-enqueued by ops.cpu_release()") \
	X(RESCUE,	rescue,		RELEASE, "tasks moved off a CPU taken by a higher class") \
	X(MISFIT_MARK,	misfit_mark,	MISFIT,	"tasks found too big for their CPU at a tick") \
	X(MISFIT_PUSH,	misfit_push,	MISFIT,	"misfit tasks moved or woken onto an idle CPU of higher capacity") \
	X(MISFIT_PULL,	misfit_pull,	MISFIT,	"CPUs running a misfit task kicked by an idle CPU of higher capacity")

enum scx_push_stat_group {
#define SCX_PUSH_GROUP_ENUM(id, label) SCX_PUSH_GROUP_##id,
	SCX_PUSH_STAT_GROUPS(SCX_PUSH_GROUP_ENUM)
#undef SCX_PUSH_GROUP_ENUM
	SCX_PUSH_NR_GROUPS,
};

enum scx_push_stat {
#define SCX_PUSH_STAT_ENUM(id, name, group, desc) STAT_##id,
	SCX_PUSH_STATS(SCX_PUSH_STAT_ENUM)
#undef SCX_PUSH_STAT_ENUM
	SCX_PUSH_NR_STATS,
};

#endif /* __SCX_PUSH_H */
