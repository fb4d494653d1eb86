# The ext server restarts the way the fair server does within a period.
# In 6.12.118, dl_server_stop() keeps dl_defer_running (state [A] of the
# dl_server state machine in kernel/sched/deadline.c): a server that got
# past its zero-laxity wait and stops because its class went idle runs at
# once when its class wakes up again in the same period; update_dl_entity()
# clears the flag and defers again once the period is over. The ext server
# must follow the same rule, not defer every wakeup by up to 950 ms.
#
# A task that sleeps 100 ms and runs 2 ms, next to a SCHED_FIFO hog on
# CPU 7, for 6 s: as SCHED_NORMAL (fair server) and as SCHED_EXT under
# scx_push --partial (ext server). Each must be woken at once (< 20 ms)
# for at least half of its wakeups, and the two shares must agree within
# 25 points; a server that deferred every restart would serve ~6 wakeups,
# none of them at once.
. ./lib.sh
. ./scx_push.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
CPU=7

# phase CLASS [-x]: WAKES and QUICK of the periodic task of CLASS.
phase() {
	local hog out
	burn -f 50 -c "$CPU" -t 8 >/dev/null 2>&1 &
	hog=$!
	sleep 0.5
	out=$(periodic $2 -c "$CPU" -p 100 -r 2 -t 6) || fail "periodic ($1) failed"
	kill "$hog" 2>/dev/null
	wait "$hog" 2>/dev/null
	info "$1 next to the FIFO hog on CPU $CPU: $out"
	WAKES=$(echo "$out" | sed -n 's/.* wakes=\([0-9]*\) .*/\1/p')
	QUICK=$(echo "$out" | sed -n 's/.* quick=\([0-9]*\) .*/\1/p')
	[ -n "$WAKES" ] && [ -n "$QUICK" ] || fail "cannot parse '$out'"
	[ "$WAKES" -ge 10 ] || fail "$1: only $WAKES wakeups in 6 s"
	[ $((QUICK * 2)) -ge "$WAKES" ] ||
		fail "$1: $QUICK of $WAKES wakeups served within 20 ms, want at least half"
}

phase FAIR ""
fair=$((QUICK * 100 / WAKES))
scx_push_start --partial
trap 'scx_push_kill' EXIT
phase EXT -x
ext=$((QUICK * 100 / WAKES))
expect_eq "state after the phases" "$(scx_state)" "enabled"
scx_push_stop
trap - EXIT
info "wakeups served at once: FAIR $fair %, EXT $ext %"
d=$((fair > ext ? fair - ext : ext - fair))
[ "$d" -le 25 ] || fail "the ext server serves $ext % of the wakeups at once, the fair server $fair %"
