"""The run's pictures: throughput and scaling efficiency against world size, busbw against
message size, loss curves and AUROC. Every text of every figure is kept inside its canvas
(save() checks and records it in figures.json). Error bars are each sweep point's estimate
band; oversubscribed world sizes are shaded."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import EngFormatter, FuncFormatter  # noqa: E402

from . import units  # noqa: E402
from .frames import (CONFIGURATION, MEASURED, combine, measured_label, varied, varied_measures,  # noqa: E402
                     with_bus_traffic)

RULE_ORDER = ["none", "linear", "sqrt"]
OVERSUBSCRIBED = "oversubscribed (more ranks than cores)"
MEMCPY_BOUND_FROM = 64 << 20  # the copy's own size: smaller messages may come from the cache


def _outside(box, width, height):
    return box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1


def texts_outside(fig):
    """The texts of fig drawn (partly) outside its canvas: each axes' title, labels, drawn tick
    labels and legend (its tight box holds what is drawn), and the figure's own texts."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    outside = []
    for ax in fig.axes:
        named = [ax.title, ax.xaxis.label, ax.yaxis.label]
        legend_box = ax.get_legend()
        if legend_box is not None:
            named += legend_box.get_texts()
        found = [t.get_text() for t in named if t.get_text().strip() and _outside(t.get_window_extent(renderer), width, height)]
        if not found and _outside(ax.get_tightbbox(renderer), width, height):
            found = [f"tick labels of '{ax.get_title()}'"]
        outside += found
    outside += [t.get_text() for t in fig.texts if t.get_text().strip() and _outside(t.get_window_extent(renderer), width, height)]
    return outside


class Canvas:
    """Where figures go: the output folder, the files written and what each series plotted."""

    def __init__(self, out):
        self.out = out
        self.written = []
        self.series = []
        self.canvas_checks = []

    def save(self, fig, name):
        fig.tight_layout()
        outside = texts_outside(fig)
        for _ in range(3):  # a long label: give the figure room rather than clip it
            if not outside:
                break
            w, h = fig.get_size_inches()
            fig.set_size_inches(w * 1.15, h * 1.1)
            fig.tight_layout()
            outside = texts_outside(fig)
        fig.savefig(f"{self.out}/{name}", dpi=110)
        plt.close(fig)
        self.written.append(name)
        self.canvas_checks.append({"image": name, "texts_outside": outside})

    def error_bar(self, ax, x, stats, label, plot, **style):
        yerr = [(stats["median"] - stats["lo"]).clip(lower=0), (stats["hi"] - stats["median"]).clip(lower=0)]
        ax.errorbar(x, stats["median"], yerr=yerr, marker="o", capsize=3, label=label, **style)
        self.series.append({"plot": plot, "series": label, "x": [float(v) for v in x],
                            "y": [float(v) for v in stats["median"]], "lo": [float(v) for v in stats["lo"]],
                            "hi": [float(v) for v in stats["hi"]]})


