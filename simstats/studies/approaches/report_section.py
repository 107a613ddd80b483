"""The approach-level study's part of the replication report: which test holds alpha over seeds x items."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io.write import figure_lines, markdown_table
from simstats.stats.crossed import MIN_VALIDATED_RUNS
from simstats.studies.approaches.validation import TEST_LABELS, TESTS
from simstats.studies.reference import read_if_present

def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Size and power of the tests comparing approaches over seeds and items: Markdown lines and rows of the report's validation overview."""
    lines, overview = [], []
    which = read_if_present(results / "approaches/which_test.csv")
    cells = read_if_present(results / "approaches/validation.csv")
    if which is not None and cells is not None:
        # the overview checks the tests built for the claim about approaches on the population of items (the
        # default t-test and the bootstrap); the other tests' excess false positives under an interaction are
        # the study's finding, listed below
        for test, check in (("approach_t", "approach t-test over seeds x items (default)"),
                            ("approach_boot_t", "approach t-test with the corrected bootstrap variance"),
                            ("approach_both", "approach bootstrap over seeds x items")):
            null = cells[(cells.truth == "identical") & (cells.test == test)]
            for label, part in ((f"k >= {MIN_VALIDATED_RUNS} runs per approach", null.seeds >= MIN_VALIDATED_RUNS),
                                (f"k < {MIN_VALIDATED_RUNS} (below the t-test's validated minimum)",
                                 null.seeds < MIN_VALIDATED_RUNS)):
                if part.any():
                    ok = int((null[part].holds_alpha.astype(str) == "True").sum())
                    overview.append({"check": f"{check}, {label}: size under the null (alpha + 3 MCSE)",
                                     "agrees": ok, "misses": int(part.sum()) - ok, "checked": int(part.sum())})
            if test == "approach_t":
                low = int(which.null_cells_far_below_alpha[which.test == test].sum())
                overview.append({"check": f"{check}: size not below alpha - 3 MCSE (not needlessly conservative)",
                                 "agrees": len(null) - low, "misses": low, "checked": len(null)})
        planner = read_if_present(results / "approaches/planner.csv")
        if planner is not None and len(planner):
            ok = int((planner.within_3_mcse.astype(str) == "True").sum())
            overview.append({"check": "planner: predicted power of the approach t-test within 3 MCSE",
                             "agrees": ok, "misses": len(planner) - ok, "checked": len(planner)})
            ok = int((planner.pilot_coverage >= 0.9).sum())
            overview.append({"check": "planner: a 3-seed pilot's 95 % power interval covers in >= 90 % of pilots",
                             "agrees": ok, "misses": len(planner) - ok, "checked": len(planner)})
        lines += ["Comparing approaches over seeds and test items: per test and variant of the base scenario, the "
                  "largest false-positive rate over its null cells, marked * where some null cell exceeds alpha + 3 "
                  "MCSE (each cell's rate, MCSE, power and the cells below alpha - 3 MCSE: "
                  "`approaches/validation.md`):", "",
                  markdown_table(_which_test_grid(which)), "",
                  _which_test_finding(which), "", _validated_finding(cells), ""]
        lines += figure_lines(figures, rel, [("approaches/validation",
                                          "Size and power of each test against the number of runs per approach")])
    return lines, overview


def _which_test_grid(which: pd.DataFrame) -> pd.DataFrame:
    """Tests by variants: the largest false-positive rate over the null cells, * where alpha is not held."""
    cell = [f"{r:.3f}" + ("" if str(ok) == "True" else " *")
            for r, ok in zip(which.max_false_positive, which.holds_alpha_everywhere)]
    grid = which.assign(cell=cell).pivot(index="label", columns="variant", values="cell")
    grid = grid.reindex(list(dict.fromkeys(which.label)))
    return grid.reset_index().rename(columns={"label": "test"}).rename_axis(columns=None)


def _which_test_finding(which: pd.DataFrame) -> str:
    """The finding, from the table: which tests hold alpha in every null cell of every variant."""
    holds = which.assign(ok=which.holds_alpha_everywhere.astype(str) == "True").groupby("label", sort=False).ok
    always = [label for label, ok in holds.all().items() if ok]
    never = [label for label, ok in holds.any().items() if not ok]
    some = [label for label in which.label.drop_duplicates() if label not in always and label not in never]
    parts = [f"Hold alpha in every null cell of every variant: {'; '.join(always) or 'none'}."]
    if some:
        parts.append(f"Hold it in some variants only: {'; '.join(some)}.")
    if never:
        parts.append(f"In no variant: {'; '.join(never)}.")
    return " ".join(parts)


def _validated_finding(cells: pd.DataFrame) -> str:
    """Which tests hold alpha in every null cell with at least the validated number of runs per approach."""
    null = cells[(cells.truth == "identical") & (cells.seeds >= MIN_VALIDATED_RUNS)]
    holds = null.assign(ok=null.holds_alpha.astype(str) == "True").groupby("test", sort=False).ok.all()
    labels = [TEST_LABELS.get(t, t) for t in TESTS if t in holds.index and holds[t]]
    return (f"From k = {MIN_VALIDATED_RUNS} runs per approach on (the approach t-test's validated minimum), hold alpha "
            f"in every null cell of every variant: {'; '.join(labels) or 'none'}.")
