"""The two-level cost model: ranks that share a host exchange data through memory, hosts through
a network, and one alpha-beta link cannot describe both. Used by scripts/model when a run's
trials cross hosts (meta.json names each rank's host).

Each backend gets two fits of the cost model's formulas (cost_model.FORMULAS):

    intra   its trials whose ranks all share one host
    inter   its flat trials that span hosts; a flat algorithm over ranks on several hosts moves
            at the speed of its slowest hop, a network hop, and when the rank order makes c of
            a ring's flows leave one host at once they share that host's link: the per-byte term
            is beta_inter x c (c = 1 when ranks are numbered host by host)

A hierarchical trial (shm within hosts, backend X across hosts; h hosts of m ranks) is predicted
from its parts' fits, never from its own points, the way the hierarchical backend runs it: an
intra-host reduce-scatter of n bytes, an inter-host allreduce of n/m bytes among the h hosts
with the m local ranks' flows sharing each host's link (c = m), and an intra-host allgather —
the two halves of one intra-host allreduce (k = 1); a run whose record says the host's level
went by allreduces (an intra plugin without the two collectives, older runs) made two (k = 2):

    T = k T_intra(m, n) + T_inter(h, n/m, c = m)

Held out (world=N): both levels are fitted without world size N and every trial of size N,
flat or hierarchical, is predicted; the one-level fit (cost_model.holdout_errors) is scored on
the same trials beside it.
"""
from collections import Counter

import numpy as np
from scipy.optimize import nnls

from .formulas import FORMULAS
from .record_schema import as_meta

INTRA, INTER = "intra", "inter"
# Layouts (hosts, ranks per host) where flat and hierarchical are compared by prediction.
SCALE_LAYOUTS = [(2, 2), (4, 2), (8, 8), (64, 8)]
SCALE_BYTES = [65536, 1 << 20, 16 << 20]
# Held-out errors are also given apart below and from this size: small messages measure
# latency (and, where ranks share cores, the scheduler), large ones the links.
BAND_BYTES = 65536


def layout(meta, world_size):
    """A trial's group (the first world_size ranks) as {"hosts", "per_host", "contention"}, or
    None when meta.json does not place the ranks. per_host is the most ranks of any host;
    contention the most ring flows (rank i to i+1) that leave one host."""
    ranks = as_meta(meta).binding.ranks[:world_size]
    if len(ranks) < world_size or world_size < 1:
        return None
    hosts = [r.host for r in ranks]
    leaving = Counter(hosts[i] for i in range(world_size) if hosts[i] != hosts[(i + 1) % world_size])
    return {"hosts": len(set(hosts)), "per_host": max(Counter(hosts).values()),
            "contention": max(leaving.values(), default=1)}


def crosses_hosts(points):
    return any((q.get("layout") or {}).get("hosts", 1) > 1 for q in points)


def level_of(q):
    return INTER if q["layout"]["hosts"] > 1 else INTRA


def _coefficients(formula, p, n, contention=1):
    a, b, g = FORMULAS[formula](p, n)
    return a, b * contention, g


def _time(fit, p, n, gamma, contention=1):
    a, b, g = _coefficients(fit["formula"], p, n, contention)
    return a * fit["alpha_s"] + b * fit["beta_s_per_byte"] + g * gamma


def _fit_formula(formula, points, gamma):
    """alpha, beta >= 0 on relative error, as the one-level fit does, with each point's
    contention on its per-byte term."""
    rows, targets = [], []
    for q in points:
        a, b, g = _coefficients(formula, q["p"], q["n"], q["layout"]["contention"] if level_of(q) == INTER else 1)
        rows.append([a / q["t"], b / q["t"]])
        targets.append((q["t"] - g * gamma) / q["t"])
    (alpha, beta), _ = nnls(np.array(rows), np.array(targets))
    fit = {"formula": formula, "alpha_s": float(alpha), "beta_s_per_byte": float(beta),
           "link_gbps": 1e-9 / beta if beta > 0 else None}
    errors = [abs(predict_point(q, {INTRA: fit, INTER: fit}, gamma) / q["t"] - 1) for q in points]
    return dict(fit, median_rel_error=float(np.median(errors)), max_rel_error=float(max(errors)),
                points=len(points), worlds=sorted({q["p"] for q in points}))


