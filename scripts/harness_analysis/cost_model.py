"""The alpha-beta-gamma cost model of allreduce, fitted to measured collective points.

    scripts/model DIR[=LABEL]... [--out DIR] [--holdout world=4 | --holdout label=LABEL
                  [--holdout-gbps RATE]] [--link ALPHA_US,GBPS] [--gamma-gbps X]

For each backend (with its algorithm) and link LABEL (default: the folder's experiment name;
give e.g. results/x/1=open results/y/2=1gbit for test-bed runs at two rate limits) it fits
the latency alpha and the time per byte beta of four textbook formulas (Thakur, Rabenseifner
& Gropp 2005; Patarasuk & Yuan 2009), p ranks, n bytes:

    ring                    2(p-1) a + 2(p-1)/p n b + (p-1)/p n g
    halving_doubling        2 log2(p) a + 2(p-1)/p n b + (p-1)/p n g      (Rabenseifner)
    binary_tree             2 log2(p) a + 2 log2(p) n b + log2(p) n g    (reduce + broadcast)
    recursive_doubling      log2(p) a + log2(p) n b + log2(p) n g

The other collectives' points (reduce_scatter, allgather, broadcast, alltoall) are fitted to
their own formulas (formulas.py: ring and recursive halving/doubling for reduce_scatter and
allgather, binomial tree and scatter + allgather for broadcast, pairwise exchange and Bruck for
alltoall), per collective, backend and link, in model.md's "Other collectives".

gamma (time per byte reduced) cannot be told from beta by allreduce timings alone (ring's two
per-byte terms have the same shape in p), so it is measured on this host: a local in-place
fp32 sum of 64 MB (or --gamma-gbps). alpha and beta >= 0 come from non-negative least squares
on relative error (sizes span 4 B to 64 MB). Per fit: R^2, median and max relative error; per
backend the formula that fits best. Then predictions at p = 8 ... 1024 (busbw by message size
and the communication time of each training record's gradient bytes per step) with the fitted
link or one given (--link), crossover sizes between formulas, and, with --holdout, the
prediction error on measured points the fit never saw (world size 4 from 2 and 3; one rate
limit from another, with --holdout-gbps the held-out link's rate). Training records in the folders are predicted from the fit too (their
gradient bytes per step against step_time_ms.comm).

With overlap, the best fusion (bucket) size per model follows from the fit too: backward
produces the model's gradient bytes at a steady rate over its measured compute time, each
bucket's allreduce starts when the bucket is full and the one before has finished (one
communication thread, in order), and the size that leaves the least communication after
backward wins (at the measured world sizes and at 64 and 1024 ranks). Without overlap one
bucket is always best in this model: every extra bucket only adds latency.

Writes OUT (default: the first DIR's model/): model.json, model.md, model_fit.png. scripts/plot
puts the fits, the held-out errors and the fusion advice into report.md too.
Needs Debian's python3-numpy, -scipy, -matplotlib; run with /usr/bin/python3.
"""
import argparse
import json
import math
import os
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import nnls  # noqa: E402

from . import two_level  # noqa: E402
from .formulas import COLLECTIVE_FORMULAS, FORMULAS  # noqa: E402
from .labels import backend_label, composed_levels, host_level_by_halves  # noqa: E402
from .record_schema import as_record  # noqa: E402
from .results import exit_on_error, load_or_exit  # noqa: E402

PREDICT_RANKS = [8, 16, 32, 64, 128, 256, 512, 1024]
PREDICT_BYTES = [4096, 65536, 1 << 20, 16 << 20, 64 << 20]
FUSION_CANDIDATES = [16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]
FUSION_RANKS = [64, 1024]


def measure_gamma():
    """Seconds per byte of a local in-place fp32 sum (the reduction's own cost)."""
    a = np.ones(16 << 20, dtype=np.float32)
    b = np.ones(16 << 20, dtype=np.float32)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.add(a, b, out=a)
        best = min(best, time.perf_counter() - start)
    return best / a.nbytes


