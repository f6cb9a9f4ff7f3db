"""The training loop of the tuner's test jobs: a small DDP model stepped on random data, in a
process group the job has started (each job differs in how it starts and ends)."""
import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train(steps, width=8, batch=4):
    model = DDP(nn.Linear(width, width))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        optimizer.zero_grad()
        model(torch.randn(batch, width)).sum().backward()
        optimizer.step()
