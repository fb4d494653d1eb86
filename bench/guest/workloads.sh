# Benchmark workloads (busybox sh, sourced by bench.sh).
#
# A workload has cases (workload_cases NAME lists them); run_case NAME CASE
# RAW runs one, keeps the tool's output in RAW and prints its metrics as
# "METRIC VALUE" lines, every one lower-is-better except share_pct. Sizes come
# from the SIZE_* settings of bench.sh; a case must take ~0.5-20 s under TCG.
#
#   hackbench   rt-tests hackbench over pipes, processes/threads x groups:
#               time_s for a fixed loop count.
#   hackbench-socket  the same over sockets (its own loop count).
#   cyclictest  one SCHED_OTHER measuring thread per CPU (-S) while a
#               background hackbench over pipes keeps every CPU busy:
#               p50/p99/max wakeup latency in us. Per-sample output (-v), not
#               a histogram: under TCG latencies reach tens of ms, beyond a
#               practical -h range. Not over sockets: their skb allocations
#               contend on SLUB's node list lock with interrupts off, which
#               under TCG slows the whole guest for seconds at a time
#               (docs/RESULTS.md), under any scheduler.
#   pipe        perf bench sched pipe: usec_per_op of a ping-pong.
#   oversub     2 x nCPU CPU-bound tasks of fixed work, mixed affinity
#               (oversub_cpus): makespan_ms and spread_ms of their completions,
#               and makespan_norm, the makespan over the tasks' CPU time
#               spread over all CPUs (1.00: every CPU busy until all finish
#               together), which divides out how fast the host ran the vCPUs.
#   rt          a busy task of the class under test and a SCHED_FIFO hog, both
#               pinned to the last CPU: share_pct of the CPU the busy task got
#               (the deadline servers' 50 ms/1 s, i.e. ~5%). "server-off" sets
#               the ext server's runtime to 0 first (control; scx_push only).

# EXT_SERVER, EXT_RUNTIME_NS, set_ext_runtime and wait_until come from
# tests/guest/lib.sh (sourced by sched.sh).

ALL_WORKLOADS="hackbench hackbench-socket pipe cyclictest oversub rt"

# workload_cases NAME CONFIG: the cases of a workload, one per line.
workload_cases() {
	case $1 in
	hackbench) hackbench_cases "$SIZE_HB_MODES" "$SIZE_HB_GROUPS" ;;
	hackbench-socket) hackbench_cases "$SIZE_HB_SOCKET_MODES" "$SIZE_HB_SOCKET_GROUPS" ;;
	cyclictest) echo "hackbench-pipe-g1f4" ;;
	pipe) echo "proc" ;;
	oversub) echo "2xcpus" ;;
	rt)
		echo "server"
		# The control needs the ext server and a scheduler that uses it.
		if [ "$2" = push ] && [ -d "$EXT_SERVER" ]; then echo "server-off"; fi
		;;
	esac
}

# hackbench_cases 'MODE...' 'GROUPS...': MODE-gGROUPS for each pair.
hackbench_cases() {
	local mode g
	for mode in $1; do
		for g in $2; do echo "$mode-g$g"; done
	done
}

# run_case NAME CASE RAW
run_case() {
	case $1 in
	hackbench | hackbench-socket) run_hackbench "$2" "$3" ;;
	cyclictest) run_cyclictest "$3" ;;
	pipe) run_pipe "$3" ;;
	oversub) run_oversub "$3" ;;
	rt) run_rt "$2" "$3" ;;
	esac
}

# hackbench CASE = {proc,thread}-{pipe,socket}-gN
run_hackbench() {
	local flags="" groups=${1##*-g} loops=$SIZE_HB_LOOPS_SOCKET
	case $1 in thread-*) flags="-T" ;; esac
	case $1 in *-pipe-*) flags="$flags -p"; loops=$SIZE_HB_LOOPS_PIPE ;; esac
	# shellcheck disable=SC2086 # flags are words
	limited "$SIZE_HB_LIMIT_S" hackbench $flags -g "$groups" -l "$loops" >"$2" 2>&1 ||
		{ echo "hackbench failed or ran over ${SIZE_HB_LIMIT_S}s" >>"$2"; return 1; }
	sed -n 's/^Time: \([0-9.]*\)$/time_s \1/p' "$2"
}

# limited SECS CMD...: run CMD in a process group of its own and kill the
# group if it runs longer than SECS.
limited() {
	local secs=$1 pid watchdog rc
	shift
	setsid "$@" &
	pid=$!
	(sleep "$secs" && kill -KILL -- "-$pid" 2>/dev/null) &
	watchdog=$!
	wait "$pid"
	rc=$?
	kill "$watchdog" 2>/dev/null
	return "$rc"
}

# The background load of the latency test: 1 group of 4 senders and 4
# receivers over pipes (8 tasks, one per CPU of the default guest), in its
# own process group so that all of it can be stopped.
load_start() {
	setsid hackbench -p -g 1 -f 4 -l 100000000 >/dev/null 2>&1 &
	LOAD_PID=$!
	sleep 1
}

load_stop() {
	kill -TERM -- "-$LOAD_PID" 2>/dev/null
	wait "$LOAD_PID" 2>/dev/null
	return 0
}

