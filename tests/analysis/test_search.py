import json

import pytest

from harness_analysis import search, search_quality
from harness_analysis.results import ResultsError


def summary(**overrides):
    s = {"search_version": 1, "method": "successive_halving", "objective": "samples_per_s",
         "resource": "repetitions", "eta": 3, "budget_s": 600, "noise_floor": 0.03, "estimator": "median",
         "configurations": 4, "finished": True, "stopped": "the winner is distinguishable from the runner-up",
         "winner": {"batch_size": 256, "backend": "mpi"}, "winner_point": "a",
         "winner_figure": {"value": 5e5, "low": 4.9e5, "high": 5.1e5, "values": 9},
         "runner_up": {"batch_size": 256, "backend": "ring"},
         "runner_up_figure": {"value": 4e5, "low": 3.9e5, "high": 4.1e5, "values": 9},
         "distinguishable": True, "trials": 20, "seconds_spent": 30.0,
         "grid": {"trials": 90, "seconds_estimated": 120.0},
         "rungs": [{"bracket": 0, "rung": 0, "repetitions": 1, "partial": False, "kept": 2,
                    "distinguishable": False, "configurations": [
             {"point": "a", "axes": {"batch_size": 256, "backend": "mpi"}, "kept": True, "reason": "the best: x",
              "figure": {"value": 5e5, "low": 4.85e5, "high": 5.15e5, "values": 1}},
             {"point": "b", "axes": {"batch_size": 256, "backend": "ring"}, "kept": True,
              "reason": "within noise of the best: y", "figure": {"value": 4.9e5, "low": 4.75e5, "high": 5.05e5, "values": 1}},
             {"point": "c", "axes": {"batch_size": 16, "backend": "mpi"}, "kept": False,
              "reason": "clearly worse than the best: z", "figure": {"value": 4.8e5, "low": 4.66e5, "high": 4.84e5, "values": 1}},
             {"point": "d", "axes": {"batch_size": 16, "backend": "ring"}, "kept": False,
              "reason": "clearly worse than the best: w", "figure": {"value": 1e5, "low": 0.97e5, "high": 1.03e5, "values": 1}}]}]}
    s.update(overrides)
    return s


def test_the_answer_names_the_winner_its_standing_and_the_cost_against_the_grid():
    [line] = search.answer_lines(summary())
    assert line.startswith("search (successive halving by samples/s): **batch_size=256 backend=mpi** 500k")
    assert "clearly ahead of batch_size=256 backend=ring" in line
    assert "20 trial(s)" in line and "the grid's 90 trial(s)" in line and "25.0% of it" in line


def test_within_noise_and_unfinished_searches_say_so():
    [line] = search.answer_lines(summary(distinguishable=False,
                                         stopped="the last rung: the winner is within noise of the runner-up"))
    assert "within noise of batch_size=256 backend=ring" in line
    [line] = search.answer_lines(summary(finished=False))
    assert "not finished" in line and "--resume" in line
    assert search.answer_lines(None) == []


def test_a_configuration_that_never_reached_the_target_reads_so():
    text = search.figure_text({"value": None, "low": 2.5, "high": None, "reached": False}, "time_to_target")
    assert text.startswith("target not reached in 2.5")


def test_the_section_tables_every_rung_with_its_decisions():
    text = search.section(summary())
    assert "### Rung 1: 1 repetitions" in text
    assert "| batch_size=16 backend=ring | 100k [97.0k, 103k] samples/s | dropped: clearly worse than the best |" in text


def test_read_finds_no_search_in_a_folder_without_search_json(tmp_path):
    assert search.read(str(tmp_path)) is None
    (tmp_path / "search.json").write_text(json.dumps(summary()))
    assert search.read(str(tmp_path))["winner"]["backend"] == "mpi"


def test_a_search_json_that_is_no_json_is_refused_with_file_and_line(tmp_path):
    # The harness writes search.json whole (atomically): text that is no JSON is damage.
    (tmp_path / "search.json").write_text('{"method": "successive_halving",\n not json')
    with pytest.raises(ResultsError, match=r"search\.json:2: not JSON"):
        search.read(str(tmp_path))


def test_quality_counts_the_grids_best_within_noise_and_within_five_percent_as_right():
    right, best = search_quality.truth_of(summary())
    assert best["point"] == "a"
    assert right == {"a": "the grid's best", "b": "within noise of the grid's best",
                     "c": "within 5% of the grid's best"}  # d is 80% slower: wrong


def test_quality_for_a_time_is_lower_is_better():
    s = summary(objective="time_to_target")
    s["rungs"][0]["configurations"] = [
        {"point": "a", "axes": {}, "kept": True, "figure": {"value": 1.0}},
        {"point": "b", "axes": {}, "kept": False, "figure": {"value": 1.04}},
        {"point": "c", "axes": {}, "kept": False, "figure": {"value": 1.2}}]
    right, _ = search_quality.truth_of(s)
    assert set(right) == {"a", "b"}


def test_wilson_interval_brackets_the_proportion():
    low, high = search_quality.wilson(9, 10)
    assert low < 0.9 < high and 0.5 < low and high <= 1.0


def test_a_busbw_winner_is_checked_at_the_size_the_search_measured():
    record = {"kind": "collective", "status": "ok", "axes": {"backend": "mpi"},
              "points": [{"bytes": 1024, "busbw_gbps": 2.0}, {"bytes": 65536, "busbw_gbps": 9.0}]}
    figure = {"value": 2.0, "low": 1.9, "high": 2.1, "values": 1}
    at_1k = summary(objective="busbw", message_bytes=1024, winner={"backend": "mpi"}, winner_figure=figure,
                    runner_up=None, runner_up_figure=None)
    assert search.disagreement(search.as_search(at_1k), [record]) == ""
    largest = dict(at_1k)
    del largest["message_bytes"]
    assert "has the figure 2.0" in search.disagreement(search.as_search(largest), [record])
