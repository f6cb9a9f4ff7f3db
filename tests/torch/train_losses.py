"""DDP and FSDP2 training through the harness backend give the losses gloo gives, under torchrun.

Two replicas of each model (the seed's autoencoder 20-10-3-10-20, also with DDP's fp16 and bf16
compression hooks and PowerSGD (which waits on collectives inside future callbacks), one with buffers and an unused head under find_unused_parameters, and a small
Transformer autoencoder) start from the same weights, see the same batches (DistributedSampler,
set_epoch) and train side by side: one over the default group ("harness"), one over a gloo
group; each wrapped in DDP, and the autoencoder and the Transformer sharded with FSDP2
(fully_shard on a CPU device mesh of the group: all_gather_into_tensor and
reduce_scatter_tensor). Their losses must agree within tolerance at every step; exits 1 when
they do not. Arguments, where given, name the cases to run ("DDP transformer")."""
import datetime
import os
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.distributed.algorithms.ddp_comm_hooks import powerSGD_hook as powersgd
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

import harness_torch  # registers the backend

RELATIVE_TOLERANCE = 1e-4


def autoencoder():
    return nn.Sequential(nn.Linear(20, 10), nn.Tanh(), nn.Linear(10, 3), nn.Tanh(),
                         nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 20))


class TransformerAutoencoder(nn.Module):
    def __init__(self, features=4, d_model=32):
        super().__init__()
        self.embed = nn.Linear(features, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 4, 64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1)
        self.out = nn.Linear(d_model, features)

    def forward(self, x):
        return self.out(self.encoder(self.embed(x)))


class WithBuffersAndUnused(nn.Module):
    """The autoencoder with batch-norm buffers (DDP broadcasts them every step) and a head that
    forward never uses (DDP's find_unused_parameters sums a used-parameter map of int32)."""
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 10), nn.BatchNorm1d(10), nn.Tanh(), nn.Linear(10, 20))
        self.unused_head = nn.Linear(10, 2)

    def forward(self, x):
        return self.body(x)


def data_parallel(make_model, group, hook):
    model = DDP(make_model(), process_group=group, bucket_cap_mb=0.01,  # several buckets
                find_unused_parameters=make_model is WithBuffersAndUnused)
    if hook:
        model.register_comm_hook(*hook(group))
    return model


def plain(hook):
    """A hook whose state is the group."""
    return lambda group: (group, hook)


def powersgd_state(group):
    """PowerSGD: its hook waits on collectives inside a future's callback."""
    state = powersgd.PowerSGDState(process_group=group, matrix_approximation_rank=1,
                                   start_powerSGD_iter=2, random_seed=5)
    return state, powersgd.powerSGD_hook


def sharded(make_model, group, _hook):
    """FSDP2: each Transformer layer and each of the model's own linear layers sharded on its
    own, then the whole model."""
    model = make_model()
    mesh = DeviceMesh.from_group(group, "cpu")
    layers = [m for m in model.modules() if isinstance(m, nn.TransformerEncoderLayer)]
    layers += [m for m in model.children() if isinstance(m, nn.Linear)]
    for layer in layers:
        fully_shard(layer, mesh=mesh)
    return fully_shard(model, mesh=mesh)


def train(wrap, make_model, data, group, hook=None, epochs=2, batch=32):
    torch.manual_seed(1)
    model = wrap(make_model, group, hook)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    sampler = DistributedSampler(TensorDataset(data), shuffle=True, seed=3)
    losses = []
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for (x,) in DataLoader(TensorDataset(data), batch_size=batch, sampler=sampler):
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), x)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses


def main():
    dist.init_process_group("harness", timeout=datetime.timedelta(seconds=60))
    rank = dist.get_rank()
    gloo = dist.new_group(backend="gloo")
    generator = torch.Generator().manual_seed(7)
    tabular = torch.randn(512, 20, generator=generator)
    series = torch.randn(256, 16, 4, generator=generator)
    # fp16 and bf16: the gradients DDP's compression hooks send.
    cases = {"DDP autoencoder": (data_parallel, autoencoder, tabular, None),
             "DDP autoencoder, fp16 hook": (data_parallel, autoencoder, tabular,
                                            plain(default_hooks.fp16_compress_hook)),
             "DDP autoencoder, bf16 hook": (data_parallel, autoencoder, tabular,
                                            plain(default_hooks.bf16_compress_hook)),
             "DDP autoencoder, PowerSGD hook": (data_parallel, autoencoder, tabular, powersgd_state),
             "DDP buffers and an unused head": (data_parallel, WithBuffersAndUnused, tabular, None),
             "DDP transformer": (data_parallel, TransformerAutoencoder, series, None),
             "FSDP2 autoencoder": (sharded, autoencoder, tabular, None),
             "FSDP2 transformer": (sharded, TransformerAutoencoder, series, None)}
    unknown = [name for name in sys.argv[1:] if name not in cases]
    if unknown:
        sys.exit(f"train_losses.py: no case {unknown} (cases: {', '.join(cases)})")
    picked = {name: case for name, case in cases.items() if len(sys.argv) == 1 or name in sys.argv}
    if rank == 0:
        print(f"backend: {harness_torch.backend_of().describe()}", flush=True)
    failed = False
    for name, (wrap, make_model, data, hook) in picked.items():
        through_harness = train(wrap, make_model, data, dist.group.WORLD, hook)
        through_gloo = train(wrap, make_model, data, gloo, hook)
        worst = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(through_harness, through_gloo))
        ok = len(through_harness) == len(through_gloo) and worst <= RELATIVE_TOLERANCE
        failed |= not ok
        if rank == 0:
            print(f"{name}: {len(through_harness)} steps, loss {through_harness[0]:.5f} -> "
                  f"{through_harness[-1]:.5f} (gloo {through_gloo[-1]:.5f}), largest relative "
                  f"difference {worst:.2e}: {'ok' if ok else 'FAILED'}", flush=True)
    dist.destroy_process_group()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
