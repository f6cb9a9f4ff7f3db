"""A DDP job whose third step raises: scripts/tune must report the failure with its last lines."""
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
model = DDP(nn.Linear(4, 4))
for step in range(10):
    if step == 2:
        raise RuntimeError("planted failure in the user's training step")
    model(torch.randn(2, 4)).sum().backward()
