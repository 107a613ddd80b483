"""Dror et al. (2019)'s section of the replication report: the design in brief, the key table, figures."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from simstats.io.write import figure_lines, format_number, markdown_table
from simstats.studies.reference import read_if_present

CASE_NAMES = {"A": "A (COS and SO)", "B": "B (COS only)", "C": "C (neither)", "D": "D (SO only)"}


def _table4(results: Path) -> pd.DataFrame | None:
    """Table 4 under the paper's computation: the paper's shares and eps beside ours per comparison set."""
    conv = read_if_present(results / "dror/conventions.csv")
    if conv is None:
        return None
    part = conv[(conv.table == "Table 4") & (conv.convention == "dror2019")]
    rows = []
    for case in "ABC":
        row = {"case": CASE_NAMES[case]}
        for what, label in (("share %", "share %"), ("eps mean", "eps mean")):
            g = part[part.quantity == f"case {case} {what}"]
            if g.empty:
                continue
            row[f"paper {label}"] = format_number(float(g.paper.iloc[0]))
            for r in g.itertuples():
                row[f"{r.source.split(' ')[0]} {label}"] = format_number(r.ours, 1 if what == "share %" else 3)
        rows.append(row)
    return pd.DataFrame(rows)


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    if read_if_present(results / "dror/noise_analyses.csv") is None:
        return []
    design = ("ASO (eps_min at alpha = 0.01) beside COS (larger mean and smaller sd) and SO (Mann-Whitney U), computed "
              "as the paper's released script does (1,000 draws per bootstrap replicate, margin Phi^-1(1 - alpha) "
              "sigma / sqrt(500)); deepsig's margin is in the ledger's sensitivity column. Tables 2-3 use the paper's "
              "own UKP 2017 runs; Table 1 rebuilds its distributions from the published summaries; Table 4 and "
              "section 6 run on other comparison sets (UKP factor pools, IBM seeds) and on a synthetic population of "
              "255 distributions, so they are analogues, not predictions. Tables: `dror/conventions.md`, "
              "`dror/paper_cases.md`, `dror/real_data_cases.md`, `dror/noise_analyses.md` (section 6 on real UKP "
              "pools: `dror/noise_ukp.md`), `dror/so_readings.md`, `dror/size_power.md`.")
    lines = ["## Dror et al. (2019): Almost Stochastic Order", "", *textwrap.wrap(design, 110), ""]
    table4 = _table4(results)
    if table4 is not None and len(table4):
        lines += ["Table 4 under the paper's computation (case shares and mean eps_min per comparison set):", "",
                  markdown_table(table4), ""]
    lines += figure_lines(figures, rel, [
        ("dror/noise_eps", "Figure 2 analogue: eps of the false-positive and false-negative analyses"),
        ("dror/real_data_eps", "eps_min per case on real data (UKP, IBM)"),
        ("dror/size_power", "Size and power of ASO, Welch and Mann-Whitney U vs runs per approach"),
    ])
    return lines
