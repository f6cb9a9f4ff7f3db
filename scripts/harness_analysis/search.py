"""The search's answer, from search.json: the winner and how it stands against the runner-up,
what the search spent against what the grid would have, and every rung's decisions."""
import json
import os

from . import units
from .tables import with_interval

OBJECTIVE_WORDS = {"samples_per_s": "samples/s", "busbw": "bus bandwidth", "auroc": "AUROC",
                   "time_to_target": "time to target"}


def read(folder):
    """search.json's content, or None where the run was no search (or the file is unreadable)."""
    path = os.path.join(folder, "search.json")
    try:
        with open(path) as f:
            search = json.load(f)
    except (OSError, ValueError):
        return None
    return search if isinstance(search, dict) else None


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
    objective = search.get("objective", "")
    method = str(search.get("method", "")).replace("_", " ")
    head = f"search ({method} by {OBJECTIVE_WORDS.get(objective, objective)})"
    if not search.get("finished", False):
        return [f"{head}: not finished; `harness --resume` continues it ({_cost_text(search)} so far)"]
    if not search.get("winner") and search.get("winner") != {}:
        return [f"{head}: no winner ({search.get('stopped')}); {_cost_text(search)}"]
    text = f"{head}: **{axes_text(search['winner'])}** {figure_text(search.get('winner_figure'), objective)}"
    if search.get("runner_up") is not None:
        relation = "clearly ahead of" if search.get("distinguishable") else "within noise of"
        text += (f", {relation} {axes_text(search['runner_up'])} "
                 f"{figure_text(search.get('runner_up_figure'), objective)}")
    return [text + f" ({search.get('stopped')}); {_cost_text(search)}"]


def section(search):
    """## Search: each rung, its configurations best first, kept or dropped and why."""
    if not search:
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
