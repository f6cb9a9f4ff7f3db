"""The one reader of a results folder: trials.jsonl, meta.json, search.json, aggregates.csv and
the timelines' trace files.

JSON is read as the harness's parser (nlohmann::json) reads it: UTF-8 without a byte-order
mark, and no NaN, Infinity or number beyond the double range (the harness writes null for a
figure it does not have). Anything else is refused as ResultsError, naming file:line (the file
alone where no line applies) and what was expected; entry points turn it into one line on
stderr and exit status 2 (exit_on_error).

Records come back in the newest layout (record_upgrade.py), as Record objects whose fields
read as attributes (record_schema.py), each field of its declared type. Their settings hold
every setting the trial ran with: a setting read that a record lacks is refused (Settings),
never read as some default.

A truncated last line of trials.jsonl (the start of a record, no JSON, no newline after it) is
what a run cut off mid-write leaves; it is dropped with a warning, as `harness --resume` drops
it (its trial runs again). Any other line that is not a JSON record, the last one too when a
newline follows it, is damage the harness never writes: it is refused, naming file:line.
Needs only the standard library, so that every tool can read results.
"""
import codecs
import contextlib
import csv
import io
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

from .record_schema import META_SCHEMA, SCHEMA, Record, as_meta, problems
from .record_upgrade import RECORD_VERSION, record_version, upgraded, with_later_settings


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


# --- Files and JSON text -------------------------------------------------------------------

def _line_of_byte(data, offset):
    return data.count(b"\n", 0, offset) + 1


def read_bytes(path, expected):
    """The file's bytes; ResultsError naming the path and `expected` (what it should be)."""
    if os.path.isdir(path):
        raise ResultsError(f"{path}: is a folder, expected {expected}")
    if os.path.exists(path) and not os.path.isfile(path):  # a pipe or a device would block or never end
        raise ResultsError(f"{path}: is no regular file, expected {expected}")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise ResultsError(f"{path}: cannot be read ({error.strerror}), expected {expected}") from error


class JsonProblem(Exception):
    """Why a text is not JSON the harness reads, and the line (of that text) where."""

    def __init__(self, line, what):
        super().__init__(what)
        self.line, self.what = line, what


class _NotANumber(ValueError):
    """A number token the harness's parser refuses."""


def _refuse_constant(token):
    raise _NotANumber(token)


def _finite(token):
    value = float(token)
    if math.isinf(value):
        raise _NotANumber(token)
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite)
# Deeper documents are refused before Python's parser (or any recursive reader after it) runs
# out of stack; the harness's documents are a few levels deep.
MAX_DEPTH = 100
# A JSON string, skipped when looking for a token or a bracket outside strings.
_JSON_STRING = r'"(?:[^"\\]|\\.)*"'


def _line_at(text, offset):
    return text.count("\n", 0, offset) + 1


def _line_of_token(text, token):
    for match in re.finditer(f"{_JSON_STRING}|{re.escape(token)}", text):
        if match.group() == token:
            return _line_at(text, match.start())
    return 1


def _deepest(text):
    """(depth, line where first reached) of the text's nesting, strings skipped."""
    depth = deepest = 0
    line = 1
    for match in re.finditer(f"{_JSON_STRING}|[\\[{{\\]}}]", text):
        if match.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest, line = depth, _line_at(text, match.start())
        elif match.group() in "]}":
            depth -= 1
    return deepest, line


