"""Computed checks behind the explanations of Yeh (2000)'s misses (explanations.yaml).

A check returns the explanation's fields, ``shown`` (the computation in one line) and ``verdicts``: the
verdict of each missed row it was given under the stated cause (:func:`simstats.studies.reference.judge`).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.studies.reference import judge
from simstats.studies.yeh2000.example import SHUFFLES
from simstats.studies.yeh2000.ledger import (RANDOMIZATION_ROWS, TWO_SIDED_ROW, exact_pvalues, log_tolerance,
                                             noreen_bound, shuffle_sd, two_sided_band)

PRECISION = RANDOMIZATION_ROWS["precision"]


def section_22_precision(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Cause: Yeh's section 3.3 precision count is a slip; his section 2.2 statement of the same test stands.

    Under it, Yeh's one-sided precision count and bound are recomputed from his section 2.2 two-sided value
    (0.04 times the exact one- to two-sided ratio, its tolerance mapped alike) and the two-sided row takes the
    exact two-sided p in place of the one implied by his count.  Misses the cause does not concern (the F-score
    count) keep their verdict."""
    exact = exact_pvalues()
    p1, p2 = exact["precision"], exact["precision two-sided"]
    ratio = p1 / p2
    published2, _, linear2, tol2 = two_sided_band()
    count_22, count_tol = published2 * ratio * SHUFFLES, linear2 * ratio * SHUFFLES + 0.5
    expected = p1 * SHUFFLES
    bound_22 = noreen_bound(count_22)
    verdicts = {}
    for index, r in rows.iterrows():
        if r["row"] == PRECISION and r["column"] == "trials_meeting":
            verdicts[index] = judge(expected, 0.0, count_22, count_tol)
        elif r["row"] == PRECISION and r["column"] == "p_bound":
            verdicts[index] = judge(noreen_bound(expected), 0.0, bound_22,
                                    log_tolerance(bound_22, count_tol / SHUFFLES), scale="log10")
        elif r["row"] == TWO_SIDED_ROW:
            verdicts[index] = judge(p2, 0.0, published2, tol2, scale="log10")
        else:
            verdicts[index] = r["verdict"]
    f_expected = exact["f1"] * SHUFFLES
    f_yeh = float(ledger.loc[(ledger.paper == "yeh2000") & (ledger["row"] == RANDOMIZATION_ROWS["f1"])
                             & (ledger.column == "trials_meeting"), "published"].iloc[0])
    z_f = (f_yeh - f_expected) / shuffle_sd(exact["f1"])
    return {"count_22": f"{count_22:,.0f}", "expected": f"{expected:,.0f}", "p_two_sided": f"{p2:.4f}",
            "z_f": f"{z_f:+.1f}", "verdicts": verdicts,
            "shown": (f"section 2.2: {published2:g} x {ratio:.4f} x 2^20 = {count_22:,.0f} ± {count_tol:,.0f} vs exact "
                      f"{expected:,.0f}; exact two-sided p = {round(p2 * SHUFFLES):,}/2^20 = {p2:.4f}; "
                      f"F: ({f_yeh:,.0f} - {f_expected:,.0f})/{shuffle_sd(exact['f1']):.0f} = {z_f:+.1f} sd")}


CHECKS = {f.__name__: f for f in (section_22_precision,)}
