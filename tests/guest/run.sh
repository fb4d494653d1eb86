#!/bin/sh
# Guest test runner: runs the named tests (default: every test in the suite
# file, in order), prints "ok N name" or "not ok N name: reason" per test and
# "N passed, N failed[, N skipped]" at the end; exits 1 when a test failed.
#
# A test is tests/guest/NAME.t. Exit status 0 is a pass, 77 a skip, anything
# else a failure; the reason is the test's last "FAIL:"/"SKIP:" line. Its other
# output is shown as "# " lines while it runs. A test that runs longer than
# TEST_TIMEOUT seconds (default 300) is killed and fails.
#
# The runner owns isolation: each test runs in a session of its own, and after
# it the runner checks that it left nothing behind: no process of its
# sessions, sched_ext disabled, every possible CPU online, the fair_server and
# ext_server runtime and period of every CPU as they were before the first
# test. Whatever is left is undone, and the test fails with "left X behind",
# so that the next test starts from the same state.

cd "$(dirname "$0")" || exit 2
. ./lib.sh

TEST_TIMEOUT=${TEST_TIMEOUT:-300}
# How long the processes and the scheduler of a test that ended get to go
# away by themselves (a test may kill its helpers without waiting for them).
SETTLE_S=${SETTLE_S:-2}
RUN_DIR=${RUN_DIR:-/tmp/guest-run}
CPU_SYSFS=/sys/devices/system/cpu
SERVERS_DEBUGFS=/sys/kernel/debug/sched
# The server knobs as the kernel booted with them: "PATH VALUE" lines.
KNOB_DEFAULTS=$RUN_DIR/knobs

usage() { echo "usage: run.sh [-l] [TEST...]   (-l lists the suite)"; }

suite() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' suite; }

# show LINE: a line of the test's output as the runner prints it (the
# FAIL:/SKIP: reason goes on the result line instead).
show() {
	case $1 in
	"FAIL: "* | "SKIP: "*) ;;
	*) echo "# $1" ;;
	esac
}

# stream OUT: show OUT's lines as the test writes them, until a line on fd 4
# says the test ended; then the rest, and a last line without a newline.
stream() {
	local line part="" ended=0
	exec 3<"$1"
	while :; do
		while IFS= read -r line <&3; do
			show "$part$line"
			part=""
		done
		# read stopped at the end of the file, in the middle of a line
		part=$part$line
		[ "$ended" -eq 0 ] || break
		read -t 1 line <&4 && ended=1
	done
	[ -z "$part" ] || show "$part"
	exec 3<&-
}

# proc_fields STAT: sets COMM, STATE and SID from a /proc/PID/stat line.
proc_fields() {
	COMM=${1#*(}
	COMM=${COMM%)*}
	# shellcheck disable=SC2086 # the fields after "(comm) " are words
	set -- ${1##*) }
	STATE=$1
	SID=$4
}

# sessions: the session of every process, kernel threads (session 0) aside.
sessions() {
	local f stat
	for f in /proc/[0-9]*/stat; do
		read -r stat 2>/dev/null <"$f" || continue
		proc_fields "$stat"
		[ "$SID" = 0 ] || echo "$SID"
	done | sort -u | tr '\n' ' '
}

# strays " SID... ": "PID COMM" of every live process in a session that is
# not in the list: the last test's session, and any that its children made.
# busybox timeout's watcher makes one too (it leads it): it sees the process
# it watches go and leaves within a second, so it is not counted.
strays() {
	local f stat pid
	for f in /proc/[0-9]*/stat; do
		read -r stat 2>/dev/null <"$f" || continue
		proc_fields "$stat"
		pid=${f#/proc/}
		pid=${pid%/stat}
		case "$1" in *" $SID "*) continue ;; esac
		[ "$SID" != 0 ] && [ "$STATE" != Z ] || continue
		[ "$COMM" != timeout ] || [ "$SID" != "$pid" ] || continue
		echo "$pid $COMM"
	done
}
no_strays() { [ -z "$(strays "$1")" ]; }

# kill_strays " SID... ": TERM, then KILL, what strays lists (a scheduler's
# loader unloads it on TERM).
kill_strays() {
	local sig pid comm
	for sig in TERM KILL; do
		strays "$1" | while read -r pid comm; do kill -"$sig" "$pid" 2>/dev/null; done
		wait_until 5 no_strays "$1" && return 0
	done
	return 1
}

# scx_off: no BPF scheduler (or a kernel without sched_ext).
scx_off() {
	case "$(scx_state)" in
	disabled | absent) return 0 ;;
	*) return 1 ;;
	esac
}

# offline_cpus: the possible CPUs that are offline (cpu0 may have no online file).
offline_cpus() {
	local f on
	for f in "$CPU_SYSFS"/cpu[0-9]*/online; do
		read -r on 2>/dev/null <"$f" || continue
		[ "$on" = 1 ] || { f=${f%/online}; echo "${f##*/cpu}"; }
	done | sort -n | tr '\n' ' '
}

# record_knobs: remember the runtime and period of every CPU's servers.
record_knobs() {
	local f v
	: >"$KNOB_DEFAULTS"
	for f in "$SERVERS_DEBUGFS"/fair_server/cpu*/runtime "$SERVERS_DEBUGFS"/fair_server/cpu*/period \
		"$SERVERS_DEBUGFS"/ext_server/cpu*/runtime "$SERVERS_DEBUGFS"/ext_server/cpu*/period; do
		read -r v 2>/dev/null <"$f" && echo "$f $v" >>"$KNOB_DEFAULTS"
	done
}

