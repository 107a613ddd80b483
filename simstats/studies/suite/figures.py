"""Figure of the suite study (PNG + PDF via simstats.io.save_figure)."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


PANELS = (
    ("error rates of the per-task decisions", ("fwer:best_holm", "fwer:reference_holm", "fwer:best_holm_shown",
                                               "fdr:best_bh"), "alpha"),
    ("coverage of the suite means and their differences", ("cover:mean_like_these", "cover:mean_these",
                                                           "cover:difference_like_these", "cover:difference_these",
                                                           "cover:mean_bootstrap_like_these",
                                                           "cover:mean_bootstrap_these"), "level"),
    ("coverage of the rank and bootstrap intervals", ("cover:ranks_like_these", "cover:ranks_these", "cover:iqm",
                                                      "cover:improvement"), "level"),
    ("rank tests over tasks: false decisions", ("p:friedman", "fwer:nemenyi", "fwer:wilcoxon_holm"), "alpha"),
)
STYLE = {"fwer:best_holm": ("tab:red", "o", "-"), "fwer:reference_holm": ("C0", "s", "-"),
         "fwer:best_holm_shown": ("C1", "^", "--"), "fwer:best_none": ("grey", "x", ":"), "fdr:best_bh": ("C2", "D", "-"),
         "cover:mean_like_these": ("tab:red", "o", "-"), "cover:mean_these": ("C0", "s", "-"),
         "cover:difference_like_these": ("C1", "^", "-"), "cover:difference_these": ("C2", "v", "-"),
         "cover:mean_bootstrap_like_these": ("grey", "x", "--"), "cover:mean_bootstrap_these": ("black", "+", "--"),
         "cover:ranks_like_these": ("tab:red", "o", "-"), "cover:ranks_these": ("C0", "s", "-"),
         "cover:iqm": ("C4", "D", "--"), "cover:improvement": ("C5", "P", "--"),
         "p:friedman": ("tab:red", "o", "-"), "fwer:nemenyi": ("C0", "s", "-"), "fwer:wilcoxon_holm": ("C1", "^", "-")}


SHORT = {"fwer:best_holm": "vs best, Holm over all pairs (FWER)", "fwer:reference_holm": "vs reference, Holm (FWER)",
         "fwer:best_holm_shown": "vs best, Holm over shown only (FWER)", "fdr:best_bh": "vs best, BH (FDR)",
         "cover:mean_like_these": "mean, tasks like these (worst model)", "cover:mean_these": "mean, these tasks (worst model)",
         "cover:difference_like_these": "difference, tasks like these", "cover:difference_these": "difference, these tasks",
         "cover:mean_bootstrap_like_these": "mean, bootstrap over tasks (model 0)",
         "cover:mean_bootstrap_these": "mean, bootstrap over runs (model 0)",
         "cover:ranks_like_these": "ranks, tasks like these", "cover:ranks_these": "ranks, these tasks",
         "cover:iqm": "IQM, bootstrap over runs", "cover:improvement": "P(improvement), bootstrap over runs",
         "p:friedman": "Friedman, all clones (size)", "fwer:nemenyi": "Nemenyi, clones (FWER)",
         "fwer:wilcoxon_holm": "Wilcoxon-Holm, clones (FWER)"}


def validation_figure(summary: pd.DataFrame, settings):
    """Rates against the number of tasks, one row per population of suites; ± 1.96 MCSE bars; the nominal value
    and its ± 3 MCSE band in green.  (Deciding per task without a correction is in the tables: its family-wise
    error, 0.3 to 1, would flatten the panel.)"""
    variants = [v for v in settings.variant_names if v in set(summary.variant)]
    fig, axes = plt.subplots(len(variants), len(PANELS), figsize=(3.6 * len(PANELS), 2.5 * len(variants) + 1.2),
                             constrained_layout=True, squeeze=False, sharex=True)
    sizes = sorted(summary["tasks"].unique())
    handles = [{} for _ in PANELS]
    for i, variant in enumerate(variants):
        for j, (title, checks, nominal_kind) in enumerate(PANELS):
            ax = axes[i, j]
            cell = summary[summary.variant == variant]
            for check in checks:
                sub = cell[cell.check == check].sort_values("tasks")
                if not len(sub):
                    continue
                colour, marker, ls = STYLE[check]
                label = SHORT[check]
                line = ax.errorbar(sub["tasks"], sub.rate, yerr=1.96 * sub.mcse, color=colour, marker=marker, ls=ls,
                                   ms=4, capsize=2, lw=1.2, label=label)
                handles[j].setdefault(label, line)
            nominal = settings.alpha if nominal_kind == "alpha" else settings.confidence_level
            band = 3 * math.sqrt(nominal * (1 - nominal) / settings.replicates)
            ax.axhline(nominal, color="tab:green", lw=1)
            ax.axhspan(nominal - band, nominal + band, color="tab:green", alpha=0.12)
            shown = cell[cell.check.isin(checks)]
            if nominal_kind == "level":
                ax.set_ylim(max(0.0, min(0.85, float(shown.rate.min()) - 0.03) if len(shown) else 0.85), 1.005)
            else:
                ax.set_ylim(0, max(0.15, float(shown.rate.max()) + 0.03) if len(shown) else 0.15)
            ax.set_xscale("log")
            ax.set_xticks(sizes)
            ax.set_xticklabels([str(n) for n in sizes], fontsize=7)
            ax.minorticks_off()
            ax.grid(alpha=0.3)
            ax.set_title(f"{variant}: {title}", fontsize=8)
            if j == 0:
                ax.set_ylabel("rate (share of suites)", fontsize=8)
            if i == len(variants) - 1:
                ax.set_xlabel("tasks per suite (log scale)", fontsize=8)
    for j, panel in enumerate(handles):
        axes[-1, j].legend(list(panel.values()), list(panel.keys()), loc="upper center", bbox_to_anchor=(0.5, -0.3),
                           fontsize=6.5, frameon=False)
    fig.suptitle(f"Many models over a suite of tasks: rates ± 1.96 MCSE over {settings.replicates:,} simulated suites "
                 "per point (green: nominal ± 3 MCSE)", fontsize=10)
    return fig
