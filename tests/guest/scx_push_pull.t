# Pull: one busy task per CPU, started on CPU 0 and then allowed on every
# CPU, spread over all CPUs within PULL_LIMIT_MS with pull alone (--no-push
# --no-busy), pulling at every level the topology has below "remote"
# (LLC, node), and with every mechanism on; without push, pull and busy
# balance (control) they stay where they are. Prints the mean number of CPUs
# a successful pull examined and the mean cost of a pull attempt, with the
# overloaded masks and with --scan full. Any guest shape (vm/run --cpus
# --nodes --llcs): the counts follow the online CPUs.
. ./lib.sh
. ./scx_push.sh

PULL_LIMIT_MS=${PULL_LIMIT_MS:-1000}
NR=$(nproc)
LAST=$((NR - 1))

# imbalance: spread's report for NR tasks released from CPU 0 to every CPU.
imbalance() {
	spread -n "$NR" -f 0 -t "0-$LAST" -w $((PULL_LIMIT_MS + 500))
}

expect_spread() {
	local what=$1 out=$2 ms
	ms=$(field spread_ms "$out")
	[ "$ms" -ge 0 ] && [ "$ms" -le "$PULL_LIMIT_MS" ] ||
		fail "$what: not spread over $NR CPUs within $PULL_LIMIT_MS ms ($out)"
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
levels=$(scx_push_levels) || fail "$levels"
for level in $levels; do
	[ "$level" != remote ] || continue	# remote pulls wait REMOTE_WAIT_NS: not asserted
	n=$(scx_push_stat "pull_$level")
	[ "$n" -gt 0 ] || fail "pull only: no pull at the $level level ($(grep '^total pull' "$SCX_PUSH_LOG"))"
done
info "pull only: pulled $(scx_push_stat pull_llc) in the LLC, $(scx_push_stat pull_node) in the node, $(scx_push_stat pull_remote) from the other node"
masks=$(scx_push_stat scan_per_pull)
masks_ns=$(scx_push_stat ns_per_pull)

scx_push_start
expect_spread "push and pull" "$(imbalance)"
scx_push_stop

scx_push_start --no-push --no-busy --scan full
expect_spread "pull only, --scan full" "$(imbalance)"
scx_push_stop
full=$(scx_push_stat scan_per_pull)
full_ns=$(scx_push_stat ns_per_pull)

info "CPUs examined per successful pull on $NR CPUs: $masks with the masks, $full with --scan full"
info "ns per pull on $NR CPUs: $masks_ns with the masks, $full_ns with --scan full"
awk -v m="$masks" -v f="$full" 'BEGIN { exit !(m <= 2 && f > m) }' ||
	fail "CPUs examined per pull: $masks with masks (want <= 2), $full without"
