# Plot the ratios to EEVDF of a bench results directory: one panel per
# workload, one cluster per case, one bar per configuration (the ratio of the
# medians) with whiskers over its 95 % confidence interval (none when there
# were too few repetitions for one).
#
#   gnuplot -e "dir='build/bench/TIMESTAMP'" bench/plot.gp
#
# Reads dir/plot.dat and dir/plot.vars (written by report.py), writes
# dir/plot.png.

load dir.'/plot.vars'
nconf = words(configs)
nwl = words(workloads)

set terminal pngcairo size 1400, 380 * nwl font ',10'
set output dir.'/plot.png'
set datafile missing '?'
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 scale 0 nomirror
set ylabel 'ratio to EEVDF (log scale)'
set logscale y
set key outside right top vertical
set multiplot layout nwl, 1

do for [i = 1:nwl] {
	set title word(workloads, i)
	# Whole decades around the data and 1: the bars grow from the bottom,
	# so a panel of ratios near 1 must not start at 1.
	set autoscale y
	lo = 0.5; hi = 2
	do for [c = 2:3 * nconf + 1] {
		undefine STATS_*
		stats dir.'/plot.dat' index (i - 1) using c nooutput
		if (exists("STATS_records") && STATS_records > 0) {
			lo = STATS_min < lo ? STATS_min : lo
			hi = STATS_max > hi ? STATS_max : hi
		}
	}
	set yrange [10 ** floor(log10(lo)) : 10 ** ceil(log10(hi))]
	if (i > 1) { unset key }
	plot for [c = 1:nconf] dir.'/plot.dat' index (i - 1) \
		using (column(3 * c - 1)):(column(3 * c)):(column(3 * c + 1)):xtic(1) \
		title word(configs, c), \
		1 with lines lc 'black' dt 2 notitle
}
unset multiplot