def parse_json(data):
    """data (bytes) as the harness's parser reads JSON text; JsonProblem otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        raise JsonProblem(1, "starts with a UTF-8 byte-order mark, expected JSON text without one "
                             "(the harness writes none)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonProblem(_line_of_byte(data, error.start),
                          f"byte 0x{data[error.start]:02x} is not UTF-8, expected UTF-8 text") from None
    # Brackets are counted first (fast) so that only a text that might be too deep is scanned.
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth, line = _deepest(text)
        if depth > MAX_DEPTH:
            raise JsonProblem(line, f"nested {depth} levels deep, expected at most {MAX_DEPTH} (the "
                                    "harness writes a few levels)")
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise JsonProblem(error.lineno, f"not JSON ({error.msg} at column {error.colno})") from None
    except _NotANumber as error:
        raise JsonProblem(_line_of_token(text, str(error)),
                          f"{error} is no JSON number, expected a finite number or null") from None


def read_json_file(path, expected):
    """A JSON document (meta.json, search.json, a trace), or ResultsError naming path:line."""
    try:
        return parse_json(read_bytes(path, expected))
    except JsonProblem as problem:
        raise ResultsError(f"{path}:{problem.line}: {problem.what}") from None


# --- Trial records -------------------------------------------------------------------------

# The harness's statuses (harness/src/record/trial_status.cpp), in its order.
STATUSES = ("ok", "failed", "skipped", "diverged", "inconsistent", "hung")
# What every record has in any layout: the fields the readers group and label by. A record of
# the newest layout has all of the schema's frame (SCHEMA["required"]).
OLDER_FRAME = ["key", "status", "kind", "world_size", "axes", "settings"]
# Objects whose content is the experiment's, not the record's own figures.
FREE_OBJECTS = ("settings", "axes", "model_files")
_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string",
               "boolean": "true or false", "object": "an object", "array": "an array", "null": "null"}


def expected_words(schema):
    """"an integer", "a string or null", "one of "a", "b"": what a field should hold."""
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    kinds = schema.get("type", [])
    return " or ".join(_TYPE_WORDS[k] for k in (kinds if isinstance(kinds, list) else [kinds])) or "a value"


def _is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_record(line):
    try:
        record = parse_json(line)
    except JsonProblem as problem:
        return None, problem.what
    # The harness's rule (--resume): what identifies a trial is a string key and a string status.
    if not isinstance(record, dict) or not isinstance(record.get("key"), str) \
            or not isinstance(record.get("status"), str):
        return None, "not a trial record (a JSON object with a string \"key\" and \"status\")"
    return record, ""


def _version_problem(version):
    # JSON integers beyond 64 bits are no integers to the harness's parser either.
    if not _is_integer(version) or not 0 <= version < 2 ** 64:
        return (f"record_version is {json.dumps(version)}, expected an integer from 0 to {RECORD_VERSION} "
                "(the record layouts these scripts read)")
    if version > RECORD_VERSION:
        return (f"record_version {version} is newer than these scripts read (up to {RECORD_VERSION}); use "
                "the scripts of the harness that wrote it")
    return ""


def _negative_count(record):
    """An integer below zero outside the free objects, or "": every integer a record holds is a
    count, a size or an index (record_schema.json). Walked without recursion, as the record may
    be as deep as MAX_DEPTH."""
    stack = [("", {k: v for k, v in record.items() if k not in FREE_OBJECTS})]
    while stack:
        at, value = stack.pop()
        for key, member in value.items() if isinstance(value, dict) else enumerate(value):
            if _is_integer(member) and member < 0:
                return f"{at}/{key} is {member}, expected a count (0 or more)"
            if isinstance(member, (dict, list)):
                stack.append((f"{at}/{key}", member))
    return ""


def _frame_problem(record, written_version):
    """What is wrong with an upgraded record, or "": its frame, its fields' types, its status,
    its counts."""
    required = SCHEMA["required"] if written_version == RECORD_VERSION else OLDER_FRAME
    for name in required:
        if name not in record:
            # Frame fields are declared alike for every kind; kind and record_version at the top.
            declared = SCHEMA["properties"].get(name) or SCHEMA["$defs"]["train"]["properties"][name]
            return f"{name} is missing, expected {expected_words(declared)}"
    found = problems(record, complete=False)
    if found:
        return found[0]
    if record["status"] not in STATUSES:
        return f"status is {json.dumps(record['status'])}, expected one of {', '.join(STATUSES)}"
    if record["world_size"] < 1:
        return f"world_size is {record['world_size']}, expected at least 1"
    return _negative_count(record)


def _record(path, number, record):
    """The record of line `number`, checked and in the newest layout; ResultsError otherwise."""
    where = f"{path}:{number}"
    version = record_version(record)
    problem = _version_problem(version)
    if problem:
        raise ResultsError(f"{where}: {problem}")
    record = upgraded(record)
    problem = _frame_problem(record, version)
    if problem:
        raise ResultsError(f"{where}: {problem} (the harness writes no such record, so this file was changed "
                           "by something else)")
    record = with_later_settings(record)
    record["settings"] = Settings(record["settings"], where)
    return Record(record)


def read_trials(path, warnings=None):
    """The records of a trials.jsonl; see the module's description for damaged lines."""
    data = read_bytes(path, "a file of trial records, one JSON object a line")
    # Lines as the harness splits them: at "\n" only.
    lines = [(number, line) for number, line in enumerate(data.split(b"\n"), 1) if line.strip()]
    # A newline after the last line: the harness writes each record with its newline at once.
    terminated = b"\n" in data[len(data.rstrip(b" \t\r\n\v\f")):] or not data.strip()
    records = []
    for position, (number, line) in enumerate(lines):
        record, problem = _parse_record(line)
        last = position == len(lines) - 1
        if record is not None:
            records.append(_record(path, number, record))
        elif last and _is_cut_off_write(line, terminated):
            message = f"{path}:{number}: truncated last line dropped (an interrupted write; --resume runs its trial again)"
            if warnings is not None:
                warnings.append(message)
        else:
            rule = ("a last line is cut off by an interrupted run only when it starts a record and no "
                    "newline follows it" if last else "only the last line may be cut off by an interrupted run")
            raise ResultsError(f"{path}:{number}: damaged record ({problem}); {rule}, so this file was "
                               "changed by something else")
    return records


