"""The report's "Where more ranks stop paying off": per model, backend and batch, the first
world size whose samples/s do not clear the previous one's beyond the noise. Oversubscribed
world sizes are left out of the decision (their timings measure the scheduler) and named."""
import pandas as pd

from .frames import CONFIGURATION, combine, varied
from .tables import markdown_table

KEYS = ["backend"] + CONFIGURATION


def scaling_stops(ok):
    keys = [k for k in KEYS if k in ok]
    shown = ["model", "backend", "batch"] + varied(ok, [k for k in keys if k not in ("model", "backend", "batch")])
    rows = []
    fair = ok[~ok["oversubscribed"]] if "oversubscribed" in ok else ok
    left_out = sorted(set(ok["world_size"]) - set(fair["world_size"]))
    for values, g in fair.groupby(keys, dropna=False):
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
    return pd.DataFrame(rows), left_out


def section(ok):
    """Markdown, or "" without several fairly measured world sizes."""
    if ok.empty or "lo" not in ok or ok["world_size"].nunique() < 2:
        return ""
    table, left_out = scaling_stops(ok)
    if table.empty:
        return ""
    note = (f" World size {', '.join(map(str, left_out))} is oversubscribed here and left out." if left_out else "")
    return "\n".join(["## Where more ranks stop paying off", "",
                      "The first world size whose samples/s interval does not clear the previous one's." + note, "",
                      markdown_table(table[[c for c in table.columns]])]) + "\n"
