# The work-conservation monitor (wcmon, bench/wcmon.bpf.c) in the bench
# (busybox sh, sourced by bench.sh): started once per boot, before any
# configuration, so that it watches every scheduler the same way; its totals
# are written on SIGUSR1 and copied before and after each case, and the host
# takes their difference (summarize.py: idle_wait_pct).

WCMON_FILE=/tmp/wcmon.txt
WCMON_LOG=/tmp/wcmon.log
WCMON_PID=

# wcmon_elapsed: the elapsed_ns of the monitor's last write, "" if none.
wcmon_elapsed() {
	sed -n 's/^elapsed_ns \([0-9]*\)$/\1/p' "$WCMON_FILE" 2>/dev/null
}

# wcmon_start: load the monitor and wait for its first write; prints why
# and fails if it cannot (the bench then runs without it).
wcmon_start() {
	command -v wcmon >/dev/null || { echo "wcmon is not in the initramfs"; return 1; }
	rm -f "$WCMON_FILE"
	wcmon -o "$WCMON_FILE" >"$WCMON_LOG" 2>&1 &
	WCMON_PID=$!
	if ! wait_until 60 test -s "$WCMON_FILE"; then
		kill -INT "$WCMON_PID" 2>/dev/null
		wait "$WCMON_PID"
		WCMON_PID=
		echo "wcmon did not start: $(tail -n 3 "$WCMON_LOG")"
		return 1
	fi
}

# wcmon_snapshot FILE: ask the monitor for its totals (SIGUSR1) and copy them
# once they were rewritten (elapsed_ns changes); nothing without a monitor.
wcmon_snapshot() {
	local before tries=200
	[ -n "$WCMON_PID" ] || return 0
	before=$(wcmon_elapsed)
	kill -USR1 "$WCMON_PID" 2>/dev/null || return 1
	while [ "$(wcmon_elapsed)" = "$before" ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.01
	done
	cp "$WCMON_FILE" "$1"
}

wcmon_stop() {
	[ -n "$WCMON_PID" ] || return 0
	kill -INT "$WCMON_PID" 2>/dev/null
	wait "$WCMON_PID"
	WCMON_PID=
}
