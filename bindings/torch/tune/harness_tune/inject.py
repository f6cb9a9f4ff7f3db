"""What scripts/tune installs into every process of a user's DDP job (site/sitecustomize.py), so
that the script runs unmodified:

  capture  records rank 0's steps (HARNESS_TUNE_STEPS, and HARNESS_TUNE_MIN_SECONDS at least)
           (forward, backward, the rest), each parameter's gradient-ready
           moment and each bucket's launch, bytes and allreduce time (a recording comm hook),
           writes job.json (job_file.py) after the warm-up and recorded steps, and ends the job;
  run      times the steps and records the loss, writes them, and ends the job the same way.

HARNESS_TUNE_PLAN (plan.json) applies a plan in either mode: the backend given to
init_process_group, DDP's bucket_cap_mb and a compression comm hook. Only the first DDP module
a job builds is recorded and changed. Problems the tuner must report (a model on a GPU, no step
recorded) are written to <out>.error, and the job ends with exit status 3."""
import atexit
import builtins
import inspect
import io
import json
import math
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel

from . import job_file, kept_files

# A job launched by mpirun: the variables torch.distributed's env:// start reads, from Open MPI's
# (scripts/tune sets MASTER_ADDR and MASTER_PORT).
for _name, _ompi in (("RANK", "OMPI_COMM_WORLD_RANK"), ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"),
                     ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK")):
    if _name not in os.environ and _ompi in os.environ:
        os.environ[_name] = os.environ[_ompi]

MODE = os.environ["HARNESS_TUNE_MODE"]
OUT = os.environ.get("HARNESS_TUNE_OUT", "")
WARMUP = int(os.environ.get("HARNESS_TUNE_WARMUP", "3"))
STEPS = int(os.environ.get("HARNESS_TUNE_STEPS", "20"))
# Short steps are recorded for at least this long: steps of a few milliseconds need many of
# them to show how often the slow ones come.
MIN_SECONDS = float(os.environ.get("HARNESS_TUNE_MIN_SECONDS", "2"))
PLAN = job_file.read_plan(os.environ["HARNESS_TUNE_PLAN"]) if os.environ.get("HARNESS_TUNE_PLAN") else None
HOOKS = {"fp16": default_hooks.fp16_compress_hook, "bf16": default_hooks.bf16_compress_hook}

now = time.perf_counter
_original_init = DistributedDataParallel.__init__
_original_forward = DistributedDataParallel.forward
_original_register_hook = DistributedDataParallel.register_comm_hook
_original_backward = torch.Tensor.backward
_original_init_process_group = dist.init_process_group


def fail(message):
    """Ends this rank, leaving the reason for scripts/tune."""
    if OUT:
        with open(f"{OUT}.error", "w") as stream:
            stream.write(message + "\n")
    print(f"harness tune: {message}", file=sys.stderr, flush=True)
    os._exit(3)


class Recording:
    """The first DDP module's steps, as file_formats.json declares them."""

    def first_bucket(self):
        """The job's own first-bucket cap, and DDP's rule for it. torch 2.x's DDP keeps its 1 MB
        first bucket only when the code leaves bucket_cap_mb unset (bucket_bytes_cap_default);
        a cap the code sets caps the first bucket too. torch 1.x's keeps 1 MB whatever the cap."""
        default_first = dist._DEFAULT_FIRST_BUCKET_BYTES / (1024 * 1024)
        if not hasattr(self.ddp, "bucket_bytes_cap_default"):
            return {"first_bucket_mb": default_first, "first_bucket_rule": "fixed"}
        own = default_first if self.ddp.bucket_bytes_cap_default else float(self.bucket_cap_mb)
        return {"first_bucket_mb": own, "first_bucket_rule": "follows_cap"}

    def __init__(self, ddp, bucket_cap_mb):
        self.ddp = ddp
        self.bucket_cap_mb = bucket_cap_mb
        self.parameters = list(ddp.module.parameters())
        self.index_of = {id(p): i for i, p in enumerate(self.parameters)}
        self.steps, self.current, self.forward_starts = [], None, 0
        self.target = None  # the steps every rank records (agreed_target)
        self.backward_origin = None
        self.user_hook = ""
        self.hook_registered = False
        self.plan_hook = False  # the plan's compression hook, registered by the recorder
        # Read now: a job may destroy its process group before the recording is written.
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        self.backend = cpu_backend(dist.get_backend(ddp.process_group))

    def applied(self):
        """What the job really ran with, for the tuner to hold against the plan: a plan the job
        did not take (its own backend name, a cap it forced) must not be reported as measured."""
        cap_bytes = getattr(self.ddp, "bucket_bytes_cap", None)
        return {"backend": self.backend,
                "bucket_cap_mb": cap_bytes / (1024 * 1024) if cap_bytes else float(self.bucket_cap_mb),
                "compression": PLAN["compression"] if PLAN is not None and self.plan_hook else "none"}

    # --- per step ---------------------------------------------------------------------------
    def forward_started(self):
        """A step ends where the next forward starts; after the warm-up and the recorded steps
        the file is written and the job ends (every rank at the same step)."""
        started = now()
        if self.current is not None:
            self.current["step_s"] = started - self.current.pop("_started")
            if self.forward_starts > WARMUP and self.current["backward_s"] > 0:
                self.steps.append(self.current)
        self.forward_starts += 1
        if self.target is None and len(self.steps) >= STEPS:
            self.target = self.agreed_target()
        if self.target is not None and len(self.steps) >= self.target:
            self.finish()
        self.current = {"_started": started, "ready_s": [None] * len(self.parameters),
                        "buckets": [], "loss": None, "backward_s": 0.0}
        return started

    def agreed_target(self):
        """How many steps every rank records: STEPS, or more where a rank's steps are so short
        that STEPS of them last under MIN_SECONDS. Ranks time their steps apart, so they agree
        once, when STEPS are recorded (a sum in the job's group, at a forward every rank
        reaches, of each rank's count in a slot of its own: every backend sums, not all take a
        max): one collective per run, not one per step, which would cost the job's own backend
        a share of every step it is timed on."""
        mean = sum(s["step_s"] for s in self.steps) / len(self.steps)
        group = self.ddp.process_group
        wanted = torch.zeros(dist.get_world_size(group))
        wanted[dist.get_rank(group)] = float(max(STEPS, math.ceil(MIN_SECONDS / mean) if mean > 0 else STEPS))
        if wanted.numel() > 1:
            dist.all_reduce(wanted, group=group)
        return int(wanted.max().item())

    def forward_ended(self, started):
        self.current["forward_s"] = now() - started
        self.backward_origin = now()

    def gradient_ready(self, index):
        if self.current is not None and self.backward_origin is not None and MODE == "capture":
            self.current["ready_s"][index] = now() - self.backward_origin

    def backward_ended(self, loss):
        if self.current is not None and self.backward_origin is not None:
            self.current["backward_s"] = now() - self.backward_origin
            self.current["loss"] = loss

    def timed(self, hook):
        """A comm hook that records each bucket's launch and completion around `hook`."""
        def recording(state, bucket):
            entry = {"ready_s": now() - (self.backward_origin or now()),
                     "bytes": bucket.buffer().numel() * bucket.buffer().element_size(),
                     "dtype": str(bucket.buffer().dtype).replace("torch.", ""),
                     "parameters": [self.index_of.get(id(p), -1) for p in bucket.parameters()]}
            if self.current is not None:
                self.current["buckets"].append(entry)
            origin = self.backward_origin

            def done(future):
                entry["done_s"] = now() - origin if origin else 0.0
                return future.value()[0] if isinstance(future.value(), list) else future.value()
            return hook(state, bucket).then(done)
        return recording

    # --- the end ----------------------------------------------------------------------------
    def document(self):
        steps = [dict(step) for step in self.steps]
        for step in steps:
            step.pop("_started", None)
        if MODE != "capture":
            return {"mode": MODE, "world_size": self.world, "plan": PLAN, "applied": self.applied(),
                    "steps": [{"step_s": s["step_s"], "loss": s["loss"]} for s in steps]}
        return {"command": json.loads(os.environ.get("HARNESS_TUNE_COMMAND", "[]")),
                "world_size": self.world,
                "backend": self.backend,
                "bucket_cap_mb": float(self.bucket_cap_mb),
                **self.first_bucket(),
                "comm_hook": self.user_hook,
                "parameters": [{"numel": p.numel(), "dtype": str(p.dtype).replace("torch.", ""),
                                "requires_grad": p.requires_grad} for p in self.parameters],
                "parameter_count": sum(p.numel() for p in self.parameters),
                "warmup_steps": WARMUP, "steps": steps}

    def finish(self, ending=False):
        global RECORDING
        RECORDING = None
        if self.rank == 0 and OUT:
            if not self.steps:
                fail("the job ended before a step was recorded (more steps, or fewer warm-up "
                     f"steps than {WARMUP}: HARNESS_TUNE_WARMUP)")
            if MODE == "capture":
                try:
                    job_file.write_job(OUT, self.document())
                except job_file.FileError as error:
                    fail(f"the capture cannot be replayed: {error}")
            else:
                job_file.write_atomically(OUT, self.document())
        sys.stdout.flush()
        sys.stderr.flush()
        if not ending:
            os._exit(0)


RECORDING = None


DDP_DEFAULT_CAP_MB = job_file.DDP_DEFAULT_CAP_MB


def _bound(signature_of, args, kwargs, name, default):
    try:
        bound = inspect.signature(signature_of).bind(None, *args, **kwargs)
        return bound.arguments.get(name, default)
    except TypeError:
        return default


_failed = []
_original_excepthook = sys.excepthook


def _excepthook(kind, value, traceback):
    _failed.append(kind)
    _original_excepthook(kind, value, traceback)


sys.excepthook = _excepthook

# The status the job asked to end with (sys.exit), kept for _at_exit's os._exit: a job that
# fails by its exit status is a failed job to the tuner too.
_exit_status = [0]
_original_exit = sys.exit


def _exit(status=None):
    if status is None or isinstance(status, int):
        _exit_status[0] = status or 0
    else:  # a message: Python prints it and ends with status 1
        _exit_status[0] = 1
    _original_exit(status)


sys.exit = _exit


def _at_exit():
    """A job that ends before the recorded steps are done: what was recorded is written. The
    process then ends at once, with the job's own status: a DDP module with a Python comm hook
    can abort in the interpreter's own teardown under torch 1.13, which would make a finished
    job look failed."""
    if RECORDING is not None and not _failed and not _exit_status[0]:  # a failed job says why
        RECORDING.finish(ending=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1 if _failed else _exit_status[0])


def _ready_hook(index):
    def ready(_gradient):  # returns None: the gradient is left as it is
        if RECORDING is not None:
            RECORDING.gradient_ready(index)
    return ready


def _refuse_off_cpu(module):
    """Before DDP starts (which on a GPU would already move data): a tuning replays CPU jobs."""
    devices = sorted({p.device.type for p in module.parameters()} - {"cpu"}) if module is not None else []
    if devices:
        fail(f"the model's parameters are on {', '.join(devices)}, not the CPU: tuning covers "
             "CPU jobs (backend gloo or harness); run the job with its model on the CPU")


def ddp_init(self, *args, **kwargs):
    global RECORDING
    first = RECORDING is None and not getattr(ddp_init, "seen", False)
    if first:
        _refuse_off_cpu(_bound(_original_init, args, kwargs, "module", None))
    own_cap = _bound(_original_init, args, kwargs, "bucket_cap_mb", None)
    # A plan of the job's own cap leaves the call as it is: in torch 2.x, setting even the same
    # cap in the code would change DDP's first bucket (job_file's first_bucket_rule).
    if first and PLAN is not None and PLAN["bucket_cap_mb"] != (own_cap or DDP_DEFAULT_CAP_MB):
        kwargs["bucket_cap_mb"] = PLAN["bucket_cap_mb"]
        if "bucket_cap_mb" in inspect.signature(_original_init).parameters:
            position = list(inspect.signature(_original_init).parameters).index("bucket_cap_mb") - 1
            if len(args) > position:
                args = args[:position] + args[position + 1:]
    _original_init(self, *args, **kwargs)
    if not first:
        return
    ddp_init.seen = True
    RECORDING = Recording(self, _bound(_original_init, args, kwargs, "bucket_cap_mb", None)
                          or DDP_DEFAULT_CAP_MB)
    for index, parameter in enumerate(RECORDING.parameters):
        if parameter.requires_grad and MODE == "capture":
            parameter.register_hook(_ready_hook(index))
    if PLAN is not None and PLAN["compression"] != "none":
        try:
            _original_register_hook(self, self.process_group, HOOKS[PLAN["compression"]])
        except (RuntimeError, TypeError, ValueError) as error:
            fail(f"DDP refused the plan's {PLAN['compression']} compression hook: {error}")
        RECORDING.hook_registered = RECORDING.plan_hook = True
    atexit.register(_at_exit)


def ddp_forward(self, *args, **kwargs):
    recording = RECORDING if RECORDING is not None and RECORDING.ddp is self else None
    # A forward without gradients (evaluation, often on rank 0 alone) is no training step: were
    # it counted, the ranks would disagree on the step at which the recording ends.
    if recording is None or not torch.is_grad_enabled():
        return _original_forward(self, *args, **kwargs)
    if MODE == "capture" and not recording.hook_registered:
        _original_register_hook(self, self.process_group,
                                recording.timed(default_hooks.allreduce_hook))
        recording.hook_registered = True
    started = recording.forward_started()
    output = _original_forward(self, *args, **kwargs)
    recording.forward_ended(started)
    return output


def ddp_register_comm_hook(self, state, hook):
    recording = RECORDING if RECORDING is not None and RECORDING.ddp is self else None
    if recording is None:
        return _original_register_hook(self, state, hook)
    if recording.hook_registered and PLAN is not None and PLAN["compression"] != "none":
        fail("the job registers its own comm hook, and the plan's compression needs DDP's one "
             "hook: keep the job's hook (a plan without compression)")
    recording.user_hook = getattr(hook, "__qualname__", str(hook))
    recording.hook_registered = True
    return _original_register_hook(self, state, recording.timed(hook) if MODE == "capture" else hook)


def tensor_backward(self, *args, **kwargs):
    result = _original_backward(self, *args, **kwargs)
    if RECORDING is not None:
        loss = self.detach().item() if self.numel() == 1 else None
        # A diverged loss (nan, inf) is recorded as none: job.json holds finite numbers only.
        RECORDING.backward_ended(loss if loss is not None and math.isfinite(loss) else None)
    return result


def cpu_backend(backend):
    """The backend that runs CPU tensors, however init_process_group's argument spells it: none
    at all (PyTorch picks gloo for the CPU), "GLOO" or Backend.GLOO, or a per-device list
    ("cpu:gloo,cuda:nccl")."""
    if backend is None:
        return "gloo"
    specs = str(backend).lower().replace(" ", "").split(",")
    for spec in specs:
        device, _, name = spec.rpartition(":")
        if device in ("", "cpu"):
            return name
    return specs[0]


def init_process_group(backend=None, *args, **kwargs):
    """The plan's backend for a CPU job's default group."""
    if PLAN is not None and PLAN["backend"].startswith("harness:") and cpu_backend(backend) == "gloo":
        import harness_torch  # noqa: F401  (registers "harness")
        os.environ["HARNESS_BACKEND"] = PLAN["backend"].split(":", 1)[1]
        backend = "harness"
    return _original_init_process_group(backend, *args, **kwargs)


# The user's files, kept before the job's first write in this tuning (kept_files.py).
KEEP = os.environ.get("HARNESS_TUNE_KEEP", "")
_original_open = builtins.open
_original_save = torch.save
_kept = set()


def keep(file):
    """Before the job's first write to a named file in this tuning."""
    if isinstance(file, (str, bytes, os.PathLike)):
        path = os.fsdecode(file)
        if path not in _kept:
            _kept.add(path)
            kept_files.keep_before_write(KEEP, path, os.path.dirname(KEEP))


def keeping_open(file, mode="r", *args, **kwargs):
    if any(c in mode for c in "wax+"):
        keep(file)
    return _original_open(file, mode, *args, **kwargs)


def keeping_save(obj, f, *args, **kwargs):  # torch.save writes a named file from C++, not open()
    keep(f)
    return _original_save(obj, f, *args, **kwargs)


if KEEP:
    builtins.open = io.open = keeping_open
    torch.save = keeping_save
DistributedDataParallel.__init__ = ddp_init
DistributedDataParallel.forward = ddp_forward
DistributedDataParallel.register_comm_hook = ddp_register_comm_hook
torch.Tensor.backward = tensor_backward
dist.init_process_group = init_process_group
dist.distributed_c10d.init_process_group = init_process_group
