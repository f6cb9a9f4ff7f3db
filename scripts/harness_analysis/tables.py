"""Markdown tables with readable cells, and the phrase for one pairwise verdict."""
import math

from . import units
from .stats import Estimate, compare


def markdown_table(frame):
    if frame.empty:
        return "(none)\n"
    columns = list(frame.columns)
    lines = ["| " + " | ".join(map(str, columns)) + " |", "|" + "---|" * len(columns)]
    for _, row in frame.iterrows():
        lines.append("| " + " | ".join(units.plain(row[c]) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def estimate_of(row):
    """An Estimate from a row (or Series) with median, lo and hi."""
    return Estimate(float(row["median"]), float(row["lo"]), float(row["hi"]))


def verdict(a_name, a, b_name, b):
    """"mpi ×2.10" when one interval clears the other, else "within noise"."""
    c = compare(a_name, estimate_of(a), b_name, estimate_of(b))
    return f"{c.winner} {units.ratio(c.ratio)}" if c.outside_noise else "within noise"


def with_interval(value, low, high, formatter):
    """"402k [398k, 410k] samples/s": the unit once where all three share it, else on each."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = formatter(value)
    if low is None or high is None or low != low or high != high or (low == value == high):
        return text
    parts = [formatter(v).partition(" ") for v in (value, low, high)]
    if len({unit for _, _, unit in parts}) == 1:
        unit = parts[0][2]
        return f"{parts[0][0]} [{parts[1][0]}, {parts[2][0]}]" + (f" {unit}" if unit else "")
    return f"{text} [{formatter(low)}, {formatter(high)}]"
