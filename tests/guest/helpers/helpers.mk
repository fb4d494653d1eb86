# Static helper programs of the guest tests (tests/guest/helpers/*.c), packed
# into the initramfs next to scx_push. helpers.h takes its CPU lists from the
# loader's loader/cpulist.h.

HELPERS_OUT  := $(BUILD)/helpers
HELPERS_BINS := $(patsubst tests/guest/helpers/%.c,$(HELPERS_OUT)/%,\
		$(wildcard tests/guest/helpers/*.c))

GUEST_PROGS += $(HELPERS_BINS)
initramfs: $(HELPERS_BINS)

$(HELPERS_OUT):
	$(Q)mkdir -p $@

$(HELPERS_OUT)/%: tests/guest/helpers/%.c tests/guest/helpers/helpers.h loader/cpulist.h | $(HELPERS_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -static -o $@ $<
