"""scripts/plot's "What to use" section of report.md (imported, not run): from a sweep's own
measurements, per world size and message-size band the fastest backend (named only where
its 95% interval clears the runner-up's, else "within noise"), and per model, backend and
batch where adding ranks stops paying off (the first world size whose samples/s are not
above the previous one's beyond the noise). Fusion sizes and larger worlds follow in the
report's "Cost model" section (scripts/plot_model.py).
"""
import pandas as pd

BANDS = [("small (<= 4 KB)", 0, 4096), ("medium (4 KB - 1 MB]", 4096, 1 << 20), ("large (> 1 MB)", 1 << 20, float("inf"))]


def band_of(size):
    for name, low, high in BANDS:
        if low < size <= high or (low == 0 and size <= high):
            return name
    return "?"


def fastest_by_band(coll, combine, verdict):
    rows = []
    data = coll.assign(band=coll["bytes"].map(band_of))
    for (world, band), g in data.groupby(["world_size", "band"]):
        # Per backend: the median over the band's sizes of busbw, with the widest interval.
        per = g.groupby("backend").apply(combine).sort_values("median", ascending=False)
        if per.empty:
            continue
        row = {"N": world, "message sizes": band, "fastest": per.index[0],
               "busbw GB/s": f"{per.iloc[0]['median']:.3g} [{per.iloc[0]['lo']:.3g}, {per.iloc[0]['hi']:.3g}]"}
        if len(per) > 1:
            row["vs runner-up"] = verdict(per.index[0], per.iloc[0], per.index[1], per.iloc[1])
        rows.append(row)
    return pd.DataFrame(rows)


# What makes two training rows the same configuration, world size aside.
CONFIGURATION = ["model", "backend", "batch", "dataset", "optimizer", "lr", "lr_rule", "warmup",
                 "fusion_bytes", "overlap", "compression"]


def scaling_stops(ok, combine):
    keys = [k for k in CONFIGURATION if k in ok]
    shown = ["model", "backend", "batch"] + [k for k in keys[3:] if ok[k].astype(str).nunique() > 1]
    rows = []
    for values, g in ok.groupby(keys, dropna=False):
        per = g.groupby("world_size").apply(combine).sort_index()
        if len(per) < 2:
            continue
        stop = None
        for previous, world in zip(per.index[:-1], per.index[1:]):
            if per.loc[world]["lo"] <= per.loc[previous]["hi"]:
                stop = world
                break
        row = {k: v for k, v in zip(keys, values) if k in shown}
        row["most samples/s at N"] = per["median"].idxmax()
        row["adding ranks stops paying off at N"] = stop if stop is not None else "not within the sweep"
        rows.append(row)
    return pd.DataFrame(rows)


def section(ok, coll, combine, verdict, markdown_table):
    """Markdown, or "" when the results hold neither collectives nor several world sizes."""
    parts = []
    if not coll.empty and "lo" in coll:
        parts += ["Fastest backend per world size and message-size band (busbw medians over the band's "
                  "sizes; named only outside the noise):", "", markdown_table(fastest_by_band(coll, combine, verdict))]
    if not ok.empty and "lo" in ok and ok["world_size"].nunique() > 1:
        table = scaling_stops(ok, combine)
        if not table.empty:
            parts += ["Where more ranks stop buying throughput (the first world size whose samples/s interval "
                      "does not clear the previous one's):", "", markdown_table(table)]
    if not parts:
        return ""
    return "\n".join(["## What to use", ""] + parts + [
        "Fusion sizes and 64 or 1024 ranks: the cost model's section below, and `scripts/model RESULTS_DIR` "
        "(crossover sizes between algorithms, predicted busbw and step communication time)."]) + "\n"
