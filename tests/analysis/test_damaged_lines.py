"""The scripts' reader of trials.jsonl takes and refuses the lines of
tests/fixtures/damaged_lines.json exactly as the harness's does (tests/unit/damaged_lines_test.cpp
feeds the same cases to harness/src/record/trials_file.h), so the two cannot drift."""
import json
import os

import pytest

from harness_analysis.results import ResultsError, read_trials

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "damaged_lines.json")
with open(FIXTURE, encoding="utf-8") as f:
    DAMAGED = json.load(f)


def line_of(case, base):
    """The case's line as bytes, built as the fixture's description says."""
    if "line" in case:
        text = case["line"]
    elif "repeat" in case:
        text = "".join(piece * times for piece, times in case["repeat"])
    elif "record" in case:
        text = json.dumps(case["record"])
    else:
        record = dict(base, **case.get("merge", {}))
        for name in case.get("drop", []):
            del record[name]
        text = json.dumps(record)
    data = text.encode()
    if "replace" in case:
        old, new = case["replace"]
        data = data.replace(old.encode(), new.encode() + bytes.fromhex(case.get("replace_hex", "")), 1)
    return bytes.fromhex(case.get("prefix_hex", "")) + data


@pytest.mark.parametrize("case", DAMAGED["cases"], ids=[c["name"] for c in DAMAGED["cases"]])
def test_the_scripts_read_each_line_as_the_harness_does(case, tmp_path):
    base = json.dumps(DAMAGED["base"]).encode()
    path = tmp_path / "trials.jsonl"
    path.write_bytes(b"\n".join([base, line_of(case, DAMAGED["base"]), base]) + b"\n")
    if not case["refused"]:
        assert len(read_trials(str(path))) == 3
        return
    with pytest.raises(ResultsError) as refused:
        read_trials(str(path))
    assert f"{path}:2: {case['refused']}" in str(refused.value)


@pytest.mark.parametrize("ending, cut_off", [
    (b"5\n", False), (b"5", False), (b"[" * 100000 + b"]" * 100000 + b"\n", False),
    (b"[" * 50000, False), (b'{"key": "a", "sta\n', False), (b'{"key": "a", "sta', True)])
def test_only_an_unterminated_start_of_a_record_is_a_cut_off_last_line(ending, cut_off, tmp_path):
    """As the harness's reader (DamagedLines.OnlyAnUnterminatedStartOfARecordIsACutOffLastLine)."""
    path = tmp_path / "trials.jsonl"
    path.write_bytes(json.dumps(DAMAGED["base"]).encode() + b"\n" + ending)
    warnings = []
    if cut_off:
        assert len(read_trials(str(path), warnings)) == 1 and "truncated last line" in warnings[0]
    else:
        with pytest.raises(ResultsError, match="trials.jsonl:2: damaged record"):
            read_trials(str(path), warnings)
