"""Reimers & Gurevych (2018)'s section of the replication report: the design, one table of the paper's headline
rates, the verdicts per table and role, and the figures (per-cell detail is in the ledger)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from simstats.io.write import figure_lines, format_number, markdown_table
from simstats.studies.reference import NOT_COMPARED, read_if_present

TABLE_TITLES = {
    "T1_eval1": "Table 1",
    "T2_eval2": "Table 2",
    "T3_prediction_interval": "Table 3",
    "T4_eval3_eval4": "Table 4",
    "T5_delta95_means": "Table 5",
    "F4_eval2_vs_n": "Figure 4",
    "claims": "claims",
}
#: The headline rates: (table, quantity, column title).
HEADLINE = [("T1_eval1", "pct_significant", "single runs (T1)"), ("T2_eval2", "pct_significant", "best of 50 (T2)"),
            ("T4_eval3_eval4", "eval3_welch_pct", "25 vs 25, Welch (T4)")]


def _cell(tables, table, quantity, task) -> str:
    hit = tables[(tables.table == table) & (tables.quantity == quantity) & (tables.reference == task)]
    if hit.empty or pd.isna(hit.paper.iloc[0]):
        return "–"
    r = hit.iloc[0]
    return f"{format_number(r.paper)} / {format_number(r.estimate, 3)} ± {format_number(r.se, 2)}"


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return []
    lines = ["## Reimers & Gurevych (2018): single scores vs score distributions", "", *textwrap.wrap(
             "Two approaches identical by construction train many runs of each of the paper's seven tasks, so every "
             "'significant' difference is false: single runs and the best of n runs on dev are compared with a "
             "paired bootstrap over test sentences, groups of 25 runs with Welch, Wilcoxon and Mann-Whitney U. "
             "The noise parameters are fitted per task to Table 1's tau and Delta95, Table 2's rho and (mixture "
             "tasks) Table 2's % significant; Figure 4 at n = 50 and 100 has its own simulation of fresh groups "
             "(`figure4.py`). Details: `reimers/tables.md`, `reimers/calibration.md`, `reimers/realdata.md`.", 120), ""]
    tasks = [t for t in dict.fromkeys(tables.reference) if tables[(tables.reference == t) & tables.paper.notna()].size]
    show = pd.DataFrame({"task": tasks, **{title: [_cell(tables, table, q, t) for t in tasks]
                                           for table, q, title in HEADLINE}})
    lines += ["% significant between identical approaches, paper / ours ± MCSE:", "", markdown_table(show), ""]
    f4 = tables[(tables.table == "F4_eval2_vs_n") & tables.paper.notna()]
    for r in f4.itertuples(index=False):
        lines += [f"Figure 4 ({r.reference}, best of {r.n}): paper {format_number(r.paper)} %, ours "
                  f"{format_number(r.estimate, 3)} ± {format_number(r.se, 2)} % from {int(r.count):,} pairs of groups "
                  f"({r.verdict}).", ""]
    part = ledger[(ledger.paper == "reimers2018") & (ledger.verdict != NOT_COMPARED)]
    if len(part):
        counts = part.groupby(["table", "role", "verdict"]).size().unstack(fill_value=0).reset_index()
        counts["table"] = counts.table.map(lambda k: TABLE_TITLES.get(k, k))
        lines += ["Verdicts per table and role:", "", markdown_table(counts), ""]
    lines += figure_lines(figures, rel, [
        ("reimers/figure4", "Figure 4: % significant when the best of n runs on dev is compared (paper's values marked)"),
        ("reimers/figure4_tasks", "Figure 4's curve for the other six tasks (paper's Table 1 and 2 values marked)"),
        ("reimers/dev_vs_test", "Dev vs test score of every model, with the regression line and the 2 zeta band"),
        ("reimers/calibration", "Calibration residuals of the three fitted numbers per task"),
        ("reimers/power", "Runs per approach needed for 80 % power (Welch and Mann-Whitney U)"),
    ])
    return lines
