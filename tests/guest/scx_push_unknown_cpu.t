# A CPU that is not in the topology scx_push loaded with has no DSQ of its
# own. That happens for real while a CPU comes online: sched_cpu_activate()
# puts its rq online for sched_ext (sched domain rebuild) before it asks for
# the scheduler's restart, and its cpuhp thread can block and wake up there
# in between (seen once in the soak on the debug kernel). Here a
# --sysfs-root copy of the topology hides CPU 7. A task pinned to CPU 7 must
# run there, and scx_push must keep scheduling instead of ejecting itself
# ("non-existent DSQ 0x7").
. ./lib.sh
. ./scx_push.sh

sys=/sys/devices/system
root=/tmp/sysfs-without-cpu7
[ "$(cat $sys/cpu/online)" = 0-7 ] || skip "needs CPUs 0-7 online, have $(cat $sys/cpu/online)"

rm -rf "$root"
mkdir -p "$root/devices/system/cpu"
cp $sys/cpu/possible "$root/devices/system/cpu/"
echo 0-6 >"$root/devices/system/cpu/online"
for f in $sys/node/node*/cpulist $sys/cpu/cpu*/cache/index3/id \
	$sys/cpu/cpu*/cache/index3/shared_cpu_list $sys/cpu/smt/active \
	$sys/cpu/cpu*/topology/thread_siblings_list; do
	[ -r "$f" ] || continue
	dst=$root${f#/sys}
	mkdir -p "${dst%/*}"
	cp "$f" "$dst"
done

dmesg_mark
scx_push_start --sysfs-root "$root"
grep -q "^topology: 7 CPUs online (0-6) of 8" "$SCX_PUSH_LOG" ||
	fail "CPU 7 is not hidden: $(grep '^topology' "$SCX_PUSH_LOG")"
out=$(burn -t 3 -c 7) || fail "burn on CPU 7 failed: $out"
info "pinned to CPU 7: $out"
cpu_ms=$(echo "$out" | sed -n 's/.*cpu_ms=\([0-9]*\).*/\1/p')
[ "${cpu_ms:-0}" -ge 1500 ] || fail "the task pinned to CPU 7 ran ${cpu_ms:-no} ms of 3000"
expect_eq "state with a task on CPU 7" "$(scx_state)" "enabled"
scx_push_stop
expect_clean_dmesg
