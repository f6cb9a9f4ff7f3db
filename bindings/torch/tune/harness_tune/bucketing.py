"""DDP's buckets for a bucket cap, from a captured job: gradients taken in the order backward
made them (the order DDP rebuilds its buckets in after the first step), filled up to the first
bucket's cap and then to bucket_cap_mb, a bucket closing once it reaches its cap (as
compute_bucket_assignment_by_size does), one dtype per bucket."""
import statistics

MB = 1024 * 1024
ELEMENT_BYTES = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2}


def median_timeline(job):
    """Each parameter's median gradient-ready time (None: it takes no gradient), and the step's median
    forward, backward and remaining times."""
    steps = job["steps"]
    ready = []
    for index, parameter in enumerate(job["parameters"]):
        times = [s["ready_s"][index] for s in steps if s["ready_s"][index] is not None]
        # A parameter backward never reached (a job with find_unused_parameters): DDP marks it
        # ready as backward starts, and its zeros travel in their bucket all the same.
        unused = 0.0 if parameter["requires_grad"] else None
        ready.append(statistics.median(times) if times else unused)
    phases = {name: statistics.median(s[name] for s in steps)
              for name in ("step_s", "forward_s", "backward_s")}
    phases["rest_s"] = max(0.0, phases["step_s"] - phases["forward_s"] - phases["backward_s"])
    return ready, phases


def buckets(job, ready, bucket_cap_mb):
    """[(launch_s, bytes, dtype)] in launch order: a bucket launches when its last gradient is
    ready (and not before the bucket ahead of it)."""
    parameters = job["parameters"]
    order = sorted((i for i, t in enumerate(ready) if t is not None and parameters[i]["requires_grad"]),
                   key=lambda i: ready[i])
    limits = [job["first_bucket_mb"] * MB, bucket_cap_mb * MB]
    result, open_buckets = [], {}
    for index in order:
        dtype = parameters[index]["dtype"]
        bucket = open_buckets.setdefault(dtype, {"bytes": 0, "launch_s": 0.0, "dtype": dtype})
        bucket["bytes"] += parameters[index]["numel"] * ELEMENT_BYTES.get(dtype, 4)
        bucket["launch_s"] = max(bucket["launch_s"], ready[index])
        if bucket["bytes"] >= limits[min(len(result), 1)]:
            result.append(open_buckets.pop(dtype))
    result.extend(open_buckets.values())
    launches, latest = [], 0.0
    for bucket in result:
        latest = max(latest, bucket["launch_s"])
        launches.append((latest, bucket["bytes"], bucket["dtype"]))
    return launches