# changed_knobs: "PATH DEFAULT" of the knobs that differ from their default.
changed_knobs() {
	local f want v
	while read -r f want; do
		read -r v 2>/dev/null <"$f"
		[ "$v" = "$want" ] || echo "$f $want"
	done <"$KNOB_DEFAULTS"
}

# restore_knobs: write the default of every changed knob. A runtime cannot
# exceed its period: a write that fails because of the other knob's value
# succeeds on the second pass, after the other knob was restored.
restore_knobs() {
	local pass f want
	for pass in 1 2; do
		changed_knobs | while read -r f want; do
			echo "$want" 2>/dev/null >"$f"
		done
	done
	[ -z "$(changed_knobs)" ]
}

# knob_names: "ext_server runtime of CPU 2 3" per server and knob, from
# changed_knobs lines on stdin.
knob_names() {
	sed 's|.*/\([a-z]*_server\)/cpu\([0-9]*\)/\([a-z]*\) .*|\1 \3 \2|' |
		awk '{ cpus[$1 " " $2] = cpus[$1 " " $2] " " $3 }
		     END { for (k in cpus) print k " of CPU" cpus[k] }' | sort
}

# settled " SID... ": nothing of the last test is still going away.
settled() { no_strays "$1" && scx_off; }

# isolate " SID... ": check that the last test left nothing behind and undo
# what it left. Prints what was left, comma-separated; nothing when clean.
isolate() {
	local sids=$1 left="" procs state cpus knobs cpu
	wait_until "$SETTLE_S" settled "$sids"
	procs=$(strays "$sids" | sed 's/^\([0-9]*\) \(.*\)/\2[\1]/' | tr '\n' ' ')
	state=$(scx_state)
	scx_off || left="sched_ext $state ($(cat "$SCX_OPS" 2>/dev/null))"
	if [ -n "$procs" ]; then
		left="${left:+$left, }processes ${procs% }"
		kill_strays "$sids" || left="$left (some could not be killed)"
	fi
	if ! wait_until 10 scx_off; then
		# no process of the test holds it, yet it stays: eject it
		echo S >/proc/sysrq-trigger
		wait_until 10 scx_off || left="$left (sched_ext still $(scx_state))"
	fi
	cpus=$(offline_cpus)
	if [ -n "$cpus" ]; then
		left="${left:+$left, }CPU ${cpus% } offline"
		for cpu in $cpus; do echo 1 2>/dev/null >"$CPU_SYSFS/cpu$cpu/online"; done
		[ -z "$(offline_cpus)" ] || left="$left (still offline: $(offline_cpus))"
	fi
	knobs=$(changed_knobs | knob_names | tr '\n' ',')
	if [ -n "$knobs" ]; then
		left="${left:+$left, }$(echo "${knobs%,}" | sed 's/,/, /g')"
		restore_knobs || left="$left (not restored: $(changed_knobs | knob_names | tr '\n' ' '))"
	fi
	echo "$left"
}

run_one() {
	local n=$1 name=$2 out fifo rc reason sids spid left
	out=/tmp/test-$name.out
	if [ ! -f "$name.t" ]; then
		echo "not ok $n $name: no such test (see run.sh -l)"
		return 1
	fi
	: >"$out"
	fifo=$RUN_DIR/ended
	rm -f "$fifo"
	mkfifo "$fifo"
	exec 4<>"$fifo"
	stream "$out" &
	spid=$!
	sids=" $(sessions)"
	# setsid gives the test and its children a session of their own (timeout
	# execs it in the process it watches, which leads no process group in
	# this non-interactive shell, so setsid does not need to fork).
	timeout -s KILL "$TEST_TIMEOUT" setsid sh "./$name.t" >>"$out" 2>&1 4>&-
	rc=$?
	echo ended >&4
	wait "$spid"
	exec 4>&-
	rm -f "$fifo"
	left=$(isolate "$sids")
	reason=$(sed -n -e 's/^FAIL: //p' -e 's/^SKIP: //p' "$out" | tail -n 1)
	[ "$rc" -ne 137 ] || reason="killed after ${TEST_TIMEOUT}s"
	if [ -z "$left" ]; then
		case $rc in
		0) echo "ok $n $name"; return 0 ;;
		77) echo "ok $n $name # SKIP ${reason:-no reason given}"; return 77 ;;
		esac
		echo "not ok $n $name: ${reason:-exit status $rc}"
	elif [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then
		echo "not ok $n $name: left $left behind"
	else
		echo "not ok $n $name: ${reason:-exit status $rc}; left $left behind"
	fi
	return 1
}

main() {
	local n=0 pass=0 failed=0 skipped=0 name rc
	case "${1:-}" in
	-h | --help) usage; return 0 ;;
	-l) suite; return 0 ;;
	esac
	[ $# -gt 0 ] || set -- $(suite)
	mkdir -p "$RUN_DIR"
	record_knobs
	for name in "$@"; do
		n=$((n + 1))
		run_one "$n" "$name"
		rc=$?
		case $rc in
		0) pass=$((pass + 1)) ;;
		77) skipped=$((skipped + 1)) ;;
		*) failed=$((failed + 1)) ;;
		esac
	done
	if [ "$skipped" -gt 0 ]; then
		echo "$pass passed, $failed failed, $skipped skipped"
	else
		echo "$pass passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}

main "$@"
