"""scripts/plot on a results folder damaged one way at a time (built from fixture_results.py):
every damage ends in one line on stderr naming file:line (the file alone where no line
applies) and what was expected, with exit status 2, never a traceback.

The damage a run's folder may meet runs scripts/plot itself, as a user does; the rest runs its
entry point in this process (report.main, the same code after the interpreter starts)."""
import csv
import json
import os
import subprocess

import pytest

import fixture_results
from harness_analysis import report

PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "plot")
GIVEN = ["--gamma-gbps", "8", "--memcpy-gbps", "20"]  # nothing measured on this host


def assert_refused(folder, expected):
    """scripts/plot FOLDER: exit status 2 and one line holding `expected`, no traceback."""
    done = subprocess.run([PLOT, folder] + GIVEN, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert expected in done.stderr, done.stderr


def assert_refused_in_process(folder, expected, capsys):
    with pytest.raises(SystemExit) as stop:
        report.main([folder] + GIVEN)
    err = capsys.readouterr().err
    assert stop.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and expected in err, err


@pytest.fixture
def folder(tmp_path):
    return fixture_results.write(str(tmp_path / "run"))


def path(folder, name):
    return os.path.join(folder, name)


def write(file, data):
    with open(file, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def read(file):
    with open(file, "rb") as f:
        return f.read()


def replace_line(folder, number, text):
    """trials.jsonl with line `number` (1-based) replaced by `text` (bytes or str)."""
    lines = read(path(folder, "trials.jsonl")).split(b"\n")
    lines[number - 1] = text if isinstance(text, bytes) else text.encode()
    write(path(folder, "trials.jsonl"), b"\n".join(lines))


def edit_record(folder, number, change):
    """trials.jsonl with the record of line `number` replaced by change(record): JSON text."""
    record = json.loads(read(path(folder, "trials.jsonl")).split(b"\n")[number - 1])
    replace_line(folder, number, change(record))


def training_line(folder):
    """The line number of the first training record."""
    lines = read(path(folder, "trials.jsonl")).decode().splitlines()
    return next(n for n, line in enumerate(lines, 1) if json.loads(line)["kind"] == "train")


def with_busbw(source):
    """A change writing a collective record whose first busbw is `source`, as JSON text."""
    def change(record):
        record["points"][0]["busbw_gbps"] = "BUSBW"
        return json.dumps(record).replace('"BUSBW"', source)
    return change


# --- trials.jsonl, by scripts/plot ------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("5", "trials.jsonl:2: damaged record (not a trial record"),
    ("[]", "trials.jsonl:2: damaged record (not a trial record"),
    ("[" * 100000, "trials.jsonl:2: damaged record (nested 100000 levels deep, expected at most 100"),
    ("[" * 100000 + "]" * 100000, "trials.jsonl:2: damaged record (nested 100000 levels deep"),
], ids=["scalar", "empty array", "deep unclosed", "deep closed"])
def test_a_line_that_is_no_record_is_refused(folder, line, expected):
    replace_line(folder, 2, line)
    assert_refused(folder, expected)


def test_bytes_that_are_not_utf8_are_refused(folder):
    edit_record(folder, 3, lambda r: json.dumps(dict(r, reason="REASON")).encode().replace(b"REASON", b"\xff\xfe"))
    assert_refused(folder, "trials.jsonl:3: damaged record (byte 0xff is not UTF-8, expected UTF-8 text)")


def test_a_byte_order_mark_is_refused(folder):
    write(path(folder, "trials.jsonl"), b"\xef\xbb\xbf" + read(path(folder, "trials.jsonl")))
    assert_refused(folder, "trials.jsonl:1: damaged record (starts with a UTF-8 byte-order mark")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_numbers_the_harness_refuses_are_refused(folder, literal):
    # Python's json takes these; nlohmann::json, the harness's parser, does not.
    edit_record(folder, 2, with_busbw(literal))
    assert_refused(folder, f"trials.jsonl:2: damaged record ({literal} is no JSON number, expected a finite "
                           "number or null)")


