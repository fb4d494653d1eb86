# scx_push loads (state enabled, ops scx_push), runs CPU-bound and wakeup-heavy
# work, and unloads cleanly on SIGINT (state disabled, no kernel error).
. ./lib.sh
. ./scx_push.sh

command -v scx_push >/dev/null || fail "scx_push is not in the initramfs"
dmesg_mark
scx_push_start

burners=""
for i in 1 2 3 4; do
	timeout 3 sh -c 'while :; do :; done' &
	burners="$burners $!"
done
hackbench -g 2 -f 5 -l 20 >/tmp/hackbench.log 2>&1 || { cat /tmp/hackbench.log; fail "hackbench failed"; }
for p in $burners; do wait "$p"; done
info "$(grep Time /tmp/hackbench.log)"
expect_eq "state under load" "$(scx_state)" "enabled"

scx_push_stop
expect_clean_dmesg
