"""Figure of the harness-log validation study (PNG + PDF via simstats.io.save_figure)."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from simstats.studies.harness.simulate import DIFFERENCE_TESTS, SCORE_INTERVALS  # noqa: E402

STYLE = {"default": ("tab:red", "", "-"), "bootstrap": ("black", "*", "-"), "bootstrap_items": ("grey", "*", ":"), "t": ("C0", "o", "-"),
         "t_cluster": ("C1", "s", "-"), "wilson": ("C2", "^", "-"), "clopper_pearson": ("C3", "v", "--"),
         "paired_bootstrap": ("black", "*", "-"), "paired_bootstrap_items": ("grey", "*", ":"),
         "paired_t": ("C0", "o", "-"), "paired_t_cluster": ("C1", "s", "-"), "unpaired_z": ("C4", "D", "--")}
PANELS = (("score", "coverage", "coverage of A's score interval"),
          ("difference", "coverage", "coverage of the difference's interval (B better)"),
          ("difference", "size", "false-positive rate (identical models)"),
          ("difference", "power", "power (B better)"))


def validation_figure(summary: pd.DataFrame, settings):
    """Rates against test items, one row per population of evaluations; ± 1.96 MCSE bars; the nominal
    value and its ± 3 MCSE band drawn in the coverage and size panels."""
    variants = [v for v in settings.variant_names if v in set(summary.variant)]
    fig, axes = plt.subplots(len(variants), len(PANELS), figsize=(3.4 * len(PANELS), 2.6 * len(variants)),
                             constrained_layout=True, squeeze=False, sharex=True)
    sizes = sorted(summary["items"].unique())
    handles = {}
    for i, variant in enumerate(variants):
        for j, (target, measure, title) in enumerate(PANELS):
            ax = axes[i, j]
            cell = summary[(summary.variant == variant) & (summary.target == target) & (summary.measure == measure)]
            if measure == "coverage" and target == "difference":
                cell = cell[cell.truth == "difference"]        # the true difference is not 0
            elif measure == "coverage":                        # A's score: the same in both truths' cells
                cell = cell.groupby(["method", "items"], sort=False).apply(_pooled, include_groups=False).reset_index()
            for method in (SCORE_INTERVALS if target == "score" else DIFFERENCE_TESTS):
                sub = cell[cell.method == method].sort_values("items")
                if not len(sub):
                    continue
                colour, marker, ls = STYLE[method]
                label = (SCORE_INTERVALS if target == "score" else DIFFERENCE_TESTS)[method]
                wide = {"lw": 6, "alpha": 0.35, "zorder": 1} if method == "default" else {"lw": 1.2, "zorder": 2}
                line = ax.errorbar(sub["items"], sub.rate, yerr=1.96 * sub.mcse, color=colour, marker=marker, ls=ls,
                                   ms=4, capsize=2, label=label, **wide)
                handles.setdefault(f"{target}: {label}", line)
            if measure in ("coverage", "size"):
                nominal = settings.confidence_level if measure == "coverage" else settings.alpha
                replicates = settings.replicates * (2 if (target, measure) == ("score", "coverage") else 1)
                band = 3 * math.sqrt(nominal * (1 - nominal) / replicates)
                ax.axhline(nominal, color="tab:green", lw=1)
                ax.axhspan(nominal - band, nominal + band, color="tab:green", alpha=0.12)
                if measure == "coverage":
                    ax.set_ylim(max(0.0, min(0.75, float(cell.rate.min()) - 0.03) if len(cell) else 0.75), 1.005)
                else:
                    ax.set_ylim(0, max(0.15, float(cell.rate.max()) + 0.02) if len(cell) else 0.15)
            else:
                ax.set_ylim(0, 1.02)
            ax.set_xscale("log")
            ax.set_xticks(sizes)
            ax.set_xticklabels([f"{n:,}" for n in sizes], fontsize=7)
            ax.minorticks_off()
            ax.grid(alpha=0.3)
            ax.set_title(f"{variant}: {title}", fontsize=8)
            if j == 0:
                ax.set_ylabel("rate (share of evaluations)", fontsize=8)
            if i == len(variants) - 1:
                ax.set_xlabel("test items per evaluation (log scale)", fontsize=8)
    fig.legend(list(handles.values()), list(handles.keys()), loc="outside lower center", ncol=2, fontsize=7)
    fig.suptitle(f"Comparing two models from per-item scores: rates ± 1.96 MCSE over {settings.replicates:,} simulated "
                 f"evaluations per point (green: nominal ± 3 MCSE)", fontsize=10)
    return fig


def _pooled(group: pd.DataFrame) -> pd.Series:
    """The coverage of the two truths' cells pooled (the same interval, twice the evaluations)."""
    hits = (group.rate * group.replicates).sum()
    n = group.replicates.sum()
    rate = hits / n
    return pd.Series({"rate": rate, "mcse": math.sqrt(rate * (1 - rate) / n), "replicates": n})