@pytest.mark.parametrize("change, expected", [
    (lambda r: dict(r, world_size="2"), 'trials.jsonl:2: /world_size: "2" is not of type integer'),
    (lambda r: dict(r, world_size=0), "trials.jsonl:2: world_size is 0, expected at least 1"),
    (lambda r: dict(r, world_size=-2), "trials.jsonl:2: world_size is -2, expected at least 1"),
    (lambda r: dict(r, status="exploded"),
     'trials.jsonl:2: status is "exploded", expected one of ok, failed, skipped, diverged, inconsistent, hung'),
    (lambda r: dict(r, points=[dict(r["points"][0], bytes=-4)]),
     "trials.jsonl:2: /points/0/bytes is -4, expected a count (0 or more)"),
], ids=["world_size a string", "world_size 0", "world_size negative", "unknown status", "negative bytes"])
def test_a_collective_record_of_the_wrong_shape_is_refused(folder, change, expected):
    edit_record(folder, 2, lambda r: json.dumps(change(r)))
    assert_refused(folder, expected)


@pytest.mark.parametrize("change, expected", [
    (lambda r: dict(r, throughput=dict(r["throughput"], samples_per_s="400000")),
     '/throughput/samples_per_s: "400000" is not of type number'),
    (lambda r: dict(r, throughput=dict(r["throughput"], samples_per_s_ci95=["1", "2"])),
     '/throughput/samples_per_s_ci95/0: "1" is not of type number'),
], ids=["samples_per_s", "its interval"])
def test_throughput_as_strings_is_refused(folder, change, expected):
    number = training_line(folder)
    edit_record(folder, number, lambda r: json.dumps(change(r)))
    assert_refused(folder, f"trials.jsonl:{number}: {expected}")


def test_a_trials_file_that_is_a_folder_is_refused(folder):
    os.remove(path(folder, "trials.jsonl"))
    os.mkdir(path(folder, "trials.jsonl"))
    assert_refused(folder, "trials.jsonl: is a folder, expected a file of trial records")


def test_a_meta_json_that_is_a_folder_is_refused(folder):
    os.remove(path(folder, "meta.json"))
    os.mkdir(path(folder, "meta.json"))
    assert_refused(folder, "meta.json: is a folder, expected the run's description, a JSON object")


# --- more of trials.jsonl, in process ---------------------------------------------------------------

@pytest.mark.parametrize("change, expected", [
    (with_busbw("1e400"), "trials.jsonl:2: damaged record (1e400 is no JSON number"),
    (lambda r: json.dumps(dict(r, repetition=-1)), "trials.jsonl:2: /repetition is -1, expected a count"),
    (lambda r: json.dumps(dict(r, kind="benchmark")),
     'trials.jsonl:2: /kind: "benchmark", expected one of ["train","collective","replay"]'),
    (lambda r: json.dumps(dict(r, points=[dict(r["points"][0], busbw_gbps="3.5")])),
     'trials.jsonl:2: /points/0/busbw_gbps: "3.5" is not of type number'),
], ids=["overflow", "negative repetition", "unknown kind", "busbw a string"])
def test_more_collective_records_of_the_wrong_shape_are_refused(folder, change, expected, capsys):
    edit_record(folder, 2, change)
    assert_refused_in_process(folder, expected, capsys)


@pytest.mark.parametrize("settings, expected", [
    ({"batch_size": "32"}, 'settings.batch_size is "32", expected an integer'),
    ({"epochs": -2}, "settings.epochs is -2, expected a count (0 or more)"),
    ({"overlap": "yes"}, 'settings.overlap is "yes", expected true or false'),
], ids=["batch_size a string", "negative epochs", "overlap a string"])
def test_settings_of_the_wrong_type_are_refused(folder, settings, expected, capsys):
    number = training_line(folder)
    edit_record(folder, number, lambda r: json.dumps(dict(r, settings=dict(r["settings"], **settings))))
    assert_refused_in_process(folder, f"trials.jsonl:{number}: {expected}", capsys)


# --- meta.json, search.json, aggregates.csv, traces, in process ---------------------------------

def line_of(text, part):
    return text[:text.index(part)].count(b"\n") + 1


