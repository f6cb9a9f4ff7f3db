"""Textbook collective cost formulas (Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan 2009;
Bruck et al. 1997): per collective and algorithm, the coefficients of latency alpha, time per
byte sent beta and time per byte reduced gamma at p ranks and n bytes, n being the whole buffer
as the collective trial counts it (nccl-tests' size: reduce_scatter's input, allgather's
output)."""
import math


def log2(p):
    return math.log2(p)


# Per formula: the coefficients of (alpha, beta, gamma) at p ranks and n bytes.
FORMULAS = {
    "ring": lambda p, n: (2 * (p - 1), 2 * (p - 1) / p * n, (p - 1) / p * n),
    "halving_doubling": lambda p, n: (2 * log2(p), 2 * (p - 1) / p * n, (p - 1) / p * n),
    "binary_tree": lambda p, n: (2 * log2(p), 2 * log2(p) * n, log2(p) * n),
    "recursive_doubling": lambda p, n: (log2(p), log2(p) * n, log2(p) * n),
}

# The other collectives, each with the algorithms their backends use.
COLLECTIVE_FORMULAS = {
    "allreduce": FORMULAS,
    "reduce_scatter": {
        "ring": lambda p, n: (p - 1, (p - 1) / p * n, (p - 1) / p * n),
        "recursive_halving": lambda p, n: (log2(p), (p - 1) / p * n, (p - 1) / p * n),
    },
    "allgather": {
        "ring": lambda p, n: (p - 1, (p - 1) / p * n, 0),
        "recursive_doubling": lambda p, n: (log2(p), (p - 1) / p * n, 0),
    },
    "broadcast": {
        "binomial_tree": lambda p, n: (log2(p), log2(p) * n, 0),
        "scatter_allgather": lambda p, n: (log2(p) + p - 1, 2 * (p - 1) / p * n, 0),
    },
    "alltoall": {
        "pairwise": lambda p, n: (p - 1, (p - 1) / p * n, 0),
        "bruck": lambda p, n: (log2(p), log2(p) / 2 * n, 0),
    },
}
