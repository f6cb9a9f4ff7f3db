"""Whether the replay ranks configurations as the job does (scripts/tune --rank-check): the
predicted and measured gains of several configurations over the job's own, their order
compared pair by pair (Kendall's tau), and the mean prediction error."""


def _sign(value):
    return (value > 0) - (value < 0)


def overlap(a, b):
    """Whether two (ratio, low, high) intervals share a value: the two are not told apart."""
    return a[1] <= b[2] and b[1] <= a[2]


def order_agreement(predicted, measured):
    """predicted[i], measured[i]: configuration i's (ratio, low, high) gain over the job's own
    configuration (above 1: faster), the job's own included as (1, 1, 1). Returns Kendall's
    tau over every pair, the pairs ordered alike, the pairs ordered otherwise, and of those the
    ones whose measured intervals overlap (a swap the job's own noise allows)."""
    alike = otherwise = within_noise = 0
    count = len(predicted)
    for i in range(count):
        for j in range(i + 1, count):
            product = _sign(predicted[i][0] - predicted[j][0]) * _sign(measured[i][0] - measured[j][0])
            if product > 0:
                alike += 1
            elif product < 0:
                otherwise += 1
                within_noise += overlap(measured[i], measured[j])
    pairs = count * (count - 1) // 2
    tau = (alike - otherwise) / pairs if pairs else 1.0
    return tau, alike, otherwise, within_noise


def mean_error(predicted, measured):
    """The mean of |predicted / measured - 1| over the configurations' gains."""
    errors = [abs(p[0] / m[0] - 1) for p, m in zip(predicted, measured)]
    return sum(errors) / len(errors) if errors else 0.0


def summary(configurations, tau, alike, otherwise, within_noise, error):
    """The ranking check's verdict, as the Answer says it."""
    pairs = alike + otherwise
    if otherwise == 0:
        ordered = f"all {pairs} pairs of them, the job's own configuration included, ordered as predicted"
    else:
        ordered = (f"{alike} of {pairs} pairs of them, the job's own configuration included, "
                   f"ordered as predicted ({within_noise} of the other {otherwise} within the job's noise)")
    return (f"Measured in the job: {ordered}; Kendall's tau {tau:.2f} over {configurations} "
            f"configurations; mean |predicted / measured - 1| of the gains {error:.1%}.")
