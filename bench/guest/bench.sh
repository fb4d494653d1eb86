#!/bin/sh
# Guest side of `make bench`: every configuration runs every workload, REPS
# times, interleaved (A B C ... A B C ...) in one boot, so that ratios compare
# runs of the same guest under the same host load.
#
# A configuration is loaded once per repetition, runs all workload cases with
# SETTLE_S seconds of rest before each, and is unloaded. Each case runs under
# `schedstat record` (bench/schedstat.c; case.sh is the command), which
# snapshots /proc/schedstat and, under scx_push, its --stats-json counters
# before and after it and keeps the deltas and the case's run time in one
# record, so the host can report load-balance and pull/push counts per case
# (summarize.py reads the records with `schedstat report --kv`). The
# work-conservation monitor (monitor.sh) runs through the whole boot; its
# totals are copied before and after each case. A case whose
# tool fails, or during which the BPF scheduler went away, becomes a line of
# errors.csv instead of a sample. Before the repetitions, the rt_stall
# selftest (its own minimal scheduler, no other one loaded) runs once. The
# size (quick or full) sets the workloads' sizes and the default
# configurations and workloads (set_sizes).
#
# Output in /out (vm/run --out brings it to the host):
#   meta.txt      guest facts: kernel, CPUs, topology, sizes
#   samples.csv   rep,config,workload,case,metric,value
#   errors.csv    rep,config,workload,case,reason
#   raw/          each case's tool output, each scheduler's log
#   snap/         REP.CONFIG.WORKLOAD.CASE.data, each case's schedstat record,
#                 and .pre.wc, .post.wc, the monitor's totals around it

cd "$(dirname "$0")" || exit 2
. ./sched.sh
. ./workloads.sh
. ./monitor.sh

OUT=${OUT:-/out}
REPS=${REPS:-10}
SIZE=${SIZE:-full}
SETTLE_S=${SETTLE_S:-1}
CONFIGS=${CONFIGS:-}
WORKLOADS=${WORKLOADS:-}

usage() {
	cat <<EOF
usage: bench.sh [-r REPS] [-s quick|full] [-c 'CONFIG...'] [-w 'WORKLOAD...']

  -r REPS      repetitions of every configuration (default $REPS)
  -s SIZE      workload sizes: quick or full (default $SIZE)
  -c CONFIGS   configurations (default: the size's, see set_sizes) of:
               $ALL_CONFIGS
  -w WORKLOADS workloads (default: the size's) of: $ALL_WORKLOADS
Environment: OUT (default /out), SETTLE_S (default $SETTLE_S).
EOF
}

# Sizes and defaults. A case takes ~0.5-10 s of guest time under TCG. hackbench
# over sockets (workload hackbench-socket) is slower than over pipes here and
# erratic under every scheduler: the same case took 1.5 s or 68 s within one
# boot (20 loops, 4 groups of threads, EEVDF), and at 10 loops 4 and 8 groups
# took 2-54 s or ran over 60 s (EEVDF and scx_push alike), hence few loops,
# groups 1 and 2 only, and a time limit (a run over it is an error, not a
# sample).
#
# The full bench, 10 repetitions of its 8 default configurations on its 3
# default workloads, must fit in 55 min under TCG. Estimate from the full
# run 20261203-133443 (in git history; 4e4ec15 dropped it from bench/results/)
# (case times from the /proc/schedstat timestamps of its snapshots, which
# the records' run times replace: counter case_s of counters.csv; the part
# beyond a fixed start-up, 0.4 s for hackbench and oversub, 2.6 s for
# cyclictest, scaled to the sizes below), per repetition:
#   cases: eevdf 15 s + simple 29 s + 6 scx_push configurations x 22 s
#     (8 hackbench pipe cases 12 s, cyclictest 7.4 s, oversub 2.2 s)    176 s
#   settle and snapshots between cases: 72 x 1.06 s                      76 s
#   switches: 6 scx_push loads x 11.5 s (a 10 s verification, the unload
#     before it, the settle; 5 s were measured with the scx_push of then,
#     which was smaller) + 2 x 1.5 s                                     72 s
#   = 324 s; x 10 repetitions + 30 s of boot and selftest = 3270 s = 54.5 min
#   (48 min with the 5 s switches measured, 58.5 min with 14 s loads).
# The former sizes (hackbench 200 loops, cyclictest 300, oversub 200) gave
# 454 s per repetition, 76 min: the sizes were cut, not the repetitions.
set_sizes() {
	case $1 in
	quick)
		SIZE_HB_MODES="thread-pipe"
		SIZE_HB_GROUPS="1 4"
		SIZE_HB_LOOPS_PIPE=100
		SIZE_HB_SOCKET_MODES="proc-socket"
		SIZE_HB_SOCKET_GROUPS="1 4"
		SIZE_HB_LOOPS_SOCKET=5
		SIZE_HB_LIMIT_S=40
		SIZE_CT_LOOPS=150
		SIZE_PIPE_LOOPS=10000
		SIZE_OVERSUB_MITERS=60
		SIZE_RT_S=3
		DEFAULT_CONFIGS="eevdf push push-nobusy push-nosync push-noaffine push-nopreempt"
		DEFAULT_WORKLOADS=$ALL_WORKLOADS
		;;
	full)
		SIZE_HB_MODES="proc-pipe thread-pipe"
		SIZE_HB_GROUPS="1 2 4 8"
		SIZE_HB_LOOPS_PIPE=90
		SIZE_HB_SOCKET_MODES="proc-socket thread-socket"
		SIZE_HB_SOCKET_GROUPS="1 2"
		SIZE_HB_LOOPS_SOCKET=5
		SIZE_HB_LIMIT_S=30
		SIZE_CT_LOOPS=200
		SIZE_PIPE_LOOPS=20000
		SIZE_OVERSUB_MITERS=80
		SIZE_RT_S=3
		DEFAULT_CONFIGS="eevdf push simple push-nobusy push-noaffine push-nopreempt \
push-nogate"
		DEFAULT_WORKLOADS="hackbench cyclictest oversub"
		;;
	*) return 1 ;;
	esac
	SIZE_CT_INTERVAL_US=10000
}