def load(spec):
    """DIR[=LABEL]: the folder's allreduce points, training steps and other collectives' points,
    labelled LABEL (default: the experiment's name)."""
    directory, _, label = spec.partition("=")
    results = load_or_exit(directory, "scripts/model")
    points, steps = points_and_steps(results.records, label or results.name, results.meta)
    return points, steps, other_collective_points(results.records, label or results.name)


def model_backend_label(record):
    """backend_label, with a composed backend named by its two levels ("hierarchical(shm,
    gloo:ring)"): each composition is a backend of its own here."""
    levels = composed_levels(record)
    return f"{record['backend']['name']}({levels[0]}, {levels[1]})" if levels else backend_label(record)


def _point_rows(r, label, meta):
    """A collective record's measured points at world size > 1, labelled."""
    shape = two_level.layout(meta or {}, r["world_size"])
    return [{"backend": model_backend_label(r), "label": label, "p": r["world_size"],
             "n": point["bytes"], "t": point["p50_us"] * 1e-6, "layout": shape,
             "levels": composed_levels(r), "by_halves": host_level_by_halves(r),
             "collective": r.settings["collective"]}
            for point in r.points if point.p50_us and point.bytes and r.world_size > 1]


def points_and_steps(records, label, meta=None):
    """Allreduce points (world size > 1) and training steps with communication time, labelled.
    With meta.json's rank placement a point also has its layout (hosts, ranks per host) and a
    hierarchical one its levels' backends, for the two-level model."""
    points, steps = [], []
    for r in records:
        r = as_record(r)
        if r.status != "ok":
            continue
        if r.kind == "collective":
            points += [q for q in _point_rows(r, label, meta) if q["collective"] == "allreduce"]
        elif r.kind == "train" and r.world_size > 1 and r.step_time_ms.comm and r.bytes_reduced_per_step:
            steps.append({"backend": backend_label(r), "label": label, "p": r["world_size"],
                          "model": r["settings"]["model"], "n": r["bytes_reduced_per_step"],
                          "buckets": r.gradient_reduction.buckets or 1,
                          "t": r["step_time_ms"]["comm"] * 1e-3,
                          "compute": (r.step_time_ms.compute or 0) * 1e-3})
    return points, steps


def other_collective_points(records, label):
    """The points of reduce_scatter, allgather, broadcast and alltoall (world size > 1)."""
    rows = [q for r in map(as_record, records) if r.status == "ok" and r.kind == "collective"
            for q in _point_rows(r, label, None)]
    return [q for q in rows if q["collective"] != "allreduce"]


def design(formula, points, gamma, table=FORMULAS):
    """Rows [alpha coefficient, beta coefficient] / t and targets (t - gamma part) / t."""
    rows, targets = [], []
    for q in points:
        a, b, g = table[formula](q["p"], q["n"])
        rows.append([a / q["t"], b / q["t"]])
        targets.append((q["t"] - g * gamma) / q["t"])
    return np.array(rows), np.array(targets)


def predict(formula, params, p, n, gamma, table=FORMULAS):
    a, b, g = table[formula](p, n)
    return a * params["alpha_s"] + b * params["beta_s_per_byte"] + g * gamma


def quality(formula, params, points, gamma, table=FORMULAS):
    predicted = np.array([predict(formula, params, q["p"], q["n"], gamma, table) for q in points])
    measured = np.array([q["t"] for q in points])
    relative = np.abs(predicted - measured) / measured
    residual = ((measured - predicted) ** 2).sum()
    total = ((measured - measured.mean()) ** 2).sum()
    return {"r2": 1 - residual / total if total > 0 else None,
            "median_rel_error": float(np.median(relative)), "max_rel_error": float(relative.max()),
            "points": len(points)}


def fit(formula, points, gamma, table=FORMULAS):
    rows, targets = design(formula, points, gamma, table)
    (alpha, beta), _ = nnls(rows, targets)
    params = {"alpha_s": alpha, "beta_s_per_byte": beta,
              "link_gbps": 1e-9 / beta if beta > 0 else None}
    return params, quality(formula, params, points, gamma, table)


def groups(points):
    out = {}
    for q in points:
        out.setdefault((q["backend"], q["label"]), []).append(q)
    return out


