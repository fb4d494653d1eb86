# rt_stall (tools/testing/selftests/sched_ext): next to a pinned SCHED_FIFO
# hog, a FAIR task and an EXT task each get >= 4% of the CPU in all five
# phases (FAIR, EXT, FAIR, EXT in partial mode, EXT with every task on
# sched_ext); runtime/period = 5% is expected.
. ./lib.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
dmesg_mark
run_selftest rt_stall
rc=$?
grep 'rt_stall: phase' /tmp/selftest-rt_stall.out
[ $rc -eq 0 ] || { cat /tmp/selftest-rt_stall.out; fail "rt_stall did not pass"; }
phases=$(grep -c 'rt_stall: phase' /tmp/selftest-rt_stall.out)
expect_eq "phases run" "$phases" 5
expect_clean_dmesg
