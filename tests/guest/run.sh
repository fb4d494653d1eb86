#!/bin/sh
# Guest test runner: runs the named tests (default: every test in the suite
# file, in order), prints "ok N name" or "not ok N name: reason" per test and
# "N passed, N failed[, N skipped]" at the end; exits 1 when a test failed.
#
# A test is tests/guest/NAME.t. Exit status 0 is a pass, 77 a skip, anything
# else a failure; the reason is the test's last "FAIL:"/"SKIP:" line. A test
# that runs longer than TEST_TIMEOUT seconds (default 300) is killed and fails.

cd "$(dirname "$0")" || exit 2
TEST_TIMEOUT=${TEST_TIMEOUT:-300}

usage() { echo "usage: run.sh [-l] [TEST...]   (-l lists the suite)"; }

suite() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' suite; }

run_one() {
	local n=$1 name=$2 out rc reason
	out=/tmp/test-$name.out
	if [ ! -f "$name.t" ]; then
		echo "not ok $n $name: no such test (see run.sh -l)"
		return 1
	fi
	timeout -s KILL "$TEST_TIMEOUT" sh "./$name.t" >"$out" 2>&1
	rc=$?
	sed -e '/^FAIL: /d' -e '/^SKIP: /d' -e 's/^/# /' "$out"
	reason=$(sed -n -e 's/^FAIL: //p' -e 's/^SKIP: //p' "$out" | tail -n 1)
	case $rc in
	0) echo "ok $n $name"; return 0 ;;
	77) echo "ok $n $name # SKIP ${reason:-no reason given}"; return 77 ;;
	137) reason="killed after ${TEST_TIMEOUT}s" ;;
	esac
	echo "not ok $n $name: ${reason:-exit status $rc}"
	return 1
}

main() {
	local n=0 pass=0 failed=0 skipped=0 name rc
	case "${1:-}" in
	-h | --help) usage; return 0 ;;
	-l) suite; return 0 ;;
	esac
	[ $# -gt 0 ] || set -- $(suite)
	for name in "$@"; do
		n=$((n + 1))
		run_one "$n" "$name"
		rc=$?
		case $rc in
		0) pass=$((pass + 1)) ;;
		77) skipped=$((skipped + 1)) ;;
		*) failed=$((failed + 1)) ;;
		esac
	done
	if [ "$skipped" -gt 0 ]; then
		echo "$pass passed, $failed failed, $skipped skipped"
	else
		echo "$pass passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}

main "$@"
