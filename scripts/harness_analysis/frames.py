"""Results as pandas tables: one row per training trial, one per collective point, and each
row's sweep-point estimate with its interval (aggregates.csv: the run's estimator over the
point's repetitions; a single trial: its own interval)."""
import pandas as pd

from .labels import backend_labeller, model_label
from .record_schema import as_meta, given

# What makes two training rows the same configuration, backend and world size aside.
CONFIGURATION = ["model", "batch", "dataset", "optimizer", "lr", "lr_rule", "warmup",
                 "fusion_bytes", "overlap", "compression", "strategy"]


def _meta_oversubscribed(meta):
    """The world sizes the harness found oversubscribed when the run started (meta.json), for
    records written before they carried the verdict themselves."""
    return set(as_meta(meta).oversubscribed.world_sizes or [])


def is_oversubscribed(record, meta):
    """The harness's verdict (the record's oversubscribed): more ranks than CPUs on a host of
    the trial's group, so its timings measure the scheduler."""
    if record.oversubscribed is not None:
        return bool(record.oversubscribed)
    return record.world_size in _meta_oversubscribed(meta)


def oversubscribed_worlds(records, meta):
    """The world sizes with an oversubscribed trial."""
    return {r.world_size for r in records if is_oversubscribed(r, meta)}


def _interval(pair):
    return pair if isinstance(pair, list) and len(pair) == 2 else [None, None]


def train_frame(records, meta=None):
    """One row per training trial. Settings are read as the record holds them: every setting
    the trial ran with (results.Settings refuses a record lacking one)."""
    backend_label = backend_labeller(records)
    rows = []
    for r in records:
        if r.kind != "train":
            continue
        s = r.settings
        throughput, times, loss = r.throughput, r.step_time_ms, r.loss
        low, high = _interval(throughput.samples_per_s_ci95)
        rows.append({
            "index": r.index, "part": r.part, "point": r.point, "noisy": bool(r.noisy),
            "status": r.status, "measured": r.measured, "reason": r.reason, "backend": backend_label(r),
            "model": model_label(s), "dataset": s["dataset"]["kind"],
            "optimizer": s["optimizer"]["name"], "lr": s["optimizer"]["lr"],
            "lr_rule": s["lr_rule"], "warmup": s["lr_warmup_epochs"],
            "world_size": r.world_size, "batch": s["batch_size"],
            "oversubscribed": is_oversubscribed(r, meta),
            "repetition": r.repetition,
            "samples_per_s": throughput.samples_per_s,
            "samples_per_s_wall": throughput.samples_per_s_wall,
            "samples_per_s_lo": low, "samples_per_s_hi": high,
            "compute_ms": times.compute, "exposed_comm_ms": times.exposed_comm,
            "comm_ms": times.comm, "optimizer_ms": times.optimizer,
            "step_ms": times.p50, "overlap_fraction": r.overlap_fraction,
            "fusion_bytes": s["fusion_bytes"], "overlap": s["overlap"],
            "compression": s["compression"], "strategy": s["strategy"],
            "parameter_bytes": r.memory.parameter_bytes,
            "gradient_bytes": r.memory.gradient_bytes,
            "optimizer_state_bytes": r.memory.optimizer_state_bytes,
            "epochs": s["epochs"],
            "final_loss": loss.final, "val_loss": loss.validation,
            "auroc": r.detection_points.auroc if r.detection_points else r.detection.auroc,
            "loss_per_epoch": loss.per_epoch or [],
            "loss_per_step": loss.per_step or [],
        })
    return pd.DataFrame(rows)


# What a collective point measured, besides its backend, world size and message size: points
# are compared, pooled and plotted only with others that agree on all of these.
MEASURED = ["collective", "dtype", "op"]


def collective_frame(records, meta=None):
    backend_label = backend_labeller(records)
    rows = []
    for r in records:
        if r.kind != "collective" or not r.measured:
            continue
        measured = {name: r.settings[name] for name in MEASURED}
        for p in r.points or []:
            rows.append(dict(measured, **{
                "backend": backend_label(r), "world_size": r.world_size,
                "oversubscribed": is_oversubscribed(r, meta), "point": r.point, "noisy": bool(r.noisy),
                "bytes": p.bytes, "busbw": p.busbw_gbps, "algbw": p.algbw_gbps, "time_us": p.p50_us,
                "busbw_lo": p.busbw_ci_low_gbps, "busbw_hi": p.busbw_ci_high_gbps, "wrong": p.wrong}))
    return pd.DataFrame(rows)


def with_bus_traffic(coll):
    """The collective points whose busbw means something: world size 2 or more. A group of one
    moves no bytes between ranks, so it has no bus bandwidth (the harness records busbw 0 for it;
    records written before it did said its algbw): its points stay in points.csv and the wrong
    count, never in a busbw table, picture or Answer line."""
    return coll[coll["world_size"] > 1] if not coll.empty else coll


def varied(frame, columns):
    """The columns (of those named) that take more than one value in the frame."""
    return [c for c in columns if c in frame and frame[c].astype(str).nunique() > 1]


def measured_label(values, named):
    """"broadcast fp16": the values (a row, or a dict) of the names of MEASURED in `named` (those
    that vary in the run); "" when there are none."""
    return " ".join(str(values[name]) for name in MEASURED if name in named)


def varied_measures(coll):
    """The names of MEASURED that take more than one value in the collective frame."""
    return varied(coll, MEASURED)


def _aggregate_table(aggregates, figure):
    """{(point, bytes): (estimate, low, high)} for points with two or more repetitions."""
    table = {}
    for a in aggregates:
        if a.get("figure") != figure or (a.get("n") or 0) < 2:
            continue
        if "estimate" in a and a["estimate"] not in ("", None):
            values = (a["estimate"], a["estimate_low"], a["estimate_high"])
        else:  # folders from before the estimator: the median and its 95% interval
            values = (a["median"], a["ci_low"], a["ci_high"])
        table[(a["point"], int(a.get("bytes") or 0))] = values
    return table


def _present(value):
    return value is not None and value == value


def point_intervals(frame, aggregates, figure, column, lo_column, hi_column, by_bytes=False):
    """frame with columns median, lo, hi: each row's sweep-point estimate and interval."""
    table = _aggregate_table(aggregates, figure)
    medians, lows, highs = [], [], []
    for _, row in frame.iterrows():
        key = (row["point"], int(row["bytes"]) if by_bytes else 0)
        median, low, high = table.get(key, (row[column], row[lo_column], row[hi_column]))
        medians.append(median)
        lows.append(low if _present(low) else median)
        highs.append(high if _present(high) else median)
    out = frame.copy()
    out["median"], out["lo"], out["hi"] = medians, lows, highs
    return out


def combine(group):
    """One (median, lo, hi) for rows that share a plotted position (one row per point)."""
    return pd.Series({"median": group["median"].median(), "lo": group["lo"].min(), "hi": group["hi"].max()})


def estimator_words(meta):
    """How the run turned a point's repetitions into its figure, in the words the plots and
    the report use."""
    estimator = as_meta(meta).estimator
    if estimator.name != "k_best":
        return {"figure": "median, 95% CI", "ratio": "ratio of medians", "bands": "95% intervals"}
    k = given(estimator.k, 3)
    return {"figure": f"fastest repetition, band over the {k} fastest",
            "ratio": "ratio of the fastest repetitions",
            "bands": f"bands over the {k} fastest repetitions"}
