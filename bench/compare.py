#!/usr/bin/python3
"""Compare configurations of one bench run with another one than EEVDF.

    compare.py RESULTS_DIR BASE CONFIG...

The report measures every configuration against EEVDF. To tell two scx_push
variants apart, compare them with each other directly: for every case and
metric, each CONFIG's ratio of medians to BASE over the repetitions both ran
(repetition r of each ran interleaved in one boot) and its 95 % bootstrap
confidence interval, computed as summarize.py computes the ratios to EEVDF.
Prints a markdown table; a "-" where a configuration has no pair with BASE.
Reads only samples.csv, so it works on published runs (bench/results/).
"""
import os
import sys

import summarize


def cell(values, base):
    """"ratio [lo-hi]" of values against base, both {rep: value}."""
    ratio, _, _, pairs, lo, hi = summarize.ratio_columns(values, base)
    if ratio == "":
        return "-"
    if lo == "":
        return f"{ratio:.2f} (no CI: {pairs} reps)"
    return f"{ratio:.2f} [{lo:.2f}-{hi:.2f}]"


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


if __name__ == "__main__":
    main()
