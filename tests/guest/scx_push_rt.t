# A SCHED_FIFO hog pinned to CPU 2 takes the CPU from the sched_ext task
# running there: ops.cpu_release re-enqueues it (counter > 0) and it, like
# every other task, keeps progressing on the other CPUs. Without that, the
# preempted task would sit on CPU 2 for the hog's 4 s.
. ./lib.sh
. ./scx_push.sh

# 8 tasks for 5 s, 4 of them with CPU 2 taken: the moved task shares another
# CPU (no pull between busy CPUs) and gets 0.5 + 4 / 2 + 0.5 = 3 s; stuck on
# CPU 2 it would get 1 s.
SECONDS_RUN=5
MIN_CPU_MS=2000

scx_push_start
start_burners 8 "$SECONDS_RUN" /tmp/burn
sleep 0.5
burn -t 4 -c 2 -f 50 >/tmp/hog &
hog=$!
for p in $BURNERS $hog; do wait "$p" || fail "a burner failed"; done
expect_eq "state after the RT hog" "$(scx_state)" "enabled"
scx_push_stop

info "hog: $(cat /tmp/hog)"
for i in $(seq 8); do
	out=$(cat "/tmp/burn.$i")
	ms=$(field cpu_ms "$out")
	[ "$ms" -ge "$MIN_CPU_MS" ] || fail "a task got $ms ms of CPU in ${SECONDS_RUN} s, want >= $MIN_CPU_MS ($out)"
done
reenq=$(scx_push_stat reenq)
info "re-enqueued by cpu_release: $reenq, rescued: $(scx_push_stat rescue)"
[ "$reenq" -gt 0 ] || fail "cpu_release re-enqueued nothing"
