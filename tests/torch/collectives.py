"""The harness backend checked like a PyTorch backend, under torchrun (PyTorch 2.x).

Every collective DDP, FSDP2 and ZeroRedundancyOptimizer use (allreduce, allreduce_coalesced,
broadcast, all_gather, all_gather_into_tensor, reduce_scatter, reduce_scatter_tensor,
all_to_all_single, barrier), on results known from each rank's inputs and, where torch's gloo
has the collective, against gloo's; fp32, fp64, fp16 and bf16 sums (what DDP's compression
hooks send), int32, int64, int16, int8 and uint8 sums (exact, carried as floats, wrapping past
the type's range as gloo's do) through allreduce and reduce_scatter, fp32, fp64, int32 and
uint8 moves (through broadcast, allgather and alltoall; an integer average is refused by name),
the object collectives, a subgroup (dist.new_group) of its own, sizes from 1 element to 16 MB,
odd counts, NaN and infinities passing through as in gloo.
Prints one line per failure and exits 1 on any."""
import datetime
import functools
import math
import os
import sys

import torch
import torch.distributed as dist

import harness_torch  # noqa: F401  (registers the backend)

SIZES = [1, 3, 7, 1000, 65537, 1024 * 1024 + 1]  # elements, odd counts among them
LARGEST = 4 * 1024 * 1024  # 16 MB of fp32, the largest size checked (in fp32)


def sizes(dtype):
    return SIZES + ([LARGEST] if dtype == torch.float32 else [])
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"rank {dist.get_rank()}: FAILED {what}", flush=True)


@functools.lru_cache(maxsize=None)
def _rank_input(rank, n, dtype):
    values = (torch.arange(n, dtype=torch.int64) * (rank + 3) + rank * 7) % 97 - 40
    return values.to(dtype)


def rank_input(rank, n, dtype):
    """Rank r's input: small integers, exact in every type, different on every rank (a fresh
    copy: the collectives write into it)."""
    return _rank_input(rank, n, dtype).clone()


@functools.lru_cache(maxsize=None)
def total_of(world, n, dtype):
    return sum(_rank_input(r, n, dtype) for r in range(world))


# The integer types PyTorch's gloo sums (it has no int16).
GLOO_INTEGER_SUMS = (torch.int8, torch.uint8, torch.int32, torch.int64)
# Sums of the inputs are exact in every type; an average rounds once, to the type's precision.
TOLERANCE = {torch.float32: 1e-6, torch.float64: 1e-12, torch.float16: 1e-3, torch.bfloat16: 1e-2}


def same(got, want, dtype):
    if dtype.is_floating_point:
        tolerance = TOLERANCE[dtype]
        return torch.allclose(got.double(), want.double(), rtol=tolerance, atol=tolerance,
                              equal_nan=True)
    return torch.equal(got, want)


def check_sums(rank, world, dtype, n, gloo):
    total = total_of(world, n, dtype)
    tensor = rank_input(rank, n, dtype)
    dist.all_reduce(tensor)
    check(same(tensor, total, dtype), f"allreduce sum {dtype} n={n}")
    tensor = rank_input(rank, n, dtype)
    dist.all_reduce(tensor, op=dist.ReduceOp.AVG)
    check(same(tensor, total / world, dtype), f"allreduce avg {dtype} n={n}")
    peer = rank_input(rank, n, dtype)
    dist.all_reduce(peer, group=gloo)
    check(same(peer, total, dtype), f"allreduce sum {dtype} n={n}: gloo disagrees")
    check_reduce_scatter(rank, world, dtype, n, gloo)


