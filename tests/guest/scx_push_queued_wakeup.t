# Queued wakeups: with SCX_OPS_ALLOW_QUEUED_WAKEUP (kernel patch 0012) a
# wakeup for a CPU in another LLC, or for an idle one, is queued on that
# CPU's wakelist and the CPU enqueues the task itself, after a
# function-call IPI (CAL in /proc/interrupts); without it (control:
# --no-queued-wakeup) the waker takes the wakee CPU's rq lock and raises
# hardly any. Counts the CAL IPIs over hackbench runs; skips on a kernel
# without the flag.
. ./lib.sh
. ./scx_push.sh

RUNS=${RUNS:-3}

# cal_ipis: function-call IPIs so far, summed over the CPUs.
cal_ipis() {
	awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' \
		/proc/interrupts
}

# ipis OPTION...: the CAL IPIs over RUNS hackbench runs under scx_push OPTION...
ipis() {
	local before i=0
	scx_push_start "$@"
	before=$(cal_ipis)
	while [ "$i" -lt "$RUNS" ]; do
		hackbench -p -g 2 -l 50 >/dev/null || fail "hackbench failed under scx_push $*"
		i=$((i + 1))
	done
	echo $(($(cal_ipis) - before))
	scx_push_stop
}

scx_push_start
state=$(sed -n 's/.*queued wakeups \([a-z]*\).*/\1/p' "$SCX_PUSH_LOG")
scx_push_stop
[ "$state" != unavailable ] || skip "this kernel has no SCX_OPS_ALLOW_QUEUED_WAKEUP"
expect_eq "queued wakeups by default" "$state" "on"
[ "$(sed -n 's/.*"queued_wakeup": "\([a-z]*\)".*/\1/p' "$SCX_PUSH_JSON")" = on ] ||
	fail "--stats-json does not say queued_wakeup on"

control=$(ipis --no-queued-wakeup)
info "control (--no-queued-wakeup): $control function-call IPIs in $RUNS hackbench runs"
queued=$(ipis)
info "queued wakeups: $queued function-call IPIs in $RUNS hackbench runs"
[ "$queued" -ge 200 ] && [ "$queued" -ge $((control * 5)) ] ||
	fail "queued wakeups raised $queued function-call IPIs, --no-queued-wakeup $control (want >= 200 and >= 5x)"
