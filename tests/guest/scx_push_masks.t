# The overloaded masks show the CPUs with waiting tasks while 16 busy tasks
# share 8 CPUs, and are empty within 100 ms of the load stopping.
. ./lib.sh
. ./scx_push.sh

scx_push_start
start_burners 16 6
# the burners may take a while to start (seen on the debug kernel): ask again
overloaded() { busy=$(scx_push_overloaded); [ "$busy" != none ]; }
sleep 1
wait_until 3 overloaded || fail "no CPU in the overloaded masks with 16 busy tasks on 8 CPUs"
info "under load: overloaded CPUs $busy"

wait_burners || fail "a burner failed"
sleep 0.1
idle=$(scx_push_overloaded)
expect_eq "overloaded CPUs 100 ms after the load stopped" "$idle" "none"
scx_push_stop
info "mask bits set $(scx_push_stat mask_set), cleared $(scx_push_stat mask_clear), stale $(scx_push_stat mask_stale)"
