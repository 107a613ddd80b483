"""Tables of the competition study, side by side with Nava-Muñoz et al. (2024).

Verdicts are computed from the numbers with the tolerances stated here:
* Table 5 corrections from the paper's raw p-values: every adjusted value within 0.5e-4
  (the paper prints 4 decimals);
* CompStats' documented p-values on its own data: within 0.02 (its 1,000 resamples have a
  Monte Carlo sd of up to 0.016) plus the 3-decimal rounding;
* CI widths of the simulated VaxxStance competition vs the paper's real ones: within 15 %
  relative (a prediction of the noise model: the width depends on n, the score level and,
  for differences, on how correlated the systems' errors are), plus 1e-4 for the rounding of
  the paper's two CI limits.
All verdicts follow :func:`simstats.studies.reference.judge` (one simulated test set: no Monte
Carlo error is attached, so the point value is judged).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.stats.competition import (CompetitionAnalysis, adjust_pair_table, bootstrap_ranks, decision_rule,
                                        pvalue_description)
from simstats.stats.multitest import CORRECTIONS
from simstats.studies.reference import judge, reference_table
from simstats.io import markdown_table
from simstats.studies.navamunoz2024.conventions import difference_matrix, significance_mark
from simstats.studies.reference import paper_value

TABLE5_TOL = 0.5e-4
COMPSTATS_TOL = 0.02
WIDTH_TOL = 0.15
#: CompStats' documented one-sided p-values against INGEOTEC on its own data (weighted F1).
COMPSTATS_DOCUMENTED = {"BoW (Class Weight)": .001, "Dense": .032, "BoW (Corpus)": .006, "StackBoW": .091,
                        "BoW": .265}


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


def table5_check() -> pd.DataFrame:
    """The paper's Table 5 adjusted p-values vs statsmodels' corrections of its raw p column."""
    t5 = reference_table("nava_munoz_2024_table5")
    ours = adjust_pair_table(t5[["reference", "system", "pvalue"]], scope="group")
    rows = []
    for _, r in t5.iterrows():
        o = ours[(ours.reference == r.reference) & (ours.system == r.system)].iloc[0]
        for paper_col, label in (("bonferroni", "bonferroni"), ("fdr", "bh"), ("holm", "holm"), ("bh", "bh")):
            diff = abs(o[f"pvalue_{label}"] - r[paper_col])
            rows.append({"reference": r.reference, "system": r.system, "raw_p": r.pvalue,
                         "correction": paper_col, "paper": r[paper_col], "ours": o[f"pvalue_{label}"],
                         "abs_difference": diff,
                         "verdict": judge(o[f"pvalue_{label}"], np.nan, r[paper_col], TABLE5_TOL + 1e-12)})
    return pd.DataFrame(rows)


def compstats_check(analysis: CompetitionAnalysis) -> pd.DataFrame:
    """Our one-sided p-values vs INGEOTEC beside CompStats' documented values."""
    pairs = analysis.pairs().query("reference == @analysis.names[0]").set_index("system")
    rows = []
    for system, documented in COMPSTATS_DOCUMENTED.items():
        ours = float(pairs.loc[system, "pvalue"]) if system in pairs.index else np.nan
        diff = abs(ours - documented)
        rows.append({"reference": analysis.names[0], "system": system, "compstats_documented": documented,
                     "ours": ours, "abs_difference": diff,
                     "verdict": judge(ours, np.nan, documented, COMPSTATS_TOL + 0.0005)})
    return pd.DataFrame(rows)


def paper_pvalue_note(language: str, reference: str, system: str) -> str:
    """The paper's p-values of a pair on real data, for a Figure 3 panel: Figure 3's own value
    and Table 5's raw one (they differ for both Basque pairs the paper draws), or ""."""
    parts = []
    fig3 = paper_value("navamunoz2024", "pvalue", f"{language} {reference} vs {system}", "p")
    if fig3 is not None:
        parts.append(f"paper, Figure 3: p = {fig3:.4f}")
    if language == "Basque":
        t5 = reference_table("nava_munoz_2024_table5")
        hit = t5[(t5.reference == reference) & (t5.system == system)]
        if len(hit):
            parts.append(f"paper, Table 5 raw: p = {float(hit.pvalue.iloc[0]):.4f}")
    return "\n".join(parts)


def example_vs_paper(analysis: CompetitionAnalysis, language: str = "Basque") -> pd.DataFrame:
    """CI widths of a simulated VaxxStance competition beside the paper's Tables 2 and 3 for
    ``language`` (Table 3 pairs are the paper's: its winner against each other system)."""
    ref = reference_table("nava_munoz_2024_table2_3")
    ref = ref[ref.language == language]
    if ref.empty:
        raise ValueError(f"the paper's Tables 2 and 3 have no {language!r} column")
    a = (1 - analysis.confidence_level) / 2
    rows = []
    for _, r in ref.iterrows():
        if r.system not in analysis.names or (r.table == "T3" and r.reference not in analysis.names):
            continue
        j = analysis.names.index(r.system)
        values = (analysis.replicates[:, j] if r.table == "T2"
                  else analysis.improvement_replicates(analysis.names.index(r.reference), j))
        low, high = np.quantile(values, [a, 1 - a])
        paper_w, our_w = r.uci - r.lci, high - low
        rel = our_w / paper_w - 1
        row = {"table": r.table, "language": language, "reference": r.reference if r.table == "T3" else "",
               "system": r.system,
               "quantity": "95% CI width", "paper": paper_w, "ours": our_w, "relative_difference": rel,
               "verdict": judge(our_w, np.nan, paper_w, WIDTH_TOL * paper_w + 1e-4)}
        if r.table == "T3":
            row["paper_contains_zero"] = bool(r.lci <= 0 <= r.uci)
            row["ours_contains_zero"] = bool(low <= 0 <= high)
        rows.append(row)
    return pd.DataFrame(rows)


