# A cpuset partition change rebuilds the sched domains. A root domain that
# the rebuild keeps has its total_bw cleared and rebuilt from the -deadline
# tasks (dl_clear_root_domain()); the deadline servers' bandwidth must be
# kept: every CPU's total_bw stays 2 servers x SERVER_BW x the CPUs of its
# root domain, and a debugfs write on a server of the kept domain still
# works and moves total_bw by the difference.
#
# Partition A (CPUs 6-7) is created first, then partition B (CPUs 4-5):
# the second rebuild keeps A's domain.
. ./lib.sh

[ -d "$EXT_SERVER" ] || skip "kernel without the ext server ($EXT_SERVER)"
CG=/sys/fs/cgroup
[ -f "$CG/cgroup.procs" ] || fail "cgroup2 is not mounted at $CG"
grep -qw cpuset "$CG/cgroup.controllers" || skip "no cpuset controller"
SERVER_BW=52428
# to_ratio(1 s, 40 ms)
SERVER_BW_40MS=41943

cleanup() {
	echo "$EXT_RUNTIME_NS" >"$EXT_SERVER/cpu7/runtime"
	echo "$EXT_RUNTIME_NS" >/sys/kernel/debug/sched/fair_server/cpu7/runtime
	for g in part_b part_a; do
		[ -d "$CG/$g" ] || continue
		echo member >"$CG/$g/cpuset.cpus.partition"
		rmdir "$CG/$g"
	done
	echo -cpuset >"$CG/cgroup.subtree_control"
}
trap cleanup EXIT

# expect_bw WHEN CPULIST WANT: total_bw of each CPU of CPULIST is WANT.
expect_bw() {
	local cpu
	for cpu in $2; do
		expect_eq "total_bw of CPU $cpu $1" "$(dl_rq_field "$cpu" "dl_bw->total_bw")" "$3"
	done
}

boot_bw=$(total_bw_all | sort -u)
expect_eq "total_bw at boot" "$boot_bw" $((2 * SERVER_BW * 8))

echo +cpuset >"$CG/cgroup.subtree_control" || fail "cannot enable the cpuset controller"
mkdir "$CG/part_a" "$CG/part_b" || fail "cannot create cgroups under $CG"
echo 6-7 >"$CG/part_a/cpuset.cpus" &&
	echo root >"$CG/part_a/cpuset.cpus.partition" || fail "cannot make CPUs 6-7 a partition"
expect_eq "partition A" "$(cat "$CG/part_a/cpuset.cpus.partition")" root
info "partition A (6-7): total_bw $(total_bw_all | tr '\n' ' ')"
expect_bw "with partition A" "0 1 2 3 4 5" $((2 * SERVER_BW * 6))
expect_bw "with partition A" "6 7" $((2 * SERVER_BW * 2))

echo 4-5 >"$CG/part_b/cpuset.cpus" &&
	echo root >"$CG/part_b/cpuset.cpus.partition" || fail "cannot make CPUs 4-5 a partition"
expect_eq "partition B" "$(cat "$CG/part_b/cpuset.cpus.partition")" root
info "partitions A (6-7) and B (4-5): total_bw $(total_bw_all | tr '\n' ' ')"
expect_bw "with partitions A and B" "0 1 2 3" $((2 * SERVER_BW * 4))
expect_bw "with partitions A and B" "4 5" $((2 * SERVER_BW * 2))
expect_bw "with partitions A and B (A's domain kept)" "6 7" $((2 * SERVER_BW * 2))

# a write on a server of the kept domain
for s in "$EXT_SERVER" /sys/kernel/debug/sched/fair_server; do
	out=$( (echo 40000000 >"$s/cpu7/runtime") 2>&1) ||
		fail "lowering ${s##*/}/cpu7/runtime in the kept domain: $out"
	expect_bw "after ${s##*/}/cpu7 went to 40 ms" "6 7" $((2 * SERVER_BW * 2 - SERVER_BW + SERVER_BW_40MS))
	echo "$EXT_RUNTIME_NS" >"$s/cpu7/runtime" || fail "restoring ${s##*/}/cpu7/runtime"
	expect_bw "after ${s##*/}/cpu7 went back to 50 ms" "6 7" $((2 * SERVER_BW * 2))
done

trap - EXIT
cleanup
expect_eq "total_bw after removing the partitions" "$(total_bw_all | sort -u)" "$boot_bw"
