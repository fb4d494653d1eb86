# /sys/kernel/debug/sched/ext_server/cpuN/{runtime,period}: defaults 50ms /
# 1s; every bad write fails with the right errno and changes nothing; a good
# write after them still works.
. ./lib.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
d=$EXT_SERVER/cpu2
expect_eq "cpu directories" "$(ls -d "$EXT_SERVER"/cpu* | wc -l)" \
	"$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)"
expect_eq "default runtime" "$(cat $d/runtime)" "$EXT_RUNTIME_NS"
expect_eq "default period" "$(cat $d/period)" "$EXT_PERIOD_NS"

# bad_write FILE VALUE ERRNO_TEXT: the write fails with ERRNO_TEXT and both
# values read back unchanged.
bad_write() {
	local out
	# busybox echo, unlike its printf, reports the write's errno.
	out=$( (echo "$2" >"$1") 2>&1) && fail "writing '$2' to ${1#$EXT_SERVER/} succeeded"
	case "$out" in
	*"$3"*) ;;
	*) fail "writing '$2' to ${1#$EXT_SERVER/}: '$out', want '$3'" ;;
	esac
	expect_eq "runtime after '$2'" "$(cat "${1%/*}/runtime")" "$EXT_RUNTIME_NS"
	expect_eq "period after '$2'" "$(cat "${1%/*}/period")" "$EXT_PERIOD_NS"
}

bad_write $d/runtime 2000000000 "Invalid argument"		# runtime > period
bad_write $d/period 99999 "Invalid argument"			# period < 100us
bad_write $d/period 5000000000 "Invalid argument"		# period > ~4s
bad_write $d/runtime -1 "Invalid argument"
bad_write $d/runtime abc "Invalid argument"
bad_write $d/period "" "Invalid argument"			# just a newline
bad_write $d/runtime 99999999999999999999999 "Numerical result out of range"

echo 0 >/sys/devices/system/cpu/cpu3/online || fail "cannot offline CPU 3"
bad_write $EXT_SERVER/cpu3/runtime 40000000 "Device or resource busy"
echo 1 >/sys/devices/system/cpu/cpu3/online || fail "cannot online CPU 3"

echo 40000000 >$d/runtime || fail "a good runtime write failed"
expect_eq "runtime after a good write" "$(cat $d/runtime)" 40000000
echo "$EXT_RUNTIME_NS" >$d/runtime || fail "restoring the runtime failed"
expect_eq "runtime restored" "$(cat $d/runtime)" "$EXT_RUNTIME_NS"
