"""The report's answer on the training strategy: at each sweep point that trained both ways,
sharded data parallel (ZeRO stage 2) against ddp, side by side: the memory one rank held for
each (optimizer state, and parameters + gradients + optimizer state), and whether sharded's
samples/s differ from ddp's outside the noise.
"""
from . import units
from .answer import point_label
from .frames import CONFIGURATION, combine, varied
from .stats import Estimate, compare

MEMORY = ("parameter_bytes", "gradient_bytes", "optimizer_state_bytes")


def _estimate(rows):
    c = combine(rows)
    return Estimate(float(c["median"]), float(c["lo"]), float(c["hi"]))


def _memory(rows):
    """The median bytes of each kind over the point's trials; None where not recorded."""
    if any(k not in rows or rows[k].isna().all() for k in MEMORY):
        return None
    return {k: float(rows[k].median()) for k in MEMORY}


def speed_phrase(sharded, ddp):
    c = compare("sharded", sharded, "ddp", ddp)
    if not c.outside_noise:
        return "runs within noise of ddp's samples/s"
    ratio = sharded.value / ddp.value
    return f"runs at {ratio:.2f}× ddp's samples/s (outside the noise)"


def memory_phrase(sharded, ddp):
    state = sharded["optimizer_state_bytes"] / ddp["optimizer_state_bytes"] if ddp["optimizer_state_bytes"] else None
    total = sum(sharded.values()) / sum(ddp.values())
    text = (f"holds {state:.2f}× the optimizer memory ({units.size_bytes(sharded['optimizer_state_bytes'])} "
            f"against {units.size_bytes(ddp['optimizer_state_bytes'])} per rank)" if state is not None
            else "holds no optimizer state either way")
    return text + f" and {total:.2f}× the parameters + gradients + optimizer state"


def answer_lines(ok):
    """One line per sweep point (configuration, backend, world size 2 and more) that ran both
    strategies; at an oversubscribed world size the memory alone (its timings are not ranked)."""
    if ok.empty or "strategy" not in ok or ok["strategy"].nunique() < 2 or "lo" not in ok:
        return []
    keys = [k for k in CONFIGURATION if k in ok and k != "strategy"]
    differing = varied(ok, keys)
    lines = []
    for values, g in ok[ok["world_size"] > 1].groupby(keys + ["backend", "world_size"], dropna=False):
        by = {s: rows for s, rows in g.groupby("strategy")}
        if "ddp" not in by or "sharded" not in by:
            continue
        memory = _memory(by["sharded"]), _memory(by["ddp"])
        speed = ("runs beside ddp unranked (oversubscribed)" if g["oversubscribed"].any()
                 else speed_phrase(_estimate(by["sharded"]), _estimate(by["ddp"])))
        text = f"strategy, {point_label(dict(zip(keys, values)), differing)}, {values[-2]}, world {int(values[-1])}: **sharded** {speed}"
        if None not in memory:
            text += "; " + memory_phrase(*memory)
        lines.append(text)
    return lines
