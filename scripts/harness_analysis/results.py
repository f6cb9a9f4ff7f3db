"""The one reader of a results folder: trials.jsonl, meta.json and aggregates.csv.

Records come back in the newest layout (record_upgrade.py), as Record objects whose fields
read as attributes (record_schema.py).

A truncated last line of trials.jsonl is what a run cut off mid-write leaves; it is dropped
with a warning, as `harness --resume` drops it (its trial runs again). Any other line that is
not a JSON record is damage the harness never writes: it is refused, naming file:line.
Needs only the standard library, so that every tool can read results.
"""
import csv
import json
import os
import sys
from dataclasses import dataclass, field

from .record_schema import Record, as_meta
from .record_upgrade import RECORD_VERSION, record_version, upgraded


class ResultsError(Exception):
    """A results folder that cannot be read as one; the message names the file (and line)."""


@dataclass
class Results:
    folder: str
    records: list
    meta: dict = field(default_factory=dict)
    aggregates: list = field(default_factory=list)  # rows of aggregates.csv, as dicts
    warnings: list = field(default_factory=list)

    @property
    def name(self):
        experiment = as_meta(self.meta).experiment or {}
        return experiment.get("name") or os.path.basename(os.path.dirname(self.folder.rstrip("/")))



def _parse_record(text):
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        return None, str(error)
    # The harness's rule (--resume): what identifies a trial is a string key and a string status.
    if not isinstance(record, dict) or not isinstance(record.get("key"), str) \
            or not isinstance(record.get("status"), str):
        return None, "not a trial record (a JSON object with a string \"key\" and \"status\")"
    return record, ""


# What every record carries, whatever its kind or status (docs/results-reference.md, "every"):
# the fields the readers group and label by.
FRAME = {"kind": str, "world_size": int, "axes": dict, "settings": dict}


def _frame_problem(record):
    for name, kind in FRAME.items():
        value = record.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return (f"{name} is missing" if name not in record else f"{name} is {json.dumps(value)}") + \
                f", expected {'an integer' if kind is int else 'a string' if kind is str else 'an object'}"
    if record["world_size"] < 1:
        return f"world_size is {record['world_size']}, expected at least 1"
    return ""


def read_trials(path, warnings=None):
    """The records of a trials.jsonl; see the module's description for damaged lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [(number, line.strip()) for number, line in enumerate(f, 1) if line.strip()]
    records = []
    for position, (number, line) in enumerate(lines):
        record, problem = _parse_record(line)
        if record is not None:
            version = record_version(record)
            # JSON integers beyond 64 bits are no integers to the harness's parser either.
            if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2 ** 64:
                raise ResultsError(f"{path}:{number}: record_version is {json.dumps(version)}, "
                                   f"expected an integer from 0 to {RECORD_VERSION} (the record "
                                   "layouts these scripts read)")
            if version > RECORD_VERSION:
                raise ResultsError(f"{path}:{number}: record_version {version} is newer than these "
                                   f"scripts read (up to {RECORD_VERSION}); use the scripts of the "
                                   "harness that wrote it")
            problem = _frame_problem(record)
            if problem:
                raise ResultsError(f"{path}:{number}: {problem} (every trial record has it; a record "
                                   "the harness writes always does, so this file was changed by something else)")
            records.append(Record(upgraded(record)))
        elif position == len(lines) - 1:
            message = f"{path}:{number}: truncated last line dropped (an interrupted write; --resume runs its trial again)"
            if warnings is not None:
                warnings.append(message)
        else:
            raise ResultsError(f"{path}:{number}: damaged record ({problem}); only the last line may be cut "
                               "off by an interrupted run, so this file was changed by something else")
    return records


def read_meta(folder):
    path = os.path.join(folder, "meta.json")
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path}: not JSON ({error})") from error
    if not isinstance(meta, dict):
        raise ResultsError(f"{path}: expected a JSON object")
    return as_meta(meta)


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return text


def read_aggregates(folder):
    path = os.path.join(folder, "aggregates.csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{key: _number(value) if key not in ("part", "point", "kind", "backend", "algorithm", "axes",
                                                    "figure", "estimator") else value
                 for key, value in row.items()} for row in csv.DictReader(f)]


def load(folder):
    """The folder's results, or ResultsError naming what is wrong with it."""
    path = os.path.join(folder, "trials.jsonl")
    if not os.path.isfile(path):
        raise ResultsError(f"{folder}: no trials.jsonl (expected a results/<name>/<time> folder)")
    warnings = []
    records = read_trials(path, warnings)
    return Results(folder=folder, records=records, meta=read_meta(folder),
                   aggregates=read_aggregates(folder), warnings=warnings)


def load_or_exit(folder, program):
    """For entry points: the results, with warnings on stderr; exit 2 with the message otherwise."""
    try:
        results = load(folder)
    except (ResultsError, OSError) as error:
        print(f"{program}: {error}", file=sys.stderr)
        sys.exit(2)
    for warning in results.warnings:
        print(f"{program}: warning: {warning}", file=sys.stderr)
    return results
