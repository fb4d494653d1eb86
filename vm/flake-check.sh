#!/usr/bin/env bash
# Boot the guest BOOTS times (default 30) and count how each boot ended, to
# measure how often the guest dies under TCG. Each boot loads scx_simple,
# runs a short load and unloads it (BPF JIT, struct_ops, many CPUs).
#
#   usage: flake-check.sh [BOOTS] [vm/run options...]
#
# Prints one line per boot and a summary; the logs of failed boots are kept
# in $BUILD_DIR/flake/. Exits 1 when any boot failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BOOT_CMD=${BOOT_CMD:-'scx_simple >/dev/null 2>&1 & sleep 2; hackbench -g 2 -f 5 -l 20 >/dev/null; kill -INT $!; wait; cat /sys/kernel/sched_ext/state'}

main() {
	local boots=${1:-30} i rc ok=0 early=0 late=0 timeout=0 other=0 dir log
	[[ "$boots" =~ ^[0-9]+$ && "$boots" -ge 1 ]] || die "BOOTS wants a positive integer, got '$boots'"
	shift || true
	dir="$BUILD_DIR/flake"
	mkdir -p "$dir"
	for ((i = 1; i <= boots; i++)); do
		log="$dir/boot-$i.log"
		rc=0
		# No retry here: a crash before the command started is what we count.
		NO_RETRY=1 "$SCX_PUSH_ROOT/vm/run" --timeout 180 --log "$log" "$@" -- "$BOOT_CMD" \
			>/dev/null 2>&1 || rc=$?
		if [[ $rc -eq 0 ]]; then
			ok=$((ok + 1)); rm -f "$log"; echo "boot $i: ok"
		elif [[ $rc -eq 125 ]] && ! grep -q '^SCX-PUSH-START' "$log"; then
			early=$((early + 1)); echo "boot $i: crashed before the command: $(grep -m1 -E 'Oops|BUG|panic' "$log")"
		elif [[ $rc -eq 125 ]]; then
			late=$((late + 1)); echo "boot $i: crashed during the command: $(grep -m1 -E 'Oops|BUG|panic' "$log")"
		elif [[ $rc -eq 124 ]]; then
			timeout=$((timeout + 1)); echo "boot $i: timed out"
		else
			other=$((other + 1)); echo "boot $i: command failed with status $rc"
		fi
	done
	echo "flake-check: $boots boots: $ok ok, $early crashed before the command," \
		"$late crashed during it, $timeout timed out, $other failed (logs: $dir)"
	[[ $ok -eq $boots ]]
}

main "$@"
