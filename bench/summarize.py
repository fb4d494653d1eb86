#!/usr/bin/python3
"""Reduce a bench results directory to two tables of numbers.

    summarize.py RESULTS_DIR

Reads samples.csv and, when it is there, snap/ (written by
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
aggregate.csv config,workload,metric,cases,pairs,ratio,ci_lo,ci_hi: for a
              workload measured in two or more cases with the same metric
              (hackbench's groups and modes), one ratio to EEVDF over all of
              them: the geometric mean of the per-repetition ratios over the
              cases and paired repetitions, and its 95 % bootstrap interval
              (resamples of the repetitions, each drawn repetition with all
              its cases, so that a noisy stretch of the host counts once per
              case it hit). A single case's interval is wide under TCG; the
              mean over the cases resolves what they share.
counters.csv  config,workload,case,counter,n,median,total: per-case counters,
              their median and sum over the repetitions, from the case's
              schedstat record snap/REP.CONFIG.WORKLOAD.CASE.data (bench.sh
              runs each case under `schedstat record`; this reads them with
              `$SCHEDSTAT report --kv`, SCHEDSTAT from the environment,
              default schedstat). For every configuration: case_s (the
              case's run time), wait_ms (time tasks waited on a runqueue),
              schedule_calls and, per sched domain level, lb_<name>
              (load_balance() calls) and moved_<name> (tasks it moved); with
              scx_push's counters (its --stats-json): pulls, pushes,
              pull_tries, scan_ok (CPUs examined by successful pulls),
              busy_moves (tasks moved between busy CPUs, if the scx_push that
              ran counts them), preemptions (at once and at the next tick)
              and every raw counter. From the work-conservation monitor's
              totals before and after the case (snap/...CASE.pre.wc and
              .post.wc, bench/wcmon.c), for every configuration:
              idle_wait_pct (CPU time idle while a task that may run there
              waited on a busy CPU, % of CPUs x the case's time), idle_pct
              (CPU time idle, %) and wc_lost (events it could not count).

Only what was measured is written: no sample, no row. A directory without
snap/ but with counters.csv (a run copied by `bench/run --publish`) keeps its
counters.csv.
"""
import csv
import math
import os
import random
import statistics
import subprocess
import sys
from collections import defaultdict

BASELINE = "eevdf"
# The confidence interval of a ratio to EEVDF: 95 %, from this many paired
# bootstrap resamples drawn with this seed; none below MIN_PAIRS pairs.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 1
MIN_PAIRS = 3
# The program that reads the records: bench/schedstat.c's report --kv.
SCHEDSTAT = os.environ.get("SCHEDSTAT", "schedstat")
RECORD = ".data"
# The monitor's totals around a case, and the format of their files.
WC_PRE, WC_POST = ".pre.wc", ".post.wc"
WC_FORMAT = "1"
# report --kv's load_balance() calls of a level, one key per idle type.
LB_CALLS = ("lb_busy", "lb_idle", "lb_newidle")
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


