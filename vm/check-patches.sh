#!/usr/bin/env bash
# make check-patches: every patch of kernel-patches/series is checkpatch
# --strict clean, and the scheduler builds (make kernel/sched/) after each
# prefix of the series, with and without CONFIG_SCHED_CLASS_EXT.
#
# checkpatch's FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires on
# every new file; the files the series adds are under directories that
# MAINTAINERS already covers (tools/testing/selftests/sched_ext), so it is
# ignored. The prefix builds use a worktree of the kernel tree (check-src) and
# build directories of their own (variants check and noext), so the guest
# kernel's tree and build are not touched.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SERIES=${SERIES:-$SCX_PUSH_ROOT/kernel-patches/series}

run_checkpatch() {
	local src=$1 p bad=0
	shift
	for p in "$@"; do
		# spdxcheck.py needs Debian's python3 (python3-ply), not a pyenv one.
		if (cd "$src" && PATH="/usr/bin:$PATH" ./scripts/checkpatch.pl --strict -q \
			--ignore FILE_PATH_CHANGES "$p"); then
			echo "ok checkpatch ${p##*/}"
		else
			echo "not ok checkpatch ${p##*/}"
			bad=1
		fi
	done
	return $bad
}

build_prefixes() {
	local n=$1 i variant bad=0
	for ((i = 1; i <= n; i++)); do
		for variant in check noext; do
			if KERNEL_TREE=check-src SERIES_PREFIX=$i KERNEL_VARIANT=$variant \
				KERNEL_TARGETS=kernel/sched/ "$SCX_PUSH_ROOT/vm/kernel.sh" >/dev/null; then
				echo "ok build patches 1-$i $variant"
			else
				echo "not ok build patches 1-$i $variant"
				bad=1
			fi
		done
	done
	return $bad
}

main() {
	local src rc=0
	local -a patches
	mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SERIES")
	[[ ${#patches[@]} -gt 0 ]] || { msg "the series is empty"; return 0; }
	patches=("${patches[@]/#/$(dirname "$SERIES")/}")
	src=$("$SCX_PUSH_ROOT/vm/kernel.sh" --print-src)
	[[ -d "$src/.git" ]] || "$SCX_PUSH_ROOT/vm/kernel.sh" >/dev/null
	run_checkpatch "$src" "${patches[@]}" || rc=1
	build_prefixes "${#patches[@]}" || rc=1
	[[ $rc -eq 0 ]] && echo "check-patches: all passed" || echo "check-patches: FAILED"
	return $rc
}

main "$@"
