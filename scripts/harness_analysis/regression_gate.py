"""The regression gate: is the candidate (this working tree, or --candidate REF) slower than
BASE_REF (default HEAD~1, the previous commit)?

    scripts/regression [BASE_REF] [--candidate REF] [--quick] [--threshold F] [--alpha A] ...

Builds BASE_REF in ~/.cache/harness/regression/<sha>/ (an exported copy of the commit, kept for
the next gate against it from any clone; $HARNESS_CACHE_DIR moves it), then runs
the regression suite for base and candidate interleaved, A B B A A B ... (each round swaps who
goes first, so drift hits both alike): bench/comm under mpirun -np 2, bench/host, bench/models
and experiments/regression.json through the harness (exported as Google Benchmark JSON). Each
side's rounds are merged into one Google Benchmark JSON (repetitions as runs) and compared by
Google Benchmark's own compare.py (Mann-Whitney U test). A benchmark regresses when its median
time grew by more than --threshold AND the U test's p-value is below --alpha. A benchmark that
regresses is measured again before the gate believes it: fresh interleaved rounds of only the
flagged benchmarks (candidate first this time), compared on their own; the gate exits 1 naming
those that regress in both passes, else 0 (2: the gate could not run). A slow spell of the
machine that hits one side's turn tips one pass, seldom two; a real slowdown shows in both.
Writes base.json, candidate.json, comparison.json (compare.py's), their confirm-* twins when a
confirmation ran, gate.json (verdicts) and gate.png to --out.

Defaults (--threshold 0.15, --alpha 0.01): docs/benchmarks.md, "Regression benchmarks", says how
they were chosen and how to check them on your machine (scripts/regression_selftest). Needs python3-scipy and libbenchmark-tools (scripts/setup installs them)."""

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from . import gbench_export, gbench_format
from .paths import ROOT

COMPARE_PY = "/usr/share/benchmark/compare.py"
MPIRUN = ["mpirun", "--bind-to", "none", "--oversubscribe"]
# The suites, each with the Google Benchmark filter the gate uses by default. comm: the mpi and
# ring backends, plugin and direct, 4 B to 1 MB. Left to scripts/benchmark comm: gloo, whose
# times where ranks and cores are few are the scheduler's more than its own, and 16 MB and up,
# bound by a memory bandwidth other tenants share.
# host: all but the old way of writing the CSV files (rewritten after every trial), kept in
# scripts/benchmark host as the reference the sinks are compared with; it is no code a run
# takes, and half the suite's time.
SUITES = {
    "comm": ("comm_benchmark", r"^allreduce/(mpi|ring)/.*/(4|256|65536|1048576)/"),
    "host": ("host_benchmark", "-results/csv_sinks_rewrite_every_trial"),
    "models": ("model_benchmark", ""),
    "harness": ("harness", ""),
}
# Calibrated by scripts/regression_selftest (docs/benchmarks.md, "Regression benchmarks").
DEFAULT_THRESHOLD = 0.15
DEFAULT_ALPHA = 0.01


def fail(message):
    print(f"regression: {message}", file=sys.stderr)
    sys.exit(2)


def run(command, env=None, cwd=ROOT, quiet=True):
    result = subprocess.run(command, cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE if quiet else None,
                            stderr=subprocess.STDOUT if quiet else None)
    if result.returncode != 0:
        tail = (result.stdout or "")[-3000:]
        fail(f"{' '.join(command)} exited {result.returncode}\n{tail}")
    return result.stdout or ""


def git(*args):
    return run(["git", *args]).strip()


# --- the two builds ---------------------------------------------------------------------


class Side:
    """One side of the comparison: a source tree, its build folder and its environment."""

    def __init__(self, label, tree, plugin_path=None, extra_env=()):
        self.label = label
        self.tree = tree
        self.build = os.path.join(tree, "build")
        self.env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        if plugin_path:
            self.env["HARNESS_PLUGIN_PATH"] = os.path.abspath(plugin_path)
        for assignment in extra_env:
            name, _, value = assignment.partition("=")
            self.env[name] = value

    def binary(self, name):
        return os.path.join(self.build, name)

    def has(self, suite):
        return os.access(self.binary(SUITES[suite][0]), os.X_OK)


