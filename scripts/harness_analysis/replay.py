"""The Answer for replay trials (kind replay, a captured PyTorch DDP job replayed): per job (its
content: the file's hash in the record's model_files, so one path holding two captures is two
jobs), the configuration (backend, how it was joined, bucket_cap_mb, compression) whose replayed
step is shortest,
every repetition's steps pooled, against the job's own configuration (its backend and
bucket_cap_mb, uncompressed) by the ratio of median steps with its 95% bootstrap interval.
Trials whose ranks shared CPUs (oversubscribed) time the scheduler and are left out."""
from . import stats


def configuration(record):
    """A replay's configuration; records written before the join setting joined through MPI."""
    s = record.settings
    return (s["backend"], s.get("join", "mpi"), float(s["bucket_cap_mb"]), s["compression"])


def label(config):
    backend, join, cap, compression = config
    return (f"{backend}" + (", joined as inside PyTorch" if join == "bootstrap" else "") +
            f", bucket_cap_mb {cap:g}" + ("" if compression == "none" else f", {compression}"))


def answer_lines(records):
    jobs = {}
    for r in records:
        if r.kind == "replay" and r.measured and r.step_times_ms and not r.get("oversubscribed"):
            content = (r.get("model_files") or {}).get("job", r.job.file)
            job = jobs.setdefault(content, {"file": r.job.file, "steps": {},
                                            "own": (r.job.backend, "mpi", float(r.job.bucket_cap_mb), "none")})
            job["steps"].setdefault(configuration(r), []).extend(r.step_times_ms)
    lines = []
    for job in jobs.values():
        file = job["file"]
        steps, own = job["steps"], job["own"]
        best = min(steps, key=lambda config: stats.median(steps[config]))
        text = f"replay of {file}: **{label(best)}** {stats.median(steps[best]):.1f} ms a step"
        if own in steps and own != best:
            ratio, low, high = stats.ratio_interval(steps[own], steps[best])
            text += (f", ×{ratio:.2f} [{low:.2f}, {high:.2f}] over the job's own ({label(own)})" if low > 1
                     else f"; the job's own ({label(own)}) within noise")
        lines.append(text)
    return lines
