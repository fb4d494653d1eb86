# The rt_stall scenario with scx_push loaded: a busy task (a SCX task, as
# scx_push schedules every SCHED_NORMAL task) next to a SCHED_FIFO hog on
# CPU 7 gets >= 4% of the CPU from the ext server, and < 1% when the ext
# server's runtime is 0 (the control: the server is what saves it).
. ./lib.sh
. ./scx_push.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
trap 'set_ext_runtime "$EXT_RUNTIME_NS"; scx_push_kill' EXIT

scx_push_start
out=$(rt_share 7) || fail "rt_share failed: $out"
info "scx_push, ext server 50ms/1s: $out"
share=$(field share "$out")
[ "${share%.*}${share#*.}" -ge 400 ] || fail "the SCX task got $share% next to the RT hog, want >= 4%"

set_ext_runtime 0 || fail "cannot set the ext server runtime to 0"
out=$(rt_share 7) || fail "rt_share failed: $out"
info "scx_push, ext server off: $out"
share=$(field share "$out")
[ "${share%.*}${share#*.}" -lt 100 ] || fail "the SCX task got $share% with the ext server off, want < 1%"
set_ext_runtime "$EXT_RUNTIME_NS"
expect_eq "state after the RT hogs" "$(scx_state)" "enabled"
scx_push_stop
