"""Nava-Muñoz et al. (2024)'s Table 4 marks and the tables built on them.

The analysis settings themselves (the paper's and the recommended presets) live with the analysis:
:data:`simstats.stats.competition.PRESETS`, :func:`simstats.stats.competition.competition_settings`.
"""
from __future__ import annotations

import pandas as pd

from simstats.stats.competition import CompetitionAnalysis

#: Significance marks of the paper's Table 4 (dagger p < .1, * < .05, ** < .01, *** < .001).
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
