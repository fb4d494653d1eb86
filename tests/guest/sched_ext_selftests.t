# The tree's sched_ext selftests, run by their own runner: every one passes,
# the existing ones as without the ext_server series (on this config all 21
# pass there too), rt_stall and total_bw from the series and
# allow_queued_wakeup from patch 0013. The kernel logs
# no warning, BUG or lockdep report while they run; RCU stalls and watchdog
# ejections of the tree's minimal test schedulers are reported (see lib.sh).
. ./lib.sh

command -v "$SCX_SELFTESTS" >/dev/null || fail "$SCX_SELFTESTS is not in the initramfs"
kmsg "$SELFTESTS_BEGIN"
"$SCX_SELFTESTS" -q >/tmp/selftests.out 2>&1
kmsg "$SELFTESTS_END"
# Tests that fork repeat the runner's unflushed output: keep one result each.
grep -E '^(not )?ok [0-9]+ [^ ]+ #' /tmp/selftests.out | sort -u >/tmp/selftests.results
total=$(wc -l </tmp/selftests.results)
failed=$(sed -n 's/^not ok [0-9]* \([^ ]*\).*/\1/p' /tmp/selftests.results | tr '\n' ' ')
skipped=$(grep -c '# SKIP' /tmp/selftests.results)
info "$total selftests, $skipped skipped, failed: ${failed:-none}"

dmesg -r | sed -n "/$SELFTESTS_BEGIN/,/$SELFTESTS_END/p" >/tmp/selftests.dmesg
# The window is only judged whole: a ring that wrapped lost its start.
grep -q "$SELFTESTS_BEGIN" /tmp/selftests.dmesg && grep -q "$SELFTESTS_END" /tmp/selftests.dmesg ||
	fail "the kernel log lost the selftests' begin or end marker ($(dmesg | wc -c) bytes in the ring)"
stalls=$(rcu_stalls </tmp/selftests.dmesg | grep -c 'detected stalls')
ejected=$(grep -E 'sched_ext: .*(watchdog failed|failed to run for)' /tmp/selftests.dmesg |
	sed 's/.*sched_ext: //' | tr '\n' ';' | sed 's/;$//')
info "while they ran: $stalls RCU stall report(s); watchdog ejections: ${ejected:-none}"

[ "$total" -eq 24 ] || { cat /tmp/selftests.results; fail "$total selftest results, want 24"; }
[ -z "$failed" ] || { grep -A30 'ERR' /tmp/selftests.out | head -60; fail "selftests failed: $failed"; }
errors=$(kernel_warnings </tmp/selftests.dmesg)
[ -z "$errors" ] || { echo "$errors"; fail "kernel log: $(echo "$errors" | head -n 1)"; }
