# Benchmarks: CFS/EEVDF vs scx_push (and its ablations) vs scx_simple, in one
# guest boot (bench/run). Included from the top Makefile: adds the workload
# programs to the guest initramfs and the bench targets. bench/guest/ itself
# is copied to /scx-push/bench by vm/initramfs.sh.
#
# Each run goes to $(BUILD)/bench/<UTC timestamp>, out of git; bench/run
# ends by printing it and the `bench/run --publish DIR` command that copies
# the run's summary (report, CSVs, meta, plot) to bench/results/ for a commit.

BENCH_OUT     := $(BUILD)/bench
BENCH_OVERSUB := $(BENCH_OUT)/oversub
# schedstat: record, report and diff scheduler statistics (bench/schedstat.c);
# static for the guest, dynamic for the host (its tests, records copied out).
SCHEDSTAT      := $(BENCH_OUT)/schedstat
SCHEDSTAT_HOST := $(BENCH_OUT)/schedstat-host
SCHEDSTAT_SRCS := bench/schedstat.c bench/schedstat_parse.c
# Extra bench/run arguments, e.g. BENCH_ARGS="--reps 3 --configs 'eevdf push'".
BENCH_ARGS    ?=

# hackbench is already there (the tests use it); burn comes from the tests.
GUEST_PROGS += /usr/bin/cyclictest /usr/bin/perf $(BENCH_OVERSUB) $(SCHEDSTAT)
initramfs: $(BENCH_OVERSUB) $(SCHEDSTAT)

.PHONY: bench bench-quick schedstat
bench: initramfs ## CFS vs scx_push, its ablations, scx_simple: 10 interleaved reps (~55 min), in build/bench/
	$(Q)bench/run $(BENCH_ARGS)

bench-quick: initramfs ## eevdf, scx_push and 3 ablations on every workload: 1 rep, small sizes (< 10 min), in build/bench/
	$(Q)bench/run --quick $(BENCH_ARGS)

$(BENCH_OUT):
	$(Q)mkdir -p $@

$(BENCH_OVERSUB): bench/oversub.c tests/guest/helpers/helpers.h loader/cpulist.h | $(BENCH_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -static -Itests/guest/helpers -o $@ $<

schedstat: $(SCHEDSTAT_HOST) ## build schedstat (record/report/diff) for the host: build/bench/schedstat-host

$(SCHEDSTAT): $(SCHEDSTAT_SRCS) bench/schedstat.h | $(BENCH_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -static -o $@ $(SCHEDSTAT_SRCS)

$(SCHEDSTAT_HOST): $(SCHEDSTAT_SRCS) bench/schedstat.h | $(BENCH_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -o $@ $(SCHEDSTAT_SRCS)

# wcmon: the work-conservation monitor (bench/wcmon.bpf.c), tracing programs
# built like scx_push (same clang flags, vmlinux.h, bpftool skeleton) and a
# loader linked with the same libbpf; the bench runs it in every boot.
WCMON_OUT := $(BUILD)/wcmon
WCMON     := $(WCMON_OUT)/wcmon
GUEST_PROGS += $(WCMON)
initramfs: $(WCMON)

.PHONY: wcmon
wcmon: $(WCMON) ## build the work-conservation monitor (bench/wcmon.bpf.c) for the guest

.SECONDARY: $(WCMON_OUT)/wcmon.bpf.o $(WCMON_OUT)/wcmon.bpf.skel.h

$(WCMON_OUT):
	$(Q)mkdir -p $@

$(WCMON_OUT)/wcmon.bpf.o: bench/wcmon.bpf.c bench/wcmon.h $(VMLINUX_H) | $(WCMON_OUT)
	$(call quiet_msg,CLANG-BPF,$@)
	$(Q)$(CLANG) $(SCX_BPF_CFLAGS) -Ibench -c $< -o $@

$(WCMON_OUT)/wcmon.bpf.skel.h: $(WCMON_OUT)/wcmon.bpf.o $(BPFTOOL)
	$(call quiet_msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen object $(@:.skel.h=.linked.o) $<
	$(Q)$(BPFTOOL) gen skeleton $(@:.skel.h=.linked.o) name wcmon_bpf >$@

$(WCMON): bench/wcmon.c bench/wcmon.h $(WCMON_OUT)/wcmon.bpf.skel.h $(LIBBPF_A)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) -g -O2 -Wall -Wextra -Wno-unused-parameter -Werror -I$(SCX_INC) \
		-I$(WCMON_OUT) -Ibench -o $@ $< $(LIBBPF_A) -lelf -lz
