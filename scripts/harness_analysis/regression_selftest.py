"""The regression gate's own quality, measured on this machine.

    scripts/regression_selftest [--runs N] [--slowdowns 0.1,0.25,0.5] [--out DIR]
    scripts/regression_selftest --check     (the quick ctest version)

False alarms: N gates (scripts/regression --self --quick, every suite) of this build against
itself. Power: per slowdown s, N gates of this build against itself with the candidate's mpi
backend replaced by the test plugin that spins s times each allreduce's duration
(tests/plugins/slowed_mpi_plugin.cpp), on the benchmarks that use the mpi backend. Each run's
verdict rows are kept, so the table is computed for a grid of thresholds and alphas: the
false-alarm rate (share of identical runs that failed) and the power (share of slowed runs
that failed) for each. These are single-pass verdicts (the gates run with --no-confirm): the
gate as CI runs it measures what one pass flags again and fails only when both passes agree,
so its false alarms are at most these. Writes selftest.json to --out.

--check: a gate with the mpi backend 50% slower must fail naming an mpi benchmark, and a gate
of the build against itself on the same benchmarks must pass; exit 0 when both hold. Either
verdict may take a second gate (a busy neighbour can slow one side's round), and a third only
where a gate measured the slowed candidate faster than the base (the base was slowed by
something else: a candidate that spins on every allreduce cannot be faster).
It gates the comm suite's mpi benchmarks only: the harness suite's runs of the whole
experiment take most of a gate's time and add nothing to what the check asks (the gate's
handling is the same for every suite; the full self-test measures both)."""

import argparse
import datetime
import json
import os
import subprocess
import sys

from .paths import ROOT, SCRIPTS

GATE = os.path.join(SCRIPTS, "regression")
SLOWED_PLUGINS = os.path.join(ROOT, "build", "tests", "slowed_plugin")
# The benchmarks that call the mpi backend through the plugin: the ones a slowed plugin slows.
# --check gates the comm suite's; the full self-test the harness suite's too.
CHECK_SUITES = "comm"
CHECK_FILTER = r"allreduce/mpi/plugin/(4|256|65536|1048576)/"
MPI_SUITES = CHECK_SUITES + ",harness"
MPI_FILTER = CHECK_FILTER + "|backend:mpi"
THRESHOLDS = (0.10, 0.15, 0.20, 0.30)
ALPHAS = (0.001, 0.01, 0.05)


