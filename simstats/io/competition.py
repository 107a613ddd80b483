"""A competition's report: the tables of scores, differences and pairs with their intervals and p-values,
significance marks, rankings with uncertainty, the Markdown report and its figures (PNG + PDF).

Written by ``simstats competition`` and by the pipeline's competition study. The tables follow the
layout of Nava-Muñoz et al. (2024)'s Tables 2-6 and Figures 1-3; every verdict follows the analysis's
one decision rule (:class:`simstats.stats.competition.CompetitionAnalysis`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.io.write import markdown_table, pyplot
from simstats.stats.competition import CompetitionAnalysis, bootstrap_ranks, decision_rule, pvalue_description


MARKS = ((0.001, "***"), (0.01, "**"), (0.05, "*"), (0.1, "†"))


def significance_mark(p: float) -> str:
    """The mark of p in the paper's Table 4 (:data:`MARKS`; "" for p >= 0.1)."""
    for bound, mark in MARKS:
        if p < bound:
            return mark
    return ""


def difference_matrix(analysis: CompetitionAnalysis, correction: str | None = None, *,
                      scope: str | None = None) -> pd.DataFrame:
    """The paper's Table 4: lower-triangular matrix, cell (row j, column i) = improvement of i over j
    and the mark of its p-value adjusted by ``correction`` over ``scope`` (default: the analysis's
    decision rule)."""
    correction = analysis.correction if correction is None else correction
    pairs = analysis.pairs(scope=scope, intervals=False)
    cells = pd.DataFrame("", index=analysis.names[1:], columns=analysis.names[:-1])
    for row in pairs.itertuples(index=False):
        p = getattr(row, f"pvalue_{correction}")
        cells.loc[row.system, row.reference] = f"{row.difference:.3f} {significance_mark(p)}".rstrip()
    cells.index.name = "system"
    return cells.reset_index()


def marked_significance(analysis: CompetitionAnalysis, *, alpha: float = 0.05, scope: str | None = None,
                        correction: str | None = None) -> pd.DataFrame:
    """:meth:`CompetitionAnalysis.difference_significance` with a ``mark`` column before the
    ``significant_*`` ones: the mark of the p-value adjusted by ``correction`` (default: the
    analysis's decision rule; the paper's preset marks the raw p, as in Table 4)."""
    correction = analysis.correction if correction is None else correction
    out = analysis.difference_significance(alpha=alpha, scope=scope)
    pvalues = out["pvalue" if correction == "none" else f"pvalue_{correction}"]
    position = next(k for k, name in enumerate(out.columns) if name.startswith("significant_"))
    out.insert(position, "mark", [significance_mark(p) for p in pvalues])
    return out

def case_tables(analysis: CompetitionAnalysis, truth: dict | None = None, *,
                alpha: float = 0.05) -> dict[str, pd.DataFrame]:
    """The paper's Tables 2-6 for one competition (plus true scores when known), and under
    ``ranks`` the rankings with uncertainty (:meth:`CompetitionAnalysis.rank_table`: bootstrap
    rank intervals, P(rank 1), tie groups and possible winners; with ``truth``, also each system's
    true rank).  Every verdict (Table 3's ``different``, Table 4's marks, ties, possible winners)
    follows the analysis's one decision rule at ``alpha`` (:meth:`CompetitionAnalysis.decisions`);
    ``pairs.attrs`` holds the settings for the report's headings."""
    scores = analysis.score_intervals()
    differences = analysis.differences_from_best(alpha=alpha)
    pairs = analysis.pairs()
    marked = pairs.pvalue if analysis.correction == "none" else pairs[f"pvalue_{analysis.correction}"]
    pairs["mark"] = [significance_mark(p) for p in marked]
    pairs.attrs = {"alpha": alpha, "correction": analysis.correction, "scope": analysis.scope,
                   "alternative": analysis.alternative, "pvalue_rule": analysis.pvalue_rule,
                   "confidence_level": analysis.confidence_level}
    if truth is not None:
        scores.insert(3, "true_score", [truth[s] for s in scores.system])
        differences.insert(4, "true_difference",
                           [truth[differences.reference.iloc[0]] - truth[s] if analysis.metric.higher_is_better
                            else truth[s] - truth[differences.reference.iloc[0]] for s in differences.system])
    summary = pd.DataFrame([analysis.summary(alpha=alpha)])
    ranks = analysis.rank_table(alpha=alpha)
    if truth is not None:
        true_ranks = bootstrap_ranks([truth[s] for s in ranks.system], analysis.metric.higher_is_better)
        ranks.insert(3, "true_rank", true_ranks.astype(int) if np.all(true_ranks % 1 == 0) else true_ranks)
    ranks.attrs = dict(pairs.attrs)
    return {"scores": scores, "differences": differences, "pairs": pairs, "matrix": difference_matrix(analysis),
            "summary": summary, "ranks": ranks}


