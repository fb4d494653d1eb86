# Busy-busy balance: 8 burners hold one CPU each; 8 busy tasks start on
# CPU 0 and are then allowed on every CPU. No CPU is ever idle, so neither a
# push to an idle CPU nor a pull moves them: with --no-push (control) they
# stay on CPU 0. With the balance, CPU 0's queue evens out and they end up on
# all 8 CPUs, one next to each holder, within 2 s.
. ./lib.sh
. ./scx_push.sh

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
	out=$(spread -n 8 -f 0 -t 0-7 -w 3000)
	wait $holders
	scx_push_stop
}

crowded --no-push
cpus=$(field final_cpus "$out")
info "control (--no-push): the tasks stay on $cpus CPU(s) ($out)"
[ "$cpus" -le 2 ] || fail "--no-push: the tasks spread over $cpus CPUs: a CPU was idle, the test shows nothing ($out)"

crowded
ms=$(field spread_ms "$out")
cpus=$(field final_cpus "$out")
moves=$(scx_push_stat push_even)
info "balance: on 8 CPUs after $ms ms, $cpus at the end, $moves tasks moved ($out)"
[ "$ms" -ge 0 ] && [ "$ms" -le 2000 ] && [ "$cpus" -ge 7 ] ||
	fail "the tasks did not spread over the busy CPUs within 2 s ($out)"
[ "$moves" -ge 7 ] || fail "$moves busy-busy moves, want 7 or more"
