"""A DDP job that names its backend "GLOO" (PyTorch accepts any case): a plan's harness backend
must still be switched in, and the run must say so (run.json's "applied")."""
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="GLOO")
model = DDP(nn.Linear(64, 64))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(40):
    optimizer.zero_grad()
    model(torch.randn(8, 64)).sum().backward()
    optimizer.step()
dist.destroy_process_group()
