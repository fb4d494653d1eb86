#!/usr/bin/python3
"""Write report.md and the plot's data from a summarized results directory.

    report.py RESULTS_DIR

Reads meta.txt (guest facts), host.txt (host facts, from bench/run),
summary.csv and counters.csv (from summarize.py) and errors.csv; writes
report.md, plot.dat and plot.vars (for plot.gp). Ratios come first: under TCG
absolute times are emulation times. Whatever was not measured is printed as
"not measured" with the reason; no number is made up.
"""
import csv
import os
import sys
from collections import defaultdict

BASELINE = "eevdf"
PUSH = "push"
SCAN_FULL = "push-scanfull"
HIGHER_IS_BETTER = {"share_pct"}
METRIC_LABELS = {
    "time_s": "time (s)",
    "p50_us": "p50 latency (us)",
    "p99_us": "p99 latency (us)",
    "max_us": "max latency (us)",
    "usec_per_op": "us/op",
    "makespan_ms": "makespan (ms)",
    "spread_ms": "completion spread (ms)",
    "share_pct": "CPU share (%)",
}
WORKLOAD_TITLES = {
    "hackbench": "Messaging: hackbench (time, lower is better)",
    "pipe": "Context switch: perf bench sched pipe (us/op, lower is better)",
    "cyclictest": "Wakeup latency under load: cyclictest, SCHED_OTHER, "
                  "background hackbench (lower is better)",
    "oversub": "Oversubscribed CPU work: 2 x nCPU tasks, mixed affinity (lower is better)",
    "rt": "RT starvation: busy task next to a pinned SCHED_FIFO hog "
          "(CPU share, ~5% expected from a 50 ms / 1 s server)",
}
HACKBENCH_TARGET = 0.95
SCAN_TARGET = 1.5


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_pairs(path, sep=None):
    """Lines 'key value...' (or 'key: value' with sep=':') as (key, value)."""
    pairs = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition(sep or " ")
                pairs.append((key.strip(), value.strip()))
    return pairs


class Results:
    def __init__(self, d):
        self.dir = d
        self.meta = read_pairs(os.path.join(d, "meta.txt"))
        self.host = dict(read_pairs(os.path.join(d, "host.txt"), ":"))
        self.summary = {(r["config"], r["workload"], r["case"], r["metric"]): r
                        for r in read_csv(os.path.join(d, "summary.csv"))}
        self.counters = {(r["config"], r["workload"], r["case"], r["counter"]): r
                         for r in read_csv(os.path.join(d, "counters.csv"))}
        self.errors = read_csv(os.path.join(d, "errors.csv"))
        self.configs = [v.split()[0] for k, v in self.meta if k == "config"]
        self.config_args = {v.split()[0]: " ".join(v.split()[1:])
                            for k, v in self.meta if k == "config"}
        self.workloads = self.meta_value("workloads").split()
        self.compared = [c for c in self.configs if c != BASELINE]

    def meta_value(self, key):
        return next((v for k, v in self.meta if k == key), "")

    def cases(self, workload, baselined=False):
        """(case, metric) pairs of a workload, those EEVDF has with baselined."""
        seen = []
        for (c, w, case, metric) in self.summary:
            if w == workload and (case, metric) not in seen and \
                    (not baselined or (BASELINE, w, case, metric) in self.summary):
                seen.append((case, metric))
        return seen

    def case_configs(self, workload, case, metric):
        """The configurations that measured a case or failed at its workload."""
        return [c for c in self.configs if self.row(c, workload, case, metric)
                or self.error_for(c, workload)]

    def domains(self):
        names = [v.split()[1] for k, v in self.meta if k == "sched_domain"]
        return names or sorted({n[3:] for (_, _, _, n) in self.counters if n.startswith("lb_")})

    def row(self, config, workload, case, metric):
        return self.summary.get((config, workload, case, metric))

    def counter(self, config, workload, case, name, field="median"):
        r = self.counters.get((config, workload, case, name))
        return float(r[field]) if r else None

    def counter_total(self, config, name):
        vals = [float(r["total"]) for (c, _, _, n), r in self.counters.items()
                if c == config and n == name]
        return sum(vals) if vals else None

    def error_for(self, config, workload=None):
        for e in self.errors:
            if e["config"] == config and (workload is None or e["workload"] in (workload, "-")):
                return e["reason"]
        return None


