"""The search's answer, from search.json: the winner and how it stands against the runner-up,
what the search spent against what the grid would have, and every rung's decisions."""
import json
import os

from . import units
from .tables import with_interval

OBJECTIVE_WORDS = {"samples_per_s": "samples/s", "busbw": "bus bandwidth", "auroc": "AUROC",
                   "time_to_target": "time to target"}


def read(folder, records=None):
    """search.json's content, or None where the run was no search (or the file is unreadable).
    With the folder's records, a search.json they do not bear out (a winner or runner-up whose
    figure its trials did not measure, fields of the wrong type) comes back as {"problem": ...}:
    the report shows the problem, never the claim."""
    path = os.path.join(folder, "search.json")
    try:
        with open(path) as f:
            search = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(search, dict):
        return None
    problem = shape_problem(search) or (records is not None and disagreement(search, records))
    return {"problem": f"{path}: {problem}"} if problem else search


# The fields the Answer reads, with their types (a hand-edited file may carry anything).
FIELDS = {"objective": str, "finished": bool, "trials": int, "seconds_spent": (int, float),
          "winner": (dict, type(None)), "winner_figure": (dict, type(None)),
          "runner_up": (dict, type(None)), "runner_up_figure": (dict, type(None)),
          "distinguishable": bool, "rungs": list}


def shape_problem(search):
    for name, kind in FIELDS.items():
        if name in ("runner_up", "runner_up_figure", "distinguishable") and name not in search:
            continue  # a search with one configuration has no runner-up
        value = search.get(name)
        if name not in search or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"{name} is {'missing' if name not in search else json.dumps(value)}; not a search.json the harness wrote"
    return ""


def _value_of(record, search):
    """The objective's figure of one measured record (None: not measured, or no single value)."""
    objective = search.get("objective")
    if objective == "samples_per_s":
        return (record.get("throughput") or {}).get("samples_per_s")
    if objective == "auroc":
        return (record.get("detection") or {}).get("auroc")
    if objective == "busbw":
        points = [p for p in record.get("points") or [] if isinstance(p, dict)]
        wanted = search.get("message_bytes")
        chosen = [p for p in points if p.get("bytes") == wanted] if wanted else \
            sorted(points, key=lambda p: p.get("bytes") or 0)[-1:]
        return chosen[0].get("busbw_gbps") if chosen else None
    return None  # time_to_target: computed from steps and step times, not read back


def _configuration(record):
    """A record's configuration as search.json names it: its swept axes, and its part in a
    multi-part experiment."""
    axes = dict(record.get("axes") or {})
    if record.get("part"):
        axes["part"] = record["part"]
    return axes


def disagreement(search, records):
    """Why the trials do not bear out search.json's winner or runner-up ("" when they do)."""
    if search.get("objective") == "time_to_target":
        return ""  # its figures are computed from steps and step times, not read back
    for role in ("winner", "runner_up"):
        axes, figure = search.get(role), search.get(f"{role}_figure")
        if axes is None or not figure or figure.get("problem") or figure.get("reached") is False:
            continue
        measured = [r for r in records if r.get("status") == "ok" and _configuration(r) == axes]
        values = [v for v in (_value_of(r, search) for r in measured) if isinstance(v, (int, float))]
        name = role.replace("_", "-")
        if not values:
            return f"its {name} {axes_text(axes)} has no measured trial in trials.jsonl"
        value = figure.get("value")
        low, high = min(values), max(values)
        if not isinstance(value, (int, float)) or not low - 1e-9 * abs(low) <= value <= high + 1e-9 * abs(high):
            return (f"its {name} {axes_text(axes)} has the figure {value}, but its {len(values)} trial(s) in "
                    f"trials.jsonl measured {low:.6g} to {high:.6g}; search.json was changed after the run")
    return ""


def axes_text(axes):
    if not axes:
        return "(the settings)"
    return " ".join(f"{k}={json.dumps(v) if isinstance(v, (dict, list)) else v}" for k, v in axes.items())


def _formatter(objective):
    return {"samples_per_s": units.samples_per_s, "busbw": units.bandwidth_gbps,
            "auroc": lambda v: f"{v:.3f}", "time_to_target": units.duration_s}.get(objective, units.plain)


def figure_text(figure, objective):
    if not figure:
        return ""
    if figure.get("problem"):
        return f"no figure ({figure['problem']})"
    if figure.get("reached") is False:
        return f"target not reached in {units.duration_s(figure.get('low') or 0)}"
    text = with_interval(figure.get("value"), figure.get("low"), figure.get("high"), _formatter(objective))
    return text + (" to the target" if objective == "time_to_target" else "")


def _cost_text(search):
    grid = search.get("grid") or {}
    text = f"{search.get('trials', 0)} trial(s), {units.duration_s(search.get('seconds_spent') or 0)}"
    if grid.get("seconds_estimated"):
        text += (f" against the grid's {grid.get('trials')} trial(s), about "
                 f"{units.duration_s(grid['seconds_estimated'])} ({units.percent(search['seconds_spent'] / grid['seconds_estimated'])} of it)")
    return text


def answer_lines(search):
    """The Answer's line for a search: None-safe (no search, no line)."""
    if not search:
        return []
    if search.get("problem"):
        return [f"search: not shown, as its record does not hold: {search['problem']}"]
    objective = search.get("objective", "")
    method = str(search.get("method", "")).replace("_", " ")
    head = f"search ({method} by {OBJECTIVE_WORDS.get(objective, objective)})"
    if not search.get("finished", False):
        return [f"{head}: not finished; `harness --resume` continues it ({_cost_text(search)} so far)"]
    if not search.get("winner") and search.get("winner") != {}:
        return [f"{head}: no winner ({search.get('stopped')}); {_cost_text(search)}"]
    text = f"{head}: **{axes_text(search['winner'])}** {figure_text(search.get('winner_figure'), objective)}"
    if search.get("runner_up") is not None:
        unmeasured = (search.get("runner_up_figure") or {}).get("problem")
        relation = ("ahead of the unmeasured" if unmeasured else
                    "clearly ahead of" if search.get("distinguishable") else "within noise of")
        text += (f", {relation} {axes_text(search['runner_up'])} "
                 f"{figure_text(search.get('runner_up_figure'), objective)}")
    return [text + f" ({search.get('stopped')}); {_cost_text(search)}"]


def section(search):
    """## Search: each rung, its configurations best first, kept or dropped and why."""
    if not search or search.get("problem"):
        return ""
    objective = search.get("objective", "")
    resource = search.get("resource", "repetitions")
    lines = ["## Search", "",
             f"Method {search.get('method')}, objective {objective}, eta {search.get('eta')}, budget "
             f"{units.duration_s(search.get('budget_s') or 0)}; a configuration is dropped only when its "
             f"interval lies clearly on the worse side of the best's. {_cost_text(search)}.", ""]
    for rung in search.get("rungs", []):
        title = (f"Bracket {rung['bracket'] + 1}, rung {rung['rung'] + 1}" if search.get("method") == "hyperband"
                 else f"Rung {rung['rung'] + 1}")
        lines += [f"### {title}: {rung.get(resource)} {resource}" + (" (cut short by the budget)" if rung.get("partial") else ""),
                  "", "| configuration | figure | decision |", "|---|---|---|"]
        for entry in rung.get("configurations", []):
            decision = ("kept: " if entry.get("kept") else "dropped: ") + entry.get("reason", "").split(":")[0]
            lines.append(f"| {axes_text(entry.get('axes'))} | {figure_text(entry.get('figure'), objective)} | {decision} |")
        lines.append("")
    return "\n".join(lines)
