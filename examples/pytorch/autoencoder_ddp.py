"""The seed's anomaly detector as a plain PyTorch DDP job: an autoencoder 20-10-3-10-20 trained
on normal records only, rank 0's weights broadcast by DDP, a DistributedSampler reshuffled each
epoch (set_epoch), gradients averaged by DDP's allreduce, rank 0 logging. Launch:

    .venv/bin/python -m torch.distributed.run --standalone --nproc_per_node 2 \\
        examples/pytorch/autoencoder_ddp.py --epochs 3

The data are synthetic, seeded and the same on every rank: 20 correlated features of normal
records, and a few anomalies held out to score at the end."""
import argparse

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def records(count, generator, anomalous=False):
    latent = torch.randn(count, 3, generator=generator)
    mixing = torch.linspace(-1, 1, 60).reshape(3, 20)
    features = latent @ mixing + 0.05 * torch.randn(count, 20, generator=generator)
    return features + (3.0 if anomalous else 0.0) * torch.randn(count, 20, generator=generator)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--records", type=int, default=8192)
    args = parser.parse_args()

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    generator = torch.Generator().manual_seed(0)
    normal = TensorDataset(records(args.records, generator))
    anomalies = records(64, generator, anomalous=True)

    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(20, 10), nn.ReLU(), nn.Linear(10, 3), nn.ReLU(),
                              nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 20)))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    sampler = DistributedSampler(normal, shuffle=True, seed=0)
    loader = DataLoader(normal, batch_size=args.batch_size, sampler=sampler)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        total, batches = 0.0, 0
        for (x,) in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), x)
            loss.backward()
            optimizer.step()
            total, batches = total + loss.item(), batches + 1
        if rank == 0:
            print(f"epoch {epoch}: mean loss {total / batches:.4f}", flush=True)
    if rank == 0:
        with torch.no_grad():
            errors = ((model(anomalies) - anomalies) ** 2).mean(dim=1)
            normal_errors = ((model(normal.tensors[0][:64]) - normal.tensors[0][:64]) ** 2).mean(dim=1)
        print(f"reconstruction error: normal {normal_errors.mean():.4f}, "
              f"anomalies {errors.mean():.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
