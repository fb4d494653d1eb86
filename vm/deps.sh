#!/usr/bin/env bash
# Install the Debian packages the project needs, when any is missing.
# Nothing is downloaded from anywhere but the Debian archive.
set -euo pipefail

PACKAGES=(
	# kernel build
	linux-source-6.12 build-essential flex bison bc cpio xz-utils kmod
	libelf-dev libssl-dev dwarves ccache python3 python3-ply python3-git rsync file
	# BPF: clang 19 for sched_ext headers; libbpf/bpftool build deps
	clang-19 llvm-19 zlib1g-dev libzstd-dev libcap-dev pkg-config
	# guest: QEMU, busybox, workloads
	qemu-system-x86 busybox-static rt-tests stress-ng linux-perf
	# benchmark report
	gnuplot-nox
)

missing() {
	local p
	for p in "${PACKAGES[@]}"; do
		[[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" == installed ]] ||
			echo "$p"
	done
}

main() {
	local -a need
	mapfile -t need < <(missing)
	[[ ${#need[@]} -gt 0 ]] || return 0
	echo "deps: installing ${need[*]}" >&2
	[[ $(id -u) -eq 0 ]] || { echo "deps: need root to install: ${need[*]}" >&2; exit 1; }
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
	mapfile -t need < <(missing)
	[[ ${#need[@]} -eq 0 ]] || { echo "deps: still missing: ${need[*]}" >&2; exit 1; }
}

main "$@"
