"""Joins the harness process group and runs one allreduce; the refusal tests make it fail.
HARNESS_JOIN_TEST_FAULT: "skew" gives rank 1 other plugin parameters than rank 0's; "count"
makes rank 1's allreduce longer than rank 0's (the plugin refuses on both); "absent" makes
rank 1 skip it (rank 0's wait must end at the group's timeout); "root" makes rank 1's call fail
inside the plugin before it meets rank 0 (rank 0's wait must end at once with rank 1's message);
"dtype" makes rank 1 sum bf16 where rank 0 sums fp16 (same size, other type: both must fail);
"exit_in_callback" ends the job while the allreduce's future still runs a callback (the backend's
thread then drops the last reference to the call's tensors: the interpreter's exit must wait
for it, never abort)."""
import datetime
import os
import time

import torch
import torch.distributed as dist

import harness_torch  # noqa: F401

fault = os.environ.get("HARNESS_JOIN_TEST_FAULT", "")
odd_rank = os.environ.get("RANK") == "1"
if fault == "skew" and odd_rank:
    os.environ["HARNESS_BACKEND_PARAMS"] = '{"chunk_bytes": 65536}'
dist.init_process_group("harness", timeout=datetime.timedelta(seconds=10))
tensor = torch.ones(5 if fault == "count" and odd_rank else 4)
if fault == "dtype":
    tensor = tensor.to(torch.bfloat16 if odd_rank else torch.float16)
if fault == "absent" and odd_rank:
    time.sleep(15)
else:
    started = time.monotonic()
    try:
        if fault == "root":
            dist.broadcast(tensor, src=7 if odd_rank else 0)
        if fault == "exit_in_callback":
            work = dist.all_reduce(tensor, async_op=True)
            work.get_future().then(lambda future: (time.sleep(0.1), future.value())[1])
            work.wait()
        else:
            dist.all_reduce(tensor)
    finally:
        print(f"rank {dist.get_rank()}: allreduce ended after {time.monotonic() - started:.1f} s",
              flush=True)
    assert tensor.tolist() == [2.0] * 4, tensor
if fault == "exit_in_callback":
    print(f"rank {dist.get_rank()}: leaving while the future's callback runs", flush=True)