def check_reduce_scatter(rank, world, dtype, n, gloo):
    """Block r of the sum on rank r, through the list form and the tensor form (FSDP2's)."""
    block = n // world
    if not block:
        return
    inputs = rank_input(rank, block * world, dtype)
    out = torch.empty(block, dtype=dtype)
    dist.reduce_scatter(out, list(inputs.chunk(world)))
    want = total_of(world, block * world, dtype)[rank * block:(rank + 1) * block]
    check(same(out, want, dtype), f"reduce_scatter {dtype} block={block}")
    out = torch.empty(block, dtype=dtype)
    dist.reduce_scatter_tensor(out, rank_input(rank, block * world, dtype))
    check(same(out, want, dtype), f"reduce_scatter_tensor {dtype} block={block}")
    peer = torch.empty(block, dtype=dtype)
    try:
        dist.reduce_scatter_tensor(peer, rank_input(rank, block * world, dtype), group=gloo)
    except (RuntimeError, NotImplementedError, ValueError):
        return  # a gloo without it: the known result above is the check
    check(same(out, peer, dtype), f"reduce_scatter_tensor {dtype} block={block}: gloo disagrees")


def check_coalesced(rank, world, gloo):
    """allreduce_coalesced: tensors of several shapes, one type, summed as one."""
    for dtype in (torch.float32, torch.float64, torch.int32):
        shapes = [(3,), (2, 5), (7, 1, 2), (1,)]
        tensors = [rank_input(rank, math.prod(shape), dtype).view(shape) for shape in shapes]
        dist.all_reduce_coalesced(tensors)
        for shape, tensor in zip(shapes, tensors):
            n = math.prod(shape)
            check(tensor.shape == shape and same(tensor.reshape(-1), total_of(world, n, dtype), dtype),
                  f"allreduce_coalesced {dtype} shape {shape}")
        peers = [rank_input(rank, math.prod(shape), dtype).view(shape) for shape in shapes]
        dist.all_reduce_coalesced(peers, group=gloo)
        check(all(torch.equal(a, b) for a, b in zip(tensors, peers)),
              f"allreduce_coalesced {dtype}: gloo disagrees")


def check_moves(rank, world, dtype, n, gloo):
    for root in range(world):
        tensor = rank_input(rank, n, dtype)
        dist.broadcast(tensor, src=root)
        check(same(tensor, rank_input(root, n, dtype), dtype), f"broadcast root {root} {dtype} n={n}")
    gathered = [torch.empty(n, dtype=dtype) for _ in range(world)]
    dist.all_gather(gathered, rank_input(rank, n, dtype))
    for r in range(world):
        check(same(gathered[r], rank_input(r, n, dtype), dtype), f"allgather block {r} {dtype} n={n}")
    by_gloo = [torch.empty(n, dtype=dtype) for _ in range(world)]
    dist.all_gather(by_gloo, rank_input(rank, n, dtype), group=gloo)
    check(all(same(a, b, dtype) for a, b in zip(gathered, by_gloo)), f"allgather {dtype} n={n} vs gloo")
    flat = torch.empty(n * world, dtype=dtype)
    dist.all_gather_into_tensor(flat, rank_input(rank, n, dtype))
    check(same(flat, torch.cat(by_gloo), dtype), f"all_gather_into_tensor {dtype} n={n}")
    if n % world == 0:
        out = torch.empty(n, dtype=dtype)
        dist.all_to_all_single(out, rank_input(rank, n, dtype))
        block = n // world
        want = torch.cat([rank_input(r, n, dtype)[rank * block:(rank + 1) * block] for r in range(world)])
        check(same(out, want, dtype), f"alltoall {dtype} n={n}")


def check_objects(rank, world):
    """torch.distributed's object collectives: pickled bytes of any length, through allgather and
    broadcast of uint8 tensors."""
    gathered = [None] * world
    dist.all_gather_object(gathered, {"rank": rank, "text": "x" * (rank * 13 + 1)})
    check(gathered == [{"rank": r, "text": "x" * (r * 13 + 1)} for r in range(world)],
          f"all_gather_object: {gathered}")
    objects = [("from", rank, list(range(rank + 2)))]
    dist.broadcast_object_list(objects, src=world - 1)
    check(objects == [("from", world - 1, list(range(world + 1)))],
          f"broadcast_object_list: {objects}")


