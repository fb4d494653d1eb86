# RELOAD_CYCLES load/unload cycles of scx_push under RELOAD_BURNERS CPU
# burners and hackbench: every cycle reaches enabled, then disabled with exit
# status 0 after an unload from user space; afterwards the kernel holds no
# more BPF programs, maps or links than before and total_bw has not moved.
#
# A load is a BPF verification: under TCG with 2 burners + hackbench it takes
# 10-13 s (6.5 s with hackbench alone, 14 s with 4 burners), so the default of
# 12 cycles fits the suite (~2.5 min); `make soak` runs RELOAD_CYCLES=100.
. ./lib.sh
. ./scx_push.sh
. ./soak.sh

RELOAD_CYCLES=${RELOAD_CYCLES:-12}
RELOAD_BURNERS=${RELOAD_BURNERS:-2}
DIR=/tmp/reload_loop

for p in hackbench burn bpf_count; do
	command -v "$p" >/dev/null || fail "$p is not in the initramfs"
done
rm -rf "$DIR"
mkdir -p "$DIR"
loadpids=""
cleanup() {
	local p
	for p in $loadpids; do kill "$p" 2>/dev/null; done
	scx_push_kill
}
trap cleanup EXIT

dmesg_mark
bw_before=$(total_bw_all | sort -u)
objs_before=$(bpf_objects)
info "before: $objs_before"

touch "$DIR/run"
( while [ -e "$DIR/run" ]; do
	hackbench -g 2 -f 4 -l 20 >/dev/null || { echo failed >"$DIR/hackbench"; exit 1; }
done ) &
hb=$!
start_burners "$RELOAD_BURNERS" 3600
loadpids="$loadpids $BURNERS $hb"

# Load (start to enabled) and unload (SIGINT to disabled) times, in 1/100 s.
load_cs=0 unload_cs=0 max_cs=0
t0=$(uptime_cs)
for i in $(seq "$RELOAD_CYCLES"); do
	a=$(uptime_cs)
	scx_push_start
	b=$(uptime_cs)
	[ "$i" -gt 1 ] || info "loaded: $(bpf_objects)"
	c=$(uptime_cs)
	scx_push_stop
	trap cleanup EXIT
	d=$(uptime_cs)
	load_cs=$((load_cs + b - a))
	unload_cs=$((unload_cs + d - c))
	[ $((d - a)) -le "$max_cs" ] || max_cs=$((d - a))
	[ $((i % 10)) -ne 0 ] || info "cycle $i at $(((d - t0) / 100))s"
done
took=$((($(uptime_cs) - t0) / 100))

rm -f "$DIR/run"
wait "$hb"
for p in $loadpids; do kill "$p" 2>/dev/null; done
for p in $loadpids; do wait "$p" 2>/dev/null; done
[ ! -e "$DIR/hackbench" ] || fail "hackbench failed"

info "$RELOAD_CYCLES cycles in ${took}s with $RELOAD_BURNERS burners + hackbench:" \
	"load $((load_cs * 10 / RELOAD_CYCLES)) ms, unload $((unload_cs * 10 / RELOAD_CYCLES)) ms" \
	"per cycle on average, slowest cycle $((max_cs * 10)) ms"
wait_bpf_objects "$objs_before" 10 ||
	fail "BPF objects after $RELOAD_CYCLES cycles: $(bpf_objects), before: $objs_before"
info "after: $(bpf_objects)"
expect_eq "total_bw after $RELOAD_CYCLES cycles" "$(total_bw_all | sort -u)" "$bw_before"
expect_clean_dmesg
