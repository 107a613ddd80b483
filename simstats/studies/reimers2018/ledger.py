"""Reimers & Gurevych (2018) in the fidelity ledger: the rows of reimers/tables.csv with their roles (fitted,
identity, validation, prediction, self-consistency), plus the paper's headline claims."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simstats.studies.reference import (NOT_COMPARED, judge, ledger_frame, ledger_row, paper_targets, paper_text,
                                        paper_value, read_if_present, rounding)

PAPER = "reimers2018"
#: Reimers & Gurevych cells that follow from the fitted numbers (tau, Delta95 of Table 1; rho of Table 2).
IDENTITY_CELLS = {
    ("T2_eval2", "tau"): "tau depends only on the per-pair bootstrap se, which selection on dev does not change "
                         "in the model: it repeats the fitted Table 1 tau",
    ("T3_prediction_interval", "two_zeta"): "2 zeta follows from the test sd (fitted via Delta95) and the fitted "
                                            "rho under the model's bivariate normal dev/test scores",
    ("T5_delta95_means", "n1"): "Delta95 of means of one run is Table 1's fitted Delta95",
}
#: Table 5 at n >= 2: Delta95(1) / sqrt(n) of the fitted Delta95 (iid runs) - arithmetic, not a prediction.
TABLE5 = "T5_delta95_means"
#: Table 4: the size of a valid test on iid runs, about alpha for any model of the runs.
VALIDATION_TABLES = {"T4_eval3_eval4": "the size of Welch / Wilcoxon on iid runs: about 5 % for any model of the runs"}

#: The published numbers the noise parameters are fitted to (tau and Delta95 of Table 1, rho of Table 2).
FITTED_CELLS = {("T1_eval1", "tau"), ("T1_eval1", "delta95_test"), ("T2_eval2", "spearman_rho")}
#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {"setup": "a setting of the simulation"}
#: The paper's headline claims (paper_targets.csv, table "claims"): the text numbers they are judged by.
CLAIMS = "claims"
#: Relative se of the 95th percentile of |Delta| over 1,000 pairs for normal differences:
#: sqrt(0.95 x 0.05 / 1000) / (2 phi(z) z), z = 1.96 (the order statistic's asymptotic se).
DELTA95_RELATIVE_SE = math.sqrt(0.95 * 0.05 / 1000) / (2 * math.exp(-0.5 * 1.959964**2) / math.sqrt(2 * math.pi)
                                                       * 1.959964)


def table5_identity(tables: pd.DataFrame) -> dict[tuple[str, str], tuple[str, bool]]:
    """{(task, column): (note, inside)} for Table 5 at n >= 2: whether the published Delta95(1) / sqrt(n) lands
    inside the published cell's tolerance (an identity; a cell where it does not is a prediction), and how
    many of the cells it lands in."""
    cells = tables[(tables.table == TABLE5) & (tables.n > 1) & tables.paper.notna()]
    inside, notes = 0, {}
    for r in cells.itertuples(index=False):
        one = paper_value(PAPER, TABLE5, r.reference, "n1")
        if one is None or not math.isfinite(r.tolerance_value):
            continue
        value = one / math.sqrt(r.n)
        hit = abs(value - r.paper) <= r.tolerance_value
        inside += hit
        notes[(r.reference, r.quantity)] = value, hit
    total = len(notes)
    return {k: (f"published Delta95(1)/sqrt({k[1][1:]}) = {v:.3f} is {'inside' if hit else 'outside'} "
                f"the tolerance ({inside} of {total} Table 5 cells at n >= 2 are)", bool(hit))
            for k, (v, hit) in notes.items()}


def _role(r) -> tuple[str, str]:
    if r.role == "calibrated":
        return "fitted", ""
    if (r.table, r.quantity) in IDENTITY_CELLS:
        return "identity", IDENTITY_CELLS[(r.table, r.quantity)]
    if r.table == TABLE5:
        return "identity", ""
    if r.table in VALIDATION_TABLES:
        return "validation", VALIDATION_TABLES[r.table]
    return "prediction", ""


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows: every published cell of reimers/tables.csv beside ours, and the claims."""
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return ledger_frame([])
    t5 = table5_identity(tables)
    rows = []
    for r in tables[tables.paper.notna()].itertuples(index=False):
        column = f"pct_significant_n{int(r.n)}" if r.table == "F4_eval2_vs_n" else r.quantity
        role, note = _role(r)
        if r.table == TABLE5 and (r.reference, r.quantity) in t5:
            note, inside = t5[(r.reference, r.quantity)]
            role = "identity" if inside else "prediction"
        verdict = r.verdict if r.verdict in ("agrees", "misses", "undetermined") else NOT_COMPARED
        note = note or ("" if verdict != NOT_COMPARED else r.verdict)
        if verdict != NOT_COMPARED and not math.isfinite(r.se):      # every judged random number has an MCSE
            verdict, note = NOT_COMPARED, "no Monte Carlo error computed for this cell"
        elif r.quantity == "deltamax_test" and verdict != NOT_COMPARED:
            note = (f"95 % interval of the maximum of {int(r.count):,} pairs {r.ci_low:.2f}-{r.ci_high:.2f} "
                    "(Gumbel law of 50 block maxima)")
        if r.table == "F4_eval2_vs_n":
            note = f"{int(r.count):,} pairs of groups of {int(r.n)} runs (the paper: {50_000 // int(r.n):,})"
        rows.append(ledger_row(paper=PAPER, table=r.table, row=r.reference, column=column, item="",
                               variant="", published=float(r.paper), ours=float(r.estimate), mcse=float(r.se),
                               tolerance=float(r.tolerance_value) if verdict != NOT_COMPARED else math.nan,
                               rounding=rounding(paper_text(PAPER, r.table, r.reference, column)),
                               tolerance_basis=r.tolerance if isinstance(r.tolerance, str) else "",
                               role=role, verdict=verdict, source="reimers/tables.csv", note=note))
    rows += claim_rows(tables)
    return ledger_frame(rows)


