"""scripts/repeatability's figures: how far K identical runs of an experiment are apart, per
figure (training samples/s; collective busbw below and from 64 KB): the median, p90 and max of
|ratio - 1| over sweep points and every pair of runs, for the two estimators a run can report
(the median over a point's repetitions, and its fastest repetition).

    python3 -m harness_analysis.repeatability OUT.json RESULTS_DIR...
"""
import itertools
import json
import sys

from .labels import point_of
from .results import exit_on_error, load_or_exit
from .stats import median, quantile


def figures(folder, estimate):
    """{(figure, world, point[, bytes]): estimate over a point's repetitions}."""
    samples = {}
    for r in load_or_exit(folder, "scripts/repeatability").records:
        if not r.measured:
            continue
        world = r["world_size"]
        rate = r.throughput.samples_per_s
        if rate:
            samples.setdefault(("training samples/s", world, point_of(r)), []).append(rate)
        for p in r.points:
            band = "busbw >= 64 KB" if p["bytes"] >= 65536 else "busbw < 64 KB"
            if p.busbw_gbps:
                samples.setdefault((band, world, point_of(r), p["bytes"]), []).append(p["busbw_gbps"])
    return {k: estimate(v) for k, v in samples.items()}


@exit_on_error("scripts/repeatability")
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        sys.exit("usage: python3 -m harness_analysis.repeatability OUT.json RESULTS_DIR RESULTS_DIR...")
    out, folders = argv[0], argv[1:]
    rows = []
    for name, estimate in (("median of repetitions", median), ("fastest (k_best)", max)):
        runs = [figures(f, estimate) for f in folders]
        deviations = {}
        for a, b in itertools.combinations(runs, 2):
            for key in a.keys() & b.keys():
                deviations.setdefault((key[0], key[1]), []).append(abs(b[key] / a[key] - 1))
                deviations.setdefault((key[0], "all"), []).append(abs(b[key] / a[key] - 1))
        for (figure, world), d in sorted(deviations.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            rows.append({"estimate": name, "figure": figure, "world_size": world, "comparisons": len(d),
                         "median_abs_dev": quantile(d, 0.5), "p90_abs_dev": quantile(d, 0.9),
                         "max_abs_dev": max(d)})
    print(f"{len(folders)} runs; |ratio - 1| between runs, per sweep point")
    print(f"{'estimate':<22} {'figure':<20} {'world':>5} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}")
    for r in rows:
        print(f"{r['estimate']:<22} {r['figure']:<20} {str(r['world_size']):>5} {r['comparisons']:>4} "
              f"{100 * r['median_abs_dev']:>7.1f}% {100 * r['p90_abs_dev']:>7.1f}% {100 * r['max_abs_dev']:>7.1f}%")
    json.dump({"runs": len(folders), "figures": rows}, open(out, "w"), indent=1)
    print("written:", out)


if __name__ == "__main__":
    main()
