# Runs last: since boot, the kernel logged no warning, BUG, oops, lockdep
# splat, RCU stall or hung task, and no error-level message after boot.
. ./lib.sh

errors=$(dmesg -r | grep -E 'WARNING:|BUG:|Oops|circular locking|lockdep|rcu.*(stall|self-detected)|INFO: task')
[ -z "$errors" ] || { echo "$errors"; fail "kernel log: $(echo "$errors" | head -n 1)"; }
info "$(dmesg | wc -l) kernel log lines, none of them a warning"
