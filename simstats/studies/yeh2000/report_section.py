"""Yeh (2000)'s section of the replication report and its checks against known truth."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io.write import figure_lines, markdown_table
from simstats.studies.reference import paper_text, read_if_present
from simstats.studies.yeh2000.ledger import RANDOMIZATION_ROWS

DISCRETE_TESTS = {"sign_mcnemar", "approximate_randomization", "exact_stratified_randomization"}


INDEPENDENT_TESTS = {"two_sample_t", "two_proportion_z", "chi2_2x2"}


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    example = read_if_present(results / "yeh/example.csv")
    if sd is None:
        return []
    yeh = ledger[(ledger.paper == "yeh2000") & (ledger.role != "input")]
    counts = "; ".join(f"{role}: {', '.join(f'{n} {v}' for v, n in g.verdict.value_counts().items())}"
                       for role, g in yeh.groupby("role", sort=False))
    lines = ["## Yeh (2000): correlated systems", "",
             "Two systems with item-level correlation r12 are scored on test sets drawn from a population; tests "
             "that assume independent samples",
             "are set against paired tests and (stratified) randomization (sizes and power: validation section). "
             "Tables: `yeh/size_power.md`,",
             "`yeh/sd_ratio.md`, `yeh/clusters.md`, `yeh/squad_summary.md`, `yeh/example.md`.", "",
             "Every number Yeh publishes is arithmetic on his inputs (identity: no Monte Carlo error on our side);",
             "his section 2.2 two-sided value against his section 3.3 count is the paper against itself. "
             f"Ledger rows: {counts}.", ""]
    rand = yeh[yeh.column.isin(["trials_meeting", "p_bound"])]
    if len(rand):
        ours_shuffled = {} if example is None else dict(zip(example.metric, example.our_trials))
        table = []
        for metric, label in RANDOMIZATION_ROWS.items():
            count = rand[(rand.row == label) & (rand.column == "trials_meeting")].iloc[0]
            bound = rand[(rand.row == label) & (rand.column == "p_bound")].iloc[0]
            table.append({"metric": metric, "Yeh's count of 2^20": f"{count.published:,.0f}",
                          "exact expectation ± 3 sd": f"{count.ours:,.1f} ± {count.tolerance - 0.5:,.1f}",
                          "our 2^20 shuffles": f"{ours_shuffled[metric]:,}" if metric in ours_shuffled else "–",
                          "count": count.verdict, "Yeh's bound": paper_text("yeh2000", "example", label, "p_bound"),
                          "exact (2^20 p+1)/(2^20+1)": f"{bound.ours:#.3g}", "bound": bound.verdict})
        lines += ["Yeh's worked example (103 relations): shuffles at least as extreme as observed, against the exact "
                  "stratified distribution of his stated counts:", "", markdown_table(pd.DataFrame(table)), ""]
    lines += figure_lines(figures, rel, [
        ("yeh/size", "Size of every test vs r12 (alpha and its Monte Carlo band marked)"),
        ("yeh/power", "Power vs r12 at the smallest true difference"),
        ("yeh/sd_ratio", "sd ratio vs r12, Yeh's three values marked"),
        ("yeh/clusters", "Size of item- and cluster-level tests vs the design effect"),
        ("yeh/squad", "SQuAD 2.0 leaderboard pairs: McNemar vs two-proportion z"),
    ])
    return lines


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Sizes of the tests under the null and the sd ratio against its closed form: Markdown lines and rows of the report's validation overview."""
    lines, overview = [], []
    size = read_if_present(results / "yeh/size_power.csv")
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    if size is not None:
        null = size[size.verdict.notna() & (size.verdict != "")]
        by_test = null.groupby("test").verdict.value_counts().unstack(fill_value=0)
        by_test.insert(0, "test", by_test.index)
        ok = int((null.verdict == "holds alpha").sum())
        off = int(null.verdict.isin(["liberal", "conservative"]).sum())
        overview.append({"check": "Yeh: size of each test under the null (undetermined: too few test sets)",
                         "agrees": ok, "misses": off, "checked": len(null)})
        kinds = {"independent": INDEPENDENT_TESTS, "discrete": DISCRETE_TESTS}
        cons = null[null.verdict == "conservative"]
        lines += ["Yeh: size under the null, null cells per verdict (alpha ± 3 MCSE):", "",
                  markdown_table(by_test.reset_index(drop=True)), "",
                  f"Conservative cells: {int(cons.test.isin(kinds['independent']).sum())} of tests that assume "
                  f"independent samples, {int(cons.test.isin(kinds['discrete']).sum())} of discrete tests, "
                  f"{int((~cons.test.isin(kinds['independent'] | kinds['discrete'])).sum())} of the others; "
                  f"liberal cells: {int((null.verdict == 'liberal').sum())}.", ""]
    if sd is not None:
        ok = int((sd.verdict == "agrees").sum())
        overview.append({"check": "Yeh: simulated sd ratio vs 1/sqrt(1 - r12)", "agrees": ok,
                         "misses": len(sd) - ok, "checked": len(sd)})
        lines += [f"Yeh: the simulated sd of a difference assuming independence over its true sd agrees with "
                  f"1/sqrt(1 - r12) in {ok} of {len(sd)} r12 values (`yeh/sd_ratio.md`): tests assuming "
                  "independence overstate the variance of a difference of correlated systems by 1/(1 - r12).", ""]
    return lines, overview