def gate(out, slowdown=None, suites=None, filter_regex=None, confirm=True):
    command = [GATE, "--self", "--quick", "--out", out]
    if not confirm:  # the table below recomputes single-pass verdicts for every setting
        command.append("--no-confirm")
    if suites:
        command += ["--suites", suites]
    if filter_regex:
        command += ["--filter", filter_regex]
    if slowdown is not None:
        command += ["--candidate-plugin-path", SLOWED_PLUGINS,
                    "--candidate-env", f"HARNESS_SLOWDOWN={slowdown}"]
    result = subprocess.run(command, cwd=ROOT, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    if result.returncode not in (0, 1):
        sys.exit(f"regression_selftest: the gate could not run:\n{result.stdout[-3000:]}")
    with open(os.path.join(out, "gate.json")) as f:
        verdict = json.load(f)
    return result.returncode, verdict, result.stdout


def failed(rows, threshold, alpha):
    return any(r["pvalue"] is not None and r["pvalue"] < alpha and r["change"] > threshold
               for r in rows)


# A gate whose rows show the slowed candidate this much faster than the base measured a base
# that something else slowed.
IMPOSSIBLE_GAIN = -0.15


def base_disturbed(verdict):
    """Whether a gate of a slowed candidate measured it faster than the base, in either pass."""
    rows = verdict.get("benchmarks", []) + verdict.get("confirmation", [])
    return any(r.get("change") is not None and r["change"] < IMPOSSIBLE_GAIN
               for r in rows if "mpi" in r.get("name", ""))


def gate_until(out, label, slowdown, expected):
    """Gates until one's verdict `expected(code, verdict)` accepts: up to two, and a third
    where a slowed gate's base was disturbed (base_disturbed). On a shared machine another
    tenant can slow one side for a whole round, so one wrong verdict is the noise; two in a
    row are the gate. Returns the accepted verdict or None."""
    wrong, attempt = 0, 0
    while wrong < 2 and attempt < 3:
        attempt += 1
        code, verdict, text = gate(os.path.join(out, f"{label}-{attempt}"), slowdown,
                                   CHECK_SUITES, CHECK_FILTER)
        print(text[-2500:])
        if expected(code, verdict):
            return verdict
        disturbed = slowdown is not None and base_disturbed(verdict)
        wrong += 0 if disturbed else 1
        print(f"regression_selftest: {label} gate {attempt} gave the wrong verdict "
              f"(exit {code}, slower: {verdict['regressed']})" +
              ("; it measured the slowed candidate faster than the base, so the base was "
               "disturbed and the gate is not judged on it" if disturbed else ""))
    return None


def mpi_named(verdict):
    return [n for n in verdict["regressed"] if "mpi" in n]


def check(out):
    """The quick version: the gate catches +50% and passes identical builds."""
    slowed = gate_until(out, "slowed", 0.5, lambda code, v: code == 1 and mpi_named(v))
    if slowed is None:
        print("regression_selftest: FAIL, the gate missed a 50% slower mpi backend twice")
        return 1
    if gate_until(out, "identical", None, lambda code, v: code == 0) is None:
        print("regression_selftest: FAIL, identical builds failed the gate twice")
        return 1
    print(f"regression_selftest: ok, caught {', '.join(mpi_named(slowed))}; "
          "identical builds passed")
    return 0


def measure(args):
    runs = {"identical": []}
    for i in range(args.runs):
        _, verdict, _ = gate(os.path.join(args.out, f"identical-{i}"), confirm=False)
        runs["identical"].append(verdict["benchmarks"])
        print(f"identical {i + 1}/{args.runs}: regressed {verdict['regressed']}", flush=True)
    for s in args.slowdowns:
        key = f"+{s:.0%}"
        runs[key] = []
        for i in range(args.runs):
            _, verdict, _ = gate(os.path.join(args.out, f"slowed-{s}-{i}"), s, MPI_SUITES,
                                 MPI_FILTER, confirm=False)
            runs[key].append(verdict["benchmarks"])
            print(f"slowed {key} {i + 1}/{args.runs}: regressed {verdict['regressed']}",
                  flush=True)
    table = []
    for alpha in ALPHAS:
        for threshold in THRESHOLDS:
            row = {"threshold": threshold, "alpha": alpha}
            for key, rows_per_run in runs.items():
                row[key] = sum(failed(r, threshold, alpha) for r in rows_per_run) / len(rows_per_run)
            table.append(row)
    keys = list(runs)
    print(f"\n{'threshold':>9} {'alpha':>6} " + " ".join(
        f"{('false alarms' if k == 'identical' else 'caught ' + k):>14}" for k in keys))
    for row in table:
        print(f"{row['threshold']:>9.0%} {row['alpha']:>6} " +
              " ".join(f"{row[k]:>14.0%}" for k in keys))
    print(f"{args.runs} runs each; false alarms: every suite, build against itself; caught: the "
          "mpi backend slowed by the fraction, benchmarks that use it")
    with open(os.path.join(args.out, "selftest.json"), "w") as f:
        json.dump({"runs": args.runs, "table": table, "verdict_rows": runs}, f, indent=1)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="the quick version (ctest)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--slowdowns", default="0.1,0.25,0.5")
    parser.add_argument("--out")
    args = parser.parse_args()
    stamp = datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")
    args.out = args.out or os.path.join(ROOT, "results", "regression-selftest", stamp)
    os.makedirs(args.out, exist_ok=True)
    if not os.path.isdir(SLOWED_PLUGINS):
        sys.exit(f"regression_selftest: {SLOWED_PLUGINS} missing (build with tests: scripts/build)")
    if args.check:
        return check(args.out)
    args.slowdowns = [float(s) for s in args.slowdowns.split(",")]
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
