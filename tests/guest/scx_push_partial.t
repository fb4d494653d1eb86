# --partial: scx_push schedules only SCHED_EXT tasks; SCHED_NORMAL tasks stay
# on CFS. Control: without --partial, SCHED_NORMAL tasks are on sched_ext too.
. ./lib.sh
. ./scx_push.sh

# on_ext PID: 1 if the task runs in the sched_ext class (/proc/PID/sched).
on_ext() {
	sed -n 's/^ext.enabled *: *\([0-9]\).*/\1/p' "/proc/$1/sched"
}

# classes: "normal=N ext=N", the classes of a plain and a SCHED_EXT task.
classes() {
	local normal ext r
	burn -t 2 >/dev/null &
	normal=$!
	burn -t 2 -x >/dev/null &
	ext=$!
	sleep 0.5
	r="normal=$(on_ext "$normal") ext=$(on_ext "$ext")"
	wait "$normal" || fail "the SCHED_NORMAL burner failed"
	wait "$ext" || fail "the SCHED_EXT burner failed"
	echo "$r"
}

scx_push_start --partial
got=$(classes)
scx_push_stop
expect_eq "sched_ext class of SCHED_NORMAL and SCHED_EXT tasks with --partial" "$got" "normal=0 ext=1"

scx_push_start
got=$(classes)
scx_push_stop
expect_eq "sched_ext class without --partial" "$got" "normal=1 ext=1"
