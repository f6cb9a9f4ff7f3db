import json

import pytest

from harness_analysis.results import ResultsError, load, read_trials


def write_lines(path, lines):
    path.write_text("".join(lines))
    return path


def record(key):
    return json.dumps(frame(key)) + "\n"


def frame(key, **fields):
    """The fields every record has, and `fields`."""
    return dict({"key": key, "status": "ok", "kind": "collective", "world_size": 2, "axes": {},
                 "settings": {}}, **fields)


def test_reads_every_record(tmp_path):
    path = write_lines(tmp_path / "trials.jsonl", [record("a"), "\n", record("b")])
    assert [r["key"] for r in read_trials(path)] == ["a", "b"]


def test_truncated_last_line_is_dropped_with_a_warning(tmp_path):
    path = write_lines(tmp_path / "trials.jsonl", [record("a"), '{"key": "b", "sta'])
    warnings = []
    assert [r["key"] for r in read_trials(path, warnings)] == ["a"]
    assert len(warnings) == 1 and "trials.jsonl:2" in warnings[0] and "truncated" in warnings[0]


def test_damaged_middle_line_is_refused_with_file_and_line(tmp_path):
    path = write_lines(tmp_path / "trials.jsonl", [record("a"), "{not json\n", record("c")])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:2: damaged record"):
        read_trials(path)


def test_a_json_line_that_is_no_record_is_damage_too(tmp_path):
    path = write_lines(tmp_path / "trials.jsonl", ["[1, 2]\n", record("b")])
    with pytest.raises(ResultsError, match=r":1: damaged record \(not a trial record"):
        read_trials(path)


def test_every_record_version_up_to_this_one_is_read(tmp_path):
    lines = [json.dumps(frame("v1", schema_version=1)) + "\n",
             json.dumps(frame("v2", record_version=2)) + "\n"]
    path = write_lines(tmp_path / "trials.jsonl", lines)
    assert [r["key"] for r in read_trials(path)] == ["v1", "v2"]


def test_a_newer_record_version_is_refused_with_file_and_line(tmp_path):
    newer = json.dumps(frame("b", record_version=4)) + "\n"
    path = write_lines(tmp_path / "trials.jsonl", [record("a"), newer])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:2: record_version 4 is newer than these "
                                           r"scripts read \(up to 3\)"):
        read_trials(path)


def test_a_record_version_that_is_no_integer_is_refused(tmp_path):
    odd = json.dumps(frame("b", record_version="2")) + "\n"
    path = write_lines(tmp_path / "trials.jsonl", [odd, record("c")])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:1: record_version is \"2\", expected an integer from 0 to 3"):
        read_trials(path)


def test_folder_without_trials_names_the_folder(tmp_path):
    with pytest.raises(ResultsError, match="no trials.jsonl"):
        load(str(tmp_path))


def test_damaged_meta_is_named(tmp_path):
    write_lines(tmp_path / "trials.jsonl", [record("a")])
    (tmp_path / "meta.json").write_text("{")
    with pytest.raises(ResultsError, match="meta.json: not JSON"):
        load(str(tmp_path))


def test_aggregates_numbers_are_numbers(tmp_path):
    write_lines(tmp_path / "trials.jsonl", [record("a")])
    (tmp_path / "aggregates.csv").write_text("point,figure,bytes,n,estimate\np,busbw_gbps,4096,3,1.5\n")
    row = load(str(tmp_path)).aggregates[0]
    assert row["point"] == "p" and row["bytes"] == 4096 and row["estimate"] == 1.5


def test_a_negative_record_version_is_refused_like_the_harness_does(tmp_path):
    odd = json.dumps(frame("b", record_version=-1)) + "\n"
    path = write_lines(tmp_path / "trials.jsonl", [odd, record("c")])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:1: record_version is -1, expected an "
                                           r"integer from 0 to 3"):
        read_trials(path)


def test_a_record_without_a_frame_field_is_refused_with_file_and_line(tmp_path):
    lacking = frame("b")
    del lacking["world_size"]
    path = write_lines(tmp_path / "trials.jsonl", [record("a"), json.dumps(lacking) + "\n", record("c")])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:2: world_size is missing, expected an integer"):
        read_trials(path)
