"""Tune a user's own PyTorch DDP job (scripts/tune; docs/tune.md).

tuner: the tuning: capture, replay, plan, verify, the Answer (python3 -m harness_tune.tuner).
launch: the user's launch command, one run of the job, the harness's replay trials.
folder: the results folder of a tuning.
inject: installed into the job's processes from outside (site/sitecustomize.py): records the
        job's steps and buckets (capture), times its steps (run), and applies a plan.
job_file: job.json and plan.json: readers, writers and schema, from file_formats.json, their
          one declaration (the harness's C++ reader of job.json is compiled with it too).
kept_files: the user's files kept before the job's first write in a tuning, and put back.

Only inject, job_file and kept_files run inside the user's job (on its Python); the tuner runs on
Debian's python3 beside the analysis package, whose statistics it shares."""
