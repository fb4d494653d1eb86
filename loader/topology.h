/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_push loader: the CPU -> LLC -> NUMA node topology and the CPU
 * capacities, read from sysfs.
 *
 * LLCs are numbered node by node, so the LLCs of node n are
 * node_first_llc[n] .. node_first_llc[n] + node_nr_llcs[n] - 1, and the CPUs
 * of LLC l are llc_cpus[llc_first[l]] .. llc_cpus[llc_first[l] + llc_nr[l] - 1],
 * in ascending order. An LLC never spans two nodes.
 *
 * Every CPU has a capacity, 1024 unless sysfs or --capacity say otherwise,
 * and a level: the rank of its capacity among the distinct capacities of the
 * online CPUs, level_capacity[] in ascending order (capacity.c says how
 * offline CPUs are ranked).
 */
#ifndef __SCX_PUSH_TOPOLOGY_H
#define __SCX_PUSH_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpulist.h"
#include "scx_push.h"

struct topology {
	int	nr_cpu_ids;			/* highest possible CPU + 1 */
	int	nr_online;
	int	nr_llcs;
	int	nr_nodes;			/* nodes with online CPUs */
	bool	smt;				/* SMT siblings are active */
	bool	possible[SCX_PUSH_MAX_CPUS];
	bool	online[SCX_PUSH_MAX_CPUS];
	int	cpu_llc[SCX_PUSH_MAX_CPUS];	/* -1 unless online */
	int	cpu_pos[SCX_PUSH_MAX_CPUS];	/* index within its LLC */
	int	llc_cpus[SCX_PUSH_MAX_CPUS];
	int	llc_first[SCX_PUSH_MAX_LLCS];
	int	llc_nr[SCX_PUSH_MAX_LLCS];
	int	llc_node[SCX_PUSH_MAX_LLCS];	/* index into node_*[] */
	int	node_id[SCX_PUSH_MAX_NODES];	/* the N of sysfs nodeN */
	int	node_first_llc[SCX_PUSH_MAX_NODES];
	int	node_nr_llcs[SCX_PUSH_MAX_NODES];
	int	nr_cap_levels;			/* distinct capacities of online CPUs */
	int	capacity[SCX_PUSH_MAX_CPUS];	/* 1..SCX_PUSH_CAPACITY_MAX */
	int	cap_level[SCX_PUSH_MAX_CPUS];	/* index into level_capacity[] */
	int	level_capacity[SCX_PUSH_MAX_CAP_LEVELS];	/* ascending */
	char	notes[1024];			/* what sysfs lacked, one per line */
};

/*
 * Read the topology under @root (normally "/sys"). Returns 0, or -1 with a
 * message in @err when no usable topology can be built.
 */
int topology_read(struct topology *t, const char *root, char *err, size_t err_len);
void topology_print(const struct topology *t, FILE *f);

#endif /* __SCX_PUSH_TOPOLOGY_H */
