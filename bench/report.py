#!/usr/bin/python3
"""Write report.md and the plot's data from a summarized results directory.

    report.py RESULTS_DIR

Reads meta.txt (guest facts), host.txt (host facts, from bench/run),
summary.csv, aggregate.csv and counters.csv (from summarize.py) and
errors.csv; writes report.md, plot.dat and plot.vars (for plot.gp). Ratios
come first, each with its 95 % confidence interval: under TCG absolute times
are emulation times. Whatever was not measured is printed as "not measured"
with the reason; no number is made up.
"""
import csv
import os
import re
import sys
from collections import defaultdict

from summarize import BASELINE, BOOTSTRAP_RESAMPLES, MIN_PAIRS

PUSH = "push"
SCAN_FULL = "push-scanfull"
METRIC_LABELS = {
    "time_s": "time (s)",
    "p50_us": "p50 latency (us)",
    "p99_us": "p99 latency (us)",
    "max_us": "max latency (us)",
    "usec_per_op": "us/op",
    "makespan_ms": "makespan (ms)",
    "makespan_norm": "makespan / (CPU time / CPUs)",
    "spread_ms": "completion spread (ms)",
    "share_pct": "CPU share (%)",
}
WORKLOAD_TITLES = {
    "hackbench": "Messaging over pipes: hackbench (time, lower is better)",
    "hackbench-socket": "Messaging over sockets: hackbench (time, lower is better; "
                        "erratic under TCG with every scheduler)",
    "pipe": "Context switch: perf bench sched pipe (us/op, lower is better)",
    "cyclictest": "Wakeup latency under load: cyclictest, SCHED_OTHER, "
                  "background hackbench (lower is better)",
    "oversub": "Oversubscribed CPU work: 2 x nCPU tasks, mixed affinity (lower is better)",
    "rt": "RT starvation: busy task next to a pinned SCHED_FIFO hog "
          "(CPU share, ~5% expected from a 50 ms / 1 s server)",
}
# scx_push's counters in the per-workload tables: (counter, column title);
# "-" where a scheduler (or an older scx_push) does not count it.
PUSH_COUNTERS = (
    ("pull_tries", "pulls searching"),
    ("pull_gated", "gated pulls"),
    ("pulls", "pulls"),
    ("pushes", "pushes"),
    ("busy_moves", "busy moves"),
    ("sync_wake", "sync placements"),
    ("wake_affine", "wake affine"),
    ("preemptions", "preemptions"),
    ("pull_hot", "skipped hot pulls"),
)

# The targets of scx_push's defaults against EEVDF: upper limits on ratios of
# lower-is-better metrics, met only when the 95 % interval is below them.
HACKBENCH_PIPE_CASE = re.compile(r"(proc|thread)-pipe-g[0-9]+$")
HACKBENCH_EVERY = 1.00  # in every case
HACKBENCH_HALF = 0.95  # in at least half of the cases
LIMITS = (
    ("cyclictest", "p99_us", "cyclictest p99 latency", 1.00),
    ("cyclictest", "p50_us", "cyclictest p50 latency", 1.20),
    ("oversub", "spread_ms", "oversubscribed completion spread", 1.5),
    ("oversub", "makespan_ms", "oversubscribed makespan", 1.02),
    # The same with the host's speed divided out (the tasks' CPU time per
    # CPU): under TCG the makespan follows how fast the host ran the vCPUs.
    ("oversub", "makespan_norm", "oversubscribed makespan over CPU time per CPU", 1.02),
)
SCAN_TARGET = 1.5
# Work conservation: idle-while-waiting CPU time (wcmon), % of CPU time,
# under these workloads, for every configuration.
WC_TARGET = 1.0
WC_WORKLOADS = ("hackbench", "oversub")
WC_NOTE = ("idle while waiting: CPU time during which a CPU was idle while a task "
           "allowed on it waited on a busy CPU's runqueue, in % of the CPUs x the "
           "case's time (the work-conservation monitor bench/wcmon.bpf.c, the same "
           "for every scheduler; its top comment has the approximations: a task "
           "queued on an idle CPU counts as on its way there, a sched_ext task as "
           "waiting at its task_cpu() whatever its DSQ, a task's allowed CPUs as "
           "of the start of its wait)")
