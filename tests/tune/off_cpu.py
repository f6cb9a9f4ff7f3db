"""A DDP job whose model is not on the CPU (here the meta device, which every PyTorch has, standing
in for a GPU): scripts/tune must refuse it before DDP starts, naming the device."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo")
model = DistributedDataParallel(torch.nn.Linear(4, 4, device="meta"))
dist.destroy_process_group()
