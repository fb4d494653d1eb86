# Soak: SOAK_S seconds (default 150; `make soak` runs 600) of hostile load
# under scx_push: hackbench messaging, fork/exit churn, progress workers whose
# affinity, nice level and cgroup keep changing, short SCHED_FIFO hogs on
# random CPUs, non-boot CPUs going offline and online (each event makes
# scx_push restart itself) and scheduler reload cycles. It passes when the
# scheduler never left except for our unloads and the restarts that hotplug
# asked for, every worker made progress in every 5 s window, the kernel log
# is clean and total_bw is unchanged.
. ./lib.sh
. ./scx_push.sh
. ./soak.sh

SOAK_S=${SOAK_S:-150}
WINDOW_S=5
DIR=/tmp/soak
CG=/sys/fs/cgroup
MASKS="0 1 2-3 4-7 0,4 0-7 3,6 5-7"

[ -f "$CG/cgroup.procs" ] || fail "cgroup2 is not mounted at $CG"
for p in hackbench burn progress; do
	command -v "$p" >/dev/null || fail "$p is not in the initramfs"
done
CPUS=$(hotplug_cpus)
[ -n "$CPUS" ] || skip "no CPU can go offline"
NR_CPUS=$(echo $CPUS | wc -w)
NR_CPUS=$((NR_CPUS + 1))

rm -rf "$DIR"
mkdir -p "$DIR"
for f in hogs affinity moves; do echo 0 >"$DIR/$f"; done
bgpids=""

cleanup() {
	local p
	for p in $bgpids; do kill "$p" 2>/dev/null; done
	all_cpus_online
	scx_push_kill
	rmdir "$CG/soak_a" "$CG/soak_b" 2>/dev/null
	echo -cpu >"$CG/cgroup.subtree_control" 2>/dev/null
}

# Our own EXIT trap: scx_push_start and scx_push_stop set theirs.
push_start() {
	PUSH_LOGS="$PUSH_LOGS $SCX_PUSH_LOG"
	scx_push_start
	trap cleanup EXIT
}
push_stop() {
	scx_push_stop
	trap cleanup EXIT
}

dmesg_mark
bw_before=$(total_bw_all | sort -u)
mkdir -p "$CG/soak_a" "$CG/soak_b" || fail "cannot create cgroups under $CG"
# With the cpu controller, a cgroup move goes through sched_ext's cgroup path.
if grep -qw cpu "$CG/cgroup.controllers" && echo +cpu >"$CG/cgroup.subtree_control"; then
	info "cgroups: cpu controller on"
else
	info "cgroups: no cpu controller, moves only"
fi

n_log=0
SCX_PUSH_LOG=$DIR/push.$n_log.log
push_start
t0=$(date +%s)
end=$((t0 + SOAK_S))

# Workers: four CPU hogs and two sleepers, each counting its progress.
workers=""
for i in 1 2 3 4 5 6; do
	sleep_us=0
	[ "$i" -le 4 ] || sleep_us=2000
	progress -t "$SOAK_S" -w "$WINDOW_S" -s "$sleep_us" >"$DIR/worker.$i" &
	workers="$workers $!"
done
bgpids="$workers"

( while [ "$(date +%s)" -lt "$end" ]; do
	hackbench -g 2 -f 4 -l 20 >/dev/null || { echo failed >"$DIR/hackbench"; exit 1; }
done ) &
hb=$!
( while [ "$(date +%s)" -lt "$end" ]; do /bin/true; done ) &
churn=$!

# Short SCHED_FIFO hogs, one at a time, 50-200 ms on a random online CPU.
( n=0 SOAK_SEED=7
while [ "$(date +%s)" -lt "$end" ]; do
	rand "$NR_CPUS"; cpu=$RAND
	rand 151; ms=$((50 + RAND))
	# the CPU can go offline before burn pins itself: that hog does not count
	if cpu_online "$cpu" && burn -f 50 -c "$cpu" -t "$(printf '0.%03d' "$ms")" >/dev/null 2>&1; then
		n=$((n + 1))
	fi
	echo "$n" >"$DIR/hogs"
	sleep 0.2
done ) &
hogs=$!

# Every second each worker gets another CPU set and nice level.
( n=0 SOAK_SEED=11
while [ "$(date +%s)" -lt "$end" ]; do
	for p in $workers; do
		rand 8; m=$(echo $MASKS | cut -d ' ' -f $((RAND + 1)))
		taskset -p -c "$m" "$p" >/dev/null 2>&1 && n=$((n + 1))
		rand 10; renice "$RAND" -p "$p" >/dev/null 2>&1
	done
	echo "$n" >"$DIR/affinity"
	sleep 1
done ) &
changer=$!

