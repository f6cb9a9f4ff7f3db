"""The results folder of one tuning: made by the tuner, or a folder the user named that holds
nothing of theirs that a tuning writes. The tuner writes only there, and only files it lists in
the folder's manifest; a later tuning into the same folder removes the earlier tuning's files
first, so that nothing of it is taken for the new one's."""
import datetime
import os
import shutil

from .launch import JobError, kept_files

MANIFEST = ".harness-tune"
KEPT = "kept"  # the user's files as they were before the job's first write (kept_files)


def _refuse(folder, why):
    raise JobError(f"--results-dir {folder}: {why}")


def _clear_earlier_tuning(folder):
    """Removes what an earlier tuning listed in the manifest (nothing else)."""
    with open(os.path.join(folder, MANIFEST)) as stream:
        names = [line.strip() for line in stream if line.strip()]
    for name in names:
        path = os.path.join(folder, name)
        if name == KEPT:  # an earlier tuning stopped before it put the user's files back
            kept_files.restore(path)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        elif os.path.lexists(path):
            os.remove(path)
    os.remove(os.path.join(folder, MANIFEST))


def _named(folder):
    if os.path.lexists(folder) and not os.path.isdir(folder):
        _refuse(folder, "is a file, not a folder")
    if os.path.isdir(folder):
        if os.path.exists(os.path.join(folder, MANIFEST)):
            _clear_earlier_tuning(folder)
        elif os.listdir(folder):
            _refuse(folder, "holds files that no tuning made; name an empty or new folder "
                            "(a tuning writes job.json, plan.json, answer.md and more there)")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        _refuse(folder, f"cannot be made ({error.strerror})")
    if not os.access(folder, os.W_OK | os.X_OK):
        _refuse(folder, "cannot be written")
    return folder


def _default():
    """results/tune/<time>, a folder of its own even for two tunings started in one second."""
    parent = os.path.join(os.getcwd(), "results", "tune")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as error:
        raise JobError(f"{parent}: cannot be made ({error.strerror}); give --results-dir") from None
    for suffix in [""] + [f"-{n}" for n in range(2, 1000)]:
        folder = os.path.join(parent, stamp + suffix)
        try:
            os.mkdir(folder)
            return folder
        except FileExistsError:
            continue
        except OSError as error:
            raise JobError(f"{folder}: cannot be made ({error.strerror}); give --results-dir") from None
    raise JobError(f"{parent}: no free folder name for {stamp}")


class ResultsFolder:
    """Where a tuning writes: path(name) names a file or folder in it and lists it in the
    manifest before anything is written there."""

    def __init__(self, named):
        self.folder = _named(named) if named else _default()
        self.written = set()
        open(os.path.join(self.folder, MANIFEST), "w").close()

    def path(self, name):
        top = name.split(os.sep)[0]
        if top not in self.written:
            self.written.add(top)
            with open(os.path.join(self.folder, MANIFEST), "a") as stream:
                stream.write(top + "\n")
        return os.path.join(self.folder, name)