def num(v, digits=3):
    v = float(v)
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def ratio_cell(r):
    if not r or not r["ratio"]:
        return "not measured"
    spread = f" [{float(r['ratio_min']):.2f}-{float(r['ratio_max']):.2f}]" if r["ratio_min"] else ""
    return f"{float(r['ratio']):.2f}{spread}"


def not_measured(res, config, workload):
    reason = res.error_for(config, workload)
    return f"not measured ({reason})" if reason else "not measured"


def header(res):
    nodes = defaultdict(set)
    for (k, v) in res.meta:
        if k.startswith("cpu") and k != "cpus":
            w = v.split()
            nodes[w[1]].add(w[3])
    topo_text = "; ".join(f"node CPUs {n}: LLCs {', '.join(sorted(llcs))}"
                          for n, llcs in sorted(nodes.items()))
    domains = " ".join(v.split()[1] for k, v in res.meta if k == "sched_domain")
    accel = res.host.get("accelerator", "unknown")
    accel_note = (" (absolute numbers are emulation times, 50-200x bare metal: "
                  "read the ratios)" if accel == "tcg" else "")
    configs = ", ".join(f"`{c}` = {res.config_args[c] or 'no BPF scheduler (CFS/EEVDF)'}"
                        for c in res.configs)
    dirty = res.host.get("uncommitted")
    dirty = f"; built with uncommitted changes to {dirty}" if dirty else ""
    lines = [
        "# scx_push vs EEVDF: benchmark report",
        "",
        "| | |",
        "|---|---|",
        f"| date | {res.host.get('date', 'unknown')} |",
        f"| kernel | {res.meta_value('kernel')} |",
        f"| patches | {res.host.get('patches', 'unknown')} |",
        f"| guest topology | {res.meta_value('cpus')} CPUs; {topo_text}; "
        f"sched domains {domains or 'unknown'} |",
        f"| accelerator | {accel}{accel_note} |",
        f"| host | {res.host.get('host_cpus', '?')} CPUs, {res.host.get('host_cpu_model', '?')} |",
        f"| repetitions | {res.meta_value('reps')} per configuration, interleaved in one boot; "
        f"sizes `{res.meta_value('size')}`; settle {res.meta_value('settle_s')} s |",
        f"| configurations | {configs} |",
        f"| source | {res.host.get('git', 'unknown')}{dirty} |",
        f"| duration | {res.host.get('duration', 'unknown')} |",
        "",
        "Each number is the median over the repetitions. A ratio is a configuration's "
        "median over EEVDF's; [a-b] is its spread: the smallest and largest ratio of one "
        "repetition's value to EEVDF's value in the same repetition. Below 1 is better, "
        "except for CPU shares.",
        "",
    ]
    return lines


def summary_table(res):
    lines = ["## Summary: ratio to EEVDF", "",
             "| workload | case | metric | EEVDF median | " + " | ".join(res.compared) + " |",
             "|---|---|---|---:|" + "---:|" * len(res.compared)]
    for w in res.workloads:
        for case, metric in res.cases(w, baselined=True):
            base = res.row(BASELINE, w, case, metric)
            cells = [ratio_cell(res.row(c, w, case, metric)) for c in res.compared]
            lines.append(f"| {w} | {case} | {METRIC_LABELS.get(metric, metric)} | "
                         f"{num(base['median']) if base else 'not measured'} | "
                         + " | ".join(cells) + " |")
    return lines + [""]


def lb_text(res, config, w, case):
    """'MC 12/3 PKG 4/0 NUMA 1/0': load_balance() calls / tasks moved."""
    parts = []
    for name in res.domains():
        calls = res.counter(config, w, case, "lb_" + name)
        moved = res.counter(config, w, case, "moved_" + name)
        if calls is not None:
            parts.append(f"{name} {calls:.0f}/{moved:.0f}")
    return " ".join(parts) or "not measured"


