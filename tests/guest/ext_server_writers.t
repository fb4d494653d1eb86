# The deadline servers' debugfs files under concurrent writers, while the
# servers work: scx_push is loaded and CPUs 6 and 7 each run a SCHED_FIFO hog
# next to a SCX task, so their ext servers keep throttling and replenishing.
# For WRITERS_S seconds (default 20) four writers put random runtimes and
# periods, valid and not, into the ext_server and fair_server files of random
# CPUs. Afterwards every server's parameters are valid (runtime <= period,
# 100us <= period <= ~4.19s), scx_push was never ejected, putting every
# server back to its boot values gives the boot total_bw back, the servers of
# CPUs 6 and 7 serve their SCX tasks again (>= 60 ms in 3 s, 2%; 50 ms a
# second is the boot share, after a zero-laxity wait of up to 950 ms), and
# the kernel logged nothing.
#
# What the SCX tasks get during the storm is reported, not checked: every
# accepted write starts a new period for its server (as for the fair server,
# dl_server_apply_params() sets the deadline to 0), so a deferred server waits
# for zero laxity again, up to period - runtime (~4.18 s here). Writes to one
# server that come faster than that hold it off, and a run measured 10 ms in
# 20 s for one task where others got 8 s.
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
trap 'restore; kill $hogs $scx 2>/dev/null; scx_push_kill' EXIT
hogs= scx=
for cpu in 6 7; do
	burn -c "$cpu" -t "$((WRITERS_S + 30))" >/dev/null 2>&1 &
	scx="$scx $!"
	burn -f 50 -c "$cpu" -t "$((WRITERS_S + 30))" >/dev/null 2>&1 &
	hogs="$hogs $!"
done
# exec_ms: the CPU time of every SCX task next to a hog, in ms, one line.
exec_ms() {
	local pid
	for pid in $scx; do printf '%s ' "$(sum_exec_ms "$pid")"; done
}
before=$(exec_ms)
end=$(($(date +%s) + WRITERS_S))
writers=
for n in 1 2 3 4; do
	writer "$n" "$end" >"/tmp/writer-$n.out" &
	writers="$writers $!"
done
wait $writers
during=$(exec_ms)
cat /tmp/writer-*.out
info "$NR_SERVERS servers, $(cat /tmp/writer-*.out | sed 's/.*: \([0-9]*\) writes.*/\1/' |
	awk '{ n += $1 } END { print n }') writes accepted in ${WRITERS_S} s"
info "SCX tasks next to the FIFO hogs on CPUs 6 7 during the writers: $(echo $before $during |
	awk '{ print $3 - $1 " ms, " $4 - $2 " ms" }') in ${WRITERS_S} s"
check_servers
expect_eq "state after the writers" "$(scx_state)" "enabled"
expect_eq "scx_push restarts" "$(push_restarts)" 0

restore || fail "cannot put the servers back to their boot values"
before=$(exec_ms)
sleep 3
after=$(exec_ms)
kill $hogs $scx 2>/dev/null
wait $hogs $scx 2>/dev/null
trap scx_push_kill EXIT
set -- $before $after
for cpu in 6 7; do
	ms=$(($3 - $1))
	info "SCX task next to the FIFO hog on CPU $cpu: $ms ms in the 3 s after the servers were put back"
	[ "$ms" -ge 60 ] || fail "the SCX task on CPU $cpu got $ms ms in 3 s after the servers were put back, want >= 60"
	shift
done
expect_eq "total_bw after the writers" "$(total_bw_all | sort -u)" "$boot_bw"
scx_push_stop
expect_clean_dmesg
