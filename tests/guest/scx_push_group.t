# Group moves of the busy balance: an imbalance between nodes (between the
# LLCs of the node on a one-node guest) whose most loaded CPU cannot give.
# Every CPU is held by a pinned burner, and every CPU outside the last
# group except T (the first group's last CPU) by a second pinned one. In
# the last group, its first CPU B gets two more pinned burners and each
# other CPU one free burner (started pinned, then allowed everywhere). The
# last group then holds one task too many and T one too few, and B, the
# most loaded CPU, has nothing T may run: with --no-busy-group (control)
# T's holder keeps T to itself. With group moves another CPU of that group
# gives T its free burner. T's holder then gets about half of T instead of
# all of it.
#
# Nothing else may move a task to T in the control: a CPU of the group
# that holds a free burner must not get the two tasks more than T that a
# plain busy move needs. So B's extra burners are pinned (bound to the
# group, one of them could join a free burner: 4 of 6 controls at 48-79 %),
# and the test's shell and all it starts (scx_push, sleep, taskset, sed)
# run on B (else a short one joined a free burner: 2 of 13 controls at
# 50 %; with the shell on B, 8 of 8 at 97-107 %). Group moves leave T's
# holder at most SHARED_MAX, the control at least MARGIN points more.
. ./lib.sh
. ./scx_push.sh

NR=$(nproc)
LAST=$((NR - 1))
HOLD_S=60	# more than the test needs; the burners are killed after it
SHARED_MAX=70	# % of T for T's holder once a second task runs there
MARGIN=15	# points more for T's holder in the control

# groups: one CPU list per line, the nodes if there are two or more, else
# the LLCs.
groups() {
	local n
	n=$(cat /sys/devices/system/node/node*/cpulist 2>/dev/null | grep -c .)
	if [ "$n" -ge 2 ]; then
		cat /sys/devices/system/node/node*/cpulist | grep .
	else
		cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list 2>/dev/null | sort -u -n
	fi
}

GROUPS_LIST=$(groups)
[ "$(echo "$GROUPS_LIST" | grep -c .)" -ge 2 ] ||
	skip "one node and one LLC: no group above the CPU to balance between"
FIRST=$(cpus_expand "$(echo "$GROUPS_LIST" | head -1)")
BUSIEST=$(cpus_expand "$(echo "$GROUPS_LIST" | tail -1)")
T=$(echo "$FIRST" | awk '{ print $NF }')
B=$(echo "$BUSIEST" | awk '{ print $1 }')
[ "$(echo "$BUSIEST" | wc -w)" -ge 2 ] || skip "the last group has one CPU: nothing to give T"

uptime_cs() { awk '{ printf "%d", $1 * 100 }' /proc/uptime; }

# holder_share OPTION...: SHARE, the % of T its holder got once the burners
# were widened, under scx_push OPTION...
holder_share() {
	local c p holder pids="" free="" ms0 ms1 t0 t1
	scx_push_start -i 3600 "$@"
	for c in $(seq 0 "$LAST"); do
		burn -t "$HOLD_S" -c "$c" >/dev/null &
		pids="$pids $!"
		[ "$c" = "$T" ] && holder=$!
		case " $BUSIEST " in
		*" $c "*)
			if [ "$c" = "$B" ]; then
				burn -t "$HOLD_S" -c "$c" >/dev/null & pids="$pids $!"
				burn -t "$HOLD_S" -c "$c" >/dev/null & pids="$pids $!"
			else
				burn -t "$HOLD_S" -c "$c" >/dev/null & free="$free $!"
			fi
			;;
		*)
			[ "$c" = "$T" ] || { burn -t "$HOLD_S" -c "$c" >/dev/null & pids="$pids $!"; }
			;;
		esac
	done
	sleep 2
	for p in $free; do taskset -p -c "0-$LAST" "$p" >/dev/null || fail "taskset $p"; done
	sleep 1
	ms0=$(sum_exec_ms "$holder"); t0=$(uptime_cs)
	sleep 3
	ms1=$(sum_exec_ms "$holder"); t1=$(uptime_cs)
	kill $pids $free
	wait $pids $free 2>/dev/null
	scx_push_stop
	SHARE=$(((ms1 - ms0) * 10 / (t1 - t0)))
}

taskset -p -c "$B" $$ >/dev/null || fail "cannot move the test shell to CPU $B"
holder_share --no-busy-group
alone=$SHARE
info "control (--no-busy-group): T=CPU $T's holder got $alone % of it, group moves $(scx_push_stat busy_group)"
holder_share
shared=$SHARE
moves=$(scx_push_stat busy_group)
info "group moves: T=CPU $T's holder got $shared % of it; $moves group moves"
[ "$shared" -le "$SHARED_MAX" ] || fail "T's holder got $shared % > $SHARED_MAX %: no task was moved to T"
[ "$alone" -ge $((shared + MARGIN)) ] ||
	fail "--no-busy-group: T's holder got $alone %, not $MARGIN points more than with group moves ($shared %): T was not left short, the test shows nothing"
[ "$moves" -gt 0 ] || fail "no group move counted"
