import json

import pytest

import fixture_results
from harness_analysis import report
from harness_analysis.frames import collective_frame, train_frame
from harness_analysis.record_upgrade import upgraded
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
    with pytest.raises(ResultsError, match="meta.json:1: not JSON"):
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


# --- What a record holds is read, never defaulted ---------------------------------------------

def current(record, **fields):
    """A fixture record in the newest layout, with the whole frame that layout has."""
    return dict(record, record_version=3, seed=1, wall_time_s=1.5,
                measured=record["status"] in ("ok", "inconsistent"), **fields)


def training(**settings):
    record = fixture_results.training_record(0, "mpi", 2, 32, 400e3)
    record["settings"].update(settings)
    return record


@pytest.mark.parametrize("name, words", [("measured", "true or false"), ("point", "a string"),
                                         ("seed", "an integer"), ("wall_time_s", "a number")])
def test_a_current_record_lacking_a_frame_field_is_refused(tmp_path, name, words):
    lacking = current(training())
    del lacking[name]
    path = write_lines(tmp_path / "trials.jsonl", [json.dumps(lacking) + "\n", record("b")])
    with pytest.raises(ResultsError, match=rf"trials\.jsonl:1: {name} is missing, expected {words}"):
        read_trials(path)


def test_an_older_record_gets_the_verdicts_its_layout_lacked(tmp_path):
    older = training()  # no record_version: the first layout, before measured and point
    path = write_lines(tmp_path / "trials.jsonl", [json.dumps(older) + "\n"])
    [read] = read_trials(path)
    assert read.measured is True and read.point == older["point"]


@pytest.mark.parametrize("kind, name", [("train", "lr_rule"), ("train", "batch_size"), ("train", "model"),
                                        ("collective", "dtype"), ("collective", "op")])
def test_a_record_lacking_a_setting_read_is_refused_not_defaulted(tmp_path, kind, name):
    fixture = training() if kind == "train" else fixture_results.collective_record(0, "mpi", 2)
    lacking = current(fixture)
    del lacking["settings"][name]
    path = write_lines(tmp_path / "trials.jsonl", [json.dumps(lacking) + "\n"])
    records = read_trials(path)
    frame = train_frame if kind == "train" else collective_frame
    with pytest.raises(ResultsError, match=rf"trials\.jsonl:1: settings\.{name} is missing"):
        frame(records)


def test_settings_that_joined_later_read_as_what_trials_did_before_them(tmp_path):
    older = training()
    for name in ("overlap", "compression", "strategy", "fusion_bytes"):
        older["settings"].pop(name, None)
    path = write_lines(tmp_path / "trials.jsonl", [json.dumps(older) + "\n"])
    row = train_frame(read_trials(path)).iloc[0]
    assert (row["overlap"], row["compression"], row["strategy"]) == (False, "none", "ddp")
    assert row["fusion_bytes"] is None  # no size: every gradient went in one buffer
    # The harness's upgrade (which the scripts' upgraded() follows step for step) leaves
    # settings alone; filling them is the readers' own step.
    assert "overlap" not in upgraded(training())["settings"]


def test_a_setting_given_is_kept_over_what_trials_did_before_it(tmp_path):
    path = write_lines(tmp_path / "trials.jsonl", [json.dumps(training(overlap=True, strategy="sharded")) + "\n"])
    row = train_frame(read_trials(path)).iloc[0]
    assert (row["overlap"], row["strategy"]) == (True, "sharded")


def test_plot_refuses_a_record_lacking_a_setting(tmp_path, capsys):
    folder = fixture_results.write(str(tmp_path / "run"))
    lines = (tmp_path / "run" / "trials.jsonl").read_text().splitlines()
    number, line = next((n, l) for n, l in enumerate(lines, 1) if json.loads(l)["kind"] == "train")
    lacking = json.loads(line)
    del lacking["settings"]["lr_rule"]
    lines[number - 1] = json.dumps(lacking)
    (tmp_path / "run" / "trials.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit) as stop:
        report.main([folder, "--gamma-gbps", "8", "--memcpy-gbps", "20"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and f"trials.jsonl:{number}: settings.lr_rule is missing" in err, err
