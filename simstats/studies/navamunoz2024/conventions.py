"""Nava-Muñoz et al. (2024)'s analysis conventions as named bundles of the competition analysis's settings
(:func:`simstats.stats.competition.analyse_competition`), and the bundle the ``simstats competition``
command recommends.

``"paper"`` reproduces the paper and CompStats: p-values one-sided (the system ranked above is better)
as count/B, corrections within each reference system's group, Table 4's marks from raw p-values.
``"recommended"``: two-sided add-one p-values, corrections over all pairs, marks from Holm-adjusted
p-values; under the global null it controls the family-wise error over the table, provided B is large
enough for the correction (:func:`simstats.stats.competition.required_resamples`).
"""
from __future__ import annotations

import pandas as pd

from simstats.stats.competition import ALTERNATIVES, PVALUE_RULES, SCOPES, CompetitionAnalysis
from simstats.stats.multitest import CORRECTIONS

#: Significance marks of the paper's Table 4 (dagger p < .1, * < .05, ** < .01, *** < .001).
MARKS = ((0.001, "***"), (0.01, "**"), (0.05, "*"), (0.1, "†"))

#: Bundles of analysis settings, by name (the CLI's ``--convention``): Table 5/6 correction
#: scope, p-value rule, sidedness, and the correction behind the significance marks.
ANALYSIS_CONVENTIONS = {
    "recommended": {"scope": "all", "pvalue_rule": "add-one", "alternative": "two-sided", "marks": "holm"},
    "paper": {"scope": "group", "pvalue_rule": "fraction", "alternative": "greater", "marks": "none"},
}


def convention_settings(convention: str = "recommended", **overrides) -> dict:
    """The settings of a named convention (:data:`ANALYSIS_CONVENTIONS`); ``overrides`` that
    are not None replace single settings (e.g. ``scope="group"``)."""
    if convention not in ANALYSIS_CONVENTIONS:
        raise ValueError(f"convention must be one of {tuple(ANALYSIS_CONVENTIONS)}, got {convention!r}")
    out = dict(ANALYSIS_CONVENTIONS[convention])
    unknown = set(overrides) - set(out)
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}; known: {sorted(out)}")
    out.update({k: v for k, v in overrides.items() if v is not None})
    checks = {"scope": SCOPES, "pvalue_rule": PVALUE_RULES, "alternative": ALTERNATIVES, "marks": tuple(CORRECTIONS)}
    for key, allowed in checks.items():
        if out[key] not in allowed:
            raise ValueError(f"{key} must be one of {allowed}, got {out[key]!r}")
    return out


def significance_mark(p: float) -> str:
    """The mark of p in the paper's Table 4 (:data:`MARKS`; "" for p >= 0.1)."""
    for bound, mark in MARKS:
        if p < bound:
            return mark
    return ""


def difference_matrix(analysis: CompetitionAnalysis, correction: str = "none", *,
                      scope: str = "group") -> pd.DataFrame:
    """The paper's Table 4: lower-triangular matrix, cell (row j, column i) = improvement of i over j
    and the mark of its p-value adjusted by ``correction`` over ``scope``."""
    pairs = analysis.pairs(scope=scope, intervals=False)
    cells = pd.DataFrame("", index=analysis.names[1:], columns=analysis.names[:-1])
    for row in pairs.itertuples(index=False):
        p = getattr(row, f"pvalue_{correction}")
        cells.loc[row.system, row.reference] = f"{row.difference:.3f} {significance_mark(p)}".rstrip()
    cells.index.name = "system"
    return cells.reset_index()


def marked_significance(analysis: CompetitionAnalysis, *, alpha: float = 0.05, scope: str = "group",
                        marks: str = "none") -> pd.DataFrame:
    """:meth:`CompetitionAnalysis.difference_significance` with a ``mark`` column before the
    ``significant_*`` ones: the mark of the p-value adjusted by ``marks`` (default the raw p, as in
    Table 4)."""
    out = analysis.difference_significance(alpha=alpha, scope=scope)
    pvalues = out["pvalue" if marks == "none" else f"pvalue_{marks}"]
    position = next(k for k, name in enumerate(out.columns) if name.startswith("significant_"))
    out.insert(position, "mark", [significance_mark(p) for p in pvalues])
    return out
