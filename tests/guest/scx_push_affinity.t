# Tasks pinned to CPU sets run only there under scx_push, while unpinned
# tasks and a wakeup-heavy load push and pull around them (burn samples the
# CPU it runs on between short bursts of work).
. ./lib.sh
. ./scx_push.sh

scx_push_start
masks="0 1-2 3-5 6-7 2,6 0,7 4"
pids=""
for m in $masks; do
	burn -t 3 -c "$m" >"/tmp/burn.$m" &
	pids="$pids $!"
done
start_burners 4 3
hackbench -g 2 -f 4 -l 20 >/dev/null || fail "hackbench failed"
for p in $pids $BURNERS; do wait "$p" || fail "a burner failed"; done
scx_push_stop

for m in $masks; do
	out=$(cat "/tmp/burn.$m")
	ran=$(field cpus "$out")
	allowed=" $(cpus_expand "$m") "
	for cpu in $(cpus_expand "$ran"); do
		case "$allowed" in
		*" $cpu "*) ;;
		*) fail "a task pinned to CPUs $m ran on CPU $cpu ($out)" ;;
		esac
	done
	info "pinned to $m: ran on $ran"
done
