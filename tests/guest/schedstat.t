# schedstat records hackbench (pipes) under EEVDF and under scx_push: the EEVDF
# record has load_balance() calls at every sched domain level of the guest
# (MC, PKG, NUMA), the scx_push one has scx_push's pulls, and diff puts the
# two side by side.
. ./lib.sh
. ./scx_push.sh

command -v schedstat >/dev/null || fail "schedstat is not in the initramfs"
SCHEDSTATS=/proc/sys/kernel/sched_schedstats
VERBOSE=/sys/kernel/debug/sched/verbose
old_schedstats=$(cat "$SCHEDSTATS")
old_verbose=$(cat "$VERBOSE")
echo 1 >"$SCHEDSTATS" || fail "cannot enable schedstats"
echo Y >"$VERBOSE" || fail "cannot set sched/verbose (domain names)"
cd /tmp || fail "no /tmp"

# calls REPORT LEVEL: the load_balance() calls of LEVEL, all idle types.
calls() {
	sed -n "/^domain[0-9]* $2,/,/^$/p" "$1" |
		sed -n 's/^ *load_balance() calls, [a-z ]* *\([0-9]*\)$/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

schedstat record -o eevdf.data -- hackbench -p -g 2 -l 50 >/dev/null ||
	fail "record under EEVDF failed"
schedstat report eevdf.data >eevdf.report || fail "report of eevdf.data failed"
for level in MC PKG NUMA; do
	n=$(calls eevdf.report "$level")
	info "EEVDF: $n load_balance() calls at $level"
	[ "$n" -gt 0 ] || { cat eevdf.report; fail "EEVDF: no load_balance() call at $level"; }
done

scx_push_start -i 3600
schedstat record -o push.data --scx-json "$SCX_PUSH_JSON" --scx-pid "$SCX_PUSH_PID" -- \
	hackbench -p -g 2 -l 50 >/dev/null || fail "record under scx_push failed"
scx_push_stop
# the later tests run as they would without this one
echo "$old_schedstats" >"$SCHEDSTATS"
echo "$old_verbose" >"$VERBOSE"
schedstat report push.data >push.report || fail "report of push.data failed"
pulls=$(sed -n 's/^ *[a-z]*: pull_\(llc\|node\|remote\) *\([0-9]*\)$/\2/p' push.report |
	awk '{ s += $1 } END { print s + 0 }')
info "scx_push: $pulls pulls ($(grep -E '^ *[a-z]*: pull_(llc|node|remote) ' push.report | tr -s ' ' | tr '\n' ';'))"
[ "$pulls" -gt 0 ] || { cat push.report; fail "scx_push: no pull in the record"; }

schedstat diff eevdf.data push.data >diff.out || fail "diff failed: $(tail -n 2 diff.out)"
grep -q 'load_balance() calls' diff.out || fail "the diff has no load_balance() rows"
info "diff: $(grep -c '%$' diff.out) rows with a change in %"
