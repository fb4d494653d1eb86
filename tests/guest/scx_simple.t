# The tree's scx_simple loads, schedules a CPU + wakeup workload and unloads
# cleanly: state disabled -> enabled -> disabled, no error in the kernel log.
. ./lib.sh

command -v scx_simple >/dev/null || fail "scx_simple is not in the initramfs"
expect_eq "state before load" "$(scx_state)" "disabled"
dmesg_mark

scx_simple >/tmp/scx_simple.log 2>&1 &
pid=$!
wait_for_state enabled 20 || { cat /tmp/scx_simple.log; fail "state never reached 'enabled' (it is '$(scx_state)')"; }
expect_eq "ops name" "$(cat "$SCX_OPS")" "simple"

# CPU-bound and wakeup-heavy work must both complete under the BPF scheduler.
burners=""
for i in 1 2 3 4; do
	timeout 5 sh -c 'while :; do :; done' &
	burners="$burners $!"
done
hackbench -g 2 -f 5 -l 50 >/tmp/hackbench.log 2>&1 || { cat /tmp/hackbench.log; fail "hackbench failed"; }
for p in $burners; do wait "$p"; done
info "$(grep Time /tmp/hackbench.log)"
expect_eq "state under load" "$(scx_state)" "enabled"

kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || { cat /tmp/scx_simple.log; fail "scx_simple exited with status $rc"; }
wait_for_state disabled 10 || fail "state is '$(scx_state)' after unload"
expect_clean_dmesg