def report_kv(path):
    """{key: value} of `schedstat report --kv` of a record (values are
    strings: domainN.name is not a number)."""
    p = subprocess.run([SCHEDSTAT, "report", "--kv", path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"summarize.py: {SCHEDSTAT} report --kv {path} failed: {p.stderr.strip()}")
    return dict(line.split(" ", 1) for line in p.stdout.splitlines())


def scx_push_counters(stats):
    """The raw counters of scx_push and the derived ones."""
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


def record_counters(kv):
    """The counters.csv counters of one record, from its report --kv: a
    level is named by its sched domain name, or domainN without one; levels
    of the same name add up."""
    c = defaultdict(int)
    c["case_s"] = int(kv["run.elapsed_ns"]) / 1e9
    c["wait_ms"] = int(kv["cpu.wait_ns"]) / 1e6
    c["schedule_calls"] = int(kv["cpu.sched_count"])
    for key, name in kv.items():
        level, _, field = key.partition(".")
        if field != "name":
            continue
        name = level if name == "-" else name
        c["lb_" + name] += sum(int(kv[f"{level}.{k}"]) for k in LB_CALLS)
        c["moved_" + name] += int(kv[f"{level}.lb_gained"])
    stats = {k[4:]: int(v) for k, v in kv.items() if k.startswith("scx.")}
    if stats:
        c.update(scx_push_counters(stats))
    return c


def read_wc(path):
    """{key: int} of a monitor's totals file ("wcmon 1", then KEY VALUE)."""
    with open(path) as f:
        lines = [line.split() for line in f.read().splitlines()]
    if not lines or lines[0] != ["wcmon", WC_FORMAT]:
        sys.exit(f"summarize.py: {path}:1: not a wcmon {WC_FORMAT} totals file")
    totals = {}
    for n, words in enumerate(lines[1:], 2):
        if len(words) != 2 or not words[1].isdigit():
            sys.exit(f"summarize.py: {path}:{n}: expected 'KEY NUMBER', got '{' '.join(words)}'")
        totals[words[0]] = int(words[1])
    return totals


def wc_counters(pre, post):
    """The case's shares of CPU time from the monitor's totals around it; {}
    when no time passed between them."""
    cpu_ns = post["cpus"] * (post["elapsed_ns"] - pre["elapsed_ns"])
    if cpu_ns <= 0:
        return {}
    return {"idle_wait_pct": 100 * (post["idle_wait_ns"] - pre["idle_wait_ns"]) / cpu_ns,
            "idle_pct": 100 * (post["idle_ns"] - pre["idle_ns"]) / cpu_ns,
            "wc_lost": post["lost"] - pre["lost"]}


def case_counters(snap_dir, tag):
    """The counters of one case (tag REP.CONFIG.WORKLOAD.CASE): its schedstat
    record's and the monitor's, each where there is one."""
    base = os.path.join(snap_dir, tag)
    c = {}
    if os.path.exists(base + RECORD):
        c.update(record_counters(report_kv(base + RECORD)))
    if os.path.exists(base + WC_PRE) and os.path.exists(base + WC_POST):
        c.update(wc_counters(read_wc(base + WC_PRE), read_wc(base + WC_POST)))
    return c


def read_counters(snap_dir):
    """{(config, workload, case, counter): [value per repetition]} from the
    records and monitor totals of snap_dir; empty without snap_dir."""
    counters = defaultdict(list)
    if not os.path.isdir(snap_dir):
        return counters
    tags = {f[:-len(end)] for f in os.listdir(snap_dir)
            for end in (RECORD, WC_POST) if f.endswith(end)}
    for tag in sorted(tags):
        rep, config, workload, case = tag.split(".", 3)
        if rep == "0":
            continue
        for name, value in case_counters(snap_dir, tag).items():
            counters[(config, workload, case, name)].append(value)
    return counters


def ratio_of_medians(values, base, reps):
    """median(values[r]) / median(base[r]) over reps (repetitions, repeats
    allowed); None when EEVDF's median is 0."""
    denominator = statistics.median(base[r] for r in reps)
    return statistics.median(values[r] for r in reps) / denominator if denominator else None


def percentile_interval(ratios):
    """(lo, hi): the 95 % percentile interval of bootstrap ratios."""
    cuts = statistics.quantiles(ratios, n=40, method="inclusive")
    return cuts[0], cuts[-1]


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
    return percentile_interval(ratios)


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


def geomean_of_pairs(by_case, base_by_case, reps):
    """The geometric mean of value / base over the cases of by_case and the
    repetitions reps (repeats allowed) that both sides ran."""
    logs = [math.log(values[r] / base_by_case[case][r])
            for r in reps for case, values in by_case.items()
            if r in values and r in base_by_case[case]]
    return math.exp(statistics.fmean(logs)) if logs else None


def geomean_columns(by_case, base_by_case):
    """[cases, pairs, ratio, ci_lo, ci_hi] over the cases both sides ran
    ({case: {rep: value}} each); None with fewer than two such cases. Values
    of 0 (no ratio) are left out."""
    by_case = {case: {r: v for r, v in values.items()
                      if v > 0 and base_by_case[case].get(r, 0) > 0}
               for case, values in by_case.items() if case in base_by_case}
    by_case = {case: values for case, values in by_case.items() if values}
    if len(by_case) < 2:
        return None
    reps = sorted({r for values in by_case.values() for r in values})
    pairs = sum(len(values) for values in by_case.values())
    ratio = geomean_of_pairs(by_case, base_by_case, reps)
    ci = ["", ""]
    if len(reps) >= MIN_PAIRS:
        rng = random.Random(BOOTSTRAP_SEED)
        ci = list(percentile_interval(
            [geomean_of_pairs(by_case, base_by_case, rng.choices(reps, k=len(reps)))
             for _ in range(BOOTSTRAP_RESAMPLES)]))
    return [len(by_case), pairs, ratio] + ci


def aggregate(values, baseline=BASELINE):
    """The rows of aggregate.csv, one per (config, workload, metric) with
    two or more cases paired with baseline's."""
    groups = defaultdict(dict)
    for (config, workload, case, metric), reps in values.items():
        groups[(config, workload, metric)][case] = reps
    rows = []
    for (config, workload, metric), by_case in sorted(groups.items()):
        base = groups.get((baseline, workload, metric))
        if config == baseline or not base:
            continue
        cols = geomean_columns(by_case, base)
        if cols:
            rows.append([config, workload, metric] + cols)
    return rows


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
    values = read_samples(os.path.join(d, "samples.csv"))
    write_csv(os.path.join(d, "summary.csv"),
              ["config", "workload", "case", "metric", "n", "median", "min", "max",
               "ratio", "ratio_min", "ratio_max", "pairs", "ci_lo", "ci_hi"],
              summarize(values))
    write_csv(os.path.join(d, "aggregate.csv"),
              ["config", "workload", "metric", "cases", "pairs", "ratio", "ci_lo", "ci_hi"],
              aggregate(values))
    snap = os.path.join(d, "snap")
    if not os.path.isdir(snap) and os.path.exists(os.path.join(d, "counters.csv")):
        return  # a published run: its counters.csv is all that is left of snap/
    counters = read_counters(snap)
    write_csv(os.path.join(d, "counters.csv"),
              ["config", "workload", "case", "counter", "n", "median", "total"],
              [list(k) + [len(v), float(statistics.median(v)), float(sum(v))]
               for k, v in sorted(counters.items())])


if __name__ == "__main__":
    main()
