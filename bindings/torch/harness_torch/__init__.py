"""torch.distributed backend "harness": a PyTorch job's collectives on the harness's plugins.

    import harness_torch                       # registers the backend
    dist.init_process_group("harness")         # HARNESS_BACKEND=shm (the default) picks the plugin

HARNESS_BACKEND names the communicator plugin, HARNESS_BACKEND_PARAMS (a JSON object) its
parameters, HARNESS_PLUGIN_PATH more folders to find plugins in. The manual: docs/pytorch.md.
"""
import torch  # loads LibTorch before the extension that links it
import torch.distributed as dist

from ._harness_torch import ProcessGroupHarness

__all__ = ["ProcessGroupHarness"]


def _create(store, rank, size, timeout):
    return ProcessGroupHarness(store, rank, size, timeout)


if not hasattr(dist.Backend, "HARNESS"):
    dist.Backend.register_backend("harness", _create)
