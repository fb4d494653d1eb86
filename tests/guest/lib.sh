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

# wait_until TIMEOUT_S COMMAND...: run COMMAND every 100 ms until it
# succeeds (status 0) or TIMEOUT_S seconds passed (status 1).
wait_until() {
	local tries=$(($1 * 10))
	shift
	until "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

state_is() { [ "$(scx_state)" = "$1" ]; }

# wait_for_state STATE TIMEOUT_S: wait until sched_ext is in STATE.
wait_for_state() { wait_until "$2" state_is "$1"; }

# Kernel log lines (from dmesg -r, on stdin) that mean the kernel went wrong:
# warnings, BUGs, oopses, lockdep reports (most start with WARNING: or BUG:;
# not "lockdep" alone, which a debug kernel's boot banner says), hung tasks.
KERNEL_WARNINGS='WARNING:|BUG:|Oops|INFO: (task|trying to register|lockdep|possible)|DEBUG_LOCKS_WARN_ON|locking correctness validator'
kernel_warnings() { grep -E "$KERNEL_WARNINGS"; }

# rcu_stalls: RCU stall report lines (from dmesg -r, on stdin).
RCU_STALLS='rcu.*(stall|self-detected|starved)'
rcu_stalls() { grep -E "$RCU_STALLS"; }

# kernel_errors: the above, RCU stalls and any error-level message (a BPF
# scheduler that failed logs one).
kernel_errors() { grep -E "^<[0-3]>|$KERNEL_WARNINGS|$RCU_STALLS"; }

# Remember the kernel log position; dmesg_new prints what came after it.
dmesg_mark() { DMESG_MARK=$(dmesg -r | wc -l); }
dmesg_new() { dmesg -r | tail -n +"$((DMESG_MARK + 1))"; }

# Fail when the kernel logged an error since dmesg_mark.
expect_clean_dmesg() {
	local errors
	errors=$(dmesg_new | kernel_errors)
	[ -z "$errors" ] || { echo "$errors"; fail "kernel log: $(echo "$errors" | head -n 1)"; }
}

# The tree's sched_ext selftests (built from the patched kernel tree).
SCX_SELFTESTS=scx_selftests

# The tree's fork-heavy selftests (select_cpu_dfl*, 1028 children each) run
# minimal BPF schedulers (one FIFO global DSQ, no kthread handling) that can
# starve kthreads for 20-30 s under TCG: an RCU "rcu_sched kthread starved"
# report and a sched_ext watchdog ejection. The base 6.12 kernel, without our
# series, does the same (see the README). sched_ext_selftests.t brackets the
# runner with these kernel log markers and reports those stalls itself;
# dmesg_clean.t does not count an RCU stall that lies between them.
SELFTESTS_BEGIN="scx-push: tree selftests begin"
SELFTESTS_END="scx-push: tree selftests end"

kmsg() { echo "$*" >/dev/kmsg; }

# outside_selftests: the kernel log (dmesg -r, on stdin) without the RCU
# stall report lines logged while the tree's selftests ran.
outside_selftests() {
	sed "/$SELFTESTS_BEGIN/,/$SELFTESTS_END/{/rcu/d;}"
}

# run_selftest NAME: run one sched_ext selftest; its output is in
# /tmp/selftest-NAME.out. Fails unless the runner reports it as passed.
run_selftest() {
	local out=/tmp/selftest-$1.out
	command -v "$SCX_SELFTESTS" >/dev/null || fail "$SCX_SELFTESTS is not in the initramfs"
	"$SCX_SELFTESTS" -q -t "$1" >"$out" 2>&1
	# "ok N NAME # " passed; a skip carries "# SKIP".
	grep -qx "ok [0-9]* $1 # *" "$out"
}

EXT_SERVER=/sys/kernel/debug/sched/ext_server
EXT_RUNTIME_NS=50000000
EXT_PERIOD_NS=1000000000

# set_ext_runtime NS: the ext server runtime of every online CPU.
set_ext_runtime() {
	local d
	for d in "$EXT_SERVER"/cpu*; do
		[ "$(cat "/sys/devices/system/cpu/${d##*/}/online" 2>/dev/null || echo 1)" = 1 ] || continue
		echo "$1" >"$d/runtime" || return 1
	done
}

# start_burners N SECONDS [OUT]: N CPU-bound tasks (burn -t SECONDS) in the
# background, their pids in BURNERS; burner i reports to OUT.i, or nowhere.
start_burners() {
	local i out=/dev/null
	BURNERS=""
	for i in $(seq "$1"); do
		[ -z "${3:-}" ] || out=$3.$i
		burn -t "$2" >"$out" &
		BURNERS="$BURNERS $!"
	done
}

# wait_burners: wait for every burner of start_burners; status 1 when any
# of them failed.
wait_burners() {
	local p rc=0
	for p in $BURNERS; do wait "$p" || rc=1; done
	return "$rc"
}

# The root domain total_bw of every CPU, one per line (sched/debug).
total_bw_all() {
	grep 'dl_bw->total_bw' /sys/kernel/debug/sched/debug | sed 's/.*: *//'
}

SCHED_DEBUG=/sys/kernel/debug/sched/debug

# dl_rq_field CPU FIELD: FIELD (running_bw, this_bw, dl_bw->total_bw, ...)
# of CPU's dl_rq section of sched/debug; empty when the kernel does not
# print it or the CPU is offline.
dl_rq_field() {
	awk -v sec="dl_rq[$1]:" -v f=".$2" '
		$1 == sec { in_sec = 1; next }
		in_sec && /^[^ ]/ { in_sec = 0 }
		in_sec && $1 == f { print $3; exit }' "$SCHED_DEBUG"
}

# sum_exec_ms PID: the CPU time PID got so far, in whole milliseconds.
sum_exec_ms() {
	sed -n 's/^se\.sum_exec_runtime *: *\([0-9]*\)\..*/\1/p' "/proc/$1/sched"
}
