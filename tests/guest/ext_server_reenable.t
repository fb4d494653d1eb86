# Raising a server's runtime from 0 through debugfs must start it again
# while its class has queued tasks: a CPU-bound task next to a SCHED_FIFO
# hog is never dequeued, so no enqueue would start the server for it. For
# the fair server (a SCHED_NORMAL task, no BPF scheduler) and the ext
# server (a SCHED_EXT task under scx_push --partial), on CPU 7: with the
# runtime at 0 the task gets nothing (the control), and in the 3 s after
# the runtime went back to 50 ms, with no new enqueue, >= 2% (5% expected;
# the server defers its first run by up to 950 ms).
. ./lib.sh
. ./scx_push.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
CPU=7
SERVERS_DIR=/sys/kernel/debug/sched

# phase CLASS SERVER BURN_OPT: the low task of CLASS next to the hog.
phase() {
	local knob="$SERVERS_DIR/$2/cpu$CPU/runtime" low hog t0 t1 off_ms on_ms
	burn $3 -c "$CPU" -t 12 >/dev/null 2>&1 &
	low=$!
	sleep 0.5
	burn -f 50 -c "$CPU" -t 11 >/dev/null 2>&1 &
	hog=$!
	sleep 2
	echo 0 >"$knob" || fail "cannot set $2 runtime 0"
	sleep 1
	t0=$(sum_exec_ms "$low")
	sleep 2
	t1=$(sum_exec_ms "$low")
	off_ms=$((t1 - t0))
	echo "$EXT_RUNTIME_NS" >"$knob" || fail "cannot set $2 runtime back"
	t0=$(sum_exec_ms "$low")
	sleep 3
	t1=$(sum_exec_ms "$low")
	on_ms=$((t1 - t0))
	kill "$hog" "$low" 2>/dev/null
	wait "$hog" "$low" 2>/dev/null
	info "$1 task next to the FIFO hog on CPU $CPU: ${off_ms} ms in 2 s with $2 runtime 0, ${on_ms} ms in 3 s after it went back to 50 ms"
	[ "$off_ms" -lt 20 ] || fail "$1 task got $off_ms ms in 2 s with $2 runtime 0 (control), want < 20"
	[ "$on_ms" -ge 60 ] ||
		fail "$1 task got $on_ms ms in 3 s after $2 runtime went from 0 to 50 ms, want >= 60 (2%)"
}

trap 'set_ext_runtime "$EXT_RUNTIME_NS"; echo "$EXT_RUNTIME_NS" >"$SERVERS_DIR/fair_server/cpu$CPU/runtime"' EXIT
dmesg_mark
phase FAIR fair_server ""
scx_push_start --partial
trap 'set_ext_runtime "$EXT_RUNTIME_NS"; echo "$EXT_RUNTIME_NS" >"$SERVERS_DIR/fair_server/cpu$CPU/runtime"; scx_push_kill' EXIT
phase EXT ext_server -x
expect_eq "state after the phases" "$(scx_state)" "enabled"
scx_push_stop
expect_eq "fair_server runtime" "$(cat "$SERVERS_DIR/fair_server/cpu$CPU/runtime")" "$EXT_RUNTIME_NS"
expect_eq "ext_server runtime" "$(cat "$EXT_SERVER/cpu$CPU/runtime")" "$EXT_RUNTIME_NS"
