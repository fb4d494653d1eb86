# Benchmark configurations: which scheduler runs, how it is loaded and
# unloaded, and which counters schedstat records around each workload case
# (busybox sh, sourced by bench.sh and case.sh).
#
# A configuration is a name: eevdf (no BPF scheduler: CFS/EEVDF), simple (the
# tree's scx_simple), push (scx_push with its defaults) and the scx_push
# ablations, each with one mechanism off: push-nopush (pushes to idle CPUs),
# push-nopull (pulls by idle CPUs), push-nobusy (moves between busy CPUs),
# push-nogroup (moves from the busiest LLC or node when the most loaded
# CPU has nothing for the taker: --no-busy-group), push-nosync
# (SCX_WAKE_SYNC placement), push-noaffine (wakees of a busy
# machine queued on the waker's CPU: --no-wake-affine), push-nopreempt
# (wakeup preemption), push-nohot (the cache-hot gate of pulls:
# --mig-cost-us 0), push-nogate (the idle-time gate of pulls:
# --no-idle-gate), push-gatekick (pulls the balance timer kicked an idle
# CPU for gated too: --gate-kicked), push-scanfull (the overloaded masks:
# --scan full), push-llc (pulls beyond the LLC: -P llc), push-noqueue
# (wakeups queued on the wakee CPU's wakelist: --no-queued-wakeup);
# push-ptimer (a wakeup that
# waits for the running task's minimum slice preempts when the minimum ends,
# not at the next tick: --preempt-timer); and two former defaults: push-s20
# (-s 20000, the slice before it became 3 ms) and push-scaled (--slice-scale
# --wake-credit-us 1500: slices divided by queue depth and half a slice of
# wake credit, before slices were fixed). scx_push runs with -i 3600 so that
# it prints nothing during a run; schedstat record reads its counters on
# demand with SIGUSR1, which rewrites its --stats-json file.

# The guest tests' helpers: SCX_OPS, scx_state, wait_for_state.
. ../tests/guest/lib.sh

SCHED_LOG=/tmp/sched.log
SCHED_JSON=/tmp/sched.json
SCHED_PID=
LOAD_TIMEOUT_S=${LOAD_TIMEOUT_S:-60}

ALL_CONFIGS="eevdf push simple push-nopush push-nopull push-nobusy push-nogroup push-nosync \
push-noaffine push-nopreempt push-nohot push-nogate push-gatekick push-scanfull push-llc \
push-noqueue push-ptimer push-s20 push-scaled"

# config_args NAME: the scheduler command line of a configuration.
config_args() {
	case $1 in
	eevdf) echo "" ;;
	simple) echo "scx_simple" ;;
	push) echo "scx_push" ;;
	push-nopush) echo "scx_push --no-push" ;;
	push-nopull) echo "scx_push --no-pull" ;;
	push-nobusy) echo "scx_push --no-busy" ;;
	push-nogroup) echo "scx_push --no-busy-group" ;;
	push-nosync) echo "scx_push --no-sync" ;;
	push-noaffine) echo "scx_push --no-wake-affine" ;;
	push-nopreempt) echo "scx_push --no-preempt" ;;
	push-nohot) echo "scx_push --mig-cost-us 0" ;;
	push-nogate) echo "scx_push --no-idle-gate" ;;
	push-gatekick) echo "scx_push --gate-kicked" ;;
	push-scanfull) echo "scx_push --scan full" ;;
	push-llc) echo "scx_push -P llc" ;;
	push-noqueue) echo "scx_push --no-queued-wakeup" ;;
	push-ptimer) echo "scx_push --preempt-timer" ;;
	push-s20) echo "scx_push -s 20000" ;;
	push-scaled) echo "scx_push --slice-scale --wake-credit-us 1500" ;;
	*) return 1 ;;
	esac
}

# config_ops NAME: what /sys/kernel/sched_ext/root/ops says once it is loaded.
config_ops() {
	case $1 in
	simple) echo "simple" ;;
	push*) echo "scx_push" ;;
	esac
}

is_scx_push() { case $1 in push*) return 0 ;; esac; return 1; }

# sched_start NAME: load the configuration's scheduler and wait until it
# schedules; prints why on failure.
sched_start() {
	local args
	args=$(config_args "$1")
	[ "$(scx_state)" = disabled ] || { echo "state is $(scx_state) before loading"; return 1; }
	SCHED_PID=
	[ -n "$args" ] || return 0
	rm -f "$SCHED_JSON"
	if is_scx_push "$1"; then
		args="$args -i 3600 --stats-json $SCHED_JSON"
	fi
	# shellcheck disable=SC2086 # the arguments are words
	$args >"$SCHED_LOG" 2>&1 &
	SCHED_PID=$!
	if ! wait_for_state enabled "$LOAD_TIMEOUT_S"; then
		echo "$args: state $(scx_state) after ${LOAD_TIMEOUT_S}s: $(tail -n 3 "$SCHED_LOG")"
		sched_stop >/dev/null
		return 1
	fi
	[ "$(cat "$SCX_OPS")" = "$(config_ops "$1")" ] ||
		{ echo "ops is '$(cat "$SCX_OPS")' after loading $args"; return 1; }
}

# sched_alive: the configuration's scheduler (if any) is still the one
# scheduling; a BPF scheduler ejected mid-run leaves the tasks on CFS.
sched_alive() {
	[ -z "$SCHED_PID" ] && return 0
	kill -0 "$SCHED_PID" 2>/dev/null && [ "$(scx_state)" = enabled ]
}

# sched_stop: SIGINT the scheduler, wait for the state to go back to disabled.
sched_stop() {
	[ -n "$SCHED_PID" ] || return 0
	kill -INT "$SCHED_PID" 2>/dev/null
	wait "$SCHED_PID"
	SCHED_PID=
	wait_for_state disabled 20 || { echo "state $(scx_state) after unloading"; return 1; }
}

# record_args CONFIG: schedstat record's options that add scx_push's
# counters to the record (its --stats-json file, refreshed by SIGUSR1); none
# for the other configurations.
record_args() {
	is_scx_push "$1" || return 0
	echo "--scx-json $SCHED_JSON --scx-pid $SCHED_PID"
}
