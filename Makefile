# scx-push: build, boot and test a sched_ext push/pull scheduler and an ext
# deadline server for Linux 6.12 in a QEMU guest. `make help` lists the targets.
#
# Outputs go to $(BUILD); the kernel tree, its builds and ccache go to
# $(SCX_PUSH_CACHE) (see vm/common.sh), outside the clone.

KERNEL_VARIANT ?= default
# build/, or build-VARIANT/ for another kernel variant: vm/common.sh decides,
# for make and the scripts alike (BUILD_DIR in the environment overrides it).
ifeq ($(origin BUILD),undefined)
BUILD := $(shell KERNEL_VARIANT='$(KERNEL_VARIANT)' bash -c 'source vm/common.sh && echo "$$BUILD_DIR"')
endif
$(if $(BUILD),,$(error vm/common.sh gave no build directory))
CLANG          ?= clang-19
V              ?=
export BUILD_DIR := $(BUILD)
export KERNEL_VARIANT V

Q := $(if $(V),,@)
# $(call quiet_msg,WHAT,FILE): the one-line progress message of a quiet build.
quiet_msg = $(if $(V),,@printf '  %-10s %s\n' '$(1)' '$(patsubst $(BUILD)/%,%,$(2))')
MAKEFLAGS += --no-print-directory

# Evaluated when a recipe runs, after `deps` installed linux-source.
KSRC    = $(shell vm/kernel.sh --print-src)
KBUILD  = $(shell vm/kernel.sh --print-dir)
SCX_OUT := $(BUILD)/sched_ext
SCX_BIN := $(SCX_OUT)/build/bin

# Stamps stand for work that scripts and sub-makes do, so that what depends
# on it is rebuilt only when it changed: the packages, the kernel (its stamp
# changes only when the kernel did) and the BPF toolchain built from it.
DEPS_STAMP   := $(BUILD)/.stamp-deps
KERNEL_STAMP := $(BUILD)/.stamp-kernel
BPF_STAMP    := $(BUILD)/.stamp-bpf

# Programs packed into the guest initramfs next to busybox.
GUEST_PROGS = $(SCX_BIN)/scx_simple /usr/bin/hackbench

# scx_push: the BPF scheduler, its loader, its unit tests and the static guest
# test helpers (the loader and helpers are added to GUEST_PROGS).
include scx/scx.mk loader/loader.mk tests/host/unit.mk tests/guest/helpers/helpers.mk

# The benchmarks: workload programs for the initramfs, `bench`, `bench-quick`.
include bench/bench.mk

# The tree's sched_ext selftests (with rt_stall and total_bw from our series),
# built against our vmlinux; the runner is scx_selftests in the guest.
SELFTESTS_OUT := $(BUILD)/selftests
GUEST_PROGS += $(SELFTESTS_OUT)/scx_selftests

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.PHONY: all help deps kernel bpf selftests initramfs run test test-host \
	test-guest soak shell check-patches clean FORCE

all: initramfs ## build kernel, BPF programs and initramfs

help: ## list the targets
	@echo "scx-push targets:"
	@sed -n 's/^\([a-z-]*\):.*## \(.*\)/  \1|\2/p' $(MAKEFILE_LIST) | column -t -s '|'
	@echo "Variables: KERNEL_VARIANT=default|noext|debug|kasan, V=1, T='test ...' (test-guest),"
	@echo "  SCX_PUSH_CACHE (kernel cache dir), JOBS, and vm/run's CPUS NODES LLCS ACCEL TIMEOUT."

deps: $(DEPS_STAMP) ## install missing Debian packages

$(DEPS_STAMP): vm/deps.sh
	$(Q)vm/deps.sh
	$(Q)mkdir -p $(@D) && touch $@

kernel: $(KERNEL_STAMP) ## build the patched guest kernel (cached outside the clone)

# vm/kernel.sh checks the kernel's own stamps (a second, without the machine
# lock unless it has to build) and rewrites this one only when the kernel
# changed.
$(KERNEL_STAMP): FORCE | $(DEPS_STAMP)
	$(Q)vm/kernel.sh --stamp $@ >/dev/null

# libbpf, bpftool, vmlinux.h of our kernel and scx_simple, with the tree's own
# tools/sched_ext Makefile.
bpf: $(BPF_STAMP) ## build libbpf, bpftool, vmlinux.h and scx_simple

$(BPF_STAMP): $(KERNEL_STAMP)
	$(Q)mkdir -p $(SCX_OUT)
	$(Q)$(MAKE) -C $(KSRC)/tools/sched_ext $(if $(V),,-s) O=$(SCX_OUT) \
		CLANG=$(CLANG) VMLINUX_BTF=$(KBUILD)/vmlinux scx_simple >/dev/null
	$(Q)touch $@

selftests: $(BPF_STAMP) ## build the tree's sched_ext selftests (guest: scx_selftests)
	$(Q)mkdir -p $(SELFTESTS_OUT)
	$(Q)$(MAKE) -C $(KSRC)/tools/testing/selftests/sched_ext -s O=$(SELFTESTS_OUT) \
		OUTPUT=$(SELFTESTS_OUT) CLANG=$(CLANG) VMLINUX_BTF=$(KBUILD)/vmlinux >/dev/null
	$(Q)cp $(SELFTESTS_OUT)/runner $(SELFTESTS_OUT)/scx_selftests

check-patches: deps ## checkpatch --strict + build after each patch, +/- SCHED_CLASS_EXT
	$(Q)vm/check-patches.sh

initramfs: bpf selftests ## pack busybox, tests and programs into the guest initramfs
	$(Q)vm/initramfs.sh $(BUILD)/initramfs.cpio $(GUEST_PROGS)

run: initramfs ## the main job: scx_push + rt_stall in the guest, quick comparison with CFS
	$(Q)vm/run -- "cd tests/guest && sh main_job.sh"
	$(Q)bench/run --quick $(BENCH_ARGS)

test: ## host unit tests + guest suite; ends with "N passed, N failed"
	$(Q)tests/run

test-host: ## host unit tests only
	$(Q)tests/host/run.sh

test-guest: initramfs ## guest suite, or the tests named in T='...'
	$(Q)vm/run -- tests/guest/run.sh $(T)

# The long soak (not in make test, which runs a 150 s one and 12 reloads):
# SOAK_MIN minutes of soak, then 100 load/unload cycles.
SOAK_MIN ?= 10
soak: initramfs ## SOAK_MIN (default 10) minutes of soak + 100 reload cycles, in the guest
	$(Q)vm/run --timeout $$(( $(SOAK_MIN) * 60 + 3000 )) -- \
		'SOAK_S=$$(( $(SOAK_MIN) * 60 )) TEST_TIMEOUT=$$(( $(SOAK_MIN) * 60 + 300 )) tests/guest/run.sh soak && RELOAD_CYCLES=100 TEST_TIMEOUT=2400 tests/guest/run.sh reload_loop'

shell: initramfs ## interactive shell in the guest
	$(Q)vm/run --shell

clean: ## remove $(BUILD) (the kernel cache stays)
	rm -rf $(BUILD)

FORCE:
