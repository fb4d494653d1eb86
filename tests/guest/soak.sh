# Helpers for the soak and reload_loop guest tests (busybox sh), sourced after
# lib.sh and scx_push.sh.

CPU_SYSFS=/sys/devices/system/cpu

# rand N: sets RAND to a pseudo-random number in [0, N). A fixed-seed LCG
# (SOAK_SEED), so that a run repeats the same sequence of choices.
SOAK_SEED=${SOAK_SEED:-1}
rand() {
	SOAK_SEED=$(((SOAK_SEED * 1103515245 + 12345) % 2147483648))
	RAND=$((SOAK_SEED / 65536 % $1))
}

# hotplug_cpus: the CPUs that can go offline (cpu0 has no online file).
hotplug_cpus() {
	local f cpu
	for f in "$CPU_SYSFS"/cpu[0-9]*/online; do
		[ -w "$f" ] || continue
		cpu=${f%/online}
		echo "${cpu##*cpu}"
	done | sort -n | tr '\n' ' '
}

cpu_online() { [ "$(cat "$CPU_SYSFS/cpu$1/online" 2>/dev/null || echo 1)" = 1 ]; }

# all_cpus_online: bring every offline CPU back (cleanup after a failure).
all_cpus_online() {
	local f
	for f in "$CPU_SYSFS"/cpu[0-9]*/online; do
		[ "$(cat "$f")" = 1 ] || echo 1 >"$f"
	done
}

# push_restarts [LOG]: how many times the loader restarted as the kernel asked.
push_restarts() {
	grep -c '^scx_push: restarting as the kernel asked' "${1:-$SCX_PUSH_LOG}"
}

# bad_exits LOG...: the loader EXIT lines that are neither an unload from
# user space nor a restart that CPU hotplug asked for (cpu N going
# online/offline, or a hotplug sequence that changed while it loaded).
bad_exits() {
	grep -h '^EXIT: ' "$@" | grep -v -E \
		-e '^EXIT: unregistered from user space$' \
		-e '^EXIT: unregistered from the main kernel \(cpu [0-9]+ going (online|offline), exiting scheduler\)$' \
		-e '^EXIT: unregistered from the main kernel \(expected hotplug seq [0-9]+ did not match actual [0-9]+\)$'
}

# wait_push_restart BEFORE: wait until the loader restarted after the
# BEFORE-th restart and the new instance is enabled.
wait_push_restart() {
	local tries=300
	while [ "$(push_restarts)" -le "$1" ]; do
		tries=$((tries - 1))
		if [ "$tries" -eq 0 ] || ! kill -0 "$SCX_PUSH_PID" 2>/dev/null; then
			tail -n 5 "$SCX_PUSH_LOG"
			fail "scx_push did not restart after a hotplug event: $(grep '^EXIT' "$SCX_PUSH_LOG" | tail -n 1)"
		fi
		sleep 0.1
	done
	wait_for_state enabled 30 || fail "scx_push restarted but its state is '$(scx_state)'"
}

# bpf_objects: "progs=N maps=N links=N", the BPF objects the kernel holds.
bpf_objects() { bpf_count; }

# bpf_objects_within NOW BEFORE: no kind of object (progs, maps, links) in
# NOW outnumbers BEFORE. Fewer is not a leak: objects that earlier tests
# dropped may only be freed meanwhile (seen: 9 maps at the start of the
# reload loop in the full suite, 0 after it).
bpf_objects_within() {
	local k now before
	for k in progs maps links; do
		now=$(echo " $1" | sed -n "s/.* $k=\([0-9]*\).*/\1/p")
		before=$(echo " $2" | sed -n "s/.* $k=\([0-9]*\).*/\1/p")
		[ "${now:-x}" -le "${before:-0}" ] 2>/dev/null || return 1
	done
}

# wait_bpf_objects BEFORE TIMEOUT_S: wait until the kernel holds no more BPF
# objects of any kind than BEFORE (it frees programs and maps after an RCU
# grace period).
wait_bpf_objects() { wait_until "$2" bpf_objects_now_within "$1"; }
bpf_objects_now_within() { bpf_objects_within "$(bpf_objects)" "$1"; }

# uptime_cs: the time since boot in hundredths of a second (for durations
# finer than date +%s).
uptime_cs() {
	local up
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//;s/^$/0/'
}
