# The deadline servers' debugfs files under concurrent writers, while the
# servers work: scx_push is loaded and CPUs 6 and 7 each run a SCHED_FIFO hog
# next to a SCX task, so their ext servers keep throttling and replenishing.
# For WRITERS_S seconds (default 20) four writers put random runtimes and
# periods, valid and not, into the ext_server and fair_server files of random
# CPUs. Afterwards every server's parameters are valid (runtime <= period,
# 100us <= period <= ~4.19s), the SCX tasks next to the hogs got CPU time the
# whole while, scx_push was never ejected, putting every server back to its
# boot values gives the boot total_bw back, and the kernel logged nothing.
. ./lib.sh
. ./scx_push.sh
. ./soak.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
FAIR_SERVER=/sys/kernel/debug/sched/fair_server
WRITERS_S=${WRITERS_S:-20}
PERIOD_MIN=100000
PERIOD_MAX=4194304000
SERVERS=$(ls -d "$EXT_SERVER"/cpu* "$FAIR_SERVER"/cpu*)
NR_SERVERS=$(echo "$SERVERS" | wc -l)

# Runtimes and periods the writers pick from (ns): valid ones, others that
# break runtime <= period or the period's range, and ones that do not parse.
# Valid runtimes are >= 10 ms, so a server never falls below 0.24%.
RUNTIMES="10000000 50000000 200000000 2000000000 4194304001 -5 abc"
PERIODS="99999 100000 500000000 1000000000 4194304000 4194304001 1e9"

# pick LIST: sets PICK to a random word of LIST.
pick() {
	set -- $1
	rand $#
	shift "$RAND"
	PICK=$1
}

# writer N END: random writes until END (epoch seconds); prints its counts.
writer() {
	local ok=0 rejected=0 dir file
	SOAK_SEED=$1
	while [ "$(date +%s)" -lt "$2" ]; do
		pick "$SERVERS"
		dir=$PICK
		rand 2
		if [ "$RAND" -eq 0 ]; then
			file=runtime
			pick "$RUNTIMES"
		else
			file=period
			pick "$PERIODS"
		fi
		if { echo "$PICK" >"$dir/$file"; } 2>/dev/null; then
			ok=$((ok + 1))
		else
			rejected=$((rejected + 1))
		fi
	done
	echo "writer $1: $ok writes accepted, $rejected rejected"
}

# check_servers: every server's runtime and period are valid together.
check_servers() {
	local dir r p
	for dir in $SERVERS; do
		r=$(cat "$dir/runtime") p=$(cat "$dir/period")
		[ "$r" -le "$p" ] && [ "$p" -ge "$PERIOD_MIN" ] && [ "$p" -le "$PERIOD_MAX" ] ||
			fail "${dir#/sys/kernel/debug/sched/}: runtime $r, period $p"
	done
}

# restore: every server back to its boot runtime and period, through the
# widest period, which any runtime fits in.
restore() {
	local dir
	for dir in $SERVERS; do
		echo "$PERIOD_MAX" >"$dir/period" &&
			echo "$EXT_RUNTIME_NS" >"$dir/runtime" &&
			echo "$EXT_PERIOD_NS" >"$dir/period" || return 1
	done
}

for dir in $SERVERS; do
	expect_eq "${dir#/sys/kernel/debug/sched/} at boot" \
		"$(cat "$dir/runtime") $(cat "$dir/period")" "$EXT_RUNTIME_NS $EXT_PERIOD_NS"
done
boot_bw=$(total_bw_all | sort -u)
dmesg_mark

scx_push_start
trap 'restore; kill $hogs 2>/dev/null; scx_push_kill' EXIT
hogs=
for cpu in 6 7; do
	burn -c "$cpu" -t "$WRITERS_S" >"/tmp/writers-scx-$cpu.out" 2>&1 &
	hogs="$hogs $!"
	burn -f 50 -c "$cpu" -t "$((WRITERS_S + 1))" >/dev/null 2>&1 &
	hogs="$hogs $!"
done
end=$(($(date +%s) + WRITERS_S))
writers=
for n in 1 2 3 4; do
	writer "$n" "$end" >"/tmp/writer-$n.out" &
	writers="$writers $!"
done
wait $writers $hogs
cat /tmp/writer-*.out
info "$NR_SERVERS servers, $(cat /tmp/writer-*.out | sed 's/.*: \([0-9]*\) writes.*/\1/' |
	awk '{ n += $1 } END { print n }') writes accepted in ${WRITERS_S} s"
check_servers

for cpu in 6 7; do
	out=$(cat "/tmp/writers-scx-$cpu.out")
	info "SCX task next to the FIFO hog on CPU $cpu: $out"
	ms=$(field cpu_ms "$out")
	# the smallest valid share is 0.24%; starved would be 0: want >= 0.1%
	[ "${ms:-0}" -ge "$WRITERS_S" ] ||
		fail "the SCX task on CPU $cpu got ${ms:-no} ms in ${WRITERS_S} s next to the FIFO hog"
done
expect_eq "state after the writers" "$(scx_state)" "enabled"
expect_eq "scx_push restarts" "$(push_restarts)" 0

restore || fail "cannot put the servers back to their boot values"
trap scx_push_kill EXIT
expect_eq "total_bw after the writers" "$(total_bw_all | sort -u)" "$boot_bw"
scx_push_stop
expect_clean_dmesg
