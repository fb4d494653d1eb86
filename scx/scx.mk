# scx_push BPF scheduler: scx_push.bpf.c -> BPF object -> libbpf skeleton.
# Included from the top Makefile; compiled against the vmlinux.h of our kernel
# and the sched_ext headers of the same tree, with the flags of its
# tools/sched_ext/Makefile.

SCX_PUSH_OUT  := $(BUILD)/scx
SCX_PUSH_SKEL := $(SCX_PUSH_OUT)/scx_push.bpf.skel.h
SCX_INC       := $(SCX_OUT)/build/include
VMLINUX_H     := $(SCX_INC)/vmlinux.h
BPFTOOL       := $(SCX_OUT)/build/sbin/bpftool
LIBBPF_A      := $(SCX_OUT)/build/obj/libbpf/libbpf.a

# clang's own system include directories, which -target bpf does not search.
CLANG_SYS_INCLUDES = $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

SCX_BPF_CFLAGS = -g -O2 -mcpu=v3 -target bpf -D__TARGET_ARCH_x86 -mlittle-endian \
	-I$(KSRC)/tools/sched_ext/include -I$(KSRC)/tools/sched_ext/include/bpf-compat \
	-I$(SCX_INC) -I$(KSRC)/tools/include/uapi -Iscx $(CLANG_SYS_INCLUDES) \
	-Wall -Wno-compare-distinct-pointer-types

# What `make bpf` produces: remade with its stamp. The empty recipe makes make
# look at their times again afterwards, so that only a file the sub-make
# really rewrote rebuilds what uses it.
$(VMLINUX_H) $(BPFTOOL) $(LIBBPF_A): $(BPF_STAMP) ;

.SECONDARY: $(SCX_PUSH_OUT)/scx_push.bpf.o $(SCX_PUSH_SKEL)

$(SCX_PUSH_OUT):
	$(Q)mkdir -p $@

$(SCX_PUSH_OUT)/%.bpf.o: scx/%.bpf.c scx/scx_push.h scx/scx_push_compat.bpf.h \
		$(VMLINUX_H) | $(SCX_PUSH_OUT)
	$(call quiet_msg,CLANG-BPF,$@)
	$(Q)$(CLANG) $(SCX_BPF_CFLAGS) -c $< -o $@

# bpftool links the object (static functions resolved, BTF deduplicated) and
# generates the skeleton the loader includes.
$(SCX_PUSH_OUT)/%.bpf.skel.h: $(SCX_PUSH_OUT)/%.bpf.o $(BPFTOOL)
	$(call quiet_msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen object $(@:.skel.h=.linked.o) $<
	$(Q)$(BPFTOOL) gen skeleton $(@:.skel.h=.linked.o) name $(notdir $*) >$@
