# Sync wakeups: two tasks that wake each other through pipes start on CPUs 0
# and 7 (other nodes) and may then run anywhere. A pipe write is a sync
# wakeup, so scx_push places the wakee in the waker's LLC and the pair ends
# up sharing an LLC in most rounds. With --no-sync (control) each wakee goes
# back to its idle previous CPU and the pair stays apart.
. ./lib.sh
. ./scx_push.sh

# pair OPTION...: pingpong's report under scx_push OPTION...
pair() {
	scx_push_start "$@"
	out=$(pingpong -a 0 -b 7 -n 3000) || fail "pingpong failed: $out"
	scx_push_stop
}

pair --no-sync
control=$(field same_llc_pct "$out")
info "control (--no-sync): same LLC in $control% of the rounds ($out)"
[ "$control" -le 20 ] || fail "--no-sync: the pair shared an LLC in $control% of the rounds; the test shows nothing ($out)"

pair
pct=$(field same_llc_pct "$out")
placed=$(scx_push_stat sync_wake)
info "sync placement: same LLC in $pct% of the rounds, $placed sync placements ($out)"
[ "$pct" -ge 80 ] || fail "the pair shared an LLC in only $pct% of the rounds ($out)"
[ "$placed" -gt 0 ] || fail "no sync placement counted"
