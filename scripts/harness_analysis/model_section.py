"""The report's "Cost model" section: the alpha-beta-gamma fits of cost_model.py on the sweep's
own fp32 allreduce points (best formula per backend, its latency, link speed and fit quality), their
errors on points the fit never saw (the largest world size, held out, where three or more were
measured) and on the training steps' communication, and the fusion size the model predicts
best under overlap.

A fit gives advice only when it is good enough to: its held-out median relative error (or,
without a hold-out, its own median relative error) within QUALITY_BOUND. A poorer fit is shown
with "poor fit: not used for advice" and nothing is predicted from it.
"""
import pandas as pd

from . import cost_model, units
from .tables import markdown_table

QUALITY_BOUND = 0.25


def fit_error(fit, held_out):
    """The error that decides a fit's use: held out where measured, else in-sample."""
    if held_out:
        return held_out["formulas"][held_out["best"]]["median_rel_error"], "held out"
    return fit["formulas"][fit["best"]]["quality"]["median_rel_error"], "in sample"


def usable(fits, holdout):
    """{fit name: (error, kind, usable)}."""
    out = {}
    for name, f in fits.items():
        error, kind = fit_error(f, holdout.get(f["backend"]))
        out[name] = (error, kind, error <= QUALITY_BOUND)
    return out


def fit_table(fits, quality, oversubscribed):
    rows = []
    for name, f in fits.items():
        best = f["formulas"][f["best"]]
        params, q = best["params"], best["quality"]
        error, kind, ok = quality[name]
        rows.append({"backend @ link": name, "worlds": ", ".join(f"{w} (oversubscribed)" if oversubscribed(w) else str(w) for w in f["worlds"]),
                     "formula": f["best"] if f["formulas_distinguishable"] else "(p=2: all agree)",
                     "alpha": units.duration_s(params["alpha_s"]),
                     "link": units.bandwidth_gbps(params["link_gbps"]) if params["link_gbps"] else "inf",
                     "R²": units.significant(q["r2"]) if q["r2"] is not None else "",
                     "median rel. err": f"{units.percent(error)} ({kind})",
                     "use": "yes" if ok else "poor fit: not used for advice"})
    return pd.DataFrame(rows)


def holdout_fits(points, gamma):
    worlds = sorted({q["p"] for q in points})
    if len(worlds) < 3:
        return {}, worlds
    return cost_model.holdout_errors(points, gamma, "world", str(worlds[-1])), worlds


def holdout_lines(errors, worlds):
    if not errors:
        return [f"Held-out check: needs three or more world sizes (these results have {', '.join(map(str, worlds))}); run "
                "`experiments/cost_model.json` and `scripts/model DIR --holdout world=4`.", ""]
    rows = [{"backend": backend, "formula": h["best"], "trained on (points)": h["trained_on"],
             "held out (points)": h["held_out"],
             "median rel. err": units.percent(h["formulas"][h["best"]]["median_rel_error"]),
             "max rel. err": units.percent(h["formulas"][h["best"]]["max_rel_error"])}
            for backend, h in errors.items()]
    return [f"Predicting world size {worlds[-1]} from {', '.join(map(str, worlds[:-1]))} (fitted without it):", "",
            markdown_table(pd.DataFrame(rows)), ""]


def step_lines(good_fits, steps, gamma):
    """(lines, whether the fits describe the training steps well enough for fusion advice)."""
    rows = cost_model.step_predictions(good_fits, steps, gamma)
    if not rows:
        return [], True
    errors = sorted(s["rel_error"] for s in rows)
    error = errors[len(errors) // 2]
    good = error <= QUALITY_BOUND
    verdict = "" if good else (
        f" That is beyond {units.percent(QUALITY_BOUND)}: the fits do not describe the training steps' "
        "communication, so no step time or fusion size is predicted from them.")
    return [f"Training steps' communication time predicted from the usable fits and their gradient bytes: median "
            f"relative error {units.percent(error)} over {len(errors)} trials.{verdict}", ""], good


def fusion_lines(good_fits, steps, gamma):
    fusion = cost_model.fusion_advice(good_fits, steps, gamma)
    if not fusion:
        return []
    table = pd.DataFrame([{"backend @ link": r["fit"], "model": r["model"], "N": r["p"],
                           "gradient": units.size_bytes(r["gradient_bytes"]),
                           "best fusion size": units.size_bytes(r["best_fusion_bytes"]),
                           "exposed comm": units.duration_s(r["exposed_ms"] / 1e3),
                           "with one bucket": units.duration_s(r["one_bucket_exposed_ms"] / 1e3)} for r in fusion])
    return ["Best fusion size with overlap, predicted from the usable fits (backward spread over the measured "
            "compute time; without overlap one bucket is always best in this model):", "", markdown_table(table), ""]


def section(records, label, gamma=None, oversubscribed=lambda world: False):
    """Markdown, or "" when the records hold no fp32 allreduce points at world size > 1. gamma
    (s per byte reduced) is measured on this host unless given; oversubscribed(world) marks world
    sizes whose timings measure the scheduler."""
    # gamma is an fp32 sum's, and the gradients the steps reduce are fp32: other dtypes' points
    # would be fitted to a reduction they did not do.
    fp32 = [r for r in records if r.kind != "collective" or r.settings["dtype"] == "fp32"]
    points, steps = cost_model.points_and_steps(fp32, label)
    if not points:
        return ""
    gamma = gamma or cost_model.measure_gamma()
    fits = cost_model.fit_all(points, gamma)
    if not fits:
        return ""
    errors, worlds = holdout_fits(points, gamma)
    quality = usable(fits, errors)
    good = {name: f for name, f in fits.items() if quality[name][2]}
    lines = ["## Cost model", "",
             f"alpha-beta-gamma fits to this sweep's fp32 allreduce points (gamma, the local fp32 sum, measured: "
             f"{units.bandwidth_gbps(1e-9 / gamma)}). A fit is used for advice only when its median relative error "
             f"(held out where a world size could be held out) is within {units.percent(QUALITY_BOUND)}. "
             "`scripts/model` writes the full tables, the curves and predictions at 8-1024 ranks.", "",
             markdown_table(fit_table(fits, quality, oversubscribed)), ""]
    lines += holdout_lines(errors, worlds)
    if not good:
        lines += ["No fit is good enough for advice: no step time or fusion size is predicted from these points.", ""]
        return "\n".join(lines) + "\n"
    step_text, steps_described = step_lines(good, steps, gamma)
    lines += step_text
    if steps_described:
        lines += fusion_lines(good, steps, gamma)
    return "\n".join(lines) + "\n"