def check_non_finite(rank, world, gloo):
    for dtype in (torch.float32, torch.float64):
        tensor = rank_input(rank, 9, dtype)
        if rank == 0:
            tensor[0], tensor[1], tensor[2] = float("nan"), float("inf"), float("-inf")
        if rank == world - 1:
            tensor[3] = float("inf")
        peer = tensor.clone()
        dist.all_reduce(tensor)
        dist.all_reduce(peer, group=gloo)
        check(math.isnan(tensor[0]) and tensor[1] == math.inf and tensor[2] == -math.inf
              and tensor[3] == math.inf, f"non-finite values {dtype}: {tensor[:4].tolist()}")
        check(same(tensor, peer, dtype), f"non-finite values {dtype}: harness {tensor[:4].tolist()} "
              f"gloo {peer[:4].tolist()}")


def check_integer_sums(rank, world, gloo):
    """Integer sums (DDP's used-parameter counts under find_unused_parameters), carried as
    floats: exact, and equal to gloo's."""
    for dtype in (torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8):
        for n in (1, 7, 65537):
            if dtype != torch.uint8:
                check_reduce_scatter(rank, world, dtype, n * world, gloo)
            values = rank_input(rank, n, dtype).abs() if dtype == torch.uint8 else rank_input(rank, n, dtype)
            want = sum(rank_input(r, n, dtype).abs() if dtype == torch.uint8 else rank_input(r, n, dtype)
                       for r in range(world))
            tensor = values.clone().view(n, 1)  # a shape of its own, kept
            dist.all_reduce(tensor)
            check(tensor.shape == (n, 1), f"allreduce sum {dtype} n={n}: shape {tuple(tensor.shape)}")
            check(torch.equal(tensor.reshape(-1), want), f"allreduce sum {dtype} n={n}")
            if dtype in GLOO_INTEGER_SUMS:
                peer = values.clone()
                dist.all_reduce(peer, group=gloo)
                check(torch.equal(peer, tensor.reshape(-1)), f"allreduce sum {dtype} n={n}: gloo disagrees")
    check_integer_wrap(rank, world, gloo)
    # Past fp64's exact range: refused alike on every rank (in a group of its own, which the
    # failure leaves broken), the tensor untouched.
    spare = dist.new_group(backend="harness")
    huge = torch.full((3,), 2 ** 52 + 1, dtype=torch.int64)
    try:
        dist.all_reduce(huge, group=spare)
        check(False, "int64 sum past 2^53: accepted, though not exact")
    except RuntimeError as error:
        check("exact while" in str(error), f"int64 sum past 2^53 refused unclearly: {error}")
    check(huge.tolist() == [2 ** 52 + 1] * 3, f"int64 sum past 2^53: tensor changed: {huge.tolist()}")


def wrapped(total, bits, signed):
    """`total` wrapped into an integer of `bits` bits, as C's (and gloo's) sums wrap."""
    total %= 2 ** bits
    return total - 2 ** bits if signed and total >= 2 ** (bits - 1) else total


def check_integer_wrap(rank, world, gloo):
    """A sum past the type's range wraps as gloo's does (as C's integer sums do): gloo's result,
    on every rank, never a third number (int16, which gloo does not sum: the wrapped sum)."""
    for dtype, value, bits in ((torch.int8, 100, 8), (torch.uint8, 200, 8), (torch.int16, 30000, 16),
                               (torch.int32, 2 ** 31 - 5, 32)):
        tensor = torch.full((5,), value, dtype=dtype)
        peer = tensor.clone()
        dist.all_reduce(tensor)
        want = wrapped(value * world, bits, dtype != torch.uint8)
        check(tensor.tolist() == [want] * 5, f"{dtype} sum past its range: {tensor.tolist()}, "
              f"expected {want} (wrapped)")
        if dtype in GLOO_INTEGER_SUMS:
            dist.all_reduce(peer, group=gloo)
            check(torch.equal(tensor, peer), f"{dtype} sum past its range: harness "
                  f"{tensor.tolist()} gloo {peer.tolist()}")
    # int64's minimum: its |value| is 2^63, past fp64's exact range: refused, not wrong.
    spare = dist.new_group(backend="harness")
    low = torch.full((2,), -2 ** 63, dtype=torch.int64)
    try:
        dist.all_reduce(low, group=spare)
        check(False, f"int64 minimum summed though not exact: {low.tolist()}")
    except RuntimeError as error:
        check("exact while" in str(error), f"int64 minimum refused unclearly: {error}")


