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


def mean(values):
    return sum(values) / len(values) if values else None


def quantile(values, q):
    """Linear-interpolated quantile q in [0, 1] of a non-empty sample."""
    v = sorted(values)
    position = q * (len(v) - 1)
    low = int(position)
    high = min(low + 1, len(v) - 1)
    return v[low] + (position - low) * (v[high] - v[low])


def ratio_interval(baseline, candidate, seed=1, center=median):
    """center(baseline) / center(candidate) (the medians unless told), with a 95% bootstrap
    interval: > 1 means the candidate's times are shorter."""
    rng = random.Random(seed)
    ratios = sorted(center(rng.choices(baseline, k=len(baseline))) /
                    center(rng.choices(candidate, k=len(candidate))) for _ in range(BOOTSTRAP))
    return (center(baseline) / center(candidate), ratios[int(0.025 * BOOTSTRAP)],
            ratios[int(0.975 * BOOTSTRAP) - 1])


# Student's t, two-sided 95%: the quantile for each number of degrees of freedom (a df between
# two rows takes the row below it, the wider interval).
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000}


def t_975(df):
    rows = [row for row in T_975 if row <= df]
    return T_975[max(rows)] if rows else T_975[1]


def center_of_runs(runs, center=median):
    """One figure for samples that come in runs: the geometric mean of the runs' centers (their
    medians unless told), as ratio_interval_of_runs compares them."""
    logs = [math.log(center(run)) for run in runs if run]
    return math.exp(sum(logs) / len(logs)) if logs else None


def ratio_interval_of_runs(baseline_runs, candidate_runs, seed=1, center=median):
    """As ratio_interval, for samples that come in runs (lists of step times, one per start of
    the program). Two starts of one program can differ by more than either's steps vary: an
    interval over pooled steps hides that, and two samples of one configuration then often
    seem to differ. So the ratio is that of the runs' centers (medians unless told; geometric
    means of them), and its interval is Welch's t-interval on their logarithms, widened where
    needed to the steps' own bootstrap interval (runs that agree closely still leave their
    steps' noise). With one run on a side there is no spread between runs to see: the steps'
    interval alone."""
    pooled = lambda runs: [t for run in runs for t in run]  # noqa: E731
    steps_only = ratio_interval(pooled(baseline_runs), pooled(candidate_runs), seed, center)
    a = [math.log(center(run)) for run in baseline_runs if run]
    b = [math.log(center(run)) for run in candidate_runs if run]
    if len(a) < 2 or len(b) < 2:
        return steps_only
    variance = lambda xs: sum((x - sum(xs) / len(xs)) ** 2 for x in xs) / (len(xs) - 1)  # noqa: E731
    va, vb = variance(a) / len(a), variance(b) / len(b)
    difference = sum(a) / len(a) - sum(b) / len(b)
    if va + vb == 0:
        return (math.exp(difference), min(steps_only[1], math.exp(difference)),
                max(steps_only[2], math.exp(difference)))
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = t_975(df) * math.sqrt(va + vb)
    return (math.exp(difference), min(math.exp(difference - half), steps_only[1]),
            max(math.exp(difference + half), steps_only[2]))
