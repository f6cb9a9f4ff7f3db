"""A captured job's step replayed on real ranks (launched by torchrun at the job's world size):
the computation as measured (calibrated busy work: it slows down when a collective competes for
the core, as the job's does), each bucket copied and launched when the job made it ready,
allreduced asynchronously through the configuration's backend (torch's gloo, or the process
group "harness" with a plugin) and compression, and awaited after backward, as DDP does.
Configurations are interleaved in rounds; rank 0 writes each one's step times.

    python3 -m harness_tune.replay JOB_JSON CONFIGS_JSON OUT_JSON --rounds R --steps S"""
import argparse
import datetime
import json
import os
import time

import torch
import torch.distributed as dist

from . import bucketing, job_file

now = time.perf_counter
WIRE = {"none": None, "fp16": torch.float16, "bf16": torch.bfloat16}


def calibrate(seconds=0.2):
    """Busy-work iterations per second, measured while every rank works (as the job's ranks
    computed side by side)."""
    dist.barrier()
    started, count = now(), 0
    while now() - started < seconds:
        for _ in range(1000):
            pass
        count += 1000
    return count / (now() - started)


def work(seconds, rate):
    for _ in range(int(seconds * rate)):
        pass


class Replay:
    def __init__(self, job, config, group, rate):
        ready, self.phases = bucketing.median_timeline(job)
        self.launches = bucketing.buckets(job, ready, config["bucket_cap_mb"])
        self.compute_s = max((t for t in ready if t is not None), default=0.0)
        self.wire = WIRE[config["compression"]]
        self.group, self.rate = group, rate
        self.world = dist.get_world_size()
        self.gradients = [torch.randn(b // 4) for _, b, _ in self.launches]
        self.buffers = [torch.empty_like(g) for g in self.gradients]

    def step(self):
        started = now()
        work(self.phases["forward_s"], self.rate)
        pending, done_s = [], 0.0
        for (launch_s, _, _), gradient, buffer in zip(self.launches, self.gradients, self.buffers):
            work(launch_s - done_s, self.rate)
            done_s = launch_s
            buffer.copy_(gradient)  # DDP copies gradients into the bucket
            sent = buffer.div_(self.world) if self.wire is None else buffer.to(self.wire).div_(self.world)
            pending.append((dist.all_reduce(sent, group=self.group, async_op=True), sent, buffer))
        work(self.compute_s - done_s, self.rate)
        for handle, sent, buffer in pending:
            handle.wait()
            if sent is not buffer:
                buffer.copy_(sent)
        work(self.phases["rest_s"], self.rate)
        return now() - started


def max_on_ranks(value):
    tensor = torch.tensor([float(value)])
    dist.all_reduce(tensor, op=dist.ReduceOp.MAX)
    return tensor.item()


def group_for(backend, groups):
    if backend not in groups:
        if backend == "gloo":
            groups[backend] = dist.new_group(backend="gloo")
        else:
            os.environ["HARNESS_BACKEND"] = backend.split(":", 1)[1]
            groups[backend] = dist.new_group(backend="harness")
    return groups[backend]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("job")
    parser.add_argument("configs")
    parser.add_argument("out")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="replayed time per configuration and round, at least")
    args = parser.parse_args()
    job = job_file.read_job(args.job)
    configs = json.load(open(args.configs))
    if any(c["backend"].startswith("harness:") for c in configs):
        import harness_torch  # noqa: F401
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=300))
    if dist.get_world_size() != job["world_size"]:
        raise SystemExit(f"replay: {dist.get_world_size()} ranks, the job ran on {job['world_size']}")
    torch.manual_seed(dist.get_rank())
    groups = {}
    groups_of = [group_for(c["backend"], groups) for c in configs]
    rate = calibrate()
    replays = [Replay(job, c, group, rate) for c, group in zip(configs, groups_of)]
    times = [[] for _ in configs]
    for _ in range(args.rounds):  # interleaved: a drift of the machine reaches every config
        for replay, measured in zip(replays, times):
            dist.barrier()
            warm = replay.step()  # its buffers warm
            steps = max(args.steps, int(args.min_seconds / max(warm, 1e-6)))
            steps = int(max_on_ranks(steps))  # every rank replays as many steps
            for _ in range(steps):
                measured.append(replay.step())
    if dist.get_rank() == 0:
        job_file.write(args.out, {"rate": rate, "results": [
            {"config": c, "step_s": t, "buckets": len(r.launches)}
            for c, t, r in zip(configs, times, replays)]})
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
