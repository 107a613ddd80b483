"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402


YEH_TEST_STYLE = {"two_sample_t": ("C0", "--"), "two_proportion_z": ("C1", "--"), "chi2_2x2": ("C2", "--"),
                  "paired_t": ("C3", "-"), "sign_mcnemar": ("C4", "-"), "wilcoxon": ("C5", "-"),
                  "paired_bootstrap": ("C6", "-"), "approximate_randomization": ("C7", "-"),
                  "exact_stratified_randomization": ("C8", ":")}


YEH_TEST_MARKER = {"two_sample_t": "s", "two_proportion_z": "o", "chi2_2x2": "^", "paired_t": "D",
                   "sign_mcnemar": "v", "wilcoxon": "o", "paired_bootstrap": "s", "approximate_randomization": "^",
                   "exact_stratified_randomization": "P"}
DODGE = 0.004   # horizontal offset between neighbouring tests: tests with equal rates stay visible

TEST_LABEL = {"sign_mcnemar": "sign / McNemar", "chi2_2x2": "χ² 2×2", "two_proportion_z": "two-proportion z",
              "two_sample_t": "two-sample t", "paired_t": "paired t"}


def _test_label(test: str) -> str:
    return TEST_LABEL.get(test, test.replace("_", " "))


def too_few_replicates(summary: pd.DataFrame, min_replicates: int | None = None) -> pd.Series:
    """True for cells whose rate rests on too few replicates to be judged: the size verdict is
    ``undetermined`` (:func:`simstats.stats.montecarlo.size_verdict`), or the test was computed
    on fewer than ``min_replicates`` of the cell's test sets (default: half the configured
    replicates, i.e. of the largest ``replicates`` in ``summary``) - e.g. exact stratified
    randomization, computed only on test sets whose exact grid is small enough.  Cells with no
    replicate at all (``rate`` NaN) are not computed and are left out (a gap), not flagged."""
    if min_replicates is None:
        min_replicates = int(np.ceil(summary.replicates.max() / 2)) if len(summary) else 1
    verdict = summary.verdict if "verdict" in summary else pd.Series("", index=summary.index)
    computed = (summary.replicates > 0) & summary.rate.notna()
    return computed & ((verdict == "undetermined") | (summary.replicates < min_replicates))


def _rate_panel(ax, d: pd.DataFrame, grid: np.ndarray, few: pd.Series, tests: list[str]) -> tuple[list[str], int]:
    """One panel: a line per test over the full r12 ``grid`` (NaN = gap where a cell is missing,
    not computed or flagged), flagged cells as hollow markers labelled with their replicates.
    Test k is shifted by (k - (K - 1) / 2) * DODGE along x.  Returns the tests with gaps and
    the number of hollow markers drawn."""
    gaps, n_hollow = [], 0
    for k, test in enumerate(tests):
        colour, style = YEH_TEST_STYLE.get(test, ("k", "-"))
        marker = YEH_TEST_MARKER.get(test, "o")
        shift = (k - (len(tests) - 1) / 2) * DODGE
        g = d[d.test == test].sort_values(["r12_population", "r12"])
        g = g[~g.r12_population.duplicated(keep="first")]           # capped r12: one population, keep the first
        flagged = few.reindex(g.index, fill_value=False)
        g = g.set_index("r12_population")
        flagged.index = g.index
        rate = g.rate.where(~flagged).reindex(grid)
        mcse = g.mcse.where(~flagged).reindex(grid)
        bars = ax.errorbar(grid + shift, rate.to_numpy(), yerr=1.96 * mcse.to_numpy(), color=colour, ls=style,
                           marker=marker, ms=3.5, capsize=0, lw=1, elinewidth=0.7, label=_test_label(test))
        bars.lines[0].set_gid(f"rate:{test}")
        for bar in bars.lines[2]:
            bar.set_alpha(0.45)
        hollow = g[flagged]
        if len(hollow):
            ax.plot(hollow.index.to_numpy() + shift, hollow.rate.to_numpy(), ls="none", marker="o", ms=8,
                    mfc="white", mec=colour, mew=1.4, zorder=3, gid=f"too_few:{test}")
            for x, y, reps in zip(hollow.index + shift, hollow.rate, hollow.replicates):
                ax.annotate(f"R = {reps}", (x, y), xytext=(5, 4), textcoords="offset points", fontsize=7,
                            color="0.15")
            n_hollow += len(hollow)
        missing = int(g.rate.reindex(grid).isna().sum())
        if missing:
            gaps.append(f"{_test_label(test)} at {missing} of {len(grid)} r12")
    return gaps, n_hollow


