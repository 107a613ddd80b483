"""Dror et al. (2019): which reading of the U test could give the paper's SO verdicts?

The paper calls SO significant when a Mann-Whitney U test gives p <= 0.05 and reports SO significant
in 0.98 % of its 510 comparisons (case A; no case D).  Its released script computes
``mannwhitneyu(A, B, alternative="less")`` (p = 1 below 20 scores per sample) but does not say which
algorithm is A, and its call is commented out.  This module computes the SO share, and with COS the
case A and case D shares, under each reading of that test on the same comparison sets as the real-data
study, and every reading's p-value for the two published examples matched run-for-run in the UKP runs
(Tables 2 and 3).  A reading the paper could have used must give its numbers.

Readings (all with the script's p = 1 below 20 scores per sample):

* ``two-sided``: the usual two-sided test;
* ``less, stored order``: A is the first of the pair as the comparison set lists it;
* ``less, ASO winner first``: A is the approach ASO (paper's convention) declares better;
* ``less, ASO loser first``: A is the other one.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.studies.dror2019.cases import paper_cases, real_run_samples
from simstats.stats.lazy import lazy_module

stats = lazy_module("scipy.stats")

READINGS = ("two-sided", "less, stored order", "less, ASO winner first", "less, ASO loser first")
#: The paper's Table 4: SO significant only in case A (0.98 % of 510), never in case D.
PAPER_SO_PERCENT = 0.98
MIN_SCORES = 20
KEYS = ["source", "task", "factor", "a", "b"]


def one_sided_pvalues(scores_a, scores_b) -> dict[str, float]:
    """Two-sided and both one-sided U p-values of (A, B), each 1 when a sample has < 20 scores."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    if a.size < MIN_SCORES or b.size < MIN_SCORES:
        return {"two-sided": 1.0, "less": 1.0, "greater": 1.0}
    return {alt: float(stats.mannwhitneyu(a, b, alternative=alt).pvalue) for alt in ("two-sided", "less", "greater")}


def reading_pvalues(scores_a, scores_b, a_wins: bool) -> dict[str, float]:
    """The p-value of each reading in READINGS; ``a_wins``: ASO declares A better."""
    p = one_sided_pvalues(scores_a, scores_b)
    return {"two-sided": p["two-sided"], "less, stored order": p["less"],
            "less, ASO winner first": p["less"] if a_wins else p["greater"],
            "less, ASO loser first": p["greater"] if a_wins else p["less"]}


def so_readings(comparisons: list[tuple], results: pd.DataFrame, *, alpha_so: float = 0.05) -> pd.DataFrame:
    """Per comparison source and reading: SO significant (p <= alpha_so), case A (COS decisive too) and
    case D (COS undecided) shares in percent, beside the paper's.  ``comparisons`` as built by
    ``ukp_distributions`` / ``ibm_distributions``; ``results`` the real-data study's verdicts under the
    paper's convention (columns KEYS, cos, eps_min_ab, eps_min_ba)."""
    verdicts = results.set_index(KEYS)
    rows = []
    for source, task, factor, a, b, sa, sb in comparisons:
        key = (source, task, factor, a, b)
        if key not in verdicts.index:
            raise ValueError(f"no real-data verdict for comparison {key}")
        r = verdicts.loc[key]
        p = reading_pvalues(sa, sb, a_wins=bool(r.eps_min_ab < r.eps_min_ba))
        rows += [{"source": source, "reading": k, "p": v, "cos": int(r.cos)} for k, v in p.items()]
    frame = pd.DataFrame(rows)
    out = []
    for (source, reading), g in frame.groupby(["source", "reading"], sort=False):
        sig = g.p <= alpha_so
        out.append({"source": source, "reading": reading, "comparisons": len(g),
                    "so_percent": 100 * sig.mean(), "case_a_percent": 100 * (sig & (g.cos != 0)).mean(),
                    "case_d_percent": 100 * (sig & (g.cos == 0)).mean(),
                    "cos_percent": 100 * (g.cos != 0).mean(), "paper_so_percent": PAPER_SO_PERCENT})
    return pd.DataFrame(out)


def example_readings(ukp: pd.DataFrame) -> pd.DataFrame:
    """The U p-values of the UKP runs behind the paper's Tables 2 and 3 (cases B and C), in each
    sidedness and order, beside the published p."""
    rows = []
    for spec in paper_cases():
        if spec["case"] not in ("B", "C"):
            continue
        first, second = real_run_samples(ukp, spec["case"])
        p = one_sided_pvalues(first, second)
        rows.append({"case": spec["case"], "first": spec["names"][0], "second": spec["names"][1],
                     "n_first": first.size, "n_second": second.size, "p_two_sided": p["two-sided"],
                     "p_first_less": p["less"], "p_second_less": p["greater"], "p_paper": spec["paper_u_p"]})
    return pd.DataFrame(rows)


def so_readings_markdown(readings: pd.DataFrame, examples: pd.DataFrame) -> str:
    lines = ["# Dror et al. (2019): the U test read several ways\n",
             f"The paper: SO significant (U p <= 0.05) in {PAPER_SO_PERCENT} % of 510 comparisons, all case A, no "
             "case D. Every reading applies the released script's p = 1 below 20 scores per sample.\n",
             "| source | reading | comparisons | SO significant % | case A % | case D % | COS decisive % |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in readings.itertuples():
        lines.append(f"| {r.source} | {r.reading} | {r.comparisons} | {r.so_percent:.1f} | {r.case_a_percent:.1f} | "
                     f"{r.case_d_percent:.1f} | {r.cos_percent:.1f} |")
    lines += ["", "Published examples on the UKP runs matched by size (Tables 2 and 3):", "",
              "| case | first (n) | second (n) | two-sided p | first less p | second less p | paper p |",
              "|---|---|---|---:|---:|---:|---:|"]
    for r in examples.itertuples():
        lines.append(f"| {r.case} | {r.first} ({r.n_first}) | {r.second} ({r.n_second}) | {r.p_two_sided:.3g} | "
                     f"{r.p_first_less:.3g} | {r.p_second_less:.3g} | {r.p_paper:g} |")
    return "\n".join(lines) + "\n"
