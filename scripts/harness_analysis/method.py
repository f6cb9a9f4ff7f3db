"""The report's "Method" section: this run scored against the twelve rules of Hoefler & Belli,
"Scientific benchmarking of parallel computing systems" (SC'15). For each rule, what the run
did, read off its own records and metadata, and whether that meets the rule."""
import time
from collections import Counter

import numpy as np

from . import units
from .record_schema import as_meta, given


def measure_memcpy_gbps(megabytes=64, repeats=10):
    """One thread's copy bandwidth (best of `repeats` copies of a 64 MB buffer), in GB/s: the
    ceiling a CPU allreduce's busbw is read against."""
    source = np.ones(megabytes << 18, dtype=np.float32)
    target = np.empty_like(source)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.copyto(target, source)
        best = min(best, time.perf_counter() - start)
    return source.nbytes / best / 1e9


def recorded_memcpy(records):
    """The memcpy readings the harness took around each collective trial reaching 64 MB
    (record field memcpy): (median, lowest, highest, how many), or None when no record has one."""
    readings = [r["memcpy"][when] for r in records if r.get("memcpy")
                for when in ("before_gbps", "after_gbps") if r["memcpy"].get(when) is not None]
    if not readings:
        return None
    return float(np.median(readings)), min(readings), max(readings), len(readings)


class Facts:
    """What the rules are scored on: the records, the metadata and the frames of one run."""

    def __init__(self, records, meta, ok, coll, aggregates, memcpy_gbps):
        self.records, self.meta, self.ok, self.coll = records, as_meta(meta), ok, coll
        self.aggregates, self.memcpy_gbps = aggregates, memcpy_gbps
        self.statuses = Counter(r.status for r in records)
        self.repetitions = (self.meta.experiment or {}).get("repetitions") or 1
        self.estimator = given(self.meta.estimator.name, "median")
        coverage = [a.get("ci_coverage") for a in aggregates if isinstance(a.get("ci_coverage"), float)]
        self.coverage = min(coverage) if coverage else None

    def worlds(self, frame):
        return sorted(int(w) for w in frame["world_size"].unique()) if not frame.empty else []


def rule_1(f):
    if f.ok.empty or 1 not in f.worlds(f.ok):
        return "not applicable", "no training at world size 1 in this run, so no speedup is reported"
    one = f.ok[f.ok["world_size"] == 1]["median"].max()
    return "met", (f"speedup and scaling efficiency are against the harness itself at world size 1 (one parallel "
                   f"process, not the best serial code), whose best absolute throughput here is "
                   f"{units.samples_per_s(one)}; `scripts/peer_benchmark` compares with PyTorch DDP")


def rule_2(f):
    skipped = [r for r in f.records if r.status == "skipped"]
    cores = given(f.meta.cpu.count, "?")
    over = sorted({int(w) for frame in (f.ok, f.coll) if not frame.empty and "oversubscribed" in frame
                   for w in frame.loc[frame["oversubscribed"], "world_size"]})
    measured = set(f.worlds(f.ok)) | set(f.worlds(f.coll)) | {r.world_size for r in f.records
                                                              if r.kind == "replay" and r.measured}
    text = f"the host has {cores} cores; world sizes measured: {', '.join(map(str, sorted(measured)))}"
    if over:
        text += f"; world size {', '.join(map(str, over))} oversubscribes it and is not ranked"
    if skipped:
        reasons = Counter(r.reason or "" for r in skipped).most_common(1)[0][0]
        text += f"; {len(skipped)} trials skipped, each with its reason (e.g. \"{reasons}\")"
    return "met", text


def rule_3(f):
    name = "the fastest repetition (k_best)" if f.estimator == "k_best" else "the median"
    return "met", ("costs (step and call times) are summarised by their median over timed steps or calls; a rate "
                   "(samples/s, busbw) is derived from that median cost, and across repetitions a point's figure is "
                   f"{name}: order statistics commute with taking reciprocals, so no arithmetic mean of rates is formed")


def rule_4(f):
    return "met", ("ratios are formed from two points' estimates and never averaged; a band of message sizes "
                   "reports the range of its per-size ratios")


def rule_5(f):
    if f.repetitions < 2:
        return "partly", ("one repetition per point: intervals are over a trial's own timed steps or calls, not "
                          "over process launches, where a VM's variance lives")
    coverage = f" (coverage at least {units.percent(f.coverage)})" if f.coverage else ""
    interval = ("a band from the fastest to the k-th fastest repetition" if f.estimator == "k_best"
                else "a distribution-free 95% interval of the median (order statistics)")
    return "met", (f"timings are not deterministic; each point ran {f.repetitions}+ repetitions, interleaved across "
                   f"the run, and carries {interval}{coverage}; aggregates.csv holds every interval")


