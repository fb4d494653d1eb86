#!/usr/bin/python3
"""Compare configurations of one bench run with another one than EEVDF.

    compare.py RESULTS_DIR BASE CONFIG...

The report measures every configuration against EEVDF. To tell two scx_push
variants apart, compare them with each other directly: for every case and
metric, each CONFIG's ratio of medians to BASE over the repetitions both ran
(repetition r of each ran interleaved in one boot) and its 95 % bootstrap
confidence interval, computed as summarize.py computes the ratios to EEVDF.
For a workload with two or more cases of a metric, a last row "all N
cases": the geometric mean of the paired ratios over them and its interval,
as summarize.py's aggregate.csv. Prints a markdown table; a "-" where a
configuration has no pair with BASE.
Reads only samples.csv, so it works on published runs (bench/results/).
"""
import os
import sys

import summarize


def ratio_text(ratio, lo, hi, no_ci):
    """"ratio [lo-hi]", or "ratio (no_ci)" without an interval."""
    return f"{ratio:.2f} ({no_ci})" if lo == "" else f"{ratio:.2f} [{lo:.2f}-{hi:.2f}]"


def cell(values, base):
    """"ratio [lo-hi]" of values against base, both {rep: value}."""
    ratio, _, _, pairs, lo, hi = summarize.ratio_columns(values, base)
    if ratio == "":
        return "-"
    return ratio_text(ratio, lo, hi, f"no CI: {pairs} reps")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d, base, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
    path = os.path.join(d, "samples.csv")
    if not os.path.exists(path):
        sys.exit(f"compare.py: {path}: no such file (not a bench run?)")
    values = summarize.read_samples(path)
    present = {k[0] for k in values}
    for c in [base] + configs:
        if c not in present:
            sys.exit(f"compare.py: {path}: no configuration '{c}' (there are: "
                     f"{' '.join(sorted(present))})")
    cases = sorted({k[1:] for k in values if k[0] == base})
    print(f"| workload | case | metric | {' | '.join(f'{c} / {base}' for c in configs)} |")
    print(f"|---|---|---|{'---:|' * len(configs)}")
    for workload, case, metric in cases:
        b = values[(base, workload, case, metric)]
        cells = [cell(values[(c, workload, case, metric)], b)
                 if (c, workload, case, metric) in values else "-" for c in configs]
        print(f"| {workload} | {case} | {metric} | {' | '.join(cells)} |")
    means = {tuple(row[:3]): row[3:] for row in summarize.aggregate(values, base)}
    for workload, metric in dict.fromkeys((w, m) for w, _, m in cases):
        cols = [means.get((c, workload, metric)) for c in configs]
        if any(cols):
            n = max(col[0] for col in cols if col)
            cells = [ratio_text(*col[2:], "no CI") if col else "-" for col in cols]
            print(f"| {workload} | all {n} cases | {metric} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
