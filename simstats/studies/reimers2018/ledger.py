"""Reimers & Gurevych (2018) in the fidelity ledger: the rows of reimers/tables.csv, classed as fitted,
identity or prediction."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simstats.studies.reference import (NOT_COMPARED, ledger_frame, ledger_row, paper_text, read_if_present,
                                        rounding)

#: Reimers & Gurevych cells that follow from the fitted numbers (tau, Delta95 of Table 1; rho of Table 2).
IDENTITY_CELLS = {
    ("T2_eval2", "tau"): "tau depends only on the per-pair bootstrap se, which selection on dev does not change "
                         "in the model: it repeats the fitted Table 1 tau",
    ("T3_prediction_interval", "two_zeta"): "2 zeta follows from the test sd (fitted via Delta95) and the fitted "
                                            "rho under the model's bivariate normal dev/test scores",
    ("T5_delta95_means", "n1"): "Delta95 of means of one run is Table 1's fitted Delta95",
}


#: The published numbers the noise parameters are fitted to (tau and Delta95 of Table 1, rho of Table 2).
FITTED_CELLS = {("T1_eval1", "tau"), ("T1_eval1", "delta95_test"), ("T2_eval2", "spearman_rho")}
#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {"setup": "a setting of the simulation"}


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows: every published cell of reimers/tables.csv beside ours."""
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return ledger_frame([])
    rows = []
    for r in tables[tables.paper.notna()].itertuples(index=False):
        column = f"pct_significant_n{int(r.n)}" if r.table == "F4_eval2_vs_n" else r.quantity
        identity = IDENTITY_CELLS.get((r.table, r.quantity))
        role = "fitted" if r.role == "calibrated" else "identity" if identity else "prediction"
        verdict = r.verdict if r.verdict in ("agrees", "misses", "undetermined") else NOT_COMPARED
        note = identity or ("" if verdict != NOT_COMPARED else r.verdict)
        if r.table == "T4_eval3_eval4":
            note = "about 5 % for any model of i.i.d. runs"
        if r.quantity == "deltamax_test" and verdict != NOT_COMPARED:
            note = "a maximum: no Monte Carlo error attached, the point value is judged"
        rows.append(ledger_row(paper="reimers2018", table=r.table, row=r.reference, column=column, item="",
                         variant="", published=float(r.paper), ours=float(r.estimate), mcse=float(r.se),
                         tolerance=float(r.tolerance_value) if verdict != NOT_COMPARED else math.nan,
                         rounding=rounding(paper_text("reimers2018", r.table, r.reference, column)),
                         tolerance_basis=r.tolerance, role=role, verdict=verdict, source="reimers/tables.csv",
                         note=note))
    return ledger_frame(rows)
