"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def competition_study_figure(summary: pd.DataFrame, quantity: str, alpha: float | None = None):
    """One panel per design: quantity (FWER, FDR, power) per cell, by correction and scope."""
    sub = summary[summary.quantity == quantity]
    designs = sorted(sub.design.unique())
    cols = min(3, len(designs))
    rows = -(-len(designs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.6 * rows + 0.8), layout="constrained", squeeze=False,
                             sharey=True)
    for ax in axes.flat[len(designs):]:
        ax.set_visible(False)
    names = {"fwer": "family-wise error rate (all pairs)", "fdr": "false discovery rate",
             "power": "power (share of true differences found)"}
    for ax, design in zip(axes.flat, designs):
        d = sub[sub.design == design].sort_values(["m", "n"])
        cells = d[["m", "n"]].drop_duplicates()
        x = np.arange(len(cells))
        labels = [f"m={m}\nn={n}" for m, n in cells.itertuples(index=False)]
        for k, corr in enumerate(("none", "bonferroni", "holm", "bh")):
            for scope, style in (("all", "-"), ("group", "--")):
                e = d[(d.correction == corr) & (d.scope == scope)]
                ax.errorbar(x + 0.04 * (k - 1.5), e.estimate, yerr=1.96 * e.mcse.fillna(0), color=f"C{k}", ls=style,
                            marker="o", ms=3, capsize=2, label=f"{corr} ({scope})")
        if alpha is not None:
            ax.axhline(alpha, color="k", lw=0.8, ls=":", label=f"α = {alpha}")
        ax.set_xticks(x, labels, fontsize=7)
        ax.set_title(f"{design} ({d.metric.iloc[0]})", fontsize=9)
        ax.set_xlabel("competition (m systems, n test items)")
    for row in axes:
        row[0].set_ylabel(names.get(quantity, quantity) + "\n(share; ±1.96 MCSE)", fontsize=8)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="outside lower center", ncols=5)
    return fig


def competition_truth_figure(summary: pd.DataFrame, level: float = 0.95):
    """Winner truly best and CI coverage (scores, differences) per design cell."""
    quantities = (("winner_truly_best", "declared winner is truly best"),
                  ("coverage_scores", "95 % CI of a score covers its true value"),
                  ("coverage_differences", "95 % CI of a difference covers the truth"))
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2), constrained_layout=True)
    for ax, (q, title) in zip(axes, quantities):
        sub = summary[summary.quantity == q].sort_values(["design", "m", "n"])
        x = np.arange(len(sub))
        ax.errorbar(x, sub.estimate, yerr=1.96 * sub.mcse.fillna(0), fmt="o", ms=3, capsize=2)
        if q != "winner_truly_best":
            ax.axhline(level, color="k", lw=0.8, ls=":", label=f"nominal {level:.0%}")
            ax.legend(fontsize=8)
        ax.set_xticks(x, [f"{d}\nm={m} n={n}" for d, m, n in zip(sub.design, sub.m, sub.n)], rotation=90, fontsize=6)
        ax.set_ylabel("share of competitions (±1.96 MCSE)")
        ax.set_title(title, fontsize=10)
    return fig


# --------------------------------------------------------------------------- Yeh study
