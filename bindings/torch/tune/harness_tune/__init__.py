"""Tune a user's own PyTorch DDP job (scripts/tune; docs/tune.md).

inject: installed into the job's processes from outside (site/sitecustomize.py): records the
        job's steps and buckets (capture), times its steps (run), and applies a plan.
job_file: job.json and plan.json, declared once: their versions, fields and readers.
kept_files: the user's files kept before the job's first write in a tuning, and put back."""
