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

from simstats.stats.competition import ALTERNATIVES, PVALUE_RULES, SCOPES
from simstats.stats.multitest import CORRECTIONS

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