def push_text(res, config, w, case):
    pulls = res.counter(config, w, case, "pulls")
    if pulls is None:
        return "-", "-", "-"
    pushes = res.counter(config, w, case, "pushes")
    scan = res.counter(config, w, case, "scan_ok", "total")
    pulls_total = res.counter(config, w, case, "pulls", "total")
    per_pull = f"{scan / pulls_total:.2f}" if pulls_total else "no pulls"
    return f"{pulls:.0f}", f"{pushes:.0f}", per_pull


def workload_table(res, w):
    lines = [f"## {WORKLOAD_TITLES.get(w, w)}", "",
             "| case | metric | config | median | min | max | ratio [spread] | pulls | pushes "
             "| CPUs examined / pull | load_balance calls/moved | schedule() calls "
             "| runqueue wait (ms) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for case, metric in res.cases(w):
        for c in res.case_configs(w, case, metric):
            r = res.row(c, w, case, metric)
            if not r:
                lines.append(f"| {case} | {METRIC_LABELS.get(metric, metric)} | {c} | "
                             f"{not_measured(res, c, w)} | | | | | | | | | |")
                continue
            pulls, pushes, per_pull = push_text(res, c, w, case)
            wait = res.counter(c, w, case, "wait_ms")
            calls = res.counter(c, w, case, "schedule_calls")
            ratio = "1" if c == BASELINE else ratio_cell(r) if r["ratio"] else "no EEVDF run"
            lines.append(
                f"| {case} | {METRIC_LABELS.get(metric, metric)} | {c} | {num(r['median'])} | "
                f"{num(r['min'])} | {num(r['max'])} | {ratio} | {pulls} | {pushes} | "
                f"{per_pull} | {lb_text(res, c, w, case)} | "
                f"{'not measured' if calls is None else f'{calls:.0f}'} | "
                f"{'not measured' if wait is None else f'{wait:.0f}'} |")
    lines += ["", "pulls, pushes: scx_push's counters over the case (median over the "
              "repetitions); CPUs examined / pull: over all repetitions; load_balance "
              "(tasks moved) and schedule(): /proc/schedstat, all CPUs, per sched domain; "
              "runqueue wait: schedstat run_delay summed over all CPUs. Medians over the "
              "repetitions.", ""]
    return lines


def verdict(ok):
    return "**met**" if ok else "**missed**"


def targets(res):
    lines = ["## Targets (scx_push defaults vs EEVDF)", ""]
    hb = [(case, res.row(PUSH, "hackbench", case, m)) for case, m in res.cases("hackbench")]
    if not hb or any(not r or not r["ratio"] for _, r in hb):
        lines.append(f"- hackbench <= {HACKBENCH_TARGET}x EEVDF in every group count: "
                     f"{not_measured(res, PUSH, 'hackbench')}")
    else:
        ok = all(float(r["ratio"]) <= HACKBENCH_TARGET for _, r in hb)
        detail = ", ".join(f"{case} {float(r['ratio']):.2f}" for case, r in hb)
        lines.append(f"- hackbench <= {HACKBENCH_TARGET}x EEVDF in every group count: "
                     f"{verdict(ok)} ({detail})")
    r = res.row(PUSH, "cyclictest", "hackbench-g1f4", "p99_us")
    lines.append("- cyclictest p99 <= EEVDF: " +
                 (f"{verdict(float(r['ratio']) <= 1)} (ratio {ratio_cell(r)})"
                  if r and r["ratio"] else not_measured(res, PUSH, "cyclictest")))
    mk = res.row(PUSH, "oversub", "2xcpus", "makespan_ms")
    sp = res.row(PUSH, "oversub", "2xcpus", "spread_ms")
    if mk and sp and mk["ratio"] and sp["ratio"]:
        ok = float(mk["ratio"]) <= 1 and float(sp["ratio"]) <= 1
        lines.append(f"- oversubscribed makespan <= EEVDF with a spread no wider: {verdict(ok)} "
                     f"(makespan {ratio_cell(mk)}, spread {ratio_cell(sp)})")
    else:
        lines.append("- oversubscribed makespan <= EEVDF with a spread no wider: "
                     + not_measured(res, PUSH, "oversub"))
    lines.append("- CPUs examined per successful pull <= 1.5 with masks (vs ~7 with "
                 "--scan full): " + scan_target(res))
    return lines + [""]


def per_pull(res, config):
    scan, pulls = res.counter_total(config, "scan_ok"), res.counter_total(config, "pulls")
    if scan is None or not pulls:
        return None, pulls
    return scan / pulls, pulls


def scan_target(res):
    mask, pulls = per_pull(res, PUSH)
    if mask is None:
        return not_measured(res, PUSH) if pulls is None else "not measured (no pulls)"
    full, _ = per_pull(res, SCAN_FULL)
    full_text = f"{full:.2f} with --scan full" if full is not None else \
        f"--scan full {not_measured(res, SCAN_FULL)}"
    return (f"{verdict(mask <= SCAN_TARGET)} ({mask:.2f} with masks over {pulls:.0f} pulls; "
            f"{full_text})")


def selftest(res):
    rows = [(case, r) for (c, w, case, m), r in res.summary.items()
            if c == "selftest" and w == "rt_stall"]
    lines = ["## rt_stall selftest (its own minimal scheduler; one run)", ""]
    if not rows:
        return lines + [not_measured(res, "selftest"), ""]
    lines += ["| phase | class | CPU share (%) |", "|---|---|---:|"]
    for case, r in sorted(rows):
        phase, cls = case.split("-", 1)
        lines.append(f"| {phase[5:]} | {cls} | {num(r['median'])} |")
    return lines + [""]


def work_conservation():
    return ["## Work conservation", "",
            "Time during which a CPU was idle while a task waited: **not measured**. "
            "scx_push's --stats-json has no such counter and CFS/EEVDF has none. The "
            "runqueue wait column above (schedstat run_delay) is the time tasks waited, "
            "whether a CPU was idle or not.", ""]


def errors(res):
    if not res.errors:
        return []
    lines = ["## Errors", "", "| rep | config | workload | case | reason |",
             "|---|---|---|---|---|"]
    for e in res.errors:
        lines.append(f"| {e['rep']} | {e['config']} | {e['workload']} | {e['case']} | "
                     f"{e['reason'].replace('|', '/')} |")
    return lines + [""]


def write_plot_data(res):
    """One block per workload: label, then ratio, min, max per compared config."""
    with open(os.path.join(res.dir, "plot.dat"), "w") as f:
        for w in res.workloads:
            f.write(f"# {w}\n")
            for case, metric in res.cases(w, baselined=True):
                cells = []
                for c in res.compared:
                    r = res.row(c, w, case, metric)
                    if r and r["ratio"]:
                        lo = r["ratio_min"] or r["ratio"]
                        hi = r["ratio_max"] or r["ratio"]
                        cells += [r["ratio"], lo, hi]
                    else:
                        cells += ["?", "?", "?"]
                label = case if metric in ("time_s", "usec_per_op", "share_pct") else \
                    f"{case} {metric.split('_')[0]}"
                f.write(f"\"{label}\" " + " ".join(cells) + "\n")
            f.write("\n\n")
    with open(os.path.join(res.dir, "plot.vars"), "w") as f:
        f.write(f"configs = '{' '.join(res.compared)}'\n")
        f.write(f"workloads = '{' '.join(res.workloads)}'\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    res = Results(sys.argv[1])
    lines = header(res) + summary_table(res) + targets(res)
    for w in res.workloads:
        lines += workload_table(res, w)
    lines += selftest(res) + work_conservation() + errors(res)
    lines += ["## Plot", "", "Ratio to EEVDF per workload and configuration (bars: median "
              "ratio; whiskers: per-repetition spread; the line at 1 is EEVDF).", "",
              "![normalized results](plot.png)", ""]
    with open(os.path.join(res.dir, "report.md"), "w") as f:
        f.write("\n".join(lines))
    write_plot_data(res)


if __name__ == "__main__":
    main()