def fit_all(points, gamma, table=FORMULAS, prefix=""):
    """Per backend and link, every formula of `table` fitted; names are prefixed by `prefix`."""
    fits = {}
    for (backend, label), group in sorted(groups(points).items()):
        if len({q["n"] for q in group}) < 2:
            continue
        per_formula = {f: dict(zip(("params", "quality"), fit(f, group, gamma, table))) for f in table}
        worlds = sorted({q["p"] for q in group})
        # At p = 2 the formulas differ only in constants: they cannot be told apart.
        best = next(iter(table)) if worlds == [2] else min(
            per_formula, key=lambda f: per_formula[f]["quality"]["median_rel_error"])
        fits[f"{prefix}{backend} @ {label}"] = {"backend": backend, "label": label, "worlds": worlds,
                                                "formulas": per_formula, "best": best,
                                                "formulas_distinguishable": worlds != [2]}
    return fits


def fit_other_collectives(points, gamma):
    """fit_all per collective other than allreduce, with that collective's formulas."""
    fits = {}
    for collective in sorted({q["collective"] for q in points}):
        same = [q for q in points if q["collective"] == collective]
        fits.update(fit_all(same, gamma, COLLECTIVE_FORMULAS[collective], f"{collective}: "))
    return fits


def holdout_errors(points, gamma, key, value, link_gbps=None):
    """Fit each backend/label on the points without key == value, predict those with it. A
    held-out link's own rate (link_gbps, e.g. the test bed's limit) replaces the fitted beta:
    latency is the fit's, bandwidth the link's."""
    matches = lambda q: str(q["p"] if key == "world" else q["label"]) == value  # noqa: E731
    errors = {}
    for backend in sorted({q["backend"] for q in points}):
        train = [q for q in points if q["backend"] == backend and not matches(q)]
        test = [q for q in points if q["backend"] == backend and matches(q)]
        if not train or not test or len({q["n"] for q in train}) < 2:
            continue
        result = {}
        for formula in FORMULAS:
            params, _ = fit(formula, train, gamma)
            if link_gbps:
                params = dict(params, beta_s_per_byte=1e-9 / link_gbps, link_gbps=link_gbps)
            result[formula] = quality(formula, params, test, gamma)
        best = min(result, key=lambda f: result[f]["median_rel_error"])
        errors[backend] = {"formulas": result, "best": best, "trained_on": len(train), "held_out": len(test)}
    return errors


def parse_link(text):
    """--link ALPHA_US,GBPS as two numbers, the rate above zero; else one line and exit 2."""
    try:
        alpha_us, gbps = (float(v) for v in text.split(","))
    except ValueError:
        alpha_us = gbps = None
    if alpha_us is None or not math.isfinite(alpha_us) or alpha_us < 0 or not gbps or not math.isfinite(gbps) or gbps <= 0:
        usage_error(f"--link {text}: expected ALPHA_US,GBPS, a latency in microseconds (>= 0) and a "
                    "rate in GB/s (> 0), such as 2.5,10")
    return alpha_us, gbps


def parse_holdout(text, points):
    """--holdout world=N or label=LABEL, naming points the folders hold and leaving some to fit."""
    key, _, value = text.partition("=")
    if key not in ("world", "label") or not value:
        usage_error(f"--holdout {text}: expected world=N or label=LABEL")
    if key == "world" and not value.isdigit():
        usage_error(f"--holdout {text}: expected a world size (an integer), got {value!r}")
    present = sorted({str(q["p"] if key == "world" else q["label"]) for q in points},
                     key=lambda v: (len(v), v))
    if value not in present:
        usage_error(f"--holdout {text}: no allreduce points with {key} {value} in these folders "
                    f"(they hold {key} {', '.join(present)})")
    if len(present) < 2:
        usage_error(f"--holdout {text}: {key} {value} is the only one in these folders, so nothing is "
                    "left to fit; add a folder with another")
    return key, value


def usage_error(message):
    print(f"scripts/model: {message}", file=sys.stderr)
    sys.exit(2)