def _cell(tables, table, reference, quantity, n=None):
    hit = tables[(tables.table == table) & (tables.reference == reference) & (tables.quantity == quantity)]
    if n is not None:
        hit = hit[hit.n == n]
    return hit.iloc[0] if len(hit) else None


def claim_rows(tables: pd.DataFrame) -> list[dict]:
    """The paper's headline claims (paper_targets.csv, table ``claims``) as rows."""
    rows = []
    # Figure 4 flat after 40-50 models: the change of % significant from n = 50 to n = 100
    printed = paper_text(PAPER, CLAIMS, "CoNLL 2003 - NER-En", "figure4_change_n50_to_n100")
    if printed is not None:
        published = float(printed)
        a = _cell(tables, "F4_eval2_vs_n", "CoNLL 2003 - NER-En", "pct_significant", 50)
        b = _cell(tables, "F4_eval2_vs_n", "CoNLL 2003 - NER-En", "pct_significant", 100)
        # the paper's own Monte Carlo error of its difference: 1,000 pairs at n = 50 (Table 2), 500 at n = 100
        p50 = paper_value(PAPER, "T2_eval2", "CoNLL 2003 - NER-En", "pct_significant") / 100
        n100 = paper_text(PAPER, "F4_eval2_vs_n", "CoNLL 2003 - NER-En", "pct_significant_n100")
        p100 = float(n100) / 100
        own = 100 * math.sqrt(p50 * (1 - p50) / 1000 + p100 * (1 - p100) / 500)
        tol = 3 * own + 2 * rounding(n100)
        base = dict(paper=PAPER, table=CLAIMS, row="CoNLL 2003 - NER-En", column="figure4_change_n50_to_n100",
                    published=published, tolerance=tol, rounding=2 * rounding(n100),
                    tolerance_basis=f"±{3 * own:.2f} points (3 se of the paper's difference: 1,000 and 500 pairs)"
                                    " + rounding", role="prediction", source="reimers/tables.csv")
        if a is None or b is None:
            rows.append(ledger_row(**base, verdict=NOT_COMPARED, note="Figure 4 at n = 50 and 100 not simulated"))
        else:
            ours = float(b.estimate - a.estimate)
            se = math.hypot(float(a.se), float(b.se))
            rows.append(ledger_row(**base, ours=ours, mcse=se, verdict=judge(ours, se, published, tol),
                                   note=f"% significant at n = 100 minus n = 50 ({int(a['count']):,} and "
                                        f"{int(b['count']):,} pairs)"))
    # 2 zeta "comparably similar" to Table 2's Delta95: the paper against itself, per task
    claimed = paper_targets()
    claimed = claimed[(claimed.paper == PAPER) & (claimed.table == CLAIMS)
                      & (claimed.column == "two_zeta_over_t2_delta95")]
    for task in claimed.row:
        printed = paper_text(PAPER, CLAIMS, task, "two_zeta_over_t2_delta95")
        zeta = paper_value(PAPER, "T3_prediction_interval", task, "two_zeta")
        d95 = paper_value(PAPER, "T2_eval2", task, "delta95_test")
        if printed is None or zeta is None or d95 is None:
            continue
        ratio = zeta / d95
        # the inputs' rounding moves the ratio by at most this much
        spread = (zeta + 0.005) / (d95 - 0.005) - ratio
        # the paper's own Monte Carlo error of its Delta95 of 1,000 pairs (normal differences), carried to the ratio
        own = ratio * DELTA95_RELATIVE_SE
        tol = 3 * own + spread
        rows.append(ledger_row(paper=PAPER, table=CLAIMS, row=task, column="two_zeta_over_t2_delta95",
                               published=float(printed), ours=ratio, mcse=0.0, tolerance=tol, rounding=0.0,
                               tolerance_basis=f"±{3 * own:.3f} (3 se of Table 2's Delta95 of 1,000 pairs, "
                                               f"relative {DELTA95_RELATIVE_SE:.3f}) + {spread:.3f} from the "
                                               "inputs' rounding; our reading of 'similar': equal within "
                                               "the paper's Monte Carlo error",
                               role="self-consistency", verdict=judge(ratio, 0.0, float(printed), tol),
                               source="computed",
                               note=f"the paper's 2 zeta / its Table 2 Delta95 = {zeta:g} / {d95:g}"))
    # approximate randomization "similar" to the bootstrap: stated without a number
    printed = paper_text(PAPER, CLAIMS, "all", "approximate_randomization_similar")
    if printed is not None:
        rows.append(ledger_row(paper=PAPER, table=CLAIMS, row="all", column="approximate_randomization_similar",
                               published=float(printed), role="prediction", verdict=NOT_COMPARED,
                               source="paper_targets.csv",
                               note="the paper gives no number for its approximate randomization test; "
                                    "not simulated"))
    return rows
