"""A DDP job that names its backend "GLOO" (PyTorch accepts any case): a plan's harness backend
must still be switched in, and the run must say so (run.json's "applied")."""
import torch.distributed as dist
from tiny_ddp import train

dist.init_process_group(backend="GLOO")
train(steps=40, width=64)
dist.destroy_process_group()
