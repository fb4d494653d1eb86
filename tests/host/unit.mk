# Host unit tests of the loader's pure modules and of bench/schedstat's
# parser (no BPF, no kernel): one program per module in tests/host/unit/,
# run by tests/host/unit_*.test.

UNIT_OUT   := $(BUILD)/unit
UNIT_TESTS := $(patsubst tests/host/unit/%.c,$(UNIT_OUT)/%,$(wildcard tests/host/unit/*_test.c))
UNIT_CFLAGS = -g -O1 -Wall -Wextra -Wno-unused-parameter -Werror -Iloader -Iscx -Ibench -Itests/host/unit

# The modules each test links with.
UNIT_DEPS_topology_test  := loader/topology.c loader/capacity.c
UNIT_DEPS_capacity_test  := loader/capacity.c loader/topology.c
UNIT_DEPS_options_test   := loader/options.c loader/capacity.c
UNIT_DEPS_stats_test     := loader/stats.c loader/options.c loader/capacity.c
UNIT_DEPS_schedstat_test := bench/schedstat_parse.c

.PHONY: unit-tests
unit-tests: $(UNIT_TESTS) ## build the host unit tests

test-host: unit-tests

$(UNIT_OUT):
	$(Q)mkdir -p $@

.SECONDEXPANSION:
$(UNIT_OUT)/%: tests/host/unit/%.c $$(UNIT_DEPS_$$*) tests/host/unit/unit.h \
		$(wildcard loader/*.h) scx/scx_push.h bench/schedstat.h | $(UNIT_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ $< $(UNIT_DEPS_$*)
