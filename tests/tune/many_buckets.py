"""A DDP job whose gradients fill several buckets (DDP's first bucket of 1 MB, then
bucket_cap_mb 0.1, layers of unequal sizes): its capture holds DDP's own buckets, which
the harness's replay must reproduce."""
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                          nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                          nn.Linear(128, 2048), nn.ReLU(), nn.Linear(2048, 16)), bucket_cap_mb=0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(40):
    optimizer.zero_grad()
    x = torch.randn(4, 16)
    nn.functional.mse_loss(model(x), x).backward()
    optimizer.step()
dist.destroy_process_group()
