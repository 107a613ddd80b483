"""Figures of this study (PNG + PDF, deterministic; written with simstats.io.save_figure).

The paper's numbers drawn on the figures come from the shipped targets
(`simstats/data/paper_targets.csv`, Table 4 rows) and from :data:`PAPER_NOISE` (section 6), and the
significance levels stated on them are the ones the simulation used (read from the code's defaults).
"""
from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from simstats.studies.dror2019.conventions import paper_table4  # noqa: E402
from simstats.studies.dror2019.simulate import PAPER_ALPHA_ASO, PAPER_NOISE  # noqa: E402
from simstats.studies.reference import paper_targets  # noqa: E402

#: alpha of the eps per comparison (Figure 1 analogue): compare_distributions' level (the paper's),
#: which real_data_comparisons (real data and the synthetic population) uses unchanged.
ALPHA_CASES = PAPER_ALPHA_ASO
#: alpha of eps_min in section-6 rows without an ``alpha_aso`` column (noise_analyses' default).
ALPHA_NOISE = PAPER_ALPHA_ASO

CASE_LABELS = {"A": "COS and SO decisive", "B": "COS decisive, SO not", "C": "neither decisive",
               "D": "SO decisive, COS not"}
#: section-6 columns drawn, with their legend text (``{alpha}`` filled in); absent columns are skipped.
NOISE_SERIES = (("eps_min_dror2019", "ε_min, the paper's computation ({level})"),
                ("eps_min", "ε_min, deepsig convention ({level})"),
                ("violation_ratio", "ε_W2 (violation ratio, no confidence margin)"))
NOISE_TITLES = {"false_positive": "(a) false positives: original + N(0, 0.001) vs original",
                "false_negative": "(b) false negatives: ∓φ² noisy version vs original"}


def _dror_targets() -> pd.DataFrame:
    t = paper_targets()
    return t[t.paper == "dror2019"]


def paper_alpha() -> float:
    """The paper's ASO level (Table 4: "all ASO results are significant with p <= 0.01")."""
    notes = " ".join(str(n) for n in _dror_targets().query("table == 'T4_summary'").note.dropna())
    hit = re.search(r"ASO at p<=([0-9.]+)", notes)
    if hit is None:
        raise ValueError("the shipped Table 4 targets state no ASO level")
    return float(hit.group(1))


def paper_noise_marks() -> dict[str, dict]:
    """Section 6 of the paper per analysis: mean, sd and the published range of eps as
    (low, high, legend text).  Mean, sd and the false-positive quantiles come from
    :data:`PAPER_NOISE`; the false-negative bound ("more than 99% below 0.4") from the target's note."""
    marks = {}
    fp = PAPER_NOISE["false_positive"]
    marks["false_positive"] = {"mean": fp["mean"], "sd": fp["sd"], "range": (
        fp["q2.5"], fp["q97.5"], f"paper: 95 % of ε in [{fp['q2.5']:g}, {fp['q97.5']:g}]")}
    fn = PAPER_NOISE["false_negative"]
    t = _dror_targets()
    note = " ".join(str(n) for n in t[(t.table == "false_negative") & (t.column == "eps_mean_sd")].note.dropna())
    hit = re.search(r"more than ([0-9.]+)% below ([0-9.]+)", note)
    if hit is None:
        raise ValueError("the shipped false-negative target states no bound")
    share, bound = hit.group(1), float(hit.group(2))
    marks["false_negative"] = {"mean": fn["mean"], "sd": fn["sd"],
                               "range": (0.0, bound, f"paper: > {share} % of ε below {bound:g}")}
    return marks


def _count(k: int) -> str:
    return f"{k} comparison" + ("" if k == 1 else "s")