parse_args() {
	while getopts "r:s:c:w:h" opt; do
		case $opt in
		r) REPS=$OPTARG ;;
		s) SIZE=$OPTARG ;;
		c) CONFIGS=$OPTARG ;;
		w) WORKLOADS=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	case $REPS in '' | *[!0-9]* | 0) echo "bench: -r wants a positive integer" >&2; exit 2 ;; esac
	set_sizes "$SIZE" || { echo "bench: unknown size '$SIZE'" >&2; exit 2; }
	# case.sh, a process of its own, reads them from the environment.
	# shellcheck disable=SC2046 # one name per word
	export $(set | sed -n 's/^\(SIZE_[A-Z0-9_]*\)=.*/\1/p')
	CONFIGS=${CONFIGS:-$DEFAULT_CONFIGS}
	WORKLOADS=${WORKLOADS:-$DEFAULT_WORKLOADS}
	for c in $CONFIGS; do
		config_args "$c" >/dev/null || { echo "bench: unknown configuration '$c'" >&2; exit 2; }
	done
	for w in $WORKLOADS; do
		case " $ALL_WORKLOADS " in *" $w "*) ;; *) echo "bench: unknown workload '$w'" >&2; exit 2 ;; esac
	done
}

# Counters for the host's report: schedstats (load_balance() counts per
# domain, schedule() calls) and the sched domain names in debugfs (verbose).
# Both stay on for every configuration; their cost falls mostly on CFS.
enable_counters() {
	echo 1 >/proc/sys/kernel/sched_schedstats || echo "bench: cannot enable schedstats"
	echo Y >/sys/kernel/debug/sched/verbose 2>/dev/null
}

write_meta() {
	local c d
	{
		echo "kernel $(uname -r) $(uname -v)"
		echo "cpus $(nproc)"
		for c in $(cpus_online); do echo "cpu$c node $(cpu_node "$c") llc $(cpu_llc "$c")"; done
		for d in /sys/kernel/debug/sched/domains/cpu0/domain*; do
			[ -e "$d/name" ] && echo "sched_domain ${d##*/} $(cat "$d/name")"
		done
		echo "ext_server $([ -d "$EXT_SERVER" ] && echo yes || echo no)"
		echo "wcmon $([ -n "$WCMON_PID" ] && echo yes || echo no)"
		echo "schedstats $(cat /proc/sys/kernel/sched_schedstats)"
		echo "reps $REPS"
		echo "size $SIZE"
		for c in $CONFIGS; do echo "config $c $(config_args "$c")"; done
		echo "workloads $WORKLOADS"
		set | grep '^SIZE_' | tr -d "'"
		echo "settle_s $SETTLE_S"
	} >"$OUT/meta.txt"
}

# error REP CONFIG WORKLOAD CASE REASON
error() {
	echo "$1,$2,$3,$4,$(echo "$5" | tr ',\n' ';;')" >>"$OUT/errors.csv"
	echo "bench: $1 $2 $3 $4: ERROR $5"
}

