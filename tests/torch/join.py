"""Joins the harness process group and runs one allreduce; the refusal tests make it fail.
HARNESS_JOIN_TEST_FAULT: "skew" gives rank 1 other plugin parameters than rank 0's; "count"
makes rank 1's allreduce longer than rank 0's (the plugin refuses on both); "absent" makes
rank 1 skip it (rank 0's wait must end at the group's timeout); "root" makes rank 1's call fail
inside the plugin before it meets rank 0 (rank 0's wait must end at once with rank 1's message);
"dtype" makes rank 1 sum bf16 where rank 0 sums fp16 (same size, other type: both must fail).
Two end the job with the backend's threads still busy, holding the only references to the
call's tensors, which they drop as the interpreter exits (the exit must wait for them, never
abort): "exit_in_callback" after wait(), while the allreduce's future still runs a callback;
"exit_in_flight" without waiting, the allreduce and its callback still to come."""
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


def leave_with_a_collective_busy(wait):
    """An allreduce whose future runs a slow callback, no reference to either kept."""
    work = dist.all_reduce(torch.ones(4), async_op=True)
    work.get_future().then(lambda future: (time.sleep(0.1), future.value())[1])
    if wait:
        work.wait()
    print(f"rank {dist.get_rank()}: leaving while the backend's threads are busy", flush=True)


if fault in ("exit_in_callback", "exit_in_flight"):
    leave_with_a_collective_busy(wait=fault == "exit_in_callback")
    raise SystemExit(0)
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
        dist.all_reduce(tensor)
    finally:
        print(f"rank {dist.get_rank()}: allreduce ended after {time.monotonic() - started:.1f} s",
              flush=True)
    assert tensor.tolist() == [2.0] * 4, tensor