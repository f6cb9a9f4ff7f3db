"""A DDP job with short steps that counts the torch.distributed.all_reduce calls made in its
process (DDP's own go through its reducer, not this function): the tune recorder's ranks must
agree on their step count once per run, not call a collective at every step."""
import os

import torch.distributed as dist
from tiny_ddp import train

_all_reduce = dist.all_reduce


def counting_all_reduce(*args, **kwargs):
    with open(f"{os.environ['COUNT_FILE']}.{dist.get_rank()}", "a") as count:
        count.write("all_reduce\n")
    return _all_reduce(*args, **kwargs)


dist.all_reduce = counting_all_reduce
dist.init_process_group("gloo")
train(steps=100000)  # the recorder ends the job once its steps are recorded
