"""What fusion and overlap buy, as a benchmark: runs experiments/overlap_targets.json (or a
results folder of it) and prints, per backend, side by side and with their spread:

  - fusion: samples/s of the autoencoder with one fused buffer over one allreduce per tensor
    at world 2 (read against x4);
  - overlap: the Transformer's samples/s with overlap over without (read against 1: overlap
    should never cost), and its exposed communication as a share of the step with overlap
    (read against 20%), per bucket size (256 KB; DDP's 25 MB, one bucket for this model).

    scripts/overlap_benchmark [--results DIR] [--out FILE.json]
    scripts/overlap_benchmark --testbed RATE [--results DIR] [--out FILE.json]

--testbed RATE runs experiments/overlap_testbed.json instead: the same Transformer across the
two hosts of the test bed (scripts/testbed up -k 2 --rate RATE, one rank per host; it must not
be up already, and it is taken down after), where a rate-limited link makes communication
worth hiding; the overlap figures are then given per backend and bucket size.

Ratios pair the two configurations' trials of the same repetition (the experiment interleaves
repetitions, so the pair ran close together); the table gives the median ratio over the n
repetitions and its range, and says "met" only when the whole range clears the threshold.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

from .paths import HARNESS, ROOT, SCRIPTS
from .results import exit_on_error, load_or_exit

TESTBED = os.path.join(SCRIPTS, "testbed")


def run_experiment(name, launcher):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    base = os.path.join(ROOT, "results")
    experiment = os.path.join(ROOT, "experiments", name + ".json")
    subprocess.run(launcher + [HARNESS, experiment, "--results-dir", base, "-q"], check=True, env=env)
    return sorted(glob.glob(os.path.join(base, name, "*")))[-1]


def run_on_testbed(rate):
    subprocess.run([TESTBED, "up", "-k", "2", "--rate", rate], check=True)
    try:
        return run_experiment("overlap_testbed", [TESTBED, "run", "-n", "1", "--"])
    finally:
        subprocess.run([TESTBED, "down"], check=False)


def paired(records, part, varied, by_fusion=False):
    """{label: {repetition: {value of `varied`: record}}}: label is the backend (and the bucket
    size when by_fusion), so each repetition pairs the two values of `varied`."""
    pairs = {}
    for r in records:
        if (r.part or "") != part or r.status != "ok":
            continue
        label = r["settings"]["backend"]
        if by_fusion:
            label += f" {r['settings']['fusion_bytes'] // 1024} KB"
        pairs.setdefault(label, {}).setdefault(r["repetition"], {})[r["settings"][varied]] = r
    return pairs


def spread(values):
    return statistics.median(values), min(values), max(values)


def rows(records):
    out = []
    for backend, reps in sorted(paired(records, "fusion", "fusion_bytes").items()):
        ratios = [p[67108864]["throughput"]["samples_per_s"] / p[0]["throughput"]["samples_per_s"]
                  for p in reps.values() if len(p) == 2]
        if ratios:
            out.append(("fused / per-tensor samples/s, autoencoder", backend, ratios, ">=", 4.0))
    testbed = any(not r.part for r in records)  # overlap_testbed.json has no parts
    for backend, reps in sorted(paired(records, "" if testbed else "overlap", "overlap", True).items()):
        both = [p for p in reps.values() if len(p) == 2]
        ratios = [p[True]["throughput"]["samples_per_s"] / p[False]["throughput"]["samples_per_s"] for p in both]
        exposed = [p[True]["step_time_ms"]["exposed_comm"] / p[True]["step_time_ms"]["p50"] for p in both]
        fraction = [p[True]["overlap_fraction"] for p in both]
        if ratios:
            out.append(("overlap on / off samples/s, transformer", backend, ratios, ">=", 1.0))
            exposed_off = [p[False]["step_time_ms"]["exposed_comm"] / p[False]["step_time_ms"]["p50"] for p in both]
            out.append(("exposed comm / step without overlap, transformer", backend, exposed_off, None, None))
            out.append(("exposed comm / step with overlap, transformer", backend, exposed, "<=", 0.20))
            out.append(("overlap_fraction with overlap, transformer", backend, fraction, None, None))
    return out


@exit_on_error("scripts/overlap_benchmark")
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", help="an existing results folder of overlap_targets.json")
    parser.add_argument("--out", help="also write the table as JSON here")
    parser.add_argument("--testbed", metavar="RATE", help="run the overlap part across the test bed at this rate")
    args = parser.parse_args()
    if args.results:
        directory = args.results
    elif args.testbed:
        directory = run_on_testbed(args.testbed)
    else:
        directory = run_experiment("overlap_targets", ["mpirun", "--bind-to", "none", "--oversubscribe", "-np", "2"])
    records = load_or_exit(directory, "scripts/overlap_benchmark").records
    table = []
    print(f"{'figure':<52}{'backend':<16}{'n':>3}{'median':>9}{'range':>20}  threshold")
    for figure, backend, values, op, target in rows(records):
        median, low, high = spread(values)
        verdict = ""
        if op == ">=":
            verdict = f">= {target:g}: " + ("met" if low >= target else "not met" if high < target else "within the spread")
        elif op == "<=":
            verdict = f"<= {target:g}: " + ("met" if high <= target else "not met" if low > target else "within the spread")
        print(f"{figure:<52}{backend:<16}{len(values):>3}{median:>9.3f}   [{low:.3f}, {high:.3f}]  {verdict}")
        table.append({"figure": figure, "backend": backend, "n": len(values), "median": median,
                      "min": low, "max": high, "target": verdict})
    print(f"results: {directory}")
    if args.out:
        json.dump({"results": directory, "rows": table}, open(args.out, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
