"""Nava-Muñoz et al. (2024) in the fidelity ledger: Table 5's corrections, the CI widths of Tables 2 and 3,
the summary measures of Tables 7-11 and Figure 3's p-values."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats.competition import summary_measures
from simstats.studies.reference import (NOT_COMPARED, identity_row, judge, ledger_frame, ledger_row, published_text,
                                        read_if_present, reference_table)

#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {
    "T1_scores": "the true scores of the simulated competition",
    "T6_metrics": "definitions, not numbers",
}


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows (see the module docstring)."""
    rows = []
    t5 = read_if_present(results / "competition/table5_check.csv")
    if t5 is not None:
        for r in t5.itertuples(index=False):
            rows.append(ledger_row(paper="navamunoz2024", table="T5_corrections", row=f"{r.reference} vs {r.system}",
                             column=r.correction, published=float(r.paper), ours=float(r.ours), mcse=0.0,
                             tolerance=0.5e-4, rounding=0.5e-4, tolerance_basis="rounding (4 decimals)",
                             role="identity",
                             verdict=r.verdict, source="competition/table5_check.csv",
                             note="statsmodels' correction of the paper's raw p-values"))
    for path in example_checks(results):
        check = pd.read_csv(path)
        source = path.relative_to(results).as_posix()
        for r in check.itertuples(index=False):
            table = "T2_ci" if r.table == "T2" else "T3_diff_ci"
            row = f"{r.language} {r.system}" if r.table == "T2" else f"{r.language} {r.reference} - {r.system}"
            rows.append(ledger_row(paper="navamunoz2024", table=table, row=row, column="lci_mean_uci", item="95% CI width",
                             published=float(r.paper), ours=float(r.ours), mcse=math.nan,
                             tolerance=0.15 * float(r.paper) + 1e-4, rounding=1e-4,
                             tolerance_basis="±15 % + rounding",
                             role="prediction", verdict=r.verdict, source=source,
                             note="one simulated test set of the paper's class counts and true scores, "
                                  "ranked as in the paper"))
    # Table 8's summary measures follow from the published scores (and, for Basque, Table 5's raw p-values)
    summaries = reference_table("nava_munoz_2024_summaries")
    t5_paper = reference_table("nava_munoz_2024_table5")
    for s in summaries.itertuples(index=False):
        scores = [float(x) for x in str(s.scores).split(";")]
        basque = "Basque" in s.competition
        pairs = t5_paper.rename(columns={"pvalue": "pvalue"})[["reference", "system", "pvalue"]] if basque else None
        names = ["WordUp.01", "WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02"] if basque else None
        measures = summary_measures(names, scores, pairs, n_items=int(s.n)) if basque else _score_measures(scores)
        language = "Basque" if basque else "Spanish"
        errors = _score_rounding_effects(scores, 0.5e-4)
        for column in ("win_minus_median", "cv_percent", "ppi_percent"):
            printed = f"{getattr(s, column):.3f}"
            rows.append(identity_row("navamunoz2024", "T8_summary", language, column, "", printed, measures[column],
                                  "from the published scores (Table 1, 4 decimals)",
                                  source="nava_munoz_2024_summaries.csv", input_error=errors[column]))
        for column in ("ties_with_winner", "ties"):
            for label, printed in zip(("none", "bonferroni", "holm", "bh"), str(getattr(s, column)).split("/")):
                if basque:
                    rows.append(identity_row("navamunoz2024", "T8_summary", language, column, label, printed,
                                          measures[f"{column}_{label}"],
                                          "p >= 0.05 after the correction within each reference system's group, "
                                          "from Table 5's raw p-values", source="nava_munoz_2024_summaries.csv"))
                else:
                    rows.append(ledger_row(paper="navamunoz2024", table="T8_summary", row=language, column=column,
                                     item=label, published=float(printed), role="identity", verdict=NOT_COMPARED,
                                     source="nava_munoz_2024_summaries.csv",
                                     note="the paper publishes no Spanish p-values to recompute the ties from"))
    rows += _tables7_11_rows()
    t5_raw = dict(zip(zip(t5_paper.reference, t5_paper.system), t5_paper.pvalue))
    for row, raw in (("Basque WordUp.01 vs SQYQP.01", t5_raw[("WordUp.01", "SQYQP.01")]),
                     ("Basque WordUp.01 vs WordUp.02", t5_raw[("WordUp.01", "WordUp.02")])):
        published = float(published_text("navamunoz2024", "pvalue", row, "p"))
        rows.append(ledger_row(paper="navamunoz2024", table="pvalue", row=row, column="p", published=published,
                         ours=float(raw), mcse=0.0, tolerance=1e-4, rounding=1e-4,
                         tolerance_basis="rounding of both (4 decimals)",
                         role="identity", verdict=judge(float(raw), 0.0, published, 1e-4),
                         source="nava_munoz_2024_table5.csv",
                         note="Figure 3's p-value against the paper's own Table 5 raw p-value of the same pair"))
    return ledger_frame(rows)


