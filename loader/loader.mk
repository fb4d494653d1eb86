# scx_push loader: the C program that loads scx_push.bpf.c through its
# skeleton, linked with the libbpf that `make bpf` built from the kernel tree.
# Included from the top Makefile; the binary goes into the guest initramfs.

LOADER_OUT  := $(BUILD)/loader
LOADER_BIN  := $(LOADER_OUT)/scx_push
LOADER_SRCS := $(wildcard loader/*.c)
LOADER_OBJS := $(patsubst loader/%.c,$(LOADER_OUT)/%.o,$(LOADER_SRCS))

# The tree's sched_ext headers are -isystem: they are not -Wextra clean.
LOADER_CFLAGS = -g -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
	-I$(SCX_INC) -isystem $(KSRC)/tools/sched_ext/include -I$(SCX_PUSH_OUT) \
	-Iscx -Iloader
LOADER_LDLIBS = -lelf -lz

GUEST_PROGS += $(LOADER_BIN)
initramfs: $(LOADER_BIN)

.PHONY: loader
loader: $(LOADER_BIN) ## build the scx_push loader and its BPF skeleton

$(LOADER_OUT):
	$(Q)mkdir -p $@

# Every object waits for the skeleton and libbpf's headers; -MMD records the
# headers each one really includes.
$(LOADER_OUT)/%.o: loader/%.c $(SCX_PUSH_SKEL) $(LIBBPF_A) | $(LOADER_OUT)
	$(call quiet_msg,CC,$@)
	$(Q)$(CC) $(LOADER_CFLAGS) -MMD -MP -c $< -o $@

$(LOADER_BIN): $(LOADER_OBJS) $(LIBBPF_A)
	$(call quiet_msg,LD,$@)
	$(Q)$(CC) -o $@ $^ $(LOADER_LDLIBS)

-include $(LOADER_OBJS:.o=.d)
