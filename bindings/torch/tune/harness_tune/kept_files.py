"""The user's files, as they were before a tuning ran their job.

scripts/tune runs a job many times and stops most runs midway: a job that writes its own log
with mode "w", or a checkpoint, would leave only the last, cut-off run's. So every process of
the job (harness_tune.inject) keeps a file before its first write in the tuning: a copy of a
file that was there, a mark for one that was not. When the tuning ends, however it ends, the
tuner puts each kept file back and moves the files the job made into the results folder:
the tree is as the user left it, and nothing the job wrote is lost.

Layout of the keeping folder (HARNESS_TUNE_KEEP): per file, <key>.claim (the process keeping
it), <key>.copy (its content before the tuning) or <key>.new (it did not exist), and last
<key>.path (its absolute path: the file is kept)."""
import hashlib
import os
import shutil
import time

# Where a job's writes are not the user's files: devices, kernel files, and the tuning's own.
NOT_KEPT = ("/dev/", "/proc/", "/sys/")


def _entry(folder, path):
    return os.path.join(folder, hashlib.sha1(path.encode()).hexdigest()[:20])


def keep_before_write(folder, path, results_folder):
    """Called before `path` is opened for writing in one of the job's processes. One process
    claims the file (O_EXCL) and keeps it; the others wait until it is kept, so that none of
    them writes before the copy is taken."""
    path = os.path.realpath(path)
    if path.startswith(NOT_KEPT) or path.startswith(os.path.realpath(results_folder) + os.sep):
        return
    entry = _entry(folder, path)
    if os.path.exists(entry + ".path"):
        return
    try:
        os.close(os.open(entry + ".claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        _wait_for(entry + ".path")
        return
    if os.path.isfile(path):
        shutil.copy2(path, entry + ".copy.tmp")
        os.replace(entry + ".copy.tmp", entry + ".copy")
    elif not os.path.exists(path):
        open(entry + ".new", "w").close()
    with open(entry + ".path.tmp", "w") as stream:  # last: the file is kept once this exists
        stream.write(path)
    os.replace(entry + ".path.tmp", entry + ".path")


def _wait_for(name, timeout_s=300):
    deadline = time.monotonic() + timeout_s
    while not os.path.exists(name) and time.monotonic() < deadline:
        time.sleep(0.01)


def restore(folder, made_folder=None):
    """Puts every kept file back and moves the files the job made into `made_folder` (with
    none, they stay where the job made them). Returns (restored paths, moved (path, new place)
    pairs)."""
    restored, moved = [], []
    if not os.path.isdir(folder):
        return restored, moved
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".path"):
            continue
        entry = os.path.join(folder, name[:-len(".path")])
        with open(entry + ".path") as stream:
            path = stream.read()
        if os.path.exists(entry + ".copy"):
            shutil.copy2(entry + ".copy", path)
            restored.append(path)
        elif made_folder and os.path.exists(entry + ".new") and os.path.isfile(path):
            target = os.path.join(made_folder, path.lstrip(os.sep))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.move(path, target)
            moved.append((path, target))
    shutil.rmtree(folder, ignore_errors=True)
    return restored, moved
