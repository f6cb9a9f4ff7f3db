"""Numbers as people read them: three significant digits and a unit that fits (402k samples/s,
12.3 µs, 5.70 GB/s, 64 MB), never scientific notation."""
import math

_RATE_PREFIXES = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]


def significant(value, digits=3):
    """`value` to `digits` significant digits, written out in full (no exponent)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    rounded = round(value, decimals)
    # Rounding can carry into the next magnitude (999.6 -> 1000): keep the digits honest.
    if rounded != 0 and math.floor(math.log10(abs(rounded))) > magnitude:
        decimals = max(decimals - 1, 0)
    return f"{rounded:.{decimals}f}"


def count(value, unit=""):
    """A rate or count with a metric prefix: 402k, 1.20M (samples/s)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    for scale, prefix in _RATE_PREFIXES:
        if abs(value) >= scale * 0.9995:
            return f"{significant(value / scale)}{prefix}{unit}"
    return f"{significant(value)}{unit}"


def samples_per_s(value):
    return count(value, " samples/s")


def bandwidth_gbps(value):
    """GB/s in as many bytes per second as fit: 5.70 GB/s, 312 MB/s, 5.70 kB/s."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    bytes_per_s = value * 1e9
    for scale, unit in ((1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s")):
        if abs(bytes_per_s) >= scale * 0.9995:
            return f"{significant(bytes_per_s / scale)} {unit}"
    return f"{significant(bytes_per_s)} B/s"


def duration_s(value):
    """Seconds as ns, µs, ms or s: 12.3 µs, 4.56 ms."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if abs(value) >= scale * 0.9995:
            return f"{significant(value / scale)} {unit}"
    return f"{significant(value / 1e-9)} ns"


def size_bytes(value):
    """Message sizes in powers of two, as nccl-tests' users read them: 4 B, 16 KB, 64 MB."""
    value = int(value)
    for shift, unit in ((30, "GB"), (20, "MB"), (10, "KB")):
        if value >= 1 << shift:
            scaled = value / (1 << shift)
            return f"{significant(scaled)} {unit}" if not scaled.is_integer() else f"{int(scaled)} {unit}"
    return f"{value} B"


def ratio(value):
    """×1.11, ×41.2."""
    return f"×{significant(value)}"


def percent(value):
    return f"{significant(100 * value)}%"


def plain(value):
    """A table cell: integers as integers, other floats to 3 significant digits, text as is."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return significant(value)
    return str(value)
