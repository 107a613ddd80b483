"""Figure of the approach-level validation study (PNG + PDF via simstats.io.save_figure)."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from simstats.studies.approaches.validation import TEST_LABELS, TESTS  # noqa: E402

STYLE = {"single_run": ("C0", "o", "-"), "welch": ("C1", "s", "-"), "mannwhitney": ("C2", "v", "-"),
         "aso_0.5": ("C3", "^", ":"), "aso_0.2": ("C4", "^", "--"), "approach_seeds": ("C5", "D", "-"),
         "approach_items": ("C6", "P", "-"), "approach_both": ("black", "*", "-"), "approach_t": ("C9", "X", "-"),
         "approach_boot_t": ("C8", "x", "--"), "known_variance": ("grey", "", "--")}


def validation_figure(summary: pd.DataFrame, alpha: float, difference: float):
    """Rejection rate against seeds per approach: one row per variant, columns null / difference per
    test-set size; ±1.96 MCSE bars; alpha and alpha + 3 MCSE drawn in the null panels."""
    variants = list(dict.fromkeys(summary.variant))
    sizes = sorted(summary["items"].unique())
    columns = [(truth, n) for truth in ("identical", "difference") for n in sizes]
    fig, axes = plt.subplots(len(variants), len(columns), figsize=(3.3 * len(columns), 2.8 * len(variants)),
                             constrained_layout=True, squeeze=False, sharex=True)
    replicates = int(summary.replicates.max())
    limit = alpha + 3 * math.sqrt(alpha * (1 - alpha) / replicates)
    null = summary[summary.truth == "identical"]
    null_top = min(1.02, max(0.3, float((null.rate + 1.96 * null.mcse).max()) + 0.03)) if len(null) else 1.02
    for i, variant in enumerate(variants):
        for j, (truth, n) in enumerate(columns):
            ax = axes[i, j]
            cell = summary[(summary.variant == variant) & (summary.truth == truth) & (summary["items"] == n)]
            for test in TESTS:
                sub = cell[cell.test == test].sort_values("seeds")
                if not len(sub):
                    continue
                colour, marker, ls = STYLE[test]
                ax.errorbar(sub.seeds, sub.rate, yerr=1.96 * sub.mcse, color=colour, marker=marker, ls=ls, ms=4,
                            lw=1.2, capsize=2, label=TEST_LABELS[test])
            if truth == "identical":
                ax.axhline(alpha, color="grey", lw=1)
                ax.axhspan(0, limit, color="tab:green", alpha=0.1)
                ax.set_ylim(0, null_top)
            else:
                ax.set_ylim(0, 1.02)
            ax.set_xscale("log")
            seeds = sorted(summary.seeds.unique())
            ax.set_xticks(seeds)
            ax.set_xticklabels([str(int(k)) for k in seeds])
            ax.minorticks_off()
            ax.grid(alpha=0.3)
            what = "false-positive rate (identical approaches)" if truth == "identical" else f"power (B {difference:g} better)"
            ax.set_title(f"{variant}, {n:,} items", fontsize=9)
            if j == 0 or j == len(sizes):
                ax.set_ylabel(what, fontsize=8)
            if i == len(variants) - 1:
                ax.set_xlabel("runs (seeds) per approach, k (log scale)", fontsize=8)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=8)
    fig.suptitle(f"Which test holds alpha = {alpha} for which claim: rejection rate ± 1.96 MCSE over {replicates:,} "
                 f"simulated studies per point (green: within alpha + 3 MCSE)", fontsize=10)
    return fig
