# Wake affine: with every CPU busy (one pinned burner each), two tasks that
# wake each other through pipes start on CPUs 0 and 7. No CPU is idle, and
# the waker's CPU has a burner waiting, so neither the idle search nor sync
# placement applies: scx_push queues each wakee on its waker's CPU and the
# pair ends up sharing a CPU in most rounds. With --no-wake-affine (control)
# each wakee is queued on its previous CPU and the pair stays apart. Both
# runs have --no-busy: the busy balance would move the pair on its own.
. ./lib.sh
. ./scx_push.sh

# pair OPTION...: pingpong's report under scx_push OPTION..., every CPU busy.
pair() {
	local cpu pids=""
	scx_push_start "$@"
	for cpu in $(cpus_expand "$(cat /sys/devices/system/cpu/online)"); do
		burn -t 120 -c "$cpu" >/dev/null &
		pids="$pids $!"
	done
	sleep 0.5
	out=$(pingpong -a 0 -b 7 -n 300) || fail "pingpong failed: $out"
	kill $pids
	wait $pids 2>/dev/null
	scx_push_stop
}

pair --no-busy --no-wake-affine
control=$(field same_cpu_pct "$out")
info "control (--no-wake-affine): same CPU in $control% of the rounds ($out)"
[ "$control" -le 20 ] || fail "--no-wake-affine: the pair shared a CPU in $control% of the rounds; the test shows nothing ($out)"

pair --no-busy
pct=$(field same_cpu_pct "$out")
affine=$(scx_push_stat wake_affine)
info "wake affine: same CPU in $pct% of the rounds, $affine wakeups queued on the waker's CPU ($out)"
[ "$pct" -ge 80 ] || fail "the pair shared a CPU in only $pct% of the rounds ($out)"
[ "$affine" -gt 0 ] || fail "no wake affine placement counted"
