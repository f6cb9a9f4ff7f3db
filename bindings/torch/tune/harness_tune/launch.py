"""How scripts/tune runs a user's job: the launch command as the user gave it (torchrun, or
mpirun with the variables PyTorch reads), its world size, and one run of it with the tune
recorder injected from outside (inject), whose result file it returns; and how
it runs the harness's replay trials (mpirun)."""
import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid

from . import kept_files  # the job's side keeps the user's files, this side restores them

# The folder holding this package, and site/: what the job's Python is given to import it.
TUNE_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.path.join(TUNE_PACKAGE, "site")


class JobError(RuntimeError):
    """The user's job cannot be tuned; the message says why, for the Answer."""


# torchrun's options that take no value: every other option takes the next word (or =value).
TORCHRUN_FLAGS = {"--standalone", "-m", "--module", "--no-python", "--no_python", "--run-path",
                  "--run_path", "--virtual-local-rank", "--virtual_local_rank"}
PYTHON = re.compile(r"(^|/)python[0-9.]*$")


def launcher_options(command):
    """The launcher and its own words, not the script's: the script may take options of the
    same names (train.py --nproc_per_node 4 is the script's, not torchrun's)."""
    for index, word in enumerate(command):
        if word in ("torch.distributed.run", "torchrun") or word.endswith("/torchrun"):
            return "torchrun", torchrun_options(command[index + 1:])
        if re.search(r"(^|/)(mpirun|mpiexec)$", word):
            words = command[index + 1:]
            end = next((i for i, w in enumerate(words) if PYTHON.search(w) or w.endswith(".py")), len(words))
            return "mpirun", words[:end]
    return None, []


def torchrun_options(words):
    """torchrun's options: up to the first word that is neither an option nor an option's value."""
    options, index = [], 0
    while index < len(words) and words[index].startswith("-"):
        word = words[index]
        takes_value = "=" not in word and word not in TORCHRUN_FLAGS
        options += words[index:index + 2] if takes_value else [word]
        index += 2 if takes_value else 1
    return options


def world_size(command):
    """Ranks the command starts: torchrun's --nproc_per_node (times --nnodes), mpirun's -np."""
    launcher, options = launcher_options(command)
    if launcher is None:
        raise JobError("the command starts no distributed job: give the launch command "
                       "(python3 -m torch.distributed.run --nproc_per_node N ..., or mpirun -np N ...)")
    text = " ".join(options)
    patterns = {"torchrun": r"--nproc[_-]per[_-]node[= ](\d+)", "mpirun": r"(?:^|\s)-(?:np|n|c)[= ](\d+)"}
    found = re.search(patterns[launcher], text)
    if not found:
        raise JobError(f"the {launcher} command names no rank count "
                       f"({'--nproc_per_node N' if launcher == 'torchrun' else '-np N'} before the script)")
    nodes = re.search(r"--nnodes[= ](\d+)", text)
    if nodes and int(nodes.group(1)) != 1:
        raise JobError("tuning covers jobs on one host (--nnodes 1)")
    return launcher, int(found.group(1))


def check_world(command):
    launcher, world = world_size(command)
    cores = os.cpu_count() or 1
    if world < 2:
        raise JobError(f"the job runs {world} rank: there is no communication to tune")
    if world > cores:
        raise JobError(f"the job asks for {world} ranks and this machine has {cores} CPUs: its "
                       "ranks would share cores, and timings would measure the scheduler; "
                       f"run it at {cores} ranks or fewer")
    return launcher, world


def last_lines(output, count=15):
    """What a failed job printed that says why: its first traceback's lines when there is one
    (torchrun ends with a summary of its own that names no cause), else its last lines."""
    lines = output.strip().splitlines()
    for index, line in enumerate(lines):
        if "Traceback (most recent call last)" in line or "Error:" in line.split("]:")[-1][:80]:
            return "its error:\n" + "\n".join(lines[index:index + count])
    return "its last lines:\n" + "\n".join(lines[-count:])


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def processes_carrying(marker):
    """The processes whose environment holds `marker`: everything a launch started, in whatever
    session (torchrun starts each rank in a session of its own, so a process group misses them)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as stream:
                if marker in stream.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:  # gone, or not ours to read
            continue
    return found


def stop_everything_of(marker, grace_s=3.0):
    """Ends every process of one launch: SIGTERM, then SIGKILL to what is left after grace_s."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        deadline = time.monotonic() + grace_s
        for pid in processes_carrying(marker):
            try:
                os.kill(pid, sent)
            except ProcessLookupError:
                pass
        while processes_carrying(marker) and time.monotonic() < deadline:
            time.sleep(0.1)


