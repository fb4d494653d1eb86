# scx_push refuses to start with a clear message and exit status 1, and loads
# nothing, on a bad option, without root, without sched_ext in the kernel and
# while another BPF scheduler is active; --help points to the design.
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
expect_refused "cannot write /nonexistent/x.json" scx_push --stats-json /nonexistent/x.json
expect_refused "needs root" su -s /bin/sh nobody -c "$(command -v scx_push)"
expect_refused "this kernel has no sched_ext" \
	unshare -m sh -c 'mount -t tmpfs none /sys/kernel && exec scx_push'
expect_eq "state after the refusals" "$(scx_state)" "disabled"

scx_simple >/dev/null 2>&1 &
simple=$!
wait_for_state enabled 20 || fail "scx_simple did not load"
expect_refused "another BPF scheduler is active (sched_ext state 'enabled', ops 'simple')" scx_push
expect_eq "ops still loaded" "$(cat "$SCX_OPS")" "simple"
kill -INT "$simple"
wait "$simple"
wait_for_state disabled 10 || fail "scx_simple did not unload"

help=$(scx_push --help) || fail "--help exited $?"
case "$help" in
*"comment at the top of scx/scx_push.bpf.c"*) ;;
*) fail "--help does not point to the design comment" ;;
esac
