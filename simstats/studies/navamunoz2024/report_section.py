"""Nava-Muñoz et al. (2024)'s section of the replication report and the check against CompStats."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io import figure_lines, markdown_table
from simstats.studies.navamunoz2024.ledger import example_checks
from simstats.studies.reference import ledger_table, read_if_present

def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    if read_if_present(results / "competition/table5_check.csv") is None:
        return []
    cases = [p.parent.name for p in example_checks(results)]
    lines = ["## Nava-Muñoz et al. (2024): competitions", "",
             "Bootstrap CIs of every system's score and of the differences to the winner, one-sided bootstrap "
             "p-values and multiple-comparison corrections, on simulated VaxxStance competitions (Basque and "
             "Spanish: the paper's true scores and class counts, on a test set that ranks the systems as the paper "
             "did), on CompStats' own data, and in competitions with known truth. Table 5's corrections and "
             "Table 8's summary measures follow from the paper's published p-values and scores (identities); the "
             "CI widths of Tables 2 and 3 are predictions. Tables: `competition/table5_check.md`, "
             + ", ".join(f"`competition/{c}/{c}_report.md`" for c in cases + ["compstats"])
             + ", `competition/study/summary.md`.", ""]
    part = ledger[(ledger.paper == "navamunoz2024") & (ledger.role == "prediction")]
    if len(part):
        lines += ["CI widths of the simulated VaxxStance competitions beside the paper's Tables 2 and 3:", "",
                  ledger_table(part), ""]
    for case in cases:
        lines += figure_lines(figures, rel, [
            (f"competition/{case}_intervals", f"Figure 1 ({case}): ordered bootstrap CIs of the simulated systems"),
            (f"competition/{case}_differences",
             f"Figure 2 ({case}): CIs of the differences to the winner (red: contains 0)"),
            (f"competition/{case}_bootstrap",
             f"Figure 3 ({case}): bootstrap distribution of a difference, 0, delta and 2 delta"),
        ])
    lines += figure_lines(figures, rel, [
        ("competition/study_fwer", "Family-wise error under the null by correction and scope"),
        ("competition/study_truth", "How often the declared winner is truly best"),
    ])
    return lines


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Our p-values on CompStats' data beside its documented ones: Markdown lines and rows of the report's validation overview."""
    lines, overview = [], []
    comp = read_if_present(results / "competition/compstats/check.csv")
    if comp is not None:
        ok = int((comp.verdict == "agrees").sum())
        overview.append({"check": "CompStats' documented p-values on its data", "agrees": ok,
                         "misses": len(comp) - ok, "checked": len(comp)})
        lines += ["One-sided p-values against the winner on CompStats' data, beside CompStats' documented ones "
                  "(its own 1,000-resample estimates):", "", markdown_table(comp), ""]
    return lines, overview
