"""Reimers & Gurevych (2018)'s section of the replication report."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io import figure_lines, format_number, markdown_table
from simstats.studies.reference import NOT_COMPARED, read_if_present
from simstats.studies.reimers2018.calibration import identifiability_band

TABLE_TITLES = {
    "T1_eval1": "Table 1 (Evaluation 1: single runs)",
    "T2_eval2": "Table 2 (Evaluation 2: best of 50 on dev)",
    "T3_prediction_interval": "Table 3 (prediction interval 2 zeta)",
    "T4_eval3_eval4": "Table 4 (Evaluations 3 and 4: 25 vs 25 runs)",
    "T5_delta95_means": "Table 5 (Delta95 of means of n runs)",
    "F4_eval2_vs_n": "Figure 4 (% significant vs n)",
}


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return []
    lines = ["## Reimers & Gurevych (2018): single scores vs score distributions", "",
             "Two approaches identical by construction train many models of each of the paper's seven tasks; every "
             "'significant' difference between them is false. Evaluation 1 compares single runs with a paired "
             "bootstrap over test sentences, Evaluation 2 the best of n runs on dev, Evaluations 3 and 4 groups of "
             "25 runs (Welch, Wilcoxon, Mann-Whitney U). A run is normal or, with an assumed share, \"low\" (its "
             "test score drops more than its dev score: the test_shift_mixture). The noise parameters are fitted "
             "to published numbers per task (tau and Delta95 of Table 1, rho of Table 2, and for mixture tasks "
             "Table 2's % significant); Table 2's tau, Table 3's 2 zeta and Table 5 at n = 1 follow from them "
             "(identities); every other cell is a prediction. Full tables: `reimers/tables.md`; calibration: "
             "`reimers/calibration.md`; UKP real data: `reimers/realdata.md`; identifiability: "
             "`reimers/identifiability.md`.", ""]
    part = ledger[(ledger.paper == "reimers2018") & (ledger.verdict != NOT_COMPARED)]
    counts = part.groupby(["table", "role", "verdict"]).size().unstack(fill_value=0).reset_index()
    counts["table"] = counts.table.map(lambda k: TABLE_TITLES.get(k, k))
    lines += ["Verdicts per table and role:", "", markdown_table(counts), ""]
    headline = tables[tables.paper.notna() & tables.table.isin(["T1_eval1", "T2_eval2", "T4_eval3_eval4"])
                      & tables.quantity.str.contains("pct")]
    show = pd.DataFrame({
        "table": headline.table.map(lambda k: TABLE_TITLES[k].split(" (")[0]), "task": headline.reference,
        "quantity": headline.quantity, "paper": headline.paper.map(format_number),
        "ours": [f"{format_number(e)} ± {format_number(s)}" for e, s in zip(headline.estimate, headline.se)],
        "verdict": headline.verdict})
    lines += ["% significant between identical approaches (the paper's headline numbers):", "",
              markdown_table(show), ""]
    band = read_if_present(results / "reimers/identifiability.csv")
    if band is not None and len(band):
        b = identifiability_band(band)
        shown = pd.DataFrame({"n": b.n, "exact fits": [f"{format_number(lo, 1)}-{format_number(hi, 1)} %" for lo, hi in
                                                       zip(b.exact_low, b.exact_high)],
                              "all shapes": [f"{format_number(lo, 1)}-{format_number(hi, 1)} %" for lo, hi in zip(b.all_low, b.all_high)]})
        lines += [f"Identifiability ({band.reference.iloc[0]}): closed-form % significant over "
                  f"{int(b.shapes.iloc[0])} assumed shapes of the low runs ({int(b.exact_shapes.iloc[0])} fit the "
                  "four published numbers exactly); the published numbers pin down what the exact fits agree on:",
                  "", markdown_table(shown), ""]
    lines += figure_lines(figures, rel, [
        ("reimers/figure4", "Figure 4: % significant when the best of n runs on dev is compared (paper's values marked)"),
        ("reimers/figure4_tasks", "Figure 4's curve for the other six tasks (paper's Table 1 and 2 values marked)"),
        ("reimers/dev_vs_test", "Dev vs test score of every model, with the regression line and the 2 zeta band"),
        ("reimers/calibration", "Calibration residuals of the three fitted numbers per task"),
        ("reimers/power", "Runs per approach needed for 80 % power (Welch and Mann-Whitney U)"),
    ])
    return lines
