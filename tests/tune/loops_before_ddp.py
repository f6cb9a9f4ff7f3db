"""A job that never reaches DDP: its ranks wait forever after init_process_group. scripts/tune
must give up at --job-timeout and leave none of its processes running."""
import time

import torch.distributed as dist

dist.init_process_group("gloo")
while True:
    time.sleep(0.2)
