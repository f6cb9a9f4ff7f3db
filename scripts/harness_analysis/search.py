"""The search's answer, from search.json: the winner and how it stands against the runner-up,
what the search spent against what the grid would have, and every rung's decisions."""
import json
import os

from . import units
from .record_schema import SEARCH_SCHEMA, as_record, problems
from .results import read_json_file
from .tables import with_interval

OBJECTIVE_WORDS = {"samples_per_s": "samples/s", "busbw": "bus bandwidth", "auroc": "AUROC",
                   "time_to_target": "time to target"}


def read(folder, records=None):
    """search.json's content, or None where the run was no search. A file that is no JSON text
    is damage (ResultsError, naming file:line). JSON that is not the harness's search.json, or
    that the folder's records do not bear out (a winner or runner-up whose figure its trials
    did not measure, fields of the wrong type), comes back as {"problem": ...}: the report
    shows the problem, never the claim."""
    path = os.path.join(folder, "search.json")
    if not os.path.lexists(path):
        return None
    search = read_json_file(path, "the search's record, a JSON object")
    if not isinstance(search, dict):
        return {"problem": f"{path}: not a JSON object; not a search.json the harness wrote"}
    search = as_search(upgraded(search))
    problem = shape_problem(search) or (records is not None and disagreement(search, records))
    return {"problem": f"{path}: {problem}"} if problem else search


def upgraded(search):
    """search.json in the newest layout: files from before search_version are version 1."""
    search.setdefault("search_version", 1)
    return search


def as_search(search):
    """search.json with its declared fields as attributes (record_schema.Record)."""
    return None if search is None else as_record(search, SEARCH_SCHEMA)


def shape_problem(search):
    """The first way the file departs from search.json's schema ("" when it does not)."""
    found = problems(search, SEARCH_SCHEMA)
    return f"{found[0]}; not a search.json the harness wrote" if found else ""


def _value_of(record, search):
    """The objective's figure of one measured record (None: not measured, or no single value)."""
    record = as_record(record)
    if search.objective == "samples_per_s":
        return record.throughput.samples_per_s
    if search.objective == "auroc":
        return record.detection.auroc
    if search.objective == "busbw":
        wanted = search.message_bytes  # unset: the largest size
        chosen = [p for p in record.points if p.bytes == wanted] if wanted else \
            sorted(record.points, key=lambda p: p.bytes or 0)[-1:]
        return chosen[0].busbw_gbps if chosen else None
    return None  # time_to_target: computed from steps and step times, not read back


def _configuration(record):
    """A record's configuration as search.json names it: its swept axes, and its part in a
    multi-part experiment."""
    record = as_record(record)
    axes = dict(record.axes or {})
    if record.part:
        axes["part"] = record.part
    return axes


def disagreement(search, records):
    """Why the trials do not bear out search.json's winner or runner-up ("" when they do)."""
    if search.objective == "time_to_target":
        return ""  # its figures are computed from steps and step times, not read back
    for axes, figure, name in ((search.winner, search.winner_figure, "winner"),
                               (search.runner_up, search.runner_up_figure, "runner-up")):
        if axes is None or not figure or figure.problem or figure.reached is False:
            continue
        measured = [r for r in map(as_record, records) if r.status == "ok" and _configuration(r) == axes]
        values = [v for v in (_value_of(r, search) for r in measured) if isinstance(v, (int, float))]
        if not values:
            return f"its {name} {axes_text(axes)} has no measured trial in trials.jsonl"
        value = figure.value
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
    figure = as_record(figure, SEARCH_SCHEMA["properties"]["winner_figure"])
    if figure.problem:
        return f"no figure ({figure.problem})"
    if figure.reached is False:
        return f"target not reached in {units.duration_s(figure.low or 0)}"
    text = with_interval(figure.value, figure.low, figure.high, _formatter(objective))
    return text + (" to the target" if objective == "time_to_target" else "")


def _cost_text(search):
    grid = search.grid
    text = f"{search.trials or 0} trial(s), {units.duration_s(search.seconds_spent or 0)}"
    if grid.seconds_estimated:
        text += (f" against the grid's {grid.trials} trial(s), about "
                 f"{units.duration_s(grid.seconds_estimated)} ({units.percent(search.seconds_spent / grid.seconds_estimated)} of it)")
    return text


def answer_lines(search):
    """The Answer's line for a search: None-safe (no search, no line)."""
    if not search:
        return []
    if "problem" in search:
        return [f"search: not shown, as its record does not hold: {search['problem']}"]
    search = as_search(search)
    objective = search.objective or ""
    method = str(search.method or "").replace("_", " ")
    head = f"search ({method} by {OBJECTIVE_WORDS.get(objective, objective)})"
    if not search.finished:
        return [f"{head}: not finished; `harness --resume` continues it ({_cost_text(search)} so far)"]
    if search.winner is None:
        return [f"{head}: no winner ({search.stopped}); {_cost_text(search)}"]
    text = f"{head}: **{axes_text(search.winner)}** {figure_text(search.winner_figure, objective)}"
    if search.runner_up is not None:
        relation = ("ahead of the unmeasured" if search.runner_up_figure.problem else
                    "clearly ahead of" if search.distinguishable else "within noise of")
        text += f", {relation} {axes_text(search.runner_up)} {figure_text(search.runner_up_figure, objective)}"
    return [text + f" ({search.stopped}); {_cost_text(search)}"]


def section(search):
    """## Search: each rung, its configurations best first, kept or dropped and why."""
    if not search or "problem" in search:
        return ""
    search = as_search(search)
    objective = search.objective or ""
    resource = search.resource or "repetitions"
    lines = ["## Search", "",
             f"Method {search.method}, objective {objective}, eta {search.eta}, budget "
             f"{units.duration_s(search.budget_s or 0)}; a configuration is dropped only when its "
             f"interval lies clearly on the worse side of the best's. {_cost_text(search)}.", ""]
    for rung in search.rungs:
        title = (f"Bracket {rung.bracket + 1}, rung {rung.rung + 1}" if search.method == "hyperband"
                 else f"Rung {rung.rung + 1}")
        level = rung.repetitions if resource == "repetitions" else rung.epochs
        lines += [f"### {title}: {level} {resource}" + (" (cut short by the budget)" if rung.partial else ""),
                  "", "| configuration | figure | decision |", "|---|---|---|"]
        for entry in rung.configurations:
            decision = ("kept: " if entry.kept else "dropped: ") + (entry.reason or "").split(":")[0]
            lines.append(f"| {axes_text(entry.axes)} | {figure_text(entry.figure, objective)} | {decision} |")
        lines.append("")
    return "\n".join(lines)