def _is_cut_off_write(line, terminated):
    """What an interrupted write leaves: the start of a record (it begins with "{" and is no
    JSON) with no newline after it."""
    if terminated or not line.lstrip(b" \t\r\v\f").startswith(b"{"):
        return False
    try:
        parse_json(line)
    except JsonProblem:
        return True
    return False


# The settings the analysis reads, with their types (docs/experiment-reference.md): the record
# schema declares settings only as an object.
_STRING, _NUMBER, _INTEGER = {"type": "string"}, {"type": "number"}, {"type": "integer"}
_OBJECT, _BOOLEAN = {"type": "object"}, {"type": "boolean"}
SETTINGS_READ = {f"settings.{name}": schema for name, schema in {
    "backend": _STRING, "backend_params": _OBJECT,
    # train
    "model": _STRING, "model_params": _OBJECT, "dataset": _OBJECT, "dataset.kind": _STRING,
    "optimizer": _OBJECT, "optimizer.name": _STRING, "optimizer.lr": _NUMBER,
    "lr_rule": _STRING, "lr_warmup_epochs": _NUMBER, "batch_size": _INTEGER, "epochs": _INTEGER,
    "fusion_bytes": {"type": ["integer", "null"]}, "overlap": _BOOLEAN, "compression": _STRING,
    "strategy": _STRING,
    # collective
    "collective": _STRING, "dtype": _STRING, "op": _STRING, "timing": {"type": ["string", "null"]},
}.items()}


class Settings(dict):
    """A record's settings as its file holds them: every setting its trial ran with (settings
    that joined later filled by record_upgrade.with_later_settings). Reading one the record
    lacks, or one of another type than SETTINGS_READ declares, is refused naming the record's
    file:line, rather than read as a default restated here."""

    def __init__(self, values, where, path="settings"):
        super().__init__(values)
        self.where, self.path = where, path

    def __getitem__(self, name):
        path = f"{self.path}.{name}"
        declared = SETTINGS_READ.get(path, {})
        if name not in self:
            raise ResultsError(f"{self.where}: {path} is missing, expected {expected_words(declared)} (a "
                               "record's settings hold every setting its trial ran with)")
        value = super().__getitem__(name)
        if problems(value, declared):
            raise ResultsError(f"{self.where}: {path} is {json.dumps(value)}, expected {expected_words(declared)}")
        if declared and _is_integer(value) and value < 0:  # every integer setting declared is a count or a size
            raise ResultsError(f"{self.where}: {path} is {value}, expected a count (0 or more)")
        return Settings(value, self.where, path) if isinstance(value, dict) else value


