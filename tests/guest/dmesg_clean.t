# Runs last: since boot, the kernel logged no warning, BUG, oops, lockdep
# splat, RCU stall or hung task. Error-level lines are not counted here: the
# tree's selftests and our CLI tests make BPF schedulers fail on purpose,
# and each test checks its own window (expect_clean_dmesg). RCU stalls while
# the tree's fork-heavy selftests ran are reported by sched_ext_selftests.t
# instead (lib.sh says why).
. ./lib.sh

# A log that wrapped would hide what it lost, and the selftests' markers.
dmesg | head -n 1 | grep -q '^\[ *0\.000000\] Linux version' ||
	fail "the kernel log wrapped (it starts at '$(dmesg | head -n 1 | cut -c1-60)'): it cannot be judged"

errors=$(dmesg -r | outside_selftests | grep -E "$KERNEL_WARNINGS|$RCU_STALLS")
[ -z "$errors" ] || { echo "$errors"; fail "kernel log: $(echo "$errors" | head -n 1)"; }
info "$(dmesg | wc -l) kernel log lines, none of them a warning"