def check_subgroup(rank, world):
    """A group of the first two ranks (dist.new_group): a backend of its own, beside the world's."""
    pair = dist.new_group(ranks=[0, 1], backend="harness")
    tensor = torch.full((6,), float(rank + 1))
    if rank < 2:
        dist.all_reduce(tensor, group=pair)
        check(tensor.tolist() == [3.0] * 6, f"allreduce in the subgroup of ranks 0 and 1: {tensor.tolist()}")
        out = torch.empty(2 * 3)
        dist.all_gather_into_tensor(out, torch.full((3,), float(rank)), group=pair)
        check(out.tolist() == [0.0] * 3 + [1.0] * 3, f"all_gather_into_tensor in the subgroup: {out.tolist()}")
    world_sum = torch.ones(4)
    dist.all_reduce(world_sum)
    check(world_sum.tolist() == [float(world)] * 4, f"allreduce of the world after a subgroup: {world_sum.tolist()}")


def check_collective_in_callback(world):
    """A future's callback that runs a collective and waits on it (as DDP's PowerSGD hook does)
    completes, as with gloo, rather than waiting on the thread that must run it."""
    def then(_future):
        inner = torch.ones(2)
        dist.all_reduce(inner)
        return inner
    future = dist.all_reduce(torch.ones(3), async_op=True).get_future()
    result = future.then(then).wait()
    check(result.tolist() == [float(world)] * 2, f"a collective inside a future's callback: {result.tolist()}")


def check_refusals(rank):
    try:
        dist.all_reduce(torch.ones(5, dtype=torch.int32), op=dist.ReduceOp.AVG)
        check(False, "int32 average: accepted though the plugin averages no int32")
    except RuntimeError as error:
        check("int" in str(error).lower() and os.environ.get("HARNESS_BACKEND", "shm") in str(error)
              and "sum it and divide" in str(error),
              f"int32 average refused without naming type, plugin and what to do: {error}")
    try:
        dist.reduce(torch.ones(3), dst=0)
        check(False, "reduce: accepted though the plugin API has none")
    except RuntimeError as error:
        check("does not support reduce" in str(error) and 'new_group(backend="gloo")' in str(error),
              f"reduce refused without what to do instead: {error}")


def main():
    dist.init_process_group("harness", timeout=datetime.timedelta(seconds=60))
    rank, world = dist.get_rank(), dist.get_world_size()
    gloo = dist.new_group(backend="gloo")
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        for n in sizes(dtype):
            check_sums(rank, world, dtype, n, gloo)
    # uint8 with odd counts fills no whole element of any type a plugin moves: padded copies.
    for dtype in (torch.float32, torch.float64, torch.int32, torch.uint8):
        for n in sizes(dtype):
            check_moves(rank, world, dtype, n, gloo)
    check_coalesced(rank, world, gloo)
    check_objects(rank, world)
    check_subgroup(rank, world)
    check_collective_in_callback(world)
    check_non_finite(rank, world, gloo)
    check_integer_sums(rank, world, gloo)
    check_refusals(rank)
    dist.barrier()
    print(f"rank {rank}: {'FAILED ' + str(len(failures)) if failures else 'ok'}: collectives "
          f"through harness:{os.environ.get('HARNESS_BACKEND', 'shm')} at world {world}", flush=True)
    dist.destroy_process_group()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
