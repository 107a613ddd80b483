"""Figures (PNG + PDF, deterministic)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .tables import _atomic  # noqa: E402

METRIC_LABEL = {"accuracy": "accuracy", "recall": "recall", "precision": "precision", "f1": "F1"}


def save_figure(fig, png_path, pdf_path) -> None:
    """Write PNG and PDF atomically; the PDF carries no creation date (byte-stable)."""
    _atomic(png_path, lambda tmp: fig.savefig(tmp, format="png", dpi=150, metadata={"Software": None}))
    _atomic(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata={"CreationDate": None, "Creator": None,
                                                                            "Producer": None}))
    plt.close(fig)


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
COMPETITION_METRIC_LABEL = {"accuracy": "accuracy", "f1": "F1 (positive class)", "mae": "MAE (lower is better)",
                            "weighted_f1": "support-weighted F1"}


def metric_axis_label(metric_name: str) -> str:
    if metric_name.startswith("macro_f1"):
        inside = metric_name[len("macro_f1"):].strip("[]")
        return "macro-F1" + (f" ({inside.replace(',', ', ')})" if inside else "")
    return COMPETITION_METRIC_LABEL.get(metric_name, metric_name)


def ordered_intervals_figure(scores: pd.DataFrame, metric_name: str, paper: pd.DataFrame | None = None,
                             title: str = ""):
    """Figure 1: every system's score with its 95 % bootstrap CI, best on top."""
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(scores) + 2.0), layout="constrained")
    y = np.arange(len(scores))[::-1].astype(float)
    ax.errorbar(scores.score, y, xerr=[scores.score - scores.ci_low, scores.ci_high - scores.score], fmt="o",
                color="C0", capsize=3, label="ours: score and 95 % CI")
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
                                title: str = ""):
    """Figure 2: CIs of the winner's improvement over each system; red if the CI contains 0."""
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(differences) + 2.0), layout="constrained")
    y = np.arange(len(differences))[::-1].astype(float)
    for k, row in enumerate(differences.itertuples(index=False)):
        colour = "tab:red" if row.contains_zero else "tab:green"
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
    ax.plot([], [], "o", color="tab:red", label="CI contains 0")
    ax.plot([], [], "o", color="tab:green", label="CI excludes 0")
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y, differences.system)
    ax.set_xlabel(f"improvement of {differences.reference.iloc[0]} ({metric_axis_label(metric_name)} points)")
    ax.set_title(title or "Bootstrap CIs of differences from the best", fontsize=10)
    fig.legend(fontsize=8, loc="outside lower center", ncols=3)
    return fig


def bootstrap_difference_figure(panels, metric_name: str):
    """Figure 3: bootstrap distributions of differences with 0, delta and 2 delta marked.

    panels: list of (label, replicates, delta, pvalue)."""
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.8), constrained_layout=True,
                             squeeze=False)
    for ax, (label, values, delta, p) in zip(axes[0], panels):
        ax.hist(values, bins=60, color="C0", alpha=0.75)
        for x, style, name in ((0.0, "-", "0"), (delta, "--", "δ"), (2 * delta, ":", "2δ")):
            ax.axvline(x, color="k", ls=style, lw=1.2, label=f"{name} = {x:.4f}")
        ax.set_title(f"{label}\np = P*(δ* ≥ 2δ) = {p:.4f}", fontsize=9)
        ax.set_xlabel(f"bootstrap difference δ* ({metric_axis_label(metric_name)} points)")
        ax.set_ylabel("bootstrap samples")
        ax.legend(fontsize=8)
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
def reimers_figure4(tables: pd.DataFrame):
    """% of best-of-n comparisons called significant against n, per task, with a 95 % MCSE band."""
    fig, ax = plt.subplots(figsize=(8.5, 6.4), constrained_layout=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    f4 = tables[(tables.table == "F4_eval2_vs_n")]
    for k, (ref, sub) in enumerate(f4.groupby("reference", sort=True)):
        c = colours[k % len(colours)]
        sub = sub.sort_values("n")
        ax.plot(sub.n, sub.estimate, marker="o", ms=3, color=c, label=ref)
        ax.fill_between(sub.n, sub.estimate - 1.96 * sub.se, sub.estimate + 1.96 * sub.se, color=c, alpha=0.15)
        for table, n_col, marker in (("T1_eval1", 1, "s"), ("T2_eval2", None, "D")):
            paper = tables[(tables.table == table) & (tables.reference == ref) & (tables.quantity == "pct_significant")]
            if len(paper) and np.isfinite(paper.paper.iloc[0]):
                ax.scatter([n_col or paper.n.iloc[0]], [paper.paper.iloc[0]], marker=marker, facecolors="none",
                           edgecolors=c, s=45, zorder=3)
        marked = sub[np.isfinite(sub.paper)]
        if len(marked):
            ax.scatter(marked.n, marked.paper, marker="*", s=160, color=c, edgecolors="black", zorder=4,
                       label=f"paper, {ref}, n = {int(marked.n.iloc[0])}: {marked.paper.iloc[0]:.2f} %")
    ax.scatter([], [], marker="s", facecolors="none", edgecolors="grey", label="paper, Table 1 (n = 1)")
    ax.scatter([], [], marker="D", facecolors="none", edgecolors="grey", label="paper, Table 2 (best of 50)")
    ax.set_xscale("log")
    ns = sorted(f4.n.unique())
    ax.set_xticks(ns)
    ax.set_xticklabels([str(int(n)) for n in ns], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel("runs per approach the best-by-dev model is chosen from, n (log scale)")
    ax.set_ylabel("comparisons called significant at p < 0.05 (%)")
    ax.set_title("Identical approaches, best-by-dev model of n runs each (band: ±1.96 MCSE)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    ax.set_ylim(bottom=0)
    return fig


def reimers_dev_test_figure(scores: dict, tables: pd.DataFrame, max_points: int = 4000):
    """Dev vs test F1 per task with the OLS fit and the paper-level prediction band f(x) ± zeta(x)."""
    from .reimers_tables import prediction_interval_width, regression_line

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
        ax.set_xlabel("dev F1 (%)", fontsize=8)
        ax.set_ylabel("test F1 (%)", fontsize=8)
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
    from .reimers_tables import required_runs

    needed = required_runs(power, target)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), constrained_layout=True, sharey=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    cap = int(power.n.max())
    for ax, test, title in ((axes[0], "welch", "Evaluation 3: Welch's t test"),
                            (axes[1], "mannwhitney", "Evaluation 4: Mann-Whitney U")):
        for k, (ref, sub) in enumerate(needed[needed.test == test].groupby("reference", sort=True)):
            y = sub.runs_needed.fillna(cap * 1.25)
            ax.plot(sub.d, y, marker="o", ms=3, color=colours[k % len(colours)], label=ref)
        ax.axhline(cap, color="grey", ls=":", lw=1, label=f"largest n tried ({cap}); points above: more")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("true difference d (F1 points, log scale)")
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
