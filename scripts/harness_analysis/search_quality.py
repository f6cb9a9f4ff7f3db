"""scripts/search_quality's figures: per experiment, how often the search's winner is right —
the grid's best, within noise of it (the grid kept it: its interval reaches the best's), or
within 5% of the best's figure — and the share of the grid's wall time each search spent.

    python3 -m harness_analysis.search_quality OUT.json EXPERIMENT_DIR...

Each EXPERIMENT_DIR holds truth/<name>/<time>/ (the grid) and seed<S>/<name>/<time>/ (searches).
"""
import glob
import json
import math
import os
import sys

from . import search as search_file
from .results import exit_on_error
from .stats import median

WITHIN = 0.05


def only_folder(pattern):
    found = sorted(glob.glob(pattern))
    return found[-1] if found else None


def wilson(successes, n, z=1.96):
    """The 95% Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def truth_of(grid):
    """{point: verdict} of the configurations a right answer may name, and the grid's best."""
    grid = search_file.as_search(grid)
    entries = grid.rungs[-1].configurations
    best = entries[0]
    higher = grid.objective != "time_to_target"
    right = {}
    for entry in entries:
        value, best_value = entry.figure.value, best.figure.value
        if entry is best:
            right[entry.point] = "the grid's best"
        elif entry.kept:
            right[entry.point] = "within noise of the grid's best"
        elif value is not None and best_value:
            gap = (best_value - value) / best_value if higher else (value - best_value) / best_value
            if gap <= WITHIN:
                right[entry.point] = "within 5% of the grid's best"
    return right, best


def judge(experiment_dir):
    name = os.path.basename(experiment_dir.rstrip("/"))
    truth_dir = only_folder(os.path.join(experiment_dir, "truth", "*", "*"))
    grid = search_file.read(truth_dir) if truth_dir else None
    if not grid or "problem" in grid or not grid.rungs:
        return {"experiment": name, "problem": "no grid (truth) search.json"}
    right, best = truth_of(grid)
    grid_seconds = grid.seconds_spent or 0
    runs = []
    for folder in sorted(glob.glob(os.path.join(experiment_dir, "seed*", "*", "*"))):
        s = search_file.read(folder)
        if not s or "problem" in s or not s.finished:
            continue  # an interrupted search has no answer yet (harness --resume completes it)
        verdict = right.get(s.winner_point, "wrong")
        runs.append({"folder": folder, "winner": s.winner, "verdict": verdict,
                     "distinguishable": s.distinguishable, "stopped": s.stopped,
                     "trials": s.trials, "seconds": s.seconds_spent,
                     "share_of_grid_time": (s.seconds_spent or 0) / grid_seconds if grid_seconds else None})
    n_right = sum(r["verdict"] != "wrong" for r in runs)
    shares = [r["share_of_grid_time"] for r in runs if r["share_of_grid_time"] is not None]
    return {"experiment": name, "objective": grid["objective"], "configurations": grid["configurations"],
            "grid_best": best["axes"], "grid_trials": grid["trials"], "grid_seconds": grid_seconds,
            "searches": len(runs), "right": n_right, "right_wilson95": wilson(n_right, len(runs)),
            "share_median": median(shares) if shares else None,
            "share_min": min(shares) if shares else None, "share_max": max(shares) if shares else None,
            "runs": runs}


def line(result):
    if "problem" in result:
        return f"{result['experiment']}: {result['problem']}"
    low, high = result["right_wilson95"]
    share = (f"{result['share_median']:.2f} [{result['share_min']:.2f}, {result['share_max']:.2f}]"
             if result["share_median"] is not None else "?")
    return (f"{result['experiment']} ({result['configurations']} configurations, by {result['objective']}): "
            f"right {result['right']}/{result['searches']} (95% interval {low:.2f}-{high:.2f}); "
            f"time spent, share of the grid's {result['grid_seconds']:.0f} s: median {share} (min, max); "
            f"grid's best {search_file.axes_text(result['grid_best'])}")


@exit_on_error("search_quality")
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        sys.exit("usage: python3 -m harness_analysis.search_quality OUT.json EXPERIMENT_DIR...")
    results = [judge(folder) for folder in argv[1:]]
    with open(argv[0], "w") as f:
        json.dump(results, f, indent=1)
    for result in results:
        print(line(result))
        for run in result.get("runs", []):
            if run["verdict"] == "wrong":
                print(f"  wrong: {search_file.axes_text(run['winner'])} ({run['folder']})")
    print(f"search_quality: {argv[0]}")


if __name__ == "__main__":
    main()
