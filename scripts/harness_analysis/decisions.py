"""Which backend is fastest, decided one message size or one sweep point at a time.

At each size (or point) the backends are ranked by their estimates, and the fastest is
compared with each other backend: ahead only where its interval clears the other's. A band
of sizes is then summarised from these per-size verdicts: never from one interval pooled over
different sizes, whose spread across sizes would read as noise.
"""
from dataclasses import dataclass

from .frames import MEASURED, with_bus_traffic
from .stats import Estimate, compare


@dataclass
class Verdict:
    """One message size or sweep point: the backends, fastest first, with their estimates."""
    position: object                 # the bytes, or the sweep point's description
    ranking: list                    # [(backend, Estimate)], fastest first

    @property
    def best(self):
        return self.ranking[0][0]

    def against(self, other):
        """The best against `other` (a Comparison), or None where other was not measured."""
        estimates = dict(self.ranking)
        if other not in estimates or other == self.best:
            return None
        return compare(self.best, estimates[self.best], other, estimates[other])


def verdict_of(position, estimates):
    """estimates: {backend: Estimate}; None when fewer than two backends were measured."""
    measured = {name: e for name, e in estimates.items() if e.value is not None and e.value == e.value}
    if len(measured) < 2:
        return None
    ranking = sorted(measured.items(), key=lambda item: -item[1].value)
    return Verdict(position, ranking)


def estimates_by_backend(rows):
    """{backend: Estimate} from frame rows with median, lo and hi (one sweep point each)."""
    per_backend = {}
    for backend, group in rows.groupby("backend"):
        per_backend[backend] = Estimate(float(group["median"].median()), float(group["lo"].min()),
                                        float(group["hi"].max()))
    return per_backend


def size_verdicts(coll):
    """{(collective, dtype, op, world_size): [Verdict per message size, smallest first]} of a
    collective frame (the key: frames.MEASURED's values, then the world size): backends are
    compared only where they measured the same thing, and where there is bus traffic."""
    out = {}
    for key, g in with_bus_traffic(coll).groupby(MEASURED + ["world_size"]):
        verdicts = []
        for size, rows in g.drop_duplicates(["point", "bytes"]).groupby("bytes"):
            v = verdict_of(int(size), estimates_by_backend(rows[rows["median"] > 0]))
            if v:
                verdicts.append(v)
        if verdicts:
            out[key[:-1] + (int(key[-1]),)] = verdicts
    return out
