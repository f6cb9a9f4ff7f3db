"""The report's `## Answer`: one line per question the run can answer, with the answer, its
size and its certainty. The same lines end the run on the console.

Collectives: per world size and message-size band, from the per-size verdicts (decisions.py).
A backend wins a band when it is fastest at every size of it; the line says over whom it wins
outside the noise and where it is within noise. Training: per sweep point, the fastest
backend's samples/s and its ratio over each other backend, or "within noise". Points with more
ranks on a host than it has cores are not ranked: their timings measure the scheduler.
"""
from itertools import groupby

from . import units
from .decisions import estimates_by_backend, size_verdicts, verdict_of
from .frames import CONFIGURATION, MEASURED, measured_label, varied, varied_measures

BANDS = [("small", 0, 4096), ("medium", 4096, 1 << 20), ("large", 1 << 20, float("inf"))]


def band_of(size):
    for name, low, high in BANDS:
        if low < size <= high or (low == 0 and size <= high):
            return name
    return "?"


def size_span(sizes, measured):
    """"16 KB–1 MB" for consecutive measured sizes, else a list: "4 KB, 64 KB"."""
    sizes = sorted(sizes)
    if len(sizes) == 1:
        return units.size_bytes(sizes[0])
    positions = [measured.index(s) for s in sizes]
    if positions == list(range(positions[0], positions[0] + len(positions))):
        return f"{units.size_bytes(sizes[0])}–{units.size_bytes(sizes[-1])}"
    return ", ".join(units.size_bytes(s) for s in sizes)


def ratio_range(ratios):
    low, high = units.ratio(min(ratios)), units.ratio(max(ratios))
    return low if low == high else f"{low}–{high}"


def _against(winner_verdicts, other, measured):
    """How the winner of these verdicts fares against `other`: (phrase, every size outside the
    noise), or None where `other` was not measured at these sizes."""
    pairs = [(v.position, v.against(other)) for v in winner_verdicts]
    pairs = [(size, c) for size, c in pairs if c is not None]
    if not pairs:
        return None
    outside = [c.ratio for _, c in pairs if c.outside_noise]
    inside = [size for size, c in pairs if not c.outside_noise]
    if not outside:
        return f"within noise of {other}", False
    phrase = f"{ratio_range(outside)} over {other}"
    if inside:
        phrase += f" (within noise at {size_span(inside, measured)})"
    return phrase, not inside


def _others(verdicts, winner):
    names = {name for v in verdicts for name, _ in v.ranking} - {winner}

    def closeness(name):  # the closest rival first
        ratios = [c.ratio for c in (v.against(name) for v in verdicts) if c]
        return min(ratios) if ratios else float("inf")
    return sorted(names, key=closeness)


def winner_phrase(verdicts, winner, measured):
    """"**mpi**, ×1.06–×1.33 over ring, ×2.3–×3.9 over gloo:ring (every size outside the noise)";
    rivals within noise at every size are named apart: "**mpi** (ring within noise of it), ..."."""
    phrases, ties, everywhere = [], [], True
    for other in _others(verdicts, winner):
        result = _against(verdicts, other, measured)
        if not result:
            continue
        if result[0].startswith("within noise"):
            ties.append(other)
        else:
            phrases.append(result[0])
        everywhere &= result[1]
    text = f"**{winner}**" + (f" ({', '.join(ties)} within noise of it)" if ties else "")
    if phrases:
        text += ", " + ", ".join(phrases)
    return text + (" (every size outside the noise)" if everywhere and phrases else "")


def band_line(world, verdicts, measured):
    span = span_of(verdicts, measured)
    bests = [v.best for v in verdicts]
    if len(set(bests)) == 1:
        return f"world {world}, {span}: {winner_phrase(verdicts, bests[0], measured)}"
    pieces = []
    for winner, run in groupby(verdicts, key=lambda v: v.best):
        run = list(run)
        pieces.append(f"{span_of(run, measured)}: {winner_phrase(run, winner, measured)}")
    return f"world {world}, {span}: no single winner; " + "; ".join(pieces)


def span_of(verdicts, measured):
    return size_span([v.position for v in verdicts], measured)