def held_out_predictor(points, gamma, world, errors):
    """q -> the one-level prediction of a world-size-`world` point, fitted without that world
    size with the formula holdout_errors found best for its backend (None: no fit)."""
    params = {}
    for backend, h in errors.items():
        train = [q for q in points if q["backend"] == backend and q["p"] != world]
        params[backend] = (h["best"], fit(h["best"], train, gamma)[0])

    def predicted(q):
        if q["backend"] not in params:
            return None
        formula, fitted = params[q["backend"]]
        return predict(formula, fitted, q["p"], q["n"], gamma)
    return predicted


def crossovers(params, gamma, p):
    """Message sizes where one formula overtakes another under the same alpha and beta."""
    out = []
    names = list(FORMULAS)
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            ax, bx, gx = FORMULAS[x](p, 1.0)
            ay, by, gy = FORMULAS[y](p, 1.0)
            per_byte = (bx - by) * params["beta_s_per_byte"] + (gx - gy) * gamma
            fixed = (ay - ax) * params["alpha_s"]
            if per_byte != 0 and fixed / per_byte > 0:
                n = fixed / per_byte
                small = x if ax < ay else y
                out.append({"p": p, "between": [x, y], "bytes": n,
                            "below": small, "above": y if small == x else x})
    return out


def predictions(fits, gamma, link):
    out = {}
    for name, f in fits.items():
        params = link or f["formulas"][f["best"]]["params"]
        rows = []
        for p in PREDICT_RANKS:
            for n in PREDICT_BYTES:
                t = predict(f["best"], params, p, n, gamma)
                rows.append({"p": p, "bytes": n, "time_us": t * 1e6, "busbw_gbps": n / t * 2 * (p - 1) / p / 1e9})
        out[name] = {"formula": f["best"], "link": params, "points": rows,
                     "crossovers": crossovers(params, gamma, 64) + crossovers(params, gamma, 1024)}
    return out


def step_predictions(fits, steps, gamma):
    """Each training record's measured communication time against the fit's prediction for its
    gradient bytes (one allreduce per bucket: the latency term counts per bucket)."""
    rows = []
    for s in steps:
        f = fits.get(f"{s['backend']} @ {s['label']}")
        if not f:
            continue
        params = f["formulas"][f["best"]]["params"]
        per_bucket = s["n"] / max(s["buckets"], 1)
        predicted = s["buckets"] * predict(f["best"], params, s["p"], per_bucket, gamma)
        rows.append(dict(s, predicted=predicted, rel_error=abs(predicted - s["t"]) / s["t"]))
    return rows


def exposed_after_backward(formula, params, p, gradient_bytes, bucket_bytes, backward_s, gamma):
    """Overlapped buckets as a pipeline (see the description): seconds of communication left
    once backward has ended."""
    buckets = max(1, math.ceil(gradient_bytes / bucket_bytes))
    rate = gradient_bytes / backward_s
    finish = 0.0
    for i in range(buckets):
        filled = min(gradient_bytes, (i + 1) * bucket_bytes)
        size = filled - i * bucket_bytes
        finish = max(finish, filled / rate) + predict(formula, params, p, size, gamma)
    return finish - backward_s


def fusion_advice(fits, steps, gamma):
    """Per fitted backend and trained model: the fusion size with the least exposed
    communication under overlap, at the measured world sizes and at FUSION_RANKS."""
    models = {}
    for s in steps:
        if s["compute"] > 0:
            models.setdefault(s["model"], []).append(s)
    rows = []
    for name, f in fits.items():
        params = f["formulas"][f["best"]]["params"]
        for model, group in sorted(models.items()):
            gradient = float(np.median([s["n"] for s in group]))
            backward = float(np.median([s["compute"] for s in group]))
            candidates = sorted({c for c in FUSION_CANDIDATES if c < gradient} | {int(gradient)})
            for p in sorted({s["p"] for s in group} | set(FUSION_RANKS)):
                exposed = {c: exposed_after_backward(f["best"], params, p, gradient, c, backward, gamma)
                           for c in candidates}
                best = min(exposed, key=exposed.get)
                rows.append({"fit": name, "model": model, "p": p, "gradient_bytes": int(gradient),
                             "compute_ms": backward * 1e3, "best_fusion_bytes": best,
                             "exposed_ms": exposed[best] * 1e3, "one_bucket_exposed_ms": exposed[int(gradient)] * 1e3})
    return rows


