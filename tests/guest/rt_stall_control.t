# Negative control and dose response for rt_stall: the ext server is what
# keeps EXT tasks alive next to an RT hog. With its runtime 0 the EXT task
# gets < 1% (FAIR still >= 4%); with 100ms / 1s it gets 10% +- 2 points.
. ./lib.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"

# share PHASE: the share (in hundredths of a percent) printed for PHASE.
share() {
	sed -n "s/^rt_stall: phase $1 [A-Z]* share \([0-9]*\)\.\([0-9]*\)%.*/\1\2/p" \
		/tmp/selftest-rt_stall.out
}

restore() { set_ext_runtime "$EXT_RUNTIME_NS"; }
trap restore EXIT

set_ext_runtime 0 || fail "cannot set the ext server runtime to 0"
run_selftest rt_stall && fail "rt_stall passed with the ext server disabled"
grep 'rt_stall: phase' /tmp/selftest-rt_stall.out
for p in 2 4 5; do
	s=$(share $p)
	[ -n "$s" ] || fail "no share for phase $p"
	[ "$s" -lt 100 ] || fail "EXT phase $p got $s/100 % with the server off, want < 1%"
done
for p in 1 3; do
	[ "$(share $p)" -ge 400 ] || fail "FAIR phase $p got $(share $p)/100 %, want >= 4%"
done

set_ext_runtime 100000000 || fail "cannot set the ext server runtime to 100ms"
run_selftest rt_stall || { cat /tmp/selftest-rt_stall.out; fail "rt_stall failed at 100ms/1s"; }
grep 'rt_stall: phase' /tmp/selftest-rt_stall.out
for p in 2 4 5; do
	s=$(share $p)
	[ "$s" -ge 800 ] && [ "$s" -le 1200 ] ||
		fail "EXT phase $p got $s/100 % at 100ms/1s, want 10% +- 2"
done

restore
for d in "$EXT_SERVER"/cpu*; do
	expect_eq "${d##*/} runtime after restore" "$(cat "$d/runtime")" "$EXT_RUNTIME_NS"
done