def cache_dir():
    """Where the base builds live: outside the clone, so that a gate run from a fresh clone
    (CI's) reuses the build an earlier gate made of the same commit."""
    return os.environ.get("HARNESS_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                "harness")


def checkout(ref):
    """REF's tree, exported (git archive) once per commit into the cache. A copy, not a worktree:
    it must outlive the clone that made it."""
    sha = git("rev-parse", "--verify", ref + "^{commit}")
    tree = os.path.join(cache_dir(), "regression", sha[:12])
    if not os.path.isdir(tree):
        os.makedirs(os.path.dirname(tree), exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{sha[:12]}-", dir=os.path.dirname(tree))
        archive = subprocess.Popen(["git", "archive", sha], cwd=ROOT, stdout=subprocess.PIPE)
        untar = subprocess.run(["tar", "-x", "-C", staging], stdin=archive.stdout)
        if archive.wait() != 0 or untar.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            fail(f"could not export {ref} ({sha[:12]}) into {staging}")
        try:
            os.rename(staging, tree)
        except OSError:  # another gate exported the same commit meanwhile: use theirs
            shutil.rmtree(staging, ignore_errors=True)
    os.utime(tree)  # used now: the pruning below keeps the most recently used
    prune_base_builds(os.path.dirname(tree))
    return sha, tree


KEPT_BASE_BUILDS = 3  # each is about 1 GB: the cache must not grow with every commit gated


def prune_base_builds(folder):
    """Removes all but the KEPT_BASE_BUILDS most recently used base builds (and exports left
    half-made by a gate that was stopped)."""
    entries = [os.path.join(folder, name) for name in os.listdir(folder)]
    builds = sorted((e for e in entries if not os.path.basename(e).startswith(".")),
                    key=os.path.getmtime, reverse=True)
    stale = [e for e in entries if os.path.basename(e).startswith(".")
             and time.time() - os.path.getmtime(e) > 3600]
    for path in builds[KEPT_BASE_BUILDS:] + stale:
        shutil.rmtree(path, ignore_errors=True)


def build(side):
    """Builds what the gate runs (the benchmarks group: the suites, the harness, its plugins);
    a tree from before the build groups builds everything."""
    print(f"regression: building {side.label} in {side.build}", flush=True)
    with open(os.path.join(side.tree, "bench", "CMakeLists.txt")) as f:
        groups = ["benchmarks"] if "add_custom_target(benchmarks)" in f.read() else []
    run([os.path.join(side.tree, "scripts", "build"), *groups], cwd=side.tree)


# --- one round of one side ----------------------------------------------------------------


def gbench_flags(args, out, filter_regex):
    flags = [f"--benchmark_repetitions={args.repetitions}",
             f"--benchmark_min_time={args.min_time}",
             "--benchmark_enable_random_interleaving=true",
             f"--benchmark_out={out}", "--benchmark_out_format=json", "--benchmark_color=false"]
    if filter_regex:
        flags.append(f"--benchmark_filter={filter_regex}")
    return flags


def load_iteration_runs(path):
    with open(path) as f:
        document = json.load(f)
    return [b for b in document.get("benchmarks", [])
            if b.get("run_type") == "iteration" and not b.get("error_occurred")]


def run_suite(side, suite, args, work, filter_regex, turn):
    """One suite on one side; `turn` names the pass and round, so every raw run stays in work."""
    out = os.path.join(work, f"{turn}-{side.label}-{suite}.json")
    if suite == "harness":
        results = os.path.join(work, f"{turn}-{side.label}-results")
        shutil.rmtree(results, ignore_errors=True)
        run(MPIRUN + ["-np", "2", side.binary("harness"), os.path.join(ROOT, args.experiment),
                      "--results-dir", results], env=side.env, cwd=side.tree)
        folders = [folder for folder, _, files in os.walk(results) if "trials.jsonl" in files]
        if not folders:
            fail(f"{side.label}: the harness wrote no results under {results}")
        gbench_export.write(folders[0], out)
    else:
        command = [side.binary(SUITES[suite][0])] + gbench_flags(args, out, filter_regex)
        if suite == "comm":
            command = MPIRUN + ["-np", "2"] + command
        run(command, env=side.env, cwd=ROOT)
    return [dict(r, suite=suite) for r in load_iteration_runs(out)]


def measure(first, second, plan, rounds, args, work, name):
    """`rounds` interleaved rounds, A B B A ..., `first` opening; `plan` maps each suite to the
    Google Benchmark filter it runs with; `name` the pass, in the raw runs' file names. Returns
    each side's iteration runs, keyed by label."""
    runs = {first.label: [], second.label: []}
    for round_index in range(rounds):
        order = (first, second) if round_index % 2 == 0 else (second, first)
        for side in order:
            for suite, filter_regex in plan.items():
                runs[side.label] += run_suite(side, suite, args, work, filter_regex,
                                              f"{name}{round_index + 1}")
        print(f"regression: round {round_index + 1}/{rounds} done", flush=True)
    return runs


def ere_literal(text):
    """`text` as a POSIX extended regular expression matching only itself (Google Benchmark's
    --benchmark_filter is one; Python's re.escape also escapes characters ERE leaves undefined)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


def confirmation_plan(flagged_runs):
    """The suites and filters that measure exactly the flagged benchmarks again. The harness
    suite runs its experiment whole (its benchmarks are exported from one results folder)."""
    names = {}
    for r in flagged_runs:
        names.setdefault(r["suite"], set()).add(r["name"])
    return {suite: ("" if suite == "harness" else
                    "^(" + "|".join(ere_literal(n) for n in sorted(found)) + ")$")
            for suite, found in names.items()}


def keep_only(runs, names):
    return {label: [r for r in side_runs if r["name"] in names] for label, side_runs in runs.items()}


# --- the verdict ----------------------------------------------------------------------------


def merged_document(label, side_runs):
    context = {"date": datetime.datetime.utcnow().isoformat() + "Z", "executable": label,
               "library_build_type": "release"}
    side_runs = [dict(r, run_name=r.get("run_name", r["name"])) for r in side_runs]
    for r in side_runs:
        r.pop("suite", None)
    return gbench_format.document(context, side_runs)


def verdicts(comparison, runs, args):
    """Per benchmark: medians, relative change, p-value and whether it regressed."""
    times = {}
    for label, side_runs in runs.items():
        for r in side_runs:
            times.setdefault(r["name"], {}).setdefault(label, []).append(r["real_time"])
    out = []
    for entry in comparison:
        if entry.get("run_type") != "iteration":
            continue
        name = entry["name"]
        sides = times.get(name, {})
        if "base" not in sides or "candidate" not in sides:
            continue
        base_median = statistics.median(sides["base"])
        candidate_median = statistics.median(sides["candidate"])
        change = candidate_median / base_median - 1 if base_median > 0 else 0.0
        pvalue = (entry.get("utest") or {}).get("time_pvalue")
        regressed = pvalue is not None and pvalue < args.alpha and change > args.threshold
        out.append({"name": name, "unit": entry.get("time_unit", ""), "base_median": base_median,
                    "candidate_median": candidate_median, "change": change, "pvalue": pvalue,
                    "n_base": len(sides["base"]), "n_candidate": len(sides["candidate"]),
                    "regressed": regressed})
    return out


def print_table(rows, args):
    print(f"\n{'benchmark':<64} {'base':>11} {'candidate':>11} {'change':>8} {'p':>7}  verdict")
    for row in rows:
        p = "-" if row["pvalue"] is None else f"{row['pvalue']:.4f}"
        verdict = "SLOWER" if row["regressed"] else (
            "faster" if row["pvalue"] is not None and row["pvalue"] < args.alpha
            and row["change"] < -args.threshold else "")
        print(f"{row['name'][:64]:<64} {row['base_median']:>9.4g}{row['unit']:>2} "
              f"{row['candidate_median']:>9.4g}{row['unit']:>2} {row['change']:>+7.1%} {p:>7}  "
              f"{verdict}")
    print(f"change = candidate median time / base median time - 1 over {rows[0]['n_base']} runs "
          f"per side; SLOWER: change > {args.threshold:.0%} and U-test p < {args.alpha}"
          if rows else "no benchmark ran on both sides")


def plot(rows, args, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("regression: no matplotlib (scripts/setup --plots); gate.png not drawn",
              file=sys.stderr)
        return
    height = max(3, 0.22 * len(rows) + 1)
    fig, ax = plt.subplots(figsize=(10, height))
    names = [r["name"] for r in rows]
    changes = [r["change"] * 100 for r in rows]
    colours = ["tab:red" if r["regressed"] else "tab:grey" for r in rows]
    ax.barh(range(len(rows)), changes, color=colours)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(names, fontsize=6)
    ax.invert_yaxis()
    ax.axvline(args.threshold * 100, color="tab:red", linestyle="--", linewidth=1)
    ax.axvline(0, color="black", linewidth=0.5)
    ax.set_xlabel("median time change, candidate vs base (%); red: regression "
                  f"(> {args.threshold:.0%}, p < {args.alpha})")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --- main -----------------------------------------------------------------------------------


def parse_args():
    parser = argparse.ArgumentParser(
        description="Statistical A/B regression gate (see the module docstring).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", nargs="?", default="HEAD~1", help="base commit (default HEAD~1)")
    parser.add_argument("--candidate", help="candidate commit (default: this working tree)")
    parser.add_argument("--self", action="store_true",
                        help="compare this working tree's build with itself (no checkout, no "
                             "build; the gate's self-test)")
    parser.add_argument("--candidate-plugin-path",
                        help="plugin folder searched first by the candidate (gate self-test)")
    parser.add_argument("--candidate-env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment for the candidate's runs only (repeatable)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help=f"relative median slowdown that counts (default {DEFAULT_THRESHOLD})")
    parser.add_argument("--alpha", type=float, default=DEFAULT_ALPHA,
                        help=f"U-test significance level (default {DEFAULT_ALPHA})")
    parser.add_argument("--rounds", type=int, default=5, help="A/B rounds (default 5)")
    parser.add_argument("--repetitions", type=int, default=3,
                        help="Google Benchmark repetitions per round (default 3)")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="Google Benchmark min time per repetition, s (default 0.05)")
    parser.add_argument("--quick", action="store_true", help="3 rounds (CI)")
    parser.add_argument("--even-if-unchanged", action="store_true",
                        help="measure even when the base and the candidate build the same "
                             "benchmarks from the same sources")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false",
                        help="fail on the first pass's verdict, without measuring what it "
                             "flagged again (the calibration's raw single-pass rates)")
    parser.add_argument("--suites", default="comm,host,models,harness",
                        help="comma-separated subset of comm,host,models,harness")
    parser.add_argument("--filter", help="Google Benchmark filter replacing the suites' own")
    parser.add_argument("--experiment", default="experiments/regression.json")
    parser.add_argument("--out", help="output folder (default results/regression/<UTC time>)")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 3
    suites = [s.strip() for s in args.suites.split(",") if s.strip()]
    unknown = [s for s in suites if s not in SUITES]
    if unknown:
        fail(f"--suites: unknown {', '.join(unknown)} (expected {', '.join(SUITES)})")
    args.suites = suites
    if args.rounds < 1 or args.repetitions < 1:
        fail("--rounds and --repetitions need at least 1")
    stamp = datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")
    # Absolute: the suites run with each side's own tree as working folder.
    args.out = os.path.abspath(args.out or os.path.join(ROOT, "results", "regression", stamp))
    return args


def prepare_sides(args):
    if not os.path.isfile(COMPARE_PY):
        fail(f"{COMPARE_PY} not found: install libbenchmark-tools (scripts/setup)")
    if args.self:
        if not os.access(os.path.join(ROOT, "build", "harness"), os.X_OK):
            fail("--self needs a build in build/ (scripts/build)")
        print("regression: this build against itself", flush=True)
        return (Side("base", ROOT),
                Side("candidate", ROOT, args.candidate_plugin_path, args.candidate_env))
    base_sha, base_tree = checkout(args.base)
    base = Side("base", base_tree)
    if args.candidate:
        _, candidate_tree = checkout(args.candidate)
    else:
        candidate_tree = ROOT
    candidate = Side("candidate", candidate_tree, args.candidate_plugin_path, args.candidate_env)
    for side in (base, candidate):
        build(side)
    print(f"regression: base {args.base} ({base_sha[:12]}) vs candidate "
          f"{args.candidate or 'working tree'}", flush=True)
    return base, candidate


def compare(runs, args, prefix=""):
    """compare.py over the two sides' runs; writes <prefix>base.json, <prefix>candidate.json,
    <prefix>comparison.json and <prefix>compare.txt to --out, returns the verdict rows."""
    paths = {}
    for label in ("base", "candidate"):
        paths[label] = os.path.join(args.out, f"{prefix}{label}.json")
        with open(paths[label], "w") as f:
            json.dump(merged_document(label, runs[label]), f, indent=1)
    comparison_path = os.path.join(args.out, f"{prefix}comparison.json")
    table = run([sys.executable, COMPARE_PY, "-a", "--no-color", "--alpha", str(args.alpha),
                 "-d", comparison_path, "benchmarks", paths["base"], paths["candidate"]])
    with open(os.path.join(args.out, f"{prefix}compare.txt"), "w") as f:
        f.write(table)
    with open(comparison_path) as f:
        return verdicts(json.load(f), runs, args)


def confirmed(flagged_rows, confirmation_rows):
    """The names that regressed in the first pass and again in the confirmation."""
    again = {r["name"] for r in confirmation_rows if r["regressed"]}
    return [r["name"] for r in flagged_rows if r["regressed"] and r["name"] in again]


def confirm(base, candidate, runs, flagged, args, work):
    """Measures the flagged benchmarks again, candidate first, and returns their rows."""
    print(f"regression: {len(flagged)} flagged; measuring them again in {args.rounds} fresh "
          "rounds, candidate first", flush=True)
    flagged_runs = [r for r in runs["candidate"] if r["name"] in flagged]
    again = measure(candidate, base, confirmation_plan(flagged_runs), args.rounds, args, work,
                    "confirm")
    rows = compare(keep_only(again, set(flagged)), args, prefix="confirm-")
    print("\nconfirmation:")
    print_table(rows, args)
    return rows


# What the benchmarks measure is built from these: where none of them differs between the base
# and the candidate, the two builds are the same program and the gate would measure only noise.
MEASURED_SOURCES = ("harness", "plugins", "bench", "cmake", "CMakeLists.txt", "experiments",
                    "data", "tests/fixtures", "scripts/build", "scripts/setup", "scripts/lib",
                    "scripts/export_model.py",
                    "bindings/torch/tune/harness_tune/file_formats.json")


def same_measured_sources(args):
    """True when the base commit and the candidate (the working tree, or --candidate) hold the
    same MEASURED_SOURCES, said on stdout."""
    if args.self or args.even_if_unchanged:
        return False
    sides = [args.base] + ([args.candidate] if args.candidate else [])
    differs = subprocess.run(["git", "diff", "--quiet", *sides, "--", *MEASURED_SOURCES], cwd=ROOT)
    if differs.returncode not in (0, 1):
        fail(f"git diff {' '.join(sides)} failed")
    if differs.returncode == 0:
        print(f"regression: the candidate and {args.base} build the same benchmarks (no change under "
              f"{', '.join(MEASURED_SOURCES)}): nothing to compare; the gate passes "
              "(--even-if-unchanged measures them anyway)")
    return differs.returncode == 0


def main():
    args = parse_args()
    if same_measured_sources(args):
        return 0
    base, candidate = prepare_sides(args)
    suites = [s for s in args.suites if base.has(s) and candidate.has(s)]
    for s in args.suites:
        if s not in suites:
            print(f"regression: suite {s} skipped: not built on both sides (the base predates it?)")
    if not suites:
        print("regression: nothing to compare; the gate passes")
        return 0
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "runs")
    os.makedirs(work, exist_ok=True)
    plan = {suite: ("" if suite == "harness" else args.filter or SUITES[suite][1])
            for suite in suites}
    runs = measure(base, candidate, plan, args.rounds, args, work, "round")
    if args.filter:
        pattern = re.compile(args.filter)
        runs = {label: [r for r in side_runs if pattern.search(r["name"])]
                for label, side_runs in runs.items()}
    rows = compare(runs, args)
    print_table(rows, args)
    flagged = [r["name"] for r in rows if r["regressed"]]
    confirmation = []
    regressed = flagged
    if flagged and args.confirm:
        confirmation = confirm(base, candidate, runs, flagged, args, work)
        regressed = confirmed(rows, confirmation)
        cleared = [n for n in flagged if n not in regressed]
        if cleared:
            print(f"regression: not slower when measured again: {', '.join(cleared)}")
        for row in rows:  # gate.json and gate.png show the final verdict
            row["flagged"] = row["regressed"]
            row["regressed"] = row["name"] in regressed
    with open(os.path.join(args.out, "gate.json"), "w") as f:
        json.dump({"base": "self" if args.self else args.base,
                   "candidate": args.candidate or "working tree",
                   "threshold": args.threshold, "alpha": args.alpha, "rounds": args.rounds,
                   "repetitions": args.repetitions, "flagged": flagged, "regressed": regressed,
                   "benchmarks": rows, "confirmation": confirmation},
                  f, indent=1)
    plot(rows, args, os.path.join(args.out, "gate.png"))
    print(f"regression: compare.py's table in {args.out}/compare.txt; verdicts in gate.json")
    if regressed:
        print(f"regression: FAIL, slower: {', '.join(regressed)}")
        return 1
    print("regression: PASS, no benchmark slower beyond the thresholds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
