"""Computed checks behind the explanations of Nava-Muñoz et al. (2024)'s misses (explanations.yaml).

Each check returns the text's fields, ``shown`` (the computation in one line) and ``verdicts``: {ledger
index: the row's verdict under the stated cause}, from :func:`simstats.studies.reference.judge`.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simstats.studies.navamunoz2024.ledger import (MARK_BANDS, PAPER_B, mark_band_verdict, reference_table,
                                                   table_printed)
from simstats.studies.reference import judge, rate_interval, rounding


def mark_from_another_run(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 4 marks that Table 5's raw p does not give: is the mark within the Monte Carlo error of a
    B = 10,000 estimate of that p (Figure 3's p of the same pair differs from Table 5's too)?"""
    t5 = reference_table("nava_munoz_2024_table5")
    raw = {f"Basque {a} - {b}": float(p) for a, b, p in zip(t5.reference, t5.system, t5.pvalue)}
    verdicts, parts = {}, []
    for i, r in rows.iterrows():
        p, code = raw[str(r.row)], int(r.published)
        verdicts[i] = mark_band_verdict(p, code)
        low, high = rate_interval(p, PAPER_B)
        band = MARK_BANDS[code]
        parts.append(f"{r.row}: mark needs {band[0]:g} <= p < {band[1]:g}; Table 5 p = {p:.4f}, "
                     f"95 % interval of a B = {PAPER_B:,} estimate {low:.4f}-{high:.4f}")
    if not parts:
        return None
    p0 = raw[str(rows.row.iloc[0])]
    low, high = rate_interval(p0, PAPER_B)
    return {"p": f"{p0:.4f}", "low": f"{low:.4f}", "high": f"{high:.4f}", "shown": "; ".join(parts),
            "verdicts": verdicts}


def text_quotes_cv(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Section 5 |win - med| values that miss their table: judged against the same task's CV instead."""
    verdicts, parts = {}, []
    for i, r in rows.iterrows():
        table, cv = table_printed(str(r.row), "cv_percent")
        tol = rounding(cv) + float(r.rounding)
        verdicts[i] = judge(float(cv), 0.0, float(r.published), tol)
        parts.append(f"{r.row}: text {r.published:g}; Table {table[1:]} |win - med| {r.ours:g}, CV {cv}")
    return {"shown": "; ".join(parts), "verdicts": verdicts} if parts else None


def text_truncates(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Section 5 numbers that miss their table by less than a unit of their last digit: judged against the
    table's value cut (not rounded) to the text's decimals."""
    verdicts, parts = {}, []
    for i, r in rows.iterrows():
        unit = 2 * float(r.rounding)
        cut = math.floor(float(r.ours) / unit + 1e-9) * unit
        verdicts[i] = judge(cut, 0.0, float(r.published), float(r.rounding))
        parts.append(f"{r.row} {r.column}: table {r.ours:g}, cut to the text's digits {cut:g}, text {r.published:g}")
    return {"shown": "; ".join(parts), "verdicts": verdicts} if parts else None


CHECKS = {f.__name__: f for f in (mark_from_another_run, text_quotes_cv, text_truncates)}
