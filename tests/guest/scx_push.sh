# Helpers for the scx_push guest tests (busybox sh), sourced after lib.sh.
#
# scx_push_start loads the scheduler in the background with its log in
# $SCX_PUSH_LOG and its counters in $SCX_PUSH_JSON; scx_push_stop unloads it
# and fails the test unless it went away cleanly.

SCX_PUSH_LOG=/tmp/scx_push.log
SCX_PUSH_JSON=/tmp/scx_push.json

# scx_push_start [OPTION...]: load scx_push and wait until it schedules.
scx_push_start() {
	expect_eq "sched_ext state before loading scx_push" "$(scx_state)" "disabled"
	rm -f "$SCX_PUSH_JSON"
	scx_push --stats-json "$SCX_PUSH_JSON" "$@" >"$SCX_PUSH_LOG" 2>&1 &
	SCX_PUSH_PID=$!
	# a failing test must not leave the scheduler to the next one
	trap scx_push_kill EXIT
	if ! wait_for_state enabled 20; then
		cat "$SCX_PUSH_LOG"
		fail "scx_push $*: state is '$(scx_state)', not enabled"
	fi
	expect_eq "ops name" "$(cat "$SCX_OPS")" "scx_push"
}

# scx_push_kill: unload scx_push if it still runs (the EXIT trap).
scx_push_kill() {
	kill -0 "$SCX_PUSH_PID" 2>/dev/null || return 0
	kill -INT "$SCX_PUSH_PID"
	wait "$SCX_PUSH_PID"
	wait_for_state disabled 10
}

# scx_push_stop: SIGINT, then expect exit status 0 after a clean unregistration.
scx_push_stop() {
	local rc
	kill -INT "$SCX_PUSH_PID"
	wait "$SCX_PUSH_PID"
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^EXIT: unregistered from user space' "$SCX_PUSH_LOG"; then
		cat "$SCX_PUSH_LOG"
		fail "scx_push exited with status $rc: $(grep '^EXIT' "$SCX_PUSH_LOG")"
	fi
	trap - EXIT
	wait_for_state disabled 10 || fail "state is '$(scx_state)' after unloading scx_push"
}

# scx_push_stat NAME: a value of the last --stats-json write (totals on exit).
scx_push_stat() {
	sed -n "s/^ *\"$1\": \([0-9.]*\).*/\1/p" "$SCX_PUSH_JSON"
}

# scx_push_overloaded: the CPUs in the overloaded masks now (SIGUSR1 report).
scx_push_overloaded() {
	local before
	before=$(mask_reports)
	kill -USR1 "$SCX_PUSH_PID"
	wait_until 5 mask_reports_above "$before" || fail "scx_push did not report after SIGUSR1"
	grep ' mask: ' "$SCX_PUSH_LOG" | tail -n 1 | sed 's/.* overloaded=//'
}
mask_reports() { grep -c ' mask: ' "$SCX_PUSH_LOG"; }
mask_reports_above() { [ "$(mask_reports)" -gt "$1" ]; }

# field NAME LINE: the value of NAME=value in LINE (burn and spread output).
field() {
	echo " $2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"
}

# cpus_expand LIST: "0-2,5" -> "0 1 2 5"
cpus_expand() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r first last; do
		seq "$first" "${last:-$first}"
	done | tr '\n' ' '
}

# scx_push_levels: the balancing levels of the topology scx_push loaded with
# (its "topology:" line), among "llc node remote": an LLC of one CPU has no
# LLC level, a node of one LLC no node level, a single node no remote one.
# Status 1, and why on stdout, without that line.
scx_push_levels() {
	local line cpus nodes llcs levels=""
	line=$(grep '^topology: ' "$SCX_PUSH_LOG")
	cpus=$(echo "$line" | sed -n 's/^topology: \([0-9]*\) CPUs online.*/\1/p')
	nodes=$(echo "$line" | sed -n 's/.*, \([0-9]*\) NUMA nodes*,.*/\1/p')
	llcs=$(echo "$line" | sed -n 's/.*, \([0-9]*\) LLCs*,.*/\1/p')
	if [ -z "$cpus" ] || [ -z "$nodes" ] || [ -z "$llcs" ]; then
		echo "no topology line in the scx_push log: '$line'"
		return 1
	fi
	[ "$cpus" -le "$llcs" ] || levels="llc"
	[ "$llcs" -le "$nodes" ] || levels="$levels node"
	[ "$nodes" -le 1 ] || levels="$levels remote"
	echo $levels
}
