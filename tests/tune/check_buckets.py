"""The buckets a harness replay trial made of a capture at the job's own cap (its record's
buckets.bytes), against the buckets DDP itself made in the captured steps (their bytes, in
launch order). Exits 1 when they differ.

    check_buckets.py JOB_JSON TRIALS_JSONL"""
import json
import sys

from harness_tune import job_file

job = job_file.read_job(sys.argv[1])
with open(sys.argv[2]) as stream:
    records = [json.loads(line) for line in stream if line.strip()]
if len(records) != 1 or records[0]["status"] != "ok":
    sys.exit(f"expected one ok replay record, got {[(r['status'], r['reason']) for r in records]}")
replayed = records[0]["buckets"]["bytes"]
ddp = [b["bytes"] for b in job["steps"][-1]["buckets"]]
print(f"DDP's buckets {ddp}, the replay's {replayed}")
sys.exit(0 if replayed == ddp and len(ddp) > 2 else 1)
