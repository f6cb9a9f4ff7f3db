"""How the tuner sums up a run of steps, measured in the job or replayed: by their mean, the
time the run's steps took divided by their count, which is what the job's epochs cost. Not by
their median: a job of a few milliseconds a step has two kinds of step, short ones and ones
that meet one of PyTorch's slow collective calls (several milliseconds), and a run's median
jumps between the two kinds from one run to the next while its mean moves little (the seed's
autoencoder on gloo, three runs: medians 1.3, 1.6 and 2.1 ms, means 2.1, 2.4 and 2.5 ms).
Runs are compared as stats.ratio_interval_of_runs compares them, on these means."""
from harness_analysis import stats


def typical(runs):
    """One step time for a configuration's runs: the geometric mean of their mean steps."""
    return stats.center_of_runs(runs, center=stats.mean)


def ratio(baseline_runs, candidate_runs):
    """typical(baseline) / typical(candidate) with its 95% interval (above 1: the candidate's
    steps are shorter)."""
    return stats.ratio_interval_of_runs(baseline_runs, candidate_runs, center=stats.mean)
