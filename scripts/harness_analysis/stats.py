"""Small statistics with no dependencies: medians, quantiles, and the comparison rule the
report uses everywhere. Two figures differ only when their intervals do not overlap (Hoefler &
Belli's rule 8); a ratio is then the ratio of the two estimates."""
from dataclasses import dataclass
import math
import random

BOOTSTRAP = 2000


@dataclass(frozen=True)
class Estimate:
    """A figure (higher is better) with its interval."""
    value: float
    low: float
    high: float

    def clears(self, other):
        """Better than `other` beyond the noise: this interval lies wholly above the other's."""
        return self.low > other.high


@dataclass(frozen=True)
class Comparison:
    winner: str
    loser: str
    ratio: float          # winner's estimate over the loser's
    outside_noise: bool


def compare(name_a, a, name_b, b):
    """Who is faster, by how much, and whether the intervals say it is more than noise."""
    if b.value > a.value:
        name_a, a, name_b, b = name_b, b, name_a, a
    ratio = a.value / b.value if b.value > 0 else math.inf
    return Comparison(name_a, name_b, ratio, a.clears(b))


def median(values):
    v = sorted(values)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def quantile(values, q):
    """Linear-interpolated quantile q in [0, 1] of a non-empty sample."""
    v = sorted(values)
    position = q * (len(v) - 1)
    low = int(position)
    high = min(low + 1, len(v) - 1)
    return v[low] + (position - low) * (v[high] - v[low])


def ratio_interval(baseline, candidate, seed=1):
    """median(baseline) / median(candidate), with a 95% bootstrap interval: > 1 means the
    candidate's times are shorter."""
    rng = random.Random(seed)
    ratios = sorted(median(rng.choices(baseline, k=len(baseline))) /
                    median(rng.choices(candidate, k=len(candidate))) for _ in range(BOOTSTRAP))
    return (median(baseline) / median(candidate), ratios[int(0.025 * BOOTSTRAP)],
            ratios[int(0.975 * BOOTSTRAP) - 1])
