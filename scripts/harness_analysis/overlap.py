"""The report's part on bucketed overlap, compression and timelines.

The step-time breakdown (compute, exposed communication, optimizer; total communication as a
tick), one step of a trial's timeline as a Gantt chart, and report.md's answers: the fastest
fusion size and mode per model, backend and world size (named only outside the noise), what
overlap buys, and what fp16/bf16 compression costs in convergence.
"""
import os

import matplotlib.pyplot as plt
import pandas as pd

from . import units
from .frames import combine, varied
from .record_schema import problems
from .results import ResultsError, read_json_file
from .tables import markdown_table, verdict, with_interval

SETTINGS = ["fusion_bytes", "overlap", "compression"]
COLOURS = {"forward": "tab:blue", "backward": "tab:orange", "allreduce": "tab:green",
           "reduce_scatter": "tab:green", "allgather": "tab:olive",
           "wait for communication": "tab:red", "optimizer": "tab:purple"}


def fusion_label(value):
    if value is None or value != value:  # records from before the setting: every gradient in one buffer
        return "one buffer"
    return "per tensor" if int(value) == 0 else units.size_bytes(value)


def configuration(row):
    return (f"{fusion_label(row['fusion_bytes'])}, {'overlap' if row['overlap'] else 'after backward'}, "
            f"{row['compression']}")


def axis_label(key, value):
    if key == "fusion_bytes":
        return fusion_label(value)
    if key == "overlap":
        return "overlap" if value else "after bwd"
    if key == "world_size":
        return f"N={value}"
    return str(value)


def plot_breakdown(ok, canvas):
    data = ok.dropna(subset=["compute_ms", "exposed_comm_ms", "optimizer_ms"])
    if data.empty:
        return
    keys = ["model", "backend", "world_size"] + SETTINGS
    table = data.groupby(keys)[["compute_ms", "exposed_comm_ms", "comm_ms", "optimizer_ms"]].mean()
    shown = varied(data, keys) or ["backend", "world_size"]
    labels = ["\n".join(axis_label(k, v) for k, v in zip(keys, index) if k in shown) for index in table.index]
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(table)), 4.5))
    bottom = [0.0] * len(table)
    for column, colour, label in (("compute_ms", "tab:blue", "compute (forward+backward)"),
                                  ("exposed_comm_ms", "tab:red", "exposed communication"),
                                  ("optimizer_ms", "tab:purple", "optimizer")):
        ax.bar(range(len(table)), table[column], bottom=bottom, color=colour, label=label)
        bottom = [b + v for b, v in zip(bottom, table[column])]
    ax.scatter(range(len(table)), table["comm_ms"], marker="_", s=200, color="black", zorder=3,
               label="all communication (overlapped or not)")
    ax.set_xticks(range(len(table)))
    ax.set_xticklabels(labels, fontsize=6, rotation=90)
    ax.set_ylabel("mean of per-rank median step time (ms)")
    ax.set_title("step time: compute vs exposed communication")
    ax.legend(fontsize=7)
    canvas.save(fig, "step_time_breakdown.png")


def pick_trace(records):
    """The trial whose timeline shows the most: overlapped, with the most buckets."""
    candidates = [r for r in records if r.status == "ok" and r.trace_file]
    if not candidates:
        return None
    return max(candidates, key=lambda r: (r.settings["overlap"],
                                          r.gradient_reduction.buckets or 0))


# The trace events the timeline draws, as the harness writes them (train/step_timeline.cpp):
# spans ("X") and instants ("i") on a rank's lane, each with its step.
TRACE = {"type": "object", "required": ["traceEvents"],
         "properties": {"traceEvents": {"type": "array", "items": {"type": "object"}}}}
