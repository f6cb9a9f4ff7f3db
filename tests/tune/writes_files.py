"""A DDP job that writes its own log with mode "w" and saves a checkpoint, as many jobs do,
then fails (exit 4): however a tuning ends, the user's log must be put back as it was and the
checkpoint the job made moved into the results folder."""
import argparse
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--train-log", required=True)
parser.add_argument("--checkpoint", required=True)
args = parser.parse_args()
dist.init_process_group("gloo")
model = DDP(nn.Linear(64, 64))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
with open(args.train_log, "w") as log:
    for step in range(200):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        if dist.get_rank() == 0:
            print(f"step {step} loss {loss.item():.4f}", file=log, flush=True)
            torch.save(model.state_dict(), args.checkpoint)
dist.destroy_process_group()
sys.exit(4)
