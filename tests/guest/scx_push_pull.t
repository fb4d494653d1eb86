# Pull: 8 busy tasks started on CPU 0 (LLC 0-1) and then allowed on every CPU
# spread over all 8 CPUs within 1 s with pull alone (--no-push --no-busy),
# pulling at the LLC and node levels, and with every mechanism on; without
# push, pull and busy balance (control) they stay where they are. Prints the mean number of CPUs a successful pull
# examined, with the overloaded masks and with --scan full.
. ./lib.sh
. ./scx_push.sh

# imbalance: spread's report for 8 tasks released from CPU 0 to CPUs 0-7.
imbalance() {
	spread -n 8 -f 0 -t 0-7 -w 1500
}

expect_spread() {
	local what=$1 out=$2 ms
	ms=$(field spread_ms "$out")
	[ "$ms" -ge 0 ] && [ "$ms" -le 1000 ] || fail "$what: not spread over 8 CPUs within 1 s ($out)"
	info "$what: spread in $ms ms ($out)"
}

scx_push_start --no-pull --no-push --no-busy
out=$(imbalance)
scx_push_stop
cpus=$(field final_cpus "$out")
[ "$cpus" -le 2 ] || fail "without push and pull the tasks still spread over $cpus CPUs ($out)"
info "control (--no-pull --no-push --no-busy): tasks stay on $cpus CPU(s) ($out)"

scx_push_start --no-push --no-busy
out=$(imbalance)
scx_push_stop
expect_spread "pull only" "$out"
for level in llc node; do
	n=$(scx_push_stat "pull_$level")
	[ "$n" -gt 0 ] || fail "pull only: no pull at the $level level ($(grep '^total pull' "$SCX_PUSH_LOG"))"
done
info "pull only: pulled $(scx_push_stat pull_llc) in the LLC, $(scx_push_stat pull_node) in the node, $(scx_push_stat pull_remote) from the other node"
masks=$(scx_push_stat scan_per_pull)

scx_push_start
expect_spread "push and pull" "$(imbalance)"
scx_push_stop

scx_push_start --no-push --no-busy --scan full
expect_spread "pull only, --scan full" "$(imbalance)"
scx_push_stop
full=$(scx_push_stat scan_per_pull)

info "CPUs examined per successful pull: $masks with the masks, $full with --scan full"
awk -v m="$masks" -v f="$full" 'BEGIN { exit !(m <= 2 && f > m) }' ||
	fail "CPUs examined per pull: $masks with masks (want <= 2), $full without"
