"""The harness-log study's part of the replication report: which intervals cover and which paired tests hold
alpha when two models are compared from an evaluation's per-item scores."""
from __future__ import annotations

from pathlib import Path

from simstats.io.write import figure_lines
from simstats.studies.harness.simulate import FAILING
from simstats.studies.reference import read_if_present


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Coverage and size of compare --from's defaults: Markdown lines and rows of the report's validation
    overview (a rate is checked against its nominal value +- 3 MCSE)."""
    cells = read_if_present(results / "harness/validation.csv")
    if cells is None:
        return [], []
    overview = []
    defaults = cells[cells.method == "default"]
    for target, measure, check in (("score", "coverage", "a model's score interval covers (level - 3 MCSE or more)"),
                                   ("difference", "coverage",
                                    "the difference's interval covers (level - 3 MCSE or more)"),
                                   ("difference", "size", "the paired test holds alpha (alpha + 3 MCSE or less)")):
        part = defaults[(defaults.target == target) & (defaults.measure == measure)]
        bad = part.verdict.isin(FAILING)
        overview.append({"check": f"harness logs, compare --from's default: {check}",
                         "agrees": int((~bad).sum()), "misses": int(bad.sum()), "checked": len(part)})
    misses = defaults[defaults.verdict.isin(FAILING)]
    lines = ["Comparing two models from an evaluation's per-item scores (`harness/validation.md`): the coverage of "
             "every interval and the size and power of every paired test, per population of evaluations and "
             "test-set size.",
             ""]
    if len(misses):
        where = "; ".join(f"{r.variant} at {r['items']:,} items: {r.target} {r.measure} {r.rate:.3f} ± {r.mcse:.3f}"
                          for _, r in misses.iterrows())
        lines += [f"Where compare --from's defaults miss: {where}.", ""]
    else:
        lines += ["compare --from's defaults cover and hold alpha in every cell.", ""]
    lines += figure_lines(figures, rel, [("harness/validation",
                                          "Coverage, size and power against the number of test items")])
    return lines, overview
