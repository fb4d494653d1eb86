# scx_push refuses to start with a clear message and exit status 1, and loads
# nothing, on a bad option, without root, without sched_ext in the kernel, on
# a malformed sysfs topology and while another BPF scheduler (or another
# scx_push, which keeps running) is active; of two started at once exactly
# one loads; --help points to the design.
. ./lib.sh
. ./scx_push.sh

# expect_refused WANT COMMAND: COMMAND exits 1 saying WANT; nothing loaded.
expect_refused() {
	local want=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -eq 1 ] || fail "'$*' exited $rc, want 1 ($out)"
	case "$out" in
	*"$want"*) ;;
	*) fail "'$*' said '$out', want '$want'" ;;
	esac
	info "$* -> $out"
}

expect_refused "-s: '5' is not a slice in microseconds" scx_push -s 5
expect_refused "-P: 'socket' is not a pull scope" scx_push -P socket
expect_refused "unknown option '--bogus'" scx_push --bogus
expect_refused "--capacity: " scx_push --capacity 0:0
expect_refused "--capacity: CPU 1023 does not exist" scx_push --capacity 1023:512
expect_refused "cannot write /nonexistent/x.json" scx_push --stats-json /nonexistent/x.json
expect_refused "needs root" su -s /bin/sh nobody -c "$(command -v scx_push)"
expect_refused "this kernel has no sched_ext" \
	unshare -m sh -c 'mount -t tmpfs none /sys/kernel && exec scx_push'
mkdir -p /tmp/bad-sysfs/devices/system/cpu
echo 0-x >/tmp/bad-sysfs/devices/system/cpu/possible
expect_refused "topology: possible CPUs '0-x': not a CPU list" \
	scx_push --sysfs-root /tmp/bad-sysfs
expect_eq "state after the refusals" "$(scx_state)" "disabled"

scx_simple >/dev/null 2>&1 &
simple=$!
wait_for_state enabled 20 || fail "scx_simple did not load"
expect_refused "another BPF scheduler is active (sched_ext state 'enabled', ops 'simple')" scx_push
expect_eq "ops still loaded" "$(cat "$SCX_OPS")" "simple"
kill -INT "$simple"
wait "$simple"
wait_for_state disabled 10 || fail "scx_simple did not unload"

# A second scx_push while one runs: refused before loading anything, and the
# first one keeps scheduling (its statistics file keeps being rewritten).
scx_push_start
expect_refused "another BPF scheduler is active (sched_ext state 'enabled', ops 'scx_push')" \
	scx_push --stats-json /tmp/second.json
[ ! -e /tmp/second.json ] || fail "the refused scx_push wrote its statistics file"
before=$(scx_push_stat enq)
sleep 3
kill -0 "$SCX_PUSH_PID" 2>/dev/null || fail "the first scx_push died"
expect_eq "ops after the second scx_push" "$(cat "$SCX_OPS")" "scx_push"
[ "$(scx_push_stat enq)" -gt "${before:-0}" ] ||
	fail "the first scx_push stopped counting enqueues (${before:-none} -> $(scx_push_stat enq))"
scx_push_stop

# Two started at once both pass the check above; the kernel lets one attach,
# the other says why it could not and exits 1 without leaving anything loaded.
scx_push >/tmp/first.log 2>&1 &
first=$!
scx_push >/tmp/second.log 2>&1 &
second=$!
trap 'kill -INT $first $second 2>/dev/null; wait' EXIT
one_exited() { ! kill -0 "$first" 2>/dev/null || ! kill -0 "$second" 2>/dev/null; }
wait_until 60 one_exited || fail "two concurrent scx_push both still run after 60 s"
if kill -0 "$first" 2>/dev/null; then
	winner=$first loser=$second loser_log=/tmp/second.log
else
	winner=$second loser=$first loser_log=/tmp/first.log
fi
wait "$loser"
rc=$?
cat "$loser_log"
expect_eq "exit status of the scx_push that lost" "$rc" 1
grep -q "cannot attach the scheduler: Device or resource busy\|another BPF scheduler is active" \
	"$loser_log" || fail "the losing scx_push did not say why: $(tail -n 1 "$loser_log")"
kill -0 "$winner" 2>/dev/null || fail "the winning scx_push is gone"
wait_for_state enabled 30 || fail "the winning scx_push did not enable: state '$(scx_state)'"
expect_eq "ops with the winner loaded" "$(cat "$SCX_OPS")" "scx_push"
kill -INT "$winner"
wait "$winner" || fail "the winning scx_push exited with status $?"
trap - EXIT
wait_for_state disabled 10 || fail "state is '$(scx_state)' after the winner unloaded"

help=$(scx_push --help) || fail "--help exited $?"
case "$help" in
*"comment at the top of scx/scx_push.bpf.c"*) ;;
*) fail "--help does not point to the design comment" ;;
esac
