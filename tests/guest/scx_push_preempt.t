# Wakeup preemption: a periodic SCHED_OTHER task (cyclictest, 10 ms period)
# shares CPU 3 with a busy task. Its wakeups are far behind the busy task in
# vtime, so they preempt it: its median wakeup latency stays well below the
# slice. With --no-preempt (control) it waits for the busy task's slice to
# end, on average half of a slice; both runs use 20 ms slices (-s 20000),
# well above the 1 ms minimum a preempted task keeps.
# The preempt timer: with wakeups every 700 us (default 3 ms slices) the busy
# task is back on the CPU for less than that minimum when the next one comes;
# --preempt-timer ends its run when the minimum is over, the default at the
# next tick (4 ms at HZ=250): the default's median latency is at least twice
# the timer's.
. ./lib.sh
. ./scx_push.sh

# latency INTERVAL_US OPTION...: cyclictest's median latency (us), waking every
# INTERVAL_US next to a busy task on CPU 3, under scx_push OPTION...; its
# output is in /tmp/cyclictest.out.
latency() {
	local interval=$1
	shift
	scx_push_start "$@"
	burn -t 8 -c 3 >/dev/null &
	busy=$!
	sleep 0.5
	cyclictest -m -p 0 --policy=other -a 3 -t 1 -i "$interval" -l 300 -v >/tmp/cyclictest.out 2>&1 ||
		fail "cyclictest failed: $(tail -n 3 /tmp/cyclictest.out)"
	wait "$busy"
	scx_push_stop
	awk -F: 'NF == 3 && $1 ~ /^ *[0-9]+$/ && $3 ~ /^ *[0-9]+$/ { print $3 + 0 }' /tmp/cyclictest.out |
		sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print -1 }'
}

control=$(latency 10000 --no-preempt -s 20000)
info "control (--no-preempt): median wakeup latency $control us"
[ "$control" -ge 5000 ] || fail "--no-preempt: median latency $control us, want >= 5000 us (half a slice); the test shows nothing"

p50=$(latency 10000 -s 20000)
preempts=$(( $(scx_push_stat preempt) + $(scx_push_stat preempt_tick) ))
info "preemption: median wakeup latency $p50 us, $preempts preemptions"
[ "$p50" -ge 0 ] && [ "$((p50 * 4))" -le "$control" ] ||
	fail "median latency $p50 us with preemption, not a quarter of $control us without"
[ "$preempts" -gt 0 ] || fail "no wakeup preemption counted"

tick=$(latency 700)
info "wakeups every 700 us, at ticks: median wakeup latency $tick us"
[ "$tick" -ge 2000 ] || fail "at ticks: median latency $tick us, want >= 2000 us (half a tick); the test shows nothing"
timer=$(latency 700 --preempt-timer)
fired=$(scx_push_stat preempt_timer)
info "wakeups every 700 us, --preempt-timer: median wakeup latency $timer us, $fired timer preemptions"
[ "$timer" -ge 0 ] && [ "$((timer * 2))" -le "$tick" ] ||
	fail "median latency $timer us with the preempt timer, not half of $tick us without"
[ "${fired:-0}" -gt 0 ] || fail "no preemption by the timer counted"
