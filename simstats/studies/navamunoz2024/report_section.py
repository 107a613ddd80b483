"""Nava-Muñoz et al. (2024)'s section of the replication report and the check against CompStats."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io.write import figure_lines, markdown_table
from simstats.studies.navamunoz2024.ledger import example_checks
from simstats.studies.reference import ledger_table, read_if_present


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    cases = [p.parent.name for p in example_checks(results)]
    if not cases:
        return []
    band = ledger[(ledger.paper == "navamunoz2024") & ledger.table.isin(["T2_ci", "T3_diff_ci"])]
    sets = band.variant[band.variant != ""].iloc[0] if (band.variant != "").any() else "simulated test sets"
    lines = ["## Nava-Muñoz et al. (2024): competitions", "",
             "Simulated VaxxStance competitions (Basque, Spanish: the paper's true scores and class counts, test sets",
             "that rank the systems as the paper did) are analysed with the paper's bootstrap: 95 % percentile CIs,",
             "one-sided p-values, corrections within each reference system's group.",
             f"The CI widths of Tables 2 and 3 are the predictions ({sets}; tolerance: 1.96 sd of one test set's width),",
             "except the Basque differences between teams, which the shared item difficulty was set to match (fitted);",
             "the other published numbers are checked against the paper's own inputs.",
             "Case reports: " + ", ".join(f"`competition/{c}/{c}_report.md`" for c in cases + ["compstats"]) + ";",
             "known truth: `competition/study/summary.md`.", ""]
    if len(band):
        lines += ["CI widths (Tables 2 and 3) beside ours:", "", ledger_table(band.assign(variant="")), ""]
    for case in cases[:1]:            # the paper's figures are of its first example; the others: their case reports
        lines += figure_lines(figures, rel, [
            (f"competition/{case}_intervals", f"Figure 1 ({case}): ordered bootstrap CIs"),
            (f"competition/{case}_differences", f"Figure 2 ({case}): CIs of the differences to the winner"),
            (f"competition/{case}_bootstrap", f"Figure 3 ({case}): bootstrap distribution of a difference"),
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