RT_BAND = (0.95, 1.05)
MET, NOT_RESOLVED, MISSED = "met", "not resolved", "missed"

CI_LEGEND = (f"ratio [lo-hi]: the configuration's median over EEVDF's median, over "
             f"the repetitions both ran (repetition r of each ran interleaved in one "
             f"boot), and [lo-hi] its 95 % bootstrap confidence interval "
             f"({BOOTSTRAP_RESAMPLES} resamples of the paired repetitions, percentile "
             f"interval); \"(no CI: N reps)\" with fewer than {MIN_PAIRS} paired "
             f"repetitions. Below 1 is better, except for CPU shares.")
GEOMEAN_LEGEND = ("all N cases: the geometric mean of the per-repetition ratios over the "
                  "cases and paired repetitions, and its 95 % bootstrap interval "
                  "(resamples of whole repetitions, every case of a drawn repetition "
                  "with it): one number for what the cases share, with a narrower "
                  "interval than any single case's.")


def read_csv(path):
    """The rows of a CSV file as dicts, [] without the file."""
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
        self.aggregate = {(r["config"], r["workload"], r["metric"]): r
                          for r in read_csv(os.path.join(d, "aggregate.csv"))}
        self.errors = read_csv(os.path.join(d, "errors.csv"))
        self.configs = [v.split()[0] for k, v in self.meta if k == "config"]
        self.config_args = {v.split()[0]: " ".join(v.split()[1:])
                            for k, v in self.meta if k == "config"}
        self.workloads = self.meta_value("workloads").split()
        self.compared = [c for c in self.configs if c != BASELINE]

    def meta_value(self, key):
        """The value of the first meta.txt line with key, "" if none."""
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
        """The sched domain level names, from meta.txt or else the counters."""
        names = [v.split()[1] for k, v in self.meta if k == "sched_domain"]
        return names or sorted({n[3:] for (_, _, _, n) in self.counters if n.startswith("lb_")})

    def row(self, config, workload, case, metric):
        """The summary.csv row of a measurement, None if there is none."""
        return self.summary.get((config, workload, case, metric))

    def counter(self, config, workload, case, name, field="median"):
        """A counters.csv value as a float, None if it was not counted."""
        r = self.counters.get((config, workload, case, name))
        return float(r[field]) if r else None

    def counter_total(self, config, name):
        """A counter's total over all cases and repetitions, None if none."""
        vals = [float(r["total"]) for (c, _, _, n), r in self.counters.items()
                if c == config and n == name]
        return sum(vals) if vals else None

    def error_for(self, config, workload=None):
        """The reason of the first error of a configuration (at a workload)."""
        for e in self.errors:
            if e["config"] == config and (workload is None or e["workload"] in (workload, "-")):
                return e["reason"]
        return None


def num(v, digits=3):
    """A value with 3 significant digits, whole numbers from 1000 on."""
    v = float(v)
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def has_ci(r):
    """Whether a summary row has a confidence interval."""
    return bool(r["ci_lo"])


def ratio_cell(r):
    """'ratio [lo-hi]' (95 % interval), 'ratio (no CI: N reps)' or 'not measured'."""
    if not r or not r["ratio"]:
        return "not measured"
    if not has_ci(r):
        reps = "1 rep" if r["pairs"] == "1" else f"{r['pairs']} reps"
        return f"{float(r['ratio']):.2f} (no CI: {reps})"
    return f"{float(r['ratio']):.2f} [{float(r['ci_lo']):.2f}-{float(r['ci_hi']):.2f}]"


def spread_cell(r):
    """'min-max' of the per-repetition ratios, "" without any."""
    if not r["ratio_min"]:
        return ""
    return f"{float(r['ratio_min']):.2f}-{float(r['ratio_max']):.2f}"


