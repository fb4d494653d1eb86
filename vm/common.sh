# shellcheck shell=bash
# Settings and helpers shared by the vm/ scripts. Sourced, never run.
#
# Every setting is an UPPERCASE variable that the environment may override.

SCX_PUSH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Kernel trees, kernel builds and ccache live outside the repository, keyed by
# the Debian source version, so that a fresh clone reuses them.
SCX_PUSH_CACHE=${SCX_PUSH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scx-push}
KERNEL_VARIANT=${KERNEL_VARIANT:-default}
# Everything else the project builds goes to one directory in the clone:
# build/, or build-VARIANT/ for another kernel variant (BPF programs,
# selftests and the initramfs are built against that variant's vmlinux).
# This is the one place that says so: the Makefile and the host tests ask here.
if [[ $KERNEL_VARIANT == default ]]; then
	BUILD_DIR=${BUILD_DIR:-$SCX_PUSH_ROOT/build}
else
	BUILD_DIR=${BUILD_DIR:-$SCX_PUSH_ROOT/build-$KERNEL_VARIANT}
fi
JOBS=${JOBS:-$(($(nproc) + 1))}
LINUX_SOURCE_PKG=${LINUX_SOURCE_PKG:-linux-source-6.12}
LINUX_SOURCE_TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/$LINUX_SOURCE_PKG.tar.xz}

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# The Debian version of the kernel source, e.g. 6.12.118-1~deb12u1.
linux_source_version() {
	dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null ||
		die "$LINUX_SOURCE_PKG is not installed (run: make deps)"
}

# Directory of one Debian source version: src/ (git tree), build-<variant>/.
linux_dir() {
	local ver
	ver=$(linux_source_version)
	printf '%s/linux-%s\n' "$SCX_PUSH_CACHE" "${ver//\~/_}"
}

kernel_build_dir() { printf '%s/build-%s\n' "$(linux_dir)" "${1:-$KERNEL_VARIANT}"; }
# KERNEL_TREE=src is the guest kernel's tree; check-patches uses a git
# worktree of it (check-src) so that its prefix builds never touch it.
KERNEL_TREE=${KERNEL_TREE:-src}
kernel_src_dir() { printf '%s/%s\n' "$(linux_dir)" "$KERNEL_TREE"; }

# Run a command while holding the machine lock: kernel builds and guest boots
# need both cores, so concurrent ones (two checkouts, a helper session) queue.
MACHINE_LOCK=${MACHINE_LOCK:-/tmp/scx-push-machine.lock}
with_machine_lock() {
	local fd
	exec {fd}>>"$MACHINE_LOCK"
	if ! flock -n "$fd"; then
		msg "waiting for another build or guest to finish ($MACHINE_LOCK)"
		flock "$fd"
	fi
	"$@"
	local rc=$?
	exec {fd}>&-
	return $rc
}
