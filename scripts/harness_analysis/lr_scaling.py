"""Does the learning rate need to scale with the number of workers? Per model and optimizer:
which rule (none, linear, sqrt) keeps the final loss and AUROC flattest as N grows, and whether
the Horovod tutorial's claim (no scaling needed) holds, by a stated criterion."""
import math

import pandas as pd

from . import units
from .tables import markdown_table

RULE_ORDER = ["none", "linear", "sqrt"]
CRITERION = "loss ratio within 10% and AUROC not down by more than 0.02"


def _rows_and_verdicts(data):
    rows, verdicts = [], []
    for (model, optimizer), g in data.groupby(["model", "optimizer"]):
        largest = g["world_size"].max()
        per_rule = {}
        for rule in [r for r in RULE_ORDER if r in set(g["lr_rule"])]:
            for warmup, w in g[g["lr_rule"] == rule].groupby("warmup"):
                one, big = w[w["world_size"] == 1], w[w["world_size"] == largest]
                if one.empty or big.empty:
                    continue
                loss_ratio = big["final_loss"].mean() / one["final_loss"].mean()
                auroc_change = big["auroc"].mean() - one["auroc"].mean()
                rows.append({"model": model, "optimizer": optimizer, "rule": rule, "warmup epochs": warmup,
                             "loss N=1": one["final_loss"].mean(), f"loss N={largest}": big["final_loss"].mean(),
                             "loss sd": big["final_loss"].std(), "loss ratio": loss_ratio,
                             "AUROC N=1": one["auroc"].mean(), f"AUROC N={largest}": big["auroc"].mean(),
                             "AUROC sd": big["auroc"].std()})
                per_rule.setdefault(rule, []).append((abs(math.log(loss_ratio)) if loss_ratio > 0 else math.inf,
                                                      auroc_change, loss_ratio))
        if per_rule:
            verdicts.append((model, optimizer, largest, per_rule))
    return rows, verdicts


def _answer(model, optimizer, largest, per_rule):
    best = min(per_rule, key=lambda r: min(v[0] for v in per_rule[r]))
    best_ratio = min(per_rule[best], key=lambda v: v[0])[2]
    none = per_rule.get("none")
    if not none:
        return f"learning rate, {model} {optimizer}: `{best}` keeps the loss flattest up to N = {largest} " \
               f"(loss ratio {units.significant(best_ratio)})"
    none_ratio = min(v[2] for v in none)
    none_auroc = max(v[1] for v in none)
    holds = abs(none_ratio - 1) <= 0.1 and none_auroc >= -0.02
    return (f"learning rate, {model} {optimizer}, N = 1 to {largest}: `{best}` keeps the final loss flattest "
            f"(ratio {units.significant(best_ratio)}); with no scaling the ratio is {units.significant(none_ratio)} "
            f"and AUROC moves by {none_auroc:+.3f}, so \"no scaling needed\" {'holds' if holds else 'does not hold'} "
            f"here ({CRITERION})")


def analyse(ok):
    """(answer lines, Markdown section), or ([], "") when rules or world sizes were not swept."""
    data = ok.dropna(subset=["final_loss"]) if not ok.empty else ok
    if data.empty or data["world_size"].nunique() < 2 or data["lr_rule"].nunique() < 2:
        return [], ""
    rows, verdicts = _rows_and_verdicts(data)
    answers = [_answer(*v) for v in verdicts]
    lines = ["## Does the learning rate need to scale with the number of workers?", "",
             "Fixed per-rank batch: the global batch grows with N and an epoch has N times fewer steps. "
             "Loss ratio = final training loss at the largest N over the same at N = 1 (1 is flat), mean over "
             "repetitions, with the spread (sd) over repetitions; AUROC likewise.", ""]
    lines += [f"- {a}" for a in answers] + ["", markdown_table(pd.DataFrame(rows)),
                                            "Pictures: `loss_vs_epoch.png`, `loss_vs_step.png` (one panel per rule, "
                                            "one curve per N) and `auroc_vs_world_size.png`.", ""]
    return answers, "\n".join(lines)
