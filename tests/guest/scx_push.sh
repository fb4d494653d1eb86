# Helpers for the scx_push guest tests (busybox sh), sourced after lib.sh.
#
# scx_push_start loads the scheduler in the background with its log in
# $SCX_PUSH_LOG; scx_push_stop unloads it and fails the test unless it went
# away cleanly.

SCX_PUSH_LOG=/tmp/scx_push.log

# scx_push_start [OPTION...]: load scx_push and wait until it schedules.
scx_push_start() {
	expect_eq "sched_ext state before loading scx_push" "$(scx_state)" "disabled"
	scx_push "$@" >"$SCX_PUSH_LOG" 2>&1 &
	SCX_PUSH_PID=$!
	if ! wait_for_state enabled 20; then
		cat "$SCX_PUSH_LOG"
		fail "scx_push $*: state is '$(scx_state)', not enabled"
	fi
	expect_eq "ops name" "$(cat "$SCX_OPS")" "scx_push"
}

# scx_push_stop: SIGINT, then expect exit status 0 after a clean unregistration.
scx_push_stop() {
	local rc
	kill -INT "$SCX_PUSH_PID"
	wait "$SCX_PUSH_PID"
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^EXIT: unregistered from user space' "$SCX_PUSH_LOG"; then
		cat "$SCX_PUSH_LOG"
		fail "scx_push exited with status $rc: $(grep '^EXIT' "$SCX_PUSH_LOG")"
	fi
	wait_for_state disabled 10 || fail "state is '$(scx_state)' after unloading scx_push"
}
