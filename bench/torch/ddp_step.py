"""A plain PyTorch training script, timed: the job the torch backend benchmark runs on gloo and
on the harness's process group, unmodified but for the backend name (--backend).

Models: the seed's autoencoder (20-10-3-10-20) and a gradient-heavy Transformer autoencoder of
about 10 M parameters over short sequences (little compute for many gradients). Data parallel
by DDP (allreduce of gradient buckets) or FSDP2 (fully_shard per layer on a CPU device mesh:
all_gather of parameters, reduce_scatter of gradients). Rank 0 prints one JSON line: torch's
version, the step times after the warm-up steps, and the shared memory the process maps
(/dev/shm files and memory files in /proc/self/maps): for gloo, whether its shared-memory allreduce for ranks on one
host (pytorch/gloo PR 458) was in use."""
import argparse
import datetime
import json
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def autoencoder():
    return nn.Sequential(nn.Linear(20, 10), nn.ReLU(), nn.Linear(10, 3), nn.ReLU(),
                         nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 20))


def maps_shared_memory():
    """The shared-memory files this process has mapped (named in /dev/shm, or anonymous memory
    files): a backend's shared-memory segments."""
    with open("/proc/self/maps") as maps:
        return sorted({line.split(None, 5)[-1].strip() for line in maps
                       if " /dev/shm/" in line or " /memfd:" in line})


def data_parallel(model, strategy):
    if strategy == "ddp":
        return DDP(model)
    from torch.distributed.device_mesh import DeviceMesh
    from torch.distributed.fsdp import fully_shard
    mesh = DeviceMesh.from_group(dist.group.WORLD, "cpu")
    for layer in getattr(getattr(model, "encoder", None), "layers", []):
        fully_shard(layer, mesh=mesh)
    return fully_shard(model, mesh=mesh)


class TransformerAutoencoder(nn.Module):
    def __init__(self, features=8, d_model=512, layers=3):
        super().__init__()
        self.embed = nn.Linear(features, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 8, 2048, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d_model, features)

    def forward(self, x):
        return self.out(self.encoder(self.embed(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="gloo")
    parser.add_argument("--model", choices=["autoencoder", "transformer"], default="autoencoder")
    parser.add_argument("--strategy", choices=["ddp", "fsdp2"], default="ddp")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--window", type=int, default=4, help="the Transformer's sequence length")
    args = parser.parse_args()
    if args.backend == "harness":
        import harness_torch  # noqa: F401
    dist.init_process_group(args.backend, timeout=datetime.timedelta(seconds=300))
    torch.manual_seed(1)
    model = data_parallel(autoencoder() if args.model == "autoencoder" else TransformerAutoencoder(),
                          args.strategy)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    shape = (args.batch, 20) if args.model == "autoencoder" else (args.batch, args.window, 8)
    x = torch.randn(*shape)
    times = []
    for step in range(args.warmup + args.steps):
        started = time.perf_counter()
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), x)
        loss.backward()
        optimizer.step()
        if step >= args.warmup:
            times.append(time.perf_counter() - started)
    if dist.get_rank() == 0:
        parameters = sum(p.numel() for p in model.parameters())
        print(json.dumps({"backend": args.backend, "model": args.model, "strategy": args.strategy,
                          "torch": torch.__version__, "parameters": parameters,
                          "shared_memory": maps_shared_memory(), "step_s": times}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