def ranks_heading(settings: dict) -> str:
    """Section heading and legend of the rank table in a case report (``settings``: case_tables' attrs)."""
    rule = decision_rule(settings["correction"], settings["scope"], settings["alpha"])
    return ("## Rankings with uncertainty\n\n"
            "rank: observed (1 = best, ties share the average rank); mean_rank, rank_low–rank_high: mean and "
            "percentile interval (outward to integers) of the ranks in the same bootstrap samples; p_rank1: share "
            f"of samples in which the system is best. Tie groups and possible winners follow the decision rule "
            f"({rule}): a new group starts where a system differs from the one ranked just above it; tied_with: "
            "every system not shown to differ from it; possible_winner: not shown to differ from the best.\n")


def case_markdown(title: str, tables: dict[str, pd.DataFrame], extra: dict[str, pd.DataFrame] | None = None) -> str:
    """The case report: Tables 2-6 and the rank table, with headings that say what each verdict used."""
    settings = tables["pairs"].attrs
    rule = decision_rule(settings["correction"], settings["scope"], settings["alpha"])
    level = f"{100 * settings['confidence_level']:g} %"
    family = "all pairs" if settings["scope"] == "all" else "each reference system's comparisons"
    parts = [f"# {title}\n",
             f"Every verdict below (Table 3's `different`, Table 4's marks, tie groups, possible winners) follows "
             f"one decision rule: {rule}; p-values {pvalue_description(settings['alternative'], settings['pvalue_rule'])}."
             "\n",
             f"## Ordered bootstrap CIs (Table 2; {level} percentile intervals)\n",
             markdown_table(tables["scores"], literal=True),
             f"\n## Differences from the best (Table 3; {level} percentile intervals, uncorrected; different: "
             f"{rule})\n", markdown_table(tables["differences"], literal=True),
             f"\n## Differences (column − row) and significance marks, {rule} (Table 4)\n"
             "† p < .1, * p < .05, ** p < .01, *** p < .001.\n",
             markdown_table(tables["matrix"], literal=True),
             f"\n## Raw and adjusted p-values (Table 5; each correction over {family}; mark: {rule})\n",
             markdown_table(tables["pairs"][["reference", "system", "difference", "pvalue", "pvalue_bonferroni",
                                             "pvalue_holm", "pvalue_bh", "mark"]], literal=True),
             f"\n## Summary measures (Table 6; ties per correction over {family}, alpha = {settings['alpha']:g})\n",
             markdown_table(tables["summary"], literal=True)]
    if "ranks" in tables:
        parts += ["\n" + ranks_heading(settings), markdown_table(tables["ranks"], literal=True)]
    for name, frame in (extra or {}).items():
        parts += [f"\n## {name}\n", markdown_table(frame, literal=True)]
    return "\n".join(parts)

COMPETITION_METRIC_LABEL = {"accuracy": "accuracy", "f1": "F1 (positive class)", "mae": "MAE (lower is better)",
                            "weighted_f1": "support-weighted F1"}


def metric_axis_label(metric_name: str) -> str:
    if metric_name.startswith("macro_f1"):
        inside = metric_name[len("macro_f1"):].strip("[]")
        return "macro-F1" + (f" ({inside.replace(',', ', ')})" if inside else "")
    return COMPETITION_METRIC_LABEL.get(metric_name, metric_name)


def ordered_intervals_figure(scores: pd.DataFrame, metric_name: str, paper: pd.DataFrame | None = None,
                             title: str = "", label: str = "ours: score and 95 % CI",
                             paper_label: str = "published"):
    """Figure 1: every system's score with its 95 % bootstrap CI, best on top (``label``: the legend
    entry of these intervals; ``paper``: published intervals, columns system, mean, lci, uci, drawn
    beside them as ``paper_label``)."""
    plt = pyplot()
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
                    capsize=3, label=paper_label)
    ax.set_yticks(y, scores.system)
    ax.set_xlabel(metric_axis_label(metric_name))
    ax.set_title(title or "Ordered bootstrap confidence intervals", fontsize=10)
    fig.legend(fontsize=8, loc="outside lower center", ncols=3)
    return fig


def difference_intervals_figure(differences: pd.DataFrame, metric_name: str, paper: pd.DataFrame | None = None,
                                title: str = "", rule: str | None = None, paper_label: str = "published"):
    """Figure 2: CIs of the winner's improvement over each system; red if the CI contains 0 (as the
    paper), or with ``rule`` (the decision rule in words) red where the column ``different`` is False."""
    plt = pyplot()
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
        ax.plot([], [], "s", color="0.55", label=paper_label)
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
    plt = pyplot()
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
