# allow_queued_wakeup (kernel patch 0013, a selftest of 0012): two threads
# waking each other across two CPUs; ops.enqueue() never runs away from
# ops.select_cpu()'s CPU without SCX_OPS_ALLOW_QUEUED_WAKEUP, and does for
# some wakeups with it (the wakee CPU's wakelist).
. ./lib.sh

dmesg_mark
run_selftest allow_queued_wakeup
rc=$?
grep -E '^(with|without) flag' /tmp/selftest-allow_queued_wakeup.out
[ $rc -eq 0 ] || { cat /tmp/selftest-allow_queued_wakeup.out; fail "allow_queued_wakeup did not pass"; }
expect_eq "runs reported" "$(grep -cE '^(with|without) flag' /tmp/selftest-allow_queued_wakeup.out)" 2
expect_clean_dmesg
