# Taking a CPU offline stops both of its deadline servers
# (sched_cpu_dying()), active or not, and must leave the CPU's running_bw
# (the bandwidth of its active -deadline entities, printed in sched/debug)
# right: a server that is not active must not be stopped a second time,
# which would subtract its bandwidth from running_bw again (or hit
# WARN_ON(dl_non_contending) if it stopped less than its 0-lag time ago).
#
# Two cases, each followed by a check: (1) CPUs whose ext server never
# started (no BPF scheduler), (2) a CPU whose ext server just stopped: a
# SCX task ran on it next to a SCHED_FIFO hog, so the server ran, and the
# CPU goes offline right after. The check: once the CPU is back and a CFS
# task runs on it, its fair server is active, so running_bw holds at least
# its bandwidth; running_bw never exceeds this_bw; the kernel logged nothing.
. ./lib.sh
. ./scx_push.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
grep -q '^ *\.running_bw ' "$SCHED_DEBUG" || skip "no running_bw in $SCHED_DEBUG"
CPU_SYSFS=/sys/devices/system/cpu
# to_ratio(1 s, 50 ms): the bandwidth of one server at its boot parameters
SERVER_BW=52428

cycle() {
	echo 0 >"$CPU_SYSFS/cpu$1/online" || fail "cannot offline CPU $1"
	echo 1 >"$CPU_SYSFS/cpu$1/online" || fail "cannot online CPU $1"
}

# check CPU WHAT: with a CFS task running on CPU, running_bw >= the fair
# server's bandwidth and <= this_bw; the first miss goes to BAD, so that
# every case runs.
check() {
	local pid run this
	burn -c "$1" -t 3 >/dev/null &
	pid=$!
	sleep 1
	run=$(dl_rq_field "$1" running_bw)
	this=$(dl_rq_field "$1" this_bw)
	wait "$pid"
	info "CPU $1 $2: running_bw=$run this_bw=$this (a CFS task running)"
	if [ "$run" -lt "$SERVER_BW" ]; then
		BAD="${BAD:-CPU $1 $2: running_bw $run with its fair server active, want >= $SERVER_BW}"
		info "  ^ running_bw below the fair server's $SERVER_BW"
	fi
	[ "$run" -le "$this" ] || BAD="${BAD:-CPU $1 $2: running_bw $run above this_bw $this}"
}

dmesg_mark
for cpu in 1 2 3 4 5 6 7; do
	info "CPU $cpu before: running_bw=$(dl_rq_field "$cpu" running_bw) this_bw=$(dl_rq_field "$cpu" this_bw)"
done

# (1) ext servers that never started
for cpu in 2 3; do
	cycle "$cpu"
	check "$cpu" "after an offline with its ext server never started"
done
# twice in a row: the fair server is stopped by the first offline already
cycle 3
cycle 3
check 3 "after two offlines in a row"

# (2) an ext server stopped less than its 0-lag time before the offline.
# With the SCX task starved by the hog for a period, the server runs at
# each replenishment; a stop c ms into such a run leaves it non-contending
# for c * (period / runtime - 1) ms. Runtime 200 ms makes the runs long
# enough to catch one: the task is killed once it ran into its second
# run, and the CPU goes offline right away.
echo 200000000 >"$EXT_SERVER/cpu5/runtime" || fail "cannot set the CPU 5 ext server runtime"
trap 'echo "$EXT_RUNTIME_NS" >"$EXT_SERVER/cpu5/runtime"; scx_push_kill' EXIT
scx_push_start --partial
trap 'echo "$EXT_RUNTIME_NS" >"$EXT_SERVER/cpu5/runtime"; scx_push_kill' EXIT
burn -f 50 -c 5 -t 10 >/dev/null 2>&1 &
hog=$!
sleep 0.2
burn -x -c 5 -t 10 >/dev/null 2>&1 &
low=$!
ms=0
for i in $(seq 200); do
	ms=$(sum_exec_ms "$low")
	[ "${ms:-0}" -le 210 ] || break
	sleep 0.02
done
kill -KILL "$low"
cycle 5
wait "$low" 2>/dev/null
info "SCX task on CPU 5 killed after $ms ms of CPU next to the FIFO hog, CPU 5 cycled at once"
kill "$hog"
wait "$hog" 2>/dev/null
# sched_ext ejects a scheduler without CPU hotplug callbacks when a CPU goes
# offline, and scx_push's restart may race with the CPU coming back: only
# make sure that it is gone.
scx_push_kill
wait_for_state disabled 10 || fail "sched_ext is '$(scx_state)' after scx_push was killed"
echo "$EXT_RUNTIME_NS" >"$EXT_SERVER/cpu5/runtime" || fail "cannot restore the CPU 5 ext server runtime"
trap - EXIT
[ "${ms:-0}" -gt 210 ] || fail "the SCX task next to the FIFO hog got only ${ms:-no} ms in 4 s"
check 5 "after an offline right after its ext server ran"

[ -z "${BAD:-}" ] || fail "$BAD"
sleep 2
# not expect_clean_dmesg: the hotplug ejection of scx_push logs an error
warnings=$(dmesg_new | kernel_warnings)
[ -z "$warnings" ] || { echo "$warnings"; fail "kernel log: $(echo "$warnings" | head -n 1)"; }
