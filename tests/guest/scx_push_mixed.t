# 60 s of mixed load under scx_push: hackbench messaging, fork/exit churn,
# CPU burners whose affinity and nice level keep changing, and sleepers. The
# scheduler must stay enabled throughout (no stall or error exit) and unload
# cleanly.
. ./lib.sh
. ./scx_push.sh

DURATION=${DURATION:-60}

dmesg_mark
scx_push_start
end=$(($(date +%s) + DURATION))

( while [ "$(date +%s)" -lt "$end" ]; do hackbench -g 2 -f 4 -l 20 >/dev/null || exit 1; done ) &
hb=$!
( while [ "$(date +%s)" -lt "$end" ]; do /bin/true; done ) &
churn=$!
( while [ "$(date +%s)" -lt "$end" ]; do sleep 0.01; done ) &
sleeper=$!
start_burners 4 "$DURATION"

# Every second each burner gets another CPU set and nice level.
masks="0 1 2-3 4-7 0,4 0-7"
round=0
while [ "$(date +%s)" -lt "$end" ]; do
	for p in $BURNERS; do
		m=$(echo $masks | cut -d ' ' -f $(((round + p) % 6 + 1)))
		taskset -p -c "$m" "$p" >/dev/null 2>&1
		renice "$(((round + p) % 10))" -p "$p" >/dev/null 2>&1
	done
	expect_eq "state under load" "$(scx_state)" "enabled"
	round=$((round + 1))
	sleep 1
done

wait "$hb" || fail "hackbench failed"
for p in $churn $sleeper $BURNERS; do wait "$p"; done
expect_eq "state after the load" "$(scx_state)" "enabled"
scx_push_stop
info "$(grep '^total queue' "$SCX_PUSH_LOG")"
expect_clean_dmesg