def _score_measures(scores) -> dict:
    a = np.asarray(scores, dtype=float)
    return {"win_minus_median": float(abs(a[0] - np.median(a))), "cv_percent": float(100 * a.std(ddof=1) / a.mean()),
            "ppi_percent": float(100 * (1 - a[0]))}


def _score_rounding_effects(scores, half_unit: float) -> dict:
    """Largest change of each Table 8 measure when every score moves by up to ``half_unit``
    (first order: the sum of |partial derivative| x half_unit, by central differences)."""
    base = np.asarray(scores, dtype=float)
    out = dict.fromkeys(_score_measures(base), 0.0)
    for i in range(base.size):
        up, down = base.copy(), base.copy()
        up[i] += half_unit
        down[i] -= half_unit
        hi, lo = _score_measures(up), _score_measures(down)
        for key in out:
            out[key] += abs(hi[key] - lo[key]) / 2
    return out


CORRECTION_ORDER = ("none", "bh", "holm", "bonferroni")


def _tables7_11_rows() -> list[dict]:
    """Tables 7-11 of Nava-Muñoz et al. (24 task columns): the numbers that follow from other published
    numbers are checked (possible comparisons = m (m - 1) / 2; ties can only grow from no correction
    to BH, Holm and Bonferroni, since their adjusted p-values are ordered so; ties with the winner
    are a subset of all ties and at most m - 1); |win - med|, CV and PPI need the systems' scores,
    which the paper publishes only for VaxxStance Close Track-Textual (Table 1: checked above)."""
    rows = []
    table = reference_table("nava_munoz_2024_tables7_11")
    for r in table.itertuples(index=False):
        label = " ".join(str(x) for x in (r.competition, r.task, r.language) if isinstance(x, str) and x)
        base = {"paper": "navamunoz2024", "table": f"{r.table}_summary", "row": label, "role": "identity",
                "source": "nava_munoz_2024_tables7_11.csv"}
        pairs = r.m * (r.m - 1) // 2
        rows.append(ledger_row(**base, column="possible_comparisons", published=float(r.possible_comparisons),
                         ours=float(pairs), mcse=0.0, tolerance=0.0, tolerance_basis="exact (integers)",
                         verdict=judge(float(pairs), 0.0, float(r.possible_comparisons), 0.0),
                         note=f"m (m - 1) / 2 with m = {r.m}"))
        winner = dict(zip(("none", "bonferroni", "holm", "bh"), (int(x) for x in str(r.ties_with_winner).split("/"))))
        ties = dict(zip(("none", "bonferroni", "holm", "bh"), (int(x) for x in str(r.ties).split("/"))))
        for column, values in (("ties_with_winner", winner), ("ties", ties)):
            ordered = all(values[a] <= values[b] for a, b in zip(CORRECTION_ORDER, CORRECTION_ORDER[1:]))
            bound = r.m - 1 if column == "ties_with_winner" else r.possible_comparisons
            nested = all(values[c] <= bound for c in values) and (
                column == "ties" or all(winner[c] <= ties[c] for c in ties))
            problems = ([] if ordered else ["not ordered none <= BH <= Holm <= Bonferroni"]) + \
                ([] if nested else [f"above {bound} or not a subset of all ties"])
            rows.append(ledger_row(**base, column=column, item="none <= BH <= Holm <= Bonferroni; subsets",
                             published=float("nan"), verdict="misses" if problems else "agrees",
                             tolerance_basis="consistency of the published counts",
                             note="none/BH/Holm/Bonferroni = " + "/".join(str(values[c]) for c in CORRECTION_ORDER)
                                  + "".join(f"; {p}" for p in problems)))
        if not (r.table == "T8" and r.task == "Close Track-Textual"):
            for column in ("win_minus_median", "cv_percent", "ppi_percent"):
                value = getattr(r, column)
                rows.append(ledger_row(**{**base, "role": "identity"}, column=column, published=float(value),
                                 verdict=NOT_COMPARED,
                                 note="the paper publishes no per-system scores for this task"))
    return rows


def example_checks(results: Path) -> list[Path]:
    """The CI-width checks of the simulated example competitions compared with a paper column."""
    out = []
    for path in sorted((results / "competition").glob("*/check.csv")):
        head = pd.read_csv(path, nrows=1)
        if "language" in head.columns:
            out.append(path)
    return out