def dror_eps_figure(results: pd.DataFrame, *, alpha: float = ALPHA_CASES):
    """Figure 1 analogue: histograms of ASO's eps per case, one row per ``results.source``.

    Cases A (COS and SO decisive), B (COS only) and C (neither) as in the paper, each with the
    paper's Table 4 mean eps; case D (SO only, which the paper never met) is not drawn, its count
    is stated in the row's title.  ``alpha``: the level of the eps_min in ``results.eps`` (the
    default is the one :func:`compare_distributions` uses)."""
    sources = sorted(results.source.unique())
    paper = paper_table4()
    palpha = paper_alpha()
    cases = ("A", "B", "C")
    fig = plt.figure(figsize=(12, 3.9 * len(sources) + 1.0), layout="constrained")
    subfigs = np.atleast_1d(fig.subfigures(len(sources), 1))
    bins = np.linspace(0, 1, 21)
    for sub, source in zip(subfigs, sources):
        g = results[results.source == source]
        d = g[g.case == "D"]
        sub.suptitle(f"{source}: {_count(len(g))}; case D ({CASE_LABELS['D']}, absent from the paper): "
                     f"{len(d)} ({100 * len(d) / max(len(g), 1):.1f} %), not drawn", fontsize=10)
        axes = sub.subplots(1, len(cases), sharex=True)
        for j, (ax, case) in enumerate(zip(axes, cases)):
            eps = g[g.case == case].eps
            ax.hist(eps, bins=bins, color=f"C{j}", alpha=0.8)
            ax.axvline(paper[case]["eps_mean"], color="crimson", lw=1.8)
            if len(eps):
                ax.axvline(eps.mean(), color="k", lw=1.2, ls="--")
                here = f"mean ε {eps.mean():.3f}"
            else:
                ax.text(0.5, 0.5, "no comparisons", transform=ax.transAxes, ha="center", va="center")
                here = "no ε"
            ax.axvline(0.5, color="grey", lw=0.8, ls=":")
            ax.set_xlim(-0.02, 1.02)
            ax.set_ylim(0, max(ax.get_ylim()[1], 1))     # an empty case too gets a count axis
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(f"case {case}: {CASE_LABELS[case]}\n{_count(len(eps))} "
                         f"({100 * len(eps) / max(len(g), 1):.1f} %; paper {paper[case]['share']:g} %)\n"
                         f"{here} (paper {paper[case]['eps_mean']:g})", fontsize=9)
            ax.set_xlabel(f"ASO ε_min of the better approach (α = {alpha:g})", fontsize=9)
            if j == 0:
                ax.set_ylabel("comparisons (count)")
    means = ", ".join(f"{c} {paper[c]['eps_mean']:g}" for c in cases)
    handles = [Line2D([], [], color="crimson", lw=1.8, label=f"paper's Table 4 mean ε of the case ({means})"),
               Line2D([], [], color="k", lw=1.2, ls="--", label="mean ε of the case here"),
               Line2D([], [], color="grey", lw=0.8, ls=":", label="ε = 0.5 (no decision)")]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=9, frameon=False)
    level = f"α = {alpha:g}" + ("" if alpha == palpha else f"; the paper used α = {palpha:g}")
    fig.suptitle(f"Figure 1 analogue: ASO's ε per case ({level}; ε is a unitless share in [0, 1])", fontsize=11)
    return fig


def _cut_tall_bars(ax, heights: dict[str, np.ndarray], bins: np.ndarray) -> None:
    """If one series' peak dwarfs the others (> 3x), cut the y axis above the others and print the
    count of each cut bar, so that every series stays readable."""
    peaks = sorted((float(h.max()), name) for name, h in heights.items() if h.size)
    if len(peaks) < 2 or peaks[-1][0] <= 3 * peaks[-2][0]:
        return
    top = 1.35 * peaks[-2][0]
    ax.set_ylim(0, top)
    for h in heights.values():
        for k in np.flatnonzero(h > top):
            ax.annotate(f"↑ {int(h[k])} (bar cut)", xy=((bins[k] + bins[k + 1]) / 2, top), xytext=(0, -2),
                        textcoords="offset points", ha="right" if k > len(h) / 2 else "left", va="top", fontsize=8)


def dror_noise_figure(rows: pd.DataFrame, *, alpha: float | None = None):
    """Figure 2 analogue, section 6: (a) the false-positive and (b) the false-negative analysis, as
    in the paper's Figure 2 (the half-split analysis, which it reports only in the text, is not
    drawn).  Per panel: histograms of eps_min under both conventions and of the violation ratio,
    with the paper's mean and published range.  ``alpha``: the level of eps_min in ``rows``
    (default: their ``alpha_aso`` column, else noise_analyses' default)."""
    if alpha is None:
        alpha = float(rows.alpha_aso.iloc[0]) if "alpha_aso" in rows and len(rows) else ALPHA_NOISE
    kinds = [k for k in ("false_positive", "false_negative") if k in set(rows.analysis)]
    marks = paper_noise_marks()
    palpha = paper_alpha()
    level = f"α = {alpha:g}" + ("" if alpha == palpha else f"; the paper used α = {palpha:g}")
    series = [(col, text.format(level=level)) for col, text in NOISE_SERIES if col in rows]
    fig, axes = plt.subplots(1, max(len(kinds), 1), figsize=(6.4 * max(len(kinds), 1), 6.0), layout="constrained",
                             squeeze=False)
    bins = np.linspace(0, 1, 51)
    styles = [{"histtype": "stepfilled", "alpha": 0.45}, {"histtype": "step", "lw": 1.6},
              {"histtype": "step", "lw": 1.2, "ls": "--"}]
    for ax, kind in zip(axes[0], kinds):
        g = rows[rows.analysis == kind]
        heights = {}
        for k, (col, label) in enumerate(series):
            heights[col], _, _ = ax.hist(g[col], bins=bins, color=f"C{k}", label=label, **styles[k % len(styles)])
        m = marks[kind]
        lo, hi, text = m["range"]
        ax.axvspan(lo, hi, color="gold", alpha=0.25, label=text)
        ax.axvline(m["mean"], color="crimson", lw=1.8, label=f"paper: mean ε = {m['mean']:g} (sd {m['sd']:g})")
        ax.axvline(0.5, color="grey", lw=0.8, ls=":", label="ε = 0.5 (neither better)")
        _cut_tall_bars(ax, heights, bins)
        ax.set_xlim(0, 1)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"{NOISE_TITLES[kind]}\n{_count(len(g))}", fontsize=10)
        ax.set_xlabel("ASO ε that the noisy version is better (unitless; 0 = noisy better)", fontsize=9)
        ax.set_ylabel("comparisons (count)")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncols=1, frameon=False)
    fig.suptitle(f"Figure 2 analogue: ASO's ε against noisy versions of each distribution (simulated at {level})",
                 fontsize=11)
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
