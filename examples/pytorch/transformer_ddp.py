"""A gradient-heavy PyTorch DDP job: a Transformer autoencoder of about 10 M parameters that
reconstructs short windows of a multivariate signal (anomalies score high). Little compute per
sample for many gradients, so communication decides its step time. Launch:

    .venv/bin/python -m torch.distributed.run --standalone --nproc_per_node 2 \\
        examples/pytorch/transformer_ddp.py --epochs 1

The data are synthetic and seeded: windows of noisy sines over 8 channels."""
import argparse

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class TransformerAutoencoder(nn.Module):
    def __init__(self, channels=8, d_model=512, layers=3):
        super().__init__()
        self.embed = nn.Linear(channels, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 8, 2048, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d_model, channels)

    def forward(self, x):
        return self.out(self.encoder(self.embed(x)))


def windows(count, length, generator):
    phase = torch.rand(count, 1, 8, generator=generator) * 6.28
    t = torch.arange(length).reshape(1, length, 1) * 0.3
    return torch.sin(t + phase) + 0.1 * torch.randn(count, length, 8, generator=generator)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--window", type=int, default=4)
    parser.add_argument("--windows", type=int, default=2048)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    data = TensorDataset(windows(args.windows, args.window, torch.Generator().manual_seed(0)))
    torch.manual_seed(0)
    model = DDP(TransformerAutoencoder())
    if rank == 0:
        print(f"{sum(p.numel() for p in model.parameters()) / 1e6:.2f} M parameters", flush=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    sampler = DistributedSampler(data, shuffle=True, seed=0)
    loader = DataLoader(data, batch_size=args.batch_size, sampler=sampler)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for step, (x,) in enumerate(loader):
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), x)
            loss.backward()
            optimizer.step()
            if rank == 0 and step % 50 == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
