// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_count: how many BPF programs, maps and links the kernel holds now.
 *
 *   progs=N maps=N links=N
 *
 * It walks the ids with BPF_{PROG,MAP,LINK}_GET_NEXT_ID (what bpftool's
 * listings do), so it sees every object, also those no process has open.
 * The guest has no bpftool. Needs CAP_SYS_ADMIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helpers.h"

static long count(int cmd, const char *what)
{
	union bpf_attr attr;
	long n = 0;
	__u32 id = 0;

	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (syscall(__NR_bpf, cmd, &attr, sizeof(attr))) {
			if (errno == ENOENT)
				return n;
			die("bpf(%s_GET_NEXT_ID): %s", what, strerror(errno));
		}
		id = attr.next_id;
		n++;
	}
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: bpf_count\n");
		return 2;
	}
	printf("progs=%ld maps=%ld links=%ld\n", count(BPF_PROG_GET_NEXT_ID, "PROG"),
	       count(BPF_MAP_GET_NEXT_ID, "MAP"), count(BPF_LINK_GET_NEXT_ID, "LINK"));
	return 0;
}
