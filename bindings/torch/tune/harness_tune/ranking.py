"""Whether the replay ranks configurations as the job does (scripts/tune --rank-check): the
predicted and measured gains of several configurations over the job's own, their order
compared pair by pair (Kendall's tau), and the mean prediction error."""
from . import step_time


def _sign(value):
    return (value > 0) - (value < 0)


def overlap(a, b):
    """Whether two (ratio, low, high) intervals share a value."""
    return a[1] <= b[2] and b[1] <= a[2]


def order_agreement(predicted, measured, runs):
    """predicted[i], measured[i]: configuration i's (ratio, low, high) gain over the job's own
    configuration (above 1: faster), the job's own first as (1, 1, 1); runs[i]: its measured
    runs' step times. Returns Kendall's tau over every pair (a pair tied on either side counts
    for neither order), the pairs ordered alike, the pairs ordered otherwise, and of those the
    ones the job itself does not tell apart (the interval of their own ratio holds 1)."""
    alike = otherwise = within_noise = 0
    count = len(predicted)
    for i in range(count):
        for j in range(i + 1, count):
            product = _sign(predicted[i][0] - predicted[j][0]) * _sign(measured[i][0] - measured[j][0])
            if product > 0:
                alike += 1
            elif product < 0:
                otherwise += 1
                _, low, high = step_time.ratio(runs[i], runs[j])
                within_noise += low <= 1 <= high
    pairs = count * (count - 1) // 2
    tau = (alike - otherwise) / pairs if pairs else 1.0
    return tau, alike, otherwise, within_noise


def mean_error(predicted, measured):
    """The mean of |predicted / measured - 1| over the configurations' gains."""
    errors = [abs(p[0] / m[0] - 1) for p, m in zip(predicted, measured)]
    return sum(errors) / len(errors) if errors else 0.0


def summary(configurations, tau, alike, otherwise, within_noise, error):
    """The ranking check's verdict, as the Answer says it."""
    pairs = configurations * (configurations - 1) // 2
    if pairs == 1:
        ordered = "the one pair" if alike else "0 of 1 pair"
    else:
        ordered = f"all {pairs} pairs" if alike == pairs else f"{alike} of {pairs} pairs"
    if otherwise:
        if within_noise == 0:
            noise = "beyond the job's noise"
        elif otherwise == 1:
            noise = "within the job's noise"
        else:
            noise = f"{within_noise} of them within the job's noise"
        ordered += f" ordered as predicted, {otherwise} reversed ({noise})"
    else:
        ordered += " ordered as predicted" + (", the others tied" if alike < pairs else "")
    return (f"Measured in the job: of these and the job's own configuration, {ordered}; "
            f"Kendall's tau {tau:.2f} over {configurations} configurations; mean |predicted / "
            f"measured - 1| of the gains {error:.1%}.")
