# Busy balance: a burner holds each CPU; as many busy tasks start on CPU 0
# and are then allowed on every CPU. No CPU is ever idle, so neither a push
# to an idle CPU nor a pull moves them: with --no-busy (control) they stay
# on CPU 0. With the busy balance CPU 0's queue evens out over the busy
# CPUs, at every level the topology has (LLC, node, across nodes), and the
# tasks end up on all CPUs (one may be missed), one next to each holder,
# within BUSY_LIMIT_MS. Each CPU is shared by two tasks, so spread polls
# every 40 ms (a few slices) to see every task make progress, 5 ms per CPU
# above 8 CPUs: under TCG each vCPU gets 2 / NR of the host's time, and at
# 16 vCPUs a 40 ms poll missed a task's progress on some CPU in most polls
# (the same 15 moves timed at 59-1015 ms with 20 ms polls, 102-192 ms with
# 80 ms). Any guest shape: the counts follow the online CPUs. The holders
# outlast spread and are killed after it: at 16 vCPUs, starting them and
# spread took long enough that 6 s holders ended inside spread's window, and
# the control's tasks spread over the CPUs they left idle.
. ./lib.sh
. ./scx_push.sh

BUSY_LIMIT_MS=${BUSY_LIMIT_MS:-200}
NR=$(nproc)
LAST=$((NR - 1))
POLL_MS=40
[ "$NR" -le 8 ] || POLL_MS=$((NR * 5))

# crowded OPTION...: spread's report for NR tasks released from CPU 0 to
# every CPU while every CPU is held, under scx_push OPTION...
crowded() {
	local cpu holders=""

	scx_push_start "$@"
	for cpu in $(seq 0 "$LAST"); do
		burn -t 30 -c "$cpu" >/dev/null &
		holders="$holders $!"
	done
	sleep 1
	out=$(spread -n "$NR" -f 0 -t "0-$LAST" -w 3000 -p "$POLL_MS")
	kill $holders
	wait $holders 2>/dev/null
	scx_push_stop
}

crowded --no-busy
cpus=$(field final_cpus "$out")
info "control (--no-busy): the tasks stay on $cpus CPU(s) ($out)"
[ "$cpus" -le 2 ] || fail "--no-busy: the tasks spread over $cpus CPUs: a CPU was idle, the test shows nothing ($out)"

crowded
ms=$(field spread_ms "$out")
cpus=$(field final_cpus "$out")
moves="llc=$(scx_push_stat busy_llc) node=$(scx_push_stat busy_node) remote=$(scx_push_stat busy_remote)"
info "busy balance: on $NR CPUs after $ms ms, $cpus at the end; moved $moves ($out)"
[ "$ms" -ge 0 ] && [ "$ms" -le "$BUSY_LIMIT_MS" ] && [ "$cpus" -ge "$LAST" ] ||
	fail "the tasks did not spread over the busy CPUs within $BUSY_LIMIT_MS ms ($out)"
levels=$(scx_push_levels) || fail "$levels"
for level in $levels; do
	[ "$(field "$level" "$moves")" -gt 0 ] || fail "no busy move at the $level level: $moves"
done
