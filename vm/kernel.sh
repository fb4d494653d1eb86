#!/usr/bin/env bash
# Build the guest kernel: Debian's linux-source-6.12 + kernel-patches/series +
# vm/kernel.config, with ccache, outside the repository.
#
#   <cache>/linux-<debver>/src           git tree: commit "base" = the tarball,
#                                        branch "series" = base + our patches
#   <cache>/linux-<debver>/build-<var>/  O= build directory of one variant
#   <cache>/ccache                       compiler cache shared by all builds
#
# Each step is skipped when its inputs did not change (a stamp holds the hash of
# the inputs), so an unchanged tree is a no-op and a changed patch recompiles
# only the files the series touches. The stamps are checked first without the
# machine lock, which is only taken when a step has work to do: an up-to-date
# kernel does not wait for a running guest. Prints the build directory on
# stdout.
#
# Variants: default (vm/kernel.config), check (the same config in its own
# build directory, for check-patches), and NAME for vm/kernel-NAME.config
# merged on top: noext (without SCHED_CLASS_EXT, for check-patches),
# textpoke (runtime code patching, to measure the TCG flake), debug (lockdep,
# preemption and object checkers), kasan (KASAN).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SERIES=${SERIES:-$SCX_PUSH_ROOT/kernel-patches/series}
# Apply only the first N patches of the series (check-patches); empty = all.
SERIES_PREFIX=${SERIES_PREFIX:-}
KERNEL_TARGETS=${KERNEL_TARGETS:-bzImage vmlinux}
GIT_ID=(-c user.name="scx-push developers" -c user.email="scx-push@example.org"
	-c advice.detachedHead=false -c core.autocrlf=false)

