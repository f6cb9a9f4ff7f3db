"""How scripts/tune runs a user's job: the launch command as the user gave it (torchrun, or
mpirun with the variables PyTorch reads), its world size, and one run of it with the tune
recorder injected from outside (harness_tune/inject.py), whose result file it returns; and how
it runs the harness's replay trials (mpirun)."""
import glob
import json
import os
import re
import socket
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TUNE_PACKAGE = os.path.join(REPO, "bindings", "torch", "tune")
SITE = os.path.join(TUNE_PACKAGE, "site")


class JobError(RuntimeError):
    """The user's job cannot be tuned; the message says why, for the Answer."""


def world_size(command):
    """Ranks the command starts: torchrun's --nproc_per_node (times --nnodes), mpirun's -np."""
    text = " ".join(command)
    launcher = "torchrun" if re.search(r"torch\.distributed\.run|torchrun", text) else (
        "mpirun" if re.search(r"\b(mpirun|mpiexec)\b", text) else None)
    if launcher is None:
        raise JobError("the command starts no distributed job: give the launch command "
                       "(python3 -m torch.distributed.run --nproc_per_node N ..., or mpirun -np N ...)")
    patterns = {"torchrun": r"--nproc[_-]per[_-]node[= ](\d+)", "mpirun": r"(?:^|\s)-(?:np|n|c)[= ](\d+)"}
    found = re.search(patterns[launcher], text)
    if not found:
        raise JobError(f"the {launcher} command names no rank count "
                       f"({'--nproc_per_node N' if launcher == 'torchrun' else '-np N'})")
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


def run_job(command, mode, out, python_path, steps, warmup, plan=None, timeout=1800):
    """Runs the job once with the recorder; returns the file it wrote (read as JSON)."""
    for stale in (out, out + ".error"):
        if os.path.exists(stale):
            os.remove(stale)
    env = dict(os.environ, HARNESS_TUNE_MODE=mode, HARNESS_TUNE_OUT=out,
               HARNESS_TUNE_STEPS=str(steps), HARNESS_TUNE_WARMUP=str(warmup),
               HARNESS_TUNE_COMMAND=json.dumps(command), OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    env.pop("HARNESS_TUNE_PLAN", None)
    if plan:
        env["HARNESS_TUNE_PLAN"] = plan
    # For mpirun launches: where the ranks meet (harness_tune.inject maps OMPI's rank variables).
    env.setdefault("MASTER_ADDR", "127.0.0.1")
    env.setdefault("MASTER_PORT", str(free_port()))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [SITE, TUNE_PACKAGE, python_path, os.environ.get("PYTHONPATH")]))
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise JobError(f"{command[0]}: no such program") from None
    except subprocess.TimeoutExpired:
        raise JobError(f"the job ran past {timeout} s without recording {steps} steps") from None
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
    launches one; returns its records (trials.jsonl), refusing a trial that did not end ok."""
    os.makedirs(results_dir, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    command = ["mpirun", "--bind-to", "none", "-np", str(world), harness, experiment,
               "--results-dir", results_dir, "-q"]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise JobError("mpirun: no such program (scripts/setup installs Open MPI)") from None
    except subprocess.TimeoutExpired:
        raise JobError(f"the replay ran past {timeout} s") from None
    found = sorted(glob.glob(os.path.join(results_dir, "*", "*", "trials.jsonl")), key=os.path.getmtime)
    if done.returncode != 0 and not found:
        raise JobError(f"the replay failed (exit {done.returncode}); {last_lines(done.stdout + done.stderr)}")
    with open(found[-1]) as stream:
        records = [json.loads(line) for line in stream if line.strip()]
    for record in records:
        if record["status"] != "ok":
            raise JobError(f"the replay of {record['settings']['backend']} at bucket_cap_mb "
                           f"{record['settings']['bucket_cap_mb']:g} ended {record['status']}: {record['reason']}")
    return records