def launch(command, env, timeout):
    """Runs one launch to its end or its timeout; every process it started is gone on return,
    whatever happened (a rank looping before DDP, a launcher that died first). Returns the
    completed process, or None on timeout."""
    token = uuid.uuid4().hex
    marker = f"HARNESS_TUNE_LAUNCH={token}".encode()
    process = subprocess.Popen(command, env=dict(env, HARNESS_TUNE_LAUNCH=token),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    except subprocess.TimeoutExpired:
        stop_everything_of(marker)
        process.communicate()
        return None
    finally:
        stop_everything_of(marker)


def run_job(command, mode, out, python_path, steps, warmup, plan=None, timeout=1800, keep=None):
    """Runs the job once with the recorder; returns the file it wrote (read as JSON). With
    `keep`, the job's processes keep each file before their first write in it (kept_files)."""
    for stale in (out, out + ".error"):
        if os.path.exists(stale):
            os.remove(stale)
    env = dict(os.environ, HARNESS_TUNE_MODE=mode, HARNESS_TUNE_OUT=out,
               HARNESS_TUNE_STEPS=str(steps), HARNESS_TUNE_WARMUP=str(warmup),
               HARNESS_TUNE_COMMAND=json.dumps(command), OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    env.pop("HARNESS_TUNE_PLAN", None)
    if plan:
        env["HARNESS_TUNE_PLAN"] = plan
    env.pop("HARNESS_TUNE_KEEP", None)
    if keep:
        os.makedirs(keep, exist_ok=True)
        env["HARNESS_TUNE_KEEP"] = keep
    # For mpirun launches: where the ranks meet (harness_tune.inject maps OMPI's rank variables).
    env.setdefault("MASTER_ADDR", "127.0.0.1")
    env.setdefault("MASTER_PORT", str(free_port()))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [SITE, TUNE_PACKAGE, python_path, os.environ.get("PYTHONPATH")]))
    try:
        done = launch(command, env, timeout)
    except FileNotFoundError:
        raise JobError(f"{command[0]}: no such program") from None
    if done is None:
        raise JobError(f"the job ran past {timeout:g} s (--job-timeout) without recording {steps} "
                       "steps; every process it started was stopped") from None
    if os.path.exists(out + ".error"):
        raise JobError(open(out + ".error").read().strip())
    if done.returncode != 0:
        raise JobError(f"the job failed (exit {done.returncode}); {last_lines(done.stdout + done.stderr)}")
    if not os.path.exists(out):
        raise JobError("the job ended without stepping a DistributedDataParallel module: tuning "
                       "covers DDP jobs (torch.nn.parallel.DistributedDataParallel)")
    with open(out) as stream:
        return json.load(stream)


def run_harness(harness, world, experiment, results_dir, timeout=1800):
    """An experiment of the harness's (the replay trials) under mpirun, launched as scripts/run
    launches one; returns its records (trials.jsonl). A trial that did not end ok, a launch that
    failed or a part with no record refuses the whole replay: a prediction from part of it
    would compare configurations measured under different conditions."""
    os.makedirs(results_dir, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    command = ["mpirun", "--bind-to", "none", "-np", str(world), harness, experiment,
               "--results-dir", results_dir, "-q"]
    started = time.time()
    try:
        done = launch(command, env, timeout)
    except FileNotFoundError:
        raise JobError("mpirun: no such program (scripts/setup installs Open MPI)") from None
    if done is None:
        raise JobError(f"the replay ran past {timeout:g} s; every process it started was stopped")
    # This launch's results only: a folder may hold an earlier one's.
    found = sorted((path for path in glob.glob(os.path.join(results_dir, "*", "*", "trials.jsonl"))
                    if os.path.getmtime(path) >= started - 1), key=os.path.getmtime)
    records = []
    if found:
        with open(found[-1]) as stream:
            records = [json.loads(line) for line in stream if line.strip()]
    for record in records:
        if record["status"] != "ok":
            raise JobError(f"the replay of {record['settings']['backend']} at bucket_cap_mb "
                           f"{record['settings']['bucket_cap_mb']:g} ended {record['status']}: {record['reason']}")
    if done.returncode != 0:
        raise JobError(f"the replay failed (exit {done.returncode}); {last_lines(done.stdout + done.stderr)}")
    with open(experiment) as stream:
        parts = {part["name"] for part in json.load(stream)["parts"]}
    missing = sorted(parts - {record["part"] for record in records})
    if missing:
        raise JobError(f"the replay ended without a record of {', '.join(missing)} ({results_dir})")
    return records
