# The guest half of `make run` (busybox sh, run from /scx-push/tests/guest):
# show the topology, load scx_push under a mixed load and print what it
# reports (topology, per-interval stats, the exit summary), record hackbench
# under EEVDF and under scx_push with schedstat and print the report of the
# scx_push record and the diff of the two, then measure the rt_stall scenario under scx_push with the ext server
# on and off. Exits
# non-zero if any step fails; the host then runs the quick comparison.
. ./lib.sh
. ./scx_push.sh

step() { echo; echo "== $*"; }

step "guest: $(uname -r), $(nproc) CPUs"
for n in /sys/devices/system/node/node[0-9]*; do
	echo "  ${n##*/}: CPUs $(cat "$n/cpulist")"
done
echo "  L3 domains: $(cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list | sort -un | tr '\n' ' ')"

step "scx_push under hackbench and 4 CPU burners (stats every second)"
scx_push_start -i 1
burners=""
for i in 1 2 3 4; do
	burn -t 4 >/dev/null &
	burners="$burners $!"
done
hackbench -g 2 -l 20 || fail "hackbench failed under scx_push"
for p in $burners; do wait "$p"; done
sleep 1
scx_push_stop
cat "$SCX_PUSH_LOG"

step "schedstat: hackbench -p -g 2 -l 50 recorded under EEVDF (A) and scx_push (B)"
old_schedstats=$(cat /proc/sys/kernel/sched_schedstats)
old_verbose=$(cat /sys/kernel/debug/sched/verbose)
echo 1 >/proc/sys/kernel/sched_schedstats || fail "cannot enable schedstats"
echo Y >/sys/kernel/debug/sched/verbose || fail "cannot set sched/verbose (domain names)"
schedstat record -o /tmp/eevdf.data -- hackbench -p -g 2 -l 50 >/dev/null ||
	fail "schedstat record under EEVDF failed"
scx_push_start -i 3600
schedstat record -o /tmp/push.data --scx-json "$SCX_PUSH_JSON" --scx-pid "$SCX_PUSH_PID" -- \
	hackbench -p -g 2 -l 50 >/dev/null || fail "schedstat record under scx_push failed"
scx_push_stop
echo "$old_schedstats" >/proc/sys/kernel/sched_schedstats
echo "$old_verbose" >/sys/kernel/debug/sched/verbose
schedstat report /tmp/push.data || fail "schedstat report failed"
step "schedstat diff: EEVDF (A) and scx_push (B)"
schedstat diff /tmp/eevdf.data /tmp/push.data || fail "schedstat diff failed"

step "rt_stall under scx_push: a busy task and a SCHED_FIFO hog on CPU 7"
[ -d "$EXT_SERVER" ] || fail "this kernel has no ext server ($EXT_SERVER)"
scx_push_start
trap 'set_ext_runtime "$EXT_RUNTIME_NS"; scx_push_kill' EXIT
out=$(rt_share 7) || fail "rt_share failed: $out"
echo "  ext server 50ms/1s: $out"
set_ext_runtime 0 || fail "cannot set the ext server runtime to 0"
out=$(rt_share 7) || fail "rt_share failed: $out"
echo "  ext server off:     $out"
set_ext_runtime "$EXT_RUNTIME_NS"
scx_push_stop
echo "  (share: the busy SCX task's part of the CPU; the ext server reserves 5%)"