def fit_level(points, gamma):
    """The best formula's fit to one backend's points at one level (ring where every point has
    two ranks: there all formulas agree)."""
    if len({q["n"] for q in points}) < 2:
        return None
    fits = [_fit_formula(f, points, gamma) for f in FORMULAS]
    if {q["p"] for q in points} == {2}:
        return next(f for f in fits if f["formula"] == "ring")
    return min(fits, key=lambda f: f["median_rel_error"])


def fit_levels(points, gamma):
    """{(backend, link label): {"intra": fit, "inter": fit}} from flat points with a layout."""
    groups = {}
    for q in points:
        if q.get("layout") and not q.get("levels"):
            groups.setdefault((q["backend"], q["label"], level_of(q)), []).append(q)
    fits = {}
    for (backend, label, level), group in sorted(groups.items()):
        fit = fit_level(group, gamma)
        if fit:
            fits.setdefault((backend, label), {})[level] = fit
    return fits


def predict_point(q, levels, gamma):
    """Seconds for a flat point from its backend's level fits ({"intra": fit, "inter": fit})."""
    shape = q["layout"]
    if shape["hosts"] == 1:
        return _time(levels[INTRA], q["p"], q["n"], gamma)
    return _time(levels[INTER], q["p"], q["n"], gamma, shape["contention"])


def predict_hierarchical(intra, inter, hosts, per_host, n, gamma, intra_passes=2):
    """Seconds for the hierarchical allreduce of n bytes over hosts x per_host ranks from the
    intra backend's intra fit and the inter backend's inter fit (None where one is missing);
    intra_passes: intra-host allreduces' worth of work (1 by halves, 2 by allreduces)."""
    within = intra_passes * _time(intra, per_host, n, gamma) if per_host > 1 else 0.0
    if hosts == 1:
        return within
    if inter is None:
        return None
    return within + _time(inter, hosts, n / per_host, gamma, contention=per_host)


def predict(q, fits, gamma):
    """A point's predicted seconds from the level fits, or None when a needed fit is missing."""
    if q.get("levels"):
        intra_name, inter_name = q["levels"]
        intra = fits.get((intra_name, q["label"]), {}).get(INTRA)
        inter = fits.get((inter_name, q["label"]), {}).get(INTER)
        if intra is None and q["layout"]["per_host"] > 1:
            return None
        return predict_hierarchical(intra, inter, q["layout"]["hosts"], q["layout"]["per_host"], q["n"], gamma,
                                    intra_passes=1 if q.get("by_halves") else 2)
    levels = fits.get((q["backend"], q["label"]), {})
    needed = INTER if q["layout"]["hosts"] > 1 else INTRA
    return predict_point(q, levels, gamma) if needed in levels else None


def errors_by_backend(points, predicted):
    """{backend: {"median_rel_error", "max_rel_error", "points", and the medians below and from
    BAND_BYTES}} of predicted(q) (seconds, or None where it cannot predict)."""
    errors = {}
    for q in points:
        seconds = predicted(q)
        if seconds is not None:
            errors.setdefault(q["backend"], []).append((q["n"], abs(seconds - q["t"]) / q["t"]))
    out = {}
    for backend, pairs in sorted(errors.items()):
        every = [e for _, e in pairs]
        below = [e for n, e in pairs if n < BAND_BYTES]
        above = [e for n, e in pairs if n >= BAND_BYTES]
        out[backend] = {"median_rel_error": float(np.median(every)), "max_rel_error": float(max(every)),
                        "points": len(every),
                        "median_rel_error_below_band": float(np.median(below)) if below else None,
                        "median_rel_error_from_band": float(np.median(above)) if above else None}
    return out


def holdout(points, gamma, world, one_level=None):
    """Both levels fitted without world size `world`, every trial of that size predicted; with
    one_level(q) (the one-level fit's held-out prediction, seconds or None), its errors on the
    same trials beside them."""
    trained = fit_levels([q for q in points if q["p"] != world], gamma)
    held = [q for q in points if q["p"] == world and q.get("layout")]
    out = {"world": world, "band_bytes": BAND_BYTES,
           "errors": errors_by_backend(held, lambda q: predict(q, trained, gamma))}
    if one_level:
        out["one_level"] = errors_by_backend(held, one_level)
    return out


