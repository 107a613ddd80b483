"""Nava-Muñoz et al. (2024)'s analysis settings, registered as a competition preset.

The tables, marks and figures of a competition report are generic (:mod:`simstats.io.competition`);
what is the paper's own is how it computes its p-values and verdicts.
"""
from __future__ import annotations

#: Nava-Muñoz et al. (2024) and CompStats: one-sided count/B p-values, uncorrected verdicts, Table 5's
#: corrections within each reference system's group. Registered as the competition preset "paper"
#: (an entry point in pyproject.toml), so that ``simstats competition --preset paper`` analyses as the
#: paper did while the library itself names no paper.
PRESET = {"alternative": "greater", "pvalue_rule": "fraction", "correction": "none", "scope": "group"}
