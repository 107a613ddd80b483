"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def dror_eps_figure(results: pd.DataFrame):
    """Histograms of ASO's eps per case (A: COS and SO decisive, B: COS only, C: neither, D: SO only)."""
    sources = sorted(results.source.unique())
    cases = ("A", "B", "C", "D")
    fig, axes = plt.subplots(len(sources), len(cases), figsize=(13, 3.0 * len(sources) + 0.6), layout="constrained",
                             squeeze=False, sharex=True)
    bins = np.linspace(0, 1, 21)
    for i, source in enumerate(sources):
        for j, case in enumerate(cases):
            ax = axes[i][j]
            eps = results[(results.source == source) & (results.case == case)].eps
            ax.hist(eps, bins=bins, color=f"C{j}")
            ax.axvline(0.5, color="k", lw=0.8, ls=":")
            ax.set_title(f"{source}: case {case} ({len(eps)} comparisons)", fontsize=9)
            if i == len(sources) - 1:
                ax.set_xlabel("ASO eps_min of the better approach (α = 0.01)")
            if j == 0:
                ax.set_ylabel("comparisons")
    return fig


def dror_noise_figure(rows: pd.DataFrame):
    """Figure 2 analogue: violation ratio (eps_W2) and eps_min per analysis."""
    kinds = [k for k in ("false_positive", "half_split", "false_negative") if k in set(rows.analysis)]
    fig, axes = plt.subplots(1, len(kinds), figsize=(4.6 * len(kinds), 3.8), layout="constrained", squeeze=False)
    bins = np.linspace(0, 1, 41)
    for ax, kind in zip(axes[0], kinds):
        g = rows[rows.analysis == kind]
        ax.hist(g.violation_ratio, bins=bins, alpha=0.7, label="violation ratio eps_W2")
        ax.hist(g.eps_min, bins=bins, alpha=0.5, label="eps_min (α = 0.05)")
        ax.axvline(0.5, color="k", lw=0.8, ls=":")
        ax.set_title(f"{kind.replace('_', ' ')} ({len(g)} comparisons)", fontsize=10)
        ax.set_xlabel("ASO eps of the first (noisy / half) vs the second distribution")
        ax.set_ylabel("comparisons")
        ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- Reimers & Gurevych (2018)


def aso_size_power_figure(rows: pd.DataFrame):
    """Size and power of ASO / Welch / MWU against runs per approach, one line per method and scenario kind."""
    labels = {"aso_0.2": "ASO eps_min < 0.2", "aso_0.4": "ASO eps_min < 0.4", "aso_0.5": "ASO eps_min < 0.5",
              "welch": "Welch t (p < 0.05)", "mannwhitney": "Mann-Whitney U (p < 0.05)"}
    shifts = sorted(s for s in rows.shift_sd.unique() if s > 0)
    kinds = {"normal runs (calibrated tasks)": rows[rows.scenario != "failure_tail"],
             "failure tail": rows[rows.scenario == "failure_tail"]}
    kinds = {k: v for k, v in kinds.items() if len(v)}
    fig, axes = plt.subplots(1 + len(shifts), len(kinds), figsize=(5.5 * len(kinds), 3.3 * (1 + len(shifts))),
                             constrained_layout=True, squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for col, (kind, sub) in enumerate(kinds.items()):
        for row, shift in enumerate([0.0, *shifts]):
            ax = axes[row, col]
            cell = sub[sub.shift_sd == shift]
            value = "claims_any" if shift == 0 else "claims_b"
            for k, (method, label) in enumerate(labels.items()):
                m = cell[cell.method == method].groupby("n")
                mean = m[value].mean()
                mcse = m[value + "_mcse"].apply(lambda s: float(np.sqrt((s**2).sum())) / len(s))
                ax.errorbar(mean.index, 100 * mean, yerr=196 * mcse, marker="o", ms=3, capsize=2,
                            color=colours[k % len(colours)], label=label)
            if shift == 0:
                ax.axhline(5, color="black", ls=":", lw=1, label="5 %")
                ax.set_title(f"{kind}: size (identical approaches)", fontsize=9)
                ax.set_ylabel("comparisons with a claim (%)")
            else:
                ax.set_title(f"{kind}: power, B better by {shift:g} robust sd", fontsize=9)
                ax.set_ylabel("comparisons claiming B (%)")
            ax.set_xscale("log")
            ns = sorted(cell.n.unique())
            ax.set_xticks(ns)
            ax.set_xticklabels([str(int(n)) for n in ns])
            ax.minorticks_off()
            ax.set_xlabel("runs per approach")
            ax.grid(alpha=0.3)
    axes[0, -1].legend(fontsize=7)
    fig.suptitle("ASO vs Welch vs Mann-Whitney U on simulated score distributions (mean over scenarios ± 1.96 MCSE)",
                 fontsize=10)
    return fig
