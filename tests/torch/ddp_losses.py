"""DDP training through the harness process group gives the losses gloo gives, under torchrun.

Two replicas of each model (the seed's autoencoder 20-10-3-10-20, also with DDP's fp16
compression hook, one with buffers and an unused head under find_unused_parameters, and a small
Transformer autoencoder) start from the same weights, see the same batches (DistributedSampler, set_epoch)
and train side by side: one wrapped in DDP over the default group ("harness"), one over a gloo
group. Their losses must agree within tolerance at every step; exits 1 when they do not."""
import datetime
import os
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

import harness_torch  # noqa: F401  (registers the backend)

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


def train(make_model, data, group, hook=None, epochs=2, batch=32):
    torch.manual_seed(1)
    model = DDP(make_model(), process_group=group, bucket_cap_mb=0.01,  # several buckets
                find_unused_parameters=make_model is WithBuffersAndUnused)
    if hook:
        model.register_comm_hook(group if group is not None else dist.group.WORLD, hook)
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
    # fp16: the gradients DDP's compression hook sends (torch 1.13's bf16 hook needs NCCL).
    cases = {"autoencoder": (autoencoder, tabular, None),
             "autoencoder, fp16 hook": (autoencoder, tabular, default_hooks.fp16_compress_hook),
             "buffers and an unused head": (WithBuffersAndUnused, tabular, None),
             "transformer": (TransformerAutoencoder, torch.randn(256, 16, 4, generator=generator),
                             None)}
    failed = False
    for name, (make_model, data, hook) in cases.items():
        through_harness = train(make_model, data, None, hook)
        through_gloo = train(make_model, data, gloo, hook)
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
