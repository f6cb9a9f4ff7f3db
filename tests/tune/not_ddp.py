"""A distributed job without DDP: an allreduce loop. scripts/tune must say it covers DDP jobs."""
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
for _ in range(5):
    dist.all_reduce(torch.ones(4))
dist.destroy_process_group()
