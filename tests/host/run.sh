#!/usr/bin/env bash
# Host test runner: runs every tests/host/*.test (bash) in name order, prints
# "ok N name" / "not ok N name: reason" per test and "N passed, N failed[, N
# skipped]"; exits 1 when a test failed. Exit status 77 is a skip. The reason
# is the test's last "FAIL:" or "SKIP:" line; other output is shown as "# ".
set -uo pipefail
cd "$(dirname "$0")"

main() {
	local n=0 pass=0 failed=0 skipped=0 t name out rc reason
	out=$(mktemp)
	[[ $# -gt 0 ]] || set -- *.test
	for t in "$@"; do
		name=${t%.test}
		n=$((n + 1))
		bash "$name.test" >"$out" 2>&1
		rc=$?
		sed -e '/^FAIL: /d' -e '/^SKIP: /d' -e 's/^/# /' "$out"
		reason=$(sed -n -e 's/^FAIL: //p' -e 's/^SKIP: //p' "$out" | tail -n 1)
		case $rc in
		0) echo "ok $n $name"; pass=$((pass + 1)) ;;
		77) echo "ok $n $name # SKIP ${reason:-no reason given}"; skipped=$((skipped + 1)) ;;
		*) echo "not ok $n $name: ${reason:-exit status $rc}"; failed=$((failed + 1)) ;;
		esac
	done
	rm -f "$out"
	if [[ $skipped -gt 0 ]]; then
		echo "$pass passed, $failed failed, $skipped skipped"
	else
		echo "$pass passed, $failed failed"
	fi
	[[ $failed -eq 0 ]]
}

main "$@"
