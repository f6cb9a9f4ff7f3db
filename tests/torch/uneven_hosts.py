"""Through harness:hierarchical on 2 hosts x 2 ranks (ranks 0 and 1 on the first): a subgroup of
ranks 0, 1 and 2 holds two ranks on one host and one on the other, which the two-level
allreduce cannot split. Its creation must fail on each of its three ranks with the reason, and
the world's group must go on working on all four; exits 1 otherwise."""
import datetime
import sys

import torch
import torch.distributed as dist

import harness_torch  # noqa: F401  (registers the backend)

dist.init_process_group("harness", timeout=datetime.timedelta(seconds=60))
rank = dist.get_rank()
refused = ""
try:
    group = dist.new_group([0, 1, 2])
    if rank != 3:
        dist.all_reduce(torch.ones(2), group=group)
except RuntimeError as error:
    refused = str(error)
expected = "the hosts hold 1 to 2 ranks of the group; it needs the same number on each"
ok = (expected in refused) if rank != 3 else not refused
print(f"rank {rank}: {'refused: ' + refused if refused else 'not refused'}: "
      f"{'ok' if ok else 'WRONG'}", flush=True)
total = torch.ones(1)
dist.all_reduce(total)
ok = ok and total.item() == 4
dist.destroy_process_group()
sys.exit(0 if ok else 1)
