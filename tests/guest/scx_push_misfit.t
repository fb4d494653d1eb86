# Misfit push (seed 011) on a modelled asymmetric machine: --capacity gives
# the lower half of the CPUs half the capacity of the upper half (on the
# default guest 0-3:512,4-7:1024).
# 1. A CPU-bound task started on CPU 0 runs on a big CPU within
#    MISFIT_LIMIT_MS: its utilization starts at half of CPU 0's capacity and
#    passes the fit margin (80 % of it) after ~42 ms of running, the next
#    tick finds an idle big CPU and ops.dispatch() sends the task there.
#    With --no-misfit (control) nothing moves a task running alone: it stays.
#    It must stay on the big CPUs (no push or pull sends it back down).
# 2. A light task (10 % duty) started on CPU 0 fits and stays off the big
#    CPUs (no needless migration).
# 3. A CPU-bound task on each small CPU and a light one on each big CPU: the
#    CPU-bound ones end up on the big CPUs; with --no-misfit they stay.
# Any guest shape with 2 CPUs or more.
. ./lib.sh
. ./scx_push.sh

MISFIT_LIMIT_MS=${MISFIT_LIMIT_MS:-100}
NR=$(nproc)
[ "$NR" -ge 2 ] || skip "needs 2 CPUs or more, the guest has $NR"
HALF=$((NR / 2))
SMALL="0-$((HALF - 1))"
BIG="$HALF-$((NR - 1))"
CAPS="$SMALL:512,$BIG:1024"

# run OPTION... -- MISFIT_ARGS...: misfit's report under scx_push OPTION...
run() {
	local opts=""

	while [ "$1" != "--" ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	scx_push_start --capacity "$CAPS" $opts
	out=$(misfit -b "$BIG" "$@") || fail "misfit $*: $out"
	scx_push_stop
}

run --no-misfit -- -H 0 -w 1000
info "control (--no-misfit): $out"
[ "$(field heavy_big_ms "$out")" = "-1" ] ||
	fail "--no-misfit: the CPU-bound task moved to a big CPU; the test shows nothing ($out)"

run -- -H 0 -w 1000
grep -q "capacity.*512" "$SCX_PUSH_LOG" || fail "the topology printout shows no capacities"
info "with misfit handling: $(grep -o 'verified_insns.*total=[0-9]*' "$SCX_PUSH_LOG")"
ms=$(field heavy_big_ms "$out")
info "CPU-bound task from CPU 0: on a big CPU after $ms ms, $(scx_push_stat misfit_mark) misfit mark(s), $(scx_push_stat misfit_push) misfit push(es) ($out)"
[ "$ms" -ge 0 ] || fail "the CPU-bound task never ran on a big CPU ($out)"
[ "$ms" -le "$MISFIT_LIMIT_MS" ] || fail "the CPU-bound task reached a big CPU after $ms ms, limit $MISFIT_LIMIT_MS ms ($out)"
[ "$(field heavy_final_big "$out")" -eq 1 ] || fail "the CPU-bound task left the big CPUs again ($out)"
[ "$(scx_push_stat misfit_push)" -gt 0 ] || fail "no misfit push counted"

run -- -L 0 -w 2000
pct=$(field light_small_pct "$out")
info "light task from CPU 0: off the big CPUs in $pct % of the looks ($out)"
[ "$pct" -ge 90 ] || fail "the light task ran on big CPUs in $((100 - pct)) % of the looks ($out)"

run --no-misfit -- -H "$SMALL" -L "$BIG" -w 2000
info "control (--no-misfit): $out"
[ "$(field heavy_final_big "$out")" -lt "$HALF" ] ||
	fail "--no-misfit: the CPU-bound tasks ended on the big CPUs; the test shows nothing ($out)"

run -- -H "$SMALL" -L "$BIG" -w 2000
final=$(field heavy_final_big "$out")
info "$HALF CPU-bound tasks on small CPUs, $HALF light ones on big CPUs: $final CPU-bound on big CPUs at the end, $(scx_push_stat misfit_push) push(es), $(scx_push_stat misfit_pull) pull kick(s) ($out)"
[ "$final" -eq "$HALF" ] || fail "only $final of $HALF CPU-bound tasks ended on big CPUs ($out)"