def collective_lines(coll, meta_oversubscribed, oversubscribed_rule=None):
    """Answer lines for the collective benchmark, world sizes in order."""
    if coll.empty or "lo" not in coll:
        return []
    named = {"collective"} | set(varied_measures(coll))  # "allreduce", or "allreduce fp16" in a run of two dtypes
    lines = []
    for key, verdicts in sorted(size_verdicts(coll).items(), key=_collective_order):
        what, world = measured_label(dict(zip(MEASURED, key)), named), key[-1]
        if meta_oversubscribed(world):
            lines.append(oversubscribed_line(what, world, oversubscribed_rule))
            continue
        measured = [v.position for v in verdicts]
        for _, band in groupby(verdicts, key=lambda v: band_of(v.position)):
            lines.append(f"{what} busbw, " + band_line(world, list(band), measured))
    return lines


COLLECTIVES = ("allreduce", "reduce_scatter", "allgather", "broadcast", "alltoall")


def _collective_order(item):
    key, _ = item  # (collective, dtype, op, world_size)
    collective = key[0]
    order = COLLECTIVES.index(collective) if collective in COLLECTIVES else len(COLLECTIVES)
    return (order,) + key


def oversubscribed_line(what, world, rule=None):
    """rule: the experiment's "oversubscribed" (meta.json), which says how such points ran."""
    line = (f"{what}, world {world}: not ranked: more ranks than cores on a host (oversubscribed), so its "
            "timings measure the scheduler, not the backends")
    if rule == "once":
        line += "; each point ran once, to show that it works (oversubscribed: once)"
    return line


def point_label(row, differing):
    """"transformer batch 32, lr 0.01": the model, the batch and the other settings that vary."""
    label = f"{row['model']} batch {row['batch']}"
    for key in differing:
        if key not in ("model", "batch"):
            label += f", {key} {row[key]}"
    return label


def training_lines(ok, oversubscribed_rule=None):
    """Answer lines for training throughput: one per sweep point with two or more backends
    at world size 2 or more."""
    if ok.empty or "lo" not in ok:
        return []
    keys = [k for k in CONFIGURATION if k in ok]
    differing = varied(ok, keys)
    lines, oversubscribed_worlds = [], set()
    for values, g in ok[ok["world_size"] > 1].groupby(keys + ["world_size"], dropna=False):
        world = int(values[-1])
        if g["oversubscribed"].any():
            oversubscribed_worlds.add(world)
            continue
        v = verdict_of(None, estimates_by_backend(g.drop_duplicates("point")))
        if not v:
            continue
        label = point_label(g.iloc[0], differing)
        best = v.ranking[0][1]
        phrases, within = [], []
        for name, _ in v.ranking[1:]:
            c = v.against(name)
            if c.outside_noise:
                phrases.append(f"{units.ratio(c.ratio)} over {name}")
            else:
                within.append(name)
        text = f"{label}, world {world}: **{v.best}** {units.samples_per_s(best.value)}"
        if phrases:
            text += ", " + ", ".join(phrases)
        if within:
            text += f"; {', '.join(within)} within noise of {v.best}"
        lines.append(text)
    return lines + [oversubscribed_line("training", world, oversubscribed_rule)
                    for world in sorted(oversubscribed_worlds)]


def answer_lines(ok, coll, meta_oversubscribed, extra=(), oversubscribed_rule=None):
    """Every answer line: collectives, training, then any the caller adds (LR scaling).
    oversubscribed_rule: meta.json's oversubscribed.rule, how oversubscribed points ran."""
    return (collective_lines(coll, meta_oversubscribed, oversubscribed_rule)
            + training_lines(ok, oversubscribed_rule) + list(extra))


NOTHING_TO_COMPARE = "These results hold no comparison between backends (one backend, or world size 1 only)."


def section(lines):
    body = [f"- {line}" for line in lines or [NOTHING_TO_COMPARE]]
    return "\n".join(["## Answer", "",
                      "Fastest backend per question; a ratio is given only where the two intervals do not "
                      "overlap (outside the noise), message sizes are decided one at a time.", ""] + body) + "\n"


def console_text(lines):
    """The Answer for the console: the same lines, without Markdown."""
    return "\n".join(["Answer:"] + [f"  {line.replace('**', '')}" for line in lines or [NOTHING_TO_COMPARE]])
