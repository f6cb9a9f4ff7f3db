"""Checks a job.json that scripts/tune captured from the seed's autoencoder (20-10-3-10-20 at
world 2): read by harness_tune's reader, and every recorded step accounts for every gradient
byte in its buckets, with ready moments inside backward. Exits 1 with the reason."""
import sys

from harness_tune import job_file

job = job_file.read_job(sys.argv[1])
problems = []
if job["world_size"] != 2 or job["parameter_count"] != 503 or len(job["parameters"]) != 8:
    problems.append(f"world {job['world_size']}, {job['parameter_count']} parameters in "
                    f"{len(job['parameters'])} tensors (expected 2, 503, 8)")
for index, step in enumerate(job["steps"]):
    sent = sum(b["bytes"] for b in step["buckets"])
    if sent != 503 * 4:
        problems.append(f"step {index}: buckets of {sent} bytes, expected 2012")
    if any(t is None or not 0 <= t <= step["backward_s"] for t in step["ready_s"]):
        problems.append(f"step {index}: a gradient ready outside backward: {step['ready_s']}")
    if not 0 < step["forward_s"] < step["step_s"]:
        problems.append(f"step {index}: forward {step['forward_s']} of a {step['step_s']} s step")
if any([b["bytes"] for b in step["buckets"]] != [2012] for step in job["steps"]):
    problems.append("DDP's buckets at 25 MB are not one bucket of 2012 bytes")
for problem in problems:
    print(f"FAILED: {problem}")
sys.exit(1 if problems else 0)
