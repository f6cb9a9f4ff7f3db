"""scripts/plot: a results folder's pictures and report.md, which opens with the Answer.

    scripts/plot RESULTS_DIR [--out DIR] [--gamma-gbps X] [--memcpy-gbps Y]

Works on train, collective and mixed results and on partial sweeps. Every figure is a sweep
point's estimate (the run's estimator over its repetitions, aggregates.csv) with its band, or
a single trial's own interval. Two backends differ only where their intervals do not overlap;
message sizes and sweep points are decided one at a time. figures.json holds every plotted
series and the canvas check of every picture. The Answer is printed at the end.
gamma (the local fp32 sum) is measured on this host unless given; one thread's memcpy bandwidth
is the median of the readings the harness took around the trials reaching 64 MB, else measured
now. Needs Debian's python3-matplotlib, -pandas and -scipy (scripts/setup --plots).
"""
import argparse
import json
import os
import re
import sys
import warnings
from dataclasses import dataclass

import pandas as pd

from . import advice, answer, lr_scaling, method, model_section, overlap, plots, replay, search, statuses, strategy, units
from .frames import (CONFIGURATION, MEASURED, collective_frame, estimator_words, measured_label,
                     oversubscribed_worlds, point_intervals, train_frame, varied, varied_measures,
                     with_bus_traffic)
from .labels import backend_label
from .record_schema import as_meta, given
from .results import exit_on_error, load_or_exit
from .decisions import estimates_by_backend, verdict_of
from .tables import markdown_table, with_interval

PICTURES = ["throughput_vs_world_size.png", "scaling_efficiency.png", "busbw_vs_message_size.png",
            "loss_vs_epoch.png", "loss_vs_step.png", "auroc_vs_world_size.png", "step_time_breakdown.png"]
CHANCE_MARGIN = 0.1  # an AUROC this close to 0.5 means the model did not learn to separate


@dataclass
class Machine:
    """This host's reference speeds: the reduction's cost and a memory-bandwidth ceiling."""
    gamma_s_per_byte: float
    memcpy_gbps: float


@dataclass
class Run:
    """A results folder as the report reads it."""
    results: object
    frame: pd.DataFrame        # every training trial
    ok: pd.DataFrame           # measured training trials, with their point's median/lo/hi
    coll: pd.DataFrame         # measured collective points, with median/lo/hi
    words: dict

    @property
    def records(self):
        return self.results.records

    @property
    def meta(self):
        return as_meta(self.results.meta)


def read_run(results):
    meta = results.meta
    frame = train_frame(results.records, meta)
    coll = collective_frame(results.records, meta)
    ok = frame[frame["measured"]] if not frame.empty else frame
    if not ok.empty:
        ok = point_intervals(ok, results.aggregates, "samples_per_s", "samples_per_s", "samples_per_s_lo",
                             "samples_per_s_hi")
    if not coll.empty:
        coll = point_intervals(coll, results.aggregates, "busbw_gbps", "busbw", "busbw_lo", "busbw_hi",
                               by_bytes=True)
    return Run(results, frame, ok, coll, estimator_words(meta))


def auroc_text(value):
    if value is None or value != value:
        return ""
    text = units.significant(value)
    return text + (" (≈ chance: the model did not learn to separate anomalies)" if abs(value - 0.5) < CHANCE_MARGIN else "")


def training_table(run):
    """One row per model, backend, batch, world size and every other setting of the
    configuration that varies (frames.CONFIGURATION): configurations are never pooled."""
    differing = varied(run.ok, [k for k in CONFIGURATION if k not in ("model", "batch")])
    keys = ["model", "backend", "batch"] + differing + ["world_size"]
    table = run.ok.groupby(keys, dropna=False).agg(
        median=("median", "median"), lo=("lo", "min"), hi=("hi", "max"), wall=("samples_per_s_wall", "median"),
        final_loss=("final_loss", "median"), auroc=("auroc", "median"), trials=("status", "size"),
        inconsistent=("status", lambda s: int((s == "inconsistent").sum())),
        oversubscribed=("oversubscribed", "any")).reset_index()
    rows = []
    for _, t in table.iterrows():
        notes = []
        if t["oversubscribed"]:
            notes.append("oversubscribed")
        if t["inconsistent"]:
            notes.append(f"{t['inconsistent']} inconsistent")
        rows.append({"model": t["model"], "backend": t["backend"], "batch": t["batch"],
                     **{k: t[k] for k in differing}, "N": t["world_size"],
                     "samples/s": with_interval(t["median"], t["lo"], t["hi"], units.samples_per_s),
                     "wall-clock samples/s": units.samples_per_s(t["wall"]),
                     "final loss": units.significant(t["final_loss"]), "AUROC": auroc_text(t["auroc"]),
                     "trials": t["trials"], "notes": ", ".join(notes)})
    return pd.DataFrame(rows)


