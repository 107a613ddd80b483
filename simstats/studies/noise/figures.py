"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

METRIC_LABEL = {"accuracy": "accuracy", "recall": "recall", "precision": "precision", "f1": "F1"}


SUBSAMPLE_SEED = 20180910   # fixed: the shown subsample (and so the PNG) is the same on every run


def plotted_models(scores: pd.DataFrame, max_points: int = 3000) -> pd.DataFrame:
    """The models drawn in :func:`dev_vs_test_figure`: all of them if there are at most
    ``max_points``, else a random subsample of ``max_points`` drawn without replacement with a
    fixed-seed generator, each approach keeping its share of the models; returned in a fixed
    shuffled order so that no approach is painted over the other."""
    rng = np.random.default_rng(SUBSAMPLE_SEED)
    n = len(scores)
    if n > max_points:
        groups = scores.groupby("approach", sort=True).indices
        quota = {a: int(len(ix) * max_points // n) for a, ix in groups.items()}
        for a in sorted(groups, key=lambda a: -len(groups[a]))[:max_points - sum(quota.values())]:
            quota[a] += 1                                      # the remainder to the largest approaches
        picked = np.concatenate([np.sort(rng.choice(ix, size=quota[a], replace=False)) for a, ix in groups.items()])
        scores = scores.iloc[np.sort(picked)]
    return scores.iloc[rng.permutation(len(scores))]


def dev_vs_test_figure(scores: pd.DataFrame, summary: pd.DataFrame, scenario, paper_rho: float | None = None,
                       *, max_points: int = 3000):
    """Left: observed dev vs test score per model. Right: true vs observed test score.

    At most ``max_points`` models are drawn (a fixed-seed random subsample, stated in the
    title); the statistics in the legends come from ``summary``, i.e. from all models."""
    label = METRIC_LABEL[scenario.metric]
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.6), layout="constrained")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    approaches = sorted(scores.approach.unique())
    colour_of = {name: colours[k % len(colours)] for k, name in enumerate(approaches)}
    shown = plotted_models(scores, max_points)
    point_colours = shown.approach.map(colour_of).to_numpy()
    size, alpha = (6, 0.45) if len(shown) <= 1000 else (4, 0.35)
    for ax, x in ((axes[0], shown.psi_dev), (axes[1], shown.psi_true_test)):
        ax.scatter(100 * x, 100 * shown.psi_test, s=size, alpha=alpha, c=point_colours, linewidths=0)
    handles = ([], [])
    for name in approaches:
        stat = summary[(summary.approach == name)].set_index("statistic")
        rho = stat.loc["spearman_dev_test"]
        marker = {"marker": "o", "ls": "none", "ms": 7, "color": colour_of[name]}
        handles[0].append(Line2D([], [], **marker,
                                 label=f"approach {name}: Spearman ρ = {rho.estimate:.3f} ± {rho.se:.3f}"))
        handles[1].append(Line2D([], [], **marker,
                                 label=f"approach {name}: sd(X_test) = {100 * stat.loc['sd_x_test'].estimate:.3f} "
                                       "points"))
    lo = 100 * min(scores.psi_true_test.min(), scores.psi_test.min())
    hi = 100 * max(scores.psi_true_test.max(), scores.psi_test.max())
    handles[1].extend(axes[1].plot([lo, hi], [lo, hi], color="black", lw=1, label="Ψtest = Ψtrue,test"))
    if paper_rho is not None:
        handles[0].append(Line2D([], [], ls="none", label=f"paper (Reimers & Gurevych 2018, Table 2): ρ = "
                                                          f"{paper_rho:.3f}"))
    axes[0].set_xlabel(f"development score Ψdev ({label}, %)")
    axes[0].set_ylabel(f"test score Ψtest ({label}, %)")
    axes[0].set_title("dev vs test score, one point per training run", fontsize=10)
    axes[1].set_xlabel(f"true test-distribution score Ψtrue,test ({label}, %)")
    axes[1].set_ylabel(f"observed test score Ψtest ({label}, %)")
    axes[1].set_title("test score = truth + finite-test-set noise X", fontsize=10)
    for ax, h in zip(axes, handles):
        ax.legend(handles=h, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncols=1,
                  frameon=False, handletextpad=0.3)
        ax.grid(alpha=0.3)
    n = len(scores)
    shown_note = ("all shown" if len(shown) == n else
                  f"{len(shown):,} shown (fixed-seed random subsample)\nlegend statistics from all {n:,} models")
    fig.suptitle(f"scenario {scenario.name}: {n:,} simulated models, {shown_note}", fontsize=11)
    return fig


# --------------------------------------------------------------------------- competitions
