# wcmon, the bench's work-conservation monitor (bench/wcmon.bpf.c): CPU time
# idle while a task that may run there waits on a busy CPU, started and read
# with the bench's own functions (bench/guest/monitor.sh). Four CPU-bound
# tasks, measured between two of the monitor's writes 1 s into the load:
# - pinned to CPU 0 (EEVDF): the other CPUs idle, but no waiting task may
#   run there: under 1 %, while more than half the CPU time is idle;
# - started on CPU 0, then allowed on every CPU, under scx_push with every
#   mechanism that moves a waiting task off (--no-push --no-pull
#   --no-busy): they stay queued on CPU 0 while the other CPUs idle: over
#   20 % (ideally (CPUs - 1) / CPUs);
# - the same under EEVDF, which spreads them: printed, for comparison.
. ./lib.sh
. ./scx_push.sh
. ../../bench/monitor.sh

WINDOW_S=${WINDOW_S:-3}
LAST=$(($(nproc) - 1))

# share KEY PRE POST: KEY's growth between two writes, % of the CPU time.
share() {
	awk -v k="$1" 'FNR == NR { a[$1] = $2; next } { b[$1] = $2 }
		END { printf "%.2f\n", 100 * (b[k] - a[k]) / (b["cpus"] * (b["elapsed_ns"] - a["elapsed_ns"])) }' \
		"$2" "$3"
}

# below V LIMIT: the number V is below LIMIT.
below() { awk -v v="$1" -v l="$2" 'BEGIN { exit !(v < l) }'; }

# window: the monitor's writes 1 s into the load and WINDOW_S s later, as
# "idle_wait_pct idle_pct" in WAIT and IDLE.
window() {
	sleep 1
	wcmon_snapshot /tmp/wc.pre || fail "no monitor totals (SIGUSR1)"
	sleep "$WINDOW_S"
	wcmon_snapshot /tmp/wc.post || fail "no monitor totals (SIGUSR1)"
	WAIT=$(share idle_wait_ns /tmp/wc.pre /tmp/wc.post)
	IDLE=$(share idle_ns /tmp/wc.pre /tmp/wc.post)
}

# released OPTION...: 4 tasks from CPU 0 to every CPU, measured; spread's
# report in OUT. No option: EEVDF, else scx_push with them.
released() {
	[ $# -eq 0 ] || scx_push_start "$@"
	spread -n 4 -f 0 -t "0-$LAST" -w $((WINDOW_S * 1000 + 2000)) >/tmp/spread.out &
	window
	wait $! || fail "spread failed: $(cat /tmp/spread.out)"
	OUT=$(cat /tmp/spread.out)
	[ $# -eq 0 ] || { scx_push_stop; trap cleanup EXIT; }
}

# scx_push_start and scx_push_stop set and clear their own EXIT trap.
cleanup() {
	wcmon_stop
	scx_push_kill
}

[ "$LAST" -ge 1 ] || skip "one CPU: nothing can wait elsewhere"
wcmon_start >/tmp/why || fail "$(cat /tmp/why)"
trap cleanup EXIT

pinned=""
for _ in 1 2 3 4; do
	burn -t $((WINDOW_S + 2)) -c 0 >/dev/null &
	pinned="$pinned $!"
done
window
# shellcheck disable=SC2086 # one pid per word; a bare wait would wait for wcmon
wait $pinned
info "4 tasks pinned to CPU 0: idle while waiting $WAIT %, idle $IDLE %"
below "$WAIT" 1 || fail "pinned tasks: idle while waiting $WAIT %, want < 1 % (they may not run elsewhere)"
below 50 "$IDLE" || fail "pinned tasks: idle $IDLE %, want > 50 % (idle CPUs not seen)"

released --no-push --no-pull --no-busy
info "4 tasks released from CPU 0, scx_push moving nothing: idle while waiting $WAIT %, idle $IDLE % ($OUT)"
[ "$(field final_cpus "$OUT")" -le 2 ] ||
	fail "scx_push moving nothing: the tasks spread, the test shows nothing ($OUT)"
below 20 "$WAIT" || fail "tasks stuck on CPU 0: idle while waiting $WAIT %, want > 20 %"

released
info "4 tasks released from CPU 0, EEVDF: idle while waiting $WAIT %, idle $IDLE % ($OUT)"
info "monitor: $(grep -E '^(samples|lost) ' "$WCMON_FILE" | tr '\n' ' ')"
wcmon_stop
