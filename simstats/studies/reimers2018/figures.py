"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


from simstats.studies.reimers2018.calibration import FIGURE4_REFERENCE as FIGURE4_TASK  # noqa: E402


def _figure4_panel(ax, tables: pd.DataFrame, curves: pd.DataFrame | None, ref: str, *, legend: bool) -> None:
    """One task: simulated % significant vs n (±1.96 MCSE), the closed form, the paper's values."""
    sub = tables[(tables.table == "F4_eval2_vs_n") & (tables.reference == ref)].sort_values("n")
    ax.plot(sub.n, sub.estimate, marker="o", ms=3, color="C0", label="simulated (band: ±1.96 MCSE)")
    ax.fill_between(sub.n, sub.estimate - 1.96 * sub.se, sub.estimate + 1.96 * sub.se, color="C0", alpha=0.15)
    if curves is not None:
        c = curves[curves.reference == ref].sort_values("n")
        if len(c):
            ax.plot(c.n, c.pct_significant, color="C1", lw=1.5, label="noise model, closed form")
    marks = []
    for table, marker, what in (("T1_eval1", "s", "Table 1 (n = 1)"), ("T2_eval2", "D", "Table 2 (best of 50)")):
        paper = tables[(tables.table == table) & (tables.reference == ref) & (tables.quantity == "pct_significant")]
        if len(paper) and np.isfinite(paper.paper.iloc[0]):
            n = 1 if table == "T1_eval1" else int(paper.n.iloc[0])
            marks.append((n, float(paper.paper.iloc[0]), marker, f"paper, {what}"))
    for r in sub[np.isfinite(sub.paper)].itertuples():
        marks.append((int(r.n), float(r.paper), "*", f"paper, Figure 4 text (n = {int(r.n)})"))
    for n, value, marker, label in marks:
        ax.scatter([n], [value], marker=marker, s=150 if marker == "*" else 55, color="black" if marker == "*" else
                   "none", edgecolors="black", zorder=4, label=f"{label}: {value:.2f} %")
    ax.set_xscale("log")
    ns = sorted(sub.n.unique())
    ax.set_xticks(ns)
    ax.set_xticklabels([str(int(n)) for n in ns], fontsize=7)
    ax.minorticks_off()
    ax.grid(alpha=0.3, which="both")
    values = [v for _, v, _, _ in marks] + [1.0]
    if len(sub):
        values.append(float(np.nanmax(sub.estimate + 1.96 * sub.se.fillna(0))))
    if curves is not None and len(c):
        values.append(float(c.pct_significant.max()))
    ax.set_ylim(0, 1.05 * max(values))
    if legend:
        ax.legend(fontsize=7, loc="lower left")
    return 1.05 * max(values)


def reimers_figure4(tables: pd.DataFrame, curves: pd.DataFrame | None = None):
    """Figure 4 (NER-En, as the paper): % of best-of-n comparisons called significant against n."""
    fig, ax = plt.subplots(figsize=(7.5, 5.2), constrained_layout=True)
    _figure4_panel(ax, tables, curves, FIGURE4_TASK, legend=True)
    ax.set_xlabel("runs per approach the best-by-dev model is chosen from, n (log scale)")
    ax.set_ylabel("comparisons called significant at p < 0.05 (%)")
    ax.set_title(f"Figure 4 analogue, {FIGURE4_TASK}: identical approaches, best-by-dev model of n runs each",
                 fontsize=10)
    return fig


def _has_paper_values(tables: pd.DataFrame, ref: str) -> bool:
    """Whether the paper publishes % significant for this task (one of its seven tasks)."""
    rows = tables[(tables.reference == ref) & (tables.quantity == "pct_significant")]
    return bool(np.isfinite(rows.paper).any())