def not_measured(res, config, workload=None):
    """'not measured', with the reason when one is known."""
    reason = res.error_for(config, workload)
    if not reason and config not in res.configs:
        reason = f"configuration {config} not in this run"
    elif not reason and workload and workload not in res.workloads:
        reason = f"workload {workload} not in this run"
    return f"not measured ({reason})" if reason else "not measured"


def header(res):
    """The title and the table of facts about the run."""
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
    return [
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
        "Each number is the median over the repetitions. Ratios compare a configuration "
        "with EEVDF repetition by repetition; the legend under each table says how.",
        "",
    ]


def geomean_cell(r):
    """'ratio [lo-hi]' of an aggregate.csv row, 'ratio (no CI)' or '-'."""
    if not r:
        return "-"
    if not r["ci_lo"]:
        return f"{float(r['ratio']):.2f} (no CI)"
    return f"{float(r['ratio']):.2f} [{float(r['ci_lo']):.2f}-{float(r['ci_hi']):.2f}]"


def geomean_rows(res, w):
    """The summary rows of a workload's geometric means, one per metric."""
    lines = []
    for metric in dict.fromkeys(m for _, m in res.cases(w, baselined=True)):
        rows = [res.aggregate.get((c, w, metric)) for c in res.compared]
        if not any(rows):
            continue
        cases = max(int(r["cases"]) for r in rows if r)
        lines.append(f"| {w} | all {cases} cases | {METRIC_LABELS.get(metric, metric)} | | " +
                     " | ".join(geomean_cell(r) for r in rows) + " |")
    return lines


def summary_table(res):
    """One row per measured metric, one ratio column per configuration, and
    a workload's geometric mean over its cases."""
    lines = ["## Summary: ratio to EEVDF", "",
             "| workload | case | metric | EEVDF median | " + " | ".join(res.compared) + " |",
             "|---|---|---|---:|" + "---:|" * len(res.compared)]
    for w in res.workloads:
        for case, metric in res.cases(w, baselined=True):
            base = res.row(BASELINE, w, case, metric)
            cells = [ratio_cell(res.row(c, w, case, metric)) for c in res.compared]
            lines.append(f"| {w} | {case} | {METRIC_LABELS.get(metric, metric)} | "
                         f"{num(base['median'])} | " + " | ".join(cells) + " |")
        lines += geomean_rows(res, w)
    legend = [CI_LEGEND] + ([GEOMEAN_LEGEND] if res.aggregate else [])
    return lines + [""] + [" ".join(legend), ""]


def lb_text(res, config, w, case):
    """'MC 12/3 PKG 4/0 NUMA 1/0': load_balance() calls / tasks moved."""
    parts = []
    for name in res.domains():
        calls = res.counter(config, w, case, "lb_" + name)
        moved = res.counter(config, w, case, "moved_" + name)
        if calls is not None:
            parts.append(f"{name} {calls:.0f}/{moved:.0f}")
    return " ".join(parts) or "not measured"


def push_cells(res, config, w, case):
    """The PUSH_COUNTERS medians of a case, "-" where not counted."""
    return [f"{v:.0f}" if v is not None else "-"
            for v in (res.counter(config, w, case, name) for name, _ in PUSH_COUNTERS)]


def per_pull_cell(res, config, w, case):
    """CPUs examined per successful pull over all repetitions of a case."""
    scan = res.counter(config, w, case, "scan_ok", "total")
    pulls = res.counter(config, w, case, "pulls", "total")
    if scan is None or pulls is None:
        return "-"
    return f"{scan / pulls:.2f}" if pulls else "no pulls"


