"""Turns a harness results folder into Google Benchmark JSON, so that any two runs can be
compared with Google Benchmark's compare.py (Debian: libbenchmark-tools):

    scripts/export_gbench results/ring_vs_gloo/A > a.json
    scripts/export_gbench results/ring_vs_gloo/B > b.json
    python3 /usr/share/benchmark/compare.py -a benchmarks a.json b.json

One benchmark per sweep point (training) and per sweep point and message size (collective);
the point's repetitions are its runs. Time is per sample (training, ns, from the median step)
or per allreduce (collective, us, the point's timing method), so lower is better as in every
Google Benchmark; samples/s, busbw (GB/s), AUROC and final loss are counters. Trials that did
not finish ok are left out (stderr says how many)."""

import argparse
import json
import os
import sys

from . import gbench_format
from .labels import axes_label
from .record_schema import as_meta, given
from .results import exit_on_error, load_or_exit


def benchmark_name(record, suffix=""):
    parts = [record["kind"]]
    if record.part:
        parts.append(record["part"])
    label = axes_label(record.axes or {})
    if label:
        parts.append(label)
    return "/".join(parts) + suffix


def train_runs(record):
    throughput = record.throughput.samples_per_s
    if not throughput:
        return []
    counters = {"samples_per_s": throughput}
    if record.detection.auroc is not None:
        counters["auroc"] = record.detection.auroc
    final_loss = record.loss.final
    if final_loss is not None:
        counters["final_loss"] = final_loss
    return [gbench_format.iteration_run(
        benchmark_name(record), 0, record.repetition or 0, 1, 1e9 / throughput, "ns",
        record.timing.steps or 1, counters)]


def collective_runs(record):
    runs = []
    for point in record.points or []:
        if point.wrong or not point.p50_us:
            continue
        counters = {"busbw_gbps": point.busbw_gbps or 0.0, "algbw_gbps": point.algbw_gbps or 0.0}
        runs.append(gbench_format.iteration_run(
            benchmark_name(record, f"/bytes:{point.bytes}"), 0, record.repetition,
            1, point.p50_us, "us", point.calls or point.iters or 1, counters,
            label=record.settings["timing"] or ""))  # None: records from before the setting
    return runs


def export(results_dir):
    results = load_or_exit(results_dir, "export_gbench")
    meta = as_meta(results.meta)
    runs, left_out = [], 0
    for record in results.records:
        if record.status != "ok":
            left_out += 1
            continue
        runs += train_runs(record) if record.kind == "train" else collective_runs(record)
    if left_out:
        print(f"export_gbench: left out {left_out} trial(s) that did not finish ok",
              file=sys.stderr)
    context = {
        "date": given(meta.started_at, ""),
        "host_name": given(meta.host, ""),
        "executable": given(meta.command, "harness"),
        "num_cpus": given(meta.cpu.count, 0),
        "git_sha": given(meta.git_sha, ""),
        "library_build_type": "release",
        "harness_results": os.path.abspath(results_dir),
    }
    return gbench_format.document(context, runs)


def write(results_dir, out=None):
    """The folder's Google Benchmark JSON to out (a path), or to stdout."""
    text = json.dumps(export(results_dir), indent=2) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


@exit_on_error("export_gbench")
def main():
    parser = argparse.ArgumentParser(prog="scripts/export_gbench", description=__doc__.splitlines()[0])
    parser.add_argument("results_dir")
    parser.add_argument("-o", "--out", help="write here instead of stdout")
    args = parser.parse_args()
    write(args.results_dir, args.out)


if __name__ == "__main__":
    main()