def legend(ax, **style):
    """A legend where something is labelled (a panel can be empty)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**style)


def shade_oversubscribed(ax, data):
    worlds = sorted(data.loc[data["oversubscribed"], "world_size"].unique()) if "oversubscribed" in data else []
    for i, world in enumerate(worlds):
        ax.axvspan(world - 0.3, world + 0.3, color="0.85", zorder=0, label=OVERSUBSCRIBED if i == 0 else None)


def plot_throughput(ok, canvas, words):
    data = ok.dropna(subset=["samples_per_s"])
    if data.empty:
        return
    groups = list(data.groupby(["model", "batch"]))
    # One line per backend and configuration: settings that vary besides the panel's are in its label.
    differing = varied(data, [k for k in CONFIGURATION if k not in ("model", "batch")])
    fig, axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 4.2), squeeze=False)
    eff_fig, eff_axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 4.2), squeeze=False)
    for ax, eff_ax, ((model, batch), g) in zip(axes[0], eff_axes[0], groups):
        sizes = sorted(g["world_size"].unique())
        base_all = None
        for values, b in g.groupby(["backend"] + differing if differing else "backend", dropna=False):
            values = values if differing else (values,)
            backend = " ".join([values[0]] + [f"{k}={v}" for k, v in zip(differing, values[1:])])
            stats = b.drop_duplicates("point").groupby("world_size").apply(combine)
            canvas.error_bar(ax, stats.index, stats, backend, f"throughput {model} batch {batch}")
            if 1 in stats.index:
                one = stats.loc[1]
                n = pd.Series(stats.index, index=stats.index)
                # The conservative interval of a ratio: each end from the far ends of the two.
                eff = pd.DataFrame({"median": stats["median"] / (n * one["median"]),
                                    "lo": stats["lo"] / (n * one["hi"]), "hi": stats["hi"] / (n * one["lo"])})
                canvas.error_bar(eff_ax, eff.index, eff, backend, f"scaling efficiency {model} batch {batch}")
                base_all = one["median"] if base_all is None else max(base_all, one["median"])
        if base_all is not None:
            ax.plot(sizes, [base_all * n for n in sizes], "k--", label="upper bound: N × best at 1")
        eff_ax.axhline(1.0, color="k", ls="--", lw=1)
        ax.yaxis.set_major_formatter(EngFormatter(sep=""))
        for a, ylabel in ((ax, "samples/s, all ranks"), (eff_ax, "X(N) / (N · X(1))")):
            shade_oversubscribed(a, g)
            a.set_title(f"{model}, batch {batch}/rank\n{words['figure']}", fontsize=9)
            a.set_xlabel("world size")
            a.set_ylabel(ylabel)
            a.set_xticks(sizes)
            legend(a, fontsize=7)
    canvas.save(fig, "throughput_vs_world_size.png")
    canvas.save(eff_fig, "scaling_efficiency.png")


def plot_busbw(coll, canvas, words, memcpy_gbps=None):
    coll = with_bus_traffic(coll)
    if coll.empty:
        return
    fig, ax = plt.subplots(figsize=(7.5, 5))
    collectives = sorted(set(coll["collective"]))
    differing = varied_measures(coll)  # each line names its collective and dtype where the run has several
    for key, g in coll.groupby(MEASURED + ["backend", "world_size"]):
        *measured, backend, world = key
        stats = g.drop_duplicates(["point", "bytes"]).groupby("bytes").apply(combine)
        stats = stats[stats["median"] > 0]
        if not stats.empty:
            mark = " (oversubscribed)" if g["oversubscribed"].any() else ""
            what = measured_label(dict(zip(MEASURED, measured)), differing)
            label = f"{what + ' ' if what else ''}{backend} N={world}{mark}"
            canvas.error_bar(ax, stats.index, stats, label, "busbw", markersize=3,
                             linestyle=":" if mark else "-")
    largest = coll["bytes"].max()
    if memcpy_gbps and largest >= MEMCPY_BOUND_FROM:
        # A bound only where messages no longer fit in the cache, as the 64 MB copy does not.
        ax.hlines(memcpy_gbps, MEMCPY_BOUND_FROM / 2, largest, colors="k", linestyles="--", lw=1,
                  label=f"memcpy of 64 MB, one thread ({units.bandwidth_gbps(memcpy_gbps)})")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: units.size_bytes(v) if v >= 1 else ""))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: units.bandwidth_gbps(v)))
    ax.set_xlabel("message size")
    ax.set_ylabel("busbw")
    ax.set_title(f"{', '.join(collectives)} bus bandwidth ({words['figure']})", fontsize=9)
    legend(ax, fontsize=6)
    canvas.save(fig, "busbw_vs_message_size.png")


def plot_loss(ok, canvas):
    data = ok[ok["loss_per_epoch"].map(len) > 0]
    if data.empty:
        return
    for column, name, xlabel in (("loss_per_epoch", "loss_vs_epoch.png", "epoch"),
                                 ("loss_per_step", "loss_vs_step.png", "step")):
        panels = list(data.groupby(["model", "optimizer"]))
        rules = [r for r in RULE_ORDER if r in set(data["lr_rule"])]
        fig, axes = plt.subplots(len(panels), len(rules), figsize=(4.4 * len(rules), 3.4 * len(panels)),
                                 squeeze=False, sharey="row")
        for row, ((model, optimizer), g) in enumerate(panels):
            for col, rule in enumerate(rules):
                ax = axes[row][col]
                for world, w in g[g["lr_rule"] == rule].groupby("world_size"):
                    curves = [c for c in w[column] if len(c)]
                    if not curves:
                        continue
                    length = min(len(c) for c in curves)
                    mean = [sum(c[i] for c in curves) / len(curves) for i in range(length)]
                    ax.plot(range(1, length + 1), mean, label=f"N={world}")
                ax.set_title(f"{model} {optimizer} lr_rule={rule}", fontsize=9)
                ax.set_xlabel(xlabel)
                ax.set_ylabel("training loss (mean over reps)")
                ax.set_yscale("log")
                legend(ax, fontsize=7)
        canvas.save(fig, name)


def plot_auroc(ok, canvas):
    data = ok.dropna(subset=["auroc"])
    if data.empty:
        return
    panels = list(data.groupby(["model", "optimizer"]))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.8 * len(panels), 3.8), squeeze=False)
    for ax, ((model, optimizer), g) in zip(axes[0], panels):
        for rule, r in g.groupby("lr_rule"):
            stats = r.groupby("world_size")["auroc"].agg(["mean", "std"]).fillna(0)
            ax.errorbar(stats.index, stats["mean"], yerr=stats["std"], marker="o", capsize=3, label=rule)
        ax.axhline(0.5, color="0.5", ls=":", lw=1, label="chance (0.5)")
        ax.set_title(f"{model} {optimizer}")
        ax.set_xlabel("world size")
        ax.set_ylabel("AUROC (mean ± sd)")
        ax.set_xticks(sorted(g["world_size"].unique()))
        legend(ax, fontsize=7)
    canvas.save(fig, "auroc_vs_world_size.png")