def scale_predictions(fits, gamma, intra_backend="shm"):
    """Per inter-host backend with both fits: flat against hierarchical (intra_backend within
    hosts, by reduce-scatter + allgather as it runs now) busbw at SCALE_LAYOUTS, ranks numbered
    host by host."""
    rows = []
    for (backend, label), levels in sorted(fits.items()):
        intra = fits.get((intra_backend, label), {}).get(INTRA)
        if INTER not in levels or intra is None:
            continue
        for hosts, per_host in SCALE_LAYOUTS:
            p = hosts * per_host
            for n in SCALE_BYTES:
                flat = _time(levels[INTER], p, n, gamma)
                hier = predict_hierarchical(intra, levels[INTER], hosts, per_host, n, gamma, intra_passes=1)
                busbw = lambda t: n / t * 2 * (p - 1) / p / 1e9  # noqa: E731
                rows.append({"backend": backend, "label": label, "hosts": hosts, "per_host": per_host, "bytes": n,
                             "flat_busbw_gbps": busbw(flat), "hierarchical_busbw_gbps": busbw(hier),
                             "hierarchical_over_flat": flat / hier})
    return rows


def model(points, gamma, holdout_world=None, one_level=None):
    """The two-level section of model.json: level fits, in-sample errors, the held-out check
    (beside the one-level fit's predictions one_level(q), where given), and flat against
    hierarchical at scale."""
    fits = fit_levels(points, gamma)
    placed = [q for q in points if q.get("layout")]
    out = {"levels": {f"{b} @ {label}": levels for (b, label), levels in fits.items()},
           "in_sample": errors_by_backend(placed, lambda q: predict(q, fits, gamma)),
           "scale": scale_predictions(fits, gamma)}
    if holdout_world is not None:
        out["holdout"] = holdout(points, gamma, holdout_world, one_level)
    return out


def percent(value):
    return "" if value is None else f"{value:.1%}"


def markdown(section):
    """model.md's "Two levels" section."""
    lines = ["## Two levels: within a host and across hosts", "",
             "| backend @ link | level | formula | worlds | alpha (us) | beta (GB/s) | median rel. err | max rel. err |",
             "|---|---|---|---|---|---|---|---|"]
    for name, levels in section["levels"].items():
        for level, f in sorted(levels.items()):
            gbps = f"{f['link_gbps']:.3g}" if f["link_gbps"] else "inf"
            lines.append(f"| {name} | {level} | {f['formula']} | {f['worlds']} | {f['alpha_s'] * 1e6:.2f} | {gbps} | "
                         f"{f['median_rel_error']:.1%} | {f['max_rel_error']:.1%} |")
    held = section.get("holdout")
    if held:
        band = f"{held['band_bytes'] // 1024} KB"
        lines += ["", f"### World size {held['world']} held out: fitted without it, predicted", "",
                  f"Median relative error over all sizes, below {band} and from {band}; the one-level fit "
                  "(one link for both levels) on the same trials beside it.", "",
                  f"| backend | points | two-level | below {band} | from {band} | max | one-level | below {band} | from {band} |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for backend, e in held["errors"].items():
            one = (held.get("one_level") or {}).get(backend)
            one_cells = ([percent(one["median_rel_error"]), percent(one["median_rel_error_below_band"]),
                          percent(one["median_rel_error_from_band"])] if one else ["no fit", "", ""])
            lines.append(f"| {backend} | {e['points']} | {percent(e['median_rel_error'])} | "
                         f"{percent(e['median_rel_error_below_band'])} | {percent(e['median_rel_error_from_band'])} | "
                         f"{percent(e['max_rel_error'])} | " + " | ".join(one_cells) + " |")
    if section["scale"]:
        lines += ["", "### Flat against hierarchical, predicted (ranks numbered host by host; busbw GB/s)", "",
                  "| inter backend @ link | hosts x ranks | bytes | flat | hierarchical | hierarchical / flat |",
                  "|---|---|---|---|---|---|"]
        for r in section["scale"]:
            lines.append(f"| {r['backend']} @ {r['label']} | {r['hosts']} x {r['per_host']} | {r['bytes']} | "
                         f"{r['flat_busbw_gbps']:.3g} | {r['hierarchical_busbw_gbps']:.3g} | {r['hierarchical_over_flat']:.2f} |")
    return "\n".join(lines) + "\n"