def _pm(est: float, se: float, digits: int = 3) -> str:
    if np.isnan(est):
        return "–"
    return f"{est:.{digits}f} ± {se:.{digits}f}" if not np.isnan(se) else f"{est:.{digits}f}"


def study_tables(summary: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Wide tables (estimate ± MCSE) of the known-truth study: winner/coverage, FWER, FDR, power."""
    keys = ["design", "metric", "m", "n", "replicates"]
    out = {}
    basic = summary[summary.scope == ""]
    wide = basic.pivot_table(index=keys, columns="quantity", values=["estimate", "mcse"], aggfunc="first")
    frame = wide.index.to_frame(index=False)
    for q in ("winner_truly_best", "coverage_scores", "coverage_differences"):
        frame[q] = [_pm(e, s) for e, s in zip(wide[("estimate", q)], wide[("mcse", q)])]
    out["winner_coverage"] = frame
    for quantity in ("fwer", "fdr", "power"):
        sub = summary[summary.quantity == quantity]
        wide = sub.pivot_table(index=keys, columns=["scope", "correction"], values=["estimate", "mcse"],
                               aggfunc="first")
        frame = wide.index.to_frame(index=False)
        for scope in ("group", "all"):
            for corr in CORRECTIONS:
                if ("estimate", scope, corr) in wide.columns:
                    frame[f"{scope}:{corr}"] = [_pm(e, s) for e, s in zip(wide[("estimate", scope, corr)],
                                                                         wide[("mcse", scope, corr)])]
        out[quantity] = frame
    return out


def study_markdown(summary: pd.DataFrame, alpha: float) -> str:
    t = study_tables(summary)
    parts = ["# Competitions with known truth\n",
             "Each row: `replicates` simulated competitions (m systems, n test items); estimate ± Monte Carlo "
             "standard error. Systems come in tied groups (equal true score); a rejected pair whose reference "
             "is not truly better is a false discovery. `group:` corrections within each reference system's "
             "comparisons (the paper, CompStats); `all:` over all m(m-1)/2 pairs.\n",
             "## Is the declared winner truly the best? Do 95 % percentile CIs cover the true values?\n",
             markdown_table(t["winner_coverage"]),
             f"\n## Family-wise error rate over all pairs (α = {alpha})\n", markdown_table(t["fwer"]),
             "\n## False discovery rate\n", markdown_table(t["fdr"]),
             "\n## Power (share of truly different pairs declared significant)\n", markdown_table(t["power"])]
    return "\n".join(parts)


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
             f"## Ordered bootstrap CIs (Table 2; {level} percentile intervals)\n", markdown_table(tables["scores"]),
             f"\n## Differences from the best (Table 3; {level} percentile intervals, uncorrected; different: "
             f"{rule})\n", markdown_table(tables["differences"]),
             f"\n## Differences (column − row) and significance marks, {rule} (Table 4)\n"
             "† p < .1, * p < .05, ** p < .01, *** p < .001.\n",
             markdown_table(tables["matrix"]),
             f"\n## Raw and adjusted p-values (Table 5; each correction over {family}; mark: {rule})\n",
             markdown_table(tables["pairs"][["reference", "system", "difference", "pvalue", "pvalue_bonferroni",
                                             "pvalue_holm", "pvalue_bh", "mark"]]),
             f"\n## Summary measures (Table 6; ties per correction over {family}, alpha = {settings['alpha']:g})\n",
             markdown_table(tables["summary"])]
    if "ranks" in tables:
        parts += ["\n" + ranks_heading(settings), markdown_table(tables["ranks"])]
    for name, frame in (extra or {}).items():
        parts += [f"\n## {name}\n", markdown_table(frame)]
    return "\n".join(parts)


def summary_vs_paper(summary: pd.DataFrame, language: str = "Basque") -> pd.DataFrame:
    """Our Table 6 measures beside the paper's Table 8 row of ``language`` (real data, so no
    tolerance: one simulated test set is one draw; the CI-width check is the quantitative one)."""
    rows = reference_table("nava_munoz_2024_summaries")
    rows = rows[rows.competition.str.endswith(language)]
    if rows.empty:
        raise ValueError(f"the paper's Table 8 has no VaxxStance {language!r} row")
    paper = rows.iloc[0]
    ours = summary.iloc[0]
    fmt = "/".join
    labels = ("none", "bonferroni", "holm", "bh")
    return pd.DataFrame([
        {"measure": "n", "paper": str(paper.n), "ours": str(ours.n)},
        {"measure": "m", "paper": str(paper.m), "ours": str(ours.m)},
        {"measure": "ties with winner (none/Bonf/Holm/BH)", "paper": paper.ties_with_winner,
         "ours": fmt(str(ours[f"ties_with_winner_{c}"]) for c in labels)},
        {"measure": "possible comparisons", "paper": str(paper.possible_comparisons),
         "ours": str(ours.possible_comparisons)},
        {"measure": "ties among all pairs (none/Bonf/Holm/BH)", "paper": paper.ties,
         "ours": fmt(str(ours[f"ties_{c}"]) for c in labels)},
        {"measure": "|win - med|", "paper": f"{paper.win_minus_median:.3f}", "ours": f"{ours.win_minus_median:.3f}"},
        {"measure": "CV (%)", "paper": f"{paper.cv_percent:.2f}", "ours": f"{ours.cv_percent:.2f}"},
        {"measure": "PPI (%)", "paper": f"{paper.ppi_percent:.2f}", "ours": f"{ours.ppi_percent:.2f}"},
    ])
