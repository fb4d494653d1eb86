# Helpers for guest tests (busybox sh). Sourced by every test.
#
# A test is a shell script that exits 0 when it passes; it calls fail or skip
# with a one-line reason otherwise. Diagnostics go to stdout: the runner shows
# them indented under the test's result line.

SCX_STATE=/sys/kernel/sched_ext/state
SCX_OPS=/sys/kernel/sched_ext/root/ops

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
info() { echo "$*"; }

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1 is '$2', want '$3'"
}

scx_state() { cat "$SCX_STATE" 2>/dev/null || echo "absent"; }

# wait_for_state STATE TIMEOUT_S: poll the sched_ext state every 100 ms.
wait_for_state() {
	local want=$1 tries=$(($2 * 10))
	while [ "$tries" -gt 0 ]; do
		[ "$(scx_state)" = "$want" ] && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# Kernel log lines (from dmesg -r, on stdin) that mean the kernel or a BPF
# scheduler went wrong: any error-level message, warnings, lockdep, RCU stalls.
kernel_errors() {
	grep -E '^<[0-3]>|WARNING:|BUG:|Oops|circular locking|lockdep|rcu.*(stall|self-detected)|INFO: task'
}

# Remember the kernel log position; dmesg_new prints what came after it.
dmesg_mark() { DMESG_MARK=$(dmesg -r | wc -l); }
dmesg_new() { dmesg -r | tail -n +"$((DMESG_MARK + 1))"; }

# Fail when the kernel logged an error since dmesg_mark.
expect_clean_dmesg() {
	local errors
	errors=$(dmesg_new | kernel_errors)
	[ -z "$errors" ] || { echo "$errors"; fail "kernel log: $(echo "$errors" | head -n 1)"; }
}
