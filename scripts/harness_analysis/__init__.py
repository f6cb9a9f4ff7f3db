"""harness's analysis package: everything that reads a results folder.

results (the one reader), labels, units, stats, frames (pandas tables), decisions (per-size
and per-point verdicts), answer (the report's Answer), statuses, tables, plots, overlap,
lr_scaling, advice, cost_model and model_section, method (Hoefler & Belli's twelve rules),
report (scripts/plot), gbench_format and gbench_export (scripts/export_gbench), repeatability,
regression_gate and regression_selftest (scripts/regression*), overlap_benchmark and
peer_benchmark. Entry points live in scripts/ and run a module with `python3 -m`.
"""
