#!/usr/bin/python3
"""Reduce a bench results directory to two tables of numbers.

    summarize.py RESULTS_DIR

Reads samples.csv and, when they are there, meta.txt and snap/ (written by
bench/guest/bench.sh) and writes:

summary.csv   config,workload,case,metric,n,median,min,max,ratio,ratio_min,
              ratio_max,pairs,ci_lo,ci_hi: the median, min and max over the
              repetitions, and against EEVDF over the paired repetitions
              (repetition r of a configuration with repetition r of EEVDF:
              they ran interleaved in one boot, so a pair shares the host's
              noise): the ratio of the medians, the smallest and largest
              per-repetition ratio, the number of pairs and, from MIN_PAIRS
              pairs on, the ratio's 95 % bootstrap confidence interval
              (BOOTSTRAP_RESAMPLES resamples of the paired repetitions, the
              same repetitions on both sides; percentile interval; a fixed
              seed, so that the report is reproducible).
counters.csv  config,workload,case,counter,n,median,total: per-case deltas of
              the scheduler counters, their median and sum over the
              repetitions. From /proc/schedstat for every configuration:
              wait_ms (time tasks waited on a runqueue), schedule_calls and,
              per sched domain level, lb_<name> (load_balance() calls) and
              moved_<name> (tasks it moved); from scx_push's --stats-json:
              pulls, pushes, pull_tries, scan_ok (CPUs examined by successful
              pulls), busy_moves (tasks moved between busy CPUs, if the
              scx_push that ran counts them), preemptions (at once and at
              the next tick) and every raw counter.

Only what was measured is written: no sample, no row. A directory without
snap/ but with counters.csv (a run copied by `bench/run --publish`) keeps its
counters.csv.
"""
import csv
import json
import os
import random
import statistics
import sys
from collections import defaultdict

BASELINE = "eevdf"
# The confidence interval of a ratio to EEVDF: 95 %, from this many paired
# bootstrap resamples drawn with this seed; none below MIN_PAIRS pairs.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 1
MIN_PAIRS = 3
# /proc/schedstat version 16: per domain, 8 load_balance() fields for each
# cpu_idle_type (busy, idle, newly idle), then 12 others.
SCHEDSTAT_VERSION = 16
LB_FIELDS = 8
LB_COUNT, LB_GAINED = 0, 4
IDLE_TYPES = 3
# Fields of a cpuN line after the name.
SCHED_COUNT = 2  # schedule() calls
RUN_DELAY = 7  # ns tasks waited on the runqueue
# scx_push's counters of tasks moved between busy CPUs, per level (an
# scx_push older than its busy-CPU balancing has none).
BUSY_MOVES = ("busy_llc", "busy_node", "busy_remote")


def read_samples(path):
    """{(config, workload, case, metric): {rep: value}}"""
    values = defaultdict(dict)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["config"], row["workload"], row["case"], row["metric"])
            values[key][int(row["rep"])] = float(row["value"])
    return values


def domain_names(meta_path):
    """{'domain0': 'MC', ...} from the sched_domain lines of meta.txt; {}
    without meta.txt (the levels then keep their domainN names)."""
    names = {}
    if not os.path.exists(meta_path):
        return names
    with open(meta_path) as f:
        for line in f:
            words = line.split()
            if len(words) == 3 and words[0] == "sched_domain":
                names[words[1]] = words[2]
    return names


def parse_schedstat(path, names):
    """Totals over all CPUs: wait_ns, lb_<domain>, moved_<domain>."""
    totals = defaultdict(int)
    with open(path) as f:
        lines = f.read().splitlines()
    version = int(lines[0].split()[1])
    if version != SCHEDSTAT_VERSION:
        raise ValueError(f"{path}: schedstat version {version}, want {SCHEDSTAT_VERSION}")
    for line in lines[2:]:
        words = line.split()
        if words[0].startswith("cpu"):
            totals["wait_ns"] += int(words[1 + RUN_DELAY])
            totals["schedule_calls"] += int(words[1 + SCHED_COUNT])
        elif words[0].startswith("domain"):
            name = names.get(words[0], words[0])
            lb = [int(w) for w in words[2:2 + LB_FIELDS * IDLE_TYPES]]
            for t in range(IDLE_TYPES):
                totals["lb_" + name] += lb[t * LB_FIELDS + LB_COUNT]
                totals["moved_" + name] += lb[t * LB_FIELDS + LB_GAINED]
    return totals


def scx_push_counters(path):
    """The raw counters of a --stats-json file and the derived ones."""
    with open(path) as f:
        stats = json.load(f)["stats"]
    c = dict(stats)
    c["pulls"] = stats["pull_llc"] + stats["pull_node"] + stats["pull_remote"]
    c["pushes"] = stats["push_ok"] + stats["push_move"]
    c["pull_tries"] = stats["pull_llc_try"]
    c["scan_ok"] = stats["pull_scan_ok"]
    if all(k in stats for k in BUSY_MOVES):
        c["busy_moves"] = sum(stats[k] for k in BUSY_MOVES)
    if "preempt" in stats:
        c["preemptions"] = stats["preempt"] + stats.get("preempt_tick", 0)
    return c