def training_section(run):
    if run.ok.empty:
        return ""
    lines = ["## Training", "", f"samples/s: {run.words['figure']}; wall-clock samples/s: every timed step over "
             "the trial's wall time (median over repetitions).", "", markdown_table(training_table(run))]
    epochs = run.ok["epochs"].dropna()
    chance = run.ok["auroc"].dropna()
    if len(chance) and (abs(chance - 0.5) < CHANCE_MARGIN).any() and len(epochs):
        lines.append(f"An AUROC near 0.5 is chance: in {int(epochs.max())} epoch(s) at those batch sizes the model "
                     "took too few steps to train. This job measures throughput; its loss and AUROC only show "
                     "that training ran.")
        lines.append("")
    lines.append(overlap.answers(run.ok))
    return "\n".join(lines) + "\n"


def collective_table(title, g):
    """busbw per size and backend, and the size's verdict (decisions.py) against the runner-up;
    g holds the points of one collective, dtype, op and world size."""
    backends = sorted(g["backend"].unique())
    rows = []
    for size, s in g.drop_duplicates(["point", "bytes"]).groupby("bytes"):
        estimates = estimates_by_backend(s)
        row = {"size": units.size_bytes(size)}
        for backend in backends:
            e = estimates.get(backend)
            row[backend] = with_interval(e.value, e.low, e.high, units.bandwidth_gbps) if e else ""
        v = verdict_of(size, estimates)
        if v:
            c = v.against(v.ranking[1][0])
            row["fastest"] = v.best
            row["vs runner-up"] = f"{v.best} {units.ratio(c.ratio)}" if c.outside_noise else "within noise"
        rows.append(row)
    note = " (oversubscribed: more ranks than cores; not ranked in the Answer)" if g["oversubscribed"].any() else ""
    return [f"### {title}{note}", "", markdown_table(pd.DataFrame(rows))]


def collective_section(run):
    """One table per collective, dtype, op and world size (frames.MEASURED): a backend's
    figure is never pooled over points that measured different things."""
    if run.coll.empty:
        return ""
    collectives = run.coll["collective"].unique()
    what = collectives[0].capitalize() if len(collectives) == 1 else "Collective"
    differing = varied_measures(run.coll)
    lines = [f"## {what} bus bandwidth", "",
             f"busbw per message size: {run.words['figure']}; the fastest backend is named against the runner-up only "
             f"where their {run.words['bands']} do not overlap.", ""]
    for key, g in with_bus_traffic(run.coll).groupby(MEASURED + ["world_size"]):
        label = measured_label(dict(zip(MEASURED, key)), differing)
        lines += collective_table(f"{label}, world size {key[-1]}" if label else f"World size {key[-1]}", g)
    if (run.coll["world_size"] == 1).any():
        lines += ["World size 1 moves no bytes between ranks, so it has no busbw (its times are in "
                  "points.csv).", ""]
    wrong = run.coll["wrong"].fillna(0).sum()
    lines += [f"Wrong elements over all points: {int(wrong)}.", ""]
    return "\n".join(lines) + "\n"


def noise_section(run):
    records, meta = run.records, run.meta
    machine = meta.machine
    shares = machine.cpu_shares
    lines = ["## Noise", ""]
    if shares:
        lines.append(f"Machine over the run: CPU busy {units.percent(shares.busy or 0)}, steal "
                     f"{units.percent(shares.steal or 0)}, iowait {units.percent(shares.iowait or 0)}; "
                     f"load average at start {given(machine.start.loadavg, '?')}, at end "
                     f"{given(machine.end.loadavg, '?')}.")
    gated = [r.machine_speed for r in records if r.machine_speed.gate == "on"]
    if gated:
        def total(name):  # over the gated records that hold the count (older ones may not)
            return sum(g[name] for g in gated if g.get(name) is not None)
        lines.append(f"Quiet gate (speed canary): {len(gated)} trials gated; {total('retries')} "
                     f"measurements taken again after a slow spell began during them; "
                     f"{total('not_quiet')} kept in a spell the budget could not wait out; "
                     f"{total('waited_s'):.0f} s spent waiting and measuring again.")
    adaptive = meta.adaptive_repetitions
    if adaptive:
        wide = adaptive.still_wide
        lines.append(f"Adaptive repetitions: {given(adaptive.extra_trials, 0)} extra trials in "
                     f"{given(adaptive.seconds_spent, 0):.0f} s (budget {given(adaptive.budget_s, 0):.0f} s, "
                     f"up to {adaptive.max_repetitions} repetitions); {len(wide)} of "
                     f"{given(adaptive.points, 0)} points still wider than "
                     f"{100 * given(adaptive.target_ci, 0):g}% ({run.words['bands']}).")
        if wide:
            # relative_ci: the name of relative_width in older folders.
            lines += ["", markdown_table(pd.DataFrame([{
                "part": w.part, "axes": json.dumps(given(w.axes, {})),
                "width %": round(100 * (given(w.relative_width, w.get("relative_ci")) or float("inf")), 1)}
                for w in wide]))]
    noisy = [r for r in records if r.noisy]
    lines.append(f"Noisy trials: {len(noisy)} of {len(records)} (see Statuses).")
    return "\n".join(lines) + "\n"


