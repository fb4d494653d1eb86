# The kernel has sched_ext, and no BPF scheduler is loaded at boot.
. ./lib.sh

[ -e "$SCX_STATE" ] || fail "$SCX_STATE missing: kernel without CONFIG_SCHED_CLASS_EXT"
expect_eq "sched_ext state" "$(scx_state)" "disabled"
[ ! -e "$SCX_OPS" ] || fail "a BPF scheduler is attached: $(cat "$SCX_OPS")"