usage() {
	cat <<USAGE
usage: ${0##*/} [--stamp FILE | --print-dir | --print-src]
Builds bzImage and vmlinux for KERNEL_VARIANT=$KERNEL_VARIANT into
$(kernel_build_dir). --stamp FILE also writes what
identifies the build into FILE, touching it only when that changed (for make).
--print-dir and --print-src only print the build and the source directory.
USAGE
}

hash_files() { cat "$@" | sha256sum | cut -c1-16; }

# The patches to apply, in order, as paths.
series_patches() {
	local line n=0
	[[ -f "$SERIES" ]] || return 0
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[[ -n "$line" ]] || continue
		n=$((n + 1))
		[[ -z "$SERIES_PREFIX" || $n -le $SERIES_PREFIX ]] || break
		[[ -f "$(dirname "$SERIES")/$line" ]] ||
			die "series names $line, which does not exist"
		printf '%s\n' "$(dirname "$SERIES")/$line"
	done <"$SERIES"
}

# The stamps of a tree live in its git directory (a worktree has its own).
tree_stamp() { printf '%s/scx-push-%s\n' "$(git -C "$(kernel_src_dir)" rev-parse --absolute-git-dir)" "$1"; }

# source_current: the tarball is extracted and the worktree exists.
source_current() {
	local main
	main="$(linux_dir)/src"
	[[ -f "$main/.git/scx-push-extracted" ]] &&
		[[ "$(kernel_src_dir)" == "$main" || -e "$(kernel_src_dir)/.git" ]]
}

extract_source() {
	local main="$(linux_dir)/src" src
	src=$(kernel_src_dir)
	if [[ ! -f "$main/.git/scx-push-extracted" ]]; then
		[[ -r "$LINUX_SOURCE_TARBALL" ]] || die "$LINUX_SOURCE_TARBALL missing (run: make deps)"
		msg "extracting $LINUX_SOURCE_TARBALL"
		rm -rf "$main"
		mkdir -p "$main"
		tar -xJf "$LINUX_SOURCE_TARBALL" -C "$main" --strip-components=1
		msg "recording the pristine tree in git"
		git -C "$main" init -q
		git -C "$main" add -A -f
		git "${GIT_ID[@]}" -C "$main" commit -q -m "Debian $LINUX_SOURCE_PKG $(linux_source_version)"
		git -C "$main" tag base
		touch "$main/.git/scx-push-extracted"
	fi
	if [[ "$src" != "$main" && ! -e "$src/.git" ]]; then
		msg "adding the worktree $KERNEL_TREE"
		git -C "$main" worktree prune
		git -C "$main" worktree add -q -f --detach "$src" base
	fi
}

# load_series: PATCHES, the patches to apply, and SERIES_KEY, their hash.
# Dies when the series names a missing patch.
load_series() {
	local list
	list=$(series_patches) || exit 1
	mapfile -t PATCHES < <(printf '%s' "${list:+$list$'\n'}")
	SERIES_KEY=$( { echo "${#PATCHES[@]}"; [[ ${#PATCHES[@]} -eq 0 ]] || cat "${PATCHES[@]}"; } |
		sha256sum | cut -c1-16)
}

# series_current: the tree is base + the series, with no other change.
series_current() {
	local stamp
	stamp=$(tree_stamp series)
	[[ -f "$stamp" && "$(cat "$stamp")" == "$SERIES_KEY" ]] &&
		git -C "$(kernel_src_dir)" diff --quiet HEAD
}

# Check out base + the series. Files a previous series touched are restored by
# git (new mtime, so make rebuilds them); untouched files keep their mtime.
apply_series() {
	local src stamp p
	series_current && return 0
	src=$(kernel_src_dir)
	stamp=$(tree_stamp series)
	msg "applying ${#PATCHES[@]} patch(es) from ${SERIES#"$SCX_PUSH_ROOT"/}"
	rm -f "$stamp"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git "${GIT_ID[@]}" -C "$src" checkout -q -f -B "series-$KERNEL_TREE" base
	git -C "$src" clean -q -fdx
	for p in "${PATCHES[@]}"; do
		if ! git "${GIT_ID[@]}" -C "$src" am -q --whitespace=nowarn "$p" >&2; then
			git -C "$src" am --abort >/dev/null 2>&1 || true
			die "patch ${p##*/} does not apply to $LINUX_SOURCE_PKG $(linux_source_version)"
		fi
	done
	echo "$SERIES_KEY" >"$stamp"
}

# vm/kernel.config, then vm/kernel-$KERNEL_VARIANT.config for any variant
# but default and check (the same config in another build directory).
fragments() {
	local extra="$SCX_PUSH_ROOT/vm/kernel-$KERNEL_VARIANT.config"
	echo "$SCX_PUSH_ROOT/vm/kernel.config"
	case "$KERNEL_VARIANT" in
	default | check) ;;
	*)
		[[ -f "$extra" ]] || die "unknown KERNEL_VARIANT '$KERNEL_VARIANT': no ${extra#"$SCX_PUSH_ROOT"/}"
		echo "$extra"
		;;
	esac
}

# Every setting of the fragments (the last one of a symbol wins, as in
# merge_config.sh) must hold in the final .config.
verify_config() {
	local config=$1 line sym want bad=0
	local -A wanted=()
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		wanted[$sym]=$line
	done < <(fragments | xargs cat)
	for sym in "${!wanted[@]}"; do
		want=${wanted[$sym]}
		if [[ "$want" == *"=n" || "$want" == "# "* ]]; then
			grep -q "^$sym=" "$config" || continue
		elif grep -qx "$want" "$config"; then
			continue
		fi
		msg "config: wanted '$want', got '$(grep -E "^(# )?$sym[= ]" "$config" || echo "$sym absent")'"
		bad=1
	done
	[[ $bad -eq 0 ]] || die "the config fragment did not apply; fix vm/kernel*.config"
}

# config_key: the hash of what the .config is made from.
config_key() {
	local -a frags
	mapfile -t frags < <(fragments)
	{ echo "$KERNEL_VARIANT $(kernel_src_dir)"; cat "$(tree_stamp series)" "${frags[@]}"; } |
		sha256sum | cut -c1-16
}

config_current() {
	local out
	out=$(kernel_build_dir)
	[[ -f "$out/.scx-push-config" && "$(cat "$out/.scx-push-config")" == "$(config_key)" &&
		-f "$out/.config" ]]
}

# tinyconfig + fragments -> .config, only rewritten when its inputs changed.
configure() {
	local src out key stamp tmp
	local -a frags
	config_current && return 0
	src=$(kernel_src_dir)
	out=$(kernel_build_dir)
	mapfile -t frags < <(fragments)
	key=$(config_key)
	stamp="$out/.scx-push-config"
	msg "configuring $KERNEL_VARIANT: tinyconfig + ${frags[*]##*/}"
	mkdir -p "$out"
	tmp="$out/.config-scx-push"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	make -s -C "$src" O="$tmp" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "${frags[@]}" >/dev/null
	make -s -C "$src" O="$tmp" olddefconfig >/dev/null
	verify_config "$tmp/.config"
	if ! cmp -s "$tmp/.config" "$out/.config"; then
		cp "$tmp/.config" "$out/.config"
	fi
	rm -rf "$tmp"
	echo "$key" >"$stamp"
}

full_build() { [[ "$KERNEL_TARGETS" == "bzImage vmlinux" ]]; }
build_key() { cat "$(tree_stamp series)" "$(kernel_build_dir)/.scx-push-config" | sha256sum | cut -c1-16; }

# Only a full build (bzImage vmlinux) is stamped: partial targets
# (check-patches builds kernel/sched/) always go through make.
compile_current() {
	local out
	out=$(kernel_build_dir)
	full_build && [[ -f "$out/.scx-push-built" && "$(cat "$out/.scx-push-built")" == "$(build_key)" &&
		-f "$out/vmlinux" && -f "$out/arch/x86/boot/bzImage" ]]
}

compile() {
	local src out key stamp full=0
	compile_current && return 0
	src=$(kernel_src_dir)
	out=$(kernel_build_dir)
	full_build && full=1
	key=$(build_key)
	stamp="$out/.scx-push-built"
	rm -f "$stamp"
	msg "building $KERNEL_TARGETS ($KERNEL_VARIANT, -j$JOBS, ccache in $SCX_PUSH_CACHE/ccache)"
	export CCACHE_DIR="$SCX_PUSH_CACHE/ccache" CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	# Reproducible build metadata keeps ccache hits across rebuilds.
	KBUILD_BUILD_TIMESTAMP=$(date -u -r "$LINUX_SOURCE_TARBALL")
	export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=scx-push KBUILD_BUILD_HOST=scx-push
	# shellcheck disable=SC2086 # KERNEL_TARGETS is a word list
	make -C "$src" O="$out" -j"$JOBS" CC="ccache gcc" ${V:+V=$V} ${V:-"-s"} \
		$KERNEL_TARGETS >&2
	[[ $full -eq 0 ]] || echo "$key" >"$stamp"
}

# Every step checks its stamp again: another build may have done the work
# while this one waited for the lock.
build() {
	extract_source
	apply_series
	configure
	compile
}

# up_to_date: no step has work to do. Checked without the lock: a build that
# runs meanwhile removes a step's stamp before it changes that step's output,
# so this finds work to do and waits for the lock rather than taking a
# half-built kernel for a current one.
up_to_date() { source_current && series_current && config_current && compile_current; }

# write_stamp FILE: the build directory, the build's key and vmlinux's mtime
# into FILE, which is left alone (mtime too) when they did not change.
write_stamp() {
	local out id
	out=$(kernel_build_dir)
	id="$out $(cat "$out/.scx-push-built" 2>/dev/null) $(stat -c %Y "$out/vmlinux")"
	[[ -f "$1" && "$(cat "$1")" == "$id" ]] && return 0
	mkdir -p "$(dirname "$1")"
	echo "$id" >"$1"
}

main() {
	local stamp=""
	case "${1:-}" in
	-h | --help) usage; return 0 ;;
	--print-dir) kernel_build_dir; return 0 ;;
	--print-src) kernel_src_dir; return 0 ;;
	--stamp) stamp=${2:-}; [[ -n "$stamp" ]] || { usage >&2; return 1; } ;;
	"") ;;
	*) usage >&2; return 1 ;;
	esac
	# A bad variant or series dies here, before anything is locked or touched.
	fragments >/dev/null
	load_series
	up_to_date || with_machine_lock build
	[[ -z "$stamp" ]] || write_stamp "$stamp"
	kernel_build_dir
}

main "$@"
