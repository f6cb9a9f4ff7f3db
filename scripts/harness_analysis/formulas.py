"""Textbook allreduce cost formulas (Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan 2009):
per algorithm, the coefficients of latency alpha, time per byte sent beta and time per byte
reduced gamma at p ranks and n bytes."""
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
