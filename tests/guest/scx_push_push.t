# Push: under a wakeup-heavy load (hackbench messaging next to 4 CPU-bound
# tasks, so that some CPUs are busy and some idle), tasks queued behind a
# running one are pushed to idle CPUs (push counters move); with --no-push
# the same load completes and the push counters stay 0.
. ./lib.sh
. ./scx_push.sh

load() {
	start_burners 4 3
	hackbench -g 1 -f 4 -l 100 >/tmp/hackbench.log 2>&1 || { cat /tmp/hackbench.log; fail "hackbench failed"; }
	wait_burners || fail "a burner failed"
	info "$1: hackbench $(grep Time /tmp/hackbench.log)"
}

scx_push_start
load "push on"
scx_push_stop
try=$(scx_push_stat push_try)
pushed=$(($(scx_push_stat push_ok) + $(scx_push_stat push_move)))
info "push on: $pushed pushed of $try attempts"
[ "$pushed" -gt 0 ] || fail "no task pushed ($(grep '^total push' "$SCX_PUSH_LOG"))"

scx_push_start --no-push
load "--no-push"
scx_push_stop
for name in push_try push_ok push_move; do
	expect_eq "$name with --no-push" "$(scx_push_stat "$name")" 0
done
