# The tree's sched_ext selftests, run by their own runner: every one passes,
# the existing ones as without the ext_server series (on this config all 21
# pass there too) and rt_stall and total_bw from the series.
. ./lib.sh

command -v "$SCX_SELFTESTS" >/dev/null || fail "$SCX_SELFTESTS is not in the initramfs"
"$SCX_SELFTESTS" -q >/tmp/selftests.out 2>&1
total=$(grep -c '^\(not \)\?ok [0-9]* ' /tmp/selftests.out)
failed=$(sed -n 's/^not ok [0-9]* \([^ ]*\).*/\1/p' /tmp/selftests.out | tr '\n' ' ')
skipped=$(grep -c '^ok [0-9]* .*# SKIP' /tmp/selftests.out)
info "$total selftests, $skipped skipped, failed: ${failed:-none}"
[ "$total" -ge 23 ] || { cat /tmp/selftests.out; fail "only $total selftests ran"; }
[ -z "$failed" ] || { cat /tmp/selftests.out; fail "selftests failed: $failed"; }
