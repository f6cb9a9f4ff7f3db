"""Google Benchmark's JSON format, as compare.py reads it: iteration runs grouped by name,
and the aggregates (mean, median, stddev, cv) Google Benchmark adds over repetitions.
Shared by scripts/export_gbench and scripts/regression."""

import statistics

AGGREGATES = ("mean", "median", "stddev", "cv")


def iteration_run(name, family_index, repetition, repetitions, real_time, time_unit,
                  iterations, counters, label=""):
    run = {
        "name": name,
        "family_index": family_index,
        "per_family_instance_index": 0,
        "run_name": name,
        "run_type": "iteration",
        "repetitions": repetitions,
        "repetition_index": repetition,
        "threads": 1,
        "iterations": iterations,
        "real_time": real_time,
        "cpu_time": real_time,  # wall time is what every harness figure measures
        "time_unit": time_unit,
    }
    if label:
        run["label"] = label
    run.update(counters)
    return run


def _aggregate(values, kind):
    if kind == "mean":
        return statistics.fmean(values)
    if kind == "median":
        return statistics.median(values)
    spread = statistics.pstdev(values) if len(values) > 1 else 0.0
    if kind == "stddev":
        return spread
    mean = statistics.fmean(values)
    return spread / mean if mean else 0.0


def aggregates(runs):
    """Google Benchmark's aggregate entries over the iteration runs of one benchmark."""
    first = runs[0]
    numeric = [k for k, v in first.items()
               if isinstance(v, (int, float)) and not isinstance(v, bool)
               and k not in ("family_index", "per_family_instance_index", "repetitions",
                             "repetition_index", "threads", "iterations")]
    out = []
    for kind in AGGREGATES:
        entry = {k: v for k, v in first.items() if k not in numeric}
        entry.update({
            "name": first["run_name"] + "_" + kind,
            "run_type": "aggregate",
            "aggregate_name": kind,
            "aggregate_unit": "percentage" if kind == "cv" else "time",
            "repetitions": len(runs),
            "iterations": len(runs),
        })
        entry.pop("repetition_index", None)
        for key in numeric:
            entry[key] = _aggregate([r[key] for r in runs if key in r], kind)
        out.append(entry)
    return out


def with_aggregates(iteration_runs):
    """The runs in Google Benchmark's order: each benchmark's runs, then its aggregates.
    Repetitions are renumbered 0..n-1 within each benchmark."""
    by_name = {}
    for run in iteration_runs:
        by_name.setdefault(run["run_name"], []).append(run)
    ordered = []
    for family, (name, runs) in enumerate(by_name.items()):
        for index, run in enumerate(runs):
            run = dict(run, family_index=family, repetition_index=index, repetitions=len(runs))
            ordered.append(run)
        ordered.extend(aggregates(ordered[-len(runs):]))
    return ordered


def document(context, runs):
    return {"context": context, "benchmarks": with_aggregates(runs)}