# Twice a second a worker moves to the other cgroup.
( n=0
while [ "$(date +%s)" -lt "$end" ]; do
	for p in $workers; do
		g=soak_a
		[ $(((n + p) % 2)) -eq 0 ] || g=soak_b
		echo "$p" >"$CG/$g/cgroup.procs" 2>/dev/null && n=$((n + 1))
		echo "$n" >"$DIR/moves"
		sleep 0.5
	done
done ) &
mover=$!
bgpids="$bgpids $hb $churn $hogs $changer $mover"

# The control loop, until the end: a hotplug cycle (a random CPU offline,
# then online; each event restarts scx_push), 2 s, a reload, 2 s, and so on.
# A restart or a reload is a BPF load: 7-14 s under TCG with this load, so
# the last round can end up to ~30 s after the workers.
round=0 cycles=0 reloads=0 SOAK_SEED=3
while [ "$(($(date +%s) + 2))" -lt "$end" ]; do
	sleep 2
	expect_eq "sched_ext state in round $round" "$(scx_state)" "enabled"
	kill -0 "$SCX_PUSH_PID" 2>/dev/null || fail "scx_push is gone: $(grep '^EXIT' "$SCX_PUSH_LOG" | tail -n 1)"
	if [ $((round % 2)) -eq 0 ]; then
		rand "$((NR_CPUS - 1))"
		cpu=$(echo $CPUS | cut -d ' ' -f $((RAND + 1)))
		r=$(push_restarts)
		echo 0 >"$CPU_SYSFS/cpu$cpu/online" || fail "cannot take CPU $cpu offline"
		wait_push_restart "$r"
		sleep 1
		r=$(push_restarts)
		echo 1 >"$CPU_SYSFS/cpu$cpu/online" || fail "cannot bring CPU $cpu back"
		wait_push_restart "$r"
		cycles=$((cycles + 1))
	else
		push_stop
		sleep 0.5
		n_log=$((n_log + 1))
		SCX_PUSH_LOG=$DIR/push.$n_log.log
		push_start
		reloads=$((reloads + 1))
	fi
	round=$((round + 1))
done

for p in $workers $churn $hogs $changer $mover; do wait "$p"; done
wait "$hb"
[ ! -e "$DIR/hackbench" ] || fail "hackbench failed"
expect_eq "sched_ext state at the end" "$(scx_state)" "enabled"
push_stop
took=$(($(date +%s) - t0))
rmdir "$CG/soak_a" "$CG/soak_b" || fail "cannot remove the soak cgroups"
echo -cpu >"$CG/cgroup.subtree_control" 2>/dev/null

restarts=0
for log in $PUSH_LOGS; do
	restarts=$((restarts + $(push_restarts "$log")))
done
bad=$(bad_exits $PUSH_LOGS)

min="" zero=0 gap=0
for i in 1 2 3 4 5 6; do
	line=$(cat "$DIR/worker.$i")
	[ -n "$line" ] || fail "worker $i printed nothing"
	w_min=$(field min "$line")
	w_gap=$(field max_gap_ms "$line")
	zero=$((zero + $(field zero "$line")))
	if [ -z "$min" ] || [ "$w_min" -lt "$min" ]; then min=$w_min; fi
	[ "$w_gap" -le "$gap" ] || gap=$w_gap
	info "worker $i: $line"
done

info "seconds=$took hogs=$(cat "$DIR/hogs") hotplug_cycles=$cycles reloads=$reloads" \
	"restarts=$restarts cgroup_moves=$(cat "$DIR/moves")" \
	"affinity_changes=$(cat "$DIR/affinity") min_progress_per_${WINDOW_S}s=$min max_gap_ms=$gap"

[ -z "$bad" ] || fail "scx_push was ejected: $(echo "$bad" | head -n 1)"
[ "$restarts" -ge $((2 * cycles)) ] || fail "$restarts restarts for $((2 * cycles)) hotplug events"
[ "$zero" -eq 0 ] || fail "$zero ${WINDOW_S}s windows without progress (a worker starved)"
expect_eq "total_bw after the soak" "$(total_bw_all | sort -u)" "$bw_before"
expect_clean_dmesg
