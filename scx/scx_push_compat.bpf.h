/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSQ kfuncs under their 6.13+ names where the kernel has them, under their
 * 6.12 names otherwise. Both flavours are weak ksyms: libbpf resolves
 * "name___compat" to the kernel's "name" and leaves a missing one NULL, and
 * bpf_ksym_exists() lets the verifier drop the branch that cannot run.
 */
#ifndef __SCX_PUSH_COMPAT_BPF_H
#define __SCX_PUSH_COMPAT_BPF_H

/* v6.13 names */
void scx_bpf_dsq_insert(struct task_struct *p, u64 dsq_id, u64 slice,
			u64 enq_flags) __ksym __weak;
void scx_bpf_dsq_insert_vtime(struct task_struct *p, u64 dsq_id, u64 slice,
			      u64 vtime, u64 enq_flags) __ksym __weak;
bool scx_bpf_dsq_move_to_local(u64 dsq_id) __ksym __weak;
void scx_bpf_dsq_move_set_vtime(struct bpf_iter_scx_dsq *it__iter,
				u64 vtime) __ksym __weak;
bool scx_bpf_dsq_move(struct bpf_iter_scx_dsq *it__iter, struct task_struct *p,
		      u64 dsq_id, u64 enq_flags) __ksym __weak;
bool scx_bpf_dsq_move_vtime(struct bpf_iter_scx_dsq *it__iter,
			    struct task_struct *p, u64 dsq_id,
			    u64 enq_flags) __ksym __weak;

/* v6.12 names */
void scx_bpf_dispatch___compat(struct task_struct *p, u64 dsq_id, u64 slice,
			       u64 enq_flags) __ksym __weak;
void scx_bpf_dispatch_vtime___compat(struct task_struct *p, u64 dsq_id,
				     u64 slice, u64 vtime,
				     u64 enq_flags) __ksym __weak;
bool scx_bpf_consume___compat(u64 dsq_id) __ksym __weak;
void scx_bpf_dispatch_from_dsq_set_vtime___compat(struct bpf_iter_scx_dsq *it__iter,
						  u64 vtime) __ksym __weak;
bool scx_bpf_dispatch_from_dsq___compat(struct bpf_iter_scx_dsq *it__iter,
					struct task_struct *p, u64 dsq_id,
					u64 enq_flags) __ksym __weak;
bool scx_bpf_dispatch_vtime_from_dsq___compat(struct bpf_iter_scx_dsq *it__iter,
					      struct task_struct *p, u64 dsq_id,
					      u64 enq_flags) __ksym __weak;

#define dsq_insert(p, dsq_id, slice, enq_flags)					\
	(bpf_ksym_exists(scx_bpf_dsq_insert) ?					\
	 scx_bpf_dsq_insert((p), (dsq_id), (slice), (enq_flags)) :		\
	 scx_bpf_dispatch___compat((p), (dsq_id), (slice), (enq_flags)))

#define dsq_insert_vtime(p, dsq_id, slice, vtime, enq_flags)			\
	(bpf_ksym_exists(scx_bpf_dsq_insert_vtime) ?				\
	 scx_bpf_dsq_insert_vtime((p), (dsq_id), (slice), (vtime), (enq_flags)) : \
	 scx_bpf_dispatch_vtime___compat((p), (dsq_id), (slice), (vtime),	\
					 (enq_flags)))

#define dsq_move_to_local(dsq_id)						\
	(bpf_ksym_exists(scx_bpf_dsq_move_to_local) ?				\
	 scx_bpf_dsq_move_to_local((dsq_id)) :					\
	 scx_bpf_consume___compat((dsq_id)))

#define dsq_move_set_vtime(it, vtime)						\
	(bpf_ksym_exists(scx_bpf_dsq_move_set_vtime) ?				\
	 scx_bpf_dsq_move_set_vtime((it), (vtime)) :				\
	 scx_bpf_dispatch_from_dsq_set_vtime___compat((it), (vtime)))

#define dsq_move(it, p, dsq_id, enq_flags)					\
	(bpf_ksym_exists(scx_bpf_dsq_move) ?					\
	 scx_bpf_dsq_move((it), (p), (dsq_id), (enq_flags)) :			\
	 scx_bpf_dispatch_from_dsq___compat((it), (p), (dsq_id), (enq_flags)))

#define dsq_move_vtime(it, p, dsq_id, enq_flags)				\
	(bpf_ksym_exists(scx_bpf_dsq_move_vtime) ?				\
	 scx_bpf_dsq_move_vtime((it), (p), (dsq_id), (enq_flags)) :		\
	 scx_bpf_dispatch_vtime_from_dsq___compat((it), (p), (dsq_id),		\
						   (enq_flags)))

#endif /* __SCX_PUSH_COMPAT_BPF_H */
