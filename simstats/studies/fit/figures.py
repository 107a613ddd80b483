"""The fit study's figure: every parameter's interval coverage per design of runs, against the nominal level."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from simstats.sim.fit import PARAMETER_ORDER  # noqa: E402


def validation_figure(summary, settings):
    """Coverage ± 1.96 MCSE of each parameter's interval (x) for each design (colour), the nominal level drawn
    with its band of ± 3 MCSE at the study's replicates."""
    params = [p for p in PARAMETER_ORDER if p in set(summary.parameter)]
    variants = [v for v in settings.variant_names if v in set(summary.variant)]
    fig, ax = plt.subplots(figsize=(max(7.0, 0.9 * len(params) + 3), 4.2))
    level = settings.confidence_level
    band = 3 * np.sqrt(level * (1 - level) / settings.replicates)
    ax.axhspan(level - band, min(1.0, level + band), color="0.9", zorder=0,
               label=f"nominal {level:.0%} ± 3 MCSE")
    ax.axhline(level, color="black", lw=1)
    width = 0.8 / max(1, len(variants))
    for j, variant in enumerate(variants):
        part = summary[summary.variant == variant].set_index("parameter")
        xs = [i - 0.4 + width * (j + 0.5) for i, p in enumerate(params) if p in part.index]
        ys = [part.coverage[p] for p in params if p in part.index]
        es = [1.96 * part.mcse[p] for p in params if p in part.index]
        ax.errorbar(xs, ys, yerr=es, fmt="o", ms=4, capsize=2, label=variant, color=f"C{j % 10}")
    ax.set_xticks(range(len(params)))
    ax.set_xticklabels(params, rotation=30, ha="right")
    ax.set_xlabel("fitted parameter")
    ax.set_ylabel(f"coverage of the {level:.0%} interval (share of fits)")
    low = min(0.7, float((summary.coverage - 2 * summary.mcse).min()))
    ax.set_ylim(low, 1.005)
    ax.set_title("simstats fit: runs simulated from known parameters, fitted back (± 1.96 MCSE)")
    ax.legend(fontsize=7, ncol=2, loc="lower left")
    fig.tight_layout()
    return fig
