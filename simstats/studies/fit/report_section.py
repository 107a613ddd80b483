"""The fit study's part of the replication report: whether ``simstats fit``'s intervals hold the parameters
that simulated the runs."""
from __future__ import annotations

from pathlib import Path

from simstats.io.write import figure_lines
from simstats.studies.fit.simulate import FAILING
from simstats.studies.reference import read_if_present


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Coverage of every fitted parameter's interval: Markdown lines and the report's overview row."""
    cells = read_if_present(results / "fit/validation.csv")
    if cells is None:
        return [], []
    bad = cells.verdict.isin(FAILING)
    overview = [{"check": "simstats fit: each parameter's interval covers the value that simulated the runs "
                          "(level - 3 MCSE or more)", "agrees": int((~bad).sum()), "misses": int(bad.sum()),
                 "checked": len(cells)}]
    lines = ["Fitting the noise model to runs (`fit/validation.md`): runs simulated from known parameters in "
             "designs taken from real data, fitted back as `simstats fit` does.", ""]
    misses = cells[bad]
    if len(misses):
        where = "; ".join(f"{r.variant}: {r.parameter} {r.coverage:.3f} ± {r.mcse:.3f}" for _, r in misses.iterrows())
        lines += [f"Where the intervals undercover: {where}.", ""]
    else:
        lines += ["Every estimated parameter's interval covers at its level in every design.", ""]
    lines += figure_lines(figures, rel, [("fit/validation", "Coverage of every fitted parameter's interval")])
    return lines, overview
