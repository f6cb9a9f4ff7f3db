"""torch.distributed backend "harness": a PyTorch job's collectives on the harness's plugins.

    import harness_torch                       # registers the backend
    dist.init_process_group("harness")         # HARNESS_BACKEND=shm (the default) picks the plugin

HARNESS_BACKEND names the communicator plugin, HARNESS_BACKEND_PARAMS (a JSON object) its
parameters, HARNESS_PLUGIN_PATH more folders to find plugins in. PyTorch 2.x: the backend is a
c10d::Backend for CPU tensors, one per group (dist.new_group makes another). The manual:
docs/pytorch.md.
"""
import atexit
import datetime

import torch  # loads LibTorch before the extension that links it
import torch.distributed as dist

from ._harness_torch import HarnessBackend, _settle_before_exit

__all__ = ["HarnessBackend", "backend_of"]


def _create(options, _backend_options):
    """The extended creator: the group's own store, rank, size and timeout."""
    return HarnessBackend(options.store, options.group_rank, options.group_size, options.timeout)


def backend_of(group=None):
    """The HarnessBackend behind `group` (the world's by default)."""
    group = group if group is not None else dist.group.WORLD
    return group._get_backend(torch.device("cpu"))


# The backend's threads may hold the last reference to a tensor when the job ends (a future
# completing just after wait() returned). They must drop it before the interpreter finalizes:
# a thread that asks for the GIL after that is ended by Python, which aborts the process.
atexit.register(_settle_before_exit, datetime.timedelta(seconds=2))

if "HARNESS" not in dist.Backend._plugins:
    dist.Backend.register_backend("harness", _create, extended_api=True, devices=["cpu"])
