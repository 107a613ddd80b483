"""The approach-level study's part of the replication report: which test holds alpha over seeds x items."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io import figure_lines, markdown_table
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
        lines += ["Comparing approaches over seeds and test items (`approaches/validation.md`): per variant of the "
                  "base scenario and test, the largest false-positive rate over its null cells (± MCSE), whether "
                  "every null cell holds alpha + 3 MCSE, how many are below alpha - 3 MCSE, and the power range:", "",
                  markdown_table(_which_test_rows(which), digits=3), "",
                  _which_test_finding(which), "", _validated_finding(cells), ""]
        lines += figure_lines(figures, rel, [("approaches/validation",
                                          "Size and power of each test against the number of runs per approach")])
    return lines, overview


def _which_test_rows(which: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "variant": which.variant, "test": which.label,
        "largest false-positive rate": [f"{r:.3f} ± {se:.3f} ({at})" for r, se, at in
                                        zip(which.max_false_positive, which.max_false_positive_mcse, which.worst_cell)],
        "holds alpha": which.holds_alpha_everywhere.astype(str).map({"True": "yes", "False": "no"}),
        "null cells below alpha - 3 MCSE": [f"{b} of {c}" for b, c in zip(which.null_cells_far_below_alpha,
                                                                        which.null_cells)],
        "power": [f"{lo:.2f}–{hi:.2f}" for lo, hi in zip(which.power_min, which.power_max)]})


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
