"""The buckets harness_tune.bucketing makes from a capture, at the job's own cap, against the
buckets DDP itself made in the captured steps (their bytes, in launch order). Exits 1 when
they differ."""
import sys

from harness_tune import bucketing, job_file

job = job_file.read_job(sys.argv[1])
ready, _ = bucketing.median_timeline(job)
modelled = [size for _, size, _ in bucketing.buckets(job, ready, job["bucket_cap_mb"])]
ddp = [b["bytes"] for b in job["steps"][-1]["buckets"]]
print(f"DDP's buckets {ddp}, modelled {modelled}")
sys.exit(0 if modelled == ddp and len(ddp) > 2 else 1)
