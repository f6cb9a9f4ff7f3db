"""A DDP job with short steps that counts the torch.distributed.all_reduce calls made in its
process (DDP's own go through its reducer, not this function): the tune recorder's ranks must
agree on their step count once per run, not call a collective at every step."""
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

_all_reduce = dist.all_reduce


def counting_all_reduce(*args, **kwargs):
    with open(f"{os.environ['COUNT_FILE']}.{dist.get_rank()}", "a") as count:
        count.write("all_reduce\n")
    return _all_reduce(*args, **kwargs)


dist.all_reduce = counting_all_reduce
dist.init_process_group("gloo")
model = DDP(nn.Linear(8, 8))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(100000):
    optimizer.zero_grad()
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
