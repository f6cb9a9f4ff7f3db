"""A DDP job that trains, then ends with exit status 5 (as a job's own check might): the tuner
must see the failure, not a finished job."""
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
model = DDP(nn.Linear(4, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(5):
    optimizer.zero_grad()
    model(torch.randn(2, 4)).sum().backward()
    optimizer.step()
dist.destroy_process_group()
sys.exit(5)