def results_table(res, w):
    """A workload's measurements: one row per case, metric and configuration."""
    lines = ["| case | metric | config | median | min | max | ratio [95 % CI] "
             "| per-rep ratios |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for case, metric in res.cases(w):
        label = METRIC_LABELS.get(metric, metric)
        for c in res.case_configs(w, case, metric):
            r = res.row(c, w, case, metric)
            if not r:
                lines.append(f"| {case} | {label} | {c} | {not_measured(res, c, w)} | | | | |")
                continue
            if c == BASELINE:
                ratio, spread = "1", ""
            else:
                ratio = ratio_cell(r) if r["ratio"] else "no EEVDF run"
                spread = spread_cell(r)
            lines.append(f"| {case} | {label} | {c} | {num(r['median'])} | {num(r['min'])} | "
                         f"{num(r['max'])} | {ratio} | {spread} |")
    return lines + ["", "ratio [95 % CI]: the ratio of the medians over the paired "
                    "repetitions and its 95 % bootstrap confidence interval, as in the "
                    "summary; per-rep ratios: the smallest and largest ratio of one "
                    "repetition's value to EEVDF's in the same repetition.", ""]


def counters_table(res, w):
    """A workload's scheduler counters: one row per case and configuration."""
    lines = ["| case | config | " + " | ".join(t for _, t in PUSH_COUNTERS) +
             " | CPUs examined / pull | load_balance calls/moved | schedule() calls "
             "| runqueue wait (ms) | idle while waiting (% CPU) |",
             "|---|---|" + "---:|" * (len(PUSH_COUNTERS) + 1) + "---|---:|---:|---:|"]
    for case in dict.fromkeys(case for case, _ in res.cases(w)):
        for c in res.configs:
            calls = res.counter(c, w, case, "schedule_calls")
            wait = res.counter(c, w, case, "wait_ms")
            idle_wait = res.counter(c, w, case, "idle_wait_pct")
            if calls is None and idle_wait is None and res.counter(c, w, case, "pulls") is None:
                continue
            lines.append(
                f"| {case} | {c} | " + " | ".join(push_cells(res, c, w, case)) +
                f" | {per_pull_cell(res, c, w, case)} | {lb_text(res, c, w, case)} | "
                f"{'not measured' if calls is None else f'{calls:.0f}'} | "
                f"{'not measured' if wait is None else f'{wait:.0f}'} | "
                f"{'not measured' if idle_wait is None else f'{idle_wait:.2f}'} |")
    if len(lines) == 2:
        return ["Counters: not measured (no snapshots).", ""]
    return lines + ["", "scx_push's counters over the case, medians over the repetitions: "
                    "pulls; pushes (to idle CPUs); busy moves (tasks moved between busy "
                    "CPUs, all levels); sync placements (wakeups placed by "
                    "SCX_WAKE_SYNC); wake affine (wakeups queued on the waker's "
                    "CPU, none being idle); preemptions (by wakeups, at once or at "
                    "the next tick); skipped hot pulls "
                    "(cache-hot tasks a pull passed over); \"-\": not counted by this "
                    "scheduler or by the scx_push that ran. CPUs examined / pull: over "
                    "all repetitions. load_balance (tasks moved) and schedule(): "
                    "/proc/schedstat, all CPUs, per sched domain; runqueue wait: "
                    "schedstat run_delay summed over all CPUs; " + WC_NOTE +
                    ", median over the repetitions.", ""]


def workload_section(res, w):
    """A workload's results table and counters table."""
    return ([f"## {WORKLOAD_TITLES.get(w, w)}", ""] + results_table(res, w) +
            counters_table(res, w))


def bold(verdict):
    """The verdict in bold."""
    return f"**{verdict}**"


def judge(r, limit):
    """MET when the interval's upper end is below limit, MISSED when the
    ratio is above it, else NOT_RESOLVED (also without an interval)."""
    if float(r["ratio"]) > limit:
        return MISSED
    return MET if has_ci(r) and float(r["ci_hi"]) < limit else NOT_RESOLVED


def overall(verdicts):
    """MISSED if any is missed, MET if all are met, else NOT_RESOLVED."""
    if MISSED in verdicts:
        return MISSED
    return MET if all(v == MET for v in verdicts) else NOT_RESOLVED


def hackbench_targets(res):
    """The two hackbench-over-pipes lines and a table of their cases."""
    every = f"- hackbench over pipes <= {HACKBENCH_EVERY:.2f} in every case"
    half = f"- hackbench over pipes <= {HACKBENCH_HALF:.2f} in at least half of the cases"
    rows = [(case, res.row(PUSH, "hackbench", case, m)) for case, m in res.cases("hackbench")
            if HACKBENCH_PIPE_CASE.match(case)]
    if not rows or any(not r or not r["ratio"] for _, r in rows):
        reason = not_measured(res, PUSH, "hackbench")
        return [f"{every}: {reason}", f"{half}: {reason}"]
    at_every = [judge(r, HACKBENCH_EVERY) for _, r in rows]
    at_half = [judge(r, HACKBENCH_HALF) for _, r in rows]
    need = (len(rows) + 1) // 2
    if at_half.count(MET) >= need:
        half_verdict = MET
    elif len(rows) - at_half.count(MISSED) < need:
        half_verdict = MISSED
    else:
        half_verdict = NOT_RESOLVED
    lines = [f"{every}: {bold(overall(at_every))} (of {len(rows)} cases: {counts(at_every)})",
             f"{half}: {bold(half_verdict)} ({need} of {len(rows)} needed: {counts(at_half)})",
             "",
             f"| hackbench case | push / EEVDF [95 % CI] | <= {HACKBENCH_EVERY:.2f} "
             f"| <= {HACKBENCH_HALF:.2f} |", "|---|---:|---|---|"]
    lines += [f"| {case} | {ratio_cell(r)} | {e} | {h} |"
              for (case, r), e, h in zip(rows, at_every, at_half)]
    mean = res.aggregate.get((PUSH, "hackbench", "time_s"))
    if mean:
        lines += ["", f"Over all {mean['cases']} cases (geometric mean of the paired "
                  f"ratios, not a target): {geomean_cell(mean)}."]
    return lines + [""]


def counts(verdicts):
    """'2 met, 1 not resolved, 5 missed' (the kinds that occur)."""
    return ", ".join(f"{verdicts.count(v)} {v}" for v in (MET, NOT_RESOLVED, MISSED)
                     if v in verdicts)


def limit_target(res, workload, metric, title, limit):
    """One '<= limit' target line of a push / EEVDF ratio."""
    text = f"- {title} <= {limit:.2f}x EEVDF's: "
    case = next((c for c, m in res.cases(workload) if m == metric), None)
    r = res.row(PUSH, workload, case, metric) if case else None
    if not r or not r["ratio"]:
        return text + not_measured(res, PUSH, workload)
    return text + f"{bold(judge(r, limit))} ({ratio_cell(r)})"


def rt_target(res):
    """The RT share line: unchanged when the interval contains 1.0 or lies
    within RT_BAND."""
    lo_band, hi_band = RT_BAND
    text = (f"- RT-starvation CPU share unchanged (interval containing 1.00 or "
            f"within {lo_band:.2f}-{hi_band:.2f}): ")
    r = res.row(PUSH, "rt", "server", "share_pct")
    if not r or not r["ratio"]:
        return text + not_measured(res, PUSH, "rt")
    ratio = float(r["ratio"])
    if has_ci(r) and (float(r["ci_lo"]) <= 1 <= float(r["ci_hi"]) or
                      lo_band <= float(r["ci_lo"]) and float(r["ci_hi"]) <= hi_band):
        verdict = MET
    else:
        verdict = NOT_RESOLVED if lo_band <= ratio <= hi_band else MISSED
    return text + f"{bold(verdict)} ({ratio_cell(r)})"


def per_pull(res, config):
    """(CPUs examined per successful pull over the whole run, pulls)."""
    scan, pulls = res.counter_total(config, "scan_ok"), res.counter_total(config, "pulls")
    if scan is None or not pulls:
        return None, pulls
    return scan / pulls, pulls


def scan_target(res):
    """The CPUs-examined-per-pull line (scx_push's counters, no interval)."""
    text = f"- CPUs examined per successful pull <= {SCAN_TARGET} (scx_push's counters): "
    mask, pulls = per_pull(res, PUSH)
    if pulls == 0:
        return text + "not measured (no pulls)"
    if mask is None:
        return text + (not_measured(res, PUSH) if res.error_for(PUSH)
                       else "not measured (no scx_push counters)")
    full, _ = per_pull(res, SCAN_FULL)
    full_text = f"; {full:.2f} with --scan full" if full is not None else ""
    return text + (f"{bold(MET if mask <= SCAN_TARGET else MISSED)} ({mask:.2f} over "
                   f"{pulls:.0f} pulls, all cases and repetitions{full_text})")


def worst_idle_wait(res, config):
    """The largest median idle_wait_pct of a configuration over the cases
    of WC_WORKLOADS, None if none was measured."""
    vals = [res.counter(config, w, case, "idle_wait_pct")
            for w in WC_WORKLOADS for case in dict.fromkeys(c for c, _ in res.cases(w))]
    vals = [v for v in vals if v is not None]
    return max(vals) if vals else None


def wc_target(res):
    """The work-conservation line: scx_push's verdict, every configuration's
    largest median (a counter: no interval)."""
    text = (f"- Work conservation: CPU time idle while a task that may run there waits "
            f"on a busy CPU < {WC_TARGET:g} % under {' and '.join(WC_WORKLOADS)} "
            f"(the largest median over their cases; a counter, no interval): ")
    worst = {c: worst_idle_wait(res, c) for c in res.configs}
    if worst.get(PUSH) is None:
        reason = ("no work-conservation monitor in this run" if res.meta_value("wcmon") != "yes"
                  else None)
        return text + (f"not measured ({reason})" if reason else not_measured(res, PUSH))
    others = ", ".join(f"{c} {v:.2f} %" for c, v in worst.items() if c != PUSH and v is not None)
    verdict = MET if worst[PUSH] < WC_TARGET else MISSED
    return text + f"{bold(verdict)} ({PUSH} {worst[PUSH]:.2f} %; {others})"


def targets(res):
    """The Targets section: scx_push's defaults against EEVDF."""
    lines = ["## Targets: scx_push (defaults) vs EEVDF", "",
             f"Each ratio with its 95 % confidence interval. A target is **{MET}** only "
             f"when the interval's upper end is below it, **{NOT_RESOLVED}** when the "
             f"estimate meets it but the upper end does not, **{MISSED}** when the "
             f"estimate does not meet it.", ""]
    lines += hackbench_targets(res)
    lines += [limit_target(res, *t) for t in LIMITS]
    lines += [scan_target(res), rt_target(res), wc_target(res)]
    return lines + [""]


def selftest(res):
    """The rt_stall selftest's shares per phase."""
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


def errors(res):
    """The Errors section, [] without errors."""
    if not res.errors:
        return []
    lines = ["## Errors", "", "| rep | config | workload | case | reason |",
             "|---|---|---|---|---|"]
    for e in res.errors:
        lines.append(f"| {e['rep']} | {e['config']} | {e['workload']} | {e['case']} | "
                     f"{e['reason'].replace('|', '/')} |")
    return lines + [""]


def write_plot_data(res):
    """One block per workload: label, then ratio, CI low and CI high per
    compared config (the ratio itself without an interval)."""
    with open(os.path.join(res.dir, "plot.dat"), "w") as f:
        for w in res.workloads:
            f.write(f"# {w}\n")
            for case, metric in res.cases(w, baselined=True):
                cells = []
                for c in res.compared:
                    r = res.row(c, w, case, metric)
                    if r and r["ratio"]:
                        cells += [r["ratio"], r["ci_lo"] or r["ratio"], r["ci_hi"] or r["ratio"]]
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
        lines += workload_section(res, w)
    lines += selftest(res) + errors(res)
    lines += ["## Plot", "", "Ratio to EEVDF per workload and configuration (bars: ratio of "
              "the medians; whiskers: its 95 % confidence interval, none with fewer than "
              f"{MIN_PAIRS} paired repetitions; the line at 1 is EEVDF).", "",
              "![normalized results](plot.png)", ""]
    with open(os.path.join(res.dir, "report.md"), "w") as f:
        f.write("\n".join(lines))
    write_plot_data(res)


if __name__ == "__main__":
    main()
