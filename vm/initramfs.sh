#!/usr/bin/env bash
# Pack the guest initramfs: busybox-static, vm/init, the guest tests and the
# given programs with the shared libraries they link against.
#
#   usage: initramfs.sh OUT.cpio [PROGRAM...]
#
# Programs land in /usr/local/bin; their libraries keep their host paths. The
# repository's tests/ directory is copied to /scx-push/tests, bench/guest/ to
# /scx-push/bench. The archive is an uncompressed newc cpio (unpacking gzip
# under TCG costs more than it saves).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BUSYBOX=${BUSYBOX:-/bin/busybox}

usage() { echo "usage: ${0##*/} OUT.cpio [PROGRAM...]"; }

install_busybox() {
	local root=$1 applet
	file -L "$BUSYBOX" | grep -q 'statically linked' ||
		die "$BUSYBOX is not static (install busybox-static: make deps)"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin}
	cp "$BUSYBOX" "$root/bin/busybox"
	while IFS= read -r applet; do
		[[ -e "$root/$applet" ]] || ln -s /bin/busybox "$root/$applet"
	done < <("$BUSYBOX" --list-full)
}

# Copy a file and, for an ELF program or library, every library it needs.
install_with_libs() {
	local root=$1 prog=$2 dest=$3 lib
	install -D -m 0755 "$prog" "$root$dest"
	file -L "$prog" | grep -q 'dynamically linked' || return 0
	while IFS= read -r lib; do
		[[ -e "$root$lib" ]] || install -D -m 0755 "$lib" "$root$lib"
	done < <(ldd "$prog" | awk '/=> \// { print $3 } /^\t\// { print $1 }')
}

install_base() {
	local root=$1
	mkdir -p "$root"/{dev,proc,sys,tmp,run,out,root,etc/scx-push,lib64}
	install -m 0755 "$SCX_PUSH_ROOT/vm/init" "$root/init"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' \
		>"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	mkdir -p "$root/scx-push"
	cp -r "$SCX_PUSH_ROOT/tests" "$root/scx-push/tests"
	cp -r "$SCX_PUSH_ROOT/bench/guest" "$root/scx-push/bench"
}

main() {
	local out=${1:-} root prog
	[[ -n "$out" && "$out" != -* ]] || { usage >&2; exit 1; }
	shift
	root="$out.d"
	rm -rf "$root"
	mkdir -p "$root"
	install_base "$root"
	install_busybox "$root"
	for prog in "$@"; do
		[[ -x "$prog" ]] || die "program $prog does not exist or is not executable"
		install_with_libs "$root" "$prog" "/usr/local/bin/${prog##*/}"
	done
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) >"$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$root"
}

main "$@"
