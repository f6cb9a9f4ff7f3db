"""scripts/tune's results folder: never over a file a tuning did not make, a folder of its own
for each tuning, an earlier tuning's files gone before the next one writes."""
import os

import pytest

from harness_tune import folder as tune_folder
from harness_tune.launch import JobError


def test_a_folder_holding_the_users_files_is_refused_and_left_alone(tmp_path):
    (tmp_path / "job.json").write_text("mine")
    with pytest.raises(JobError, match="holds files that no tuning made"):
        tune_folder.ResultsFolder(str(tmp_path))
    assert (tmp_path / "job.json").read_text() == "mine"


def test_a_file_or_an_impossible_folder_is_refused_by_name(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(JobError, match="file: is a file, not a folder"):
        tune_folder.ResultsFolder(str(tmp_path / "file"))
    with pytest.raises(JobError, match="cannot be made"):
        tune_folder.ResultsFolder(str(tmp_path / "file" / "below"))


def test_a_later_tuning_removes_only_what_the_earlier_one_made(tmp_path):
    first = tune_folder.ResultsFolder(str(tmp_path / "r"))
    with open(first.path("answer.md"), "w") as stream:
        stream.write("earlier answer")
    os.makedirs(first.path(os.path.join("replay", "round1")))
    second = tune_folder.ResultsFolder(str(tmp_path / "r"))
    assert sorted(os.listdir(second.folder)) == [tune_folder.MANIFEST]
    with open(second.path("plan.json"), "w") as stream:
        stream.write("{}")
    (tmp_path / "r" / "notes.txt").write_text("the user's")  # added after: not the tuner's
    tune_folder.ResultsFolder(str(tmp_path / "r"))
    assert (tmp_path / "r" / "notes.txt").read_text() == "the user's"
    assert not (tmp_path / "r" / "plan.json").exists()


def test_two_tunings_in_one_second_get_folders_of_their_own(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folders = {tune_folder.ResultsFolder(None).folder for _ in range(3)}
    assert len(folders) == 3
