# scx_push loads (state enabled, ops scx_push) with the guest's topology, runs
# CPU-bound and wakeup-heavy work, dumps its state on SysRq-D (ops.dump and
# ops.dump_cpu, read through the sched_ext_dump trace event), and unloads
# cleanly on SIGINT (state disabled, counters reported, no kernel error).
# Prints what the verifier walked for each program (verified_insns) and
# how long the load took. Any guest shape: the expected topology is read
# from sysfs.
. ./lib.sh
. ./scx_push.sh

NR=$(nproc)
NODES=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
LLC_LISTS=$(cat /sys/devices/system/cpu/cpu[0-9]*/cache/index3/shared_cpu_list | sort -u)
LLCS=$(echo "$LLC_LISTS" | wc -l)
LAST_LLC=$(cat /sys/devices/system/cpu/cpu$((NR - 1))/cache/index3/shared_cpu_list)
[ "$NODES" -eq 1 ] && NODES_WORD="NUMA node" || NODES_WORD="NUMA nodes"

command -v scx_push >/dev/null || fail "scx_push is not in the initramfs"
dmesg_mark
scx_push_start

start_burners 4 3
hackbench -g 2 -f 5 -l 20 >/tmp/hackbench.log 2>&1 || { cat /tmp/hackbench.log; fail "hackbench failed"; }
wait_burners
info "$(grep Time /tmp/hackbench.log)"
expect_eq "state under load" "$(scx_state)" "enabled"

event=/sys/kernel/tracing/events/sched_ext/sched_ext_dump/enable
[ -w "$event" ] || fail "no sched_ext_dump trace event to read the dump from"
echo 1 >"$event"
echo >/sys/kernel/tracing/trace
echo D >/proc/sysrq-trigger
sleep 0.5
echo 0 >"$event"
grep -q "scx_push: slice_ns=3000000 pull_scope=all scan=mask push=on pull=on" /sys/kernel/tracing/trace ||
	fail "SysRq-D dump lacks the scx_push header"
grep -q "scx_push: busy=on group=on sync=on wake_affine=on preempt=on idle_gate=on" /sys/kernel/tracing/trace ||
	fail "SysRq-D dump lacks the scx_push mechanisms"
grep -q "llc $((LLCS - 1)) (node $((NODES - 1))) overloaded:" /sys/kernel/tracing/trace || fail "SysRq-D dump lacks the LLC masks"
grep -q "scx_push: idle_ms=[0-9]* avg_idle_us=[0-9]* pull_cost_us=[0-9]*/[0-9]*/[0-9]*" \
	/sys/kernel/tracing/trace || fail "SysRq-D dump lacks the idle gate's state per CPU"

scx_push_stop
grep -q "^topology: $NR CPUs online (0-$((NR - 1))) of $NR, $NODES $NODES_WORD, $LLCS LLCs" \
	"$SCX_PUSH_LOG" || fail "topology, sysfs has $NR CPUs, $NODES nodes, $LLCS LLCs: $(grep '^topology' "$SCX_PUSH_LOG")"
grep -q "^  node $((NODES - 1)):.* llc $((LLCS - 1)) \[$LAST_LLC\]\$" "$SCX_PUSH_LOG" ||
	fail "node $((NODES - 1)) does not end with llc $((LLCS - 1)) [$LAST_LLC]: $(grep '^  node' "$SCX_PUSH_LOG")"
insns=$(grep '^scx_push: verified_insns .* total=[0-9]*$' "$SCX_PUSH_LOG") ||
	fail "no verified_insns line in the scx_push log"
info "$insns"
info "$(grep '^scx_push: loaded in [0-9]* ms$' "$SCX_PUSH_LOG")"
enq=$(sed -n 's/^total queue: enq=\([0-9]*\).*/\1/p' "$SCX_PUSH_LOG")
[ "${enq:-0}" -gt 0 ] || fail "no enqueue counted (summary: $(grep '^total queue' "$SCX_PUSH_LOG"))"
expect_clean_dmesg