@pytest.mark.parametrize("damage, expected", [
    (lambda text: b"\xef\xbb\xbf" + text, lambda text: "meta.json:1: starts with a UTF-8 byte-order mark"),
    (lambda text: text.replace(b'"node-a"', b'"node-\xff"', 1),
     lambda text: f"meta.json:{line_of(text, b'node-a')}: byte 0xff is not UTF-8"),
    (lambda text: text.replace(b'"count": 2', b'"count": NaN'),
     lambda text: f"meta.json:{line_of(text, b'count')}: NaN is no JSON number"),
    (lambda text: text.replace(b'"count": 2', b'"count": "2"'),
     lambda text: 'meta.json: /cpu/count: "2" is not of type integer'),
    (lambda text: b"[" * 100000, lambda text: "meta.json:1: nested 100000 levels deep"),
    (lambda text: b"[1, 2]", lambda text: "meta.json:1: [1, 2] is no JSON object, expected the run's description"),
], ids=["byte-order mark", "not UTF-8", "NaN", "count a string", "deep", "an array"])
def test_a_damaged_meta_json_is_refused(folder, damage, expected, capsys):
    text = read(path(folder, "meta.json"))
    write(path(folder, "meta.json"), damage(text))
    assert_refused_in_process(folder, expected(text), capsys)


@pytest.mark.parametrize("text, expected", [
    ('{"method": "hyperband",\n "eta": Infinity}', "search.json:2: Infinity is no JSON number"),
    ('{"method": "hyperband",\n "eta": 3', "search.json:2: not JSON"),
], ids=["Infinity", "cut off"])
def test_a_damaged_search_json_is_refused(folder, text, expected, capsys):
    write(path(folder, "search.json"), text)
    assert_refused_in_process(folder, expected, capsys)


def damage_aggregates(folder, column, value, extra=()):
    """aggregates.csv with its second row's `column` set to `value` and `extra` cells added."""
    with open(path(folder, "aggregates.csv"), newline="") as f:
        rows = list(csv.reader(f))
    rows[2][rows[0].index(column)] = value
    rows[2] += list(extra)
    with open(path(folder, "aggregates.csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)


@pytest.mark.parametrize("column, value, extra, expected", [
    ("estimate", "NaN", (), "aggregates.csv:3: estimate is 'NaN', expected a finite number"),
    ("estimate_low", "inf", (), "aggregates.csv:3: estimate_low is 'inf', expected a finite number"),
    ("n", "three", (), "aggregates.csv:3: n is 'three', expected a count"),
    ("bytes", "-4", (), "aggregates.csv:3: bytes is '-4', expected a count"),
    ("n", "3", ("extra",), "aggregates.csv:3: 21 cells, expected 20"),
], ids=["NaN", "inf", "n a word", "negative bytes", "a cell too many"])
def test_a_damaged_aggregates_csv_is_refused(folder, column, value, extra, expected, capsys):
    damage_aggregates(folder, column, value, extra)
    assert_refused_in_process(folder, expected, capsys)


def test_an_aggregates_csv_that_is_not_utf8_is_refused(folder, capsys):
    text = read(path(folder, "aggregates.csv"))
    write(path(folder, "aggregates.csv"), text.replace(b"allreduce", b"allr\xe9duce", 1))
    assert_refused_in_process(folder, "aggregates.csv:2: byte 0xe9 is not UTF-8", capsys)


def test_a_trace_without_steps_is_refused(folder, capsys):
    number = training_line(folder)
    edit_record(folder, number, lambda r: json.dumps(dict(r, trace_file="traces/t/trace.json")))
    os.makedirs(path(folder, os.path.join("traces", "t")))
    event = {"ph": "X", "name": "forward", "ts": 0, "dur": 5, "pid": 0, "tid": 0, "args": {}}
    write(path(folder, os.path.join("traces", "t", "trace.json")), json.dumps({"traceEvents": [event]}))
    assert_refused_in_process(folder, 'trace.json: event 0 (X): /args: "step" is missing', capsys)


def test_the_undamaged_folder_plots(folder, capsys):
    # What the tests above change is all that makes their folders fail.
    assert report.main([folder, "--out", path(folder, "plots")] + GIVEN) == 0
