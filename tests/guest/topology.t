# The guest sees the topology vm/run was asked for: EXPECT_CPUS CPUs in
# EXPECT_NODES NUMA nodes of equal, contiguous CPU ranges, and EXPECT_LLCS
# last-level caches per node, each inside one node (read from sysfs).
. ./lib.sh

cpus=${EXPECT_CPUS:-8}
nodes=${EXPECT_NODES:-2}
llcs=${EXPECT_LLCS:-2}
sys=/sys/devices/system

expect_eq "online CPUs" "$(cat $sys/cpu/online)" "0-$((cpus - 1))"
got=$(ls -d $sys/node/node[0-9]* 2>/dev/null | wc -l)
expect_eq "NUMA node count" "$got" "$nodes"

per_node=$((cpus / nodes))
n=0
while [ "$n" -lt "$nodes" ]; do
	want="$((n * per_node))-$(((n + 1) * per_node - 1))"
	expect_eq "node$n cpulist" "$(cat $sys/node/node$n/cpulist)" "$want"
	n=$((n + 1))
done

# One L3 per LLC, each of cpus / (nodes * llcs) CPUs, none crossing a node.
per_llc=$((cpus / (nodes * llcs)))
groups=$(cat $sys/cpu/cpu[0-9]*/cache/index3/shared_cpu_list 2>/dev/null | sort -u)
[ -n "$groups" ] || fail "no L3 cache information in sysfs"
expect_eq "L3 count" "$(echo "$groups" | wc -l)" "$((nodes * llcs))"
for g in $groups; do
	first=${g%-*}
	last=${g#*-}
	expect_eq "CPUs in L3 $g" "$((last - first + 1))" "$per_llc"
	expect_eq "node of L3 $g" "$((first / per_node))" "$((last / per_node))"
done
info "nodes: $(cat $sys/node/node[0-9]*/cpulist | tr '\n' ' ')L3: $(echo $groups)"
