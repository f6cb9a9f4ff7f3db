"""scripts/plot's "Cost model" section of report.md (imported, not run): the alpha-beta-gamma
fits of scripts/cost_model.py on the sweep's own allreduce points (best formula per backend, its
latency, link speed and fit quality), their prediction errors on points the fit never saw (the
largest world size, held out, where three or more were measured) and on the training steps'
communication, and the fusion size the model predicts best under overlap for each trained
model at the measured world sizes and at 64 and 1024 ranks.
"""
import cost_model
import pandas as pd


def fit_table(fits):
    rows = []
    for name, f in fits.items():
        best = f["formulas"][f["best"]]
        params, quality = best["params"], best["quality"]
        rows.append({"backend @ link": name, "worlds": ", ".join(map(str, f["worlds"])),
                     "formula": f["best"] if f["formulas_distinguishable"] else "(p=2: all agree)",
                     "alpha (us)": f"{params['alpha_s'] * 1e6:.2f}",
                     "link (GB/s)": f"{params['link_gbps']:.3g}" if params["link_gbps"] else "inf",
                     "R^2": f"{quality['r2']:.3f}" if quality["r2"] is not None else "",
                     "median rel. err": f"{quality['median_rel_error']:.1%}"})
    return pd.DataFrame(rows)


def holdout_lines(points, gamma, markdown_table):
    worlds = sorted({q["p"] for q in points})
    if len(worlds) < 3:
        return [f"Held-out check: needs three or more world sizes (these results have {', '.join(map(str, worlds))}); run "
                "`experiments/cost_model.json` and `scripts/model DIR --holdout world=4`.", ""]
    errors = cost_model.holdout_errors(points, gamma, "world", str(worlds[-1]))
    rows = [{"backend": backend, "formula": h["best"], "trained on (points)": h["trained_on"],
             "held out (points)": h["held_out"],
             "median rel. err": f"{h['formulas'][h['best']]['median_rel_error']:.1%}",
             "max rel. err": f"{h['formulas'][h['best']]['max_rel_error']:.1%}"}
            for backend, h in errors.items()]
    return [f"Predicting world size {worlds[-1]} from {', '.join(map(str, worlds[:-1]))} (fitted without it):", "",
            markdown_table(pd.DataFrame(rows)), ""]


def section(records, label, markdown_table):
    """Markdown, or "" when the records hold no allreduce points at world size > 1."""
    points, steps = cost_model.points_and_steps(records, label)
    if not points:
        return ""
    gamma = cost_model.measure_gamma()
    fits = cost_model.fit_all(points, gamma)
    if not fits:
        return ""
    lines = ["## Cost model", "",
             f"alpha-beta-gamma fits to this sweep's allreduce points (gamma, the local fp32 sum, measured: "
             f"{1e-9 / gamma:.2f} GB/s; `scripts/model` writes the full tables, the curves and predictions "
             "at 8-1024 ranks):", "", markdown_table(fit_table(fits)), ""]
    lines += holdout_lines(points, gamma, markdown_table)
    step_rows = cost_model.step_predictions(fits, steps, gamma)
    if step_rows:
        errors = sorted(s["rel_error"] for s in step_rows)
        lines += [f"Training steps' communication time predicted from the fit and their gradient bytes: median "
                  f"relative error {errors[len(errors) // 2]:.0%} over {len(errors)} trials.", ""]
    fusion = cost_model.fusion_advice(fits, steps, gamma)
    if fusion:
        table = pd.DataFrame([{"backend @ link": r["fit"], "model": r["model"], "N": r["p"],
                               "gradient bytes": r["gradient_bytes"], "best fusion bytes": r["best_fusion_bytes"],
                               "exposed comm (ms)": f"{r['exposed_ms']:.3f}",
                               "with one bucket (ms)": f"{r['one_bucket_exposed_ms']:.3f}"} for r in fusion])
        lines += ["Best fusion size with overlap, predicted (backward spread over the measured compute time; "
                  "without overlap one bucket is always best in this model):", "", markdown_table(table), ""]
    return "\n".join(lines) + "\n"
