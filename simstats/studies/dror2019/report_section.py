"""Dror et al. (2019)'s section of the replication report."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io import figure_lines, format_number, markdown_table
from simstats.studies.reference import NOT_COMPARED, read_if_present, verdict_counts

def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    if read_if_present(results / "dror/noise_analyses.csv") is None:
        return []
    lines = ["## Dror et al. (2019): Almost Stochastic Order", "",
             "ASO (eps_min at alpha = 0.01, with the violation ratio eps_W2) beside COS (larger mean and smaller sd) "
             "and SO (Mann-Whitney U): the paper's three cases, Table 4 on real runs (UKP, IBM) and a synthetic "
             "population, the section 6 false-positive and false-negative analyses, and size and power. Each "
             "published number is judged under two ASO conventions: deepsig's (margin at the data's own sample "
             "sizes, two-sided U) and the paper's released code (1,000 draws per replicate, margin sigma / "
             "sqrt(500) x Phi^-1(1 - alpha), one-sided U, p = 1 below 20 runs). Tables: `dror/conventions.md`, "
             "`dror/paper_cases.md`, `dror/synthetic_cases.md`, `dror/real_data_cases.md`, "
             "`dror/noise_analyses.md`, `dror/size_power.md`, and `dror/so_readings.md` (the U test read every "
             "way the paper could have: Table 4's SO shares and Tables 2-3's p-values).", ""]
    part = ledger[(ledger.paper == "dror2019") & (ledger.role == "prediction")]
    lines += ["Verdicts per convention:", "",
              markdown_table(verdict_counts(part).drop(columns=["paper", NOT_COMPARED])), ""]
    cases = read_if_present(results / "dror/synthetic_cases.csv")
    real = read_if_present(results / "dror/real_data_cases.csv")
    if cases is not None:
        shown = []
        for source, group in pd.concat([cases, real]).groupby("source", sort=False):
            for r in group[group.case != "all"].itertuples(index=False):
                shown.append({"source": source, "case": r.case, "share % (ours, deepsig)": format_number(r.share_percent, 1),
                              "eps_min mean": format_number(r.eps_mean)})
        lines += ["Cases A (COS and SO decide), B (COS only), C (neither), D (SO only), deepsig convention "
                  "(both conventions beside the paper: `dror/conventions.md`):", "",
                  markdown_table(pd.DataFrame(shown)), ""]
    lines += figure_lines(figures, rel, [
        ("dror/noise_eps", "Figure 2 analogue: eps of the false-positive and false-negative analyses"),
        ("dror/synthetic_eps", "Figure 1 analogue: eps_min per case, synthetic population"),
        ("dror/real_data_eps", "eps_min per case on real data (UKP, IBM)"),
        ("dror/size_power", "Size and power of ASO, Welch and Mann-Whitney U vs runs per approach"),
    ])
    return lines
