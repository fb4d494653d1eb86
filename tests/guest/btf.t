# The kernel exposes its BTF, and it describes sched_ext's struct_ops.
. ./lib.sh

btf=/sys/kernel/btf/vmlinux
[ -s "$btf" ] || fail "$btf missing or empty: kernel without CONFIG_DEBUG_INFO_BTF"
# struct btf_header starts with the magic 0xeB9F, little endian.
expect_eq "BTF magic" "$(od -An -tx1 -N2 "$btf" | tr -d ' ')" "9feb"
for name in sched_ext_ops scx_exit_info scx_bpf_dispatch scx_bpf_consume; do
	grep -q "$name" "$btf" || fail "BTF has no '$name'"
done
info "BTF: $(wc -c <"$btf") bytes"