def delta(pre, post):
    return {k: post[k] - pre[k] for k in post if k in pre}


def case_counters(snap_dir, tag, names):
    """Counter deltas of one case: tag is REP.CONFIG.WORKLOAD.CASE."""
    base = os.path.join(snap_dir, tag)
    out = {}
    if os.path.exists(base + ".pre.schedstat") and os.path.exists(base + ".post.schedstat"):
        d = delta(parse_schedstat(base + ".pre.schedstat", names),
                  parse_schedstat(base + ".post.schedstat", names))
        d["wait_ms"] = d.pop("wait_ns") / 1e6
        out.update(d)
    if os.path.exists(base + ".pre.json") and os.path.exists(base + ".post.json"):
        out.update(delta(scx_push_counters(base + ".pre.json"),
                         scx_push_counters(base + ".post.json")))
    return out


def read_counters(snap_dir, names):
    """{(config, workload, case, counter): [value per repetition]}; empty
    without snap_dir."""
    counters = defaultdict(list)
    if not os.path.isdir(snap_dir):
        return counters
    tags = sorted({f.split(".pre.")[0] for f in os.listdir(snap_dir) if ".pre." in f})
    for tag in tags:
        rep, config, workload, case = tag.split(".", 3)
        if rep == "0":
            continue
        for name, value in case_counters(snap_dir, tag, names).items():
            counters[(config, workload, case, name)].append(value)
    return counters


def ratio_of_medians(values, base, reps):
    """median(values[r]) / median(base[r]) over reps (repetitions, repeats
    allowed); None when EEVDF's median is 0."""
    denominator = statistics.median(base[r] for r in reps)
    return statistics.median(values[r] for r in reps) / denominator if denominator else None


def bootstrap_ci(values, base, pairs):
    """(lo, hi): the 95 % percentile interval of the ratio of medians over
    BOOTSTRAP_RESAMPLES resamples with replacement of the paired repetitions
    (the same ones on both sides); resamples with an EEVDF median of 0 are
    left out."""
    rng = random.Random(BOOTSTRAP_SEED)
    ratios = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        ratio = ratio_of_medians(values, base, rng.choices(pairs, k=len(pairs)))
        if ratio is not None:
            ratios.append(ratio)
    cuts = statistics.quantiles(ratios, n=40, method="inclusive")
    return cuts[0], cuts[-1]


def ratio_columns(values, base):
    """[ratio, ratio_min, ratio_max, pairs, ci_lo, ci_hi] of a configuration's
    values against EEVDF's (both {rep: value}), "" where nothing is defined."""
    pairs = sorted(r for r in values if r in base)
    ratio = ratio_of_medians(values, base, pairs) if pairs else None
    if ratio is None:
        return ["", "", "", len(pairs), "", ""]
    per_rep = [values[r] / base[r] for r in pairs if base[r]]
    spread = [min(per_rep), max(per_rep)] if per_rep else ["", ""]
    ci = list(bootstrap_ci(values, base, pairs)) if len(pairs) >= MIN_PAIRS else ["", ""]
    return [ratio] + spread + [len(pairs)] + ci


def summarize(values):
    """The rows of summary.csv, one per (config, workload, case, metric)."""
    rows = []
    for key in sorted(values):
        config, workload, case, metric = key
        reps = values[key]
        row = [config, workload, case, metric, len(reps), statistics.median(reps.values()),
               min(reps.values()), max(reps.values())]
        base = values.get((BASELINE, workload, case, metric))
        rows.append(row + (ratio_columns(reps, base) if base else [""] * 6))
    return rows


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow([f"{v:.6g}" if isinstance(v, float) else v for v in row])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    write_csv(os.path.join(d, "summary.csv"),
              ["config", "workload", "case", "metric", "n", "median", "min", "max",
               "ratio", "ratio_min", "ratio_max", "pairs", "ci_lo", "ci_hi"],
              summarize(read_samples(os.path.join(d, "samples.csv"))))
    snap = os.path.join(d, "snap")
    if not os.path.isdir(snap) and os.path.exists(os.path.join(d, "counters.csv")):
        return  # a published run: its counters.csv is all that is left of snap/
    counters = read_counters(snap, domain_names(os.path.join(d, "meta.txt")))
    write_csv(os.path.join(d, "counters.csv"),
              ["config", "workload", "case", "counter", "n", "median", "total"],
              [list(k) + [len(v), float(statistics.median(v)), float(sum(v))]
               for k, v in sorted(counters.items())])


if __name__ == "__main__":
    main()