# run_one REP CONFIG WORKLOAD CASE: one measurement, recorded by schedstat;
# fails when the configuration's scheduler is gone (the rest of its run
# would be CFS).
run_one() {
	local tag="$1.$2.$3.$4" metrics=/tmp/metrics why=/tmp/record.err raw rec rc
	raw=$OUT/raw/$tag.txt
	rec=$OUT/snap/$tag.data
	sleep "$SETTLE_S"
	wcmon_snapshot "$OUT/snap/$tag.pre.wc" || echo "bench: $1 $2 $3 $4: no monitor totals"
	# shellcheck disable=SC2046 # record_args prints options as words
	schedstat record -o "$rec" $(record_args "$2") -- sh ./case.sh "$3" "$4" "$raw" \
		>"$metrics" 2>"$why"
	rc=$?
	wcmon_snapshot "$OUT/snap/$tag.post.wc" || echo "bench: $1 $2 $3 $4: no monitor totals"
	if ! sched_alive; then
		error "$1" "$2" "$3" "$4" "the scheduler exited during the case: $(tail -n 5 "$SCHED_LOG")"
		return 1
	fi
	# Without a record, rc is schedstat's own failure (exit status 1),
	# before the case (no metrics) or after it: the case's metrics are
	# printed only when it succeeded, then the sample stays, without its
	# counters.
	if [ ! -s "$rec" ]; then
		echo "bench: $1 $2 $3 $4: no counters: $(tail -n 1 "$why")"
		[ ! -s "$metrics" ] || rc=0
	fi
	if [ "$rc" -ne 0 ] || [ ! -s "$metrics" ]; then
		error "$1" "$2" "$3" "$4" "$3 failed: $(cat "$raw" "$why" 2>/dev/null | tail -n 3)"
		return 0
	fi
	sed "s/^\([^ ]*\) \(.*\)$/$1,$2,$3,$4,\1,\2/" "$metrics" >>"$OUT/samples.csv"
	echo "bench: $1 $2 $3 $4: $(tr '\n' ' ' <"$metrics")"
}

# run_config REP CONFIG: load the configuration, run every case, unload.
run_config() {
	local why=/tmp/why w c
	if ! sched_start "$2" >"$why"; then
		error "$1" "$2" - - "loading failed: $(cat "$why")"
		cp "$SCHED_LOG" "$OUT/raw/$1.$2.sched.log" 2>/dev/null
		return 0
	fi
	for w in $WORKLOADS; do
		for c in $(workload_cases "$w" "$2"); do
			run_one "$1" "$2" "$w" "$c" || break 2
		done
	done
	sched_stop >"$why" || error "$1" "$2" - - "unloading failed: $(cat "$why")"
	[ -z "$(config_args "$2")" ] || cp "$SCHED_LOG" "$OUT/raw/$1.$2.sched.log"
}

# The rt_stall selftest with its own minimal scheduler, once.
run_selftest() {
	local raw="$OUT/raw/0.selftest.rt_stall.txt" phase
	command -v scx_selftests >/dev/null ||
		{ error 0 selftest rt_stall - "scx_selftests is not in the initramfs"; return; }
	[ -d "$EXT_SERVER" ] ||
		{ error 0 selftest rt_stall - "kernel without the ext server"; return; }
	scx_selftests -q -t rt_stall >"$raw" 2>&1
	# "rt_stall: phase N CLASS share X% ..." -> a sample of case phaseN-CLASS
	phase='^rt_stall: phase \([0-9]*\) \([A-Z]*\) share \([0-9.]*\)%.*'
	sed -n "s/$phase/0,selftest,rt_stall,phase\\1-\\2,share_pct,\\3/p" "$raw" >>"$OUT/samples.csv"
	grep -q '^rt_stall: phase' "$raw" ||
		error 0 selftest rt_stall - "no phase lines: $(tail -n 3 "$raw")"
	grep '^rt_stall: phase' "$raw" | sed 's/^/bench: /'
}

main() {
	local rep c
	parse_args "$@"
	mkdir -p "$OUT/raw" "$OUT/snap"
	echo "rep,config,workload,case,metric,value" >"$OUT/samples.csv"
	echo "rep,config,workload,case,reason" >"$OUT/errors.csv"
	enable_counters
	wcmon_start >/tmp/why || echo "bench: no work-conservation monitor: $(cat /tmp/why)"
	write_meta
	echo "bench: $REPS repetition(s) of: $CONFIGS; size $SIZE"
	run_selftest
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		for c in $CONFIGS; do run_config "$rep" "$c"; done
		rep=$((rep + 1))
	done
	wcmon_stop
	echo "bench: $(($(wc -l <"$OUT/samples.csv") - 1)) samples," \
		"$(($(wc -l <"$OUT/errors.csv") - 1)) errors"
}

main "$@"
