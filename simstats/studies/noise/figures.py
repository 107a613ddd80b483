"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

METRIC_LABEL = {"accuracy": "accuracy", "recall": "recall", "precision": "precision", "f1": "F1"}


def dev_vs_test_figure(scores: pd.DataFrame, summary: pd.DataFrame, scenario, paper_rho: float | None = None):
    """Left: observed dev vs test score of every model. Right: true vs observed test score."""
    label = METRIC_LABEL[scenario.metric]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), constrained_layout=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, sub) in enumerate(scores.groupby("approach", sort=True)):
        c = colours[k % len(colours)]
        stat = summary[(summary.approach == name)].set_index("statistic")
        rho = stat.loc["spearman_dev_test"]
        axes[0].scatter(100 * sub.psi_dev, 100 * sub.psi_test, s=6, alpha=0.45, color=c, linewidths=0,
                        label=f"approach {name}: Spearman ρ = {rho.estimate:.3f} ± {rho.se:.3f}")
        axes[1].scatter(100 * sub.psi_true_test, 100 * sub.psi_test, s=6, alpha=0.45, color=c, linewidths=0,
                        label=f"approach {name}: sd(X_test) = {100 * stat.loc['sd_x_test'].estimate:.3f} points")
    lo = 100 * min(scores.psi_true_test.min(), scores.psi_test.min())
    hi = 100 * max(scores.psi_true_test.max(), scores.psi_test.max())
    axes[1].plot([lo, hi], [lo, hi], color="black", lw=1, label="Ψtest = Ψtrue,test")
    if paper_rho is not None:
        axes[0].plot([], [], " ", label=f"paper (Reimers & Gurevych 2018, Table 2): ρ = {paper_rho:.3f}")
    axes[0].set_xlabel(f"development score Ψdev ({label}, %)")
    axes[0].set_ylabel(f"test score Ψtest ({label}, %)")
    axes[0].set_title("dev vs test score, one point per training run")
    axes[1].set_xlabel(f"true test-distribution score Ψtrue,test ({label}, %)")
    axes[1].set_ylabel(f"observed test score Ψtest ({label}, %)")
    axes[1].set_title("test score = truth + finite-test-set noise X")
    for ax in axes:
        ax.legend(fontsize=7, loc="upper left")
        ax.grid(alpha=0.3)
    fig.suptitle(f"scenario {scenario.name}: {len(scores)} simulated models", fontsize=11)
    return fig


# --------------------------------------------------------------------------- competitions