def failures_section(records):
    bad = [r for r in records if r.status != "ok"]
    if not bad:
        return ""
    table = pd.DataFrame([{"index": r.index, "kind": r.kind, "status": r.status,
                           "backend": backend_label(r), "world_size": r.world_size,
                           "reason": r.reason or ""} for r in bad])
    return "\n".join(["## Trials that did not finish ok", "", markdown_table(table)])


def header(run):
    meta, records = run.meta, run.records
    counts = pd.Series([r.status for r in records]).value_counts()
    return [f"# {run.results.name}", "", (meta.experiment or {}).get("description") or "", "",
            f"Results: `{run.results.folder}`; {len(records)} trial record(s); host {given(meta.host, '?')}, "
            f"{given(meta.cpu.count, '?')} CPUs, git {str(given(meta.git_sha, '?'))[:12]}. "
            "Status: " + ", ".join(f"{v} {k}" for k, v in counts.items()) + ".", ""]


def draw(run, canvas, machine):
    if not run.ok.empty:
        plots.plot_throughput(run.ok, canvas, run.words)
        plots.plot_loss(run.ok, canvas)
        plots.plot_auroc(run.ok, canvas)
        overlap.plot_breakdown(run.ok, canvas)
    overlap.plot_timeline(run.results.folder, run.records, canvas)
    plots.plot_busbw(run.coll, canvas, run.words, machine.memcpy_gbps)


def pictures_section(written):
    lines = ["## Pictures", ""] + [f"![{image}]({image})\n" for image in written]
    missing = [p for p in PICTURES if p not in written]
    if missing:
        lines += ["Not drawn (no data of that kind in these results): " + ", ".join(missing) + ".", ""]
    return "\n".join(lines)


def build(results, out, machine):
    """Writes the pictures, figures.json and report.md to out; returns the Answer's lines."""
    run = read_run(results)
    canvas = plots.Canvas(out)
    draw(run, canvas, machine)
    lr_answers, lr_section = lr_scaling.analyse(run.ok)
    searched = search.read(results.folder, results.records)
    crowded = oversubscribed_worlds(results.records, run.meta)
    lines = answer.answer_lines(run.ok, run.coll, lambda world: world in crowded,
                                search.answer_lines(searched) + lr_answers + overlap.answer_lines(run.ok)
                                + strategy.answer_lines(run.ok) + replay.answer_lines(run.records),
                                oversubscribed_rule=run.meta.oversubscribed.rule)
    facts = method.Facts(run.records, run.meta, run.ok, run.coll, results.aggregates, machine.memcpy_gbps)
    sections = ["\n".join(header(run)), answer.section(lines), search.section(searched),
                statuses.section(run.records),
                training_section(run), lr_section, collective_section(run), advice.section(run.ok),
                model_section.section(run.records, results.name, machine.gamma_s_per_byte,
                                      lambda world: world in crowded),
                noise_section(run), method.section(facts), pictures_section(canvas.written),
                failures_section(run.records)]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(re.sub(r"\n{3,}", "\n\n", "\n".join(s for s in sections if s)).rstrip() + "\n")
    with open(os.path.join(out, "figures.json"), "w") as f:
        json.dump({"series": canvas.series, "canvas": canvas.canvas_checks}, f, indent=1)
    return lines, canvas.written


def memcpy_of(records):
    """The run's own memcpy bound where its records carry one; else this host's, now."""
    recorded = method.recorded_memcpy(records)
    return recorded[0] if recorded else method.measure_memcpy_gbps()


@exit_on_error("scripts/plot")
def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/plot", description=__doc__.split("\n")[0])
    parser.add_argument("results_dir")
    parser.add_argument("--out", help="where to write (default: RESULTS_DIR/plots)")
    parser.add_argument("--gamma-gbps", type=float, help="the local fp32 sum's speed (default: measured)")
    parser.add_argument("--memcpy-gbps", type=float, help="one thread's memcpy bandwidth (default: the "
                        "readings the harness took around the trials, else measured now)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", "Mean of empty slice")  # a column no trial of a group has
    results = load_or_exit(args.results_dir, "scripts/plot")
    out = args.out or os.path.join(args.results_dir, "plots")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as error:
        print(f"scripts/plot: {out}: cannot write the report there ({error.strerror})", file=sys.stderr)
        return 2
    from .cost_model import measure_gamma
    machine = Machine(1e-9 / args.gamma_gbps if args.gamma_gbps else measure_gamma(),
                      args.memcpy_gbps or memcpy_of(results.records))
    lines, written = build(results, out, machine)
    print(answer.console_text(lines))
    print(f"Report: {os.path.join(out, 'report.md')} ({len(written)} picture(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