def plot(points, fits, gamma, out):
    names = sorted(fits)
    if not names:
        return None
    fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4), squeeze=False)
    for ax, name in zip(axes[0], names):
        f = fits[name]
        params = f["formulas"][f["best"]]["params"]
        group = [q for q in points if f"{q['backend']} @ {q['label']}" == name]
        for p in sorted({q["p"] for q in group}):
            mine = sorted((q for q in group if q["p"] == p), key=lambda q: q["n"])
            line = ax.loglog([q["n"] for q in mine], [q["t"] * 1e6 for q in mine], "o", label=f"p={p} measured")
            sizes = np.logspace(math.log10(mine[0]["n"]), math.log10(mine[-1]["n"]), 50)
            ax.loglog(sizes, [predict(f["best"], params, p, n, gamma) * 1e6 for n in sizes], "-",
                      color=line[0].get_color(), label=f"p={p} {f['best']}")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("bytes")
        ax.set_ylabel("time per allreduce (us)")
        ax.legend(fontsize=6)
    fig.tight_layout()
    path = os.path.join(out, "model_fit.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def fit_table(fits, first_column="backend @ link"):
    """The fits as a Markdown table: one row per formula, the best marked."""
    lines = [f"| {first_column} | worlds | formula | alpha (us) | beta (GB/s) | R^2 | median rel. err | max rel. err |",
             "|---|---|---|---|---|---|---|---|"]
    for name, f in fits.items():
        for formula, fq in f["formulas"].items():
            q, params = fq["quality"], fq["params"]
            mark = (" **best**" if f["formulas_distinguishable"] else " (p=2: all agree)") if formula == f["best"] else ""
            r2 = f"{q['r2']:.3f}" if q["r2"] is not None else ""
            gbps = f"{params['link_gbps']:.3g}" if params["link_gbps"] else "inf"
            lines.append(f"| {name} | {f['worlds']} | {formula}{mark} | {params['alpha_s'] * 1e6:.2f} | {gbps} | {r2} | "
                         f"{q['median_rel_error']:.1%} | {q['max_rel_error']:.1%} |")
    return lines


def other_collectives_markdown(fits):
    """model.md's section on reduce_scatter, allgather, broadcast and alltoall."""
    return "\n".join(["## Other collectives", "",
                      "Each fitted to its own formulas (n: the whole buffer, as the collective trial counts it).", ""]
                     + fit_table(fits, "collective: backend @ link")) + "\n"


def markdown(fits, holdout, steps, predicted, gamma):
    lines = ["# Cost model", "", f"gamma (local fp32 sum, measured): {1e-9 / gamma:.2f} GB/s.", ""] + fit_table(fits)
    if holdout:
        given = f", its link at {holdout['link_gbps']} GB/s" if holdout.get("link_gbps") else ""
        lines += ["", f"## Held-out prediction ({holdout['key']} = {holdout['value']}{given})", "",
                  "| backend | formula | trained on | held out | median rel. err | max rel. err |", "|---|---|---|---|---|---|"]
        for backend, h in holdout["errors"].items():
            q = h["formulas"][h["best"]]
            lines.append(f"| {backend} | {h['best']} | {h['trained_on']} | {h['held_out']} | "
                         f"{q['median_rel_error']:.1%} | {q['max_rel_error']:.1%} |")
    if steps:
        lines += ["", "## Training steps' communication, predicted from the collective fit", "",
                  "| backend @ link | model | p | bytes/step | buckets | measured (ms) | predicted (ms) | rel. err |",
                  "|---|---|---|---|---|---|---|---|"]
        for s in steps:
            lines.append(f"| {s['backend']} @ {s['label']} | {s['model']} | {s['p']} | {s['n']} | {s['buckets']} | "
                         f"{s['t'] * 1e3:.3f} | {s['predicted'] * 1e3:.3f} | {s['rel_error']:.0%} |")
        lines.append(f"\nMedian relative error: {np.median([s['rel_error'] for s in steps]):.0%}.")
    lines += ["", "## Predicted busbw (GB/s) at scale, best formula and fitted link", ""]
    for name, pr in predicted.items():
        header = "| p | " + " | ".join(f"{n} B" for n in PREDICT_BYTES) + " |"
        lines += [f"{name} ({pr['formula']}):", "", header, "|---" * (len(PREDICT_BYTES) + 1) + "|"]
        for p in PREDICT_RANKS:
            cells = [f"{r['busbw_gbps']:.3g}" for r in pr["points"] if r["p"] == p]
            lines.append(f"| {p} | " + " | ".join(cells) + " |")
        for c in pr["crossovers"]:
            lines.append(f"- p={c['p']}: {c['below']} is faster below {c['bytes']:.3g} B, {c['above']} above")
        lines.append("")
    return "\n".join(lines) + "\n"


def fusion_markdown(rows):
    lines = ["| backend @ link | model | p | gradient bytes | best fusion bytes | exposed comm (ms) | one bucket (ms) |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['fit']} | {r['model']} | {r['p']} | {r['gradient_bytes']} | {r['best_fusion_bytes']} | "
                     f"{r['exposed_ms']:.3f} | {r['one_bucket_exposed_ms']:.3f} |")
    return "\n".join(lines)


@exit_on_error("scripts/model")
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", metavar="DIR[=LABEL]")
    parser.add_argument("--out")
    parser.add_argument("--holdout", help="world=N or label=LABEL: fit without those points, predict them")
    parser.add_argument("--holdout-gbps", type=float,
                        help="with --holdout label=...: the held-out link's rate (GB/s), used instead of the fitted beta")
    parser.add_argument("--link", help="ALPHA_US,GBPS: predict at scale with this link instead of the fitted one")
    parser.add_argument("--gamma-gbps", type=float, help="reduction speed instead of measuring it")
    args = parser.parse_args()
    points, steps, others = [], [], []
    for spec in args.dirs:
        p, s, o = load(spec)
        points += p
        steps += s
        others += o
    if not points:
        sys.exit("scripts/model: no ok allreduce points at world size > 1 in these folders")
    link = None
    if args.link:
        alpha_us, gbps = parse_link(args.link)
        link = {"alpha_s": alpha_us * 1e-6, "beta_s_per_byte": 1e-9 / gbps, "link_gbps": gbps}
    if args.holdout:
        key, value = parse_holdout(args.holdout, points)
    out = args.out or os.path.join(args.dirs[0].partition("=")[0], "model")
    os.makedirs(out, exist_ok=True)
    gamma = 1e-9 / args.gamma_gbps if args.gamma_gbps else measure_gamma()
    fits = fit_all(points, gamma)
    holdout = None
    if args.holdout:
        holdout = {"key": key, "value": value, "link_gbps": args.holdout_gbps,
                   "errors": holdout_errors(points, gamma, key, value, args.holdout_gbps)}
    predicted = predictions(fits, gamma, link)
    step_rows = step_predictions(fits, steps, gamma)
    fusion = fusion_advice(fits, steps, gamma)
    figure = plot(points, fits, gamma, out)
    levels = None
    if two_level.crosses_hosts(points):
        world = int(holdout["value"]) if holdout and holdout["key"] == "world" else None
        one_level = held_out_predictor(points, gamma, world, holdout["errors"]) if world is not None else None
        levels = two_level.model(points, gamma, world, one_level)
    other_fits = fit_other_collectives(others, gamma)
    result = {"gamma_s_per_byte": gamma, "fits": fits, "holdout": holdout, "predictions": predicted,
              "training_steps": step_rows, "fusion": fusion, "two_level": levels,
              "other_collectives": other_fits}
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(out, "model.md"), "w") as f:
        f.write(markdown(fits, holdout, step_rows, predicted, gamma))
        if fusion:
            f.write("\n## Best fusion size with overlap, predicted\n\n" + fusion_markdown(fusion) + "\n")
        if levels:
            f.write("\n" + two_level.markdown(levels))
        if other_fits:
            f.write("\n" + other_collectives_markdown(other_fits))
    print(f"scripts/model: {len(points) + len(others)} points, {len(fits) + len(other_fits)} fits; wrote model.json, model.md"
          f"{', ' + os.path.basename(figure) if figure else ''} to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
