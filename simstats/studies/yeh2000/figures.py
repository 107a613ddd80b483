"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


YEH_TEST_STYLE = {"two_sample_t": ("C0", "--"), "two_proportion_z": ("C1", "--"), "chi2_2x2": ("C2", "--"),
                  "paired_t": ("C3", "-"), "sign_mcnemar": ("C4", "-"), "wilcoxon": ("C5", "-"),
                  "paired_bootstrap": ("C6", "-"), "approximate_randomization": ("C7", "-"),
                  "exact_stratified_randomization": ("C8", ":")}


def yeh_rate_figure(summary: pd.DataFrame, which: str, alpha: float):
    """Rejection rate vs r12: rows = metrics, columns = test sizes; size (no difference) or
    power (the smallest configured true difference).  Dashed: independence-assuming tests."""
    metrics = [m for m in ("recall", "precision", "f1") if m in set(summary.metric)]
    sizes = sorted(summary.n.unique())
    fig, axes = plt.subplots(len(metrics), len(sizes), figsize=(4.2 * len(sizes), 3.2 * len(metrics) + 0.9),
                             layout="constrained", squeeze=False, sharex=True)
    for i, metric in enumerate(metrics):
        sub = summary[summary.metric == metric]
        diff = 0.0 if which == "size" else sub.difference[sub.difference > 0].min()
        for j, n in enumerate(sizes):
            ax = axes[i][j]
            d = sub[(sub.n == n) & (sub.difference == diff)]
            for test, g in d.groupby("test", sort=False):
                colour, style = YEH_TEST_STYLE.get(test, ("k", "-"))
                g = g.sort_values("r12_population")
                ax.errorbar(g.r12_population, g.rate, yerr=1.96 * g.mcse, color=colour, ls=style, marker="o", ms=2.5,
                            capsize=1.5, lw=1, label=test.replace("_", " "))
            if which == "size":
                reps = d.replicates.max() if len(d) else 1
                band = 3 * np.sqrt(alpha * (1 - alpha) / max(reps, 1))
                ax.axhspan(alpha - band, alpha + band, color="0.85", zorder=0)
                ax.axhline(alpha, color="k", lw=0.8, ls=":")
            else:
                ax.set_ylim(-0.02, 1.02)
            ax.set_title(f"{metric}, n = {n}" + ("" if which == "size" else f", true difference {diff}"), fontsize=9)
            if i == len(metrics) - 1:
                ax.set_xlabel("item-level correlation r12 of the two systems")
            if j == 0:
                ax.set_ylabel(("size" if which == "size" else "power") + " (rejection rate, ±1.96 MCSE)", fontsize=8)
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=5, fontsize=8)
    return fig


def yeh_cluster_figure(summary: pd.DataFrame, alpha: float):
    fig, ax = plt.subplots(figsize=(7, 4.4), layout="constrained")
    for k, (test, g) in enumerate(summary.groupby("test", sort=False)):
        g = g.sort_values("design_effect")
        ax.errorbar(g.design_effect, g.rate, yerr=1.96 * g.mcse, marker="o", capsize=2, color=f"C{k}",
                    ls="-" if test.startswith("cluster") else "--", label=test.replace("_", " "))
    reps = summary.replicates.max()
    band = 3 * np.sqrt(alpha * (1 - alpha) / reps)
    ax.axhspan(alpha - band, alpha + band, color="0.85", zorder=0, label="α ± 3 MCSE")
    ax.set_xlabel("design effect of the accuracy difference (documents of correlated items)")
    ax.set_ylabel("size: rejection rate of two equal systems (±1.96 MCSE)")
    ax.legend(fontsize=8)
    return fig


def yeh_squad_figure(pairs: pd.DataFrame, alpha: float):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), layout="constrained")
    axes[0].hist(pairs.r12.dropna(), bins=50, color="C0")
    axes[0].set_xlabel("implied item-level correlation r12 of a pair of submissions")
    axes[0].set_ylabel("pairs of submissions")
    axes[0].set_title(f"SQuAD 2.0 dev: {len(pairs)} pairs", fontsize=10)
    floor = 1e-300
    x = np.log10(np.maximum(pairs.pvalue_z, floor))
    y = np.log10(np.maximum(pairs.pvalue_mcnemar, floor))
    flip = pairs.significant_mcnemar != pairs.significant_z
    axes[1].scatter(x[~flip], y[~flip], s=3, alpha=0.4, color="0.5", label="same verdict")
    axes[1].scatter(x[flip], y[flip], s=5, color="C3", label="verdict flips")
    for line in (axes[1].axhline, axes[1].axvline):
        line(np.log10(alpha), color="k", lw=0.8, ls=":")
    axes[1].set_xlim(-12, 0.1)
    axes[1].set_ylim(-12, 0.1)
    axes[1].set_xlabel("log10 p, two-proportion z (unpaired)")
    axes[1].set_ylabel("log10 p, McNemar (paired)")
    axes[1].legend(fontsize=8)
    return fig


def yeh_sd_ratio_figure(table: pd.DataFrame):
    fig, ax = plt.subplots(figsize=(6.5, 4.2), layout="constrained")
    r = np.linspace(0, 0.96, 200)
    ax.plot(r, 1 / np.sqrt(1 - r), color="k", lw=1, label="analytic 1/sqrt(1 − r12)")
    ax.errorbar(table.r12, table.simulated, yerr=1.96 * table.se, fmt="o", ms=3, capsize=2, label="simulated")
    yeh = table.dropna(subset=["yeh_2000"])
    ax.plot(yeh.r12, yeh.yeh_2000, "s", mfc="none", color="C3", ms=8, label="Yeh (2000)")
    ax.set_xlabel("item-level correlation r12")
    ax.set_ylabel("sd_ind / sd of the difference (ratio)")
    ax.legend(fontsize=8)
    return fig