# Percentiles of the "thread: cycle: latency" lines of cyclictest -v.
latency_metrics() {
	awk -F: 'NF == 3 && $1 ~ /^ *[0-9]+$/ && $3 ~ /^ *[0-9]+$/ { print $3 + 0 }' "$1" |
		sort -n | awk '
		{ v[NR] = $1 }
		function pct(p,  i) { i = int(NR * p + 0.999999); return v[i < 1 ? 1 : i] }
		END {
			if (NR == 0) exit 1
			print "p50_us", pct(0.50)
			print "p99_us", pct(0.99)
			print "max_us", v[NR]
		}'
}

run_cyclictest() {
	local rc
	load_start
	cyclictest -S -m -p 0 --policy=other -i "$SIZE_CT_INTERVAL_US" \
		-l "$SIZE_CT_LOOPS" -v >"$1" 2>&1
	rc=$?
	load_stop
	[ "$rc" -eq 0 ] || return 1
	latency_metrics "$1"
}

run_pipe() {
	perf bench sched pipe -l "$SIZE_PIPE_LOOPS" >"$1" 2>&1 || return 1
	sed -n 's/^ *\([0-9.]*\) usecs\/op$/usec_per_op \1/p' "$1"
}

# cpu_node CPU / cpu_llc CPU: the CPU lists of its NUMA node and its LLC (the
# node when the guest reports no L3).
cpu_node() {
	local n
	for n in /sys/devices/system/cpu/cpu"$1"/node*; do
		[ -e "$n" ] && { cat "/sys/devices/system/node/${n##*/}/cpulist"; return; }
	done
	cat /sys/devices/system/cpu/online
}

cpu_llc() {
	cat "/sys/devices/system/cpu/cpu$1/cache/index3/shared_cpu_list" 2>/dev/null ||
		cpu_node "$1"
}

# Two tasks per CPU c. The first is pinned to c if c is on the first node,
# else to c's LLC; the second is bound to c's node for even c, free for odd
# c. On 2 nodes x 2 LLCs x 2 CPUs: 4 tasks pinned to CPUs 0-3, 2 per LLC of
# node 1, 2 per node, 4 free: every CPU can get exactly 2 tasks' work, but
# only if the free tasks spread evenly over both nodes.
oversub_cpus() {
	local c first_node
	first_node=$(cpu_node 0)
	for c in $(cpus_online); do
		if [ "$(cpu_node "$c")" = "$first_node" ]; then echo "$c"; else cpu_llc "$c"; fi
		if [ $((c % 2)) -eq 0 ]; then cpu_node "$c"; else echo all; fi
	done
}

run_oversub() {
	# shellcheck disable=SC2046 # one argument per task
	oversub -w "$SIZE_OVERSUB_MITERS" $(oversub_cpus) >"$1" 2>&1 || return 1
	awk '/^oversub / { for (i = 2; i <= NF; i++) { split($i, kv, "=")
		if (kv[1] == "makespan_ms" || kv[1] == "makespan_norm" || kv[1] == "spread_ms")
			print kv[1], kv[2] } }' "$1"
}

# rt CASE RAW: the busy task's share of a CPU held by a SCHED_FIFO hog. The
# busy task starts first; once the hog runs as SCHED_FIFO, its run time
# (/proc/PID/schedstat) is read over SIZE_RT_S seconds. (Its own cpu_ms would
# not do: a starved task would not even start its clock.)
run_rt() {
	local cpu busy hog t0 t1 u0 u1 rc=0
	cpu=$(cpus_online | tail -n 1)
	if [ "$1" = server-off ]; then set_ext_runtime 0 || return 1; fi
	burn -t $((SIZE_RT_S + 4)) -c "$cpu" >"$2" 2>&1 &
	busy=$!
	sleep 0.5
	burn -t $((SIZE_RT_S + 2)) -c "$cpu" -f 50 >"$2.hog" 2>&1 &
	hog=$!
	wait_until 10 is_fifo "$hog" || rc=1
	u0=$(uptime_s)
	t0=$(run_ns "$busy")
	sleep "$SIZE_RT_S"
	t1=$(run_ns "$busy")
	u1=$(uptime_s)
	wait "$hog" || rc=1
	wait "$busy" || rc=1
	cat "$2.hog" >>"$2"
	rm -f "$2.hog"
	echo "busy task ran $t0 -> $t1 ns during uptime $u0 -> $u1 s" >>"$2"
	if [ "$1" = server-off ]; then set_ext_runtime "$EXT_RUNTIME_NS" || rc=1; fi
	[ "$rc" -eq 0 ] && [ -n "$t0" ] && [ -n "$t1" ] || return 1
	awk -v t0="$t0" -v t1="$t1" -v u0="$u0" -v u1="$u1" \
		'BEGIN { printf "share_pct %.2f\n", (t1 - t0) / 1e7 / (u1 - u0) }'
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# run_ns PID: the task's total run time (first field of /proc/PID/schedstat).
run_ns() { cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null; }

# is_fifo PID: the task's policy (field 41 of /proc/PID/stat) is SCHED_FIFO.
is_fifo() { [ "$(cut -d' ' -f41 "/proc/$1/stat" 2>/dev/null)" = 1 ]; }

# cpus_online: the online CPUs, one per line.
cpus_online() {
	tr ',' '\n' </sys/devices/system/cpu/online | while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done
}
