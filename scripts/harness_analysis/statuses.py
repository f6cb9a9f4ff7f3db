"""One sentence per status a run ended trials with: which points, why, what it means for the
reader. Every status the harness writes has its sentence (results.STATUSES; the reader refuses
any other)."""
from collections import Counter, defaultdict

from .labels import backend_label

MEANING = {
    "inconsistent": ("finished with replicas whose parameters differ between ranks", "their sums were "
                     "not bit-identical on every rank (a backend that adds in a different order on each "
                     "rank, as gloo's ring does, lets the replicas drift apart by rounding)",
                     "their throughput stands; loss and AUROC are rank 0's replica's"),
    "skipped": ("were not run", "the backend or model could not run them here",
                "nothing was measured for them; the rest of the sweep is unaffected"),
    "diverged": ("stopped when the loss became NaN or infinite", "the learning rate (after its scaling rule) "
                 "is too high for that configuration", "their convergence figures are not comparable"),
    "failed": ("failed", "an error on one of their ranks", "nothing was measured for them"),
    "hung": ("were stopped by the watchdog", "a collective did not complete within timeout_s",
             "nothing was measured for them; the run stopped there"),
}
NOISY = ("were measured while the machine was busy (timings varying beyond noise_cv_threshold, or a slow "
         "spell the quiet gate could not wait out)", "their intervals are wider: a verdict on them is less "
         "likely to clear the noise")


def where(records):
    """"gloo:ring at world 2 (5), 4 (3)"."""
    by_backend = defaultdict(Counter)
    for r in records:
        by_backend[backend_label(r)][r.world_size] += 1
    return "; ".join(f"{backend} at world " + ", ".join(f"{w} ({n})" for w, n in sorted(c.items(), key=lambda i: str(i[0])))
                     for backend, c in sorted(by_backend.items()))


def reasons(records):
    counted = Counter(r.reason or "no reason given" for r in records)
    return "; ".join(f"\"{text}\"" + (f" ({n})" if n > 1 else "") for text, n in counted.most_common(3))


def lines(records):
    """Sentences for every status other than ok, and for noisy trials."""
    out = []
    by_status = defaultdict(list)
    for r in records:
        by_status[r.status].append(r)
    for status, group in sorted(by_status.items()):
        if status == "ok":
            continue
        what, why, meaning = MEANING[status]
        out.append(f"**{status}** ({len(group)}): {where(group)} {what}: {why}; {meaning}. "
                   f"Reasons recorded: {reasons(group)}.")
    noisy = [r for r in records if r.noisy]
    if noisy:
        out.append(f"**noisy** ({len(noisy)}): {where(noisy)} {NOISY[0]}; {NOISY[1]}.")
    return out


def section(records):
    found = lines(records)
    if not found:
        return ""
    return "\n".join(["## Statuses", ""] + [f"- {line}" for line in found]) + "\n"
