# The deadline servers' bandwidth never moves: total_bw is the same on every
# CPU before a BPF scheduler loads, while it runs, after it unloads, after
# 20 load/unload cycles (the total_bw selftest) and after CPU 1 goes offline
# and comes back; sched_rt_runtime_us cannot go below the servers' 10%.
. ./lib.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
boot_bw=$(total_bw_all | sort -u)
expect_eq "distinct total_bw values at boot" "$(echo "$boot_bw" | wc -l)" 1
info "total_bw at boot: $boot_bw"

run_selftest total_bw || { cat /tmp/selftest-total_bw.out; fail "total_bw selftest failed"; }
grep '^total_bw:' /tmp/selftest-total_bw.out
expect_eq "total_bw after the selftest" "$(total_bw_all | sort -u)" "$boot_bw"

cpu1=/sys/devices/system/cpu/cpu1/online
echo 0 >"$cpu1" || fail "cannot offline CPU 1"
info "total_bw with CPU 1 offline: $(total_bw_all | sort -u | tr '\n' ' ')"
echo 1 >"$cpu1" || fail "cannot online CPU 1"
expect_eq "total_bw after CPU 1 offline/online" "$(total_bw_all | sort -u)" "$boot_bw"

# The servers' bandwidth is also the floor of sched_rt_runtime_us: the
# -deadline admission limit cannot go below what every root domain holds,
# 2 servers x 50 ms / 1 s, i.e. 10% of sched_rt_period_us (5% without the
# ext server).
rt=/proc/sys/kernel/sched_rt_runtime_us
rt_old=$(cat "$rt")
floor=$(($(cat /proc/sys/kernel/sched_rt_period_us) / 10))
out=$( (echo $((floor - 2000)) >"$rt") 2>&1) && {
	echo "$rt_old" >"$rt"
	fail "sched_rt_runtime_us $((floor - 2000)) accepted, below the servers' $floor"
}
case "$out" in
*"Device or resource busy"*) ;;
*) fail "sched_rt_runtime_us $((floor - 2000)): '$out', want 'Device or resource busy'" ;;
esac
echo $((floor + 2000)) >"$rt" || fail "sched_rt_runtime_us $((floor + 2000)) refused, above the servers' $floor"
echo "$rt_old" >"$rt" || fail "cannot restore sched_rt_runtime_us $rt_old"
info "sched_rt_runtime_us: $((floor - 2000)) refused, $((floor + 2000)) accepted (floor $floor)"
