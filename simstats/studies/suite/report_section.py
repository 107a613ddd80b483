"""The suite study's part of the replication report: which decision rules hold their error rate and which
intervals cover when many models are compared over a suite of tasks."""
from __future__ import annotations

from pathlib import Path

from simstats.io.write import figure_lines
from simstats.studies.reference import read_if_present
from simstats.studies.suite.simulate import FAILING

OVERVIEW = (("fwer", "the per-task decisions and rank tests hold their family-wise error (alpha + 3 MCSE or less)"),
            ("size", "Friedman's test holds alpha (alpha + 3 MCSE or less)"),
            ("coverage", "the suite means' and rank intervals cover (level - 3 MCSE or more)"))


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Error rates and coverage of ``simstats suite``'s defaults: Markdown lines and rows of the report's
    validation overview."""
    cells = read_if_present(results / "suite/validation.csv")
    if cells is None:
        return [], []
    defaults = cells[cells["default"].astype(bool)]
    overview = []
    for measure, check in OVERVIEW:
        part = defaults[defaults.measure == measure]
        bad = part.verdict.isin(FAILING)
        overview.append({"check": f"suite of tasks, simstats suite's default: {check}", "agrees": int((~bad).sum()),
                         "misses": int(bad.sum()), "checked": len(part)})
    misses = defaults[defaults.verdict.isin(FAILING)]
    lines = ["Many models over a suite of tasks (`suite/validation.md`): the family-wise error and false discovery "
             "rates of the per-task decisions, the coverage of the suite means' and rank intervals and the size of "
             "the rank tests, per population of suites and number of tasks.", ""]
    if len(misses):
        where = "; ".join(f"{r.variant} at {r.tasks} tasks: {r.method} {r.rate:.3f} ± {r.mcse:.3f}"
                          for _, r in misses.iterrows())
        lines += [f"Where simstats suite's defaults miss: {where}.", ""]
    else:
        lines += ["simstats suite's defaults hold their error rates and cover in every cell.", ""]
    lines += figure_lines(figures, rel, [("suite/validation", "Error rates and coverage against the number of tasks")])
    return lines, overview
