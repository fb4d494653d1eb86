# Busy balance: 8 burners hold one CPU each; 8 busy tasks start on CPU 0 and
# are then allowed on every CPU. No CPU is ever idle, so neither a push to an
# idle CPU nor a pull moves them: with --no-busy (control) they stay on CPU 0.
# With the busy balance CPU 0's queue evens out over the busy CPUs, within
# the LLC, the node and across nodes, and the tasks end up on all 8 CPUs, one
# next to each holder, within BUSY_LIMIT_MS. Each CPU is shared by two tasks,
# so spread polls every 40 ms (a few slices) to see every task make progress.
. ./lib.sh
. ./scx_push.sh

BUSY_LIMIT_MS=${BUSY_LIMIT_MS:-200}

# crowded OPTION...: spread's report for 8 tasks released from CPU 0 to
# CPUs 0-7 while every CPU is held, under scx_push OPTION...
crowded() {
	local cpu holders=""

	scx_push_start "$@"
	for cpu in 0 1 2 3 4 5 6 7; do
		burn -t 6 -c "$cpu" >/dev/null &
		holders="$holders $!"
	done
	sleep 1
	out=$(spread -n 8 -f 0 -t 0-7 -w 3000 -p 40)
	wait $holders
	scx_push_stop
}

crowded --no-busy
cpus=$(field final_cpus "$out")
info "control (--no-busy): the tasks stay on $cpus CPU(s) ($out)"
[ "$cpus" -le 2 ] || fail "--no-busy: the tasks spread over $cpus CPUs: a CPU was idle, the test shows nothing ($out)"

crowded
ms=$(field spread_ms "$out")
cpus=$(field final_cpus "$out")
llc=$(scx_push_stat busy_llc)
node=$(scx_push_stat busy_node)
remote=$(scx_push_stat busy_remote)
info "busy balance: on 8 CPUs after $ms ms, $cpus at the end; moved $llc in LLCs, $node in nodes, $remote across nodes ($out)"
[ "$ms" -ge 0 ] && [ "$ms" -le "$BUSY_LIMIT_MS" ] && [ "$cpus" -ge 7 ] ||
	fail "the tasks did not spread over the busy CPUs within $BUSY_LIMIT_MS ms ($out)"
for n in "$llc" "$node" "$remote"; do
	[ "$n" -gt 0 ] || fail "no busy move at one of the levels: llc=$llc node=$node remote=$remote"
done
