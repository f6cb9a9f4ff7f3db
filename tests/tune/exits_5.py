"""A DDP job that trains, then ends with exit status 5 (as a job's own check might): the tuner
must see the failure, not a finished job."""
import sys

import torch.distributed as dist
from tiny_ddp import train

dist.init_process_group("gloo")
train(steps=5, width=4, batch=2)
dist.destroy_process_group()
sys.exit(5)