# --- meta.json and aggregates.csv ----------------------------------------------------------

def read_meta(folder):
    """meta.json (empty where the folder has none), each field it holds of its declared type."""
    path = os.path.join(folder, "meta.json")
    if not os.path.lexists(path):
        return as_meta({})
    meta = read_json_file(path, "the run's description, a JSON object")
    if not isinstance(meta, dict):
        raise ResultsError(f"{path}:1: {json.dumps(meta)[:40]} is no JSON object, expected the run's "
                           "description (a JSON object)")
    found = problems(meta, META_SCHEMA, complete=False)
    if found:
        raise ResultsError(f"{path}: {found[0]} (meta.json's schema: harness --meta-schema)")
    return as_meta(meta)


# aggregates.csv's columns that hold text; every other cell is a number (or empty).
TEXT_COLUMNS = ("part", "point", "kind", "backend", "algorithm", "axes", "figure", "estimator")
COUNT_COLUMNS = ("world_size", "bytes", "n")


def _cell(name, text):
    """A number cell as a finite float (None when empty), or why it is not one."""
    if name in TEXT_COLUMNS:
        return text, ""
    if text == "":
        return None, ""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or (name in COUNT_COLUMNS and (value < 0 or value != int(value))):
        return None, f"{name} is {text!r}, expected {'a count' if name in COUNT_COLUMNS else 'a finite number'}"
    return value, ""


def _aggregate_row(path, number, header, cells):
    if len(cells) != len(header):
        raise ResultsError(f"{path}:{number}: {len(cells)} cells, expected {len(header)} (the header's columns)")
    row = {}
    for name, text in zip(header, cells):
        row[name], problem = _cell(name, text)
        if problem:
            raise ResultsError(f"{path}:{number}: {problem}")
    return row


def read_aggregates(folder):
    """aggregates.csv's rows as dicts, numbers as floats ([] where the folder has none)."""
    path = os.path.join(folder, "aggregates.csv")
    if not os.path.lexists(path):
        return []
    data = read_bytes(path, "the sweep points' estimates, a CSV file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ResultsError(f"{path}:{_line_of_byte(data, error.start)}: byte 0x{data[error.start]:02x} is not "
                           "UTF-8, expected UTF-8 text") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, [])
        return [_aggregate_row(path, reader.line_num, header, cells) for cells in reader if cells]
    except csv.Error as error:
        raise ResultsError(f"{path}:{reader.line_num}: not CSV ({error})") from None


# --- The folder ----------------------------------------------------------------------------

def load(folder):
    """The folder's results, or ResultsError naming what is wrong with it."""
    path = os.path.join(folder, "trials.jsonl")
    if not os.path.lexists(path):
        raise ResultsError(f"{folder}: no trials.jsonl (expected a results/<name>/<time> folder)")
    warnings = []
    records = read_trials(path, warnings)
    return Results(folder=folder, records=records, meta=read_meta(folder),
                   aggregates=read_aggregates(folder), warnings=warnings)


@contextlib.contextmanager
def exit_on_error(program):
    """For entry points: a ResultsError (a damaged file, a record lacking what is read) ends
    the program with its one line on stderr and exit status 2."""
    try:
        yield
    except ResultsError as error:
        print(f"{program}: {error}", file=sys.stderr)
        sys.exit(2)


def load_or_exit(folder, program):
    """For entry points: the results, with warnings on stderr; exit 2 with the message otherwise."""
    with exit_on_error(program):
        results = load(folder)
    for warning in results.warnings:
        print(f"{program}: warning: {warning}", file=sys.stderr)
    return results