def yeh_rate_figure(summary: pd.DataFrame, which: str, alpha: float, *, min_replicates: int | None = None):
    """Rejection rate vs r12: rows = metrics, columns = test sizes; size (no difference) or
    power (the smallest configured true difference).  Dashed: independence-assuming tests.

    Each test's line runs over the full r12 grid of the metric, with a gap wherever the test has
    no rate (cell not simulated or not computed); cells with too few replicates to judge
    (:func:`too_few_replicates`) are drawn as hollow markers without error bar, off the line."""
    if which not in ("size", "power"):
        raise ValueError(f"which must be 'size' or 'power', not {which!r}")
    metrics = [m for m in ("recall", "precision", "f1") if m in set(summary.metric)]
    sizes = sorted(summary.n.unique())
    few = too_few_replicates(summary, min_replicates)
    threshold = min_replicates if min_replicates is not None else int(np.ceil(summary.replicates.max() / 2))
    order = list(YEH_TEST_STYLE) + sorted(set(summary.test) - set(YEH_TEST_STYLE))
    any_hollow = False
    fig, axes = plt.subplots(len(metrics), len(sizes), figsize=(max(4.4 * len(sizes), 9.0), 3.4 * len(metrics) + 1.8),
                             layout="constrained", squeeze=False, sharex=True)
    for i, metric in enumerate(metrics):
        sub = summary[summary.metric == metric]
        diff = 0.0 if which == "size" else sub.difference[sub.difference > 0].min()
        at = sub[sub.difference == diff]
        grid = np.sort(at.r12_population.unique())
        tests = [t for t in order if t in set(at.test)]
        for j, n in enumerate(sizes):
            ax = axes[i][j]
            d = at[at.n == n]
            gaps, n_hollow = _rate_panel(ax, d, grid, few, tests)
            any_hollow = any_hollow or n_hollow > 0
            if which == "size":
                reps = d.replicates.max() if len(d) else 1
                band = 3 * np.sqrt(alpha * (1 - alpha) / max(reps, 1))
                ax.axhspan(alpha - band, alpha + band, color="0.85", zorder=0,
                           label=f"α ± 3 MCSE ({reps} replicates)")
                ax.axhline(alpha, color="k", lw=0.8, ls=":", label=f"nominal α = {alpha:g}")
                ax.set_ylim(-0.01, max(ax.get_ylim()[1], alpha + band + 0.005))   # rates are >= 0
            else:
                ax.set_ylim(-0.02, 1.02)
            title = f"{metric}, n = {n} items" + ("" if which == "size" else f", true difference {diff:g} in {metric}")
            if gaps:
                title += "\nnot computed (gap): " + "; ".join(gaps)
            ax.set_title(title, fontsize=8.5)
            ax.grid(alpha=0.25)
            if i == len(metrics) - 1:
                ax.set_xlabel("item-level correlation r12 of the two systems (φ, unitless)", fontsize=9)
            if j == 0:
                ax.set_ylabel(("size" if which == "size" else "power")
                              + " = rejection rate\n(share of test sets with p < α; ±1.96 MCSE)", fontsize=8.5)
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    if any_hollow:
        handles[f"too few replicates (R < {threshold}): hollow, no error bar"] = Line2D(
            [], [], ls="none", marker="o", ms=8, mfc="white", mec="0.3", mew=1.4)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=3 if len(sizes) < 3 else 4,
               fontsize=8)
    what = (f"size at α = {alpha:g} (two equal systems)" if which == "size"
            else f"power at α = {alpha:g} (smallest configured true difference)")
    key = (f"dashed = independence-assuming tests, solid = paired, dotted = exact; tests offset by {DODGE:g} in r12 "
           "so that equal rates stay visible")
    width = int(fig.get_figwidth() * 12)                     # characters per line at fontsize 10
    fig.suptitle("\n".join([f"Correlated systems (Yeh 2000): {what}", *textwrap.wrap(key, width)]), fontsize=10)
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
