"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


COMPETITION_METRIC_LABEL = {"accuracy": "accuracy", "f1": "F1 (positive class)", "mae": "MAE (lower is better)",
                            "weighted_f1": "support-weighted F1"}


def metric_axis_label(metric_name: str) -> str:
    if metric_name.startswith("macro_f1"):
        inside = metric_name[len("macro_f1"):].strip("[]")
        return "macro-F1" + (f" ({inside.replace(',', ', ')})" if inside else "")
    return COMPETITION_METRIC_LABEL.get(metric_name, metric_name)


def ordered_intervals_figure(scores: pd.DataFrame, metric_name: str, paper: pd.DataFrame | None = None,
                             title: str = "", label: str = "ours: score and 95 % CI"):
    """Figure 1: every system's score with its 95 % bootstrap CI, best on top (``label``: the legend
    entry of these intervals)."""
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(scores) + 2.0), layout="constrained")
    y = np.arange(len(scores))[::-1].astype(float)
    ax.errorbar(scores.score, y, xerr=[scores.score - scores.ci_low, scores.ci_high - scores.score], fmt="o",
                color="C0", capsize=3, label=label)
    if "true_score" in scores:
        ax.plot(scores.true_score, y, "x", color="k", label="true score (simulation)")
    if paper is not None and len(paper):
        ref = paper.set_index("system")
        sel = [s in ref.index for s in scores.system]
        p = ref.loc[scores.system[sel]]
        ax.errorbar(p["mean"], y[sel] - 0.25, xerr=[p["mean"] - p.lci, p.uci - p["mean"]], fmt="s", color="0.55",
                    capsize=3, label="paper (real VaxxStance data)")
    ax.set_yticks(y, scores.system)
    ax.set_xlabel(metric_axis_label(metric_name))
    ax.set_title(title or "Ordered bootstrap confidence intervals", fontsize=10)
    fig.legend(fontsize=8, loc="outside lower center", ncols=3)
    return fig


def difference_intervals_figure(differences: pd.DataFrame, metric_name: str, paper: pd.DataFrame | None = None,
                                title: str = "", rule: str | None = None):
    """Figure 2: CIs of the winner's improvement over each system; red if the CI contains 0 (as the
    paper), or with ``rule`` (the decision rule in words) red where the column ``different`` is False."""
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(differences) + 2.0), layout="constrained")
    y = np.arange(len(differences))[::-1].astype(float)
    for k, row in enumerate(differences.itertuples(index=False)):
        tied = (not row.different) if rule is not None else row.contains_zero
        colour = "tab:red" if tied else "tab:green"
        ax.errorbar([row.difference], [y[k]], xerr=[[row.difference - row.ci_low], [row.ci_high - row.difference]],
                    fmt="o", color=colour, capsize=3)
    if paper is not None and len(paper):
        ref = paper.set_index("system")
        for k, s in enumerate(differences.system):
            if s in ref.index:
                r = ref.loc[s]
                ax.errorbar([r["mean"]], [y[k] - 0.25], xerr=[[r["mean"] - r.lci], [r.uci - r["mean"]]], fmt="s",
                            color="0.55", capsize=3)
        ax.plot([], [], "s", color="0.55", label="paper (real data)")
    if rule is None:
        ax.plot([], [], "o", color="tab:red", label="CI contains 0")
        ax.plot([], [], "o", color="tab:green", label="CI excludes 0")
    else:
        ax.plot([], [], "o", color="tab:red", label="not shown to differ")
        ax.plot([], [], "o", color="tab:green", label="differs")
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y, differences.system)
    ax.set_xlabel(f"improvement of {differences.reference.iloc[0]} in {metric_axis_label(metric_name)} "
                  "(same scale as the score)")
    ax.set_title((title or "Bootstrap CIs of differences from the best")
                 + (f"\ncolour: {rule}; bars: uncorrected percentile CIs" if rule is not None else ""), fontsize=10)
    fig.legend(fontsize=8, loc="outside lower center", ncols=3)
    return fig


def bootstrap_difference_figure(panels, metric_name: str):
    """Figure 3: bootstrap distributions of differences with 0, delta and 2 delta marked.

    panels: list of (label, replicates, delta, pvalue) or (label, replicates, delta, pvalue,
    paper_note): ``paper_note`` (e.g. the paper's p-values of the same pair) is printed in the panel."""
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.8), constrained_layout=True,
                             squeeze=False)
    for ax, panel in zip(axes[0], panels):
        label, values, delta, p = panel[:4]
        note = panel[4] if len(panel) > 4 else ""
        ax.hist(values, bins=60, color="C0", alpha=0.75)
        for x, style, name in ((0.0, "-", "0"), (delta, "--", "δ"), (2 * delta, ":", "2δ")):
            ax.axvline(x, color="k", ls=style, lw=1.2, label=f"{name} = {x:.4f}")
        ax.set_title(f"{label}\np = P*(δ* ≥ 2δ) = {p:.4f}", fontsize=9)
        ax.set_xlabel(f"bootstrap difference δ* in {metric_axis_label(metric_name)}")
        ax.set_ylabel("bootstrap samples")
        ax.legend(fontsize=8, loc="upper left")
        if note:
            ax.text(0.98, 0.97, note, transform=ax.transAxes, ha="right", va="top", fontsize=8,
                    bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "0.6"})
    return fig


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
