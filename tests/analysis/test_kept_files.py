"""The user's files across a tuning (harness_tune/kept_files.py): a file the job overwrites is
put back as it was before its first write, a file it makes is moved into the results folder,
and an earlier tuning stopped before it put files back has them put back by the next."""
import os

from harness_tune import folder as tune_folder
from harness_tune import kept_files


def test_the_first_version_is_kept_and_put_back(tmp_path):
    results, keep = tmp_path / "results", tmp_path / "results" / "kept"
    keep.mkdir(parents=True)
    log = tmp_path / "train.log"
    log.write_text("the user's")
    for run in range(3):  # three runs of the job, each writing anew
        kept_files.keep_before_write(str(keep), str(log), str(results))
        log.write_text(f"run {run}")
    made = tmp_path / "checkpoints" / "model.pt"
    made.parent.mkdir()
    kept_files.keep_before_write(str(keep), str(made), str(results))
    made.write_text("weights")
    kept_files.keep_before_write(str(keep), str(results / "run.json"), str(results))
    restored, moved = kept_files.restore(str(keep), str(results / "job_files"))
    assert log.read_text() == "the user's" and restored == [str(log)]
    assert not made.exists() and moved == [(str(made), str(results / "job_files") + str(made))]
    assert (results / "job_files").joinpath(str(made).lstrip("/")).read_text() == "weights"
    assert not keep.exists()


def test_a_later_tuning_puts_back_what_a_stopped_one_kept(tmp_path):
    first = tune_folder.ResultsFolder(str(tmp_path / "r"))
    os.makedirs(first.path(tune_folder.KEPT))
    log = tmp_path / "train.log"
    log.write_text("the user's")
    kept_files.keep_before_write(first.path(tune_folder.KEPT), str(log), first.folder)
    log.write_text("cut off")
    tune_folder.ResultsFolder(str(tmp_path / "r"))  # the stopped tuning never restored
    assert log.read_text() == "the user's"
