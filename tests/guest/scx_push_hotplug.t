# CPU 3 goes offline and comes back while scx_push schedules a load: the
# kernel ejects the scheduler at each hotplug event with a restart request,
# the loader restarts it with the new topology, and it is running afterwards.
. ./lib.sh
. ./scx_push.sh

online=/sys/devices/system/cpu/cpu3/online
[ -w "$online" ] || skip "CPU 3 cannot be taken offline"

scx_push_start
start_burners 8 12
sleep 1
echo 0 >"$online" || fail "cannot take CPU 3 offline"
sleep 3
wait_for_state enabled 20 || fail "scx_push did not come back after CPU 3 went offline"
grep -q "^topology: 7 CPUs online (0-2,4-7) of 8" "$SCX_PUSH_LOG" ||
	fail "no restart with CPU 3 offline: $(grep '^topology' "$SCX_PUSH_LOG" | tail -n 1)"
echo 1 >"$online" || fail "cannot bring CPU 3 back"
sleep 3
wait_for_state enabled 20 || fail "scx_push did not come back after CPU 3 came back"
expect_eq "ops name after the hotplug" "$(cat "$SCX_OPS")" "scx_push"
kill -0 "$SCX_PUSH_PID" 2>/dev/null || fail "the loader is gone"
wait_burners || fail "a burner failed"
scx_push_stop
restarts=$(grep -c "^scx_push: restarting as the kernel asked" "$SCX_PUSH_LOG")
info "restarts: $restarts; $(grep '^topology' "$SCX_PUSH_LOG" | tail -n 1)"
[ "$restarts" -ge 2 ] || fail "$restarts restarts for two hotplug events"
