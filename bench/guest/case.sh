#!/bin/sh
# One workload case, the command bench.sh has `schedstat record` run, so that
# the record holds the scheduler's counters over exactly this case:
#
#   sh case.sh WORKLOAD CASE RAW
#
# runs run_case (workloads.sh): the tool's output goes to RAW, the metrics
# to stdout, the exit status is the case's. The sizes (SIZE_*) come from
# bench.sh through the environment.

cd "$(dirname "$0")" || exit 2
. ./sched.sh
. ./workloads.sh

run_case "$@"