DRAWN_EVENT = {"type": "object", "required": ["name", "ts", "pid", "tid", "args"],
               "properties": {"name": {"type": "string"}, "ts": {"type": "number"}, "dur": {"type": "number"},
                              "pid": {"type": "integer"}, "tid": {"type": "integer"},
                              "args": {"type": "object", "required": ["step"],
                                       "properties": {"step": {"type": "integer"}}}},
               "if": {"properties": {"ph": {"const": "X"}}}, "then": {"required": ["dur"]}}


def drawn_events(path):
    """The spans and instants of a trace file; ResultsError naming the file where it is not
    a trace as the harness writes it."""
    trace = read_json_file(path, "a Chrome trace of the timeline")
    found = problems(trace, TRACE)
    if found:
        raise ResultsError(f"{path}: {found[0]}, expected a Chrome trace as the harness writes it")
    events = [e for e in trace["traceEvents"] if e.get("ph") in ("X", "i")]
    for number, event in enumerate(events):
        found = problems(event, DRAWN_EVENT)
        if found:
            raise ResultsError(f"{path}: event {number} ({event['ph']}): {found[0]}, expected a span or instant "
                               "as the harness writes them")
    return events


def plot_timeline(results_dir, records, canvas):
    record = pick_trace(records)
    if record is None:
        return None
    path = os.path.join(results_dir, record["trace_file"])
    if not os.path.lexists(path):
        return None
    events = drawn_events(path)
    steps = sorted({e["args"]["step"] for e in events})
    if not steps:
        return None
    step = steps[len(steps) // 2]
    events = [e for e in events if e["args"]["step"] == step]
    start = min(e["ts"] for e in events)
    lanes = sorted({(e["pid"], e["tid"]) for e in events})
    row_of = {lane: i for i, lane in enumerate(lanes)}
    fig, ax = plt.subplots(figsize=(10, 0.6 * len(lanes) + 1.5))
    seen = set()
    for e in events:
        y = row_of[(e["pid"], e["tid"])]
        at = (e["ts"] - start) / 1000
        if e["ph"] == "i":
            ax.plot([at, at], [y - 0.4, y + 0.4], color="black", linewidth=0.8)
            continue
        label = e["name"] if e["name"] not in seen else None
        seen.add(e["name"])
        ax.barh(y, e["dur"] / 1000, left=at, height=0.6, color=COLOURS.get(e["name"], "grey"),
                edgecolor="white", linewidth=0.3, label=label)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([f"rank {p} {'compute' if t == 0 else 'comm thread'}" for p, t in lanes], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"ms from the start of step {step} (black ticks: a bucket's gradients are all in)")
    s = record.settings
    ax.set_title(f"timeline: {s['model']} on {s['backend']}, N={record.world_size}, "
                 f"{configuration(pd.Series({k: s[k] for k in SETTINGS}))}, "
                 f"{record.gradient_reduction.buckets} buckets", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    canvas.save(fig, "timeline.png")
    return record["trace_file"]


def configurations(ok):
    """Per model, backend and world size: (model, backend, world, rows, estimates) with one
    estimate (median, lo, hi) per fusion size, mode and compression, fastest first."""
    for (model, backend, world), g in ok.groupby(["model", "backend", "world_size"]):
        per = g.groupby(SETTINGS).apply(combine).sort_values("median", ascending=False)
        if not per.empty:
            yield model, backend, world, g, per


def name_of(key):
    return configuration(pd.Series(dict(zip(SETTINGS, key))))


def overlap_pair(per, best_key):
    """The estimates with overlap on and off at the fastest fusion size and compression."""
    fusion, _, compression = best_key
    on, off = (fusion, True, compression), (fusion, False, compression)
    return (per.loc[on] if on in per.index else None), (per.loc[off] if off in per.index else None)


def answers(ok):
    """report.md's section on buckets, overlap and compression; empty when none of them varied."""
    if ok.empty or not varied(ok, SETTINGS):
        return ""
    lines = ["## Buckets, overlap and compression", "",
             "Per model, backend and world size: the fastest configuration (median samples/s over "
             "repetitions with its 95% interval) against the runner-up — named only where the intervals "
             "do not overlap —, what overlap buys at that fusion size and compression (ratio of medians), "
             "and how much of the step the communication left exposed.", ""]
    rows = []
    for model, backend, world, g, per in configurations(ok):
        best_key, best = per.index[0], per.iloc[0]
        row = {"model": model, "backend": backend, "N": world, "fastest": name_of(best_key),
               "samples/s": with_interval(best["median"], best["lo"], best["hi"], units.samples_per_s)}
        if len(per) > 1:
            row["vs runner-up"] = verdict("fastest", best, name_of(per.index[1]), per.iloc[1])
        on, off = overlap_pair(per, best_key)
        row["overlap on/off"] = units.ratio(on["median"] / off["median"]) if on is not None and off is not None else ""
        fusion, mode, compression = best_key
        best_rows = g[(g["fusion_bytes"] == fusion) & (g["overlap"] == mode) & (g["compression"] == compression)]
        row["exposed comm, of the step"] = units.percent((best_rows["exposed_comm_ms"] / best_rows["step_ms"]).median())
        rows.append(row)
    lines.append(markdown_table(pd.DataFrame(rows)))
    cost = compression_cost(ok)
    if cost is not None:
        lines += ["What compression costs in convergence (medians over every configuration and repetition "
                  "that differs only in compression): final training loss relative to fp32, and AUROC "
                  "difference.", "", markdown_table(cost)]
    return "\n".join(lines) + "\n"


def answer_lines(ok):
    """The Answer's lines on fusion size and overlap, where they were swept (world 2 and more):
    the fastest configuration with its interval, how it stands against the runner-up, and
    whether overlap pays at that fusion size, each decided by the intervals."""
    if ok.empty or not varied(ok, ["fusion_bytes", "overlap"]):
        return []
    lines = []
    for model, backend, world, _, per in configurations(ok[ok["world_size"] > 1]):
        if len(per) < 2:
            continue
        best_key, best = per.index[0], per.iloc[0]
        text = (f"fusion and overlap, {model}, {backend}, world {world}: **{name_of(best_key)}** "
                f"{with_interval(best['median'], best['lo'], best['hi'], units.samples_per_s)}")
        runner_up = verdict("fastest", best, "runner-up", per.iloc[1])
        text += (f", {runner_up.split()[-1]} over {name_of(per.index[1])}" if runner_up != "within noise"
                 else f"; {name_of(per.index[1])} within noise of it")
        on, off = overlap_pair(per, best_key)
        if on is not None and off is not None:
            pays = verdict("on", on, "off", off)
            text += ("; overlap pays " + pays.split()[-1] if pays.startswith("on ")
                     else "; overlap costs " + pays.split()[-1] if pays.startswith("off ")
                     else "; overlap within noise") + f" at {fusion_label(best_key[0])}"
        lines.append(text)
    return lines


def compression_cost(ok):
    if "compression" not in ok or ok["compression"].nunique() < 2:
        return None
    keys = ["model", "backend", "world_size", "fusion_bytes", "overlap", "repetition"]
    plain = ok[ok["compression"] == "none"].set_index(keys)
    rows = []
    for kind in sorted(set(ok["compression"]) - {"none"}):
        narrow = ok[ok["compression"] == kind].set_index(keys)
        both = narrow.join(plain, rsuffix="_fp32", how="inner")
        for model, g in both.groupby(level="model"):
            rows.append({"model": model, "compression": kind, "pairs": len(g),
                         "final loss / fp32": (g["final_loss"] / g["final_loss_fp32"]).median(),
                         "AUROC - fp32": (g["auroc"] - g["auroc_fp32"]).median(),
                         "samples/s / fp32": (g["samples_per_s"] / g["samples_per_s_fp32"]).median()})
    return pd.DataFrame(rows) if rows else None