def reimers_figure4_tasks(tables: pd.DataFrame, curves: pd.DataFrame | None = None):
    """Figure 4's curve for every other task, small multiples: first the paper's tasks on one y scale,
    then the configured scenarios without published values, each on its own scale."""
    refs = sorted(set(tables[tables.table == "F4_eval2_vs_n"].reference) - {FIGURE4_TASK})
    paper = [r for r in refs if _has_paper_values(tables, r)]
    refs = paper + [r for r in refs if r not in paper]
    cols = min(3, max(len(refs), 1))
    rows = max(-(-len(refs) // cols), 1)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), constrained_layout=True, squeeze=False)
    tops = {}
    for ax, ref in zip(axes.ravel(), refs):
        tops[ref] = _figure4_panel(ax, tables, curves, ref, legend=False)
        ax.set_title(ref if ref in paper else f"{ref} (scenario, no published values)", fontsize=9)
        ax.set_xlabel("n (log scale)", fontsize=8)
        ax.set_ylabel("% significant at p < 0.05", fontsize=8)
    shared = max((tops[r] for r in paper), default=1.0)
    for ax, ref in zip(axes.ravel(), refs):
        ax.set_ylim(0, shared if ref in paper else tops[ref])
    for ax in axes.ravel()[len(refs):]:
        ax.set_visible(False)
    handles, labels = axes.ravel()[0].get_legend_handles_labels()
    keep = [(h, lab.rsplit(": ", 1)[0] if lab.startswith("paper") else lab) for h, lab in zip(handles, labels)]
    fig.legend([h for h, _ in keep], [lab for _, lab in keep], fontsize=7, loc="outside lower center", ncol=4)
    fig.suptitle("Figure 4 for the other tasks and the configured scenarios: best-by-dev model of n runs per "
                 "approach\n(simulated ±1.96 MCSE, closed form where calibrated, the paper's Table 1/2 values; "
                 "the paper's tasks share one y scale)", fontsize=10)
    return fig


def reimers_dev_test_figure(scores: dict, tables: pd.DataFrame, max_points: int = 4000,
                            metrics: dict | None = None):
    """Dev vs test score per task with the OLS fit and the paper-level prediction band f(x) ± zeta(x);
    ``metrics`` names each scenario's metric for the axis labels (default F1)."""
    from simstats.studies.reimers2018.tables import prediction_interval_width, regression_line

    names = sorted(scores)
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.3 * rows), constrained_layout=True, squeeze=False)
    for ax, name in zip(axes.ravel(), names):
        s = scores[name]
        dev, test = 100 * s.psi_dev.to_numpy(), 100 * s.psi_test.to_numpy()
        a, b = regression_line(dev, test)
        width = prediction_interval_width(dev, test)
        ax.scatter(dev[:max_points], test[:max_points], s=3, alpha=0.3, linewidths=0, color="tab:blue")
        order = np.argsort(dev)
        x = dev[order]
        fit = a + b * x
        ax.plot(x, fit, color="black", lw=1, label="OLS fit")
        ax.fill_between(x, fit - width[order] / 2, fit + width[order] / 2, color="tab:orange", alpha=0.25,
                        label=f"± ζ: mean 2ζ = {width.mean():.2f}")
        row = tables[(tables.scenario == name) & (tables.table == "T3_prediction_interval")]
        ref = row.reference.iloc[0] if len(row) else name
        if len(row) and np.isfinite(row.paper.iloc[0]):
            ax.plot([], [], " ", label=f"paper 2ζ = {row.paper.iloc[0]:.2f}")
        ax.set_title(ref, fontsize=9)
        metric = (metrics or {}).get(name, "f1").replace("f1", "F1")
        ax.set_xlabel(f"dev {metric} (%)", fontsize=8)
        ax.set_ylabel(f"test {metric} (%)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6.5, loc="upper left")
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    fig.suptitle(f"Dev vs test score of simulated runs (first {max_points:,} shown), OLS fit of test on dev\n"
                 "and the prediction band f(dev) ± ζ at the paper's level (1 - α)² = 0.05", fontsize=10)
    return fig


def reimers_power_figure(power: pd.DataFrame, target: float):
    """Runs per approach needed for the target power against the true difference d, per task and test."""
    from simstats.studies.reimers2018.tables import required_runs

    needed = required_runs(power, target)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), constrained_layout=True, sharey=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    cap = int(power.n.max())
    for ax, test, title in ((axes[0], "welch", "Evaluation 3: Welch's t test"),
                            (axes[1], "mannwhitney", "Evaluation 4: Mann-Whitney U")):
        for k, (ref, sub) in enumerate(needed[needed.test == test].groupby("reference", sort=True)):
            y = sub.runs_needed.fillna(cap * 1.25)
            ax.plot(sub.d, y, marker="o", ms=3, color=colours[k % len(colours)], label=ref,
                    ls="-" if k < len(colours) else "--")
        ax.axhline(cap, color="grey", ls=":", lw=1, label=f"largest n tried ({cap}); points above: more")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("true difference d (points of the task's metric, log scale)")
        ax.set_title(title)
        ax.grid(alpha=0.3, which="both")
    axes[0].set_ylabel(f"runs per approach for {100 * target:.0f} % power (log scale)")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle("How many runs per approach detect a true difference (α = 0.05, two-sided)", fontsize=11)
    return fig


def reimers_calibration_figure(calibration: pd.DataFrame):
    """Residuals of the three calibrated cells per task: closed-form fit and simulation vs the paper."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.4), constrained_layout=True)
    labels = {"tau": ("τ: (ours − paper) / paper (%)", True, 15.0),
              "delta95_test": ("Δ95 test: (ours − paper) / paper (%)", True, 15.0),
              "spearman_rho": ("Spearman ρ: ours − paper", False, 0.05)}
    for ax, (quantity, (label, relative, band)) in zip(axes, labels.items()):
        sub = calibration[calibration.quantity == quantity].reset_index(drop=True)
        x = np.arange(len(sub))
        scale = 100 / sub.paper.abs() if relative else np.ones(len(sub))
        ax.axhspan(-band, band, color="tab:green", alpha=0.12, label="tolerance of the other cells")
        ax.axhline(0, color="black", lw=1, label="paper")
        ax.errorbar(x, sub.simulated_residual * scale, yerr=1.96 * sub.simulated_se.fillna(0) * scale, fmt="o",
                    color="tab:blue", ms=4, capsize=2, label="simulated ± 1.96 MCSE")
        ax.scatter(x, sub.closed_form_residual * scale, marker="x", color="tab:orange", label="closed-form fit",
                   zorder=3)
        ax.set_xticks(x)
        ax.set_xticklabels(sub.reference, rotation=55, ha="right", fontsize=7)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Calibrated cells: residuals of the closed-form fit and of the simulation", fontsize=11)
    return fig
