"""The whole report on a folder built to known answers (fixture_results.py), against a golden
copy: regenerate it with `UPDATE_GOLDEN=1 /usr/bin/python3 -m pytest test_report.py` after a
deliberate change, and read the diff."""
import json
import os
import re

import matplotlib
import matplotlib.pyplot as plt
import pytest

import fixture_results
from harness_analysis import plots, report
from harness_analysis.results import load

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "report.md")
MACHINE = report.Machine(gamma_s_per_byte=1e-9 / 8, memcpy_gbps=20.0)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    cwd = os.getcwd()
    os.chdir(root)  # the report names the folder as given: keep it the same on every machine
    try:
        fixture_results.write("known_answers")
        os.makedirs("plots")
        lines, written = report.build(load("known_answers"), "plots", MACHINE)
    finally:
        os.chdir(cwd)
    text = (root / "plots" / "report.md").read_text()
    return lines, written, text, json.loads((root / "plots" / "figures.json").read_text())


def test_golden_report(built):
    text = built[2]
    if os.environ.get("UPDATE_GOLDEN"):
        with open(GOLDEN, "w") as f:
            f.write(text)
    with open(GOLDEN) as f:
        assert text == f.read()


def test_the_report_opens_with_the_answer_before_any_picture(built):
    text = built[2]
    assert text.index("## Answer") < text.index("![")
    assert text.index("## Answer") == min(text.index(h) for h in ("## Answer", "## Training", "## Allreduce"))


def test_known_winners(built):
    lines = built[0]
    assert any(line.startswith("allreduce busbw, world 2, 4 B–4 KB: **mpi**") and "every size outside the noise" in line
               for line in lines)
    assert any("16 KB–1 MB: no single winner" in line for line in lines)
    assert any("4 MB–64 MB: **mpi** (ring within noise of it)" in line for line in lines)
    assert any(line.startswith("allreduce, world 4: not ranked") for line in lines)
    assert "autoencoder batch 32, world 2: **mpi** 400k samples/s, ×1.11 over gloo:ring; ring within noise of mpi" in lines


def test_poor_fit_is_not_used_for_advice(built):
    text = built[2]
    gloo_row = next(line for line in text.splitlines() if line.startswith("| gloo:ring @ known_answers"))
    assert "poor fit: not used for advice" in gloo_row
    assert "gloo:ring @ known_answers | autoencoder" not in text  # no prediction from it


def test_statuses_are_explained_where_they_occur(built):
    text = built[2]
    assert "**inconsistent** (2): gloo:ring at world 2 (2)" in text
    assert "**skipped** (1): nccl at world 2 (1)" in text
    assert "(≈ chance: the model did not learn to separate anomalies)" in text


def test_no_scientific_notation_in_tables(built):
    table_lines = [line for line in built[2].splitlines() if line.startswith("|")]
    assert table_lines
    assert not [line for line in table_lines if re.search(r"\d[eE][+-]?\d", line)]


def test_every_text_of_every_figure_lies_inside_its_canvas(built):
    checks = built[3]["canvas"]
    assert {c["image"] for c in checks} >= {"throughput_vs_world_size.png", "busbw_vs_message_size.png"}
    assert all(c["texts_outside"] == [] for c in checks), checks


def test_the_canvas_check_sees_a_clipped_label():
    matplotlib.use("Agg")
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_ylabel("a label far too long for so small a figure to hold", fontsize=14)
    assert plots.texts_outside(fig)
    plt.close(fig)


def test_twelve_rules_scored(built):
    text = built[2]
    method = text[text.index("## Method"):]
    assert all(f"| {n}. " in method for n in range(1, 13))
    assert "20.0 GB/s" in method  # the memcpy bound is shown


def test_an_unwritable_output_folder_is_one_line_and_exit_2(tmp_path, capsys):
    folder = fixture_results.write(str(tmp_path / "run"))
    assert report.main([folder, "--out", "/proc/no/such/place", "--gamma-gbps", "8", "--memcpy-gbps", "20"]) == 2
    assert "cannot write the report there" in capsys.readouterr().err


def test_a_damaged_meta_json_is_one_line_and_exit_2(tmp_path, capsys):
    folder = fixture_results.write(str(tmp_path / "run"))
    (tmp_path / "run" / "meta.json").write_text("{")
    with pytest.raises(SystemExit) as stop:
        report.main([folder])
    assert stop.value.code == 2 and "meta.json:1: not JSON" in capsys.readouterr().err


def test_the_memcpy_bound_comes_from_the_readings_around_the_trials():
    records = [{"kind": "collective", "memcpy": {"bytes": 64 << 20, "before_gbps": b, "after_gbps": a}}
               for b, a in ((10.0, 12.0), (14.0, 9.0))] + [{"kind": "collective"}, {"kind": "train"}]
    median, low, high, count = report.method.recorded_memcpy(records)
    assert (median, low, high, count) == (11.0, 9.0, 14.0, 4)
    assert report.memcpy_of(records) == 11.0
    assert report.method.recorded_memcpy([{"kind": "collective"}]) is None