def rule_6(f):
    return "met", "normality is not assumed: every interval is distribution-free, so no normality check is needed"


def rule_7(f):
    return "met", ("throughput and busbw use a central figure; collective points keep min, p50 and p99 per call "
                   "(points.csv) for the tail, and the per-size tables show where p99 departs")


def rule_8(f):
    return "met", ("two backends differ only where their intervals do not overlap, decided per message size and "
                   "per sweep point (never over an interval pooled across sizes); otherwise \"within noise\"")


def rule_9(f):
    meta, versions = f.meta, f.meta.versions
    dirty = " (uncommitted changes)" if meta.git_dirty else ""
    library = meta.mpi.library.splitlines()[0] if meta.mpi.library else "?"
    return "met", (f"meta.json records the experiment as run, the command, host {given(meta.host, '?')}, "
                   f"{given(meta.cpu.model, '?')} × {given(meta.cpu.count, '?')}, {library}, "
                   f"each rank's host and CPU binding, libtorch {given(versions.libtorch, '?')}, gloo "
                   f"{given(versions.gloo, '?')}, git {str(given(meta.git_sha, '?'))[:12]}{dirty}, and the "
                   "machine's load at start and end")


def rule_10(f):
    # None: records from before the setting, which did not say how calls were timed.
    timings = sorted({r.settings["timing"] for r in f.records if r.points and r.settings["timing"]})
    collective = (f"collectives: {', '.join(timings)} timing, each call's time is the slowest rank's, summarised by the "
                  "median over calls; " if timings else "")
    return "met", (collective + "training: a trial's ranks start together (the group's creation and the broadcast "
                   "of rank 0's weights synchronise them), each rank times its steps on a steady clock after warm-up, a "
                   "step's time is the slowest rank's, summarised by the median over timed steps, and samples/s is the "
                   "global batch over that median; wall-clock samples/s over all timed steps is recorded beside it")


def rule_11(f):
    bounds = []
    if f.memcpy_gbps and not f.coll.empty:
        recorded = recorded_memcpy(f.records)
        when = (f"the median of {recorded[3]} readings taken just before and after each trial, "
                f"{units.bandwidth_gbps(recorded[1])}–{units.bandwidth_gbps(recorded[2])}"
                if recorded else "the records carry none: measured by the report after the run, or given")
        bounds.append(f"busbw from 64 MB on against one thread's memcpy of 64 MB on this host "
                      f"({units.bandwidth_gbps(f.memcpy_gbps)}: {when}; dashed in busbw_vs_message_size.png; "
                      "smaller messages are copied from the cache, faster)")
    if not f.ok.empty and 1 in f.worlds(f.ok):
        bounds.append("throughput against N × the best world-size-1 throughput (dashed in "
                      "throughput_vs_world_size.png)")
    if not bounds:
        return "not applicable", "no figure of this run has a known bound"
    return "met", "; ".join(bounds)


def rule_12(f):
    return "met", ("pictures connect points only along a swept axis (world size, message size), with each point's "
                   "interval as its error bar; figures.json holds every plotted series")


RULES = [
    ("1. Speedup: name the base case and give its absolute performance", rule_1),
    ("2. Say why only a subset of benchmarks or resources was used", rule_2),
    ("3. Summarise costs by the arithmetic mean, rates by the harmonic mean", rule_3),
    ("4. Do not summarise ratios; summarise the costs or rates behind them", rule_4),
    ("5. Report whether measurements are deterministic; give confidence intervals", rule_5),
    ("6. Do not assume normality without checking", rule_6),
    ("7. Check that a central tendency is the right figure (tails may matter)", rule_7),
    ("8. Compare nondeterministic data in a statistically sound way", rule_8),
    ("9. Document every varying factor and the whole setup", rule_9),
    ("10. Report how parallel timings were measured, synchronised and summarised", rule_10),
    ("11. Show upper performance bounds where possible", rule_11),
    ("12. Plot as much as needed; connect points only where a trend is valid", rule_12),
]


def section(facts):
    lines = ["## Method", "",
             "This run scored against the twelve rules of Hoefler & Belli, \"Scientific benchmarking of parallel "
             "computing systems\" (SC'15):", "", "| rule | this run | what it did |", "|---|---|---|"]
    for title, rule in RULES:
        verdict, text = rule(facts)
        lines.append(f"| {title} | {verdict} | {text} |")
    return "\n".join(lines) + "\n"
